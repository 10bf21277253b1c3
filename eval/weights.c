/* The weight-file parser and the embedded file. Format (see the file's own header): '#' comments to
 * the end of a line; a name at the start of a line followed by integers, continued on lines that begin
 * with a space or a tab. Strict, so that a typo in a tuned file stops the engine instead of silently
 * zeroing a weight. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

extern const char eval_weights_blob[], eval_weights_blob_end[];

const char *eval_weights_text(size_t *len)
{
    *len = (size_t)(eval_weights_blob_end - eval_weights_blob);
    return eval_weights_blob;
}

typedef struct {
    const char *name;
    size_t offset; /* of the first int in EvalWeights */
    int count;
    int min, max;
    bool board; /* 90 values listed from rank 10 down to rank 1 */
} WeightSpec;

#define FIELD(name, field, count, min, max)                                                                            \
    {                                                                                                                  \
        name, offsetof(EvalWeights, field), count, min, max, false                                                     \
    }
#define PST(name, index)                                                                                               \
    {                                                                                                                  \
        name, offsetof(EvalWeights, pst[index]), SQUARE_COUNT, -2000, 2000, true                                       \
    }

static const WeightSpec specs[] = {
    FIELD("piece_value", piece_value, VALUED_TYPES, 0, 10000),
    FIELD("cannon_screen", cannon_screen, 1, -1000, 1000),
    PST("pst_soldier", 0),
    PST("pst_guard", 1),
    PST("pst_elephant", 2),
    PST("pst_horse", 3),
    PST("pst_cannon", 4),
    PST("pst_chariot", 5),
    PST("pst_general", 6),
    FIELD("mobility", mobility, VALUED_TYPES, -1000, 1000),
    FIELD("safety_attacker", safety_attacker, VALUED_TYPES, -1000, 1000),
    FIELD("safety_square", safety_square, 1, -1000, 1000),
    FIELD("safety_scale", safety_scale, SAFETY_SCALE_STEPS, 0, 1000),
    FIELD("safety_missing_guard", safety_missing_guard, 1, -1000, 1000),
    FIELD("threat_by_lesser", threat_by_lesser, THREAT_TYPES, -1000, 1000),
    FIELD("threat_hanging", threat_hanging, 1, -1000, 1000),
    FIELD("tempo", tempo, 1, -1000, 1000),
    FIELD("deom", deom, 1, 0, 1000),
    FIELD("counting_verdict", counting_verdict, 1, 0, 10000),
    FIELD("counting_window", counting_window, 1, 1, 1000),
    FIELD("counting_limit_blend", counting_limit_blend, 1, 0, 100),
    FIELD("counting_option_blend", counting_option_blend, 1, 0, 100),
};

enum { SPEC_COUNT = sizeof specs / sizeof specs[0] };

static bool fail(char *err, size_t err_size, const char *fmt, ...)
{
    if (err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool weights_is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool weights_next_token(const char *text, size_t line_end, size_t *p, size_t *start)
{
    while (*p < line_end && weights_is_blank(text[*p]))
        ++*p;
    if (*p == line_end || text[*p] == '#')
        return false;
    *start = *p;
    while (*p < line_end && !weights_is_blank(text[*p]) && text[*p] != '#')
        ++*p;
    return true;
}

/* A token for a message: at most 40 bytes, anything unprintable as '?'. */
static void quote_token(const char *tok, size_t len, char out[48])
{
    size_t n = len < 40 ? len : 40;
    for (size_t i = 0; i < n; i++)
        out[i] = tok[i] >= 0x21 && tok[i] <= 0x7e ? tok[i] : '?';
    strcpy(out + n, len > 40 ? "..." : "");
}

static bool parse_int(const char *tok, size_t len, long *out)
{
    size_t i = 0;
    bool negative = false;
    if (i < len && (tok[i] == '-' || tok[i] == '+'))
        negative = tok[i++] == '-';
    if (i == len)
        return false;
    long v = 0;
    for (; i < len; i++) {
        if (tok[i] < '0' || tok[i] > '9')
            return false;
        v = v > 100000000 ? v : 10 * v + (tok[i] - '0'); /* saturates far beyond every range */
    }
    *out = negative ? -v : v;
    return true;
}

/* The weight called `name` (`len` bytes), or NULL. */
static const WeightSpec *find_spec(const char *name, size_t len)
{
    for (int k = 0; k < SPEC_COUNT; k++)
        if (strlen(specs[k].name) == len && !memcmp(specs[k].name, name, len))
            return &specs[k];
    return NULL;
}

/* Where the i-th value the file lists for `spec` goes among its ints: a board is listed rank 10 first,
 * so its i-th value is file i % 9 of rank 9 - i / 9. */
static int value_index(const WeightSpec *spec, int i)
{
    return spec->board ? (RANK_COUNT - 1 - i / FILE_COUNT) * FILE_COUNT + i % FILE_COUNT : i;
}

int eval_weight_count(const char *name, size_t len)
{
    const WeightSpec *spec = find_spec(name, len);
    return spec ? spec->count : 0;
}

bool eval_weight_get(const EvalWeights *w, const char *name, size_t len, int i, int *value)
{
    const WeightSpec *spec = find_spec(name, len);
    if (!spec || i < 0 || i >= spec->count)
        return false;
    *value = ((const int *)((const char *)w + spec->offset))[value_index(spec, i)];
    return true;
}

/* The values given so far for the current name must be exactly its count. */
static bool finish(const WeightSpec *spec, int given, int line, char *err, size_t err_size)
{
    if (spec && given != spec->count)
        return fail(err, err_size, "line %d: '%s' has %d value%s, expected %d", line, spec->name, given,
                    given == 1 ? "" : "s", spec->count);
    return true;
}

bool eval_parse_weights(const char *text, size_t len, EvalWeights *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    bool seen[SPEC_COUNT] = {false};
    const WeightSpec *spec = NULL; /* the name whose values are being read */
    int given = 0, spec_line = 0;
    int line = 1;
    for (size_t i = 0; i < len; line++) {
        size_t end = i;
        while (end < len && text[end] != '\n')
            end++;
        bool continuation = weights_is_blank(text[i]);
        bool first = true;
        size_t start;
        for (size_t p = i; weights_next_token(text, end, &p, &start);) {
            const char *tok = text + start;
            size_t tok_len = p - start;
            char shown[48];
            quote_token(tok, tok_len, shown);
            if (first && !continuation) {
                /* A new name: the previous one must be complete. */
                if (!finish(spec, given, spec_line, err, err_size))
                    return false;
                spec = find_spec(tok, tok_len);
                if (!spec)
                    return fail(err, err_size, "line %d: unknown weight '%s'", line, shown);
                if (seen[spec - specs])
                    return fail(err, err_size, "line %d: '%s' given twice", line, spec->name);
                seen[spec - specs] = true;
                given = 0;
                spec_line = line;
            } else {
                long v;
                if (!spec)
                    return fail(err, err_size, "line %d: value '%s' before any weight name", line, shown);
                if (!parse_int(tok, tok_len, &v))
                    return fail(err, err_size, "line %d: '%s' is not an integer (in '%s')%s", line, shown, spec->name,
                                first && ((*tok | 0x20) >= 'a' && (*tok | 0x20) <= 'z')
                                    ? "; a line that begins with a space continues the weight above it"
                                    : "");
                if (v < spec->min || v > spec->max)
                    return fail(err, err_size, "line %d: %s is out of range for '%s' (%d to %d)", line, shown,
                                spec->name, spec->min, spec->max);
                if (given < spec->count)
                    ((int *)((char *)out + spec->offset))[value_index(spec, given)] = (int)v;
                given = given < INT_MAX ? given + 1 : given;
            }
            first = false;
        }
        i = end + 1;
    }
    if (!finish(spec, given, spec_line, err, err_size))
        return false;
    for (int k = 0; k < SPEC_COUNT; k++)
        if (!seen[k])
            return fail(err, err_size, "missing weight '%s'", specs[k].name);
    return true;
}

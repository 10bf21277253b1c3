#include "epd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

bool epd_is_blank(const char *line)
{
    const char *p = skip_blank(line);
    return *p == '\0' || *p == '#' || *p == '\n';
}

/* Copies the next word (up to a blank, ';' or the end) into buf; returns its length, 0 at none. */
static size_t next_word(const char **cursor, char *buf, size_t size)
{
    const char *p = skip_blank(*cursor);
    size_t n = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != ';') {
        if (n + 1 < size)
            buf[n] = *p;
        n++;
        p++;
    }
    buf[n < size ? n : size - 1] = '\0';
    *cursor = p;
    return n;
}

static bool is_counter(const char *s)
{
    if (!*s || strlen(s) > 6)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* A word in the UCI move text of Janggi (`c6b6`, `h10g8`; a pass repeats the square): files a-i, ranks
 * 1-10. */
static bool is_move_text(const char *s)
{
    for (int square = 0; square < 2; square++) {
        if (*s < 'a' || *s > 'i' || !isdigit((unsigned char)s[1]))
            return false;
        s += s[1] == '1' && s[2] == '0' ? 3 : 2;
        if (s[-1] == '0' && s[-2] != '1')
            return false;
    }
    return *s == '\0';
}

static bool fail(char *err, size_t size, const char *fmt, const char *arg)
{
    snprintf(err, size, fmt, arg);
    return false;
}

bool epd_parse_line(const char *line, EpdPosition *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    const char *p = line;
    char fields[4][100];
    static const char *const names[4] = {"board", "side to move", "third field", "fourth field"};
    for (int i = 0; i < 4; i++) {
        size_t n = next_word(&p, fields[i], sizeof fields[i]);
        if (n == 0)
            return fail(err, err_size, "the EPD line has no %s (expected `<board> <side> - -` then operations)",
                        names[i]);
        if (n >= sizeof fields[i])
            return fail(err, err_size, "the EPD %s is too long", names[i]);
    }
    char halfmove[16] = "0", fullmove[16] = "1";
    /* FEN counters after the four fields, as in tests/data/perft/janggi.epd */
    const char *save = p;
    char a[16], b[16];
    if (next_word(&p, a, sizeof a) && is_counter(a) && next_word(&p, b, sizeof b) && is_counter(b)) {
        strcpy(halfmove, a);
        strcpy(fullmove, b);
    } else {
        p = save;
    }
    for (;;) {
        p = skip_blank(p);
        while (*p == ';')
            p = skip_blank(p + 1);
        if (!*p || *p == '\n')
            break;
        if (out->op_count == EPD_MAX_OPS)
            return fail(err, err_size, "more than %s operations", "32");
        EpdOperation *op = &out->ops[out->op_count];
        size_t n = next_word(&p, op->opcode, sizeof op->opcode);
        if (n >= sizeof op->opcode)
            return fail(err, err_size, "an operation name is too long: '%.40s'", op->opcode);
        if (!isalpha((unsigned char)op->opcode[0]))
            return fail(err, err_size, "an operation must begin with a name, not '%s'", op->opcode);
        /* `FEN c6b6` would otherwise be an operation named c6b6 that every reader ignores */
        if (is_move_text(op->opcode)) {
            snprintf(err, err_size, "'%s' is a move, not an operation: moves follow the word moves (`moves %s`)",
                     op->opcode, op->opcode);
            return false;
        }
        /* operands up to ';' (or the end of the line), a quoted string kept whole */
        size_t len = 0;
        p = skip_blank(p);
        if (!strcmp(op->opcode, "moves") && !out->has_moves) {
            size_t span = strcspn(p, ";\n");
            while (span && (p[span - 1] == ' ' || p[span - 1] == '\t' || p[span - 1] == '\r'))
                span--;
            out->has_moves = true, out->moves_at = (size_t)(p - line), out->moves_len = span;
        }
        while (*p && *p != ';' && *p != '\n') {
            if (*p == '"') {
                const char *close = strchr(p + 1, '"');
                if (!close)
                    return fail(err, err_size, "unterminated string in operation '%s'", op->opcode);
                for (const char *q = p + 1; q < close && len + 1 < sizeof op->operand; q++)
                    op->operand[len++] = *q;
                p = close + 1;
                continue;
            }
            if (len + 1 < sizeof op->operand)
                op->operand[len++] = *p;
            p++;
        }
        while (len && (op->operand[len - 1] == ' ' || op->operand[len - 1] == '\t' || op->operand[len - 1] == '\r'))
            len--;
        op->operand[len] = '\0';
        out->op_count++;
        if (!strcmp(op->opcode, "hmvc") || !strcmp(op->opcode, "fmvn")) {
            if (!is_counter(op->operand))
                return fail(err, err_size, "operation %s needs a number", op->opcode);
            strcpy(!strcmp(op->opcode, "hmvc") ? halfmove : fullmove, op->operand);
        }
    }
    int n = snprintf(out->fen, sizeof out->fen, "%s %s %s %s %s %s", fields[0], fields[1], fields[2], fields[3],
                     halfmove, fullmove);
    if (n < 0 || (size_t)n >= sizeof out->fen)
        return fail(err, err_size, "the FEN is too long (%s)", "over 127 characters");
    return true;
}

const char *epd_operation(const EpdPosition *epd, const char *opcode)
{
    for (int i = 0; i < epd->op_count; i++)
        if (strcmp(epd->ops[i].opcode, opcode) == 0)
            return epd->ops[i].operand;
    return NULL;
}

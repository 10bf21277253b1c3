#include "cli_options.h"

#include <ctype.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* The help's second column starts after the widest first column up to this width; a wider one has
 * its explanation on the next line. */
enum { HELP_COLUMN_MAX = 24 };

bool cli_parse_int(const char *text, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool cli_parse_real(const char *text, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (!*text || *end || errno || !(v >= min && v <= max)) /* NaN fails the range */
        return false;
    *out = v;
    return true;
}

__attribute__((format(printf, 3, 4))) static CliResult fail(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return CLI_ERROR;
}

static bool is_positional(const CliOption *o) { return o->name[0] != '-'; }

static const CliOption *find_option(const CliCommand *cmd, const char *word)
{
    for (int i = 0; i < cmd->count; i++) {
        const CliOption *o = &cmd->options[i];
        if (!is_positional(o) && (!strcmp(word, o->name) || (o->alias && !strcmp(word, o->alias))))
            return o;
    }
    return NULL;
}

/* The n-th positional entry (from 0), or NULL. */
static const CliOption *find_positional(const CliCommand *cmd, int n)
{
    for (int i = 0; i < cmd->count; i++)
        if (is_positional(&cmd->options[i]) && n-- == 0)
            return &cmd->options[i];
    return NULL;
}

/* "a", "a or b", "a, b or c". */
static void list_choices(const char *const *choices, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; choices[k] && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 k == 0           ? ""
                                 : choices[k + 1] ? ", "
                                                  : " or ",
                                 choices[k]);
}

/* Stores (or hands to the action) the value words[0..count) of one occurrence of o. */
static CliResult take_value(const CliOption *o, char **words, int count, void *context, char *err, size_t err_size)
{
    if (o->action)
        return o->action(o, words, count, context, err, err_size) ? CLI_OK : CLI_ERROR;
    const char *value = count ? words[0] : NULL;
    long long n = 0;
    double d = 0;
    switch (o->kind) {
    case CLI_FLAG: *o->flag = !o->off; return CLI_OK;
    case CLI_INT:
    case CLI_INT64:
    case CLI_REAL: {
        bool ok = o->kind == CLI_REAL ? cli_parse_real(value, (double)o->min, (double)o->max, &d)
                                      : cli_parse_int(value, o->min, o->max, &n);
        if (!ok && o->max == CLI_NO_MAX)
            return fail(err, err_size, "%s must be a number from %lld, not '%s'", o->name, o->min, value);
        if (!ok)
            return fail(err, err_size, "%s must be a number from %lld to %lld, not '%s'", o->name, o->min, o->max,
                        value);
        if (o->kind == CLI_INT)
            *o->integer = (int)n;
        else if (o->kind == CLI_INT64)
            *o->integer64 = (int64_t)n;
        else
            *o->real = d;
        return CLI_OK;
    }
    case CLI_STRING: *o->text = value; return CLI_OK;
    case CLI_CHOICE:
        for (int k = 0; o->choices[k]; k++)
            if (!strcmp(value, o->choices[k])) {
                *o->choice = k;
                return CLI_OK;
            }
        char list[256];
        list_choices(o->choices, list, sizeof list);
        return fail(err, err_size, "%s must be %s, not '%s'", o->name, list, value);
    case CLI_WORDS: *o->words = (CliWords){words, count}; return CLI_OK;
    }
    return fail(err, err_size, "%s: unknown kind of option", o->name);
}

CliResult cli_parse(const CliCommand *cmd, int argc, char **argv, void *context, char *err, size_t err_size)
{
    int positionals = 0;
    for (int i = 0; i < argc; i++) {
        const char *word = argv[i];
        const CliOption *o;
        int first = i + 1; /* the first value word */
        if (word[0] == '-') {
            if (!strcmp(word, "--help") || !strcmp(word, "-h"))
                return CLI_HELP;
            if (!(o = find_option(cmd, word)))
                return fail(err, err_size, "unknown option '%s' (see %s --help)", word, cmd->command);
        } else {
            if (!(o = find_positional(cmd, positionals++)))
                return fail(err, err_size, "unexpected '%s' (see %s --help)", word, cmd->command);
            first = i;
        }
        int count = 1;
        if (o->kind == CLI_FLAG) {
            count = 0;
        } else if (o->kind == CLI_WORDS) {
            for (count = 0; first + count < argc && strncmp(argv[first + count], "--", 2) != 0; count++)
                ;
            if (count == 0)
                return fail(err, err_size, "option %s needs %s", o->name, o->value_name ? o->value_name : "words");
        } else if (first >= argc || (strncmp(argv[first], "--", 2) == 0 && isalpha((unsigned char)argv[first][2]))) {
            /* the next option is not this one's value (`--pgn --log x`) */
            return fail(err, err_size, "option %s needs a value", o->name);
        }
        if (take_value(o, argv + first, count, context, err, err_size) != CLI_OK)
            return CLI_ERROR;
        i = first + count - 1;
    }
    return CLI_OK;
}

/* The first column of an entry's help line: "  --depth N", "  --help, -h", "  depth". */
static int first_column(const CliOption *o, char *buf, size_t size)
{
    if (is_positional(o))
        return snprintf(buf, size, "  %s", o->value_name ? o->value_name : o->name);
    return snprintf(buf, size, "  %s%s%s%s%s", o->name, o->alias ? ", " : "", o->alias ? o->alias : "",
                    o->value_name ? " " : "", o->value_name ? o->value_name : "");
}

void cli_help(const CliCommand *cmd, FILE *out)
{
    static const CliOption help = {.name = "--help", .alias = "-h", .kind = CLI_FLAG, .help = "print this help"};
    char col[512];
    int width = first_column(&help, col, sizeof col);
    for (int i = 0; i < cmd->count; i++) {
        int n = first_column(&cmd->options[i], col, sizeof col);
        if (n > width && n <= HELP_COLUMN_MAX)
            width = n;
    }
    fputs(cmd->usage, out);
    fputc('\n', out);
    for (int i = 0; i <= cmd->count; i++) {
        const CliOption *o = i < cmd->count ? &cmd->options[i] : &help;
        int n = first_column(o, col, sizeof col);
        if (n <= width)
            fprintf(out, "%-*s  %s\n", width, col, o->help);
        else
            fprintf(out, "%s\n%*s%s\n", col, width + 2, "", o->help);
    }
    if (cmd->notes) {
        fputc('\n', out);
        fputs(cmd->notes, out);
    }
}

int cli_read_options(const CliCommand *cmd, int argc, char **argv, void *context)
{
    char err[512];
    switch (cli_parse(cmd, argc, argv, context, err, sizeof err)) {
    case CLI_OK: return -1;
    case CLI_HELP: cli_help(cmd, stdout); return 0;
    default: {
        char program[64];
        snprintf(program, sizeof program, "%.*s", (int)strcspn(cmd->command, " "), cmd->command);
        report_error(program, "%s", err);
        return 2;
    }
    }
}

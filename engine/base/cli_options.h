/* Command-line options read from one table. Each program (janggun perft, bench and analyze,
 * janggun-match, janggun-tune) lists its options once, with where each value goes and its line of
 * help, and gets the same reading, the same error messages and the same --help text.
 *
 * An option is a word beginning with '-'; its value, if it takes one, is the next word ("-1", a move
 * list), unless that word is itself an option (`--` and a letter): `--pgn --log x` is refused rather
 * than writing a file named --log. A table entry whose name does not begin with '-' is a positional
 * argument: the words that are not options fill those entries in table order. --help and -h are always
 * known. An option given twice keeps its last value, except where an action reads every occurrence. */
#ifndef JANGGUN_CLI_OPTIONS_H
#define JANGGUN_CLI_OPTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    CLI_FLAG,   /* no value: sets *flag to true (false with .off) */
    CLI_INT,    /* a whole number from .min to .max (within int) into *integer */
    CLI_INT64,  /* a whole number from .min to .max into *integer64 */
    CLI_REAL,   /* a number, decimals allowed, from .min to .max into *real */
    CLI_STRING, /* the next word, as it is, into *text */
    CLI_CHOICE, /* one of the words of .choices: its index into *choice */
    CLI_WORDS,  /* the words up to the next one beginning with "--" (at least one) into *words */
} CliKind;

/* The words of a CLI_WORDS option (pointers into argv). */
typedef struct {
    char **words;
    int count;
} CliWords;

typedef struct CliOption CliOption;

/* Called for each occurrence of a CLI_STRING (one word) or CLI_WORDS option that has it, in command-line
 * order, instead of storing the value. false, with a message in err, refuses the command line. */
typedef bool CliAction(const CliOption *option, char **words, int count, void *context, char *err, size_t err_size);

/* No upper end to an integer's range: the error message then says "from MIN". */
#define CLI_NO_MAX LLONG_MAX

struct CliOption {
    const char *name;  /* "--depth"; without a leading '-', a positional argument named so in messages */
    const char *alias; /* "-d", or NULL */
    CliKind kind;
    union { /* where the value goes: the member the kind names */
        bool *flag;
        int *integer;
        int64_t *integer64;
        double *real;
        const char **text;
        int *choice;
        CliWords *words;
    };
    CliAction *action;          /* CLI_STRING, CLI_WORDS: called instead of storing (see above) */
    bool off;                   /* CLI_FLAG: sets false (--no-progress) */
    long long min, max;         /* CLI_INT, CLI_INT64, CLI_REAL: the range, both ends allowed */
    const char *const *choices; /* CLI_CHOICE: the words, NULL-terminated */
    const char *value_name;     /* the value in the help: "N", "FILE", "KEY=VALUE ..."; NULL for a flag */
    const char *help;           /* one line of explanation */
};

typedef struct {
    const char *command; /* "janggun perft": its first word is the program in error lines */
    const char *usage;   /* the lines --help prints first ("usage: janggun perft ...\n") */
    const char *notes;   /* lines --help prints after the options, or NULL */
    const CliOption *options;
    int count;
} CliCommand;

#define CLI_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))

typedef enum { CLI_OK, CLI_HELP, CLI_ERROR } CliResult;

/* Reads argv[0..argc) against the table and stores the values. CLI_HELP when --help or -h came before
 * any error; CLI_ERROR with the message in err (no program prefix): an unknown option, an unexpected
 * word, a missing value, a number out of range or not a number, a word not among the choices, or an
 * action's message. context is handed to the actions. */
CliResult cli_parse(const CliCommand *cmd, int argc, char **argv, void *context, char *err, size_t err_size);

/* The help: the usage lines, a blank line, one aligned line per option (--help, -h last), then a blank
 * line and the notes when there are any. */
void cli_help(const CliCommand *cmd, FILE *out);

/* cli_parse for a program's main: -1 when the program goes on; otherwise its exit status, after the help
 * on standard output (0) or "PROGRAM: error: MESSAGE" on standard error (2). */
int cli_read_options(const CliCommand *cmd, int argc, char **argv, void *context);

/* A whole number (strtoll's form, nothing after it) from min to max. */
bool cli_parse_int(const char *text, long long min, long long max, long long *out);
/* A number (strtod's form, nothing after it, not NaN) from min to max. */
bool cli_parse_real(const char *text, double min, double max, double *out);

#endif

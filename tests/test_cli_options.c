/* The command-line option table (engine/base/cli_options.h): every kind of option stored exactly, every
 * error message word for word, and the generated --help text byte for byte. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/base/cli_options.h"

/* The values one table writes, with their defaults. */
typedef struct {
    bool divide, progress;
    int depth, notation;
    int64_t nodes;
    double k;
    const char *fen;
    CliWords each;
    int level;      /* the positional */
    char seen[256]; /* the action's record: "--engine a b|--moves x|" */
} Values;

static bool record(const CliOption *option, char **words, int count, void *context, char *err, size_t err_size)
{
    Values *v = context;
    size_t n = strlen(v->seen);
    n += (size_t)snprintf(v->seen + n, sizeof v->seen - n, "%s", option->name);
    for (int i = 0; i < count; i++)
        n += (size_t)snprintf(v->seen + n, sizeof v->seen - n, " %s", words[i]);
    snprintf(v->seen + n, sizeof v->seen - n, "|");
    if (!strcmp(words[0], "bad")) {
        snprintf(err, err_size, "%s: 'bad' is refused", option->name);
        return false;
    }
    return true;
}

static const char *const notations[] = {"uci", "korean", "wxf", NULL};

/* Parses the words (a NULL-terminated list) with a table over *v; the message in err. */
static CliResult parse(Values *v, char *err, size_t err_size, char **words)
{
    const CliOption options[] = {
        {.name = "--depth",
         .alias = "-d",
         .kind = CLI_INT,
         .integer = &v->depth,
         .min = 1,
         .max = 20,
         .value_name = "N",
         .help = "count to depth N"},
        {.name = "--nodes",
         .kind = CLI_INT64,
         .integer64 = &v->nodes,
         .min = 1,
         .max = CLI_NO_MAX,
         .value_name = "N",
         .help = "a node limit"},
        {.name = "--k", .kind = CLI_REAL, .real = &v->k, .min = 0, .max = 1, .value_name = "K", .help = "K"},
        {.name = "--fen", .kind = CLI_STRING, .text = &v->fen, .value_name = "FEN", .help = "the position"},
        {.name = "--notation",
         .kind = CLI_CHOICE,
         .choice = &v->notation,
         .choices = notations,
         .value_name = "uci|korean|wxf",
         .help = "how moves are written"},
        {.name = "--divide", .kind = CLI_FLAG, .flag = &v->divide, .help = "one line per move"},
        {.name = "--no-progress", .kind = CLI_FLAG, .flag = &v->progress, .off = true, .help = "no bar"},
        {.name = "--each", .kind = CLI_WORDS, .words = &v->each, .value_name = "KEY=VALUE ...", .help = "words"},
        {.name = "--engine", .kind = CLI_WORDS, .action = record, .value_name = "cmd=CMD ...", .help = "an engine"},
        {.name = "--moves", .kind = CLI_STRING, .action = record, .value_name = "MOVES", .help = "moves"},
        {.name = "the level",
         .kind = CLI_INT,
         .integer = &v->level,
         .min = 0,
         .max = 9,
         .value_name = "level",
         .help = "a positional"},
    };
    const CliCommand cmd = {"prog sub", "usage: prog sub [OPTIONS]\n", NULL, options, CLI_COUNT(options)};
    int argc = 0;
    while (words[argc])
        argc++;
    err[0] = '\0';
    return cli_parse(&cmd, argc, words, v, err, err_size);
}

/* PARSE(&v, err, "--depth", "3"): the words as a NULL-terminated list. */
#define PARSE(v, err, ...) parse((v), (err), sizeof(err), (char *[]){__VA_ARGS__, NULL})

static Values defaults(void)
{
    return (Values){.progress = true, .depth = -1, .notation = -1, .nodes = -1, .k = -1, .level = -1};
}

static void test_each_kind_is_stored(void **state)
{
    (void)state;
    Values v = defaults();
    char err[256];
    assert_int_equal(parse(&v, err, sizeof err, (char *[]){NULL}), CLI_OK);
    assert_int_equal(v.depth, -1); /* nothing given: nothing written */
    assert_null(v.fen);
    assert_true(v.progress);

    assert_int_equal(PARSE(&v, err, "--depth", "7", "--nodes", "1000000000000", "--k", "0.0125", "--fen", "-- a b",
                           "--notation", "wxf", "--divide", "--no-progress", "--each", "x=1", "y=2", "--depth", "20",
                           "4"),
                     CLI_OK);
    assert_string_equal(err, "");
    assert_int_equal(v.depth, 20); /* the last one counts */
    assert_int_equal(v.nodes, 1000000000000LL);
    assert_true(v.k == 0.0125);
    assert_string_equal(v.fen, "-- a b"); /* a value may begin with "--" */
    assert_int_equal(v.notation, 2);
    assert_true(v.divide);
    assert_false(v.progress);
    assert_int_equal(v.each.count, 2);
    assert_string_equal(v.each.words[0], "x=1");
    assert_string_equal(v.each.words[1], "y=2");
    assert_int_equal(v.level, 4);

    /* The alias, the ends of the ranges, a value that looks like an option, words up to the next "--". */
    v = defaults();
    assert_int_equal(PARSE(&v, err, "-d", "1", "--k", "1", "--nodes", "9223372036854775807", "--fen", "-1", "--each",
                           "a=b", "-c", "--divide"),
                     CLI_OK);
    assert_int_equal(v.depth, 1);
    assert_true(v.k == 1.0);
    assert_int_equal(v.nodes, INT64_MAX);
    assert_string_equal(v.fen, "-1");
    assert_int_equal(v.each.count, 2);
    assert_string_equal(v.each.words[1], "-c");
    assert_true(v.divide);

    /* Actions see every occurrence in order, with the context. */
    v = defaults();
    assert_int_equal(PARSE(&v, err, "--engine", "cmd=a", "name=A", "--moves", "b1c3 b10c8", "--engine", "cmd=b"),
                     CLI_OK);
    assert_string_equal(v.seen, "--engine cmd=a name=A|--moves b1c3 b10c8|--engine cmd=b|");
}

static void test_help_is_recognised(void **state)
{
    (void)state;
    Values v = defaults();
    char err[256];
    assert_int_equal(PARSE(&v, err, "--help"), CLI_HELP);
    assert_int_equal(PARSE(&v, err, "--depth", "3", "-h", "--bogus"), CLI_HELP);
    assert_int_equal(PARSE(&v, err, "--bogus", "--help"), CLI_ERROR); /* the first problem wins */
    assert_int_equal(PARSE(&v, err, "--fen", "--help"), CLI_ERROR);   /* an option is no value */
    assert_string_equal(err, "option --fen needs a value");
}

/* The words are refused with exactly this message. */
static void expect_error(const char *message, char **words)
{
    Values v = defaults();
    char err[256];
    if (parse(&v, err, sizeof err, words) != CLI_ERROR)
        fail_msg("%s ... was accepted; expected: %s", words[0], message);
    assert_string_equal(err, message);
}
#define EXPECT_ERROR(message, ...) expect_error((message), (char *[]){__VA_ARGS__, NULL})

static void test_error_messages(void **state)
{
    (void)state;
    EXPECT_ERROR("unknown option '--bogus' (see prog sub --help)", "--bogus", "3");
    EXPECT_ERROR("unknown option '-x' (see prog sub --help)", "-x");
    EXPECT_ERROR("unknown option '--' (see prog sub --help)", "--each", "a=b", "--");
    EXPECT_ERROR("unexpected 'x' (see prog sub --help)", "3", "x");
    EXPECT_ERROR("option --depth needs a value", "--depth");
    EXPECT_ERROR("option --fen needs a value", "--divide", "--fen");
    EXPECT_ERROR("option --fen needs a value", "--fen", "--divide"); /* the next option is no value */
    EXPECT_ERROR("option --each needs KEY=VALUE ...", "--each");
    EXPECT_ERROR("option --engine needs cmd=CMD ...", "--engine", "--divide");
    EXPECT_ERROR("--depth must be a number from 1 to 20, not '0'", "--depth", "0");
    EXPECT_ERROR("--depth must be a number from 1 to 20, not '21'", "-d", "21");
    EXPECT_ERROR("--depth must be a number from 1 to 20, not 'x'", "--depth", "x");
    EXPECT_ERROR("--depth must be a number from 1 to 20, not '3x'", "--depth", "3x");
    EXPECT_ERROR("--depth must be a number from 1 to 20, not ''", "--depth", "");
    EXPECT_ERROR("--depth must be a number from 1 to 20, not '99999999999999999999'", "--depth",
                 "99999999999999999999");
    EXPECT_ERROR("--nodes must be a number from 1, not '0'", "--nodes", "0");
    EXPECT_ERROR("--nodes must be a number from 1, not '9223372036854775808'", "--nodes", "9223372036854775808");
    EXPECT_ERROR("--k must be a number from 0 to 1, not '1.5'", "--k", "1.5");
    EXPECT_ERROR("--k must be a number from 0 to 1, not 'nan'", "--k", "nan");
    EXPECT_ERROR("--k must be a number from 0 to 1, not '0.5x'", "--k", "0.5x");
    EXPECT_ERROR("--notation must be uci, korean or wxf, not 'san'", "--notation", "san");
    EXPECT_ERROR("the level must be a number from 0 to 9, not '10'", "10");
    EXPECT_ERROR("--moves: 'bad' is refused", "--moves", "bad");
}

static void test_number_readers(void **state)
{
    (void)state;
    long long n = 7;
    double d = 7;
    assert_true(cli_parse_int("-5", -5, 5, &n));
    assert_int_equal(n, -5);
    assert_false(cli_parse_int("6", -5, 5, &n));
    assert_false(cli_parse_int(" ", -5, 5, &n));
    assert_int_equal(n, -5); /* untouched when refused */
    assert_true(cli_parse_real("2.5e-1", 0, 1, &d));
    assert_true(d == 0.25);
    assert_false(cli_parse_real("inf", 0, 1e300, &d));
    assert_false(cli_parse_real("1e999", 0, 1e300, &d));
    assert_true(d == 0.25);
}

/* Two choices read "a or b". */
static void test_two_choices(void **state)
{
    (void)state;
    int notation = -1;
    const CliOption options[] = {{.name = "--notation",
                                  .kind = CLI_CHOICE,
                                  .choice = &notation,
                                  .choices = (const char *const[]){"uci", "korean", NULL},
                                  .value_name = "uci|korean",
                                  .help = "how moves are written"}};
    const CliCommand cmd = {"janggun analyze", "usage: janggun analyze\n", NULL, options, CLI_COUNT(options)};
    char *args[] = {"--notation", "korean", "--notation", "wxf"};
    char err[256];
    assert_int_equal(cli_parse(&cmd, 2, args, NULL, err, sizeof err), CLI_OK);
    assert_int_equal(notation, 1);
    assert_int_equal(cli_parse(&cmd, 4, args, NULL, err, sizeof err), CLI_ERROR);
    assert_string_equal(err, "--notation must be uci or korean, not 'wxf'");
}

static void test_help_text(void **state)
{
    (void)state;
    int depth = 0;
    bool divide = false;
    const char *fen = NULL;
    CliWords each = {0};
    const CliOption options[] = {
        {.name = "--depth",
         .alias = "-d",
         .kind = CLI_INT,
         .integer = &depth,
         .min = 1,
         .max = 20,
         .value_name = "N",
         .help = "count the moves to depth N (1 to 20)"},
        {.name = "--fen", .kind = CLI_STRING, .text = &fen, .value_name = "FEN", .help = "the position"},
        {.name = "--divide", .kind = CLI_FLAG, .flag = &divide, .help = "one line per legal move"},
        {.name = "--engine",
         .kind = CLI_WORDS,
         .words = &each,
         .value_name = "cmd=CMD [name=NAME] [proto=uci|ucci]",
         .help = "one engine (two or more)"},
        {.name = "depth", .kind = CLI_INT, .integer = &depth, .min = 1, .max = 64, .help = "the depth"},
    };
    const CliCommand cmd = {"prog", "usage: prog [OPTIONS] [depth]\n       prog --help\n",
                            "Notes after the options,\nas given.\n", options, CLI_COUNT(options)};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    cli_help(&cmd, out);
    assert_int_equal(fclose(out), 0);
    assert_string_equal(text, "usage: prog [OPTIONS] [depth]\n"
                              "       prog --help\n"
                              "\n"
                              "  --depth, -d N  count the moves to depth N (1 to 20)\n"
                              "  --fen FEN      the position\n"
                              "  --divide       one line per legal move\n"
                              "  --engine cmd=CMD [name=NAME] [proto=uci|ucci]\n"
                              "                 one engine (two or more)\n"
                              "  depth          the depth\n"
                              "  --help, -h     print this help\n"
                              "\n"
                              "Notes after the options,\n"
                              "as given.\n");
    free(text);

    /* Without notes the help ends with the last option line. */
    const CliCommand bare = {"prog", "usage: prog\n", NULL, options + 2, 1};
    out = open_memstream(&text, &len);
    assert_non_null(out);
    cli_help(&bare, out);
    assert_int_equal(fclose(out), 0);
    assert_string_equal(text, "usage: prog\n"
                              "\n"
                              "  --divide    one line per legal move\n"
                              "  --help, -h  print this help\n");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_kind_is_stored), cmocka_unit_test(test_help_is_recognised),
        cmocka_unit_test(test_error_messages),      cmocka_unit_test(test_number_readers),
        cmocka_unit_test(test_two_choices),         cmocka_unit_test(test_help_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* EPD lines (engine/records/epd.h): the standard form with operations, the form of tests/data/perft/janggi.epd
 * (every line of which is read and its FEN accepted), hmvc/fmvn, blank and comment lines, and the
 * messages for malformed lines. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/records/epd.h"
#include "../engine/position.h"
#include "support.h"

static const char *const START_BOARD = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR";

static void test_standard(void **state)
{
    (void)state;
    EpdPosition e;
    char line[512], err[200];
    snprintf(line, sizeof line, "%s w - - bm Hc3 Hg3; id \"start; position\"; c0 \"a comment\";", START_BOARD);
    assert_true(epd_parse_line(line, &e, err, sizeof err));
    assert_string_equal(e.fen, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
    assert_int_equal(e.op_count, 3);
    assert_string_equal(epd_operation(&e, "bm"), "Hc3 Hg3");
    assert_string_equal(epd_operation(&e, "id"), "start; position");
    assert_string_equal(epd_operation(&e, "c0"), "a comment");
    assert_null(epd_operation(&e, "am"));

    snprintf(line, sizeof line, "%s b - - hmvc 12; fmvn 30;", START_BOARD);
    assert_true(epd_parse_line(line, &e, err, sizeof err));
    assert_string_equal(e.fen, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 12 30");

    /* the perft file's form: FEN counters, then ;-separated operations */
    snprintf(line, sizeof line, "%s w - - 3 7 ;variant janggimodern ;D1 32 ;D2 1024\r", START_BOARD);
    assert_true(epd_parse_line(line, &e, err, sizeof err));
    assert_string_equal(e.fen, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 3 7");
    assert_int_equal(e.op_count, 3);
    assert_string_equal(epd_operation(&e, "variant"), "janggimodern");
    assert_string_equal(epd_operation(&e, "D2"), "1024");

    /* no operations at all */
    snprintf(line, sizeof line, "%s w - -", START_BOARD);
    assert_true(epd_parse_line(line, &e, err, sizeof err));
    assert_int_equal(e.op_count, 0);

    assert_true(epd_is_blank(""));
    assert_true(epd_is_blank("   \t"));
    assert_true(epd_is_blank("# a comment"));
    assert_false(epd_is_blank(line));
}

static void expect_error(const char *line, const char *message)
{
    EpdPosition e;
    char err[200] = "";
    assert_false(epd_parse_line(line, &e, err, sizeof err));
    if (strcmp(err, message))
        fail_msg("'%s': got '%s', expected '%s'", line, err, message);
}

static void test_errors(void **state)
{
    (void)state;
    char line[512];
    expect_error("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w",
                 "the EPD line has no third field (expected `<board> <side> - -` then operations)");
    expect_error("", "the EPD line has no board (expected `<board> <side> - -` then operations)");
    snprintf(line, sizeof line, "%s w - - id \"unterminated;", START_BOARD);
    expect_error(line, "unterminated string in operation 'id'");
    snprintf(line, sizeof line, "%s w - - 12 bm Hc3;", START_BOARD);
    expect_error(line, "an operation must begin with a name, not '12'");
    snprintf(line, sizeof line, "%s w - - hmvc x;", START_BOARD);
    expect_error(line, "operation hmvc needs a number");
    /* a move without the word moves, after the counters or alone, a pass and a rank-10 move among them */
    snprintf(line, sizeof line, "%s w - - 0 1 c4c5", START_BOARD);
    expect_error(line, "'c4c5' is a move, not an operation: moves follow the word moves (`moves c4c5`)");
    snprintf(line, sizeof line, "%s b - - h10g8 i7h7;", START_BOARD);
    expect_error(line, "'h10g8' is a move, not an operation: moves follow the word moves (`moves h10g8`)");
    snprintf(line, sizeof line, "%s w - - e2e2", START_BOARD);
    expect_error(line, "'e2e2' is a move, not an operation: moves follow the word moves (`moves e2e2`)");
}

static void test_perft_file(void **state)
{
    (void)state;
    char path[1200];
    test_data_path(path, sizeof path, TEST_PERFT_FILE);
    char *text = test_read_file(path, NULL);
    if (!text)
        fail_msg("cannot read %s", path);
    int positions = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (epd_is_blank(line))
            continue;
        EpdPosition e;
        char err[200];
        if (!epd_parse_line(line, &e, err, sizeof err))
            fail_msg("%s: %s", line, err);
        const char *variant = epd_operation(&e, "variant");
        assert_non_null(variant);
        const RuleSet *rules = rules_by_name(variant);
        assert_non_null(rules);
        Position pos;
        if (!position_set_fen(&pos, e.fen, rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
            fail_msg("%s: %s", e.fen, err);
        /* the FEN as written is the FEN read */
        assert_int_equal(strncmp(line, e.fen, strlen(e.fen)), 0);
        positions++;
    }
    free(text);
    assert_true(positions > 40);
}

int main(void)
{
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_standard),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_perft_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* janggun-match's pure parts: Elo, error bars, LOS and the pentanomial SPRT against reference values
 * computed independently by tests/match_reference.py (the same formulas written out in Python, the
 * SPRT's constrained maximum likelihood found by Newton's method instead of bisection; cli_match.sh
 * checks that it reproduces every value here); time controls and clocks; the PGN writer field by
 * field; EPD and JSONL openings. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, mkstemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../bench/match/openings.h"
#include "../bench/match/match_pgn.h"
#include "../bench/match/stats.h"
#include "../bench/match/timecontrol.h"
#include "../engine/game.h"

#define START "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

static void near(double got, double want, double tol, const char *what)
{
    if (!(got >= want - tol && got <= want + tol))
        fail_msg("%s: got %.10f, expected %.10f (+-%g)", what, got, want, tol);
}

static void test_elo(void **state)
{
    (void)state;
    near(stats_elo_from_score(0.75), 190.848501887865, 1e-9, "elo(0.75)");
    near(stats_elo_from_score(0.5), 0, 1e-12, "elo(0.5)");
    near(stats_score_from_elo(100), 0.6400649998028851, 1e-12, "score(100 Elo)");
    assert_true(stats_elo_from_score(1) > 1e300 && stats_elo_from_score(0) < -1e300);

    /* +120 =100 -80 */
    EloEstimate e = stats_elo_trinomial(120, 100, 80);
    near(e.score, 0.5666666666666667, 1e-12, "score");
    near(e.elo, 46.60222762857488, 1e-9, "Elo");
    near(e.error95, 32.34119744961309, 1e-9, "Elo error");
    e = stats_elo_trinomial(30, 40, 30);
    near(e.elo, 0, 1e-12, "Elo at 50%");
    near(e.error95, 53.15797978005325, 1e-9, "Elo error at 50%");
    e = stats_elo_trinomial(10, 0, 0);
    assert_true(e.elo > 1e300 && e.error95 > 1e300);
    e = stats_elo_trinomial(0, 0, 0);
    assert_true(e.elo != e.elo); /* NAN */

    Pentanomial p = {{10, 40, 80, 50, 20}};
    e = stats_elo_pentanomial(&p);
    near(e.score, 0.5375, 1e-12, "pentanomial score");
    near(e.elo, 26.10669260503662, 1e-9, "pentanomial Elo");
    near(e.error95, 24.58410079177584, 1e-9, "pentanomial Elo error");
    p = (Pentanomial){{5, 20, 50, 20, 5}};
    e = stats_elo_pentanomial(&p);
    near(e.error95, 30.531864321710678, 1e-9, "pentanomial Elo error at 50%");
}

static void test_los(void **state)
{
    (void)state;
    near(stats_los(120, 80), 0.9976611325094764, 1e-12, "LOS 120-80");
    near(stats_los(30, 30), 0.5, 1e-12, "LOS 30-30");
    near(stats_los(7, 12), 0.12567455440511133, 1e-12, "LOS 7-12");
    near(stats_los(0, 0), 0.5, 0, "LOS with no decisive game");
}

static void test_sprt(void **state)
{
    (void)state;
    static const struct {
        long n[5];
        double elo0, elo1, llr;
    } cases[] = {
        {{10, 40, 80, 50, 20}, 0, 5, 0.7499104554260785},
        {{5, 20, 50, 20, 5}, 0, 5, -0.051739092091137584},
        {{100, 400, 900, 520, 110}, 0, 5, 3.664774133936029},
        {{0, 3, 10, 2, 0}, -5, 0, -0.06790062315292773}, /* empty counts taken as 0.001 */
        {{400, 1100, 1900, 1200, 420}, 0, 2, 1.1504092712526592},
        {{0, 0, 0, 0, 200}, 0, 5, 2.8575499090709378},
        {{0, 0, 0, 0, 7}, 0, 200, 2.929161894893066},
        {{0, 0, 0, 0, 8}, 0, 200, 3.3475393504155826},
        {{5, 0, 0, 0, 0}, 0, 200, -3.66635606781092},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Pentanomial p;
        memcpy(p.n, cases[i].n, sizeof p.n);
        char what[64];
        snprintf(what, sizeof what, "LLR case %zu", i);
        near(stats_sprt_llr(&p, cases[i].elo0, cases[i].elo1), cases[i].llr, 1e-7, what);
    }
    SprtConfig c = {0, 5, 0.05, 0.05};
    double lo, hi;
    stats_sprt_bounds(&c, &lo, &hi);
    near(lo, -2.9444389791664403, 1e-12, "lower bound");
    near(hi, 2.9444389791664403, 1e-12, "upper bound");
    c = (SprtConfig){0, 5, 0.05, 0.1};
    stats_sprt_bounds(&c, &lo, &hi);
    near(lo, -2.251291798606495, 1e-12, "lower bound, beta 0.1");
    near(hi, 2.8903717578961645, 1e-12, "upper bound, beta 0.1");
    c = (SprtConfig){0, 200, 0.05, 0.05};
    assert_int_equal(stats_sprt_decide(&c, 2.93), SPRT_CONTINUE);
    assert_int_equal(stats_sprt_decide(&c, 2.95), SPRT_H1);
    assert_int_equal(stats_sprt_decide(&c, -2.95), SPRT_H0);
}

static void test_time_control(void **state)
{
    (void)state;
    TimeControl tc = {.margin_ms = 100};
    char err[200], text[64];
    assert_true(tc_parse_clock("10+0.1", &tc, err, sizeof err));
    assert_int_equal(tc.kind, TC_CLOCK);
    assert_int_equal(tc.base_ms, 10000);
    assert_int_equal(tc.inc_ms, 100);
    assert_int_equal(tc.moves, 0);
    tc_describe(&tc, text, sizeof text);
    assert_string_equal(text, "10+0.1");
    assert_true(tc_parse_clock("40/1:30+0.25", &tc, err, sizeof err));
    assert_int_equal(tc.moves, 40);
    assert_int_equal(tc.base_ms, 90000);
    assert_int_equal(tc.inc_ms, 250);
    tc_describe(&tc, text, sizeof text);
    assert_string_equal(text, "40/90+0.25");
    const char *bad[] = {"",    "+1",  "10+", "x",  "10+y", "1.2.3", "0",
                         "0+0", "/10", "40/", "-5", "1:5",  "1:60",  "40/10/2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (tc_parse_clock(bad[i], &tc, err, sizeof err))
            fail_msg("'%s' accepted", bad[i]);
    assert_non_null(strstr(err, "not '40/10/2'"));

    /* 40 moves in 60 s: the period's time comes back after the 40th move. */
    assert_true(tc_parse_clock("40/60", &tc, err, sizeof err));
    Clock c;
    tc_clock_start(&tc, &c);
    assert_int_equal(tc_moves_to_go(&tc, &c), 40);
    assert_int_equal(tc_allowance_ms(&tc, &c, 5000), 60100);
    for (int i = 0; i < 39; i++)
        assert_true(tc_clock_charge(&tc, &c, 1000));
    assert_int_equal(c.remaining_ms, 21000);
    assert_int_equal(tc_moves_to_go(&tc, &c), 1);
    assert_true(tc_clock_charge(&tc, &c, 1000));
    assert_int_equal(c.remaining_ms, 80000);
    assert_int_equal(tc_moves_to_go(&tc, &c), 40);

    /* Base plus increment; the margin forgives a small overrun, the clock stops at 0. */
    assert_true(tc_parse_clock("1+0.5", &tc, err, sizeof err));
    tc_clock_start(&tc, &c);
    assert_true(tc_clock_charge(&tc, &c, 400));
    assert_int_equal(c.remaining_ms, 1100);
    assert_true(tc_clock_charge(&tc, &c, 1150));
    assert_int_equal(c.remaining_ms, 500);
    assert_false(tc_clock_charge(&tc, &c, 601));

    long ms;
    assert_true(tc_parse_seconds("0.25", &ms) && ms == 250);
    assert_true(tc_parse_seconds("2:05", &ms) && ms == 125000);
    assert_false(tc_parse_seconds("0", &ms));
    tc = (TimeControl){.kind = TC_MOVETIME, .movetime_ms = 250, .margin_ms = 50};
    tc_clock_start(&tc, &c);
    assert_int_equal(tc_allowance_ms(&tc, &c, 9), 300);
    assert_true(tc_clock_charge(&tc, &c, 300));
    assert_false(tc_clock_charge(&tc, &c, 301));
    tc.nodes = 20000;
    tc_describe(&tc, text, sizeof text);
    assert_string_equal(text, "st=0.25 nodes=20000");
    tc = (TimeControl){.kind = TC_NONE, .depth = 9};
    assert_int_equal(tc_allowance_ms(&tc, &c, 7000), 7000);
    assert_true(tc_clock_charge(&tc, &c, 1000000));
    tc_describe(&tc, text, sizeof text);
    assert_string_equal(text, "depth=9");
    tc.depth = 0;
    tc_describe(&tc, text, sizeof text);
    assert_string_equal(text, "-");
}

static void play(Game *g, const char *fen, const char *moves)
{
    char err[160], buf[512];
    if (!game_start(g, fen, &RULES_JANGGI, FEN_STRICT, err, sizeof err))
        fail_msg("%s", err);
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        assert_int_equal(game_play_text(g, tok, RANKS_FROM_1), MOVE_PARSE_OK);
}

static char *write_pgn(const MatchPgnGame *g)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    match_pgn_write(f, g);
    fclose(f);
    return text;
}

static void test_pgn(void **state)
{
    (void)state;
    Game g;
    play(&g, START, "b1c3 b10c8 e2e2 e9e9");
    const char *comments[] = {"book", "book", "+0.35/12 0.512s", NULL};
    MatchPgnGame pg = {.event = "Cup \"A\"",
                       .site = "here",
                       .date = "2025.01.02",
                       .round = "7",
                       .white = "Janggun",
                       .black = "FSF",
                       .result = "0-1",
                       .rules = "janggi",
                       .time_control = "10+0.1",
                       .termination = "double pass",
                       .game = &g,
                       .comments = comments,
                       .final_comment = "both sides passed; Han wins by counting: Cho 72, Han 73.5 {deom}"};
    char *text = write_pgn(&pg);
    assert_string_equal(text, "[Event \"Cup \\\"A\\\"\"]\n"
                              "[Site \"here\"]\n"
                              "[Date \"2025.01.02\"]\n"
                              "[Round \"7\"]\n"
                              "[White \"Janggun\"]\n"
                              "[Black \"FSF\"]\n"
                              "[Result \"0-1\"]\n"
                              "[Variant \"Janggi\"]\n"
                              "[Rules \"janggi\"]\n"
                              "[SetUp \"1\"]\n"
                              "[FEN \"" START "\"]\n"
                              "[TimeControl \"10+0.1\"]\n"
                              "[Termination \"double pass\"]\n"
                              "[PlyCount \"4\"]\n"
                              "\n"
                              "1. b1c3 {book} 1... b10c8 {book} 2. e2e2 {+0.35/12 0.512s} 2... e9e9 {both\n"
                              "sides passed; Han wins by counting: Cho 72, Han 73.5 (deom)} 0-1\n"
                              "\n");
    free(text);
    game_free(&g);

    /* Han to move first, at move 30, without comments; ranks 10 in the moves. */
    play(&g, "3k5/9/9/9/9/9/P8/9/4K4/9 b - - 0 30", "d10d9 e2e2 d9d10");
    pg = (MatchPgnGame){.event = "e",
                        .site = "s",
                        .date = "d",
                        .round = "1",
                        .white = "W",
                        .black = "B",
                        .result = "*",
                        .rules = "janggicasual",
                        .time_control = "-",
                        .termination = "unterminated",
                        .game = &g};
    text = write_pgn(&pg);
    const char *movetext = strstr(text, "\n\n");
    assert_non_null(movetext);
    assert_string_equal(movetext, "\n\n30... d10d9 31. e2e2 d9d10 *\n\n");
    free(text);
    game_free(&g);
}

static char *temp_file(const char *content)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_match_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(content, f);
    fclose(f);
    return path;
}

static void test_openings_epd(void **state)
{
    (void)state;
    char *path =
        temp_file("# comment\n"
                  "\n" START " moves b1c3 b10c8\n"
                  "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - ; id \"no counters\"\n"
                  "3k5/3aa4/9/9/9/9/9/9/4K4/R8 w - - 0 1 moves a1a10\n" /* mated: left out */
                  START " moves   b1c3   b10c8 \r\n");                  /* a duplicate */
    OpeningConfig cfg = {.source = OPENINGS_EPD, .path = path, .random = false};
    OpeningBook book;
    char err[300];
    if (!openings_load(&cfg, &RULES_JANGGI, &book, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(book.count, 2);
    assert_int_equal(book.skipped_over, 1);
    assert_int_equal(book.duplicates, 1);
    assert_string_equal(book.items[0].fen, START);
    assert_string_equal(book.items[0].moves, "b1c3 b10c8");
    assert_int_equal(book.items[0].plies, 2);
    assert_string_equal(book.items[1].moves, "");
    openings_free(&book);
    cfg.plies = 1;
    assert_true(openings_load(&cfg, &RULES_JANGGI, &book, err, sizeof err));
    assert_string_equal(book.items[0].moves, "b1c3");
    openings_free(&book);
    unlink(path);

    path = temp_file(START " moves b1c3 b10c9\n");
    cfg.plies = 0;
    assert_false(openings_load(&cfg, &RULES_JANGGI, &book, err, sizeof err));
    assert_non_null(strstr(err, ":1: illegal move 'b10c9' at ply 2"));
    unlink(path);
    path = temp_file("rnba1abnr/4k4 w - - 0 1\n");
    assert_false(openings_load(&cfg, &RULES_JANGGI, &book, err, sizeof err));
    assert_non_null(strstr(err, ":1: bad FEN: "));
    unlink(path);
}

static void test_openings_jsonl(void **state)
{
    (void)state;
    char *path = temp_file("{\"id\": \"x\\\"y\", \"han\": \"\\uD55C\\u0041\", \"start_fen\": \"" START
                           "\", \"moves\": [\"b1c3\", \"b10c8\", \"h1g3\"], \"plies\": 3}\n"
                           "{\"moves\": [\"i4h4\"], \"start_fen\": \"" START "\"}\n"
                           "{\"nested\": {\"a\": [1, -2.5e3, true, null, {\"moves\": []}]}, \"start_fen\": \"" START
                           "\", \"moves\": [\"c4d4\", \"c7d7\"]}\n");
    OpeningConfig cfg = {.source = OPENINGS_JSONL, .path = path, .plies = 2, .random = false};
    OpeningBook book;
    char err[300];
    if (!openings_load(&cfg, &RULES_JANGGI, &book, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(book.count, 2);
    assert_int_equal(book.skipped_short, 1);
    assert_string_equal(book.items[0].moves, "b1c3 b10c8");
    assert_string_equal(book.items[1].moves, "c4d4 c7d7");
    openings_free(&book);

    /* The seeded shuffle is the same for the same seed. */
    OpeningConfig setups = {.source = OPENINGS_SETUPS, .random = true, .seed = 42};
    OpeningBook a, b;
    assert_true(openings_load(&setups, &RULES_JANGGI, &a, err, sizeof err));
    assert_true(openings_load(&setups, &RULES_JANGGI, &b, err, sizeof err));
    assert_int_equal(a.count, 16);
    for (int i = 0; i < 16; i++)
        assert_string_equal(a.items[i].fen, b.items[i].fen);
    openings_free(&b);
    setups.seed = 43;
    assert_true(openings_load(&setups, &RULES_JANGGI, &b, err, sizeof err));
    int same = 0;
    for (int i = 0; i < 16; i++)
        same += strcmp(a.items[i].fen, b.items[i].fen) == 0;
    assert_true(same < 16);
    openings_free(&a);
    openings_free(&b);
    unlink(path);

    path = temp_file("{\"start_fen\": \"" START "\", \"moves\": [\"b1c3\",]}\n");
    assert_false(openings_load(&cfg, &RULES_JANGGI, &book, err, sizeof err));
    assert_non_null(strstr(err, ":1: not a JSON object"));
    unlink(path);
    path = temp_file("{\"moves\": [\"b1c3\", \"b10c8\"]}\n");
    assert_false(openings_load(&cfg, &RULES_JANGGI, &book, err, sizeof err));
    assert_non_null(strstr(err, ":1: no \"start_fen\" field"));
    unlink(path);
}

int main(void)
{
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo),
        cmocka_unit_test(test_los),
        cmocka_unit_test(test_sprt),
        cmocka_unit_test(test_time_control),
        cmocka_unit_test(test_pgn),
        cmocka_unit_test(test_openings_epd),
        cmocka_unit_test(test_openings_jsonl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Time management with made-up clocks: sudden death, increments over whole simulated games, moves to
 * go, fixed move times, tiny and huge clocks, no clock, and when to start another iteration. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "../search/timeman.h"

static TimeBudget budget(int64_t time_left, int64_t inc, int mtg, int64_t movetime, int64_t overhead, int ply)
{
    TimeControl tc = {.time_left_ms = time_left,
                      .increment_ms = inc,
                      .moves_to_go = mtg,
                      .movetime_ms = movetime,
                      .overhead_ms = overhead,
                      .game_ply = ply};
    return tm_budget(&tc);
}

/* What every budget with a clock must satisfy. */
static void check_sane(TimeBudget b, int64_t time_left, int64_t overhead)
{
    if (b.soft_ms < 1 || b.hard_ms < b.soft_ms)
        fail_msg("clock %lld: soft %lld, hard %lld", (long long)time_left, (long long)b.soft_ms, (long long)b.hard_ms);
    if (time_left - overhead > 1 && b.hard_ms > time_left - overhead - 1)
        fail_msg("clock %lld, overhead %lld: hard %lld leaves no margin", (long long)time_left, (long long)overhead,
                 (long long)b.hard_ms);
}

static void test_sudden_death(void **state)
{
    (void)state;
    TimeBudget b = budget(60000, 0, 0, 0, 10, 0);
    check_sane(b, 60000, 10);
    assert_in_range(b.soft_ms, 800, 2500);   /* about 1/30 of the clock */
    assert_in_range(b.hard_ms, 2500, 12000); /* a few times that, far from the whole clock */
    /* Later in the game, fewer moves remain: a bigger share of the same clock, up to 1/12. */
    int64_t last = 0;
    for (int ply = 0; ply <= 400; ply += 20) {
        TimeBudget later = budget(60000, 0, 0, 0, 10, ply);
        check_sane(later, 60000, 10);
        assert_true(later.soft_ms >= last);
        assert_true(later.soft_ms <= 60000 / 12);
        last = later.soft_ms;
    }
    assert_in_range(last, 4900, 5000); /* a twelfth, less the lag kept aside for 11 more moves */
    /* An increment adds to the budget. */
    TimeBudget inc = budget(60000, 2000, 0, 0, 10, 0);
    check_sane(inc, 60000, 10);
    assert_true(inc.soft_ms > b.soft_ms + 1000);
}

/* Plays `moves` moves each spending the whole hard limit (or the soft limit when !spend_hard), plus
 * `lag` ms of communication, and checks the clock never falls below `floor`. With `mtg` moves per
 * control the starting clock is added again at each control. */
static void simulate(int64_t clock, int64_t inc, int64_t overhead, int64_t lag, int64_t floor, int moves, int mtg,
                     bool spend_hard)
{
    int64_t control = clock;
    for (int m = 0; m < moves; m++) {
        int to_go = mtg ? mtg - m % mtg : 0;
        TimeBudget b = budget(clock, inc, to_go, 0, overhead, 2 * m);
        check_sane(b, clock, overhead);
        clock -= (spend_hard ? b.hard_ms : b.soft_ms) + lag;
        if (clock < floor)
            fail_msg("move %d: clock %lld below %lld (hard %lld, inc %lld, overhead %lld, to go %d)", m + 1,
                     (long long)clock, (long long)floor, (long long)b.hard_ms, (long long)inc, (long long)overhead,
                     to_go);
        clock += inc;
        if (mtg && to_go == 1)
            clock += control;
    }
}

static void test_increment_games(void **state)
{
    (void)state;
    /* 1 s + 0.01 s per move, 200 moves, each spending the hard limit: never below the overhead. */
    static const int64_t overheads[] = {0, 10, 30, 100};
    for (size_t i = 0; i < sizeof overheads / sizeof overheads[0]; i++)
        simulate(1000, 10, overheads[i], 0, overheads[i], 200, 0, true);
    /* With a real lag of the full overhead on every move (the increment covering the lag), the clock
     * never runs out. */
    simulate(1000, 10, 5, 5, 0, 200, 0, true);
    simulate(3000, 100, 50, 50, 0, 300, 0, true);
    simulate(180000, 2000, 10, 10, 0, 300, 0, true);
    /* Moves to go: the clock comes back at each control. */
    simulate(60000, 0, 10, 10, 0, 200, 40, false);
    simulate(60000, 0, 10, 0, 10, 200, 40, true);
    simulate(1000, 0, 10, 0, 10, 200, 10, true);
    simulate(300000, 0, 10, 10, 0, 200, 1, true);
    /* Sudden death without increment cannot survive a move spending the hard limit forever, but a
     * game of typical moves (the soft limit) keeps a twentieth of its clock after 60 moves. */
    simulate(60000, 0, 10, 10, 3000, 60, 0, false);
    simulate(60000, 0, 10, 10, 10, 150, 0, false);
}

static void test_moves_to_go(void **state)
{
    (void)state;
    /* The last move before the control: most of the clock but not all. */
    TimeBudget one = budget(60000, 0, 1, 0, 10, 80);
    check_sane(one, 60000, 10);
    assert_in_range(one.hard_ms, 45000, 59989);
    assert_in_range(one.soft_ms, 20000, one.hard_ms);
    TimeBudget short_one = budget(500, 0, 1, 0, 10, 80);
    check_sane(short_one, 500, 10);
    assert_in_range(short_one.hard_ms, 250, 489);
    /* 40 moves to go: about a fortieth. */
    TimeBudget forty = budget(60000, 0, 40, 0, 10, 0);
    check_sane(forty, 60000, 10);
    assert_in_range(forty.soft_ms, 1200, 1800);
    assert_in_range(forty.hard_ms, forty.soft_ms * 2, 60000 / 4);
    /* More moves to go, less per move. */
    TimeBudget two = budget(60000, 0, 2, 0, 10, 0), ten = budget(60000, 0, 10, 0, 10, 0);
    check_sane(two, 60000, 10);
    check_sane(ten, 60000, 10);
    assert_true(one.soft_ms > two.soft_ms && two.soft_ms > ten.soft_ms && ten.soft_ms > forty.soft_ms);
    assert_true(two.hard_ms <= 60000 / 2);
}

static void test_movetime(void **state)
{
    (void)state;
    TimeBudget b = budget(-1, 0, 0, 1000, 50, 0);
    assert_int_equal(b.soft_ms, 950);
    assert_int_equal(b.hard_ms, 950);
    b = budget(-1, 0, 0, 1000, 0, 0);
    assert_int_equal(b.soft_ms, 1000);
    assert_int_equal(b.hard_ms, 1000);
    b = budget(-1, 0, 0, 5, 10, 0); /* less than the overhead: 1 ms */
    assert_int_equal(b.soft_ms, 1);
    assert_int_equal(b.hard_ms, 1);
    /* A clock given as well still caps it. */
    b = budget(2000, 0, 0, 5000, 10, 0);
    check_sane(b, 2000, 10);
    assert_int_equal(b.soft_ms, b.hard_ms);
    b = budget(600000, 0, 0, 5000, 10, 0);
    assert_int_equal(b.hard_ms, 4990);
}

static void test_tiny_clocks(void **state)
{
    (void)state;
    /* 5 ms left: move at once, whatever the overhead. */
    static const int64_t overheads[] = {0, 1, 5, 10, 100};
    for (size_t i = 0; i < sizeof overheads / sizeof overheads[0]; i++) {
        TimeBudget b = budget(5, 0, 0, 0, overheads[i], 60);
        check_sane(b, 5, overheads[i]);
        assert_true(b.hard_ms <= 3);
        b = budget(5, 10, 0, 0, overheads[i], 60);
        check_sane(b, 5, overheads[i]);
        assert_true(b.hard_ms <= 3);
    }
    TimeBudget b = budget(0, 0, 0, 0, 10, 0);
    assert_int_equal(b.soft_ms, 1);
    assert_int_equal(b.hard_ms, 1);
    /* 30 ms with a 10 ms increment: a small fraction, keeping the overhead and a margin. */
    b = budget(30, 10, 0, 0, 10, 100);
    check_sane(b, 30, 10);
    assert_in_range(b.hard_ms, 1, 12);
    b = budget(30, 10, 1, 0, 10, 100);
    check_sane(b, 30, 10);
    assert_in_range(b.hard_ms, 1, 12);
    b = budget(100, 0, 0, 0, 10, 0);
    check_sane(b, 100, 10);
    assert_in_range(b.hard_ms, 1, 20);
    /* Nonsense inputs are read as zero. */
    b = budget(1000, -50, -3, 0, -10, -7);
    check_sane(b, 1000, 0);
}

static void test_huge_clocks(void **state)
{
    (void)state;
    TimeBudget b = budget(INT64_C(1000000000), 0, 0, 0, 10, 0); /* 11.6 days */
    check_sane(b, INT64_C(1000000000), 10);
    assert_in_range(b.soft_ms, INT64_C(10000000), INT64_C(50000000));
    static const int64_t clocks[] = {INT64_MAX / 2, INT64_MAX - 1, INT64_MAX};
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
        b = budget(clocks[i], INT64_MAX, 0, 0, 10, 0);
        check_sane(b, clocks[i], 10);
        b = budget(clocks[i], 0, 1, 0, 10, 0);
        check_sane(b, clocks[i], 10);
        b = budget(clocks[i], INT64_MAX / 3, 40, 0, 10, 0);
        check_sane(b, clocks[i], 10);
        b = budget(clocks[i], 0, 0, INT64_MAX, 10, 0);
        check_sane(b, clocks[i], 10);
    }
    b = budget(-1, 0, 0, INT64_MAX, 10, 0);
    assert_int_equal(b.hard_ms, INT64_MAX - 10);
}

static void test_no_limit(void **state)
{
    (void)state;
    TimeBudget b = budget(-1, 0, 0, 0, 10, 0);
    assert_int_equal(b.soft_ms, -1);
    assert_int_equal(b.hard_ms, -1);
    b = budget(-1, 5000, 30, 0, 10, 40); /* an increment without a clock is no clock */
    assert_true(b.soft_ms < 0 && b.hard_ms < 0);
    assert_true(tm_should_start_iteration(&b, 0, 0.0));
    assert_true(tm_should_start_iteration(&b, INT64_C(1000000000), 1.0));
}

static void test_should_start_iteration(void **state)
{
    (void)state;
    TimeBudget b = {.soft_ms = 1000, .hard_ms = 5000};
    assert_true(tm_should_start_iteration(&b, 0, 1.0));
    /* Unstable best move: up to 1.3 x soft. */
    assert_true(tm_should_start_iteration(&b, 1250, 0.0));
    assert_false(tm_should_start_iteration(&b, 1300, 0.0));
    /* Stable: stops at half the soft limit. */
    assert_true(tm_should_start_iteration(&b, 490, 1.0));
    assert_false(tm_should_start_iteration(&b, 500, 1.0));
    assert_true(tm_should_start_iteration(&b, 850, 0.5));
    assert_false(tm_should_start_iteration(&b, 900, 0.5));
    /* Out-of-range stabilities are clamped. */
    assert_false(tm_should_start_iteration(&b, 500, 7.0));
    assert_true(tm_should_start_iteration(&b, 1250, -3.0));
    /* More stability never allows more time. */
    for (int64_t t = 0; t <= 3000; t += 5)
        for (double s = 0.0; s < 1.0; s += 0.05)
            if (tm_should_start_iteration(&b, t, s + 0.05))
                assert_true(tm_should_start_iteration(&b, t, s));
    /* Past half the hard limit the next iteration would not finish. */
    TimeBudget tight = {.soft_ms = 3000, .hard_ms = 4000};
    assert_true(tm_should_start_iteration(&tight, 1990, 0.0));
    assert_false(tm_should_start_iteration(&tight, 2000, 0.0));
    /* A fixed time per move is used to the end. */
    TimeBudget fixed = budget(-1, 0, 0, 1000, 50, 0);
    assert_true(tm_should_start_iteration(&fixed, 900, 1.0));
    assert_false(tm_should_start_iteration(&fixed, 950, 0.0));
    /* With a real budget: the first iterations always start. */
    TimeBudget real = budget(60000, 0, 0, 0, 10, 0);
    assert_true(tm_should_start_iteration(&real, 1, 1.0));
    assert_false(tm_should_start_iteration(&real, real.hard_ms, 0.0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sudden_death), cmocka_unit_test(test_increment_games),
        cmocka_unit_test(test_moves_to_go),  cmocka_unit_test(test_movetime),
        cmocka_unit_test(test_tiny_clocks),  cmocka_unit_test(test_huge_clocks),
        cmocka_unit_test(test_no_limit),     cmocka_unit_test(test_should_start_iteration),
    };
    return cmocka_run_group_tests_name("timeman", tests, NULL, NULL);
}

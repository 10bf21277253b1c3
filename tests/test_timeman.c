/* Time management with made-up clocks: sudden death, increments over whole simulated games, moves to
 * go, fixed move times, tiny and huge clocks, no clock; and with made-up search figures, how long a
 * move takes and when to start another iteration. */
#include <math.h>
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

/* A search's figures: `changes` decayed best-move changes, `stable` iterations with the same best move,
 * the score against the last search's and the last iteration's, and the best move's share of the nodes. */
static IterationStats stats(double changes, int stable, int score, int previous_iteration, int previous_search,
                            double share)
{
    return (IterationStats){.best_move_changes = changes,
                            .stable_iterations = stable,
                            .score = score,
                            .previous_iteration_score = previous_iteration,
                            .previous_search_score = previous_search,
                            .best_move_node_share = share};
}

/* A best move that has not changed for six iterations with a steady score. */
static IterationStats settled(double share) { return stats(0.0, 6, 20, 20, 20, share); }

static void test_no_limit(void **state)
{
    (void)state;
    TimeBudget b = budget(-1, 0, 0, 0, 10, 0);
    assert_int_equal(b.soft_ms, -1);
    assert_int_equal(b.hard_ms, -1);
    b = budget(-1, 5000, 30, 0, 10, 40); /* an increment without a clock is no clock */
    assert_true(b.soft_ms < 0 && b.hard_ms < 0);
    /* Whatever the search has seen, a search without a limit goes on. */
    IterationStats figures[] = {settled(0.99), settled(0.1), stats(3.0, 0, -500, 0, 300, 0.2),
                                stats(NAN, -4, TM_NO_SCORE, TM_NO_SCORE, TM_NO_SCORE, NAN)};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        assert_int_equal(tm_move_time(&b, &figures[i]), -1);
        assert_true(tm_should_start_iteration(&b, 0, &figures[i]));
        assert_true(tm_should_start_iteration(&b, INT64_C(1000000000), &figures[i]));
        assert_true(tm_should_start_iteration(&b, INT64_MAX, &figures[i]));
    }
}

/* The worked examples at the top of timeman.c. */
static void test_move_time_examples(void **state)
{
    (void)state;
    TimeBudget b = {.soft_ms = 2000, .hard_ms = 10000};
    IterationStats s = settled(0.95);
    assert_int_equal(tm_move_time(&b, &s), 1400);
    assert_true(tm_should_start_iteration(&b, 699, &s));
    assert_false(tm_should_start_iteration(&b, 700, &s));
    s = settled(0.6);
    assert_true(tm_should_start_iteration(&b, 1399, &s));
    assert_false(tm_should_start_iteration(&b, 1400, &s));
    /* The best move changed in this iteration: up to the hard / 2 rule. */
    s = stats(1.0, 0, 20, 20, 20, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 5000);
    assert_true(tm_should_start_iteration(&b, 4999, &s));
    assert_false(tm_should_start_iteration(&b, 5000, &s));
    /* ... and two iterations ago. */
    s = stats(0.25, 2, 20, 20, 20, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 2475);
    /* A falling score: 30 below the last search, 15 below the last iteration. */
    s = stats(0.0, 6, -10, 5, 20, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 1750);
    /* A rising score: 60 above the last search. */
    s = stats(0.0, 6, 80, 80, 20, 0.95);
    assert_int_equal(tm_move_time(&b, &s), 840);
    assert_true(tm_should_start_iteration(&b, 419, &s));
    assert_false(tm_should_start_iteration(&b, 420, &s));
    /* Everything at its most: 1.7 x 2.5, then the hard limit. */
    s = stats(1.0, 0, -80, 20, 20, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 8500);
    TimeBudget tight = {.soft_ms = 2000, .hard_ms = 6000};
    assert_int_equal(tm_move_time(&tight, &s), 6000);
    assert_true(tm_should_start_iteration(&tight, 2999, &s));
    assert_false(tm_should_start_iteration(&tight, 3000, &s));
    /* Unknown scores count as unchanged. */
    s = stats(0.0, 6, -300, TM_NO_SCORE, TM_NO_SCORE, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 1400);
    s = stats(0.0, 6, -10, 5, TM_NO_SCORE, 0.5); /* 15 below the last iteration only: 1.05 */
    assert_int_equal(tm_move_time(&b, &s), 1470);
}

static void test_stable_dominant_move_stops_earlier(void **state)
{
    (void)state;
    TimeBudget b = {.soft_ms = 2000, .hard_ms = 10000};
    IterationStats stable = settled(0.95);
    IterationStats unstable = stats(0.5, 1, 20, 20, 20, 0.4); /* changed in the last iteration */
    assert_int_equal(tm_move_time(&b, &stable), 1400);
    assert_int_equal(tm_move_time(&b, &unstable), 3325); /* 1.75 x 0.95 */
    assert_true(tm_should_start_iteration(&b, 699, &stable));
    assert_false(tm_should_start_iteration(&b, 700, &stable));
    assert_true(tm_should_start_iteration(&b, 3324, &unstable));
    assert_false(tm_should_start_iteration(&b, 3325, &unstable));
    /* Across the clock: whenever the stable one goes on, so does the unstable one; and a larger share
     * of the nodes, more stable iterations or fewer changes never give more time. */
    for (int64_t t = 0; t <= 6000; t += 5) {
        if (tm_should_start_iteration(&b, t, &stable))
            assert_true(tm_should_start_iteration(&b, t, &unstable));
        for (int k = 0; k < 10; k++) {
            IterationStats more_stable = stats(0.0, k + 1, 20, 20, 20, 0.5), less = stats(0.0, k, 20, 20, 20, 0.5);
            if (tm_should_start_iteration(&b, t, &more_stable))
                assert_true(tm_should_start_iteration(&b, t, &less));
            IterationStats fewer = stats(k * 0.125, 0, 20, 20, 20, 0.5),
                           more = stats((k + 1) * 0.125, 0, 20, 20, 20, 0.5);
            if (tm_should_start_iteration(&b, t, &fewer))
                assert_true(tm_should_start_iteration(&b, t, &more));
            IterationStats dominant = settled(0.5 + k * 0.05), spread = settled(0.45 + k * 0.05);
            if (tm_should_start_iteration(&b, t, &dominant))
                assert_true(tm_should_start_iteration(&b, t, &spread));
        }
    }
}

static void test_falling_score_gives_more_time(void **state)
{
    (void)state;
    TimeBudget b = {.soft_ms = 1000, .hard_ms = 5000};
    IterationStats steady = settled(0.5);
    IterationStats falling = stats(0.0, 6, -10, 5, 20, 0.5); /* 30 below the last search, 15 below */
    assert_int_equal(tm_move_time(&b, &steady), 700);
    assert_int_equal(tm_move_time(&b, &falling), 875);
    assert_false(tm_should_start_iteration(&b, 700, &steady));
    assert_true(tm_should_start_iteration(&b, 700, &falling));
    /* The factor stops at 1.7 and at 0.5. */
    IterationStats collapse = stats(0.0, 6, -2000, 0, 0, 0.5), soar = stats(0.0, 6, 2000, 0, 0, 0.5);
    assert_int_equal(tm_move_time(&b, &collapse), 1190);
    assert_int_equal(tm_move_time(&b, &soar), 350);
    /* The lower the score, the more time, never less. */
    int64_t last = 0;
    for (int score = 400; score >= -400; score -= 5) {
        IterationStats s = stats(0.0, 6, score, 0, 0, 0.5);
        int64_t time = tm_move_time(&b, &s);
        assert_true(time >= last);
        assert_in_range(time, 350, 1190);
        last = time;
    }
    /* The drop since the last search weighs twice the drop since the last iteration. */
    IterationStats since_search = stats(0.0, 0, 0, 0, 30, 0.5), since_iteration = stats(0.0, 0, 0, 30, 0, 0.5);
    assert_int_equal(tm_move_time(&b, &since_search), 1200);
    assert_int_equal(tm_move_time(&b, &since_iteration), 1100);
}

static void test_never_past_hard_limit(void **state)
{
    (void)state;
    static const TimeBudget budgets[] = {{1000, 5000},
                                         {1000, 1500},
                                         {1, 2},
                                         {2, 3},
                                         {9, 10},
                                         {4950, 9900},
                                         {INT64_MAX / 4, INT64_MAX / 2},
                                         {INT64_MAX - 1, INT64_MAX}};
    static const double changes[] = {0.0, 0.3, 1.0, 2.0, 1e300};
    static const int scores[] = {-32000, -500, 0, 500, 32000};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
        for (size_t c = 0; c < sizeof changes / sizeof changes[0]; c++)
            for (size_t k = 0; k < sizeof scores / sizeof scores[0]; k++) {
                const TimeBudget *b = &budgets[i];
                IterationStats s = stats(changes[c], 0, scores[k], 32000, 32000, 0.5);
                int64_t time = tm_move_time(b, &s);
                assert_true(time >= 1 && time <= b->hard_ms);
                assert_false(tm_should_start_iteration(b, b->hard_ms / 2, &s));
                assert_false(tm_should_start_iteration(b, b->hard_ms, &s));
            }
    /* 1000 x 1.7 x 2.5 = 4250 would pass a hard limit of 1500. */
    TimeBudget b = {.soft_ms = 1000, .hard_ms = 1500};
    IterationStats s = stats(1.0, 0, -1000, 0, 0, 0.1);
    assert_int_equal(tm_move_time(&b, &s), 1500);
    assert_true(tm_should_start_iteration(&b, 749, &s));
    assert_false(tm_should_start_iteration(&b, 750, &s));
}

static void test_odd_inputs(void **state)
{
    (void)state;
    TimeBudget b = {.soft_ms = 1000, .hard_ms = 5000};
    /* NaN, negative or infinite changes: none, none, the most. */
    IterationStats s = stats(NAN, 6, 0, 0, 0, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 700);
    s = stats(-3.0, 6, 0, 0, 0, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 700);
    s = stats(INFINITY, 0, 0, 0, 0, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 2500);
    /* Negative or huge stable counts: none, six. */
    s = stats(0.0, -5, 0, 0, 0, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 1000);
    s = stats(0.0, INT32_MAX, 0, 0, 0, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 700);
    /* A NaN or negative share is no dominant move; a share above 1 is. */
    s = settled(NAN);
    assert_true(tm_should_start_iteration(&b, 699, &s));
    s = settled(-1.0);
    assert_true(tm_should_start_iteration(&b, 699, &s));
    s = settled(7.0);
    assert_false(tm_should_start_iteration(&b, 350, &s));
    /* The extreme scores do not overflow. */
    s = stats(0.0, 6, INT32_MAX, INT32_MIN + 1, INT32_MIN + 1, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 350);
    s = stats(0.0, 6, INT32_MIN + 1, INT32_MAX, INT32_MAX, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 1190);
    s = stats(0.0, 6, TM_NO_SCORE, TM_NO_SCORE, TM_NO_SCORE, 0.5);
    assert_int_equal(tm_move_time(&b, &s), 700);
    /* Time before the start (a clock that stepped back) just goes on. */
    s = settled(0.95);
    assert_true(tm_should_start_iteration(&b, -100, &s));
    assert_true(tm_should_start_iteration(&b, INT64_MIN, &s));
    /* A 1 ms soft limit never gives 0. */
    TimeBudget tiny = {.soft_ms = 1, .hard_ms = 2};
    s = stats(0.0, 6, 500, 0, 0, 0.5);
    assert_int_equal(tm_move_time(&tiny, &s), 1);
    assert_true(tm_should_start_iteration(&tiny, 0, &s));
    assert_false(tm_should_start_iteration(&tiny, 1, &s));
}

static void test_should_start_iteration(void **state)
{
    (void)state;
    TimeBudget b = {.soft_ms = 1000, .hard_ms = 5000};
    IterationStats s = settled(0.95);
    assert_true(tm_should_start_iteration(&b, 0, &s));
    /* Past half the hard limit the next iteration would not finish. */
    TimeBudget tight = {.soft_ms = 3000, .hard_ms = 4000};
    s = stats(0.0, 0, 0, 0, 0, 0.5);
    assert_int_equal(tm_move_time(&tight, &s), 3000);
    assert_true(tm_should_start_iteration(&tight, 1999, &s));
    assert_false(tm_should_start_iteration(&tight, 2000, &s));
    /* A fixed time per move is used to the end, whatever the figures. */
    TimeBudget fixed = budget(-1, 0, 0, 1000, 50, 0);
    IterationStats figures[] = {settled(0.99), stats(2.0, 0, -500, 0, 300, 0.1), stats(0.0, 6, 500, 0, 0, 1.0)};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        assert_int_equal(tm_move_time(&fixed, &figures[i]), 950);
        assert_true(tm_should_start_iteration(&fixed, 949, &figures[i]));
        assert_false(tm_should_start_iteration(&fixed, 950, &figures[i]));
    }
    /* With a real budget: the first iterations always start, none at the hard limit. */
    TimeBudget real = budget(60000, 0, 0, 0, 10, 0);
    s = settled(0.99);
    assert_true(tm_should_start_iteration(&real, 1, &s));
    s = stats(1.0, 0, -500, 0, 0, 0.1);
    assert_false(tm_should_start_iteration(&real, real.hard_ms, &s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sudden_death),
        cmocka_unit_test(test_increment_games),
        cmocka_unit_test(test_moves_to_go),
        cmocka_unit_test(test_movetime),
        cmocka_unit_test(test_tiny_clocks),
        cmocka_unit_test(test_huge_clocks),
        cmocka_unit_test(test_no_limit),
        cmocka_unit_test(test_move_time_examples),
        cmocka_unit_test(test_stable_dominant_move_stops_earlier),
        cmocka_unit_test(test_falling_score_gives_more_time),
        cmocka_unit_test(test_never_past_hard_limit),
        cmocka_unit_test(test_odd_inputs),
        cmocka_unit_test(test_should_start_iteration),
    };
    return cmocka_run_group_tests_name("timeman", tests, NULL, NULL);
}

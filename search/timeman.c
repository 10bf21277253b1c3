/* Time management: pure functions of the time control and of what the search reports after each
 * iteration (all times in milliseconds).
 *
 * tm_budget
 *   Fixed time per move (movetime > 0):  soft = hard = max(1, movetime - overhead), and never more
 *     than the clock's cap below when a clock is given too.
 *   No clock and no movetime:  soft = hard = -1 (no limit).
 *   A clock (time_left >= 0), with a negative increment, overhead, moves to go or ply read as 0:
 *     usable  = time_left - overhead; when usable <= 0, soft = hard = 1 (move at once).
 *     reserve = min(1000, max(usable / 10, min(usable / 2, 50)))
 *               (10% of the clock, at most 1 s; on short clocks at least 50 ms, or half of it)
 *     cap     = usable - reserve      hard never exceeds this, so the clock never runs out
 *     moves   = min(moves_to_go, 50) when moves_to_go > 0, else max(12, 30 - game_ply / 8)
 *               (a horizon rather than the true number of moves left, which in Janggi games of about
 *               100-150 plies is larger: early moves, where the game is decided, get more time)
 *     moves == 1 (the last move before the time control):  soft = 3/5 cap, hard = cap
 *     otherwise:
 *       planned = max(0, time_left - (max(moves, 60) - 1) * max(0, overhead - increment))
 *                 (the lag of the later moves that their increments do not pay for is kept aside)
 *       soft    = planned / moves + 3/4 increment
 *       hard    = min(5 soft, 2/5 planned + increment)
 *     then hard = clamp(hard, 1, cap) and soft = clamp(soft, 1, hard).
 *   Examples, with a 10 ms overhead: 60 s sudden death at ply 0: soft 1980, hard 9900; at ply 144 and
 *   beyond: soft 4950 (about a twelfth). 30 ms + 10 ms: soft 9, hard 10. 1 s + 10 ms, spending the whole
 *   hard limit on every move: the clock settles at 30 ms and never drops below the overhead.
 *   Sums saturate, so even INT64_MAX clocks and increments cannot overflow.
 *
 * tm_move_time: the time to use, from the soft limit and what the last completed iteration showed
 *   (scores in centipawns, a soldier is 100; a score not known counts as no change):
 *     falling     = clamp(1 + (2 (previous search - score) + (previous iteration - score)) / 300, 0.5, 1.7)
 *                   (+2/3% a centipawn lost since the last move's search, +1/3% since the last iteration;
 *                   a rising score shortens the same way)
 *     instability = 1 + 1.5 min(best-move changes, 1)         in [1, 2.5]; the changes are halved after
 *                   each iteration, so a change in this iteration counts 1, one in the last 1/2, ...
 *     stability   = 1 - 0.05 min(stable iterations, 6)       in [0.7, 1]; the best move unchanged for
 *                   6 iterations takes 70%
 *     time        = max(1, min(hard, round(soft * falling * instability * stability)))
 *   No limit (soft < 0): -1. soft == hard (a fixed time per move, or a clock so short that the soft limit
 *   met the hard one): the hard limit, since nothing is saved by stopping early.
 *
 * tm_should_start_iteration
 *   No limit: always. soft == hard: while elapsed < hard. Otherwise another iteration starts only while
 *     elapsed < time, or elapsed < time / 2 when the best move took 90% or more of the iteration's root
 *                  nodes (the others were refuted at once: the next iteration will hardly change it)
 *     and elapsed < hard / 2       (a later start would not finish anyway).
 *   Examples with soft 2000, hard 10000:
 *     best move unchanged for 6 iterations, steady score:  time 2000 * 0.7 = 1400; with 95% of the nodes
 *       on it the search stops at 700 (the rule before this one stopped a stable move at 1000), with 60% at 1400;
 *     it changed in this iteration (changes 1, stable 0):   time 5000, and the hard / 2 rule binds too;
 *     it changed two iterations ago (changes 0.25, stable 2): 2000 * 1.375 * 0.9 = 2475;
 *     stable, score 30 below the last search's and 15 below the last iteration's: falling 1.25, time 1750;
 *     stable, score 60 above the last search's: falling 0.6, time 840, 420 with 95% of the nodes;
 *     score 100 below both (falling 1.7) and a change now:  8500; with hard 6000 instead, 6000 (starting
 *       no iteration past 3000). */
#include "timeman.h"

enum {
    MAX_RESERVE_MS = 1000,
    SHORT_CLOCK_RESERVE_MS = 50,
    MAX_MOVES_TO_GO = 50,
    SUDDEN_DEATH_HORIZON = 30,
    SUDDEN_DEATH_PLY_DIVISOR = 8,
    MIN_MOVES_LEFT = 12,
    LAG_HORIZON = 60,
    HARD_PER_SOFT = 5,
    STABLE_ITERATIONS_COUNTED = 6,
};

/* tm_move_time's factors (see the top of the file). */
static const double FALLING_SCORE_DIVISOR = 300.0, MIN_FALLING = 0.5, MAX_FALLING = 1.7;
static const double INSTABILITY_PER_CHANGE = 1.5, MAX_CHANGES_COUNTED = 1.0;
static const double STABILITY_PER_ITERATION = 0.05;
static const double DOMINANT_NODE_SHARE = 0.9;

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static inline int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static inline int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* The most the clock allows for this move (at least 1). */
static int64_t clock_cap(int64_t time_left, int64_t overhead)
{
    int64_t usable = time_left - overhead;
    if (usable <= 0)
        return 1;
    int64_t reserve = min64(MAX_RESERVE_MS, max64(usable / 10, min64(usable / 2, SHORT_CLOCK_RESERVE_MS)));
    return max64(1, usable - reserve);
}

TimeBudget tm_budget(const TimeControl *tc)
{
    int64_t overhead = max64(0, tc->overhead_ms);
    int64_t increment = max64(0, tc->increment_ms);
    int64_t time_left = tc->time_left_ms;

    if (tc->movetime_ms > 0) {
        int64_t t = max64(1, tc->movetime_ms - overhead);
        if (time_left >= 0)
            t = min64(t, clock_cap(time_left, overhead));
        return (TimeBudget){t, t};
    }
    if (time_left < 0)
        return (TimeBudget){-1, -1};

    int64_t cap = clock_cap(time_left, overhead);
    int ply = tc->game_ply > 0 ? tc->game_ply : 0;
    int64_t moves = tc->moves_to_go > 0 ? min64(tc->moves_to_go, MAX_MOVES_TO_GO)
                                        : max64(MIN_MOVES_LEFT, SUDDEN_DEATH_HORIZON - ply / SUDDEN_DEATH_PLY_DIVISOR);
    int64_t soft, hard;
    if (moves == 1) {
        soft = cap / 5 * 3;
        hard = cap;
    } else {
        /* The lag of the later moves that their increments do not pay for is kept aside. */
        /* Reserved over the whole rest of a long game, not just the horizon. */
        int64_t lag = sat_mul(max64(moves, LAG_HORIZON) - 1, max64(0, overhead - increment));
        int64_t planned = max64(0, time_left - lag);
        soft = sat_add(planned / moves, increment - increment / 4);
        hard = min64(sat_mul(HARD_PER_SOFT, soft), sat_add(planned / 5 * 2, increment));
    }
    hard = max64(1, min64(hard, cap));
    soft = max64(1, min64(soft, hard));
    return (TimeBudget){soft, hard};
}

/* previous - score, 0 when the previous score is not known. */
static double score_drop(int previous, int score) { return previous == TM_NO_SCORE ? 0.0 : (double)previous - score; }

int64_t tm_move_time(const TimeBudget *budget, const IterationStats *stats)
{
    if (budget->soft_ms < 0)
        return -1;
    if (budget->soft_ms >= budget->hard_ms)
        return budget->hard_ms;

    double falling = 1.0
                     + (2.0 * score_drop(stats->previous_search_score, stats->score)
                        + score_drop(stats->previous_iteration_score, stats->score))
                           / FALLING_SCORE_DIVISOR;
    falling = falling < MIN_FALLING ? MIN_FALLING : falling > MAX_FALLING ? MAX_FALLING : falling;

    double changes = stats->best_move_changes;
    if (!(changes > 0.0)) /* also NaN */
        changes = 0.0;
    if (changes > MAX_CHANGES_COUNTED)
        changes = MAX_CHANGES_COUNTED;
    double instability = 1.0 + INSTABILITY_PER_CHANGE * changes;

    int stable = stats->stable_iterations < 0 ? 0 : stats->stable_iterations;
    if (stable > STABLE_ITERATIONS_COUNTED)
        stable = STABLE_ITERATIONS_COUNTED;
    double stability = 1.0 - STABILITY_PER_ITERATION * stable;

    double time = (double)budget->soft_ms * falling * instability * stability + 0.5;
    if (time >= (double)budget->hard_ms) /* also where the product would not fit in an int64_t */
        return budget->hard_ms;
    return max64(1, (int64_t)time);
}

bool tm_should_start_iteration(const TimeBudget *budget, int64_t elapsed_ms, const IterationStats *stats)
{
    if (budget->soft_ms < 0)
        return true;
    if (budget->soft_ms >= budget->hard_ms)
        return elapsed_ms < budget->hard_ms;
    int64_t time = tm_move_time(budget, stats);
    if (stats->best_move_node_share >= DOMINANT_NODE_SHARE)
        time /= 2;
    return elapsed_ms < time && elapsed_ms < budget->hard_ms / 2;
}

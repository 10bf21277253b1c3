/* Time management as pure functions: how long to think from the clocks, increment, moves to go and
 * the Move Overhead. A soft limit (do not start a new iteration past it) and a hard limit (stop at
 * once). No state, no clock reading: the caller measures time. */
#ifndef JANGGUN_TIMEMAN_H
#define JANGGUN_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    int64_t time_left_ms; /* the mover's clock; < 0 when no clock was given */
    int64_t increment_ms; /* per move, >= 0 */
    int moves_to_go;      /* moves until the next time control; 0 = sudden death (all the rest) */
    int64_t movetime_ms;  /* fixed time per move; 0 = none */
    int64_t overhead_ms;  /* Move Overhead: communication lag to keep in reserve */
    int game_ply;         /* plies played so far (for the expected game length) */
} TimeControl;

typedef struct {
    int64_t soft_ms; /* < 0: no time limit at all (depth, nodes or infinite searches) */
    int64_t hard_ms;
} TimeBudget;

/* The budget for one move. Never more than the clock minus the overhead allows, never below 1 ms when
 * there is a clock, so the engine does not lose on time even at 1 s + 0.01 s per move. */
TimeBudget tm_budget(const TimeControl *tc);

/* May an iteration that just finished after `elapsed_ms` start another one? `stability` in [0, 1]
 * grows with how long the best move has stayed the same; a stable best move stops earlier. */
bool tm_should_start_iteration(const TimeBudget *budget, int64_t elapsed_ms, double stability);

#endif

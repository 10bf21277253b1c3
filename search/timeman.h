/* Time management as pure functions: how long to think from the clocks, increment, moves to go and
 * the Move Overhead, a soft limit (the usual time for a move) and a hard limit (stop at once); then,
 * after each iteration, how far to stretch or shrink the soft limit from what the search has seen
 * (best-move changes, a falling score, the best move's share of the nodes). No state, no clock
 * reading: the caller measures time and keeps the figures. */
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

/* A score that is not known (no previous iteration, no previous search of this game). */
#define TM_NO_SCORE INT32_MIN

/* What the search has seen by the end of a completed iteration. Scores are in centipawns (a soldier is
 * 100) from the side to move's view. */
typedef struct {
    double best_move_changes;     /* root moves that became best after the first one, halved after each
                                     iteration (so the recent ones weigh most); >= 0 */
    int stable_iterations;        /* completed iterations the best move has stayed the same */
    int score;                    /* this iteration's best score */
    int previous_iteration_score; /* the iteration before's, or TM_NO_SCORE */
    int previous_search_score;    /* the last search's in this game (same side to move), or TM_NO_SCORE */
    double best_move_node_share;  /* share of this iteration's root nodes spent on the best move, [0, 1] */
} IterationStats;

/* The time this move should take, in ms: the soft limit scaled by the figures, never above the hard
 * limit. -1 when there is no limit; the hard limit when soft == hard (a fixed time per move). */
int64_t tm_move_time(const TimeBudget *budget, const IterationStats *stats);

/* May an iteration that finished after `elapsed_ms` start another one? */
bool tm_should_start_iteration(const TimeBudget *budget, int64_t elapsed_ms, const IterationStats *stats);

#endif

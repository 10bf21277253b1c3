/* Move ordering: the order in which a node tries its moves, and what the search teaches it (killer
 * moves per ply, a history of the quiet moves that caused cutoffs). Alpha-beta prunes only as well as
 * the first moves are good, so this is where much of the search's speed is won or lost. It is kept
 * apart from the search so that the order can change (a staged picker that generates captures,
 * killers and quiets one stage at a time; more history tables) without touching the search's logic.
 * The search reads the scores too: a negative score on a capture marks a losing one (pruned at low
 * depth, left out of quiescence), and a quiet move's score is its history (which scales its
 * reduction). One OrderingStats per search thread: nothing here is shared or locked. */
#ifndef JANGGUN_MOVEPICK_H
#define JANGGUN_MOVEPICK_H

#include "../engine/movegen.h"
#include "search.h"
#include "tunables.h"

typedef struct {
    Move move;
    int score;
} ScoredMove;

/* Score bands, best first: the table move, captures that do not lose material (most valuable victim,
 * then least valuable attacker), the two killers, quiet moves by history (within +-HISTORY_MAX), the
 * pass, then captures that lose material. */
enum {
    SCORE_TT = 1 << 30,
    SCORE_GOOD_CAPTURE = 1 << 28,
    SCORE_KILLER = 1 << 26,
    SCORE_PASS = -(1 << 20),
    SCORE_BAD_CAPTURE = -(1 << 28)
};

typedef struct {
    Move killers[MAX_PLY + 2][2];                             /* quiet moves that cut off at this ply */
    int16_t history[COLOR_COUNT][SQUARE_COUNT][SQUARE_COUNT]; /* by side, from, to; +-HISTORY_MAX */
} OrderingStats;

/* Scores each move of `list` into `out` (the same count, returned) for the node at `ply`; tt_move,
 * when in the list, comes first. */
int score_moves(const OrderingStats *os, const Position *pos, const MoveList *list, ScoredMove *out, Move tt_move,
                int ply);

/* Selection sort step: brings the best remaining move to index i and returns it. Moves are usually
 * cut off after the first few, so sorting the whole list would be wasted. */
static inline Move pick_next(ScoredMove *moves, int count, int i)
{
    int best = i;
    for (int j = i + 1; j < count; j++)
        if (moves[j].score > moves[best].score)
            best = j;
    ScoredMove t = moves[i];
    moves[i] = moves[best];
    moves[best] = t;
    return moves[i].move;
}

static inline bool is_killer(const OrderingStats *os, int ply, Move m)
{
    return m == os->killers[ply][0] || m == os->killers[ply][1];
}

/* A quiet move `best` cut off at `ply` after the quiet moves `tried` failed: it becomes the first
 * killer, and its history gains what theirs lose (more for deeper nodes). */
void update_quiet_stats(OrderingStats *os, Color side, int ply, int depth, Move best, const Move *tried,
                        int tried_count);

/* A new search: the killers of the last one are forgotten (the history is kept). */
void ordering_new_search(OrderingStats *os);

/* A new game: everything is forgotten. */
void ordering_clear(OrderingStats *os);

#endif

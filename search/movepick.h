/* Move ordering: the staged move picker and what the search teaches it (killer moves per ply, counter
 * moves, and the butterfly, capture and continuation histories). Alpha-beta prunes only as well as the
 * first moves are good, so this is where much of the search's speed is won or lost. The picker
 * generates moves only when a stage needs them: the table move is tried before anything is generated,
 * then captures that do not lose material, the killers and the counter move, the quiet moves by
 * history and threats (a piece attacked by a lesser one escaping first), and last the captures that
 * lose material. It tells the search what kind of move it just returned (a losing capture is pruned
 * at low depth and reduced) and, for a quiet move, what the histories say of it (history pruning and
 * late-move reductions). One OrderingStats per search thread: nothing here is shared or locked, and a
 * MovePicker lives on the caller's stack. */
#ifndef JANGGUN_MOVEPICK_H
#define JANGGUN_MOVEPICK_H

#include <stdlib.h>

#include "../engine/movegen.h"
#include "search.h"
#include "tunables.h"

/* Continuation histories are read 1, 2 and 4 plies back. */
enum { CONT_PLIES = 3 };

/* History of a move by (piece, destination) after one given earlier move. */
typedef int16_t PieceToHistory[PIECE_COUNT][SQUARE_COUNT];

typedef struct {
    Move killers[MAX_PLY + 2][2];                  /* quiet moves that cut off at this ply */
    Move counter_moves[PIECE_COUNT][SQUARE_COUNT]; /* the quiet reply that cut off, by previous piece and to */
    int16_t butterfly[COLOR_COUNT][SQUARE_COUNT][SQUARE_COUNT];   /* quiet moves by side, from, to */
    int16_t capture[PIECE_COUNT][SQUARE_COUNT][PIECE_TYPE_COUNT]; /* by moved piece, to, captured type */
    /* By previous piece and to, then piece and to. [NO_PIECE][0] is the sentinel sub-table read where
     * there is no previous move (before the root) or it was a pass; it is never updated. */
    PieceToHistory continuation[PIECE_COUNT][SQUARE_COUNT];
} OrderingStats;

static inline PieceToHistory *continuation_sentinel(OrderingStats *os) { return &os->continuation[NO_PIECE][0]; }

/* What the histories need to know of the path to a node: the continuation sub-tables selected by the
 * moves 1, 2 and 4 plies back, and the previous move's piece and destination (the counter move's
 * index; previous_piece is NO_PIECE when there is no previous move). The search fills it from its
 * stack. */
typedef struct {
    PieceToHistory *continuation[CONT_PLIES];
    Piece previous_piece;
    Square previous_to;
} HistoryContext;

/* Gravity update: the entry moves by `bonus` less in proportion to how close it already is to the
 * bonus's side of +-max, so it never passes +-max (|bonus| <= max) and old lessons fade. */
static inline void history_gravity(int16_t *entry, int bonus, int max)
{
    int v = *entry;
    *entry = (int16_t)(v + bonus - v * abs(bonus) / max);
}

/* The bonus (or, negated, the malus) of a cutoff at `depth`. */
static inline int history_bonus(int depth)
{
    int b = HISTORY_BONUS_SLOPE * depth - HISTORY_BONUS_OFFSET;
    return b > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : b < 0 ? 0 : b;
}

/* The kind of the move the picker just returned. */
typedef enum {
    PICK_TABLE,        /* the transposition table's move */
    PICK_GOOD_CAPTURE, /* a capture that does not lose material (by exchange evaluation) */
    PICK_REFUTATION,   /* a killer or the counter move */
    PICK_QUIET,        /* another quiet move (the pass among them) */
    PICK_BAD_CAPTURE,  /* a capture that loses material */
    PICK_EVASION       /* in check: any move, captures first */
} PickKind;

typedef enum {
    STAGE_MAIN_TABLE,
    STAGE_CAPTURE_INIT,
    STAGE_GOOD_CAPTURES,
    STAGE_REFUTATIONS,
    STAGE_QUIET_INIT,
    STAGE_QUIETS,
    STAGE_PASS,
    STAGE_BAD_CAPTURES,
    STAGE_EVASION_TABLE,
    STAGE_EVASION_INIT,
    STAGE_EVASIONS,
    STAGE_QS_TABLE,
    STAGE_QS_CAPTURE_INIT,
    STAGE_QS_CAPTURES,
    STAGE_LISTED,
    STAGE_DONE
} PickStage;

typedef struct {
    const Position *pos;
    const OrderingStats *os;
    HistoryContext history;
    Move tt_move;        /* MOVE_NONE unless legal here (and, in quiescence outside check, a capture) */
    Move refutations[3]; /* killer 1, killer 2, counter move: distinct, none of them the table move */
    Move pass;           /* held back from the quiet moves' sort, to come after them */
    int depth;
    PickStage stage;
    PickKind kind; /* of the move last returned */
    /* Set by the search: no more quiet moves (the table move, killers, counter move and pass included;
     * in check it is ignored). */
    bool skip_quiets;
    int cur, end, bad_end; /* losing captures are kept in list.moves[0, bad_end) */
    MoveList list;
    int scores[MAX_MOVES];
    /* For the quiet order outside check, by piece type: the points where a piece of that type is
     * attacked by a less valuable enemy piece (the general's attacks not counted). */
    Bitboard threatened[PIECE_TYPE_COUNT];
    bool threats_known; /* threatened is filled (once the quiet moves are scored) */
} MovePicker;

/* A node of the main search at `ply` (killers) and `depth` (how much of the quiet list is sorted). In
 * check, one stage: the table move, then every move, captures first. */
void picker_init_main(MovePicker *mp, const Position *pos, const OrderingStats *os, Move tt_move, int depth, int ply,
                      const HistoryContext *history);

/* A quiescence node: the table move if it is a capture, then the captures that do not lose material,
 * most valuable victim first. In check or in bikjang every move, as picker_init_main in check. */
void picker_init_qsearch(MovePicker *mp, const Position *pos, const OrderingStats *os, Move tt_move,
                         const HistoryContext *history);

/* The root: exactly the `count` moves given (all legal), ordered as the main picker would (the table
 * move, winning captures, killers, quiets by history, the pass, losing captures). */
void picker_init_listed(MovePicker *mp, const Position *pos, const OrderingStats *os, const Move *moves, int count,
                        Move tt_move, int ply, const HistoryContext *history);

/* The next move, or MOVE_NONE when there are no more. Moves are pseudo-legal and never repeated; the
 * table move and the refutations are also legal. */
Move picker_next(MovePicker *mp);

/* What the histories say of a quiet move in this node: the late-move reduction's stat score (butterfly
 * plus the continuation entries 1, 2 and 4 plies back) and, for history pruning, the continuation
 * entries 1 and 2 plies back. */
typedef struct {
    int stat_score, continuation;
} QuietHistory;

QuietHistory picker_quiet_history(const MovePicker *mp, Move m);

static inline bool is_killer(const OrderingStats *os, int ply, Move m)
{
    return m == os->killers[ply][0] || m == os->killers[ply][1];
}

/* A beta cutoff by `best` at `ply`, after the quiet moves `quiets` and the captures `captures` failed:
 * a quiet `best` becomes the first killer and the counter move, and its butterfly and continuation
 * histories gain what those of the quiets tried lose; a capturing `best` gains capture history. The
 * captures tried lose capture history either way. More for deeper nodes. */
void ordering_update_cutoff(OrderingStats *os, const Position *pos, const HistoryContext *history, int ply, int depth,
                            Move best, const Move *quiets, int quiet_count, const Move *captures, int capture_count);

/* A table cutoff at `ply` whose move (legal here) would have cut off: a quiet one gets the quiet bonus
 * (killer, counter move, histories), as if it had been searched. */
void ordering_update_table_cutoff(OrderingStats *os, const Position *pos, const HistoryContext *history, int ply,
                                  int depth, Move tt_move);

/* A new search: the killers of the last one are forgotten (the histories are kept). */
void ordering_new_search(OrderingStats *os);

/* A new game: everything is forgotten. */
void ordering_clear(OrderingStats *os);

#endif

/* The position: mailbox, bitboards by colour and type, Zobrist key, and a chain of per-ply states
 * that make/unmake push and pop. Owns FEN reading (with precise errors) and writing, the attack
 * queries on generals, and the check that all these agree (position_is_ok). It does not generate
 * moves (movegen) or judge game results (referee). */
#ifndef JANGGUN_POSITION_H
#define JANGGUN_POSITION_H

#include <stddef.h>

#include "bitboard.h"
#include "rules.h"

extern const char START_FEN[];

/* What make/unmake must remember, one per ply; the caller provides the storage. */
typedef struct StateInfo {
    uint64_t key;
    Bitboard checkers; /* enemy pieces attacking the side to move's general */
    Move move;         /* the move that led here; MOVE_NONE at the root */
    Piece captured;
    bool pass;    /* the move that led here was a pass */
    bool bikjang; /* generals face each other, in a rule set with bikjang */
    bool ended;   /* double pass or two-ply bikjang: an immediate end, no moves */
    int halfmove; /* plies since the last capture; passes count */
    int plies;    /* plies played since the position was set up */
    struct StateInfo *prev;
} StateInfo;

typedef struct Position {
    Piece board[SQUARE_COUNT];
    Bitboard by_color[COLOR_COUNT];
    Bitboard by_type[PIECE_TYPE_COUNT];
    Bitboard occupied;
    Bitboard occupied_t; /* file-major copy of `occupied` */
    Bitboard cannons_t;  /* file-major copy of all cannons */
    Square general[COLOR_COUNT];
    Color side;
    int fullmove;
    const RuleSet *rules;
    StateInfo *st;
    StateInfo root; /* storage for the state of the set-up position */
} Position;

/* Fills the Zobrist keys and attack tables; call once before anything else. */
void engine_init(void);

typedef enum {
    FEN_STRICT = 0,
    /* Accept more pieces of a kind than a set has (three chariots, say): composed problems and some
     * of FSF's own test positions use them. Everything else is still checked. */
    FEN_ALLOW_EXTRA_PIECES = 1
} FenFlags;

/* Sets up `pos` from a FEN under `rules`. On error returns false, writes a message to err (when
 * err_size > 0) and leaves `pos` untouched. */
bool position_set_fen(Position *pos, const char *fen, const RuleSet *rules, FenFlags flags, char *err, size_t err_size);

/* Writes FSF's FEN form, `<board> w|b - - <halfmove> <fullmove>`; buf needs 100 bytes. */
void position_to_fen(const Position *pos, char *buf, size_t size);

/* For readers that store boards their own way (the trainer's packed records): empties the board and
 * every bitboard, then places pieces keeping the bitboards (the file-major copies too) and the
 * generals' points in step. Nothing else (side, key, state, rules) is set: such a board is for
 * evaluation, not for play. */
void position_clear_board(Position *pos);
void position_put_piece(Position *pos, Piece pc, Square s);

/* Plays a legal move (or the pass); new_state must outlive the move. unmake takes back the last one. */
void position_make(Position *pos, Move m, StateInfo *new_state);
void position_unmake(Position *pos);

/* Whether a legal move (or the pass, which never does) would leave the enemy general in check: the
 * checkers position_make would compute, found by moving the piece on the board and back (key and
 * state untouched), for callers that want to know before making it. */
bool position_gives_check(Position *pos, Move m);

/* The Zobrist key position_make would give the position after move m (pass included), without making
 * it: lets the search fetch the child's table entry early. */
uint64_t position_key_after(const Position *pos, Move m);

/* Checks every invariant that can be stated from the struct alone: the bitboards (by colour, by type,
 * the occupancy and its file-major copies) agree with the mailbox; each side has exactly one general,
 * on the square general[] names; generals and guards stand in their palace; the key equals a fresh
 * computation; the state's checkers and bikjang flag are those of the board; the side not to move is
 * not in check (but after a pass in bikjang, which ends the game); the state agrees with the one
 * before it (plies, the half-move counter, the pass, the immediate end) and with its move and captured
 * piece. On the first failure it writes the reason to why (when why_size > 0) and returns false. A
 * loop over the board and two attack queries, far dearer than make itself: make and unmake assert it
 * in the sanitizer builds only (release builds define NDEBUG). */
bool position_is_ok(const Position *pos, char *why, size_t why_size);

static inline Bitboard position_pieces(const Position *pos, Color c, PieceType pt)
{
    return pos->by_color[c] & pos->by_type[pt];
}

static inline bool position_in_check(const Position *pos) { return pos->st->checkers != 0; }

/* Double pass, or bikjang that lasted two plies: the game is over and there are no moves. */
static inline bool position_is_immediate_end(const Position *pos) { return pos->st->ended; }

/* The generals stand on one file with nothing between them (whatever the rule set). */
bool position_generals_facing(const Position *pos);

/* Pieces of colour `by` that attack square s, for a hypothetical board: occupancy `occ` (with its
 * file-major copy), all cannons `cannons` (and file-major copy), pieces of `by` restricted to
 * `by_mask`. Cannon attacks follow the Janggi restrictions. Generals are not counted: they never
 * reach the other palace. */
Bitboard position_attackers(const Position *pos, Square s, Color by, Bitboard occ, Bitboard occ_t, Bitboard cannons,
                            Bitboard cannons_t, Bitboard by_mask);

static inline Bitboard position_attackers_now(const Position *pos, Square s, Color by)
{
    return position_attackers(pos, s, by, pos->occupied, pos->occupied_t, pos->by_type[CANNON], pos->cannons_t,
                              pos->by_color[by]);
}

#endif

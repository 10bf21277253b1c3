/* Move generation: a fast pseudo-legal generator by kind (for search), a cheap legality test for
 * its moves, the full legal generator (perft, move parsing, the root) and a bulk legal-move count
 * (perft leaves). Legality covers every rule of fsf-reference.md sections 2 to 4: no move leaves
 * one's general attacked, the pass is legal unless in check, in the bikjang state every move but
 * the pass must break the facing, and an immediately ended game has no moves. */
#ifndef JANGGUN_MOVEGEN_H
#define JANGGUN_MOVEGEN_H

#include "position.h"

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

typedef enum {
    GEN_CAPTURES, /* moves that take a piece */
    GEN_QUIETS,   /* moves to empty points, and the pass */
    GEN_ALL
} GenKind;

/* Points a piece of type pt on s may move to (or take on), before excluding its own pieces, with the
 * cannon rules (a cannon never jumps or takes a cannon). Always inlined so that callers passing a
 * constant type get straight-line code. */
static inline __attribute__((always_inline)) Bitboard movegen_piece_reach(const Position *pos, PieceType pt, Square s,
                                                                          Color us)
{
    Bitboard occ = pos->occupied;
    switch (pt) {
    case CHARIOT: {
        Bitboard b = chariot_line_attacks(s, occ, pos->occupied_t);
        if (bb_test(palace_diagonal_points, s))
            b |= chariot_diagonal_attacks(s, occ);
        return b;
    }
    case CANNON: {
        Bitboard cannons = pos->by_type[CANNON];
        Bitboard b = cannon_line_hops(s, occ, pos->occupied_t)
                     & cannon_line_hops(s, occ & ~cannons, pos->occupied_t & ~pos->cannons_t);
        if (bb_test(palace_diagonal_points, s))
            b |= cannon_diagonal_hops(s, occ, cannons);
        return b & ~cannons;
    }
    case HORSE: return horse_moves(s, occ);
    case ELEPHANT: return elephant_moves(s, occ);
    case SOLDIER: return soldier_moves_table[us][s];
    default: /* GUARD, GENERAL */ return palace_step_table[s];
    }
}

/* Appends the pseudo-legal moves of the side to move. */
void movegen_pseudo(const Position *pos, GenKind kind, MoveList *list);

/* True when a move produced by movegen_pseudo for this position is legal. */
bool movegen_is_legal(const Position *pos, Move m);

/* The legal moves (pieces in generation order, pass last); none after an immediate end. */
void movegen_legal(const Position *pos, MoveList *list);

/* The number of legal moves, faster than generating them. */
int movegen_count_legal(const Position *pos);

/* True when `m` is a legal move here (any 16-bit value is accepted). */
bool movegen_contains_legal(const Position *pos, Move m);

#endif

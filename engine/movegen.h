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

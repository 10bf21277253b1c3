/* Perft: counts the leaf nodes of the legal move tree, passes included, with the immediate game
 * ends (double pass, confirmed bikjang) as leaves with no moves, as FSF counts them. */
#ifndef JANGGUN_PERFT_H
#define JANGGUN_PERFT_H

#include "movegen.h"

uint64_t perft(Position *pos, int depth);

/* Perft split by root move: fills `root` with the legal moves and counts[i] with the nodes below
 * root->moves[i]; returns the total. depth must be at least 1. */
uint64_t perft_divide(Position *pos, int depth, MoveList *root, uint64_t counts[MAX_MOVES]);

#endif

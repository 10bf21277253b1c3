/* Static exchange evaluation with the Janggi rules: which side comes out ahead when both sides keep
 * taking on one point, least valuable attacker first. Cannons make it more than a count of
 * attackers: a cannon needs a screen and never takes (or hops) a cannon, so every capture can open or
 * close a line for another cannon, and guards and the general only take inside their palace. Move
 * ordering and the search's pruning ask it whether a capture or a check gives material away. Pure: it
 * reads the position and changes nothing. */
#ifndef JANGGUN_SEE_H
#define JANGGUN_SEE_H

#include "../engine/position.h"

/* Piece values of the exchange, by PieceType (a soldier is 100; the general ends an exchange). */
extern const int see_value[PIECE_TYPE_COUNT];

/* The material balance of the exchange that move m starts on its target, from the mover's view;
 * 0 for a pass. */
int see(const Position *pos, Move m);

#endif

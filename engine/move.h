/* Move text: FSF's coordinate form, `<from><to>` with files a-i and ranks counted from 1 (UCI) or
 * from 0 (UCCI, XBoard). A pass is written as the general's square twice (`e2e2`); on input `0000`,
 * `@@@@` and `pass` also mean a pass. */
#ifndef JANGGUN_MOVE_H
#define JANGGUN_MOVE_H

#include "position.h"

enum { MOVE_TEXT_SIZE = 8 };

typedef enum { RANKS_FROM_1 = 1, RANKS_FROM_0 = 0 } RankBase;

typedef enum {
    MOVE_PARSE_OK,
    MOVE_PARSE_SYNTAX, /* not a move in this notation */
    MOVE_PARSE_ILLEGAL /* well formed, but not legal in the position */
} MoveParseResult;

/* Writes the move; buf holds MOVE_TEXT_SIZE bytes. */
void move_to_text(Move m, RankBase base, char *buf);

void square_to_text(Square s, RankBase base, char *buf);

/* Reads `text` as a legal move of `pos`. */
MoveParseResult move_parse(const Position *pos, const char *text, RankBase base, Move *out);

#endif

#include "move.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"

void square_to_text(Square s, RankBase base, char *buf)
{
    snprintf(buf, 4, "%c%d", 'a' + square_file(s), square_rank(s) + (int)base);
}

void move_to_text(Move m, RankBase base, char *buf)
{
    square_to_text(move_from(m), base, buf);
    square_to_text(move_to(m), base, buf + strlen(buf));
}

/* Reads one square at *p and advances past it; SQ_NONE when malformed. */
static Square parse_square(const char **p, RankBase base)
{
    const char *c = *p;
    if (*c < 'a' || *c > 'i')
        return SQ_NONE;
    int file = *c++ - 'a';
    if (*c < '0' || *c > '9')
        return SQ_NONE;
    int rank = *c++ - '0';
    if (base == RANKS_FROM_1 && rank == 1 && *c == '0') {
        rank = 10;
        c++;
    }
    rank -= (int)base;
    if (rank < 0 || rank >= RANK_COUNT)
        return SQ_NONE;
    *p = c;
    return make_square(file, rank);
}

MoveParseResult move_parse(const Position *pos, const char *text, RankBase base, Move *out)
{
    Move m;
    if (strcmp(text, "0000") == 0 || strcmp(text, "@@@@") == 0 || strcmp(text, "pass") == 0) {
        m = make_move(pos->general[pos->side], pos->general[pos->side]);
    } else {
        const char *p = text;
        Square from = parse_square(&p, base);
        if (from == SQ_NONE)
            return MOVE_PARSE_SYNTAX;
        Square to = parse_square(&p, base);
        if (to == SQ_NONE || *p)
            return MOVE_PARSE_SYNTAX;
        m = make_move(from, to);
    }
    if (!movegen_contains_legal(pos, m))
        return MOVE_PARSE_ILLEGAL;
    *out = m;
    return MOVE_PARSE_OK;
}

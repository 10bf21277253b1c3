/* PGN output of janggun-match: its tags (Seven Tag Roster, then Variant "Janggi", the rule set, SetUp
 * and FEN, TimeControl, Termination naming how the game ended, PlyCount) and the movetext in UCI
 * notation with a comment per move and a last comment on the ending, written by the one PGN writer
 * (engine/records/pgn.h). */
#ifndef JANGGUN_MATCH_MATCH_PGN_H
#define JANGGUN_MATCH_MATCH_PGN_H

#include <stdio.h>

#include "../../engine/game.h"

typedef struct {
    const char *event, *site, *date, *round;
    const char *white, *black; /* Cho, Han */
    const char *result;        /* "1-0", "0-1", "1/2-1/2", "*" */
    const char *rules;         /* janggi, janggimodern, ... */
    const char *time_control;
    const char *termination;
    const Game *game;
    const char *const *comments; /* one per ply, NULL or "" for none; NULL for no comments at all */
    const char *final_comment;   /* NULL for none */
} MatchPgnGame;

void match_pgn_write(FILE *out, const MatchPgnGame *g);

#endif

#include "match_pgn.h"

#include <stdlib.h>

#include "../../engine/base/base.h"
#include "../../engine/records/pgn.h"

void match_pgn_write(FILE *out, const MatchPgnGame *g)
{
    const Game *game = g->game;
    char plies[16];
    snprintf(plies, sizeof plies, "%d", game->length);
    const PgnTag tags[] = {{"Event", g->event},
                           {"Site", g->site},
                           {"Date", g->date},
                           {"Round", g->round},
                           {"White", g->white},
                           {"Black", g->black},
                           {"Result", g->result},
                           {"Variant", "Janggi"},
                           {"Rules", g->rules},
                           {"SetUp", "1"},
                           {"FEN", game->start_fen},
                           {"TimeControl", g->time_control},
                           {"Termination", g->termination},
                           {"PlyCount", plies}};
    PgnOutput pgn = {.tags = tags,
                     .tag_count = (int)(sizeof tags / sizeof tags[0]),
                     .start_fen = game->start_fen,
                     .rules = game->pos.rules,
                     .moves = game->moves,
                     .move_count = game->length,
                     .style = PGN_MOVES_UCI,
                     .comments = g->comments,
                     .final_comment = g->final_comment,
                     .result = g->result};
    char *text = pgn_write(&pgn);
    if (text)
        fputs(text, out);
    else /* the referee checked every move, so only memory can be short */
        report_error("janggun-match", "cannot write the PGN of game %s: out of memory", g->round ? g->round : "?");
    free(text);
}

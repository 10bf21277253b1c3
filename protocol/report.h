/* Protocol text for what the engine reports: `info` lines from the search's SearchInfo, `bestmove`,
 * XBoard's thinking lines and moves, the `d` board display. Pure formatting into caller buffers, no I/O, so it can be tested alone. */
#ifndef JANGGUN_REPORT_H
#define JANGGUN_REPORT_H

#include <stddef.h>

#include "../search/search.h"
#include "command.h"

typedef struct {
    Protocol proto;
    bool show_wdl;
    int game_ply; /* plies played in the game (for the WDL model) */
} ReportStyle;

/* The longest info line: MAX_PLY moves of up to 7 characters plus the fields. */
enum { REPORT_LINE_SIZE = 256 + MAX_PLY * 8 };

static inline RankBase report_rank_base(Protocol proto) { return proto == PROTO_UCI ? RANKS_FROM_1 : RANKS_FROM_0; }

/* `info depth D seldepth S multipv K score (cp X|X|mate N) [wdl W D L] [lowerbound|upperbound] nodes N
 * nps N hashfull N time T pv ...` (UCCI writes the score without `cp`). No newline. */
void report_info_line(const SearchInfo *info, const ReportStyle *style, char *buf, size_t size);

/* `bestmove M [ponder P]`, or `bestmove (none)`. No newline. */
void report_bestmove_line(Move best, Move ponder, Protocol proto, char *buf, size_t size);

/* XBoard's thinking output, as FSF writes it: `depth score time nodes seldepth nps tbhits<TAB> m1 m2 ...`
 * with the time in centiseconds, the score in centipawns, a mate in N moves as 100000 + N (-100000 - N
 * when being mated), tbhits 0, and each move after a space. No newline. */
void report_xboard_thinking(const SearchInfo *info, char *buf, size_t size);

/* A move as XBoard writes it: ranks 0-9, the pass as `@@@@`. buf holds MOVE_TEXT_SIZE bytes. */
void report_xboard_move(Move m, char *buf);

/* Win, draw and loss in permill for a score in centipawns at `game_ply`: a logistic model in the
 * style of Stockfish's, scaled for Janggun's evaluation (a soldier about 100). */
void report_wdl(int cp, int game_ply, int wdl[3]);

/* FSF's `d`: the board with rank labels (1-10 under UCI, 0-9 under UCCI), the side to move marked,
 * then Fen, Sfen, Key, Checkers and Chased lines. Ends with '\n'. */
void report_board(const Position *pos, Protocol proto, char *buf, size_t size);

#endif

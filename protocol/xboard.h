/* XBoard/CECP mode (fsf-reference.md section 5.6): the conversation after the `xboard` handshake, as
 * XBoard and WinBoard hold it with FSF. The engine keeps the game itself (moves come one at a time),
 * answers `protover 2` with its features and options, describes the board with `setup` (and `piece`)
 * lines, plays `move <m>` (ranks 0-9, the pass as `@@@@`), ponders, analyses, and claims the result
 * the referee gives whenever it is to move in a finished game or its own move finishes it. The UCI
 * loop (uci.c) reads the handshake and hands the input over; this module owns nothing of UCI. */
#ifndef JANGGUN_XBOARD_H
#define JANGGUN_XBOARD_H

#include <stdio.h>

#include "../search/timeman.h"
#include "input.h"
#include "options.h"

/* CECP's clock settings: `level MPS BASE INC` (moves per session, 0 for the whole game), `st` (a
 * fixed time per move, which replaces the level while set) and the engine's own clock from `time`. */
typedef struct {
    int moves_per_session;
    int64_t base_ms, increment_ms, move_time_ms, clock_ms;
} XBoardClock;

/* Reads `level`'s arguments: "40 5 0", "0 2:30 1", "0 0:05 0.1" (BASE in minutes or minutes:seconds,
 * INC in seconds; decimals allowed, not both zero). Sets the level, resets the clock to BASE and
 * clears `st`; false (clock unchanged) when malformed. */
bool xboard_parse_level(const char *args, XBoardClock *clock);

/* Reads a number of seconds ("30", "0.5") into milliseconds, at most 1,000,000 s; false when malformed. */
bool xboard_parse_seconds(const char *text, size_t len, int64_t *ms);

/* The search's time control for the side to move at move number `fullmove` (counted as in FEN): the
 * fixed time of `st`, or the clock with the increment and, under a level with moves per session, the
 * moves left in the current session. The caller adds the overhead and the game ply. */
TimeControl xboard_time_control(const XBoardClock *clock, int fullmove);

typedef enum {
    XBOARD_QUIT,    /* `quit` */
    XBOARD_EOF,     /* the end of input */
    XBOARD_TO_UCI,  /* a `uci` handshake: the caller answers it */
    XBOARD_TO_UCCI, /* a `ucci` handshake */
} XBoardExit;

/* Serves CECP on the lines of `in`, writing to `out`, until `quit`, the end of input or a UCI/UCCI
 * handshake; no search may be running. Starts as FSF does after `xboard`: rule set `janggi`, the
 * start position, the engine playing Han. `opts` are the engine's options, shared with UCI. */
XBoardExit xboard_loop(LineReader *in, FILE *out, EngineOptions *opts);

#endif

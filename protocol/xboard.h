/* XBoard/CECP mode (fsf-reference.md section 5.6): the conversation after the `xboard` handshake, as
 * XBoard and WinBoard hold it with FSF. The engine keeps the game itself (moves come one at a time),
 * answers `protover 2` with its features and options, describes the board with `setup` (and `piece`)
 * lines, plays `move <m>` (ranks 0-9, the pass as `@@@@`), ponders, analyses, and claims the result
 * the referee gives whenever it is to move in a finished game or its own move finishes it. The UCI
 * loop (uci.c) reads the handshake and hands the input over; this module owns nothing of UCI. */
#ifndef JANGGUN_XBOARD_H
#define JANGGUN_XBOARD_H

#include <stdio.h>

#include "input.h"
#include "options.h"

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

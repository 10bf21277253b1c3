/* The positions test of janggun-match (--solve): positions with their best moves, read from an EPD file
 * (`FEN [moves ...] bm M1 M2; id "NAME";`, plain or xz-compressed), put to each engine in turn, one
 * position at a time (`ucinewgame`, `position fen ...`, `go movetime|nodes|depth`), and counted as solved
 * when the engine's bestmove is one of the bm moves. The engines never run at once, so a timed test
 * measures each alone. Prints a line per engine and position, then each engine's count, the positions
 * it missed, and for each pair of engines the positions only one of them solved. */
#ifndef JANGGUN_MATCH_SOLVE_H
#define JANGGUN_MATCH_SOLVE_H

#include "../../engine/rules.h"
#include "player.h"
#include "timecontrol.h"

typedef struct {
    const char *path;        /* the EPD file */
    const char *failed_path; /* the positions not solved, one line per engine and position; NULL: none */
    const char *log_path;    /* every line to and from the engines (appended to); NULL: none */
    const PlayerSpec *players;
    int player_count;
    const RuleSet *rules;
    TimeControl tc;  /* a fixed time per position (TC_MOVETIME), nodes, depth */
    long timeout_ms; /* the handshake, isready, and a position searched without a fixed time */
} SolveConfig;

/* Runs the test and prints the results. Returns the exit status: 0 when it ran (whatever the counts),
 * 1 when interrupted, 2 when it could not start (a bad EPD file, an engine that does not start or does
 * not play the variant, a --failed file that cannot be written). */
int solve_run(const SolveConfig *config);

#endif

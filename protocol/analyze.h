/* `janggun analyze`: the command-line analysis of positions (FEN, EPD) and whole games (GIB, PGN, or a
 * FEN with moves) on top of the search. This module owns the command line, reading the inputs (errors
 * on standard error with the file, game and line), running a search for every position and the
 * progress bar; review.h judges the moves from those searches (the loss, its mark, the summary per
 * player, where the referee ends the game) and review_output.h writes text or one JSON object per
 * position or game. README.md documents the options, the thresholds and the JSON schema. */
#ifndef JANGGUN_ANALYZE_H
#define JANGGUN_ANALYZE_H

/* The search depth when no limit is given. */
enum { ANALYZE_DEFAULT_DEPTH = 10 };

/* Runs `janggun analyze ARGS...` (argv without the program and subcommand names). Calls eval_init
 * and search_init itself. Returns the exit status: 0 when everything was read and analysed, 1 when
 * some input could not be read (the rest was still analysed), 2 for a usage error. */
int analyze_main(int argc, char **argv);

#endif

/* `janggun analyze`: the command-line analysis of positions (FEN, EPD) and whole games (GIB, PGN, or a
 * FEN with moves) on top of the search. For a game every move is searched: the best move, the score
 * before and after, the loss and its mark, the material count with the deom, a summary per player and
 * where the referee ends the game. Text on standard output, or one JSON object per position or game;
 * errors on standard error with the file, game and line. README.md documents the options, the
 * thresholds and the JSON schema. */
#ifndef JANGGUN_ANALYZE_H
#define JANGGUN_ANALYZE_H

/* Inaccuracy, mistake and blunder: a loss of at least this many centipawns, scores capped at
 * +-ANALYZE_LOSS_CAP (mates count as the cap). */
enum { ANALYZE_INACCURACY = 50, ANALYZE_MISTAKE = 100, ANALYZE_BLUNDER = 300, ANALYZE_LOSS_CAP = 1000 };

/* The search depth when no limit is given. */
enum { ANALYZE_DEFAULT_DEPTH = 10 };

/* Runs `janggun analyze ARGS...` (argv without the program and subcommand names). Calls eval_init
 * and search_init itself. Returns the exit status: 0 when everything was read and analysed, 1 when
 * some input could not be read (the rest was still analysed), 2 for a usage error. */
int analyze_main(int argc, char **argv);

#endif

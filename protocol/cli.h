/* Command-line front ends that run one job and exit: perft and bench. They print results on
 * standard output and errors as `janggun: error: ...` on standard error, exiting with status 2. */
#ifndef JANGGUN_CLI_H
#define JANGGUN_CLI_H

#include <stddef.h>

/* The bench depth when none is given. */
enum { BENCH_DEFAULT_DEPTH = 10 };

/* `janggun perft --depth N [--fen FEN] [--moves "..."] [--variant NAME] [--divide] [--composed]` */
int cli_perft(int argc, char **argv);

/* `janggun bench [depth]`: searches the fixed bench positions (search_bench) and prints the total
 * time, `N nodes M nps` (OpenBench's form), then `Nodes searched: N` and `Nodes/second: M` last. */
int cli_bench(int argc, char **argv);

/* Runs the bench (depth 0: the default) and writes its lines, each ending in '\n', into buf. */
void cli_bench_text(int depth, char *buf, size_t size);

#endif

/* Command-line front ends that run one job and exit (perft for now). They print results on
 * standard output and errors as `janggun: error: ...` on standard error, exiting with status 2. */
#ifndef JANGGUN_CLI_H
#define JANGGUN_CLI_H

/* `janggun perft --depth N [--fen FEN] [--moves "..."] [--variant NAME] [--divide] [--composed]` */
int cli_perft(int argc, char **argv);

#endif

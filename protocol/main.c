/* The janggun command line: with no arguments the protocol loop (UCI, or UCCI after `ucci`) on
 * standard input and output; `perft` and `bench` run one job and exit. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../engine/position.h"
#include "../eval/eval.h"
#include "../search/search.h"
#include "analyze.h"
#include "cli.h"
#include "uci.h"

static void print_usage(FILE *out)
{
    fputs("usage: janggun perft --depth N [--fen \"FEN\"] [--moves \"M1 M2 ...\"] [--variant NAME] [--divide]\n"
          "                     [--composed]   (accept more pieces of a kind than a set has)\n"
          "       janggun bench [depth]\n"
          "       janggun analyze (--fen \"FEN\" [--moves \"...\"] | --epd FILE | --gib FILE | --pgn FILE) ...\n"
          "       janggun        (the UCI/UCCI protocol loop on standard input and output)\n",
          out);
}

int main(int argc, char **argv)
{
    engine_init();
    if (argc >= 2 && strcmp(argv[1], "perft") == 0)
        return cli_perft(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "analyze") == 0)
        return analyze_main(argc - 2, argv + 2);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)) {
        print_usage(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "bench") != 0) {
        fprintf(stderr, "janggun: error: unknown command '%s'\n", argv[1]);
        print_usage(stderr);
        return 2;
    }
    char err[256];
    if (!eval_init(err, sizeof err)) {
        fprintf(stderr, "janggun: error: %s\n", err);
        return 2;
    }
    search_init();
    int status;
    if (argc >= 2) {
        status = cli_bench(argc - 2, argv + 2);
    } else {
        signal(SIGPIPE, SIG_IGN); /* a GUI that goes away shows up as the end of input */
        status = uci_loop(STDIN_FILENO, stdout);
    }
    search_shutdown();
    return status;
}

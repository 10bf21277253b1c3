/* The janggun command line: dispatches subcommands to their front ends. */
#include <stdio.h>
#include <string.h>

#include "../engine/position.h"
#include "cli.h"

static void print_usage(FILE *out)
{
    fputs("usage: janggun perft --depth N [--fen \"FEN\"] [--moves \"M1 M2 ...\"] [--variant NAME] [--divide]\n"
          "                     [--composed]   (accept more pieces of a kind than a set has)\n",
          out);
}

int main(int argc, char **argv)
{
    engine_init();
    if (argc >= 2 && strcmp(argv[1], "perft") == 0)
        return cli_perft(argc - 2, argv + 2);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)) {
        print_usage(stdout);
        return 0;
    }
    if (argc >= 2)
        fprintf(stderr, "janggun: error: unknown command '%s'\n", argv[1]);
    print_usage(stderr);
    return 2;
}

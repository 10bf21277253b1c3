/* The janggun command line: with no arguments the protocol loop (UCI; UCCI or XBoard after their handshakes) on
 * standard input and output; `perft` and `bench` run one job and exit. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../engine/position.h"
#include "../engine/base/version.h"
#include "../eval/eval.h"
#include "../search/search.h"
#include "analyze.h"
#include "cli.h"
#include "hangup.h"
#include "uci.h"

static void print_usage(FILE *out)
{
    fputs("usage: janggun        (the UCI/UCCI/XBoard protocol loop on standard input and output)\n"
          "       janggun perft --depth N [--fen \"FEN\"] [--moves \"M1 M2 ...\"] [--variant NAME] [--divide]\n"
          "                     [--composed]   (accept more pieces of a kind than a set has)\n"
          "       janggun bench [depth]\n"
          "       janggun analyze (--fen \"FEN\" [--moves \"...\"] | --epd FILE | --gib FILE | --pgn FILE) ...\n"
          "                       (janggun analyze --help lists its options)\n"
          "       janggun --version | --help\n",
          out);
}

static void print_help(void)
{
    fputs("Janggun, a Janggi (Korean chess) engine.\n\n", stdout);
    print_usage(stdout);
    fputs("\nWith no arguments janggun reads engine commands on standard input, as a GUI sends them: UCI by\n"
          "default, UCCI after `ucci`, XBoard (CECP) after `xboard`. Type `uci`, then `position startpos`\n"
          "and `go depth 12`; `quit` ends. perft counts the moves to a depth; bench searches fixed\n"
          "positions (its node count is the search's signature); analyze reviews positions and games (GIB,\n"
          "PGN, EPD). See README.md.\n",
          stdout);
}

/* Whether `fd` was open; a closed one is opened on /dev/null, so that no file or pipe opened later takes its
 * number and receives what was meant for it. */
static bool descriptor_open(int fd)
{
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
        return true;
    int null = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
    if (null >= 0 && null != fd) {
        dup2(null, fd);
        close(null);
    }
    return false;
}

int main(int argc, char **argv)
{
    descriptor_open(STDIN_FILENO);
    descriptor_open(STDERR_FILENO);
    bool no_output = !descriptor_open(STDOUT_FILENO);
    engine_init();
    if (argc >= 2 && strcmp(argv[1], "perft") == 0)
        return cli_perft(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "analyze") == 0)
        return analyze_main(argc - 2, argv + 2);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
        print_help();
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("Janggun %s\n", janggun_version);
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
        signal(SIGPIPE, SIG_IGN); /* a GUI that goes away shows up as a failed write: a hang-up */
        if (!hangup_install())
            fputs("janggun: warning: no pipe for the signal handlers; SIGINT and SIGTERM end the engine at once\n",
                  stderr);
        if (no_output)
            hangup_now(); /* nobody to answer */
        status = uci_loop(STDIN_FILENO, stdout);
    }
    search_shutdown();
    return status;
}

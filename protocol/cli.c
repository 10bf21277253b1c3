#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "../engine/move.h"
#include "../engine/perft.h"
#include "../engine/base/base.h"
#include "../engine/base/cli_options.h"
#include "../search/search.h"

enum { MAX_PERFT_DEPTH = 20, MAX_SETUP_MOVES = 2048, MAX_BENCH_DEPTH = 64 };

static int usage_error(const char *fmt, const char *arg)
{
    report_error("janggun", fmt, arg);
    return 2;
}

int cli_perft(int argc, char **argv)
{
    const char *fen = START_FEN, *variant = "janggi", *moves = NULL;
    int depth = -1;
    bool divide = false, composed = false;
    const CliOption options[] = {
        {.name = "--depth",
         .kind = CLI_INT,
         .integer = &depth,
         .min = 1,
         .max = MAX_PERFT_DEPTH,
         .value_name = "N",
         .help = "count the moves to depth N (1 to 20)"},
        {.name = "--fen",
         .kind = CLI_STRING,
         .text = &fen,
         .value_name = "\"FEN\"",
         .help = "the position (default: the start position)"},
        {.name = "--moves",
         .kind = CLI_STRING,
         .text = &moves,
         .value_name = "\"M1 M2 ...\"",
         .help = "moves played from it first"},
        {.name = "--variant",
         .kind = CLI_STRING,
         .text = &variant,
         .value_name = "NAME",
         .help = "janggi (default), janggicasual, janggimodern or janggitraditional"},
        {.name = "--divide", .kind = CLI_FLAG, .flag = &divide, .help = "one `move: count` line per legal move first"},
        {.name = "--composed",
         .kind = CLI_FLAG,
         .flag = &composed,
         .help = "accept more pieces of a kind than a set has"},
    };
    const CliCommand cmd = {
        "janggun perft", "usage: janggun perft --depth N [OPTIONS]\n",
        "Prints `Nodes searched: N` last. Passes are counted; repetitions and the move limit are ignored, as in\n"
        "Fairy-Stockfish.\n",
        options, CLI_COUNT(options)};
    int status = cli_read_options(&cmd, argc, argv, NULL);
    if (status >= 0)
        return status;
    if (depth < 0)
        return usage_error("%s", "perft needs --depth N");
    const RuleSet *rules = rules_by_name(variant);
    if (!rules)
        return usage_error("unknown variant '%s' (janggi, janggicasual, janggimodern, janggitraditional)", variant);

    static Position pos;
    static StateInfo history[MAX_SETUP_MOVES];
    char err[160];
    if (!position_set_fen(&pos, fen, rules, composed ? FEN_ALLOW_EXTRA_PIECES : FEN_STRICT, err, sizeof err))
        return usage_error("bad FEN: %s", err);
    if (moves) {
        char buf[16 * MAX_SETUP_MOVES];
        if (strlen(moves) >= sizeof buf)
            return usage_error("%s", "--moves is too long");
        strcpy(buf, moves);
        int ply = 0;
        for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t"), ply++) {
            Move m;
            MoveParseResult r = ply >= MAX_SETUP_MOVES ? MOVE_PARSE_SYNTAX : move_parse(&pos, tok, RANKS_FROM_1, &m);
            if (r != MOVE_PARSE_OK) {
                fprintf(stderr, "janggun: error: %s move '%s' at ply %d\n",
                        r == MOVE_PARSE_ILLEGAL ? "illegal" : "unparsable", tok, ply + 1);
                return 2;
            }
            position_make(&pos, m, &history[ply]);
        }
    }

    uint64_t total;
    if (divide) {
        MoveList root;
        static uint64_t counts[MAX_MOVES];
        total = perft_divide(&pos, depth, &root, counts);
        for (int i = 0; i < root.count; i++) {
            char text[MOVE_TEXT_SIZE];
            move_to_text(root.moves[i], RANKS_FROM_1, text);
            printf("%s: %llu\n", text, (unsigned long long)counts[i]);
        }
    } else {
        total = perft(&pos, depth);
    }
    printf("\nNodes searched: %llu\n", (unsigned long long)total);
    return 0;
}

void cli_bench_text(int depth, char *buf, size_t size)
{
    int64_t elapsed_ms = 0;
    uint64_t nodes = search_bench(depth > 0 ? depth : BENCH_DEFAULT_DEPTH, &elapsed_ms);
    unsigned long long nps = (unsigned long long)(nodes * 1000 / (uint64_t)(elapsed_ms > 0 ? elapsed_ms : 1));
    snprintf(buf, size, "Total time (ms): %lld\n%llu nodes %llu nps\nNodes searched: %llu\nNodes/second: %llu\n",
             (long long)elapsed_ms, (unsigned long long)nodes, nps, (unsigned long long)nodes, nps);
}

int cli_bench(int argc, char **argv)
{
    int depth = 0;
    const CliOption options[] = {
        {.name = "the bench depth",
         .kind = CLI_INT,
         .integer = &depth,
         .min = 1,
         .max = MAX_BENCH_DEPTH,
         .value_name = "depth",
         .help = "search to this depth (1 to 64; default 10)"},
    };
    const CliCommand cmd = {
        "janggun bench", "usage: janggun bench [depth]\n",
        "Searches the fixed bench positions with one thread and prints the total time, `N nodes M nps`, then\n"
        "`Nodes searched: N` (the search's signature) and `Nodes/second: M`.\n",
        options, CLI_COUNT(options)};
    int status = cli_read_options(&cmd, argc, argv, NULL);
    if (status >= 0)
        return status;
    char text[256];
    cli_bench_text(depth, text, sizeof text);
    fputs(text, stdout);
    return 0;
}

#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/move.h"
#include "../engine/perft.h"
#include "../engine/base/base.h"
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
    long depth = -1;
    bool divide = false;
    FenFlags fen_flags = FEN_STRICT;
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--divide") == 0 || strcmp(opt, "--composed") == 0) {
            if (opt[2] == 'd')
                divide = true;
            else
                fen_flags = FEN_ALLOW_EXTRA_PIECES;
            continue;
        }
        if (strcmp(opt, "--depth") && strcmp(opt, "--fen") && strcmp(opt, "--variant") && strcmp(opt, "--moves"))
            return usage_error("unknown perft option '%s'", opt);
        if (i + 1 >= argc)
            return usage_error("option %s needs a value", opt);
        const char *value = argv[++i];
        if (strcmp(opt, "--depth") == 0) {
            char *end;
            errno = 0;
            depth = strtol(value, &end, 10);
            if (!*value || *end || errno || depth < 1 || depth > MAX_PERFT_DEPTH)
                return usage_error("--depth must be a number from 1 to 20, not '%s'", value);
        } else if (strcmp(opt, "--fen") == 0) {
            fen = value;
        } else if (strcmp(opt, "--variant") == 0) {
            variant = value;
        } else {
            moves = value;
        }
    }
    if (depth < 0)
        return usage_error("%s", "perft needs --depth N");
    const RuleSet *rules = rules_by_name(variant);
    if (!rules)
        return usage_error("unknown variant '%s' (janggi, janggicasual, janggimodern, janggitraditional)", variant);

    static Position pos;
    static StateInfo history[MAX_SETUP_MOVES];
    char err[160];
    if (!position_set_fen(&pos, fen, rules, fen_flags, err, sizeof err))
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
        total = perft_divide(&pos, (int)depth, &root, counts);
        for (int i = 0; i < root.count; i++) {
            char text[MOVE_TEXT_SIZE];
            move_to_text(root.moves[i], RANKS_FROM_1, text);
            printf("%s: %llu\n", text, (unsigned long long)counts[i]);
        }
    } else {
        total = perft(&pos, (int)depth);
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
    long depth = 0;
    if (argc > 1)
        return usage_error("%s", "usage: janggun bench [depth]");
    if (argc == 1) {
        char *end;
        errno = 0;
        depth = strtol(argv[0], &end, 10);
        if (!*argv[0] || *end || errno || depth < 1 || depth > MAX_BENCH_DEPTH)
            return usage_error("the bench depth must be a number from 1 to 64, not '%s'", argv[0]);
    }
    char text[256];
    cli_bench_text((int)depth, text, sizeof text);
    fputs(text, stdout);
    return 0;
}

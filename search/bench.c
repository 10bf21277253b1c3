/* `janggun bench`: a fixed set of positions searched to a fixed depth with one thread and a fresh
 * table each. Its node count is the search's signature (bench/signature, OpenBench's "Bench:" line):
 * a change that does not mean to change the search must leave it as it is. The positions run from
 * two opening setups through middlegames to bare endgames, so that every phase weighs in. */
#include <string.h>

#include "threads.h"

static const char *const bench_positions[] = {
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1",
    "rbn1kabnr/3a5/1c5c1/4p1C1p/p1p6/9/P1P1P1P1P/3N3C1/4K4/RB1A1ANBR b - - 0 5",
    "rb1a2bnr/4ka3/3n1c1c1/p1p3p1p/4p4/P8/2PPB1P1P/1C2K2C1/9/RNBA1A1NR w - - 12 7",
    "rb1a1a3/4k2n1/3nr4/8p/1pp6/2b1P4/Pc1P2PP1/1C1A2R2/R3AN3/1B1K2CB1 w - - 1 21",
    "3a3b1/4kaR2/3ncn2r/1p2p2pp/9/9/1b2BPP1P/2r1CN3/1C2A4/3AK2BR b - - 3 18",
    "1bn2a1n1/3ak4/1c5c1/6p1p/9/9/2P4PP/B2KC2C1/9/1BrA2N1R w - - 0 15",
    "4k1bn1/4aa3/Rc1n2r2/1pp6/4pN2p/1P3Pb2/8P/2C1K4/5A3/2Br2B2 w - - 2 28",
    "4a3C/4k4/4ba3/p3ppn2/9/1P1P2Pp1/2P3b1N/4RC3/3AK4/2B2A3 w - - 2 33",
    "BN1a5/5k3/5a2b/8p/n2pc3P/P3P3p/9/3p2N2/1C7/3KA4 w - - 2 85",
    "4k4/9/3a1c3/9/9/5N3/9/5K3/5A3/9 w - - 15 61",
    "3ka4/5a3/6N2/9/9/9/3P5/4A4/C3K4/9 b - - 14 48",
};

static void bench_info(const SearchInfo *info, void *ctx)
{
    (void)info;
    (void)ctx;
}

static void bench_bestmove(Move best, Move ponder, void *ctx)
{
    (void)best;
    (void)ponder;
    (void)ctx;
}

uint64_t search_bench(int depth, int64_t *elapsed_ms)
{
    search_init();
    search_wait();
    int threads = pool.thread_count;
    search_set_threads(1);
    uint64_t total = 0;
    int64_t start = pool_now_ms();
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.depth = depth;
    limits.multipv = 1;
    SearchReport report = {bench_info, bench_bestmove, NULL};
    for (size_t i = 0; i < sizeof bench_positions / sizeof bench_positions[0]; i++) {
        Game game;
        char err[160];
        if (!game_start(&game, bench_positions[i], &RULES_JANGGI, FEN_STRICT, err, sizeof err))
            continue;
        search_clear();
        search_start(&game, &limits, &report);
        search_wait();
        total += pool_total_nodes();
        game_free(&game);
    }
    *elapsed_ms = pool_now_ms() - start;
    search_set_threads(threads);
    return total;
}

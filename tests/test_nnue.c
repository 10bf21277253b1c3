/* The network (eval/nnue.h): exact feature indices and king buckets, an exact output of a hand-made net,
 * the accumulator stack against full refreshes along random games walked as a search walks them (with
 * captures, passes and the general changing point, one and nine king buckets), every SIMD kernel this
 * processor has against the scalar reference, colour symmetry, the net file (round trip, and each way a
 * file is refused), EvalFile keeping the previous net, the counting terms applied on top of the net's
 * score, and a net on the classical base. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../engine/base/base.h"
#include "../engine/movegen.h"
#include "../eval/internal.h"
#include "../eval/nnue.h"
#include "support.h"

#define START "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

static int setup(void **state)
{
    (void)state;
    char err[400];
    if (!eval_init(err, sizeof err)) {
        fprintf(stderr, "eval_init: %s\n", err);
        return -1;
    }
    return 0;
}

/* A net of that shape with seeded random weights: feature weights within +-wmax, biases within +-40,
 * output weights over the whole allowed range. */
static NnueNet *random_net(NnueArch arch, uint64_t seed, int wmax)
{
    char err[200];
    NnueNet *net = nnue_net_new(arch, err, sizeof err);
    assert_non_null(net);
    size_t h = (size_t)arch.hidden;
    for (size_t i = 0; i < h; i++)
        net->ft_bias[i] = (int16_t)((int)(splitmix64(&seed) % 81) - 40);
    for (size_t i = 0; i < (size_t)net->inputs * h; i++)
        net->ft_weights[i] = (int16_t)((int)(splitmix64(&seed) % (uint64_t)(2 * wmax + 1)) - wmax);
    for (size_t i = 0; i < (size_t)arch.output_buckets * 2 * h; i++)
        net->out_weights[i] = (int16_t)((int)(splitmix64(&seed) % 257) - 128);
    for (int i = 0; i < arch.output_buckets; i++)
        net->out_bias[i] = (int32_t)(splitmix64(&seed) % 200001) - 100000;
    snprintf(net->description, sizeof net->description, "random net, seed %llu", (unsigned long long)seed);
    return net;
}

/* ---- features ---- */

static void test_features_exact(void **state)
{
    (void)state;
    /* Cho's general on e2 (square 13): own general plane 12 for Cho; for Han it is the enemy general
     * (plane 13) on e9 seen from Han's side (rank 8, square 76). */
    assert_int_equal(nnue_feature(WHITE, 0, make_piece(WHITE, GENERAL), 13), 12 * 90 + 13);
    assert_int_equal(nnue_feature(BLACK, 0, make_piece(WHITE, GENERAL), 13), 13 * 90 + 76);
    /* Han's chariot on a10 (square 81): for Han, its own chariot on a1 (plane 10, square 0). Files are
     * never mirrored: i10 is i1 for Han. */
    assert_int_equal(nnue_feature(BLACK, 0, make_piece(BLACK, CHARIOT), 81), 10 * 90 + 0);
    assert_int_equal(nnue_feature(BLACK, 0, make_piece(BLACK, CHARIOT), 89), 10 * 90 + 8);
    assert_int_equal(nnue_feature(WHITE, 3, make_piece(BLACK, SOLDIER), 54), 3 * 1260 + 1 * 90 + 54);
    /* King buckets: d1 e1 f1 d2 e2 f2 d3 e3 f3 from each side. */
    assert_int_equal(nnue_king_bucket(9, WHITE, make_square(3, 0)), 0);
    assert_int_equal(nnue_king_bucket(9, WHITE, make_square(4, 1)), 4);
    assert_int_equal(nnue_king_bucket(9, WHITE, make_square(5, 2)), 8);
    assert_int_equal(nnue_king_bucket(9, BLACK, make_square(4, 8)), 4);
    assert_int_equal(nnue_king_bucket(9, BLACK, make_square(3, 9)), 0);
    assert_int_equal(nnue_king_bucket(9, BLACK, make_square(5, 7)), 8);
    assert_int_equal(nnue_king_bucket(1, BLACK, make_square(5, 7)), 0);
    /* Output buckets by pieces on the board. */
    assert_int_equal(nnue_output_bucket(8, 32), 7);
    assert_int_equal(nnue_output_bucket(8, 2), 0);
    assert_int_equal(nnue_output_bucket(8, 16), 3);
    assert_int_equal(nnue_output_bucket(1, 32), 0);
    assert_int_equal(nnue_output_bucket(4, 40), 3);

    TestGame g;
    test_game_setup(&g, "janggi", START, NULL);
    int f[NNUE_MAX_ACTIVE];
    assert_int_equal(nnue_features(&g.pos, 1, WHITE, f), 32);
    /* Board order: a1 first, Cho's chariot (plane 10 for Cho). */
    assert_int_equal(f[0], 10 * 90 + 0);
    /* Every feature differs, and the start position looks the same from both sides. */
    int g2[NNUE_MAX_ACTIVE];
    assert_int_equal(nnue_features(&g.pos, 1, BLACK, g2), 32);
    int seen[NNUE_PLANE_INPUTS] = {0};
    for (int i = 0; i < 32; i++)
        seen[f[i]]++;
    for (int i = 0; i < 32; i++)
        assert_int_equal(seen[g2[i]], 1);
}

/* A hand-made net: unit 0 counts the own general (100 from every point), everything else 0. Each
 * perspective's unit 0 is 100, SCReLU 100^2 = 10000; output weights 64 (side to move) and 32:
 * sum 960000, / QA = 3764, x 400 / (255 x 256) = 23. */
static void test_output_exact(void **state)
{
    (void)state;
    char err[200];
    NnueNet *net = nnue_net_new((NnueArch){1, 32, 1, NNUE_BASE_NONE}, err, sizeof err);
    assert_non_null(net);
    for (Square s = 0; s < SQUARE_COUNT; s++)
        net->ft_weights[(size_t)(12 * 90 + s) * 32] = 100;
    net->out_weights[0] = 64;
    net->out_weights[32] = 32;
    TestGame g;
    test_game_setup(&g, "janggi", START, NULL);
    assert_int_equal(nnue_evaluate_full(net, &g.pos), 23);
    /* Clamped at QA: 300 counts as 255. 255^2 x 96 = 6242400, / 255 = 24480, x 400 / 65280 = 150. */
    for (Square s = 0; s < SQUARE_COUNT; s++)
        net->ft_weights[(size_t)(12 * 90 + s) * 32] = 300;
    assert_int_equal(nnue_evaluate_full(net, &g.pos), 150);
    /* The bias alone: 81600 x 400 / 65280 = 500; a negative accumulator counts 0. */
    for (Square s = 0; s < SQUARE_COUNT; s++)
        net->ft_weights[(size_t)(12 * 90 + s) * 32] = -5;
    net->out_bias[0] = 81600;
    assert_int_equal(nnue_evaluate_full(net, &g.pos), 500);
    nnue_net_free(net);
}

/* ---- the stack against refreshes ---- */

static uint64_t next_random(uint64_t *s) { return splitmix64(s); }

/* Walks random games as a search does: make (push), sometimes evaluate, sometimes unmake (pop) a few
 * plies and go another way. After every evaluation both accumulators equal a full refresh and the
 * score equals nnue_evaluate_full. Captures are preferred half of the time, and the general is moved
 * when it can be, so that buckets change. */
static void walk_games(const NnueNet *net, uint64_t seed, int games)
{
    static NnueStack stack;
    _Alignas(64) int16_t fresh[NNUE_MAX_HIDDEN];
    int checked = 0, refreshes_needed = 0;
    for (int game = 0; game < games; game++) {
        TestGame g;
        test_game_setup(&g, "janggi", START, NULL);
        nnue_stack_reset(&stack, net);
        StateInfo states[200];
        int depth = 0;
        for (int step = 0; step < 150; step++) {
            MoveList list;
            movegen_legal(&g.pos, &list);
            bool back = depth > 0 && (list.count == 0 || next_random(&seed) % 5 == 0 || depth >= 190);
            if (back) {
                int n = 1 + (int)(next_random(&seed) % 3);
                for (; n > 0 && depth > 0; n--) {
                    position_unmake(&g.pos);
                    nnue_pop(&stack);
                    depth--;
                }
            } else if (list.count > 0) {
                Move m = list.moves[next_random(&seed) % (uint64_t)list.count];
                int r = (int)(next_random(&seed) % 4);
                for (int i = 0; i < list.count; i++) {
                    Move c = list.moves[i];
                    bool capture = !move_is_pass(c) && g.pos.board[move_to(c)];
                    bool general = move_from(c) == g.pos.general[g.pos.side] && !move_is_pass(c);
                    if ((r == 0 && capture) || (r == 1 && general) || (r == 2 && move_is_pass(c)))
                        m = c;
                }
                refreshes_needed += move_from(m) == g.pos.general[g.pos.side] && !move_is_pass(m);
                position_make(&g.pos, m, &states[depth++]);
                nnue_push(&stack, &g.pos);
            }
            if (next_random(&seed) % 3 == 0)
                continue; /* not evaluated: a later evaluation catches up over several plies */
            int score = nnue_evaluate(&stack, &g.pos);
            for (Color c = WHITE; c <= BLACK; c++) {
                nnue_refresh(net, &g.pos, c, fresh);
                if (memcmp(fresh, stack.acc[stack.top].v[c], (size_t)net->arch.hidden * sizeof(int16_t)) != 0) {
                    char fen[128];
                    position_to_fen(&g.pos, fen, sizeof fen);
                    fail_msg("game %d step %d: the %s accumulator differs from a refresh at %s", game, step,
                             c == WHITE ? "Cho" : "Han", fen);
                }
            }
            assert_int_equal(score, nnue_evaluate_full(net, &g.pos));
            checked++;
        }
    }
    assert_true(checked > games * 50);
    assert_true(refreshes_needed > games);
}

static void test_incremental_equals_refresh(void **state)
{
    (void)state;
    NnueNet *net = random_net((NnueArch){1, 128, 1, NNUE_BASE_NONE}, 1, 60);
    walk_games(net, 11, 40);
    nnue_net_free(net);
    net = random_net((NnueArch){9, 64, 8, NNUE_BASE_NONE}, 2, 60);
    walk_games(net, 12, 40);
    nnue_net_free(net);
    /* Weights large enough for the int16 accumulator to wrap: every path wraps the same way. */
    net = random_net((NnueArch){9, 32, 3, NNUE_BASE_NONE}, 3, 3000);
    walk_games(net, 13, 20);
    nnue_net_free(net);
}

/* ---- SIMD against scalar ---- */

static void test_kernels_equal_scalar(void **state)
{
    (void)state;
    const NnueKernels *paths[] = {&nnue_kernels_avx2, &nnue_kernels_avx512};
    uint64_t seed = 77;
    int compared = 0;
    _Alignas(64) int16_t src[NNUE_MAX_HIDDEN], cols[3][NNUE_MAX_HIDDEN], w[2 * NNUE_MAX_HIDDEN];
    _Alignas(64) int16_t them[NNUE_MAX_HIDDEN], want[NNUE_MAX_HIDDEN], got[NNUE_MAX_HIDDEN];
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        if (!nnue_kernels_supported(paths[p])) {
            printf("kernels %s: not supported by this processor, not compared\n", paths[p]->name);
            continue;
        }
        for (int round = 0; round < 2000; round++) {
            int hidden = 32 * (1 + (int)(splitmix64(&seed) % 16));
            /* Values over the whole int16 range (wrapping adds) and around the clamp. */
            bool wide = round % 2;
            for (int i = 0; i < hidden; i++) {
                src[i] =
                    (int16_t)(wide ? (int)(splitmix64(&seed) % 65536) - 32768 : (int)(splitmix64(&seed) % 601) - 200);
                them[i] = (int16_t)((int)(splitmix64(&seed) % 601) - 200);
                for (int k = 0; k < 3; k++)
                    cols[k][i] =
                        (int16_t)(wide ? (int)(splitmix64(&seed) % 65536) - 32768 : (int)(splitmix64(&seed) % 61) - 30);
                w[i] = (int16_t)((int)(splitmix64(&seed) % 257) - 128);
                w[hidden + i] = (int16_t)((int)(splitmix64(&seed) % 257) - 128);
            }
            const int16_t *add[1] = {cols[0]}, *sub[2] = {cols[1], cols[2]};
            int adds = (int)(splitmix64(&seed) % 2), subs = (int)(splitmix64(&seed) % 3);
            nnue_kernels_scalar.update(want, src, add, adds, sub, subs, hidden);
            paths[p]->update(got, src, add, adds, sub, subs, hidden);
            assert_memory_equal(want, got, (size_t)hidden * sizeof(int16_t));
            assert_true(nnue_kernels_scalar.output(src, them, w, hidden) == paths[p]->output(src, them, w, hidden));
            compared++;
        }
    }
    /* The build's own path is one of the three. */
    const NnueKernels *b = nnue_kernels_build();
    assert_true(b == &nnue_kernels_scalar || b == &nnue_kernels_avx2 || b == &nnue_kernels_avx512);
    printf("kernels: the build uses %s; %d comparisons\n", b->name, compared);
    /* The worst case: every unit at QA, every weight at the limit (past int32, summed in int64). */
    for (int i = 0; i < NNUE_MAX_HIDDEN; i++) {
        src[i] = them[i] = NNUE_QA;
        w[i] = w[NNUE_MAX_HIDDEN + i] = NNUE_MAX_OUTPUT_WEIGHT;
    }
    int64_t worst = nnue_kernels_scalar.output(src, them, w, NNUE_MAX_HIDDEN);
    assert_true(worst == (int64_t)2 * NNUE_MAX_HIDDEN * NNUE_QA * NNUE_QA * NNUE_MAX_OUTPUT_WEIGHT);
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++)
        if (nnue_kernels_supported(paths[p]))
            assert_true(paths[p]->output(src, them, w, NNUE_MAX_HIDDEN) == worst);
    for (int i = 0; i < NNUE_MAX_HIDDEN; i++)
        w[i] = w[NNUE_MAX_HIDDEN + i] = -NNUE_MAX_OUTPUT_WEIGHT;
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++)
        if (nnue_kernels_supported(paths[p]))
            assert_true(paths[p]->output(src, them, w, NNUE_MAX_HIDDEN) == -worst);
}

/* Colour symmetry: a position and its colour-mirrored twin (ranks reversed, colours and the side to
 * move swapped) give the same score for the side to move, with any net. */
static void mirror_fen(const char *fen, char *out, size_t size)
{
    char board[128], side;
    int halfmove, fullmove;
    assert_int_equal(sscanf(fen, "%127s %c - - %d %d", board, &side, &halfmove, &fullmove), 4);
    char *ranks[RANK_COUNT];
    int n = 0;
    for (char *r = strtok(board, "/"); r; r = strtok(NULL, "/"))
        ranks[n++] = r;
    assert_int_equal(n, RANK_COUNT);
    size_t used = 0;
    for (int i = RANK_COUNT - 1; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            out[used++] = isupper((unsigned char)*c) ? (char)tolower(*c) : (char)toupper(*c);
        out[used++] = i ? '/' : ' ';
    }
    snprintf(out + used, size - used, "%c - - %d %d", side == 'w' ? 'b' : 'w', halfmove, fullmove);
}

static void test_colour_symmetry(void **state)
{
    (void)state;
    NnueNet *net = random_net((NnueArch){9, 64, 4, NNUE_BASE_NONE}, 5, 50);
    uint64_t seed = 99;
    int checked = 0;
    for (int game = 0; game < 20; game++) {
        TestGame g;
        test_game_setup(&g, "janggi", START, NULL);
        for (int ply = 0; ply < GAME_MAX_PLIES; ply++) {
            char fen[128], twin[128];
            position_to_fen(&g.pos, fen, sizeof fen);
            mirror_fen(fen, twin, sizeof twin);
            TestGame t;
            test_game_setup(&t, "janggicasual", twin, NULL);
            assert_int_equal(nnue_evaluate_full(net, &g.pos), nnue_evaluate_full(net, &t.pos));
            checked++;
            MoveList list;
            movegen_legal(&g.pos, &list);
            if (list.count == 0 || g.plies >= GAME_MAX_PLIES)
                break;
            position_make(&g.pos, list.moves[splitmix64(&seed) % (uint64_t)list.count], &g.states[g.plies++]);
        }
    }
    assert_true(checked > 600);
    nnue_net_free(net);
}

/* ---- the file ---- */

static void test_file_round_trip(void **state)
{
    (void)state;
    NnueNet *net = random_net((NnueArch){9, 64, 2, NNUE_BASE_NONE}, 8, 100);
    size_t size;
    unsigned char *data = nnue_net_write(net, &size);
    assert_non_null(data);
    assert_memory_equal(data, "JANGNNUE", 8);
    size_t desc = strlen(net->description);
    assert_int_equal(size, NNUE_HEADER_SIZE + desc + 2 * (64 + 9 * 1260 * 64 + 2 * 2 * 64) + 4 * 2);
    char err[300];
    NnueNet *back = nnue_net_read(data, size, "dir/x.nnue", err, sizeof err);
    assert_non_null(back);
    assert_string_equal(back->name, "x.nnue");
    assert_string_equal(back->description, net->description);
    assert_memory_equal(back->ft_weights, net->ft_weights, (size_t)net->inputs * 64 * sizeof(int16_t));
    assert_memory_equal(back->ft_bias, net->ft_bias, 64 * sizeof(int16_t));
    assert_memory_equal(back->out_weights, net->out_weights, 2 * 2 * 64 * sizeof(int16_t));
    assert_memory_equal(back->out_bias, net->out_bias, 2 * sizeof(int32_t));
    size_t size2;
    unsigned char *again = nnue_net_write(back, &size2);
    assert_int_equal(size2, size);
    assert_memory_equal(again, data, size);
    free(again);
    nnue_net_free(back);
    nnue_net_free(net);
    free(data);
}

/* Reads `data`, expecting a refusal whose message contains `want`. */
static void expect_refused(const unsigned char *data, size_t size, const char *want)
{
    char err[400] = "";
    NnueNet *net = nnue_net_read(data, size, "bad.nnue", err, sizeof err);
    if (net)
        fail_msg("accepted a file that should be refused (%s)", want);
    if (!strstr(err, want))
        fail_msg("message '%s' does not say '%s'", err, want);
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static void reseal(unsigned char *d, size_t size)
{
    uint64_t sum = nnue_checksum(d, size);
    put32(d + 12, (uint32_t)sum);
    put32(d + 16, (uint32_t)(sum >> 32));
}

static void test_file_refused(void **state)
{
    (void)state;
    NnueNet *net = random_net((NnueArch){1, 32, 1, NNUE_BASE_NONE}, 9, 100);
    size_t size;
    unsigned char *good = nnue_net_write(net, &size);
    unsigned char *d = malloc(size + 8);
    assert_non_null(d);

    memcpy(d, good, size);
    d[0] = 'X';
    expect_refused(d, size, "not a Janggun net");
    expect_refused(d, 3, "not a Janggun net");
    expect_refused(good, 20, "truncated: 20 bytes, shorter than the 56-byte header");

    memcpy(d, good, size);
    put32(d + 8, 2);
    expect_refused(d, size, "net file version 2, but this build reads version 1");

    memcpy(d, good, size);
    d[size - 1] ^= 1;
    expect_refused(d, size, "checksum mismatch");
    memcpy(d, good, size);
    d[100] ^= 0x40;
    expect_refused(d, size, "checksum mismatch");

    expect_refused(good, size - 1, "truncated");
    expect_refused(good, size / 2, "truncated");
    memcpy(d, good, size);
    expect_refused(d, size + 4, "too long");

    memcpy(d, good, size);
    put32(d + 28, 100);
    expect_refused(d, size, "100 hidden units");
    memcpy(d, good, size);
    put32(d + 24, 4);
    expect_refused(d, size, "4 king buckets");
    memcpy(d, good, size);
    put32(d + 32, 9);
    expect_refused(d, size, "9 output buckets");
    memcpy(d, good, size);
    put32(d + 40, 127);
    expect_refused(d, size, "unsupported architecture: features 1, activation 1, QA 127");
    memcpy(d, good, size);
    put32(d + 52, 5000);
    expect_refused(d, size, "description of 5000 bytes");
    memcpy(d, good, size);
    put32(d + 20, 3);
    expect_refused(d, size, "unsupported architecture: features 3, activation 1");

    /* An output weight that would break the overflow bound: refused even in a well-sealed file. */
    size_t at = NNUE_HEADER_SIZE + strlen(net->description) + 2 * (32 + 1260 * 32) + 2 * 5;
    memcpy(d, good, size);
    d[at] = (unsigned char)(-129 & 0xff);
    d[at + 1] = 0xff;
    expect_refused(d, size, "checksum mismatch");
    reseal(d, size);
    expect_refused(d, size, "output weight 5 is -129, outside +-128");
    net->out_weights[5] = -129;
    free(good);
    good = nnue_net_write(net, &size);
    expect_refused(good, size, "output weight 5 is -129, outside +-128");

    free(d);
    free(good);
    nnue_net_free(net);
}

/* EvalFile: a file that is refused leaves the net in use as it was; the embedded net's name loads it. */
static void test_load_keeps_previous(void **state)
{
    (void)state;
    char err[600], path[] = "/tmp/janggun-test-nnue-XXXXXX";
    const char *embedded = eval_embedded_net_name();
    assert_true(strncmp(embedded, "janggun-", 8) == 0);
    assert_string_equal(eval_net_name(), embedded);
    assert_false(eval_load_net("/nonexistent/x.nnue", err, sizeof err));
    assert_non_null(strstr(err, "cannot open /nonexistent/x.nnue"));
    assert_string_equal(eval_net_name(), embedded);

    NnueNet *net = random_net((NnueArch){1, 32, 1, NNUE_BASE_NONE}, 10, 100);
    size_t size;
    unsigned char *d = nnue_net_write(net, &size);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_int_equal(fwrite(d, 1, size - 10, f), size - 10);
    fclose(f);
    assert_false(eval_load_net(path, err, sizeof err));
    assert_non_null(strstr(err, "truncated"));
    assert_string_equal(eval_net_name(), embedded);

    f = fopen(path, "wb");
    assert_int_equal(fwrite(d, 1, size, f), size);
    fclose(f);
    assert_true(eval_load_net(path, err, sizeof err));
    assert_string_equal(eval_net_name(), strrchr(path, '/') + 1);
    assert_non_null(strstr(eval_net_description(), "1 king bucket, 32 hidden, 1 output bucket"));
    TestGame g;
    test_game_setup(&g, "janggi", START, NULL);
    assert_int_equal(nnue_evaluate_full(nnue_current(), &g.pos), nnue_evaluate_full(net, &g.pos));

    assert_true(eval_load_net(embedded, err, sizeof err));
    assert_string_equal(eval_net_name(), embedded);
    unlink(path);
    free(d);
    nnue_net_free(net);
}

/* ---- counting on top of the net ---- */

/* With a net that says 500 for the side to move everywhere, eval_evaluate_nnue is 500 with the counting
 * terms applied exactly as to a classical raw score of 500 (Cho's view +-500). */
static void test_counting_on_top(void **state)
{
    (void)state;
    char err[200];
    NnueNet *net = nnue_net_new((NnueArch){1, 32, 1, NNUE_BASE_NONE}, err, sizeof err);
    net->out_bias[0] = 81600; /* 500 */
    static NnueStack stack;
    const EvalWeights *w = eval_weights();
    TestGame g;

    test_game_setup(&g, "janggi", START, NULL);
    nnue_stack_reset(&stack, net);
    assert_int_equal(eval_evaluate_nnue(&g.pos, &stack), 500 - w->deom);
    test_game_setup(&g, "janggicasual", START, NULL);
    nnue_stack_reset(&stack, net);
    assert_int_equal(eval_evaluate_nnue(&g.pos, &stack), 500);

    /* Near the move limit (90 of 100 plies, Cho to move, Cho wins the count): the blend carries the
     * score towards the verdict, never against it; the same arithmetic as eval.c's. */
    const char *fen = "3k3n1/9/9/9/9/2P6/9/9/9/2C1K4 w - - 90 60";
    test_game_setup(&g, "janggi", fen, NULL);
    nnue_stack_reset(&stack, net);
    EvalTerms t;
    eval_terms(&g.pos, &t);
    int s = 500 - t.deom, v = t.verdict;
    int target = v > 0 ? (s > v ? s : v) : v < 0 ? (s < v ? s : v) : 0;
    s += (target - s) * t.limit_blend / 100;
    assert_true(t.limit_blend > 0);
    assert_int_equal(eval_evaluate_nnue(&g.pos, &stack), s);

    /* After a pass the side to move may end the game by passing back: with the net at -500 for Han
     * and the count won by Han, the score blends towards the verdict. */
    net->out_bias[0] = -81600;
    test_game_setup(&g, "janggi", "3k5/9/9/9/9/9/9/9/r8/4K4 w - - 0 1", "e1e1");
    nnue_stack_reset(&stack, net);
    eval_terms(&g.pos, &t);
    assert_int_equal(t.option_blend, w->counting_option_blend);
    int ours = -(500 - t.deom), verdict = -t.verdict; /* Han's view: the count is Han's */
    assert_true(verdict > ours);
    assert_int_equal(eval_evaluate_nnue(&g.pos, &stack), ours + (verdict - ours) * t.option_blend / 100);
    nnue_net_free(net);
}

/* A net on the classical base: the file says feature set 2 and reads back so; its score is the
 * classical board terms (eval_classical_raw, side to move) plus the net's own output, with the counting
 * terms on top as for any net. */
static void test_classical_base(void **state)
{
    (void)state;
    char err[200];
    NnueNet *net = nnue_net_new((NnueArch){1, 32, 1, NNUE_BASE_CLASSICAL}, err, sizeof err);
    assert_non_null(net);
    size_t size;
    unsigned char *data = nnue_net_write(net, &size);
    assert_int_equal(data[20], NNUE_FEATURES_PIECE_POINT_CLASSICAL);
    NnueNet *back = nnue_net_read(data, size, "base.nnue", err, sizeof err);
    assert_non_null(back);
    assert_int_equal(back->arch.base, NNUE_BASE_CLASSICAL);
    free(data);
    nnue_net_free(back);

    static NnueStack stack;
    TestGame g;
    EvalTerms t;
    /* Han to move after two moves, under janggicasual (no deom, no counting blends). */
    test_game_setup(&g, "janggicasual", START, "b1c3 b10c8 c4c5");
    eval_terms(&g.pos, &t);
    assert_int_equal(g.pos.side, BLACK);
    assert_int_equal(eval_classical_raw(&g.pos), -t.raw);
    assert_int_equal(eval_evaluate(&g.pos), -(t.raw + t.tempo));
    nnue_stack_reset(&stack, net);
    assert_int_equal(eval_evaluate_nnue(&g.pos, &stack), -t.raw); /* an all-zero net: the board terms */
    net->out_bias[0] = 81600;                                     /* +500 for the side to move */
    nnue_stack_reset(&stack, net);
    assert_int_equal(eval_evaluate_nnue(&g.pos, &stack), -t.raw + 500);
    /* Under janggi the deom comes on top, as on the classical score. */
    test_game_setup(&g, "janggi", START, NULL);
    eval_terms(&g.pos, &t);
    nnue_stack_reset(&stack, net);
    assert_int_equal(eval_evaluate_nnue(&g.pos, &stack), t.raw + 500 - t.deom);
    /* The same net without the base scores the net's output alone. */
    net->arch.base = NNUE_BASE_NONE;
    nnue_stack_reset(&stack, net);
    assert_int_equal(eval_evaluate_nnue(&g.pos, &stack), 500 - t.deom);
    nnue_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_exact),
        cmocka_unit_test(test_output_exact),
        cmocka_unit_test(test_incremental_equals_refresh),
        cmocka_unit_test(test_kernels_equal_scalar),
        cmocka_unit_test(test_colour_symmetry),
        cmocka_unit_test(test_file_round_trip),
        cmocka_unit_test(test_file_refused),
        cmocka_unit_test(test_load_keeps_previous),
        cmocka_unit_test(test_counting_on_top),
        cmocka_unit_test(test_classical_base),
    };
    engine_init();
    return cmocka_run_group_tests(tests, setup, NULL);
}

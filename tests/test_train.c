/* janggun-train's core (bench/train/): packed records round trip, the gradient against finite
 * differences on a tiny net, the quantised net within a small tolerance of the float net, a tiny
 * deterministic training run whose losses fall (the same losses twice, bit for bit), and checkpoints.
 * The data are positions of seeded random games labelled by the classical evaluation. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../bench/train/packed.h"
#include "../bench/train/trainer.h"
#include "../engine/base/base.h"
#include "../engine/movegen.h"
#include "../eval/eval.h"
#include "support.h"

/* `count` records from seeded random games (captures preferred, so material varies): the classical
 * evaluation as the score, and as the result a win for the side it favours by more than a soldier. */
static PackedRecord *synthetic(size_t count, uint64_t seed)
{
    PackedRecord *r = malloc(count * sizeof *r);
    assert_non_null(r);
    size_t n = 0;
    while (n < count) {
        TestGame g;
        test_game_setup(&g, "janggi", START_FEN, NULL);
        for (int ply = 0; ply < GAME_MAX_PLIES && n < count; ply++) {
            MoveList list;
            movegen_legal(&g.pos, &list);
            if (list.count == 0)
                break;
            Move m = list.moves[splitmix64(&seed) % (uint64_t)list.count];
            if (splitmix64(&seed) % 2)
                for (int i = 0; i < list.count; i++)
                    if (!move_is_pass(list.moves[i]) && g.pos.board[move_to(list.moves[i])])
                        m = list.moves[i];
            position_make(&g.pos, m, &g.states[g.plies++]);
            if (ply < 4)
                continue;
            int score = eval_evaluate(&g.pos);
            int cho = g.pos.side == WHITE ? score : -score;
            int result = cho > 180 ? PACKED_CHO_WINS : cho < -180 ? PACKED_HAN_WINS : PACKED_DRAW;
            if (packed_write(&g.pos, score, result, PACKED_QUIET, 0, ply + 1, &r[n]))
                n++;
        }
    }
    return r;
}

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

static void test_packed_round_trip(void **state)
{
    (void)state;
    uint64_t seed = 5;
    int checked = 0;
    for (int game = 0; game < 30; game++) {
        TestGame g;
        test_game_setup(&g, "janggi", START_FEN, NULL);
        for (int ply = 0; ply < GAME_MAX_PLIES; ply++) {
            PackedRecord r;
            assert_true(packed_write(&g.pos, ply * 37 - 900, ply % 3, ply % 8, 2, 1000 + ply, &r));
            Position back;
            assert_true(packed_read(&r, &back));
            assert_memory_equal(back.board, g.pos.board, sizeof back.board);
            assert_true(back.occupied == g.pos.occupied);
            assert_true(back.occupied_t == g.pos.occupied_t);
            assert_true(back.cannons_t == g.pos.cannons_t);
            assert_int_equal(back.side, g.pos.side);
            assert_int_equal(eval_classical_raw(&back), eval_classical_raw(&g.pos));
            for (Color c = WHITE; c <= BLACK; c++) {
                assert_true(back.by_color[c] == g.pos.by_color[c]);
                assert_int_equal(back.general[c], g.pos.general[c]);
                int f1[NNUE_MAX_ACTIVE], f2[NNUE_MAX_ACTIVE];
                int n1 = nnue_features(&g.pos, 9, c, f1), n2 = nnue_features(&back, 9, c, f2);
                assert_int_equal(n1, n2);
                assert_memory_equal(f1, f2, (size_t)n1 * sizeof(int));
            }
            assert_int_equal(packed_score(&r), ply * 37 - 900);
            assert_int_equal(packed_result(&r), ply % 3);
            assert_int_equal(packed_flags(&r), ply % 8);
            assert_int_equal(packed_ply(&r), 1000 + ply);
            assert_int_equal(r.bytes[31], 2);
            assert_int_equal(r.bytes[36] | r.bytes[37] << 8, g.pos.st->halfmove);
            checked++;
            MoveList list;
            movegen_legal(&g.pos, &list);
            if (list.count == 0)
                break;
            position_make(&g.pos, list.moves[splitmix64(&seed) % (uint64_t)list.count], &g.states[g.plies++]);
        }
    }
    assert_true(checked > 1000);
    /* Scores are clamped to int16; a bad piece code, a missing general or a bit past point 89 is refused. */
    TestGame g;
    test_game_setup(&g, "janggi", START_FEN, NULL);
    PackedRecord r;
    assert_true(packed_write(&g.pos, 100000, 1, 0, 0, 0, &r));
    assert_int_equal(packed_score(&r), 32767);
    Position back;
    PackedRecord bad = r;
    bad.bytes[12] &= 0xf0; /* the first piece (a1) becomes code 0 */
    assert_false(packed_read(&bad, &back));
    bad = r;
    bad.bytes[11] |= 0x10; /* point 92 */
    assert_false(packed_read(&bad, &back));
    bad = r;
    bad.bytes[29] = 3;
    assert_false(packed_read(&bad, &back));
    /* 33 pieces do not fit. */
    test_game_setup(&g, "janggi", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBARABNR w - - 0 1", NULL);
    assert_false(packed_write(&g.pos, 0, 1, 0, 0, 0, &r));
}

/* The analytic gradient of the loss against central differences, parameter by parameter, on a tiny net
 * (two output buckets, so both are exercised), on several examples. A parameter whose difference
 * crosses a kink of the clamp may disagree; nearly all must agree within 2%. */
static void check_gradient(NnueArch arch)
{
    Model m;
    char err[200];
    assert_true(model_init(&m, arch, 3, err, sizeof err));
    PackedRecord *recs = synthetic(6, 8);
    float *grad = calloc(m.count, sizeof(float));
    uint64_t seed = 4;
    int agree = 0, compared = 0;
    for (int e = 0; e < 6; e++) {
        Position pos;
        assert_true(packed_read(&recs[e], &pos));
        Sample s;
        sample_from_position(&m, &pos, &s);
        double target = record_target(&recs[e], 0.5, 400);
        memset(grad, 0, m.count * sizeof(float));
        model_loss(&m, &s, target, 400, grad);
        /* Parameters that matter to this example: its features' weights, the biases, the output layer. */
        size_t picks[60];
        int n = 0;
        for (int k = 0; k < 20; k++)
            picks[n++] = (size_t)s.us[splitmix64(&seed) % (uint64_t)s.n_us] * 32 + splitmix64(&seed) % 32;
        for (int k = 0; k < 10; k++)
            picks[n++] = (size_t)(m.ft_b - m.params) + splitmix64(&seed) % 32;
        for (int k = 0; k < 28; k++)
            picks[n++] = (size_t)(m.out_w - m.params) + (size_t)s.bucket * 64 + splitmix64(&seed) % 64;
        picks[n++] = (size_t)(m.out_b - m.params) + (size_t)s.bucket;
        for (int k = 0; k < n; k++) {
            float keep = m.params[picks[k]];
            const float eps = 1e-2f;
            m.params[picks[k]] = keep + eps;
            double up = model_loss(&m, &s, target, 400, NULL);
            m.params[picks[k]] = keep - eps;
            double down = model_loss(&m, &s, target, 400, NULL);
            m.params[picks[k]] = keep;
            double numeric = (up - down) / (2 * eps), analytic = grad[picks[k]];
            if (fabs(analytic) < 1e-5 && fabs(numeric) < 1e-5)
                continue;
            compared++;
            agree += fabs(numeric - analytic) <= 0.02 * fabs(numeric) + 2e-6;
        }
    }
    printf("gradient: %d of %d parameters agree with finite differences\n", agree, compared);
    assert_true(compared > 150);
    assert_true(agree >= compared * 95 / 100);
    free(grad);
    free(recs);
    model_free(&m);
}

static void test_gradient(void **state)
{
    (void)state;
    check_gradient((NnueArch){1, 32, 2, NNUE_BASE_NONE});
}

static double run_training(Model *m, PackedRecord *recs, size_t n, int threads, double losses[6])
{
    size_t *train = malloc(n * sizeof *train), *valid = malloc(n * sizeof *valid);
    size_t nt = 0, nv = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 10 == 0)
            valid[nv++] = i;
        else
            train[nt++] = i;
    }
    double k = fit_k(recs, train, nt);
    TrainConfig cfg = {0.005, 0.1, 0.0001, 0.3, k, 256, threads, 5, 7};
    Trainer t;
    char err[200];
    assert_true(trainer_init(&t, m, &cfg, (nt + 255) / 256 * 5, err, sizeof err));
    losses[0] = trainer_loss(&t, recs, valid, nv);
    for (int e = 1; e <= 5; e++) {
        double train_loss = trainer_epoch(&t, recs, train, nt, e);
        losses[e] = trainer_loss(&t, recs, valid, nv);
        printf("epoch %d: training loss %.6f, validation loss %.6f\n", e, train_loss, losses[e]);
    }
    trainer_free(&t);
    free(train);
    free(valid);
    return k;
}

/* A tiny run: 4000 positions, 5 epochs, two threads. The validation loss falls, and the same run gives
 * the same losses and weights bit for bit. */
static void test_tiny_training_run(void **state)
{
    (void)state;
    PackedRecord *recs = synthetic(4000, 21);
    Model a, b;
    char err[200];
    assert_true(model_init(&a, (NnueArch){1, 32, 1, NNUE_BASE_NONE}, 9, err, sizeof err));
    assert_true(model_init(&b, (NnueArch){1, 32, 1, NNUE_BASE_NONE}, 9, err, sizeof err));
    double la[6], lb[6];
    double k = run_training(&a, recs, 4000, 2, la);
    printf("K %.1f\n", k);
    assert_true(k > 50 && k < 3000);
    assert_true(la[5] < la[0] * 0.8);
    assert_true(la[5] < la[1]);
    run_training(&b, recs, 4000, 2, lb);
    assert_memory_equal(la, lb, sizeof la);
    assert_memory_equal(a.params, b.params, a.count * sizeof(float));
    model_free(&a);
    model_free(&b);
    free(recs);
}

/* A model of `arch` trained briefly on `recs` (so that its weights have a trained net's spread), and
 * its quantised net. */
static NnueNet *trained_net(Model *m, NnueArch arch, uint64_t seed, PackedRecord *recs, size_t n)
{
    char err[200];
    assert_true(model_init(m, arch, seed, err, sizeof err));
    double losses[6];
    run_training(m, recs, n, 2, losses);
    NnueNet *net = model_quantise(m, "trained");
    assert_non_null(net);
    return net;
}

/* How far the quantised net's scores are from the float net's over `n` records, in centipawns. */
typedef struct {
    double mean, worst, mean_score; /* mean_score: the float net's mean |score| */
} QuantisationGap;

static QuantisationGap quantisation_gap(const Model *m, const NnueNet *net, const PackedRecord *recs, size_t n)
{
    QuantisationGap gap = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        Position pos;
        assert_true(packed_read(&recs[i], &pos));
        double f = model_score(m, &pos), d = fabs(f - nnue_evaluate_full(net, &pos));
        gap.mean += d;
        gap.mean_score += fabs(f);
        gap.worst = d > gap.worst ? d : gap.worst;
    }
    gap.mean /= (double)n;
    gap.mean_score /= (double)n;
    return gap;
}

/* The quantised net scores positions within a few centipawns of the float net it came from (a net
 * trained briefly, so that its weights have a trained net's spread). */
static void test_quantisation_tolerance(void **state)
{
    (void)state;
    PackedRecord *recs = synthetic(4000, 31);
    Model m;
    NnueNet *net = trained_net(&m, (NnueArch){1, 128, 2, NNUE_BASE_NONE}, 5, recs, 4000);
    QuantisationGap gap = quantisation_gap(&m, net, recs, 4000);
    printf("quantised against float: mean %.2f cp, worst %.2f cp (mean |score| %.1f cp)\n", gap.mean, gap.worst,
           gap.mean_score);
    assert_true(gap.mean_score > 50); /* the net does say something */
    /* The rounding error grows with the scores: under 1% of them on average, and a few centipawns. */
    assert_true(gap.mean < 0.01 * gap.mean_score);
    assert_true(gap.mean < 4.0);
    assert_true(gap.worst < 15.0);
    nnue_net_free(net);
    model_free(&m);
    free(recs);
}

/* King buckets train with a factor: each bucketed feature also activates its row in one block shared by
 * every bucket, the buckets' own rows start at zero, and quantisation folds the factor into every bucket,
 * so the engine's net (which has no factor) scores as the float net does, whichever bucket the general
 * is in. The gradient reaches both rows. */
static void test_king_buckets_factorised(void **state)
{
    (void)state;
    check_gradient((NnueArch){9, 32, 2, NNUE_BASE_NONE});
    Model m;
    char err[200];
    assert_true(model_init(&m, (NnueArch){9, 64, 1, NNUE_BASE_NONE}, 5, err, sizeof err));
    assert_int_equal(m.inputs, 10 * NNUE_PLANE_INPUTS);
    assert_int_equal(m.count, (size_t)10 * NNUE_PLANE_INPUTS * 64 + 64 + 2 * 64 + 1);
    for (size_t i = 0; i < (size_t)9 * NNUE_PLANE_INPUTS * 64; i++)
        assert_true(m.ft_w[i] == 0.0f);
    TestGame g;
    /* Cho's general on d1 (bucket 0 from Cho's side), Han's on e9 (bucket 4 from Han's). */
    test_game_setup(&g, "janggi", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBKAABNR w - - 0 1", NULL);
    Sample s;
    sample_from_position(&m, &g.pos, &s);
    assert_int_equal(s.n_us, 64);
    assert_int_equal(s.n_them, 64);
    for (int k = 0; k < 32; k++) {
        assert_int_equal(s.us[k] / NNUE_PLANE_INPUTS, 0);
        assert_int_equal(s.them[k] / NNUE_PLANE_INPUTS, 4);
        assert_int_equal(s.us[32 + k], 9 * NNUE_PLANE_INPUTS + s.us[k] % NNUE_PLANE_INPUTS);
        assert_int_equal(s.them[32 + k], 9 * NNUE_PLANE_INPUTS + s.them[k] % NNUE_PLANE_INPUTS);
    }
    PackedRecord *recs = synthetic(4000, 41);
    double losses[6];
    run_training(&m, recs, 4000, 2, losses);
    assert_true(losses[5] < losses[0] * 0.8);
    NnueNet *net = model_quantise(&m, "test");
    assert_non_null(net);
    assert_int_equal(net->arch.king_buckets, 9);
    bool bucket_seen[9] = {false};
    for (size_t i = 0; i < 4000; i++) {
        Position pos;
        assert_true(packed_read(&recs[i], &pos));
        bucket_seen[nnue_king_bucket(9, pos.side, pos.general[pos.side])] = true;
    }
    int distinct = 0;
    for (int b = 0; b < 9; b++)
        distinct += bucket_seen[b];
    assert_true(distinct >= 3);
    QuantisationGap gap = quantisation_gap(&m, net, recs, 4000);
    printf("king buckets: quantised against float: mean %.2f cp, worst %.2f cp\n", gap.mean, gap.worst);
    assert_true(gap.mean < 4.0);
    assert_true(gap.worst < 15.0);
    nnue_net_free(net);
    model_free(&m);
    free(recs);
}

/* --init: a model started from an integer net quantises back to exactly that net (bucketed too, the
 * factor rows starting at zero), and a net of another architecture is refused with a message. */
static void test_init_from_net(void **state)
{
    (void)state;
    PackedRecord *recs = synthetic(2000, 53);
    const NnueArch archs[] = {{1, 64, 2, NNUE_BASE_NONE}, {9, 64, 1, NNUE_BASE_NONE}};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        Model m, again;
        char err[300];
        NnueNet *net = trained_net(&m, archs[a], 7, recs, 2000);
        assert_true(model_init(&again, archs[a], 99, err, sizeof err));
        assert_true(model_load_net(&again, net, err, sizeof err));
        size_t h = (size_t)archs[a].hidden, ob = (size_t)archs[a].output_buckets;
        size_t rows = (size_t)archs[a].king_buckets * NNUE_PLANE_INPUTS;
        if (archs[a].king_buckets > 1) /* the factor rows follow the buckets' */
            for (size_t i = 0; i < (size_t)NNUE_PLANE_INPUTS * h; i++)
                assert_true(again.ft_w[rows * h + i] == 0.0f);
        NnueNet *back = model_quantise(&again, "second");
        assert_non_null(back);
        assert_memory_equal(back->ft_weights, net->ft_weights, rows * h * sizeof *net->ft_weights);
        assert_memory_equal(back->ft_bias, net->ft_bias, h * sizeof *net->ft_bias);
        assert_memory_equal(back->out_weights, net->out_weights, ob * 2 * h * sizeof *net->out_weights);
        assert_memory_equal(back->out_bias, net->out_bias, ob * sizeof *net->out_bias);
        nnue_net_free(back);
        model_free(&again);
        /* What a net cannot grow to (fewer hidden units, other output buckets unless from one, one king
         * bucket from nine, another base): refused, the model left as it was. */
        NnueArch refused[4] = {archs[a], archs[a], archs[a], archs[a]};
        refused[0].hidden = archs[a].hidden / 2;
        refused[1].output_buckets = archs[a].output_buckets == 2 ? 3 : 2;
        refused[2].king_buckets = archs[a].king_buckets == 9 ? 1 : 9;
        refused[3].base = NNUE_BASE_CLASSICAL;
        for (int k = 0; k < 4; k++) {
            if (k == 1 && archs[a].output_buckets == 1)
                continue; /* one output bucket grows to two: allowed (test_init_grown) */
            if (k == 2 && archs[a].king_buckets == 1)
                continue; /* one king bucket grows to nine: likewise */
            assert_true(model_init(&again, refused[k], 99, err, sizeof err));
            float before = again.ft_w[0];
            assert_false(model_load_net(&again, net, err, sizeof err));
            assert_non_null(strstr(err, "a net can only grow"));
            assert_true(again.ft_w[0] == before);
            model_free(&again);
        }
        nnue_net_free(net);
        model_free(&m);
    }
    free(recs);
}

/* --init into a larger model (more hidden units, nine king buckets, several output buckets): the grown
 * model, quantised, scores every position exactly as the net it started from, in every bucket; the
 * added units' feature weights are not all equal (so that training can tell them apart). */
static void test_init_grown(void **state)
{
    (void)state;
    PackedRecord *recs = synthetic(3000, 57);
    Model m;
    char err[300];
    NnueNet *net = trained_net(&m, (NnueArch){1, 32, 1, NNUE_BASE_NONE}, 7, recs, 3000);
    const NnueArch grown[] = {
        {1, 64, 1, NNUE_BASE_NONE}, {9, 32, 1, NNUE_BASE_NONE}, {1, 32, 3, NNUE_BASE_NONE}, {9, 96, 4, NNUE_BASE_NONE}};
    for (size_t a = 0; a < sizeof grown / sizeof grown[0]; a++) {
        Model g;
        assert_true(model_init(&g, grown[a], 99, err, sizeof err));
        assert_true(model_load_net(&g, net, err, sizeof err));
        NnueNet *big = model_quantise(&g, "grown");
        assert_non_null(big);
        bool kings[9] = {false}, outs[8] = {false};
        int differ = 0;
        for (size_t i = 0; i < 3000; i++) {
            Position pos;
            assert_true(packed_read(&recs[i], &pos));
            assert_int_equal(nnue_evaluate_full(big, &pos), nnue_evaluate_full(net, &pos));
            kings[nnue_king_bucket(9, pos.side, pos.general[pos.side])] = true;
            int pieces =
                __builtin_popcountll((uint64_t)pos.occupied) + __builtin_popcountll((uint64_t)(pos.occupied >> 64));
            outs[nnue_output_bucket(grown[a].output_buckets, pieces)] = true;
        }
        int king_buckets_seen = 0, output_buckets_seen = 0;
        for (int k = 0; k < 9; k++)
            king_buckets_seen += kings[k];
        for (int k = 0; k < grown[a].output_buckets; k++)
            output_buckets_seen += outs[k];
        assert_true(king_buckets_seen >= 3); /* the positions do reach other buckets */
        assert_true(output_buckets_seen >= (grown[a].output_buckets > 1 ? 2 : 1));
        if (grown[a].hidden > 32) { /* the new units: random feature weights, zero output weights */
            size_t H = (size_t)grown[a].hidden;
            /* the random rows: the factor's with king buckets (the buckets' own start at zero) */
            for (size_t r = (size_t)g.inputs - NNUE_PLANE_INPUTS; r < (size_t)g.inputs; r++)
                differ += g.ft_w[r * H + 40] != g.ft_w[r * H + 41];
            assert_true(differ > NNUE_PLANE_INPUTS / 2);
            for (size_t b = 0; b < (size_t)grown[a].output_buckets; b++)
                for (size_t i = 32; i < H; i++)
                    assert_true(g.out_w[b * 2 * H + i] == 0.0f && g.out_w[b * 2 * H + H + i] == 0.0f);
        }
        nnue_net_free(big);
        model_free(&g);
    }
    nnue_net_free(net);
    model_free(&m);
    free(recs);
}

static void test_checkpoint(void **state)
{
    (void)state;
    Model a, b;
    char err[300], path[] = "/tmp/janggun-test-train-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_true(model_init(&a, (NnueArch){1, 32, 1, NNUE_BASE_NONE}, 1, err, sizeof err));
    assert_true(model_init(&b, (NnueArch){1, 32, 1, NNUE_BASE_NONE}, 2, err, sizeof err));
    TrainConfig cfg = {0.001, 0.1, 0, 0.5, 400, 64, 1, 1, 1};
    Trainer ta, tb;
    assert_true(trainer_init(&ta, &a, &cfg, 10, err, sizeof err));
    assert_true(trainer_init(&tb, &b, &cfg, 10, err, sizeof err));
    ta.step = 7;
    ta.m1[3] = 0.5f;
    assert_true(trainer_save(&ta, 4, path, err, sizeof err));
    int epoch = 0;
    assert_true(trainer_load(&tb, &epoch, path, err, sizeof err));
    assert_int_equal(epoch, 4);
    assert_int_equal(tb.step, 7);
    assert_true(tb.m1[3] == 0.5f);
    assert_memory_equal(a.params, b.params, a.count * sizeof(float));
    /* A checkpoint of another shape is refused. */
    Model c;
    Trainer tc;
    assert_true(model_init(&c, (NnueArch){1, 64, 1, NNUE_BASE_NONE}, 2, err, sizeof err));
    assert_true(trainer_init(&tc, &c, &cfg, 10, err, sizeof err));
    assert_false(trainer_load(&tc, &epoch, path, err, sizeof err));
    assert_non_null(strstr(err, "32 hidden"));
    unlink(path);
    trainer_free(&ta);
    trainer_free(&tb);
    trainer_free(&tc);
    model_free(&a);
    model_free(&b);
    model_free(&c);
}

/* --base classical: the net starts with zero output weights, so its output is the classical board
 * terms exactly (its own score 0); the loss is the loss of those terms; the quantised net keeps the
 * base. */
static void test_classical_base(void **state)
{
    (void)state;
    Model m;
    char err[200];
    assert_true(model_init(&m, (NnueArch){1, 32, 1, NNUE_BASE_CLASSICAL}, 3, err, sizeof err));
    PackedRecord *recs = synthetic(8, 21);
    for (int e = 0; e < 8; e++) {
        Position pos;
        assert_true(packed_read(&recs[e], &pos));
        Sample s;
        sample_from_position(&m, &pos, &s);
        int raw = eval_classical_raw(&pos);
        assert_true(fabs(model_forward(&m, &s) * NNUE_SCALE - raw) < 0.01);
        assert_true(model_score(&m, &pos) == 0.0);
        double p = 1 / (1 + exp(-raw / 400.0)), target = record_target(&recs[e], 0.3, 400);
        assert_true(fabs(model_loss(&m, &s, target, 400, NULL) - (p - target) * (p - target)) < 1e-6);
    }
    NnueNet *net = model_quantise(&m, "base");
    assert_non_null(net);
    assert_int_equal(net->arch.base, NNUE_BASE_CLASSICAL);
    nnue_net_free(net);
    free(recs);
    model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packed_round_trip),
        cmocka_unit_test(test_gradient),
        cmocka_unit_test(test_tiny_training_run),
        cmocka_unit_test(test_quantisation_tolerance),
        cmocka_unit_test(test_king_buckets_factorised),
        cmocka_unit_test(test_checkpoint),
        cmocka_unit_test(test_classical_base),
        cmocka_unit_test(test_init_from_net),
        cmocka_unit_test(test_init_grown),
    };
    engine_init();
    return cmocka_run_group_tests(tests, setup, NULL);
}

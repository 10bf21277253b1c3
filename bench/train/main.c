/* janggun-train: trains the network on packed training records (bench/train/packed.h) and writes it in the
 * engine's integer format (eval/nnue.h). The options, reading the data, the validation split, the epochs
 * with their losses and speed, checkpoints and the final net; the arithmetic is trainer.c's. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/base/base.h"
#include "../../engine/base/cli_options.h"
#include "../../engine/base/version.h"
#include "../../eval/eval.h"
#include "trainer.h"

__attribute__((format(printf, 1, 2))) static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_error_v("janggun-train", fmt, ap);
    va_end(ap);
    exit(2);
}

static bool write_net(const NnueNet *net, const char *path)
{
    size_t size;
    unsigned char *data = nnue_net_write(net, &size);
    FILE *f = data ? fopen(path, "wb") : NULL;
    bool ok = f && fwrite(data, 1, size, f) == size;
    if (f)
        ok = fclose(f) == 0 && ok;
    free(data);
    return ok;
}

int main(int argc, char **argv)
{
    CliWords data = {0};
    const char *out = "janggun-train.nnue", *checkpoint = NULL, *resume = NULL, *init = NULL;
    int king_buckets = 1, hidden = 128, output_buckets = 1, epochs = 10, batch = 16384, threads = 2, seed = 1;
    int validation = 5, stop_after = 0, base = NNUE_BASE_NONE;
    static const char *const BASES[] = {"none", "classical", NULL};
    int64_t max_positions = 0;
    double lr = 0.001, final_lr = 0.05, wd = 0.0001, lambda = 0, k = 0;
    bool all = false, version = false, split_games = false;
    const CliOption options[] = {
        {.name = "--data",
         .kind = CLI_WORDS,
         .words = &data,
         .value_name = "FILE ...",
         .help = "packed training records (README, Training data)"},
        {.name = "--out",
         .kind = CLI_STRING,
         .text = &out,
         .value_name = "PATH",
         .help = "the net (janggun-train.nnue)"},
        {.name = "--king-buckets",
         .kind = CLI_INT,
         .integer = &king_buckets,
         .min = 1,
         .max = 9,
         .value_name = "1|9",
         .help = "king buckets (1)"},
        {.name = "--hidden",
         .kind = CLI_INT,
         .integer = &hidden,
         .min = NNUE_MIN_HIDDEN,
         .max = NNUE_MAX_HIDDEN,
         .value_name = "N",
         .help = "accumulator units per perspective, a multiple of 32 (128)"},
        {.name = "--output-buckets",
         .kind = CLI_INT,
         .integer = &output_buckets,
         .min = 1,
         .max = NNUE_MAX_OUTPUT_BUCKETS,
         .value_name = "N",
         .help = "output buckets by piece count (1)"},
        {.name = "--base",
         .kind = CLI_CHOICE,
         .choice = &base,
         .choices = BASES,
         .value_name = "none|classical",
         .help = "what the net's output is added to: nothing, or the classical board terms (none)"},
        {.name = "--epochs",
         .kind = CLI_INT,
         .integer = &epochs,
         .min = 1,
         .max = 100000,
         .value_name = "N",
         .help = "epochs (10)"},
        {.name = "--batch",
         .kind = CLI_INT,
         .integer = &batch,
         .min = 1,
         .max = 10000000,
         .value_name = "N",
         .help = "positions a step (16384)"},
        {.name = "--lr",
         .kind = CLI_REAL,
         .real = &lr,
         .min = 0,
         .max = 1,
         .value_name = "X",
         .help = "Adam's learning rate at the start (0.001)"},
        {.name = "--final-lr",
         .kind = CLI_REAL,
         .real = &final_lr,
         .min = 0,
         .max = 1,
         .value_name = "RATIO",
         .help = "the learning rate at the end, as a part of --lr; cosine in between (0.05)"},
        {.name = "--wd",
         .kind = CLI_REAL,
         .real = &wd,
         .min = 0,
         .max = 1,
         .value_name = "X",
         .help = "AdamW's decoupled weight decay (0.0001)"},
        {.name = "--lambda",
         .kind = CLI_REAL,
         .real = &lambda,
         .min = 0,
         .max = 1,
         .value_name = "X",
         .help = "the weight of the game's result in the target; the score has 1 - X (0)"},
        {.name = "--k",
         .kind = CLI_REAL,
         .real = &k,
         .min = 0,
         .max = 100000,
         .value_name = "CP",
         .help = "the sigmoid's scale, sigmoid(score / K) (0: fitted to the results)"},
        {.name = "--validation",
         .kind = CLI_INT,
         .integer = &validation,
         .min = 1,
         .max = 50,
         .value_name = "PCT",
         .help = "the percentage of positions held out (5)"},
        {.name = "--split-games",
         .kind = CLI_FLAG,
         .flag = &split_games,
         .help = "hold out whole games, not single positions (a game: records in order, each ply above the last)"},
        {.name = "--max-positions",
         .kind = CLI_INT64,
         .integer64 = &max_positions,
         .min = 0,
         .max = CLI_NO_MAX,
         .value_name = "N",
         .help = "use at most N positions (0: all)"},
        {.name = "--all", .kind = CLI_FLAG, .flag = &all, .help = "train on positions not flagged quiet too"},
        {.name = "--threads",
         .kind = CLI_INT,
         .integer = &threads,
         .min = 1,
         .max = 64,
         .value_name = "N",
         .help = "threads (2)"},
        {.name = "--seed",
         .kind = CLI_INT,
         .integer = &seed,
         .min = 0,
         .max = 1000000000,
         .value_name = "N",
         .help = "the start weights, the split and the order (1)"},
        {.name = "--checkpoint",
         .kind = CLI_STRING,
         .text = &checkpoint,
         .value_name = "PATH",
         .help = "after each epoch, the float net and Adam's state, to continue with --resume"},
        {.name = "--stop-after",
         .kind = CLI_INT,
         .integer = &stop_after,
         .min = 0,
         .max = 100000,
         .value_name = "N",
         .help = "stop after epoch N (the schedule still spans --epochs); go on later with --resume"},
        {.name = "--resume",
         .kind = CLI_STRING,
         .text = &resume,
         .value_name = "PATH",
         .help = "continue from a checkpoint (same data, seed and options)"},
        {.name = "--init",
         .kind = CLI_STRING,
         .text = &init,
         .value_name = "NET",
         .help = "start from this net's weights, not random ones (its architecture or a larger one)"},
        {.name = "--version", .kind = CLI_FLAG, .flag = &version, .help = "print the version"},
    };
    const CliCommand cli = {"janggun-train", "usage: janggun-train --data FILE ... [OPTIONS]\n",
                            "Trains the network on packed records and writes it in the engine's format. See "
                            "README.md (Training).\n",
                            options, CLI_COUNT(options)};
    int status = cli_read_options(&cli, argc - 1, argv + 1, NULL);
    if (status >= 0)
        return status;
    if (version) {
        printf("janggun-train (Janggun %s)\n", janggun_version);
        return 0;
    }
    if (data.count == 0)
        die("--data is needed (see janggun-train --help)");
    if (king_buckets != 1 && king_buckets != 9)
        die("--king-buckets must be 1 or 9, not %d", king_buckets);
    if (hidden % 32)
        die("--hidden must be a multiple of 32, not %d", hidden);
    engine_init();
    char init_err[600];
    if (!eval_init(init_err, sizeof init_err)) /* the classical weights, for --base classical */
        die("%s", init_err);
    NnueArch arch = {king_buckets, hidden, output_buckets, base};
    /* The start net is read and checked before the data, which can take minutes to load. */
    NnueNet *init_net = NULL;
    if (init) {
        if (resume)
            die("--init and --resume cannot be used together (a checkpoint holds its own weights)");
        init_net = nnue_net_load(init, init_err, sizeof init_err);
        if (!init_net)
            die("--init: %s", init_err);
        if (!model_arch_can_start(arch, init_net->arch, init_err, sizeof init_err))
            die("--init %s: %s", init, init_err);
    }

    /* Every file, one array. */
    PackedRecord *records = NULL;
    size_t count = 0;
    size_t *file_start = malloc(((size_t)data.count + 1) * sizeof *file_start);
    if (!file_start)
        die("out of memory");
    for (int i = 0; i < data.count; i++) {
        file_start[i] = count;
        size_t n, partial;
        char err[300];
        PackedRecord *r = packed_load(data.words[i], &n, &partial, err, sizeof err);
        if (!r)
            die("%s", err); /* it names the file */
        if (partial)
            fprintf(stderr, "%s: %zu bytes of a partial last record ignored\n", data.words[i], partial);
        PackedRecord *all_records = realloc(records, (count + n) * sizeof *records + 1);
        if (!all_records)
            die("out of memory");
        records = all_records;
        memcpy(records + count, r, n * sizeof *r);
        count += n;
        free(r);
    }
    file_start[data.count] = count;
    /* The positions used: quiet ones (unless --all), well-formed, up to --max-positions; split into
     * training and validation by a seeded hash of the position's number, or with --split-games of its
     * game's: the positions of one game are so alike that a net large enough to learn them by heart
     * would otherwise look better on the held-out ones than it is. A game starts with each file and
     * wherever a record's ply is not above the one before it (so a few records a game, as --rescore
     * writes, can join two games into one: a larger group held out, never a game split). */
    size_t *train = malloc((count + 1) * sizeof *train), *valid = malloc((count + 1) * sizeof *valid);
    if (!train || !valid)
        die("out of memory");
    size_t n_train = 0, n_valid = 0, skipped = 0, bad = 0;
    Position pos;
    size_t game = 0, games = 0;
    int file = 0;
    for (size_t i = 0; i < count && (max_positions == 0 || n_train + n_valid < (size_t)max_positions); i++) {
        bool first_of_file = false;
        while (file < data.count && i == file_start[file]) {
            first_of_file = true;
            file++;
        }
        if (first_of_file || packed_ply(&records[i]) <= packed_ply(&records[i - 1]))
            game = games++;
        if (!all && !(packed_flags(&records[i]) & PACKED_QUIET)) {
            skipped++;
            continue;
        }
        if (!packed_read(&records[i], &pos)) {
            bad++;
            continue;
        }
        uint64_t h = (uint64_t)seed * 0x9e3779b97f4a7c15ull ^ (split_games ? game : i);
        if (splitmix64(&h) % 100 < (uint64_t)validation)
            valid[n_valid++] = i;
        else
            train[n_train++] = i;
    }
    if (n_train == 0 || n_valid == 0)
        die("no positions to train on (%zu records, %zu not quiet, %zu malformed)", count, skipped, bad);
    if (k == 0)
        k = fit_k(records, train, n_train);
    fprintf(stderr,
            "%zu records: %zu training, %zu validation positions (%zu not quiet left out, %zu malformed); K %.1f, "
            "lambda %.2f\n",
            count, n_train, n_valid, skipped, bad, k, lambda);
    if (split_games)
        fprintf(stderr, "%zu games: whole games held out\n", games);

    Model model;
    char err[600];
    if (!model_init(&model, arch, (uint64_t)seed, err, sizeof err))
        die("%s", err);
    if (init_net) {
        if (!model_load_net(&model, init_net, err, sizeof err))
            die("--init %s: %s", init, err);
        nnue_net_free(init_net);
    }
    TrainConfig cfg = {lr, final_lr, wd, lambda, k, batch, threads, epochs, (uint64_t)seed};
    uint64_t steps_per_epoch = (n_train + (size_t)batch - 1) / (size_t)batch;
    Trainer t;
    if (!trainer_init(&t, &model, &cfg, steps_per_epoch * (uint64_t)epochs, err, sizeof err))
        die("%s", err);
    int first = 1;
    if (resume) {
        int done;
        if (!trainer_load(&t, &done, resume, err, sizeof err))
            die("%s", err);
        first = done + 1;
        fprintf(stderr, "resuming after epoch %d (step %llu)\n", done, (unsigned long long)t.step);
    }
    fprintf(stderr,
            "net: %d king bucket%s x 1260 inputs -> %d x 2 -> %d output bucket%s%s; %zu parameters; %d threads\n",
            king_buckets, king_buckets > 1 ? "s" : "", hidden, output_buckets, output_buckets > 1 ? "s" : "",
            base == NNUE_BASE_CLASSICAL ? ", added to the classical terms" : "", model.count, threads);
    double train_loss = trainer_loss(&t, records, train, n_train),
           valid_loss = trainer_loss(&t, records, valid, n_valid);
    fprintf(stderr, "before training: training loss %.6f, validation loss %.6f\n", train_loss, valid_loss);
    int64_t start = clock_ms();
    int last = stop_after > 0 && stop_after < epochs ? stop_after : epochs;
    for (int e = first; e <= last; e++) {
        int64_t t0 = clock_ms();
        train_loss = trainer_epoch(&t, records, train, n_train, e);
        int64_t ms = clock_ms() - t0;
        valid_loss = trainer_loss(&t, records, valid, n_valid);
        fprintf(stderr, "epoch %d/%d: training loss %.6f, validation loss %.6f, %.0f positions/s, %.1f s\n", e, epochs,
                train_loss, valid_loss, (double)n_train * 1000.0 / (double)(ms ? ms : 1), (double)ms / 1000.0);
        if (checkpoint && !trainer_save(&t, e, checkpoint, err, sizeof err))
            die("%s", err);
    }

    /* The integer net, its description, and how far its scores are from the float net's. */
    char description[NNUE_MAX_DESCRIPTION];
    int used = snprintf(description, sizeof description, "janggun-train (Janggun %s):", janggun_version);
    for (int i = 1; i < argc && used < (int)sizeof description - 200; i++)
        used += snprintf(description + used, sizeof description - (size_t)used, " %s", argv[i]);
    snprintf(description + used, sizeof description - (size_t)used,
             "; %zu training and %zu validation positions; K %.1f; training loss %.6f, validation loss %.6f", n_train,
             n_valid, k, train_loss, valid_loss);
    NnueNet *net = model_quantise(&model, description);
    if (!net)
        die("out of memory");
    double diff = 0, worst = 0;
    size_t checked = n_valid < 10000 ? n_valid : 10000;
    for (size_t i = 0; i < checked; i++) {
        packed_read(&records[valid[i]], &pos);
        double d = fabs(model_score(&model, &pos) - nnue_evaluate_full(net, &pos));
        diff += d;
        worst = d > worst ? d : worst;
    }
    if (!write_net(net, out))
        die("cannot write %s", out);
    fprintf(stderr, "wrote %s after %.1f s; integer against float scores on %zu positions: mean %.2f, worst %.1f cp\n",
            out, (double)(clock_ms() - start) / 1000.0, checked, checked ? diff / (double)checked : 0, worst);
    nnue_net_free(net);
    trainer_free(&t);
    model_free(&model);
    free(records);
    free(file_start);
    free(train);
    free(valid);
    return 0;
}

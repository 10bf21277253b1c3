/* janggun-train's core: the float network (the same architecture as eval/nnue.h, fed by the very same
 * feature functions), its forward and backward passes, the loss (the search score through a sigmoid with
 * a fitted scale K, mixed with the game's result by lambda), AdamW with a cosine learning-rate schedule,
 * epochs over packed records on several threads, checkpoints, and quantisation to the engine's integer
 * net. The command line is main.c; this part is what the tests drive. */
#ifndef JANGGUN_TRAINER_H
#define JANGGUN_TRAINER_H

#include <stddef.h>
#include <stdint.h>

#include "../../eval/nnue.h"
#include "packed.h"

/* The float net: every parameter in one array (the layout of the integer net: feature weights
 * [inputs][H], accumulator biases [H], output weights [B][2H], output biases [B]). With king buckets
 * the feature weights have one more block of NNUE_PLANE_INPUTS rows after the buckets' (the factor,
 * shared by every bucket: each active feature also activates its row there), which quantisation folds
 * into every bucket's; so a bucket seldom seen still starts from what all positions taught. */
typedef struct {
    NnueArch arch;
    int inputs;   /* rows of feature weights: the buckets', then the factor's when there are buckets */
    size_t count; /* parameters */
    float *params;
    float *ft_w, *ft_b, *out_w, *out_b; /* into params */
} Model;

bool model_init(Model *m, NnueArch arch, uint64_t seed, char *err, size_t err_size);

/* Start from an integer net instead (janggun-train --init): its weights divided back by the
 * quantisation scales. With king buckets the factor rows start at zero, the buckets' rows holding what
 * the factor had folded into them. The model may be larger than the net (model_arch_can_start): more
 * hidden units, nine king buckets for one (the net's rows in the factor, the buckets' at zero), several
 * output buckets for one (copies); it then computes exactly what the net does, until trained. */
bool model_load_net(Model *m, const NnueNet *net, char *err, size_t err_size);
/* Whether a net of architecture `have` can start a model of `want` (the same, or grown as
 * model_load_net allows); if not, err says how they differ. */
bool model_arch_can_start(NnueArch want, NnueArch have, char *err, size_t err_size);
void model_free(Model *m);

/* One training example: the active features of both perspectives, side to move first. */
typedef struct {
    int us[2 * NNUE_MAX_ACTIVE], them[2 * NNUE_MAX_ACTIVE]; /* with king buckets, the factor's rows too */
    int n_us, n_them;
    int bucket;
    float base; /* a net on the classical base: the board terms (side to move) / NNUE_SCALE; else 0 */
} Sample;

/* The features of `pos` as the engine sees them (nnue_features, nnue_output_bucket), and the classical
 * base for a net that has one (eval_classical_raw: eval_init must have run). */
void sample_from_position(const Model *m, const Position *pos, Sample *s);

/* The float net's output for `s`, its base included (before the scale: times NNUE_SCALE it is in
 * centipawns). */
float model_forward(const Model *m, const Sample *s);

/* The net's own score in centipawns for the side to move, float, without the classical base (what
 * nnue_evaluate_full gives for the quantised net). */
double model_score(const Model *m, const Position *pos);

/* The loss of one example and, when grad is not NULL, its gradient added into grad (the layout of
 * params). target in [0, 1] from the side to move's view; k the sigmoid's scale in centipawns. */
double model_loss(const Model *m, const Sample *s, double target, double k, float *grad);

/* The engine's integer net for the float one (rounded, clamped to the integer ranges); NULL when out of
 * memory. */
NnueNet *model_quantise(const Model *m, const char *description);

/* ---- training ---- */

typedef struct {
    double lr, final_lr_ratio, weight_decay, lambda, k;
    int batch, threads, epochs;
    uint64_t seed;
} TrainConfig;

/* The labels of one record as the loss wants them: the target from the side to move's view. */
double record_target(const PackedRecord *r, double lambda, double k);

/* K minimising the mean of (result - sigmoid(score / K))^2 over the records, from 50 to 3000. */
double fit_k(const PackedRecord *records, const size_t *index, size_t count);

typedef struct {
    Model *model;
    TrainConfig cfg;
    float *m1, *m2;      /* Adam's moments */
    float **thread_grad; /* one gradient buffer per thread */
    uint64_t step, total_steps;
} Trainer;

bool trainer_init(Trainer *t, Model *model, const TrainConfig *cfg, uint64_t total_steps, char *err, size_t err_size);
void trainer_free(Trainer *t);

/* One epoch over records[index[0..count)] in an order drawn from the seed and the epoch (the index array
 * is sorted, then shuffled in place); returns the mean training loss. Deterministic for a seed and a
 * thread count. */
double trainer_epoch(Trainer *t, const PackedRecord *records, size_t *index, size_t count, int epoch);

/* The mean loss over records[index[0..count)], no training. */
double trainer_loss(Trainer *t, const PackedRecord *records, const size_t *index, size_t count);

/* Checkpoints: the float net, Adam's moments and the step, to continue a run (--resume). */
bool trainer_save(const Trainer *t, int epoch, const char *path, char *err, size_t err_size);
bool trainer_load(Trainer *t, int *epoch, const char *path, char *err, size_t err_size);

#endif

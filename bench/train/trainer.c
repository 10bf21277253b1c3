/* janggun-train's core (see trainer.h). */
#include "trainer.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/base/base.h"
#include "../../eval/eval.h"

/* ---- the float net ---- */

static double uniform(uint64_t *seed) { return (double)(splitmix64(seed) >> 11) / 9007199254740992.0; }

/* With king buckets a factor block follows the buckets' rows (trainer.h). */
static bool has_factor(NnueArch arch) { return arch.king_buckets > 1; }
static size_t bucket_rows(NnueArch arch) { return (size_t)arch.king_buckets * NNUE_PLANE_INPUTS; }

bool model_init(Model *m, NnueArch arch, uint64_t seed, char *err, size_t err_size)
{
    memset(m, 0, sizeof *m);
    NnueNet *probe = nnue_net_new(arch, err, err_size); /* the engine's own check of the architecture */
    if (!probe)
        return false;
    nnue_net_free(probe);
    m->arch = arch;
    m->inputs = (int)bucket_rows(arch) + (has_factor(arch) ? NNUE_PLANE_INPUTS : 0);
    size_t h = (size_t)arch.hidden, ob = (size_t)arch.output_buckets;
    m->count = (size_t)m->inputs * h + h + ob * 2 * h + ob;
    m->params = calloc(m->count, sizeof(float));
    if (!m->params) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    m->ft_w = m->params;
    m->ft_b = m->ft_w + (size_t)m->inputs * h;
    m->out_w = m->ft_b + h;
    m->out_b = m->out_w + ob * 2 * h;
    /* About 32 features are active: their sum starts with a spread of about 0.3, half the units in
     * SCReLU's range; output weights as 1 / sqrt(2H). */
    double a = 0.1, o = 1.0 / sqrt(2.0 * (double)h);
    for (size_t i = 0; i < (size_t)m->inputs * h; i++)
        m->ft_w[i] = (float)((2 * uniform(&seed) - 1) * a);
    /* With a factor, the buckets' own rows start at zero: the net starts as one without buckets. */
    if (has_factor(arch))
        memset(m->ft_w, 0, bucket_rows(arch) * h * sizeof(float));
    for (size_t i = 0; i < h; i++)
        m->ft_b[i] = 0.25f;
    /* On the classical base the net starts as no correction at all: zero output weights (the first layer
     * learns once they move away from zero). */
    for (size_t i = 0; i < ob * 2 * h; i++)
        m->out_w[i] = arch.base == NNUE_BASE_CLASSICAL ? 0.0f : (float)((2 * uniform(&seed) - 1) * o);
    return true;
}

static const char *base_name(int base) { return base == NNUE_BASE_CLASSICAL ? "classical" : "none"; }

bool model_arch_can_start(NnueArch want, NnueArch have, char *err, size_t err_size)
{
    if (want.base == have.base && have.hidden <= want.hidden
        && (have.king_buckets == want.king_buckets || have.king_buckets == 1)
        && (have.output_buckets == want.output_buckets || have.output_buckets == 1))
        return true;
    snprintf(err, err_size,
             "the net has %d king bucket(s), %d hidden units, %d output bucket(s) and base %s; the options ask for "
             "%d, %d, %d and %s (a net can only grow: more hidden units, one king bucket to nine, one output "
             "bucket to several, the same base)",
             have.king_buckets, have.hidden, have.output_buckets, base_name(have.base), want.king_buckets, want.hidden,
             want.output_buckets, base_name(want.base));
    return false;
}

bool model_load_net(Model *m, const NnueNet *net, char *err, size_t err_size)
{
    NnueArch a = m->arch, n = net->arch;
    if (!model_arch_can_start(a, n, err, err_size))
        return false;
    size_t H = (size_t)a.hidden, h = (size_t)n.hidden, ob = (size_t)a.output_buckets;
    /* Grown from one king bucket, the net's rows go to the factor, shared by every bucket (the buckets'
     * own rows are zero from model_init); otherwise each bucket's rows are the net's and the factor's
     * start at zero. Units beyond the net's keep their random feature weights (zero ones could never
     * become different from each other) and get zero output weights, so the grown net computes what
     * the net does. */
    bool grow_buckets = a.king_buckets > n.king_buckets;
    float *factor = has_factor(a) ? m->ft_w + bucket_rows(a) * H : NULL;
    float *dst = grow_buckets ? factor : m->ft_w;
    for (size_t r = 0; r < bucket_rows(n); r++)
        for (size_t i = 0; i < h; i++)
            dst[r * H + i] = (float)net->ft_weights[r * h + i] / NNUE_QA;
    if (factor && !grow_buckets)
        for (size_t r = 0; r < NNUE_PLANE_INPUTS; r++)
            for (size_t i = 0; i < h; i++)
                factor[r * H + i] = 0.0f;
    for (size_t i = 0; i < h; i++)
        m->ft_b[i] = (float)net->ft_bias[i] / NNUE_QA;
    for (size_t b = 0; b < ob; b++) {
        size_t from = n.output_buckets == 1 ? 0 : b; /* grown from one output bucket: a copy each */
        for (size_t i = 0; i < H; i++) {
            m->out_w[b * 2 * H + i] = i < h ? (float)net->out_weights[from * 2 * h + i] / NNUE_QB : 0.0f;
            m->out_w[b * 2 * H + H + i] = i < h ? (float)net->out_weights[from * 2 * h + h + i] / NNUE_QB : 0.0f;
        }
        m->out_b[b] = (float)((double)net->out_bias[from] / ((double)NNUE_QA * NNUE_QB));
    }
    return true;
}

void model_free(Model *m)
{
    free(m->params);
    memset(m, 0, sizeof *m);
}

/* The factor's row of each bucketed feature, appended. */
static int add_factor_rows(const Model *m, int *features, int n)
{
    if (!has_factor(m->arch))
        return n;
    int factor = (int)bucket_rows(m->arch);
    for (int k = 0; k < n; k++)
        features[n + k] = factor + features[k] % NNUE_PLANE_INPUTS;
    return 2 * n;
}

void sample_from_position(const Model *m, const Position *pos, Sample *s)
{
    s->n_us = add_factor_rows(m, s->us, nnue_features(pos, m->arch.king_buckets, pos->side, s->us));
    s->n_them = add_factor_rows(m, s->them, nnue_features(pos, m->arch.king_buckets, color_flip(pos->side), s->them));
    int pieces = __builtin_popcountll((uint64_t)pos->occupied) + __builtin_popcountll((uint64_t)(pos->occupied >> 64));
    s->bucket = nnue_output_bucket(m->arch.output_buckets, pieces);
    s->base = m->arch.base == NNUE_BASE_CLASSICAL ? (float)eval_classical_raw(pos) / NNUE_SCALE : 0.0f;
}

static inline void accumulate(const Model *m, const int *features, int n, float *acc)
{
    int h = m->arch.hidden;
    memcpy(acc, m->ft_b, (size_t)h * sizeof(float));
    for (int k = 0; k < n; k++) {
        const float *w = m->ft_w + (size_t)features[k] * (size_t)h;
        for (int i = 0; i < h; i++)
            acc[i] += w[i];
    }
}

static inline float clamp01(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* The output from the two accumulators. */
static inline float output(const Model *m, const Sample *s, const float *us, const float *them)
{
    int h = m->arch.hidden;
    const float *w = m->out_w + (size_t)s->bucket * 2 * (size_t)h;
    float sum = m->out_b[s->bucket] + s->base;
    for (int i = 0; i < h; i++) {
        float a = clamp01(us[i]), b = clamp01(them[i]);
        sum += a * a * w[i] + b * b * w[h + i];
    }
    return sum;
}

float model_forward(const Model *m, const Sample *s)
{
    float us[NNUE_MAX_HIDDEN], them[NNUE_MAX_HIDDEN];
    accumulate(m, s->us, s->n_us, us);
    accumulate(m, s->them, s->n_them, them);
    return output(m, s, us, them);
}

double model_score(const Model *m, const Position *pos)
{
    Sample s;
    sample_from_position(m, pos, &s);
    s.base = 0;
    return (double)model_forward(m, &s) * NNUE_SCALE;
}

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

double model_loss(const Model *m, const Sample *s, double target, double k, float *grad)
{
    int h = m->arch.hidden;
    float us[NNUE_MAX_HIDDEN], them[NNUE_MAX_HIDDEN];
    accumulate(m, s->us, s->n_us, us);
    accumulate(m, s->them, s->n_them, them);
    double out = output(m, s, us, them);
    double p = sigmoid(out * NNUE_SCALE / k);
    double loss = (p - target) * (p - target);
    if (!grad)
        return loss;
    float d = (float)(2 * (p - target) * p * (1 - p) * NNUE_SCALE / k);
    size_t ob_off = (size_t)s->bucket * 2 * (size_t)h;
    const float *w = m->out_w + ob_off;
    float *g_ft_w = grad, *g_ft_b = grad + (m->ft_b - m->params), *g_out_w = grad + (m->out_w - m->params) + ob_off;
    grad[(m->out_b - m->params) + s->bucket] += d;
    float d_us[NNUE_MAX_HIDDEN], d_them[NNUE_MAX_HIDDEN];
    for (int i = 0; i < h; i++) {
        float a = clamp01(us[i]), b = clamp01(them[i]);
        g_out_w[i] += d * a * a;
        g_out_w[h + i] += d * b * b;
        d_us[i] = us[i] > 0 && us[i] < 1 ? d * w[i] * 2 * a : 0;
        d_them[i] = them[i] > 0 && them[i] < 1 ? d * w[h + i] * 2 * b : 0;
        g_ft_b[i] += d_us[i] + d_them[i];
    }
    for (int k2 = 0; k2 < s->n_us; k2++) {
        float *g = g_ft_w + (size_t)s->us[k2] * (size_t)h;
        for (int i = 0; i < h; i++)
            g[i] += d_us[i];
    }
    for (int k2 = 0; k2 < s->n_them; k2++) {
        float *g = g_ft_w + (size_t)s->them[k2] * (size_t)h;
        for (int i = 0; i < h; i++)
            g[i] += d_them[i];
    }
    return loss;
}

static int16_t round16(double x, double lo, double hi)
{
    x = round(x);
    return (int16_t)(x < lo ? lo : x > hi ? hi : x);
}

NnueNet *model_quantise(const Model *m, const char *description)
{
    char err[200];
    NnueNet *net = nnue_net_new(m->arch, err, sizeof err);
    if (!net)
        return NULL;
    size_t h = (size_t)m->arch.hidden, ob = (size_t)m->arch.output_buckets;
    size_t rows = bucket_rows(m->arch);
    const float *factor = has_factor(m->arch) ? m->ft_w + rows * h : NULL;
    for (size_t i = 0; i < rows * h; i++) {
        float w = m->ft_w[i] + (factor ? factor[i % ((size_t)NNUE_PLANE_INPUTS * h)] : 0.0f);
        net->ft_weights[i] = round16(w * NNUE_QA, -32767, 32767);
    }
    for (size_t i = 0; i < h; i++)
        net->ft_bias[i] = round16(m->ft_b[i] * NNUE_QA, -32767, 32767);
    for (size_t i = 0; i < ob * 2 * h; i++)
        net->out_weights[i] = round16(m->out_w[i] * NNUE_QB, -NNUE_MAX_OUTPUT_WEIGHT, NNUE_MAX_OUTPUT_WEIGHT);
    for (size_t i = 0; i < ob; i++) {
        double b = round((double)m->out_b[i] * NNUE_QA * NNUE_QB);
        net->out_bias[i] = (int32_t)(b < -1e9 ? -1e9 : b > 1e9 ? 1e9 : b);
    }
    snprintf(net->description, sizeof net->description, "%s", description ? description : "");
    return net;
}

/* ---- labels ---- */

double record_target(const PackedRecord *r, double lambda, double k)
{
    double result = packed_result(r) * 0.5; /* Cho's view */
    if (packed_side(r) == BLACK)
        result = 1 - result;
    return lambda * result + (1 - lambda) * sigmoid(packed_score(r) / k);
}

static double k_error(const PackedRecord *records, const size_t *index, size_t count, double k)
{
    double sum = 0;
    for (size_t i = 0; i < count; i++) {
        const PackedRecord *r = &records[index[i]];
        double result = packed_result(r) * 0.5;
        if (packed_side(r) == BLACK)
            result = 1 - result;
        double e = result - sigmoid(packed_score(r) / k);
        sum += e * e;
    }
    return count ? sum / (double)count : 0;
}

double fit_k(const PackedRecord *records, const size_t *index, size_t count)
{
    double lo = 50, hi = 3000;
    const double g = (sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = k_error(records, index, count, a), fb = k_error(records, index, count, b);
    for (int i = 0; i < 40; i++) {
        if (fa < fb) {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = k_error(records, index, count, a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = k_error(records, index, count, b);
        }
    }
    return (lo + hi) / 2;
}

/* ---- training ---- */

bool trainer_init(Trainer *t, Model *model, const TrainConfig *cfg, uint64_t total_steps, char *err, size_t err_size)
{
    memset(t, 0, sizeof *t);
    t->model = model;
    t->cfg = *cfg;
    t->total_steps = total_steps ? total_steps : 1;
    t->m1 = calloc(model->count, sizeof(float));
    t->m2 = calloc(model->count, sizeof(float));
    t->thread_grad = calloc((size_t)cfg->threads, sizeof(float *));
    bool ok = t->m1 && t->m2 && t->thread_grad;
    for (int i = 0; ok && i < cfg->threads; i++)
        ok = (t->thread_grad[i] = calloc(model->count, sizeof(float))) != NULL;
    if (!ok) {
        trainer_free(t);
        snprintf(err, err_size, "out of memory");
    }
    return ok;
}

void trainer_free(Trainer *t)
{
    free(t->m1);
    free(t->m2);
    for (int i = 0; t->thread_grad && i < t->cfg.threads; i++)
        free(t->thread_grad[i]);
    free(t->thread_grad);
    memset(t, 0, sizeof *t);
}

typedef struct {
    Trainer *t;
    const PackedRecord *records;
    const size_t *index;
    size_t begin, end;
    float *grad; /* NULL: loss only */
    double loss;
    size_t bad;
} Job;

static void *run_job(void *arg)
{
    Job *j = arg;
    const Model *m = j->t->model;
    Position pos;
    Sample s;
    j->loss = 0;
    for (size_t i = j->begin; i < j->end; i++) {
        const PackedRecord *r = &j->records[j->index[i]];
        if (!packed_read(r, &pos)) {
            j->bad++;
            continue;
        }
        sample_from_position(m, &pos, &s);
        j->loss += model_loss(m, &s, record_target(r, j->t->cfg.lambda, j->t->cfg.k), j->t->cfg.k, j->grad);
    }
    return NULL;
}

/* Runs jobs over [begin, end) split among the threads; the sum of their losses. */
static double run_jobs(Trainer *t, const PackedRecord *records, const size_t *index, size_t begin, size_t end,
                       bool gradients)
{
    int n = t->cfg.threads;
    Job jobs[64];
    pthread_t ids[64];
    size_t span = end - begin;
    for (int i = 0; i < n; i++) {
        jobs[i] = (Job){t,
                        records,
                        index,
                        begin + span * (size_t)i / (size_t)n,
                        begin + span * (size_t)(i + 1) / (size_t)n,
                        gradients ? t->thread_grad[i] : NULL,
                        0,
                        0};
        if (gradients)
            memset(t->thread_grad[i], 0, t->model->count * sizeof(float));
    }
    for (int i = 1; i < n; i++)
        if (pthread_create(&ids[i], NULL, run_job, &jobs[i]) != 0)
            run_job(&jobs[i]), ids[i] = 0;
    run_job(&jobs[0]);
    double loss = jobs[0].loss;
    for (int i = 1; i < n; i++) {
        if (ids[i])
            pthread_join(ids[i], NULL);
        loss += jobs[i].loss;
    }
    return loss;
}

/* AdamW on the summed gradient of a batch of `size` examples. */
static void adam_step(Trainer *t, size_t size)
{
    Model *m = t->model;
    float *g = t->thread_grad[0];
    for (int k = 1; k < t->cfg.threads; k++) {
        const float *o = t->thread_grad[k];
        for (size_t i = 0; i < m->count; i++)
            g[i] += o[i];
    }
    t->step++;
    double progress = (double)(t->step - 1) / (double)t->total_steps;
    double r = t->cfg.final_lr_ratio;
    double lr = t->cfg.lr * (r + (1 - r) * 0.5 * (1 + cos(3.14159265358979323846 * (progress > 1 ? 1 : progress))));
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double c1 = 1 - pow(b1, (double)t->step), c2 = 1 - pow(b2, (double)t->step);
    float scale = 1.0f / (float)size, decay = (float)(1 - lr * t->cfg.weight_decay);
    float limit = (float)NNUE_MAX_OUTPUT_WEIGHT / NNUE_QB;
    size_t out_w_begin = (size_t)(m->out_w - m->params), out_w_end = (size_t)(m->out_b - m->params);
    for (size_t i = 0; i < m->count; i++) {
        float gi = g[i] * scale;
        t->m1[i] = (float)(b1 * t->m1[i] + (1 - b1) * gi);
        t->m2[i] = (float)(b2 * t->m2[i] + (1 - b2) * gi * gi);
        double step = lr * (t->m1[i] / c1) / (sqrt(t->m2[i] / c2) + eps);
        float p = m->params[i] * decay - (float)step;
        if (i >= out_w_begin && i < out_w_end)
            p = p > limit ? limit : p < -limit ? -limit : p;
        m->params[i] = p;
    }
}

static int compare_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

double trainer_epoch(Trainer *t, const PackedRecord *records, size_t *index, size_t count, int epoch)
{
    /* The order of an epoch depends on the seed and the epoch only (not on earlier epochs), so that a
     * resumed run goes on as the uninterrupted one would. */
    qsort(index, count, sizeof *index, compare_index);
    uint64_t seed = t->cfg.seed * 0x9e3779b97f4a7c15ull + (uint64_t)epoch;
    for (size_t i = count; i > 1; i--) {
        size_t j = (size_t)(splitmix64(&seed) % i);
        size_t tmp = index[i - 1];
        index[i - 1] = index[j];
        index[j] = tmp;
    }
    double loss = 0;
    size_t batch = (size_t)t->cfg.batch;
    for (size_t begin = 0; begin < count; begin += batch) {
        size_t end = begin + batch < count ? begin + batch : count;
        loss += run_jobs(t, records, index, begin, end, true);
        adam_step(t, end - begin);
    }
    return count ? loss / (double)count : 0;
}

double trainer_loss(Trainer *t, const PackedRecord *records, const size_t *index, size_t count)
{
    return count ? run_jobs(t, records, index, 0, count, false) / (double)count : 0;
}

/* ---- checkpoints ---- */

static const char CHECKPOINT_MAGIC[8] = {'J', 'G', 'T', 'R', 'A', 'I', 'N', '2'};

typedef struct {
    char magic[8];
    int32_t king_buckets, hidden, output_buckets, epoch;
    uint64_t step, count;
    int32_t base, unused;
} CheckpointHeader;

bool trainer_save(const Trainer *t, int epoch, const char *path, char *err, size_t err_size)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, err_size, "cannot write %s", tmp);
        return false;
    }
    const Model *m = t->model;
    CheckpointHeader h = {{0},
                          m->arch.king_buckets,
                          m->arch.hidden,
                          m->arch.output_buckets,
                          epoch,
                          t->step,
                          (uint64_t)m->count,
                          m->arch.base,
                          0};
    memcpy(h.magic, CHECKPOINT_MAGIC, sizeof h.magic);
    bool ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(m->params, sizeof(float), m->count, f) == m->count
              && fwrite(t->m1, sizeof(float), m->count, f) == m->count
              && fwrite(t->m2, sizeof(float), m->count, f) == m->count;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, err_size, "cannot write %s", path);
        remove(tmp);
        return false;
    }
    return true;
}

bool trainer_load(Trainer *t, int *epoch, const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s", path);
        return false;
    }
    Model *m = t->model;
    CheckpointHeader h;
    bool ok = fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, CHECKPOINT_MAGIC, sizeof h.magic) == 0;
    if (!ok)
        snprintf(err, err_size, "%s is not a janggun-train checkpoint", path);
    else if (h.king_buckets != m->arch.king_buckets || h.hidden != m->arch.hidden
             || h.output_buckets != m->arch.output_buckets || h.count != m->count || h.base != m->arch.base) {
        snprintf(err, err_size,
                 "%s holds a net of %d king buckets, %d hidden, %d output buckets, base %s, not this one", path,
                 h.king_buckets, h.hidden, h.output_buckets, h.base ? "classical" : "none");
        ok = false;
    } else {
        ok = fread(m->params, sizeof(float), m->count, f) == m->count
             && fread(t->m1, sizeof(float), m->count, f) == m->count
             && fread(t->m2, sizeof(float), m->count, f) == m->count;
        if (!ok)
            snprintf(err, err_size, "%s is truncated", path);
    }
    fclose(f);
    if (ok) {
        *epoch = h.epoch;
        t->step = h.step;
    }
    return ok;
}

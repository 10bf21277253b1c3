/* janggun-tune: Texel tuning of the evaluation's weight file on real games.
 *
 * Reads games.jsonl (one game a line: start_fen, moves, result, termination), replays every game and
 * samples a few quiet positions from each (after the opening plies, not in check, not right after a
 * pass, generals not facing, far from the move limit, and no capture sequence that wins material for
 * the side to move: a small capture-only search must not beat the static evaluation). Each position
 * is labelled with its game's result from Cho's side (1, 0.5, 0). The games are split into training
 * and validation games (about 10% held out). The tuner first fits K of sigmoid(K * eval) to the start
 * weights, then minimises the mean squared error of sigmoid(K * eval) against the labels by coordinate
 * descent with per-weight step sizes, every weight kept inside the parser's ranges. The evaluation is
 * the engine's own (eval_evaluate under the janggi rules), so the tuned file means exactly what was
 * measured. Deterministic for a given seed and data, whatever the number of threads.
 *
 * Usage: `janggun-tune --help` (the option table in main) or README.md (Evaluation, Tuning). */
#define _POSIX_C_SOURCE 200809L

#include <glob.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/base/base.h"
#include "../engine/base/cli_options.h"
#include "../engine/base/datafile.h"
#include "../engine/move.h"
#include "../engine/records/jsonl.h"
#include "../engine/base/version.h"
#include "../engine/movegen.h"
#include "../eval/internal.h"

/* ---- options ---- */

typedef struct {
    const char *games_path;
    const char *weights_path; /* start weights; default: the one file in nets/ */
    const char *out_path;
    uint64_t seed;
    int per_game;       /* positions sampled per game */
    int skip_plies;     /* opening plies never sampled */
    int max_games;      /* 0: all */
    int validation_pct; /* percent of games held out */
    int quiet_margin;   /* a capture line may gain at most this many counting points */
    double fixed_k;     /* K given on the command line; 0: fitted */
    double l2;          /* penalty on piece-square changes */
    int min_count;      /* a piece-square entry is tuned only if this many training positions use it */
    int passes;         /* coordinate-descent passes at most */
    int threads;
    bool skip_time, skip_resign, skip_count, skip_unknown_term;
    bool tune_deom;
    bool tune_pst;
} TuneOptions;

__attribute__((format(printf, 1, 2))) static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_error_v("janggun-tune", fmt, ap);
    va_end(ap);
    exit(2);
}

/* ---- one games.jsonl line (engine/records/jsonl.h) ---- */

typedef struct {
    JsonObject obj;
    const char *result, *termination, *start_fen; /* "" when missing */
    char **moves;
    int move_count;
} GameLine;

static bool parse_game_line(const char *line, GameLine *g)
{
    json_free(&g->obj);
    if (!json_parse_object(line, &g->obj, NULL, 0))
        return false;
    const char *r = json_str(&g->obj, "result"), *t = json_str(&g->obj, "termination"),
               *f = json_str(&g->obj, "start_fen");
    g->result = r ? r : "", g->termination = t ? t : "", g->start_fen = f ? f : "";
    const JsonField *m = json_get(&g->obj, "moves");
    bool listed = m && m->type == JSON_ARRAY;
    g->moves = listed ? m->arr : NULL;
    g->move_count = listed ? m->arr_len : 0;
    return listed;
}

/* ---- quiescence filter ---- */

/* The filter counts material only, with the referee's counting values (soldier 2, guard and elephant
 * 3, horse 5, cannon 7, chariot 13), so that the sampled positions do not depend on the weights being
 * tuned: the same seed gives the same positions whatever the start file. */
static const int COUNT_VALUE[PIECE_TYPE_COUNT] = {0, 2, 3, 3, 5, 7, 13, 1000};

enum { QS_MAX_DEPTH = 16, QS_MAX_NODES = 4000 };

typedef struct {
    StateInfo states[QS_MAX_DEPTH + 1];
    long nodes;
} QsContext;

static int material_balance(const Position *pos)
{
    int sum = 0;
    for (PieceType pt = SOLDIER; pt <= CHARIOT; pt++)
        sum += COUNT_VALUE[pt]
               * (bb_popcount(position_pieces(pos, WHITE, pt)) - bb_popcount(position_pieces(pos, BLACK, pt)));
    return pos->side == WHITE ? sum : -sum;
}

/* A capture-only alpha-beta search on material with stand-pat; the side to move's view. */
static int qsearch(Position *pos, QsContext *qc, int ply, int alpha, int beta)
{
    qc->nodes++;
    int stand = material_balance(pos);
    if (stand >= beta || ply >= QS_MAX_DEPTH || qc->nodes > QS_MAX_NODES)
        return stand;
    if (stand > alpha)
        alpha = stand;
    MoveList list;
    list.count = 0;
    movegen_pseudo(pos, GEN_CAPTURES, &list);
    int order[MAX_MOVES];
    for (int i = 0; i < list.count; i++) /* most valuable victim, then least valuable attacker */
        order[i] = 64 * COUNT_VALUE[piece_type(pos->board[move_to(list.moves[i])])]
                   - COUNT_VALUE[piece_type(pos->board[move_from(list.moves[i])])];
    for (int i = 0; i < list.count; i++) {
        int best = i;
        for (int j = i + 1; j < list.count; j++)
            if (order[j] > order[best])
                best = j;
        Move m = list.moves[best];
        int o = order[best];
        list.moves[best] = list.moves[i], order[best] = order[i];
        list.moves[i] = m, order[i] = o;
        if (!movegen_is_legal(pos, m))
            continue;
        position_make(pos, m, &qc->states[ply]);
        int score = -qsearch(pos, qc, ply + 1, -beta, -alpha);
        position_unmake(pos);
        if (score >= beta)
            return score;
        if (score > alpha)
            alpha = score;
    }
    return alpha;
}

/* ---- the data ---- */

typedef struct {
    Position *pos; /* set up under the janggi rules; pos[i].st points into pos[i] */
    float *label;  /* Cho's result: 1, 0.5, 0 */
    int *eval;     /* current evaluation, Cho's view */
    int *scratch;  /* candidate evaluations */
    int count;
} Set;

typedef struct {
    char fen[100];
    float label;
    bool validation;
} Sample;

typedef struct {
    Sample *items;
    size_t count, cap;
} SampleList;

static void sample_push(SampleList *l, const Sample *s)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1 << 16;
        l->items = realloc(l->items, l->cap * sizeof *l->items);
        if (!l->items)
            die("out of memory");
    }
    l->items[l->count++] = *s;
}

typedef struct {
    long lines, parsed, used_games, skipped_result, skipped_term, bad_games;
    long candidates, not_quiet, train_games, val_games;
} LoadStats;

static void load_games(const TuneOptions *o, SampleList *out, LoadStats *ls)
{
    char err_open[600];
    DataFile *file = datafile_open(o->games_path, err_open, sizeof err_open);
    if (!file)
        die("%s", err_open);
    FILE *f = datafile_stream(file);
    char *line = NULL;
    size_t line_cap = 0;
    GameLine g = {0};
    StateInfo *states = NULL;
    int states_cap = 0;
    Position *pos = malloc(sizeof *pos), *check = malloc(sizeof *check);
    int *cand = NULL;
    if (!pos || !check)
        die("out of memory");
    double t0 = clock_seconds();
    while (getline(&line, &line_cap, f) > 0) {
        long index = ls->lines++;
        if (o->max_games && ls->used_games >= o->max_games)
            break;
        if (!parse_game_line(line, &g)) {
            ls->bad_games++;
            continue;
        }
        ls->parsed++;
        float label;
        if (!strcmp(g.result, "cho"))
            label = 1.0f;
        else if (!strcmp(g.result, "han"))
            label = 0.0f;
        else if (!strcmp(g.result, "draw"))
            label = 0.5f;
        else {
            ls->skipped_result++;
            continue;
        }
        if ((o->skip_time && !strcmp(g.termination, "time")) || (o->skip_resign && !strcmp(g.termination, "resign"))
            || (o->skip_count && !strcmp(g.termination, "count"))
            || (o->skip_unknown_term && !strcmp(g.termination, "unknown"))) {
            ls->skipped_term++;
            continue;
        }
        /* The split and the sampling depend only on the seed and the game's line number. */
        uint64_t rs = o->seed * 0x100000001b3ull ^ (uint64_t)index * 0x9e3779b97f4a7c15ull;
        splitmix64(&rs);
        bool validation = splitmix64(&rs) % 100 < (uint64_t)o->validation_pct;

        char err[160];
        if (!position_set_fen(pos, g.start_fen, &RULES_JANGGICASUAL, FEN_STRICT, err, sizeof err)) {
            ls->bad_games++;
            continue;
        }
        if (states_cap < g.move_count + 1) {
            states_cap = g.move_count + 64;
            states = realloc(states, (size_t)states_cap * sizeof *states);
            cand = realloc(cand, (size_t)states_cap * sizeof *cand);
            if (!states || !cand)
                die("out of memory");
        }
        /* Replay, recording the plies whose position passes the cheap filters. */
        char(*fens)[100] = NULL;
        int ncand = 0;
        bool ok = true;
        fens = malloc((size_t)(g.move_count + 1) * sizeof *fens);
        if (!fens)
            die("out of memory");
        for (int ply = 0;; ply++) {
            const StateInfo *st = pos->st;
            if (ply >= o->skip_plies && !st->checkers && !st->pass && !st->ended && !position_generals_facing(pos)
                && st->halfmove < RULES_JANGGI.nmove_plies - 40) {
                position_to_fen(pos, fens[ncand], sizeof fens[ncand]);
                cand[ncand++] = ply;
            }
            if (ply == g.move_count)
                break;
            Move m;
            if (move_parse(pos, g.moves[ply], RANKS_FROM_1, &m) != MOVE_PARSE_OK) {
                ok = false;
                break;
            }
            position_make(pos, m, &states[ply]);
        }
        if (!ok) {
            ls->bad_games++;
            free(fens);
            continue;
        }
        ls->used_games++;
        if (validation)
            ls->val_games++;
        else
            ls->train_games++;
        ls->candidates += ncand;
        /* Random order (Fisher-Yates), then the first per_game quiet ones. */
        int *order = malloc((size_t)(ncand + 1) * sizeof *order);
        for (int i = 0; i < ncand; i++)
            order[i] = i;
        for (int i = ncand - 1; i > 0; i--) {
            int j = (int)(splitmix64(&rs) % (uint64_t)(i + 1));
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int taken = 0;
        for (int k = 0; k < ncand && taken < o->per_game; k++) {
            const char *fen = fens[order[k]];
            if (!position_set_fen(check, fen, &RULES_JANGGI, FEN_STRICT, err, sizeof err))
                die("replayed FEN refused: %s (%s)", err, fen);
            QsContext qc;
            qc.nodes = 0;
            int stand = material_balance(check);
            int q = qsearch(check, &qc, 0, -100000, 100000);
            if (q > stand + o->quiet_margin || qc.nodes > QS_MAX_NODES) {
                ls->not_quiet++;
                continue;
            }
            Sample s;
            snprintf(s.fen, sizeof s.fen, "%s", fen);
            s.label = label;
            s.validation = validation;
            sample_push(out, &s);
            taken++;
        }
        free(order);
        free(fens);
        if (ls->used_games % 5000 == 0)
            fprintf(stderr, "  %ld games read, %zu positions (%.1f s)\n", ls->used_games, out->count,
                    clock_seconds() - t0);
    }
    free(line);
    json_free(&g.obj);
    free(states);
    free(cand);
    free(pos);
    free(check);
    if (!datafile_close(file, err_open, sizeof err_open))
        die("%s", err_open);
}

static void free_set(Set *set)
{
    free(set->pos);
    free(set->label);
    free(set->eval);
    free(set->scratch);
}

static void build_set(Set *set, const SampleList *samples, bool validation)
{
    int n = 0;
    for (size_t i = 0; i < samples->count; i++)
        n += samples->items[i].validation == validation;
    set->count = n;
    set->pos = malloc((size_t)(n ? n : 1) * sizeof *set->pos);
    set->label = malloc((size_t)(n ? n : 1) * sizeof *set->label);
    set->eval = malloc((size_t)(n ? n : 1) * sizeof *set->eval);
    set->scratch = malloc((size_t)(n ? n : 1) * sizeof *set->scratch);
    if (!set->pos || !set->label || !set->eval || !set->scratch)
        die("out of memory");
    int k = 0;
    for (size_t i = 0; i < samples->count; i++) {
        const Sample *s = &samples->items[i];
        if (s->validation != validation)
            continue;
        char err[160];
        if (!position_set_fen(&set->pos[k], s->fen, &RULES_JANGGI, FEN_STRICT, err, sizeof err))
            die("sampled FEN refused: %s", err);
        set->label[k++] = s->label;
    }
}

/* ---- the error ---- */

static double K = 0.0;
static double sigmoid_table[2 * EVAL_LIMIT + 1];

static void set_k(double k)
{
    K = k;
    for (int e = -EVAL_LIMIT; e <= EVAL_LIMIT; e++)
        sigmoid_table[e + EVAL_LIMIT] = 1.0 / (1.0 + exp(-k * e));
}

static inline double sq_error(int eval, float label)
{
    double d = label - sigmoid_table[eval + EVAL_LIMIT];
    return d * d;
}

static inline int cho_eval(const Position *pos)
{
    int e = eval_evaluate(pos);
    return pos->side == WHITE ? e : -e;
}

enum { BLOCK = 2048 };

typedef struct {
    const Set *set;
    int *out;
    double *block_sum;
    int blocks, thread, threads;
} EvalJob;

static void *eval_worker(void *arg)
{
    EvalJob *job = arg;
    const Set *set = job->set;
    for (int b = job->thread; b < job->blocks; b += job->threads) {
        int lo = b * BLOCK, hi = lo + BLOCK < set->count ? lo + BLOCK : set->count;
        double sum = 0;
        for (int i = lo; i < hi; i++) {
            int e = cho_eval(&set->pos[i]);
            job->out[i] = e;
            sum += sq_error(e, set->label[i]);
        }
        job->block_sum[b] = sum;
    }
    return NULL;
}

static int n_threads = 2;

/* Evaluates every position of the set with the weights in use into `out`; the sum of squared errors,
 * summed block by block in a fixed order (the same whatever the thread count). */
static double evaluate_set(const Set *set, int *out)
{
    int blocks = (set->count + BLOCK - 1) / BLOCK;
    double *block_sum = calloc((size_t)(blocks ? blocks : 1), sizeof *block_sum);
    pthread_t tid[64];
    EvalJob jobs[64];
    int threads = n_threads < blocks ? n_threads : (blocks ? blocks : 1);
    for (int t = 0; t < threads; t++) {
        jobs[t] = (EvalJob){set, out, block_sum, blocks, t, threads};
        if (t > 0 && pthread_create(&tid[t], NULL, eval_worker, &jobs[t]) != 0)
            die("pthread_create failed");
    }
    eval_worker(&jobs[0]);
    for (int t = 1; t < threads; t++)
        pthread_join(tid[t], NULL);
    double sum = 0;
    for (int b = 0; b < blocks; b++)
        sum += block_sum[b];
    free(block_sum);
    return sum;
}

static double errors_sum(const Set *set, const int *evals)
{
    double sum = 0;
    for (int i = 0; i < set->count; i++)
        sum += sq_error(evals[i], set->label[i]);
    return sum;
}

/* K minimising the training error of the start weights: a coarse scan, then golden section. */
static double fit_k(const Set *set, const int *evals)
{
    double best_k = 0, best = 1e300;
    for (double k = 0.0005; k <= 0.02 + 1e-12; k += 0.0005) {
        set_k(k);
        double e = errors_sum(set, evals);
        if (e < best)
            best = e, best_k = k;
    }
    double a = best_k - 0.0005 > 1e-5 ? best_k - 0.0005 : 1e-5, b = best_k + 0.0005;
    const double phi = (sqrt(5.0) - 1) / 2;
    double c = b - phi * (b - a), d = a + phi * (b - a);
    set_k(c);
    double fc = errors_sum(set, evals);
    set_k(d);
    double fd = errors_sum(set, evals);
    for (int it = 0; it < 60; it++) {
        if (fc < fd) {
            b = d, d = c, fd = fc;
            c = b - phi * (b - a);
            set_k(c);
            fc = errors_sum(set, evals);
        } else {
            a = c, c = d, fc = fd;
            d = a + phi * (b - a);
            set_k(d);
            fd = errors_sum(set, evals);
        }
    }
    return (a + b) / 2;
}

/* ---- the weights being tuned ---- */

typedef struct {
    char name[40];
    int *value;
    int min, max;
    int step, max_step;
    int start; /* the start value, which the L2 penalty pulls towards */
    int pst;   /* index into the piece-square lists, or -1: every position is re-evaluated */
} Param;

typedef struct {
    Param *items;
    int count, cap;
} ParamList;

static void add_param(ParamList *pl, const char *name, int *value, int min, int max, int step, int pst)
{
    if (!ARRAY_RESERVE(pl->items, pl->cap, pl->count + 1))
        die("out of memory");
    Param *p = &pl->items[pl->count++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->value = value;
    p->min = min;
    p->max = max;
    p->step = p->max_step = step;
    p->start = *value;
    p->pst = pst;
}

/* For each piece-square entry (type t, square s from Cho's side: index t * 90 + s), the training
 * positions whose evaluation it changes: Cho's piece of type t on s or Han's on the mirrored square,
 * unless both (they cancel). */
typedef struct {
    int *start; /* PST_TYPES * SQUARE_COUNT + 1 offsets */
    int *items;
} PstIndex;

static Square mirror_rank(Square s) { return make_square(square_file(s), RANK_COUNT - 1 - square_rank(s)); }

static void pst_entries(const Position *pos, int *entries, int *count)
{
    int net[PST_TYPES * SQUARE_COUNT];
    int used[64], n = 0;
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        Piece pc = pos->board[s];
        if (pc == NO_PIECE)
            continue;
        PieceType pt = piece_type(pc);
        Color c = piece_color(pc);
        int idx = (pt - SOLDIER) * SQUARE_COUNT + (c == WHITE ? s : mirror_rank(s));
        bool seen = false;
        for (int k = 0; k < n; k++)
            if (used[k] == idx)
                seen = true;
        if (!seen) {
            used[n++] = idx;
            net[idx] = 0;
        }
        net[idx] += c == WHITE ? 1 : -1;
    }
    *count = 0;
    for (int k = 0; k < n; k++)
        if (net[used[k]] != 0)
            entries[(*count)++] = used[k];
}

static void build_pst_index(const Set *set, PstIndex *ix)
{
    enum { N = PST_TYPES * SQUARE_COUNT };
    ix->start = calloc(N + 1, sizeof *ix->start);
    int entries[64], n;
    for (int i = 0; i < set->count; i++) {
        pst_entries(&set->pos[i], entries, &n);
        for (int k = 0; k < n; k++)
            ix->start[entries[k] + 1]++;
    }
    for (int k = 0; k < N; k++)
        ix->start[k + 1] += ix->start[k];
    ix->items = malloc((size_t)(ix->start[N] ? ix->start[N] : 1) * sizeof *ix->items);
    int *fill = malloc(N * sizeof *fill);
    memcpy(fill, ix->start, N * sizeof *fill);
    for (int i = 0; i < set->count; i++) {
        pst_entries(&set->pos[i], entries, &n);
        for (int k = 0; k < n; k++)
            ix->items[fill[entries[k]]++] = i;
    }
    free(fill);
}

static const char *const TYPE_NAMES[PST_TYPES] = {"soldier", "guard",   "elephant", "horse",
                                                  "cannon",  "chariot", "general"};

static void build_params(EvalWeights *w, const TuneOptions *o, const PstIndex *ix, ParamList *pl)
{
    char name[40];
    for (int t = 0; t < VALUED_TYPES; t++) {
        snprintf(name, sizeof name, "piece_value[%s]", TYPE_NAMES[t]);
        add_param(pl, name, &w->piece_value[t], 0, 10000, 16, -1);
    }
    add_param(pl, "cannon_screen", &w->cannon_screen, -1000, 1000, 2, -1);
    for (int t = 0; t < VALUED_TYPES; t++) {
        snprintf(name, sizeof name, "mobility[%s]", TYPE_NAMES[t]);
        add_param(pl, name, &w->mobility[t], -1000, 1000, 2, -1);
    }
    for (int t = 0; t < VALUED_TYPES; t++) {
        if (t == GUARD - SOLDIER) /* guards never count as palace attackers */
            continue;
        snprintf(name, sizeof name, "safety_attacker[%s]", TYPE_NAMES[t]);
        add_param(pl, name, &w->safety_attacker[t], -1000, 1000, 8, -1);
    }
    add_param(pl, "safety_square", &w->safety_square, -1000, 1000, 2, -1);
    for (int k = 1; k < SAFETY_SCALE_STEPS; k++) { /* 0 attackers: nothing to scale */
        snprintf(name, sizeof name, "safety_scale[%d]", k);
        add_param(pl, name, &w->safety_scale[k], 0, 1000, 16, -1);
    }
    add_param(pl, "safety_missing_guard", &w->safety_missing_guard, -1000, 1000, 8, -1);
    for (int t = 0; t < THREAT_TYPES; t++) {
        snprintf(name, sizeof name, "threat_by_lesser[%s]", TYPE_NAMES[t + GUARD - SOLDIER]);
        add_param(pl, name, &w->threat_by_lesser[t], -1000, 1000, 4, -1);
    }
    add_param(pl, "threat_hanging", &w->threat_hanging, -1000, 1000, 4, -1);
    add_param(pl, "tempo", &w->tempo, -1000, 1000, 4, -1);
    if (o->tune_deom)
        add_param(pl, "deom", &w->deom, 0, 1000, 8, -1);
    if (!o->tune_pst)
        return;
    for (int t = 0; t < PST_TYPES; t++)
        for (Square s = 0; s < SQUARE_COUNT; s++) {
            int idx = t * SQUARE_COUNT + s;
            if (ix->start[idx + 1] - ix->start[idx] < o->min_count)
                continue;
            char sq[8];
            square_to_text(s, RANKS_FROM_1, sq);
            snprintf(name, sizeof name, "pst_%s[%s]", TYPE_NAMES[t], sq);
            add_param(pl, name, &w->pst[t][s], -2000, 2000, 8, idx);
        }
}

/* The training error if param p took the value v (the weights are restored afterwards). For a
 * piece-square entry only the positions that use it are evaluated again, into set->scratch at the
 * same indices; otherwise every position is. Returns the new sum of squared errors. */
static double try_value(const Set *set, const PstIndex *ix, EvalWeights *w, Param *p, int v, double current)
{
    int old = *p->value;
    *p->value = v;
    eval_use_weights(w);
    double sum;
    if (p->pst >= 0) {
        double delta = 0;
        for (int k = ix->start[p->pst]; k < ix->start[p->pst + 1]; k++) {
            int i = ix->items[k];
            int e = cho_eval(&set->pos[i]);
            set->scratch[i] = e;
            delta += sq_error(e, set->label[i]) - sq_error(set->eval[i], set->label[i]);
        }
        sum = current + delta;
    } else
        sum = evaluate_set(set, set->scratch);
    *p->value = old;
    eval_use_weights(w);
    return sum;
}

static void accept_value(Set *set, const PstIndex *ix, EvalWeights *w, Param *p, int v)
{
    *p->value = v;
    eval_use_weights(w);
    if (p->pst >= 0)
        for (int k = ix->start[p->pst]; k < ix->start[p->pst + 1]; k++)
            set->eval[ix->items[k]] = set->scratch[ix->items[k]];
    else {
        int *t = set->eval;
        set->eval = set->scratch;
        set->scratch = t;
    }
}

/* Coordinate descent: each weight tries +step and -step; a gain is kept (and the step may double, up
 * to its start value, while the same direction keeps gaining); no gain halves the step. Stops when a
 * pass changes nothing with every step at 1, or after `passes` passes. */
/* The L2 penalty of a piece-square entry at value v, in units of the training set's summed squared error:
 * l2 * 1e-9 per squared centipawn of change, per training position (so --l2 1 costs a 100 cp change as
 * much as 1e-5 of mean squared error). */
static double l2_weight = 0;

static double penalty(const Param *p, int v, int count)
{
    if (p->pst < 0 || l2_weight == 0)
        return 0;
    double d = v - p->start;
    return l2_weight * 1e-9 * d * d * count;
}

static double descend(Set *train, Set *val, const PstIndex *ix, EvalWeights *w, ParamList *pl, int passes)
{
    double sum = evaluate_set(train, train->eval);
    double t0 = clock_seconds();
    for (int pass = 1; pass <= passes; pass++) {
        double start = sum;
        int changed = 0, active = 0;
        for (int k = 0; k < pl->count; k++) {
            Param *p = &pl->items[k];
            bool gained = false;
            for (int dir = 1; dir >= -1; dir -= 2) {
                for (;;) {
                    int v = *p->value + dir * p->step;
                    if (v < p->min || v > p->max)
                        break;
                    double s = try_value(train, ix, w, p, v, sum);
                    double cost = penalty(p, v, train->count) - penalty(p, *p->value, train->count);
                    if (!(s + cost < sum - 1e-9))
                        break;
                    accept_value(train, ix, w, p, v);
                    sum = s;
                    gained = true;
                    changed++;
                }
                if (gained)
                    break;
            }
            if (gained) {
                if (p->step < p->max_step)
                    p->step *= 2;
            } else if (p->step > 1)
                p->step /= 2;
            active += gained || p->step > 1;
        }
        /* The sum is kept by deltas; recompute it exactly every pass. */
        sum = evaluate_set(train, train->eval);
        double vsum = evaluate_set(val, val->eval);
        fprintf(stderr, "pass %2d: train %.6f (%+.6f), validation %.6f, %d changes, %.1f s\n", pass, sum / train->count,
                (sum - start) / train->count, vsum / (val->count ? val->count : 1), changed, clock_seconds() - t0);
        if (!active)
            break;
    }
    return sum;
}

/* ---- writing the weight file ---- */

/* The original text with every value replaced by the tuned one, right-aligned in the room the old
 * value and the blanks before it took (so the columns stay), comments kept. Lines that begin with
 * "# Tuned:" are replaced by `tuned_lines`, which otherwise go after the first block of comments. */
static char *rewrite_weights(const char *text, size_t len, const EvalWeights *w, const char *tuned_lines)
{
    StrBuf out = {0};
    const char *field = NULL; /* the name whose values are being rewritten (field_len bytes) */
    size_t field_len = 0;
    int given = 0;
    bool header = true, tuned_written = false;
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && text[end] != '\n')
            end++;
        size_t line_end = end < len ? end + 1 : end;
        if (end - i >= 8 && !strncmp(text + i, "# Tuned:", 8)) {
            if (!tuned_written)
                strbuf_add(&out, tuned_lines, strlen(tuned_lines));
            tuned_written = true;
            i = line_end;
            continue;
        }
        if (header && text[i] != '#') {
            /* The end of the first comment block. */
            if (!tuned_written) {
                strbuf_add(&out, "#\n", 2);
                strbuf_add(&out, tuned_lines, strlen(tuned_lines));
            }
            tuned_written = true;
            header = false;
        }
        bool continuation = weights_is_blank(text[i]);
        bool first = true;
        size_t copied = i; /* text[i..copied) is already in out */
        size_t gap = i, start;
        for (size_t p = i; weights_next_token(text, end, &p, &start); gap = p) {
            if (first && !continuation) {
                field = text + start;
                field_len = p - start;
                if (!eval_weight_count(field, field_len))
                    die("unknown weight in the start file");
                given = 0;
            } else {
                int v;
                if (!field || !eval_weight_get(w, field, field_len, given, &v))
                    die("malformed start file");
                given++;
                /* The room: the blanks before the value (keep at least one) and the value itself. */
                size_t room = p - gap;
                char num[32];
                int n = snprintf(num, sizeof num, "%d", v);
                strbuf_add(&out, text + copied, gap - copied);
                int pad = (int)room - n;
                if (pad < 1)
                    pad = 1;
                for (int k = 0; k < pad; k++)
                    strbuf_add(&out, " ", 1);
                strbuf_add(&out, num, (size_t)n);
                copied = p;
            }
            first = false;
        }
        strbuf_add(&out, text + copied, line_end - copied);
        i = line_end;
    }
    char *rewritten = strbuf_take(&out);
    if (!rewritten)
        die("out of memory");
    return rewritten;
}

/* ---- main ---- */

int main(int argc, char **argv)
{
    TuneOptions o = {
        .games_path = "bench/data/games.jsonl.xz",
        .seed = 1,
        .per_game = 10,
        .skip_plies = 8,
        .validation_pct = 10,
        .quiet_margin = 0,
        .min_count = 200,
        .passes = 40,
        .threads = 2,
        .tune_pst = true,
    };
    int seed = 1;
    bool version = false;
    const char *skip = NULL;
    const CliOption options[] = {
        {.name = "--games",
         .kind = CLI_STRING,
         .text = &o.games_path,
         .value_name = "PATH",
         .help = "the games, JSON lines, plain or xz-compressed (default bench/data/games.jsonl.xz)"},
        {.name = "--weights",
         .kind = CLI_STRING,
         .text = &o.weights_path,
         .value_name = "PATH",
         .help = "the start weights (default: the one nets/janggun-*.weights)"},
        {.name = "--out",
         .kind = CLI_STRING,
         .text = &o.out_path,
         .value_name = "PATH",
         .help = "where the tuned file is written (default: nowhere, a dry run)"},
        {.name = "--seed",
         .kind = CLI_INT,
         .integer = &seed,
         .min = 0,
         .max = 1000000000,
         .value_name = "N",
         .help = "the sampling and the validation split (default 1)"},
        {.name = "--per-game",
         .kind = CLI_INT,
         .integer = &o.per_game,
         .min = 1,
         .max = 1000,
         .value_name = "N",
         .help = "positions sampled from each game (default 10)"},
        {.name = "--skip-plies",
         .kind = CLI_INT,
         .integer = &o.skip_plies,
         .min = 0,
         .max = 1000,
         .value_name = "N",
         .help = "opening plies never sampled (default 8)"},
        {.name = "--max-games",
         .kind = CLI_INT,
         .integer = &o.max_games,
         .min = 0,
         .max = 100000000,
         .value_name = "N",
         .help = "read at most N games (default 0: all)"},
        {.name = "--validation",
         .kind = CLI_INT,
         .integer = &o.validation_pct,
         .min = 1,
         .max = 50,
         .value_name = "PCT",
         .help = "the percentage of games held out (default 10)"},
        {.name = "--quiet-margin",
         .kind = CLI_INT,
         .integer = &o.quiet_margin,
         .min = 0,
         .max = 10000,
         .value_name = "POINTS",
         .help = "what a capture line may win in a quiet position (default 0)"},
        {.name = "--min-count",
         .kind = CLI_INT,
         .integer = &o.min_count,
         .min = 1,
         .max = 100000000,
         .value_name = "N",
         .help = "tune a piece-square entry used by N training positions (default 200)"},
        {.name = "--passes",
         .kind = CLI_INT,
         .integer = &o.passes,
         .min = 0,
         .max = 100000,
         .value_name = "N",
         .help = "coordinate-descent passes at most (default 40; 0 only measures)"},
        {.name = "--threads",
         .kind = CLI_INT,
         .integer = &o.threads,
         .min = 1,
         .max = 64,
         .value_name = "N",
         .help = "threads (default 2)"},
        {.name = "--skip",
         .kind = CLI_STRING,
         .text = &skip,
         .value_name = "TERMS",
         .help = "leave out games ending so: time, resign, count, unknown (comma-separated)"},
        {.name = "--k",
         .kind = CLI_REAL,
         .real = &o.fixed_k,
         .min = 0,
         .max = 1,
         .value_name = "K",
         .help = "fix K instead of fitting it (default 0: fitted)"},
        {.name = "--l2",
         .kind = CLI_REAL,
         .real = &o.l2,
         .min = 0,
         .max = 1000000,
         .value_name = "L",
         .help = "pull piece-square entries towards their start values (default 0)"},
        {.name = "--tune-deom", .kind = CLI_FLAG, .flag = &o.tune_deom, .help = "tune the deom too"},
        {.name = "--no-pst",
         .kind = CLI_FLAG,
         .flag = &o.tune_pst,
         .off = true,
         .help = "leave the piece-square tables as they are"},
        {.name = "--version", .kind = CLI_FLAG, .flag = &version, .help = "print the version"},
    };
    const CliCommand cli = {
        "janggun-tune", "usage: janggun-tune [OPTIONS]\n",
        "Texel tuning of the evaluation weights on real games. --quiet-margin is in counting points (chariot 13,\n"
        "soldier 2). --l2 L costs L * 1e-9 of mean squared error per squared centipawn of change. See README.md.\n",
        options, CLI_COUNT(options)};
    int status = cli_read_options(&cli, argc - 1, argv + 1, NULL);
    if (status >= 0)
        return status;
    if (version) {
        printf("janggun-tune (Janggun %s)\n", janggun_version);
        return 0;
    }
    o.seed = (uint64_t)seed;
    if (skip) {
        char list[128];
        snprintf(list, sizeof list, "%s", skip);
        for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
            if (!strcmp(t, "time"))
                o.skip_time = true;
            else if (!strcmp(t, "resign"))
                o.skip_resign = true;
            else if (!strcmp(t, "count"))
                o.skip_count = true;
            else if (!strcmp(t, "unknown"))
                o.skip_unknown_term = true;
            else
                die("--skip: unknown termination '%s' (time, resign, count, unknown)", t);
        }
    }
    n_threads = o.threads;
    l2_weight = o.l2;

    engine_init();
    glob_t gl = {0};
    if (!o.weights_path) {
        if (glob("nets/janggun-*.weights", 0, NULL, &gl) != 0 || gl.gl_pathc != 1)
            die("need exactly one nets/janggun-*.weights (or --weights PATH)");
        o.weights_path = gl.gl_pathv[0];
    }
    size_t text_len;
    char read_err[300];
    char *text = read_whole_file(o.weights_path, &text_len, read_err, sizeof read_err);
    if (!text)
        die("%s: %s", o.weights_path, read_err);
    EvalWeights start, w;
    char err[256];
    if (!eval_parse_weights(text, text_len, &start, err, sizeof err))
        die("%s: %s", o.weights_path, err);
    eval_use_weights(&start);
    fprintf(stderr, "start weights %s; reading %s (seed %llu, %d positions a game, plies from %d)\n", o.weights_path,
            o.games_path, (unsigned long long)o.seed, o.per_game, o.skip_plies);

    double t0 = clock_seconds();
    SampleList samples = {0};
    LoadStats ls = {0};
    load_games(&o, &samples, &ls);
    Set train, val;
    build_set(&train, &samples, false);
    build_set(&val, &samples, true);
    free(samples.items);
    fprintf(stderr,
            "%ld games used (%ld train, %ld validation); skipped %ld with an unknown result, %ld by termination, "
            "%ld unreadable\n%ld candidate positions, %ld not quiet; %d training and %d validation positions "
            "(%.1f s)\n",
            ls.used_games, ls.train_games, ls.val_games, ls.skipped_result, ls.skipped_term, ls.bad_games,
            ls.candidates, ls.not_quiet, train.count, val.count, clock_seconds() - t0);
    if (train.count == 0 || val.count == 0)
        die("no positions to tune on");

    /* K first, on the start weights. */
    double t1 = clock_seconds();
    evaluate_set(&train, train.eval);
    fprintf(stderr, "one evaluation of the training set: %.1f ms\n", (clock_seconds() - t1) * 1e3);
    double k = o.fixed_k > 0 ? o.fixed_k : fit_k(&train, train.eval);
    set_k(k);
    double train_before = evaluate_set(&train, train.eval) / train.count;
    double val_before = evaluate_set(&val, val.eval) / val.count;
    fprintf(stderr, "K = %.6f; start error: train %.6f, validation %.6f\n", k, train_before, val_before);

    PstIndex ix;
    build_pst_index(&train, &ix);
    w = start;
    ParamList pl = {0};
    build_params(&w, &o, &ix, &pl);
    fprintf(stderr, "tuning %d weights (piece-square entries used by at least %d training positions)\n", pl.count,
            o.min_count);
    descend(&train, &val, &ix, &w, &pl, o.passes);
    eval_use_weights(&w);
    double train_after = evaluate_set(&train, train.eval) / train.count;
    double val_after = evaluate_set(&val, val.eval) / val.count;
    fprintf(stderr, "done in %.0f s: train %.6f -> %.6f, validation %.6f -> %.6f\n", clock_seconds() - t0, train_before,
            train_after, val_before, val_after);

    /* The larger changes, for the record. */
    int shown = 0;
    for (int i = 0; i < pl.count && shown < 40; i++) {
        const Param *p = &pl.items[i];
        int old = *(const int *)((const char *)&start + ((const char *)p->value - (const char *)&w));
        if (p->pst < 0 || abs(*p->value - old) >= 40) {
            fprintf(stderr, "  %-28s %6d -> %6d\n", p->name, old, *p->value);
            shown += p->pst >= 0;
        }
    }

    if (o.out_path) {
        char cmd[1024] = "./janggun-tune";
        for (int i = 1; i < argc; i++) {
            size_t n = strlen(cmd);
            snprintf(cmd + n, sizeof cmd - n, " %s", argv[i]);
        }
        const char *start_name = strrchr(o.weights_path, '/') ? strrchr(o.weights_path, '/') + 1 : o.weights_path;
        char lines[2048];
        snprintf(lines, sizeof lines,
                 "# Tuned: Texel's method on real games (README.md, Tuning), starting from %s:\n"
                 "# Tuned:   %s\n"
                 "# Tuned: %d training and %d validation positions from %ld games (%ld held out), K = %.6f;\n"
                 "# Tuned: mean squared error, train %.6f -> %.6f, validation %.6f -> %.6f.\n",
                 start_name, cmd, train.count, val.count, ls.used_games, ls.val_games, k, train_before, train_after,
                 val_before, val_after);
        char *tuned = rewrite_weights(text, text_len, &w, lines);
        EvalWeights check;
        if (!eval_parse_weights(tuned, strlen(tuned), &check, err, sizeof err))
            die("the tuned text does not parse: %s", err);
        if (memcmp(&check, &w, sizeof w) != 0)
            die("the tuned text does not read back as the tuned weights");
        FILE *f = fopen(o.out_path, "wb");
        if (!f || fwrite(tuned, 1, strlen(tuned), f) != strlen(tuned) || fclose(f) != 0)
            die("cannot write %s", o.out_path);
        fprintf(stderr, "wrote %s; rename it by its hash into nets/ (README.md, Tuning)\n", o.out_path);
        free(tuned);
    }
    globfree(&gl);
    free(text);
    free(pl.items);
    free(ix.start);
    free(ix.items);
    free_set(&train);
    free_set(&val);
    return 0;
}

/* Iterative deepening PVS with Lazy SMP. Every thread searches the same root over the shared
 * transposition table; thread 0 keeps the clock, reports, and decides the move. All mutable search
 * state lives in the per-thread SearchWorker; only the table and the flags in `pool` are shared. */
#define _POSIX_C_SOURCE 200809L
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/movegen.h"
#include "../eval/eval.h"
#include "tunables.h"

typedef struct {
    Move move;
    int score, previous_score;
    int pv_length;
    Move pv[MAX_PLY];
} RootMove;

typedef struct SearchWorker {
    int id;
    uint64_t started_generation;
    pthread_t thread;
    Game game;           /* this thread's copy of the game, with its history */
    StateInfo stack[MAX_PLY + 8];
    _Atomic uint64_t nodes;
    int seldepth;
    int completed_depth;
    RootMove roots[MAX_MOVES];
    int root_count;
    int pv_index;               /* MultiPV line being searched */
    Move killers[MAX_PLY + 2][2];
    int16_t history[COLOR_COUNT][SQUARE_COUNT][SQUARE_COUNT];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];
} SearchWorker;

/* Shared state: written by the controlling thread between searches, read by the workers. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;       /* workers wait here for a search */
    pthread_cond_t idle;       /* search_wait waits here */
    int thread_count;
    SearchWorker *workers[MAX_THREADS];
    uint64_t generation;       /* bumped for each search; workers start when it changes */
    int running;               /* workers still searching */
    bool searching;            /* from search_start until bestmove was reported */
    bool quit;
    _Atomic bool stop;
    _Atomic bool pondering;
    Game game;
    SearchLimits limits;
    SearchReport report;
    _Atomic int64_t start_ms;  /* reset by ponderhit, read by the workers */
    TimeBudget budget;
    bool initialised;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .idle = PTHREAD_COND_INITIALIZER};

static int reductions[64][64];

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int mate_in(int ply) { return VALUE_MATE - ply; }
static inline int mated_in(int ply) { return -VALUE_MATE + ply; }

/* A key that also tells whether the last move was a pass: a pass in reply ends the game, so the same
 * board after a pass and after another move must not share table entries. */
static inline uint64_t position_key(const Position *pos)
{
    return pos->st->key ^ (pos->st->pass ? 0x9d39247e33776d41ULL : 0);
}

/* The referee's verdict as a score for the side to move at `ply`. */
static int verdict_score(const Verdict *v, int ply)
{
    return v->outcome == OUTCOME_WIN ? mate_in(ply) : v->outcome == OUTCOME_LOSS ? mated_in(ply) : 0;
}

static uint64_t total_nodes(void)
{
    uint64_t n = 0;
    for (int i = 0; i < pool.thread_count; i++)
        n += atomic_load_explicit(&pool.workers[i]->nodes, memory_order_relaxed);
    return n;
}

/* Thread 0 checks the limits every few nodes; the others only read the stop flag. */
static void check_limits(SearchWorker *w)
{
    uint64_t nodes = atomic_load_explicit(&w->nodes, memory_order_relaxed);
    if (pool.limits.nodes && (pool.thread_count == 1 ? nodes : (nodes & 255) == 0 ? total_nodes() : 0) >= pool.limits.nodes)
        atomic_store(&pool.stop, true);
    if ((nodes & 1023) == 0 && pool.budget.hard_ms >= 0 && !atomic_load_explicit(&pool.pondering, memory_order_relaxed)
        && now_ms() - atomic_load(&pool.start_ms) >= pool.budget.hard_ms)
        atomic_store(&pool.stop, true);
}

static inline bool stopped(void) { return atomic_load_explicit(&pool.stop, memory_order_relaxed); }

/* ---- Static exchange evaluation, with the cannon rules ---- */

static const int see_value[PIECE_TYPE_COUNT] = {0, 100, 150, 150, 350, 450, 1000, 20000};

/* The least valuable attacker of colour `side` on `to` given the occupancy, or SQ_NONE. A cannon
 * never takes a cannon; a general only steps within its palace. */
static Square least_attacker(const Position *pos, Square to, Color side, Bitboard occ, Bitboard occ_t, Bitboard cannons,
                             Bitboard cannons_t, PieceType on_target)
{
    Bitboard attackers = position_attackers(pos, to, side, occ, occ_t, cannons, cannons_t, pos->by_color[side] & occ);
    if (on_target == CANNON)
        attackers &= ~cannons;
    Square g = pos->general[side];
    if (bb_test(occ, g) && bb_test(palace_step_table[g], to))
        attackers |= bb_square(g);
    if (!attackers)
        return SQ_NONE;
    for (PieceType pt = SOLDIER; pt <= GENERAL; pt++) {
        Bitboard b = attackers & pos->by_type[pt];
        if (b)
            return bb_lsb(b);
    }
    return SQ_NONE;
}

/* The material balance of the exchange on the move's target, from the mover's view. */
static int see(const Position *pos, Move m)
{
    if (move_is_pass(m))
        return 0;
    Square from = move_from(m), to = move_to(m);
    int gain[40], d = 0;
    PieceType on_target = piece_type(pos->board[from]);
    gain[0] = see_value[piece_type(pos->board[to])];
    Bitboard occ = pos->occupied ^ bb_square(from), occ_t = pos->occupied_t ^ bb_tsquare(from);
    Bitboard cannons = pos->by_type[CANNON] & ~bb_square(from);
    Bitboard cannons_t = pos->cannons_t & ~bb_tsquare(from);
    if (pos->board[to] && piece_type(pos->board[to]) == CANNON) {
        cannons &= ~bb_square(to);
        cannons_t &= ~bb_tsquare(to);
    }
    if (on_target == CANNON) {
        cannons |= bb_square(to);
        cannons_t |= bb_tsquare(to);
    }
    occ |= bb_square(to);
    occ_t |= bb_tsquare(to);
    Color side = color_flip(pos->side);
    while (d < 38) {
        Square s = least_attacker(pos, to, side, occ, occ_t, cannons, cannons_t, on_target);
        if (s == SQ_NONE)
            break;
        PieceType pt = piece_type(pos->board[s]);
        d++;
        gain[d] = see_value[on_target] - gain[d - 1];
        if (on_target == GENERAL)
            break; /* the general was taken: the previous capture was illegal, stop here */
        occ ^= bb_square(s);
        occ_t ^= bb_tsquare(s);
        cannons &= ~bb_square(to);
        cannons_t &= ~bb_tsquare(to);
        if (pt == CANNON) {
            cannons = (cannons & ~bb_square(s)) | bb_square(to);
            cannons_t = (cannons_t & ~bb_tsquare(s)) | bb_tsquare(to);
        }
        on_target = pt;
        side = color_flip(side);
    }
    while (--d > 0)
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}

/* ---- Move ordering ---- */

typedef struct {
    Move move;
    int score;
} ScoredMove;

enum { SCORE_TT = 1 << 30, SCORE_GOOD_CAPTURE = 1 << 28, SCORE_KILLER = 1 << 26, SCORE_BAD_CAPTURE = -(1 << 28) };

static int score_moves(const SearchWorker *w, const Position *pos, const MoveList *list, ScoredMove *out, Move tt_move,
                       int ply)
{
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        int score;
        Piece victim = move_is_pass(m) ? NO_PIECE : pos->board[move_to(m)];
        if (m == tt_move)
            score = SCORE_TT;
        else if (victim) {
            int victim_value = see_value[piece_type(victim)];
            int attacker_value = see_value[piece_type(pos->board[move_from(m)])];
            int mvv_lva = 16 * victim_value - attacker_value / 16;
            /* Taking something at least as valuable never loses material: no exchange to resolve. */
            bool good = victim_value >= attacker_value || see(pos, m) >= 0;
            score = (good ? SCORE_GOOD_CAPTURE : SCORE_BAD_CAPTURE) + mvv_lva;
        } else if (m == w->killers[ply][0])
            score = SCORE_KILLER + 1;
        else if (m == w->killers[ply][1])
            score = SCORE_KILLER;
        else if (move_is_pass(m))
            score = -(1 << 20); /* after the other quiet moves */
        else
            score = w->history[pos->side][move_from(m)][move_to(m)];
        out[i] = (ScoredMove){m, score};
    }
    return list->count;
}

/* Selection sort step: brings the best remaining move to index i. */
static Move pick_next(ScoredMove *moves, int count, int i)
{
    int best = i;
    for (int j = i + 1; j < count; j++)
        if (moves[j].score > moves[best].score)
            best = j;
    ScoredMove t = moves[i];
    moves[i] = moves[best];
    moves[best] = t;
    return moves[i].move;
}

static void update_history(SearchWorker *w, Color side, Move m, int bonus)
{
    int16_t *h = &w->history[side][move_from(m)][move_to(m)];
    int v = *h + bonus - *h * abs(bonus) / HISTORY_MAX;
    *h = (int16_t)v;
}

static void update_pv(SearchWorker *w, int ply, Move m)
{
    w->pv[ply][0] = m;
    int n = w->pv_length[ply + 1];
    memcpy(&w->pv[ply][1], w->pv[ply + 1], (size_t)n * sizeof(Move));
    w->pv_length[ply] = n + 1;
}

/* ---- Search ---- */

static Position *worker_pos(SearchWorker *w) { return &w->game.pos; }

static int qsearch(SearchWorker *w, int alpha, int beta, int ply, int qply)
{
    Position *pos = worker_pos(w);
    atomic_fetch_add_explicit(&w->nodes, 1, memory_order_relaxed);
    w->pv_length[ply] = 0;
    if (w->id == 0)
        check_limits(w);
    if (ply > w->seldepth)
        w->seldepth = ply;
    Verdict v;
    if (pos->st->ended) {
        referee_immediate_end(pos, &v);
        return verdict_score(&v, ply);
    }
    if (ply >= MAX_PLY)
        return eval_evaluate(pos);

    /* In check (or in bikjang) every move is searched; checks answered by checks could otherwise go
     * on without end, so deep in quiescence such nodes are cut off. */
    bool full_width = pos->st->checkers || pos->st->bikjang;
    if (full_width && qply >= QS_FULL_WIDTH_PLIES)
        return referee_optional_end(pos, ply, &v) ? verdict_score(&v, ply) : eval_evaluate(pos);
    int best = -VALUE_INFINITE;
    if (!full_width) {
        best = eval_evaluate(pos);
        if (pos->st->pass) {
            /* Passing back ends the game here and now. */
            StateInfo st;
            Move pass = make_move(pos->general[pos->side], pos->general[pos->side]);
            position_make(pos, pass, &st);
            referee_immediate_end(pos, &v);
            int score = -verdict_score(&v, ply + 1);
            position_unmake(pos);
            if (score > best)
                best = score;
        }
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }

    MoveList list;
    list.count = 0;
    movegen_pseudo(pos, full_width ? GEN_ALL : GEN_CAPTURES, &list);
    ScoredMove moves[MAX_MOVES];
    int count = score_moves(w, pos, &list, moves, MOVE_NONE, ply);
    int legal = 0;
    for (int i = 0; i < count; i++) {
        Move m = pick_next(moves, count, i);
        if (!full_width && moves[i].score < 0)
            break; /* losing captures */
        if (!movegen_is_legal(pos, m))
            continue;
        legal++;
        position_make(pos, m, &w->stack[ply]);
        int score = -qsearch(w, -beta, -alpha, ply + 1, qply + 1);
        position_unmake(pos);
        if (stopped())
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(w, ply, m);
                if (score >= beta)
                    break;
            }
        }
    }
    if (full_width && legal == 0)
        return mated_in(ply);
    return best;
}

static int search(SearchWorker *w, int alpha, int beta, int depth, int ply, bool allow_null)
{
    Position *pos = worker_pos(w);
    bool pv_node = beta - alpha > 1;
    bool root = ply == 0;
    if (depth <= 0)
        return qsearch(w, alpha, beta, ply, 0);

    atomic_fetch_add_explicit(&w->nodes, 1, memory_order_relaxed);
    w->pv_length[ply] = 0;
    if (w->id == 0)
        check_limits(w);
    if (stopped() && !root)
        return 0;
    if (ply > w->seldepth)
        w->seldepth = ply;

    const StateInfo *st = pos->st;
    Verdict v;
    if (!root) {
        if (st->ended) {
            referee_immediate_end(pos, &v);
            return verdict_score(&v, ply);
        }
        if (referee_optional_end(pos, ply, &v))
            return verdict_score(&v, ply);
        if (ply >= MAX_PLY)
            return eval_evaluate(pos);
        /* Mate distance pruning. */
        alpha = alpha > mated_in(ply) ? alpha : mated_in(ply);
        beta = beta < mate_in(ply + 1) ? beta : mate_in(ply + 1);
        if (alpha >= beta)
            return alpha;
    }

    bool in_check = st->checkers != 0;
    uint64_t key = position_key(pos);
    TTData tt;
    bool tt_hit = tt_probe(key, &tt);
    Move tt_move = tt_hit ? tt.move : MOVE_NONE;
    if (root && w->pv_index < w->root_count)
        tt_move = w->roots[w->pv_index].move;
    if (tt_hit && !pv_node && tt.depth >= depth) {
        int score = tt_score_from(tt.score, ply);
        if ((tt.bound == BOUND_EXACT) || (tt.bound == BOUND_LOWER && score >= beta)
            || (tt.bound == BOUND_UPPER && score <= alpha))
            return score;
    }

    int static_eval = in_check ? -VALUE_INFINITE : tt_hit && tt.eval != VALUE_NONE ? tt.eval : eval_evaluate(pos);

    /* Without a table move, a deep node is searched a ply shallower first (internal iterative
     * reduction): its move ordering is poor anyway. */
    if (!root && tt_move == MOVE_NONE && depth >= IIR_MIN_DEPTH)
        depth--;
    bool quiet_node = !in_check && !st->bikjang && !pv_node;

    /* Reverse futility: far above beta at low depth. */
    if (quiet_node && depth <= RFP_DEPTH && static_eval - RFP_MARGIN * depth >= beta && abs(beta) < VALUE_MATE_BOUND)
        return static_eval;

    /* Null move: the pass is a real Janggi move, so passing and failing high is a true lower bound
     * (searched shallower). Not right after a pass, where passing back ends the game. */
    if (quiet_node && allow_null && depth >= NULL_MIN_DEPTH && static_eval >= beta && !st->pass
        && abs(beta) < VALUE_MATE_BOUND) {
        int r = NULL_BASE_REDUCTION + depth / NULL_DEPTH_DIVISOR
              + ((static_eval - beta) / NULL_EVAL_DIVISOR < 3 ? (static_eval - beta) / NULL_EVAL_DIVISOR : 3);
        Move pass = make_move(pos->general[pos->side], pos->general[pos->side]);
        position_make(pos, pass, &w->stack[ply]);
        int score = -search(w, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
        position_unmake(pos);
        if (stopped())
            return 0;
        if (score >= beta)
            return score >= VALUE_MATE_BOUND ? beta : score;
    }

    /* The table move is tried before any generation: when it cuts off, nothing else is generated. */
    MoveList list;
    list.count = 0;
    ScoredMove moves[MAX_MOVES];
    int count = 0;
    bool generated = false;
    if (root) {
        for (int i = w->pv_index; i < w->root_count; i++)
            list.moves[list.count++] = w->roots[i].move;
        count = score_moves(w, pos, &list, moves, tt_move, ply);
        generated = true;
    } else if (tt_move != MOVE_NONE && movegen_contains_legal(pos, tt_move)) {
        moves[count++] = (ScoredMove){tt_move, SCORE_TT};
    } else {
        tt_move = MOVE_NONE;
    }

    int best = -VALUE_INFINITE, legal = 0;
    Move best_move = MOVE_NONE;
    Move quiets[MAX_MOVES];
    int quiet_count = 0;
    int original_alpha = alpha;
    for (int i = 0;; i++) {
        if (i == count) {
            if (generated)
                break;
            generated = true;
            movegen_pseudo(pos, GEN_ALL, &list);
            int k = 0;
            for (int j = 0; j < list.count; j++)
                if (list.moves[j] != tt_move)
                    list.moves[k++] = list.moves[j];
            list.count = k;
            count += score_moves(w, pos, &list, moves + count, MOVE_NONE, ply);
            if (i == count)
                break;
        }
        Move m = pick_next(moves, count, i);
        if (!root && m != tt_move && !movegen_is_legal(pos, m))
            continue;
        legal++;
        bool capture = !move_is_pass(m) && pos->board[move_to(m)];
        bool quiet = !capture;

        /* Late quiet moves at low depth are skipped: far below alpha (futility), or beyond a move
         * count that grows with depth (late move pruning). */
        if (!root && !in_check && quiet && best > -VALUE_MATE_BOUND && legal > 1) {
            if (!pv_node && depth <= FUTILITY_DEPTH && static_eval + FUTILITY_MARGIN * depth <= alpha)
                continue;
            if (depth <= LMP_DEPTH && legal > LMP_BASE + depth * depth * (pv_node ? 2 : 1))
                continue;
        }
        /* Captures that lose material at low depth. */
        if (!root && !in_check && capture && !pv_node && depth <= SEE_PRUNE_DEPTH && best > -VALUE_MATE_BOUND
            && moves[i].score < 0 && legal > 1)
            continue;

        position_make(pos, m, &w->stack[ply]);
        bool gives_check = pos->st->checkers != 0;
        int extension = 0;
        if (gives_check && ply < 2 * depth + 4) {
            /* Only checks that do not just give material away are extended. */
            position_unmake(pos);
            extension = see(pos, m) >= 0;
            position_make(pos, m, &w->stack[ply]);
        }
        int new_depth = depth - 1 + extension;
        int score;
        if (legal == 1) {
            score = -search(w, -beta, -alpha, new_depth, ply + 1, true);
        } else {
            int r = 0;
            if (depth >= 2 && (quiet || moves[i].score < 0) && !in_check && !gives_check && i >= LMR_MIN_MOVES) {
                r = reductions[depth < 64 ? depth : 63][i < 64 ? i : 63];
                if (pv_node)
                    r--;
                if (m == w->killers[ply][0] || m == w->killers[ply][1])
                    r--;
                r -= moves[i].score / LMR_HISTORY_DIVISOR; /* history of this move, when not a killer */
                r = r < 0 ? 0 : r > new_depth - 1 ? new_depth - 1 : r;
            }
            score = -search(w, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (score > alpha && r > 0)
                score = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, true);
            if (score > alpha && score < beta)
                score = -search(w, -beta, -alpha, new_depth, ply + 1, true);
        }
        position_unmake(pos);
        if (stopped())
            return best > -VALUE_INFINITE ? best : 0;

        if (root) {
            RootMove *rm = NULL;
            for (int k = w->pv_index; k < w->root_count; k++)
                if (w->roots[k].move == m)
                    rm = &w->roots[k];
            if (legal == 1 || score > alpha) {
                rm->score = score;
                rm->pv[0] = m;
                memcpy(&rm->pv[1], w->pv[1], (size_t)w->pv_length[1] * sizeof(Move));
                rm->pv_length = w->pv_length[1] + 1;
            } else {
                rm->score = -VALUE_INFINITE;
            }
        }

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                update_pv(w, ply, m);
                if (score >= beta) {
                    if (quiet) {
                        if (w->killers[ply][0] != m) {
                            w->killers[ply][1] = w->killers[ply][0];
                            w->killers[ply][0] = m;
                        }
                        int bonus = depth * depth > HISTORY_MAX / 4 ? HISTORY_MAX / 4 : depth * depth;
                        update_history(w, pos->side, m, bonus);
                        for (int q = 0; q < quiet_count; q++)
                            update_history(w, pos->side, quiets[q], -bonus);
                    }
                    break;
                }
            }
        }
        if (quiet && quiet_count < MAX_MOVES)
            quiets[quiet_count++] = m;
    }

    if (legal == 0)
        return root ? 0 : mated_in(ply); /* without check the pass is legal, so this is mate */

    Bound bound = best >= beta ? BOUND_LOWER : best > original_alpha ? BOUND_EXACT : BOUND_UPPER;
    if (!(root && w->pv_index > 0))
        tt_store(key, best_move, tt_score_to(best, ply), in_check ? VALUE_NONE : static_eval, depth, bound);
    return best;
}

/* ---- Iterative deepening ---- */

static void report_line(SearchWorker *w, int depth, int pv_index, Bound bound)
{
    RootMove *rm = &w->roots[pv_index];
    SearchInfo info;
    memset(&info, 0, sizeof info);
    info.depth = depth;
    info.seldepth = w->seldepth;
    info.multipv = pv_index + 1;
    int score = rm->score == -VALUE_INFINITE ? rm->previous_score : rm->score;
    if (abs(score) >= VALUE_MATE_BOUND) {
        info.is_mate = true;
        info.mate_moves = score > 0 ? (VALUE_MATE - score + 1) / 2 : -(VALUE_MATE + score) / 2;
    } else {
        info.score = score * 100 / eval_soldier_value(); /* a soldier shows as 100 */
    }
    info.bound = bound;
    info.nodes = total_nodes();
    info.time_ms = now_ms() - atomic_load(&pool.start_ms);
    info.nps = info.time_ms > 0 ? info.nodes * 1000 / (uint64_t)info.time_ms : info.nodes * 1000;
    info.hashfull = tt_hashfull();
    info.pv_length = rm->pv_length;
    memcpy(info.pv, rm->pv, (size_t)rm->pv_length * sizeof(Move));
    if (pool.report.info)
        pool.report.info(&info, pool.report.ctx);
}

/* Stable, so that after an aborted iteration (every unsearched move at -infinity) the order of the
 * last completed iteration stands. */
static void sort_roots(RootMove *roots, int count)
{
    for (int i = 1; i < count; i++) {
        RootMove key = roots[i];
        int j = i - 1;
        while (j >= 0 && roots[j].score < key.score) {
            roots[j + 1] = roots[j];
            j--;
        }
        roots[j + 1] = key;
    }
}

static void iterative_deepening(SearchWorker *w)
{
    int max_depth = pool.limits.depth > 0 && pool.limits.depth < MAX_PLY - 8 ? pool.limits.depth : MAX_PLY - 8;
    int multipv = pool.limits.multipv < 1 ? 1 : pool.limits.multipv;
    if (multipv > w->root_count)
        multipv = w->root_count;
    Move last_best = MOVE_NONE;
    int stable_iterations = 0;
    for (int depth = 1 + (w->id & 1); depth <= max_depth; depth++) {
        for (int i = 0; i < w->root_count; i++) {
            w->roots[i].previous_score = w->roots[i].score;
            w->roots[i].score = -VALUE_INFINITE;
        }
        for (w->pv_index = 0; w->pv_index < multipv; w->pv_index++) {
            w->seldepth = 0;
            int previous = w->roots[w->pv_index].previous_score;
            int delta = ASPIRATION_WINDOW;
            int alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            if (depth >= 5 && abs(previous) < VALUE_MATE_BOUND) {
                alpha = previous - delta;
                beta = previous + delta;
            }
            for (;;) {
                int score = search(w, alpha, beta, depth, 0, true);
                sort_roots(&w->roots[w->pv_index], w->root_count - w->pv_index);
                if (stopped())
                    break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -VALUE_INFINITE ? score - delta : -VALUE_INFINITE;
                    if (w->id == 0 && now_ms() - atomic_load(&pool.start_ms) > 3000)
                        report_line(w, depth, w->pv_index, BOUND_UPPER);
                } else if (score >= beta) {
                    beta = score + delta < VALUE_INFINITE ? score + delta : VALUE_INFINITE;
                    if (w->id == 0 && now_ms() - atomic_load(&pool.start_ms) > 3000)
                        report_line(w, depth, w->pv_index, BOUND_LOWER);
                } else {
                    break;
                }
                delta += delta / 2;
            }
            sort_roots(w->roots, w->pv_index + 1);
            if (stopped())
                break;
            if (w->id == 0)
                report_line(w, depth, w->pv_index, BOUND_EXACT);
        }
        if (stopped())
            break;
        w->completed_depth = depth;
        if (w->id != 0)
            continue;

        /* Thread 0 decides whether another iteration is worth it. */
        int best_score = w->roots[0].score;
        if (pool.limits.mate > 0 && best_score >= VALUE_MATE_BOUND && VALUE_MATE - best_score <= 2 * pool.limits.mate)
            break;
        stable_iterations = w->roots[0].move == last_best ? stable_iterations + 1 : 0;
        last_best = w->roots[0].move;
        if (pool.budget.soft_ms >= 0 && !atomic_load(&pool.pondering)) {
            double stability = stable_iterations >= 6 ? 1.0 : stable_iterations / 6.0;
            if (!tm_should_start_iteration(&pool.budget, now_ms() - atomic_load(&pool.start_ms), stability))
                break;
        }
        if (w->root_count == 1 && pool.budget.soft_ms >= 0 && depth >= 4 && !atomic_load(&pool.pondering))
            break; /* a forced move */
    }
}

static void prepare_worker(SearchWorker *w)
{
    char err[16];
    game_free(&w->game);
    game_start(&w->game, pool.game.start_fen, pool.game.pos.rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err);
    for (int i = 0; i < pool.game.length; i++)
        game_play(&w->game, pool.game.moves[i]);
    atomic_store_explicit(&w->nodes, 0, memory_order_relaxed);
    w->seldepth = w->completed_depth = 0;
    memset(w->killers, 0, sizeof w->killers);
    MoveList legal;
    movegen_legal(&w->game.pos, &legal);
    w->root_count = 0;
    for (int i = 0; i < legal.count; i++) {
        bool allowed = pool.limits.searchmove_count == 0;
        for (int k = 0; k < pool.limits.searchmove_count && !allowed; k++)
            allowed = pool.limits.searchmoves[k] == legal.moves[i];
        if (allowed)
            w->roots[w->root_count++] = (RootMove){legal.moves[i], -VALUE_INFINITE, -VALUE_INFINITE, 1, {legal.moves[i]}};
    }
}

/* Thread 0, after its own search: waits for the helpers, and while pondering or in an infinite
 * search for the stop; then reports. */
static void finish_search(SearchWorker *w)
{
    while (!stopped() && (atomic_load(&pool.pondering) || pool.limits.infinite)) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    atomic_store(&pool.stop, true);
    pthread_mutex_lock(&pool.lock);
    while (pool.running > 1)
        pthread_cond_wait(&pool.idle, &pool.lock);
    pthread_mutex_unlock(&pool.lock);

    Move best = MOVE_NONE, ponder = MOVE_NONE;
    if (w->root_count > 0) {
        best = w->roots[0].move;
        if (w->roots[0].pv_length > 1)
            ponder = w->roots[0].pv[1];
    }
    if (pool.report.bestmove)
        pool.report.bestmove(best, ponder, pool.report.ctx);
}

static void *worker_main(void *arg)
{
    SearchWorker *w = arg;
    uint64_t seen = w->started_generation; /* do not join a search that began before this thread */
    for (;;) {
        pthread_mutex_lock(&pool.lock);
        while (!pool.quit && pool.generation == seen)
            pthread_cond_wait(&pool.wake, &pool.lock);
        if (pool.quit) {
            pthread_mutex_unlock(&pool.lock);
            return NULL;
        }
        seen = pool.generation;
        pthread_mutex_unlock(&pool.lock);

        prepare_worker(w);
        if (w->root_count > 0)
            iterative_deepening(w);
        if (w->id == 0)
            finish_search(w);

        pthread_mutex_lock(&pool.lock);
        if (--pool.running == 0)
            pool.searching = false;
        pthread_cond_broadcast(&pool.idle);
        pthread_mutex_unlock(&pool.lock);
    }
}

/* ---- Pool control ---- */

static void stop_threads(void)
{
    pthread_mutex_lock(&pool.lock);
    pool.quit = true;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    for (int i = 0; i < pool.thread_count; i++) {
        pthread_join(pool.workers[i]->thread, NULL);
        game_free(&pool.workers[i]->game);
        free(pool.workers[i]);
    }
    pool.thread_count = 0;
    pool.quit = false;
}

bool search_set_threads(int count)
{
    if (count < 1 || count > MAX_THREADS)
        return false;
    search_wait();
    stop_threads();
    for (int i = 0; i < count; i++) {
        SearchWorker *w = calloc(1, sizeof *w);
        if (w) {
            w->id = i;
            w->started_generation = pool.generation;
        }
        if (!w || pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            free(w);
            if (i == 0)
                return false;
            break; /* keep the threads we could start */
        }
        pool.workers[pool.thread_count++] = w;
    }
    return true;
}

void search_init(void)
{
    if (pool.initialised)
        return;
    pool.initialised = true;
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            reductions[d][m] = (int)(LMR_BASE + log((double)d) * log((double)m) / LMR_DIVISOR);
    tt_resize(16);
    search_set_threads(1);
}

void search_shutdown(void)
{
    if (!pool.initialised)
        return;
    search_stop();
    search_wait();
    stop_threads();
    game_free(&pool.game);
    tt_free();
    pool.initialised = false;
}

bool search_set_hash(size_t megabytes)
{
    search_wait();
    return tt_resize(megabytes);
}

void search_clear(void)
{
    search_wait();
    tt_clear();
    for (int i = 0; i < pool.thread_count; i++)
        memset(pool.workers[i]->history, 0, sizeof pool.workers[i]->history);
}

void search_start(const Game *game, const SearchLimits *limits, const SearchReport *report)
{
    search_wait();
    char err[16];
    game_free(&pool.game);
    game_start(&pool.game, game->start_fen, game->pos.rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err);
    for (int i = 0; i < game->length; i++)
        game_play(&pool.game, game->moves[i]);
    pool.limits = *limits;
    pool.report = *report;
    TimeControl tc = limits->clock;
    tc.game_ply = game->length;
    pool.budget = limits->use_clock ? tm_budget(&tc) : (TimeBudget){-1, -1};
    atomic_store(&pool.stop, false);
    atomic_store(&pool.pondering, limits->ponder);
    tt_new_search();
    pthread_mutex_lock(&pool.lock);
    atomic_store(&pool.start_ms, now_ms());
    pool.running = pool.thread_count;
    pool.searching = true;
    pool.generation++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
}

void search_stop(void) { atomic_store(&pool.stop, true); }

void search_ponderhit(void)
{
    atomic_store(&pool.start_ms, now_ms());
    atomic_store(&pool.pondering, false);
}

void search_wait(void)
{
    pthread_mutex_lock(&pool.lock);
    while (pool.searching)
        pthread_cond_wait(&pool.idle, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
}

bool search_is_running(void)
{
    pthread_mutex_lock(&pool.lock);
    bool running = pool.searching;
    pthread_mutex_unlock(&pool.lock);
    return running;
}

/* ---- Bench ---- */

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
    int64_t start = now_ms();
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
        total += total_nodes();
        game_free(&game);
    }
    *elapsed_ms = now_ms() - start;
    search_set_threads(threads);
    return total;
}

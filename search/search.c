/* Iterative deepening PVS with Lazy SMP: one thread's search. Every thread searches the same root
 * over the shared transposition table; thread 0 keeps the clock, reports, and decides the move. All
 * mutable search state lives in the per-thread SearchWorker; only the table and the flags of the pool
 * (threads.h) are shared. Move ordering is in movepick.c, the exchange evaluator in see.c. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/eval.h"
#include "see.h"
#include "threads.h"
#include "tunables.h"

static int reductions[64][64];

void search_tables_init(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            reductions[d][m] = (int)(LMR_BASE + log((double)d) * log((double)m) / LMR_DIVISOR);
}

static inline int mate_in(int ply) { return VALUE_MATE - ply; }
static inline int mated_in(int ply) { return -VALUE_MATE + ply; }

/* A key that also tells whether the last move was a pass: a pass in reply ends the game, so the same
 * board after a pass and after another move must not share table entries. */
static inline uint64_t position_key(const Position *pos)
{
    return pos->st->key ^ (pos->st->pass ? 0x9d39247e33776d41ULL : 0);
}

/* Whether a table entry's bound settles a node searched with (alpha, beta) at its score. */
static inline bool tt_bound_decides(unsigned bound, int score, int alpha, int beta)
{
    return bound == BOUND_EXACT || (bound == BOUND_LOWER && score >= beta) || (bound == BOUND_UPPER && score <= alpha);
}

/* The referee's verdict as a score for the side to move at `ply`. */
static int verdict_score(const Verdict *v, int ply)
{
    return v->outcome == OUTCOME_WIN ? mate_in(ply) : v->outcome == OUTCOME_LOSS ? mated_in(ply) : 0;
}

/* Thread 0 checks the limits every few nodes; the others only read the stop flag. */
static void check_limits(SearchWorker *w)
{
    uint64_t nodes = atomic_load_explicit(&w->nodes, memory_order_relaxed);
    if (pool.node_limit && (pool.one_searcher ? nodes : (nodes & 255) == 0 ? pool_total_nodes() : 0) >= pool.node_limit)
        atomic_store(&pool.stop, true);
    if ((nodes & 1023) == 0 && pool.budget.hard_ms >= 0 && !atomic_load_explicit(&pool.pondering, memory_order_relaxed)
        && pool_now_ms() - atomic_load(&pool.start_ms) >= pool.budget.hard_ms)
        atomic_store(&pool.stop, true);
}

static void update_pv(SearchWorker *w, int ply, Move m)
{
    w->pv[ply][0] = m;
    int n = w->pv_length[ply + 1];
    memcpy(&w->pv[ply][1], w->pv[ply + 1], (size_t)n * sizeof(Move));
    w->pv_length[ply] = n + 1;
}

/* Exchange values (soldier 100) in the evaluation's units. */
static inline int see_to_eval(int v) { return v * eval_soldier_value() / 100; }

/* The evaluation's units on the scale of the exchange values, the reports and time management (a
 * soldier is 100). */
static inline int centipawns(int score) { return score * 100 / eval_soldier_value(); }

/* ---- Search ---- */

static Position *worker_pos(SearchWorker *w) { return &w->game.pos; }

/* make/unmake with the net's accumulator stack kept beside them (only a branch when the net is off). */
static inline void do_make(SearchWorker *w, Position *pos, Move m, StateInfo *st)
{
    position_make(pos, m, st);
    if (w->use_nnue)
        nnue_push(&w->nnue, pos);
}

static inline void do_unmake(SearchWorker *w, Position *pos)
{
    position_unmake(pos);
    if (w->use_nnue)
        nnue_pop(&w->nnue);
}

static inline int evaluate(SearchWorker *w, const Position *pos)
{
    return w->use_nnue ? eval_evaluate_nnue(pos, &w->nnue) : eval_evaluate(pos);
}

static SearchStack *stack_at(SearchWorker *w, int ply) { return &w->search_stack[ply + SEARCH_STACK_OFFSET]; }

/* Records the move about to be made from this ply, for the ordering of the nodes below. */
static void stack_record(SearchWorker *w, SearchStack *ss, const Position *pos, Move m)
{
    Piece pc = pos->board[move_from(m)];
    ss->move = m;
    ss->moved_piece = pc;
    ss->continuation =
        move_is_pass(m) ? continuation_sentinel(&w->ordering) : &w->ordering.continuation[pc][move_to(m)];
}

/* What the move ordering needs of the path to the node of `ss`. */
static HistoryContext history_context(const SearchStack *ss)
{
    return (HistoryContext){
        {ss[-1].continuation, ss[-2].continuation, ss[-4].continuation}, ss[-1].moved_piece, move_to(ss[-1].move)};
}

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
        return evaluate(w, pos);

    /* In check (or in bikjang) every move is searched; checks answered by checks could otherwise go
     * on without end, so deep in quiescence such nodes are cut off. */
    bool full_width = pos->st->checkers || pos->st->bikjang;
    if (full_width && qply >= QS_FULL_WIDTH_PLIES)
        return referee_optional_end(pos, ply, &v) ? verdict_score(&v, ply) : evaluate(w, pos);

    /* The table: outside PV nodes a stored bound that decides ends the node; its move is tried first
     * and its evaluation saves one. Entries from here are stored at depth 0, which no main-search
     * node takes for its own. */
    bool pv_node = beta - alpha > 1;
    uint64_t key = position_key(pos);
    TTData tt;
    bool tt_hit = tt_probe(key, &tt);
    int tt_score = tt_hit ? tt_score_from(tt.score, ply) : VALUE_NONE;
    if (tt_hit && !pv_node && tt_bound_decides(tt.bound, tt_score, alpha, beta))
        return tt_score;
    int original_alpha = alpha, static_eval = VALUE_NONE;
    Move best_move = MOVE_NONE;
    int best = -VALUE_INFINITE, futility_base = -VALUE_INFINITE;
    if (!full_width) {
        best = static_eval = tt_hit && tt.eval != VALUE_NONE ? tt.eval : evaluate(w, pos);
        /* A stored score that bounds the position on the right side is a better stand pat. */
        if (tt_hit && abs(tt_score) < VALUE_MATE_BOUND && (tt.bound & (tt_score > best ? BOUND_LOWER : BOUND_UPPER)))
            best = tt_score;
        futility_base = best + QS_FUTILITY_MARGIN;
        if (pos->st->pass) {
            /* Passing back ends the game here and now. */
            StateInfo st;
            Move pass = make_move(pos->general[pos->side], pos->general[pos->side]);
            do_make(w, pos, pass, &st);
            referee_immediate_end(pos, &v);
            int score = -verdict_score(&v, ply + 1);
            do_unmake(w, pos);
            if (score > best)
                best = score;
        }
        if (best >= beta) {
            if (!tt_hit)
                tt_store(key, MOVE_NONE, tt_score_to(best, ply), static_eval, 0, BOUND_LOWER);
            return best;
        }
        if (qply >= w->qsearch_ply_limit)
            return best;
        if (best > alpha)
            alpha = best;
    }

    /* Outside check, only the captures that do not lose material. */
    SearchStack *ss = stack_at(w, ply);
    HistoryContext history = history_context(ss);
    MovePicker mp;
    picker_init_qsearch(&mp, pos, &w->ordering, tt_hit ? tt.move : MOVE_NONE, &history);
    int legal = 0;
    for (Move m; (m = picker_next(&mp)) != MOVE_NONE;) {
        if (!movegen_is_legal(pos, m))
            continue;
        legal++;
        /* A capture that cannot bring the score near alpha even with the victim's whole value, and
         * does not check, is not worth a node (nor a make). */
        if (!full_width && best > -VALUE_MATE_BOUND) {
            int futility_value = futility_base + see_to_eval(see_value[piece_type(pos->board[move_to(m)])]);
            if (futility_value <= alpha && !position_gives_check(pos, m)) {
                if (futility_value > best)
                    best = futility_value;
                continue;
            }
        }
        tt_prefetch(position_key_after(pos, m));
        stack_record(w, ss, pos, m);
        do_make(w, pos, m, &w->stack[ply]);
        int score = -qsearch(w, -beta, -alpha, ply + 1, qply + 1);
        do_unmake(w, pos);
        if (pool_stopped())
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                update_pv(w, ply, m);
                if (score >= beta)
                    break;
            }
        }
    }
    if (full_width && legal == 0)
        return mated_in(ply);
    Bound bound = best >= beta ? BOUND_LOWER : pv_node && best > original_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(key, best_move, tt_score_to(best, ply), static_eval, 0, bound);
    return best;
}

/* ProbCut: a capture whose exchange alone beats beta by a margin, confirmed by quiescence and then by
 * a reduced search, lets a non-PV node stop early. Returns the bound found, or VALUE_NONE. */
static int probcut(SearchWorker *w, int beta, int depth, int ply, int static_eval, bool improving, bool cut_node);

static int search(SearchWorker *w, int alpha, int beta, int depth, int ply, bool cut_node)
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
    if (pool_stopped() && !root)
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
            return evaluate(w, pos);
        /* Mate distance pruning. */
        alpha = alpha > mated_in(ply) ? alpha : mated_in(ply);
        beta = beta < mate_in(ply + 1) ? beta : mate_in(ply + 1);
        if (alpha >= beta)
            return alpha;
    }

    bool in_check = st->checkers != 0;
    SearchStack *ss = stack_at(w, ply);
    Move excluded = ss->excluded;
    ss[1].excluded = MOVE_NONE;
    ss[1].double_extensions = ss->double_extensions;
    ss[2].cutoff_count = 0;
    HistoryContext history = history_context(ss);
    uint64_t key = position_key(pos);
    TTData tt;
    bool tt_hit = !excluded && tt_probe(key, &tt);
    Move tt_move = tt_hit ? tt.move : MOVE_NONE;
    int tt_score = tt_hit ? tt_score_from(tt.score, ply) : VALUE_NONE;
    if (root && w->pv_index < w->root_count)
        tt_move = w->roots[w->pv_index].move;
    if (tt_hit && !pv_node && tt.depth >= depth && tt_bound_decides(tt.bound, tt_score, alpha, beta)) {
        /* The table move would have cut off here: the histories learn it as if it had. */
        if (tt_score >= beta && tt_move != MOVE_NONE && movegen_contains_legal(pos, tt_move))
            ordering_update_table_cutoff(&w->ordering, pos, &history, ply, depth, tt_move);
        return tt_score;
    }

    /* The static evaluation (the table keeps it); a singular-extension search has its node's. */
    int static_eval = VALUE_NONE;
    if (excluded)
        static_eval = ss->static_eval;
    else if (!in_check)
        static_eval = tt_hit && tt.eval != VALUE_NONE ? tt.eval : evaluate(w, pos);
    ss->static_eval = static_eval;
    /* Improving: the side to move stands better than two plies ago (four, when it was in check then). */
    int earlier = ss[-2].static_eval != VALUE_NONE ? ss[-2].static_eval : ss[-4].static_eval;
    bool improving = !in_check && (earlier == VALUE_NONE || static_eval > earlier);

    /* Without a table move, a deep node is searched a ply shallower first (internal iterative
     * reduction): its move ordering is poor anyway. */
    if (!root && tt_move == MOVE_NONE && depth >= IIR_MIN_DEPTH)
        depth--;
    bool quiet_node = !in_check && !st->bikjang && !pv_node && !excluded;

    /* Razoring: far below alpha, only a capture could help, which quiescence sees. */
    if (quiet_node && depth <= RAZOR_DEPTH && static_eval < alpha - RAZOR_BASE - RAZOR_MARGIN * depth * depth) {
        int score = qsearch(w, alpha - 1, alpha, ply, 0);
        if (score < alpha && abs(score) < VALUE_MATE_BOUND)
            return score;
    }

    /* Reverse futility: far above beta at low depth, by a margin that shrinks when improving. */
    if (quiet_node && depth <= RFP_DEPTH && static_eval - RFP_MARGIN * (depth - improving) >= beta
        && abs(beta) < VALUE_MATE_BOUND && abs(static_eval) < VALUE_MATE_BOUND)
        return static_eval;

    /* Null move: the pass is a real Janggi move, so passing and failing high is a true lower bound
     * (searched shallower). Not right after a pass, where passing back ends the game. */
    if (quiet_node && depth >= NULL_MIN_DEPTH && static_eval >= beta && !st->pass && abs(beta) < VALUE_MATE_BOUND) {
        int r = NULL_BASE_REDUCTION + depth / NULL_DEPTH_DIVISOR
                + ((static_eval - beta) / NULL_EVAL_DIVISOR < 3 ? (static_eval - beta) / NULL_EVAL_DIVISOR : 3);
        Move pass = make_move(pos->general[pos->side], pos->general[pos->side]);
        stack_record(w, ss, pos, pass);
        do_make(w, pos, pass, &w->stack[ply]);
        int score = -search(w, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
        do_unmake(w, pos);
        if (pool_stopped())
            return 0;
        if (score >= beta)
            return score >= VALUE_MATE_BOUND ? beta : score;
    }

    if (quiet_node && depth >= PROBCUT_MIN_DEPTH && abs(beta) < VALUE_MATE_BOUND) {
        int score = probcut(w, beta, depth, ply, static_eval, improving, cut_node);
        if (score != VALUE_NONE)
            return score;
    }

    /* The table move is tried before any generation: when it cuts off, nothing else is generated. The
     * root keeps to its own list of moves. */
    MovePicker mp;
    if (root) {
        Move root_moves[MAX_MOVES];
        int root_moves_count = 0;
        for (int i = w->pv_index; i < w->root_count; i++)
            root_moves[root_moves_count++] = w->roots[i].move;
        picker_init_listed(&mp, pos, &w->ordering, root_moves, root_moves_count, tt_move, ply, &history);
    } else {
        picker_init_main(&mp, pos, &w->ordering, tt_move, depth, ply, &history);
        tt_move = mp.tt_move; /* MOVE_NONE unless legal here */
    }

    int best = -VALUE_INFINITE, legal = 0;
    Move best_move = MOVE_NONE;
    Move quiets[MAX_MOVES], captures[MAX_MOVES];
    int quiet_count = 0, capture_count = 0;
    int original_alpha = alpha;
    int lmp_count = (LMP_BASE + depth * depth) * (pv_node ? 2 : 1) / (improving ? 1 : 2);
    for (Move m; (m = picker_next(&mp)) != MOVE_NONE;) {
        if (m == excluded)
            continue;
        if (!root && m != tt_move && !movegen_is_legal(pos, m))
            continue;
        legal++;
        bool capture = !move_is_pass(m) && pos->board[move_to(m)];
        bool quiet = !capture;
        bool bad_capture = mp.kind == PICK_BAD_CAPTURE;
        QuietHistory quiet_history = quiet ? picker_quiet_history(&mp, m) : (QuietHistory){0, 0};

        /* Late quiet moves at low depth are skipped: beyond a move count that grows with depth (late
         * move pruning, which cannot become false for a later quiet move, so the picker skips the
         * rest), far below alpha (futility), or when the continuation histories condemn the move.
         * Futility and history spare a check, and the rule below a losing capture that checks: a
         * sacrifice with check is how many Janggi attacks begin, and it shows only deeper. */
        if (!root && !in_check && quiet && best > -VALUE_MATE_BOUND && legal > 1) {
            if (depth <= LMP_DEPTH && legal > lmp_count) {
                mp.skip_quiets = true;
                continue;
            }
            if (((!pv_node && depth <= FUTILITY_DEPTH && static_eval + FUTILITY_MARGIN * depth <= alpha)
                 || (depth <= HISTORY_PRUNE_DEPTH && quiet_history.continuation < -HISTORY_PRUNE_MARGIN * depth))
                && !position_gives_check(pos, m))
                continue;
        }
        /* Captures that lose material at low depth. */
        if (!root && !in_check && bad_capture && !pv_node && depth <= SEE_PRUNE_DEPTH && best > -VALUE_MATE_BOUND
            && legal > 1 && !position_gives_check(pos, m))
            continue;

        tt_prefetch(position_key_after(pos, m)); /* its bucket is in cache by the child's probe */

        /* Singular extension: when every other move fails well below the table move's score, the
         * table move is the only good one and is searched deeper. When even the others beat beta,
         * the node is a cut node several times over (multi-cut). */
        int extension = 0;
        if (!root && m == tt_move && depth >= SE_MIN_DEPTH && !excluded && ply < 2 * w->root_depth
            && (tt.bound & BOUND_LOWER) && tt.depth >= depth - SE_TT_DEPTH_SLACK && abs(tt_score) < VALUE_MATE_BOUND) {
            int singular_beta = tt_score - SE_MARGIN * depth;
            ss->excluded = m;
            int score = search(w, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
            ss->excluded = MOVE_NONE;
            if (pool_stopped())
                return 0;
            if (score < singular_beta) {
                extension = 1;
                if (!pv_node && score < singular_beta - SE_DOUBLE_MARGIN && ss->double_extensions < SE_DOUBLE_LIMIT)
                    extension = 2;
            } else if (singular_beta >= beta) {
                return singular_beta;
            } else if (tt_score >= beta) {
                extension = -1;
            }
        }

        ss[1].double_extensions = ss->double_extensions + (extension == 2);
        stack_record(w, ss, pos, m);
        uint64_t nodes_before = root ? atomic_load_explicit(&w->nodes, memory_order_relaxed) : 0;
        do_make(w, pos, m, &w->stack[ply]);
        bool gives_check = pos->st->checkers != 0;
        if (extension == 0 && gives_check && ply < 2 * w->root_depth) {
            /* Only checks that do not just give material away are extended. */
            do_unmake(w, pos);
            extension = see(pos, m) >= 0;
            do_make(w, pos, m, &w->stack[ply]);
        }
        int new_depth = depth - 1 + extension;
        int score;
        if (legal == 1) {
            score = -search(w, -beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node);
        } else {
            int r = 0, index = legal - 1;
            bool reducible = !in_check && !gives_check && index >= LMR_MIN_MOVES;
            /* Quiet moves are reduced by the table below. A capture keeps its full depth, since a
             * sacrifice shows its point only deeper, except a losing one in a non-PV node, which is
             * first searched a ply shallower (and again in full if it beats alpha). */
            if (reducible && bad_capture && !pv_node && depth >= BAD_CAPTURE_LMR_DEPTH)
                r = 1;
            if (reducible && quiet && depth >= 2) {
                r = reductions[depth < 64 ? depth : 63][index < 64 ? index : 63];
                if (pv_node)
                    r--;
                if (!improving)
                    r++;
                if (cut_node)
                    r += LMR_CUT_NODE;
                if (is_killer(&w->ordering, ply, m))
                    r--;
                r -= quiet_history.stat_score / LMR_HISTORY_DIVISOR;
                /* Replies a ply down have often cut off under this node and its siblings: this node
                 * is likely to fail low, so its late moves need less depth. */
                if (ss[1].cutoff_count > LMR_CUTOFF_COUNT)
                    r++;
                r = r < 0 ? 0 : r > new_depth - 1 ? new_depth - 1 : r;
            }
            score = -search(w, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (score > alpha && r > 0)
                score = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            if (score > alpha && score < beta)
                score = -search(w, -beta, -alpha, new_depth, ply + 1, false);
        }
        do_unmake(w, pos);
        if (pool_stopped())
            return best > -VALUE_INFINITE ? best : 0;

        if (root) {
            RootMove *rm = NULL;
            for (int k = w->pv_index; k < w->root_count; k++)
                if (w->roots[k].move == m)
                    rm = &w->roots[k];
            rm->nodes += atomic_load_explicit(&w->nodes, memory_order_relaxed) - nodes_before;
            if (legal == 1 || score > alpha) {
                if (legal > 1 && w->pv_index == 0 && depth > 1)
                    w->best_move_changes++; /* depth 1 only sorts the moves */
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
                    ss->cutoff_count++;
                    ordering_update_cutoff(&w->ordering, pos, &history, ply, depth, m, quiets, quiet_count, captures,
                                           capture_count);
                    break;
                }
            }
        }
        if (quiet)
            quiets[quiet_count++] = m;
        else
            captures[capture_count++] = m;
    }

    if (legal == 0) {
        if (excluded)
            return alpha;                /* the excluded move is the only one: it is singular */
        return root ? 0 : mated_in(ply); /* without check the pass is legal, so this is mate */
    }

    Bound bound = best >= beta ? BOUND_LOWER : best > original_alpha ? BOUND_EXACT : BOUND_UPPER;
    if (!excluded && !(root && w->pv_index > 0))
        tt_store(key, best_move, tt_score_to(best, ply), static_eval, depth, bound);
    return best;
}

static int probcut(SearchWorker *w, int beta, int depth, int ply, int static_eval, bool improving, bool cut_node)
{
    Position *pos = worker_pos(w);
    int probcut_beta = beta + PROBCUT_MARGIN - PROBCUT_IMPROVING * improving;
    uint64_t key = position_key(pos);
    TTData tt;
    if (tt_probe(key, &tt) && tt.depth >= depth - 3 && tt_score_from(tt.score, ply) < probcut_beta)
        return VALUE_NONE;
    int see_threshold = centipawns(probcut_beta - static_eval);
    SearchStack *ss = stack_at(w, ply);
    HistoryContext history = history_context(ss);
    MovePicker mp;
    picker_init_qsearch(&mp, pos, &w->ordering, MOVE_NONE, &history);
    for (Move m; (m = picker_next(&mp)) != MOVE_NONE;) {
        if (see(pos, m) < see_threshold || !movegen_is_legal(pos, m))
            continue;
        stack_record(w, ss, pos, m);
        do_make(w, pos, m, &w->stack[ply]);
        int score = -qsearch(w, -probcut_beta, -probcut_beta + 1, ply + 1, 0);
        if (score >= probcut_beta)
            score = -search(w, -probcut_beta, -probcut_beta + 1, depth - PROBCUT_REDUCTION, ply + 1, !cut_node);
        do_unmake(w, pos);
        if (pool_stopped())
            return VALUE_NONE;
        if (score >= probcut_beta) {
            tt_store(key, m, tt_score_to(score, ply), static_eval, depth - 3, BOUND_LOWER);
            return score;
        }
    }
    return VALUE_NONE;
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
        info.score = centipawns(score);
    }
    info.bound = bound;
    info.nodes = pool_total_nodes();
    info.time_ms = pool_now_ms() - atomic_load(&pool.start_ms);
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

/* The best root move's share of the nodes of the iteration just completed (0 when none were counted). */
static double root_node_share(const SearchWorker *w)
{
    uint64_t total = 0;
    for (int i = 0; i < w->root_count; i++)
        total += w->roots[i].nodes;
    return total ? (double)w->roots[0].nodes / (double)total : 0.0;
}

/* A strength level, after each completed iteration: keeps its candidates (the best lines, best first),
 * and after the first one lowers the node limit to the level's budget. */
static void keep_skill_candidates(SearchWorker *w, int lines)
{
    w->skill_candidate_count = lines < SKILL_CANDIDATES_MAX ? lines : SKILL_CANDIDATES_MAX;
    for (int i = 0; i < w->skill_candidate_count; i++) {
        const RootMove *rm = &w->roots[i];
        w->skill_candidates[i] = (SkillCandidate){rm->move, rm->pv_length > 1 ? rm->pv[1] : MOVE_NONE, rm->score};
    }
    if (pool.node_limit == 0 || pool.skill.nodes < pool.node_limit)
        pool.node_limit = pool.skill.nodes;
}

static void iterative_deepening(SearchWorker *w)
{
    int max_depth = pool.limits.depth > 0 && pool.limits.depth < MAX_PLY - 8 ? pool.limits.depth : MAX_PLY - 8;
    int shown = pool.limits.multipv < 1 ? 1 : pool.limits.multipv; /* lines reported */
    int multipv = shown;                                           /* lines searched */
    bool skill = pool.limits.limit_strength;
    if (skill) {
        multipv = multipv > pool.skill.candidates ? multipv : pool.skill.candidates;
        max_depth = max_depth < pool.skill.depth ? max_depth : pool.skill.depth;
    }
    if (multipv > w->root_count)
        multipv = w->root_count;
    Move last_best = MOVE_NONE;
    int stable_iterations = 0;
    double best_move_changes = 0.0; /* halved after each iteration: recent changes weigh most */
    int previous_iteration_score = TM_NO_SCORE;
    for (int depth = 1 + (w->id & 1); depth <= max_depth; depth++) {
        w->root_depth = depth;
        for (int i = 0; i < w->root_count; i++) {
            w->roots[i].previous_score = w->roots[i].score;
            w->roots[i].score = -VALUE_INFINITE;
            w->roots[i].nodes = 0;
        }
        w->best_move_changes = 0;
        w->seldepth = 0;
        for (w->pv_index = 0; w->pv_index < multipv; w->pv_index++) {
            int previous = w->roots[w->pv_index].previous_score;
            int delta = ASPIRATION_WINDOW;
            int alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            if (depth >= 5 && abs(previous) < VALUE_MATE_BOUND) {
                alpha = previous - delta;
                beta = previous + delta;
            }
            for (;;) {
                int score = search(w, alpha, beta, depth, 0, false);
                sort_roots(&w->roots[w->pv_index], w->root_count - w->pv_index);
                if (pool_stopped())
                    break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -VALUE_INFINITE ? score - delta : -VALUE_INFINITE;
                    if (w->id == 0 && w->pv_index < shown && pool_now_ms() - atomic_load(&pool.start_ms) > 3000)
                        report_line(w, depth, w->pv_index, BOUND_UPPER);
                } else if (score >= beta) {
                    beta = score + delta < VALUE_INFINITE ? score + delta : VALUE_INFINITE;
                    if (w->id == 0 && w->pv_index < shown && pool_now_ms() - atomic_load(&pool.start_ms) > 3000)
                        report_line(w, depth, w->pv_index, BOUND_LOWER);
                } else {
                    break;
                }
                delta += delta / 2;
            }
            sort_roots(w->roots, w->pv_index + 1);
            if (pool_stopped())
                break;
        }
        if (pool_stopped())
            break;
        /* The lines are reported together once all are searched, in their final order: a later line
         * that scores above an earlier one moves up, and reporting each as it finished would name
         * that move twice. */
        if (w->id == 0)
            for (int i = 0; i < shown; i++)
                report_line(w, depth, i, BOUND_EXACT);
        w->completed_depth = depth;
        w->completed_score = w->roots[0].score;
        if (w->id != 0)
            continue;
        if (skill)
            keep_skill_candidates(w, multipv);

        /* Thread 0 decides whether another iteration is worth it. */
        int best_score = w->roots[0].score;
        if (pool.limits.mate > 0 && best_score >= VALUE_MATE_BOUND && VALUE_MATE - best_score <= 2 * pool.limits.mate)
            break;
        stable_iterations = w->roots[0].move == last_best ? stable_iterations + 1 : 0;
        last_best = w->roots[0].move;
        best_move_changes = best_move_changes / 2 + w->best_move_changes;
        IterationStats stats = {
            .best_move_changes = best_move_changes,
            .stable_iterations = stable_iterations,
            .score = centipawns(best_score),
            .previous_iteration_score = previous_iteration_score,
            .previous_search_score =
                pool.previous_search_score == VALUE_NONE ? TM_NO_SCORE : centipawns(pool.previous_search_score),
            .best_move_node_share = root_node_share(w),
        };
        previous_iteration_score = stats.score;
        if (pool.budget.soft_ms >= 0 && !atomic_load(&pool.pondering)
            && !tm_should_start_iteration(&pool.budget, pool_now_ms() - atomic_load(&pool.start_ms), &stats))
            break;
        if (w->root_count == 1 && pool.budget.soft_ms >= 0 && depth >= 4 && !atomic_load(&pool.pondering))
            break; /* a forced move */
    }
}

/* The thread's copy of the game, its counters and killers, and its root moves (those of
 * `searchmoves` only, when given). */
static void prepare_worker(SearchWorker *w)
{
    char err[16];
    game_free(&w->game);
    game_start(&w->game, pool.game.start_fen, pool.game.pos.rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err);
    for (int i = 0; i < pool.game.length; i++)
        game_play(&w->game, pool.game.moves[i]);
    atomic_store_explicit(&w->nodes, 0, memory_order_relaxed);
    w->use_nnue = eval_use_nnue() && nnue_current();
    w->qsearch_ply_limit = pool.limits.limit_strength ? pool.skill.qsearch_plies : SKILL_QSEARCH_FULL;
    if (w->use_nnue)
        nnue_stack_reset(&w->nnue, nnue_current());
    w->seldepth = w->completed_depth = 0;
    w->skill_candidate_count = 0;
    ordering_new_search(&w->ordering);
    for (size_t i = 0; i < sizeof w->search_stack / sizeof w->search_stack[0]; i++)
        w->search_stack[i] =
            (SearchStack){MOVE_NONE, NO_PIECE, continuation_sentinel(&w->ordering), VALUE_NONE, MOVE_NONE, 0, 0};
    MoveList legal;
    movegen_legal(&w->game.pos, &legal);
    w->root_count = 0;
    for (int i = 0; i < legal.count; i++) {
        bool allowed = pool.limits.searchmove_count == 0;
        for (int k = 0; k < pool.limits.searchmove_count && !allowed; k++)
            allowed = pool.limits.searchmoves[k] == legal.moves[i];
        if (allowed)
            w->roots[w->root_count++] =
                (RootMove){legal.moves[i], -VALUE_INFINITE, -VALUE_INFINITE, 1, {legal.moves[i]}, 0};
    }
}

void search_worker_run(SearchWorker *w)
{
    if (pool.limits.limit_strength && w->id != 0) {
        /* A strength level searches on thread 0 alone, so that its seed alone decides its move. */
        atomic_store_explicit(&w->nodes, 0, memory_order_relaxed);
        w->root_count = 0;
        return;
    }
    prepare_worker(w);
    if (w->root_count > 0)
        iterative_deepening(w);
}

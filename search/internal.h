/* What the search's own files share and nothing else includes: a search thread's state (SearchWorker)
 * and the entry points the thread pool calls. Everything a thread changes while it searches lives in
 * its SearchWorker, so the threads never lock or share a cache line while searching; the pool
 * (threads.h) only creates the workers, starts them and collects their result. */
#ifndef JANGGUN_SEARCH_INTERNAL_H
#define JANGGUN_SEARCH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "../eval/nnue.h"
#include "movepick.h"
#include "search.h"

typedef struct {
    Move move;
    int score, previous_score;
    int pv_length;
    Move pv[MAX_PLY];
    uint64_t nodes; /* spent under this move in the current iteration, all windows; for time management */
} RootMove;

/* One ply of the path from the root, for move ordering: the move made at this ply and what the
 * continuation histories and the counter move need of it. */
typedef struct {
    Move move;                    /* MOVE_NONE before the root */
    Piece moved_piece;            /* NO_PIECE before the root */
    PieceToHistory *continuation; /* selected by (moved_piece, destination); the sentinel for a pass or no move */
    int static_eval;              /* static evaluation; VALUE_NONE in check and before the root */
    Move excluded;                /* the move a singular-extension search leaves out */
    int double_extensions;        /* double extensions on the path to this ply */
    int cutoff_count;             /* beta cutoffs at this ply since the node two plies up began (ply 1: the search) */
} SearchStack;

/* Entries before the root, so that a node can look 4 plies back. */
enum { SEARCH_STACK_OFFSET = 4 };

typedef struct SearchWorker {
    int id; /* thread 0 keeps the clock, reports and decides the move */
    uint64_t started_generation;
    pthread_t thread;
    Game game; /* this thread's copy of the game, with its history */
    StateInfo stack[MAX_PLY + 8];
    _Atomic uint64_t nodes;
    int seldepth;
    int completed_depth;
    int completed_score;   /* the best score of the last completed iteration */
    int best_move_changes; /* this iteration, first line: times a root move other than the first became best */
    RootMove roots[MAX_MOVES];
    int root_count;
    int pv_index;                                          /* MultiPV line being searched */
    SkillCandidate skill_candidates[SKILL_CANDIDATES_MAX]; /* a strength level's, last completed iteration */
    int skill_candidate_count;
    OrderingStats ordering; /* some MB, so the worker is on the heap (threads.c) */
    int root_depth;         /* depth of the iteration being searched */
    /* Ply p at index p + SEARCH_STACK_OFFSET; a node clears the cutoff count two plies below it. */
    SearchStack search_stack[SEARCH_STACK_OFFSET + MAX_PLY + 3];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];
    bool use_nnue;         /* "Use NNUE" when this search started */
    int qsearch_ply_limit; /* a strength level's (SkillParams.qsearch_plies); SKILL_QSEARCH_FULL otherwise */
    NnueStack nnue;        /* the net's accumulators, one per ply from the root (when use_nnue) */
} SearchWorker;

/* A move per ply from the root, and the qsearch pass on top. */
_Static_assert(NNUE_STACK_SIZE > MAX_PLY + 2, "the accumulator stack holds a path from the root");

/* search.c: fills the tables that depend on the tunables; once, before the first search. */
void search_tables_init(void);

/* search.c: one thread's search of the pool's game under the pool's limits, from setting up its
 * copy of the game to its last iteration. Its result is in w->roots (best first). */
void search_worker_run(SearchWorker *w);

#endif

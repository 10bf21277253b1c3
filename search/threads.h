/* The pool of search threads (Lazy SMP) and the state they share. The threads are started once (and
 * again when the Threads option changes) and sleep between searches; search_start wakes them all on
 * the same root and returns at once, so the controlling thread (the protocol) keeps reading its input.
 * They share nothing but the transposition table and the read-mostly fields below. Thread 0 waits for
 * the others and reports the move. For the search's own files only (see internal.h). */
#ifndef JANGGUN_SEARCH_THREADS_H
#define JANGGUN_SEARCH_THREADS_H

#include <pthread.h>
#include <stdatomic.h>

#include "internal.h"

typedef struct {
    /* The pool's own synchronisation (threads.c only). */
    pthread_mutex_t lock;
    pthread_cond_t wake; /* workers wait here for a search */
    pthread_cond_t idle; /* search_wait waits here */
    uint64_t generation; /* bumped for each search; workers start when it changes */
    int running;         /* workers still searching */
    bool searching;      /* from search_start until bestmove was reported */
    bool quit;
    bool initialised;

    /* Written by the controlling thread between searches, read by the workers during one. */
    int thread_count;
    SearchWorker *workers[MAX_THREADS];
    Game game;
    SearchLimits limits;
    SearchReport report;
    TimeBudget budget;
    SkillParams skill; /* the strength level's, when limits.limit_strength */
    bool one_searcher; /* thread 0 searches alone (one thread, or a strength level): it counts its own nodes */
    /* Time management compares a search's score with the last search's in the same game: thread 0's
     * last completed iteration, kept by finish_search unless the search was a ponder miss. Forgotten by
     * search_clear (ucinewgame, Clear Hash) and by a search_start whose game does not continue that one
     * with the same side to move (see continues_scored_game in threads.c). */
    int previous_search_score; /* VALUE_NONE when none */
    int previous_search_ply;   /* the game length it was searched at */

    /* Changed during a search. */
    uint64_t node_limit; /* 0 = none; limits.nodes, lowered to a strength level's budget by thread 0 after
                          * its first iteration; read and written by thread 0 only once the search runs */
    _Atomic bool stop;
    _Atomic bool pondering;
    _Atomic int64_t start_ms; /* reset by ponderhit, read by the workers */
} SearchPool;

extern SearchPool pool;

static inline bool pool_stopped(void) { return atomic_load_explicit(&pool.stop, memory_order_relaxed); }

/* The monotonic clock in milliseconds. */
int64_t pool_now_ms(void);

/* Nodes searched by all threads in the current (or last) search. */
uint64_t pool_total_nodes(void);

#endif

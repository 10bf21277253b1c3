/* The thread pool: worker threads, search start, stop and wait, and the search's lifecycle (init,
 * shutdown, hash size, new game). */
#define _POSIX_C_SOURCE 200809L
#include "threads.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../eval/eval.h"

SearchPool pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
                   .wake = PTHREAD_COND_INITIALIZER,
                   .idle = PTHREAD_COND_INITIALIZER,
                   .previous_search_score = VALUE_NONE};

int64_t pool_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t pool_total_nodes(void)
{
    uint64_t n = 0;
    for (int i = 0; i < pool.thread_count; i++)
        n += atomic_load_explicit(&pool.workers[i]->nodes, memory_order_relaxed);
    return n;
}

/* Thread 0, after its own search: waits for the helpers, and while pondering or in an infinite
 * search for the stop; then reports. */
static void finish_search(SearchWorker *w)
{
    while (!pool_stopped() && (atomic_load(&pool.pondering) || pool.limits.infinite)) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    atomic_store(&pool.stop, true);
    pthread_mutex_lock(&pool.lock);
    while (pool.running > 1)
        pthread_cond_wait(&pool.idle, &pool.lock);
    pthread_mutex_unlock(&pool.lock);

    /* Still pondering at the stop: a ponder miss, whose position the game never reached. */
    if (w->completed_depth > 0 && !atomic_load(&pool.pondering)) {
        pool.previous_search_score = w->completed_score;
        pool.previous_search_ply = pool.game.length;
    }

    Move best = MOVE_NONE, ponder = MOVE_NONE;
    if (pool.limits.limit_strength && w->skill_candidate_count > 0) {
        int error = pool.skill.error_cp * eval_soldier_value() / 100;
        uint64_t seed = skill_seed(pool.limits.skill_seed, pool.game.pos.st->key);
        const SkillCandidate *c =
            &w->skill_candidates[skill_pick(w->skill_candidates, w->skill_candidate_count, error, seed)];
        best = c->move;
        ponder = c->ponder;
    } else if (w->root_count > 0) {
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

        search_worker_run(w);
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
        /* Aligned for the network's accumulators (64-byte aligned SIMD loads). */
        SearchWorker *w = aligned_alloc(_Alignof(SearchWorker), sizeof *w);
        if (w) {
            memset(w, 0, sizeof *w);
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
    search_tables_init();
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
    pool.previous_search_score = VALUE_NONE;
    tt_clear();
    for (int i = 0; i < pool.thread_count; i++)
        ordering_clear(&pool.workers[i]->ordering);
}

/* Whether `game` continues the game whose score is remembered with the same side to move: the same start
 * and rules, the same moves up to the ply the score was searched at, and an even number of plies since.
 * Only the moves up to that ply are compared, so the score survives a ponder miss (the pondered move
 * replaced by the one played). */
static bool continues_scored_game(const Game *game)
{
    int ply = pool.previous_search_ply;
    if (pool.previous_search_score == VALUE_NONE || ply > pool.game.length || ply > game->length
        || (game->length - ply) % 2 != 0 || game->pos.rules != pool.game.pos.rules
        || strcmp(game->start_fen, pool.game.start_fen) != 0)
        return false;
    for (int i = 0; i < ply; i++)
        if (game->moves[i] != pool.game.moves[i])
            return false;
    return true;
}

void search_start(const Game *game, const SearchLimits *limits, const SearchReport *report)
{
    search_wait();
    if (!continues_scored_game(game))
        pool.previous_search_score = VALUE_NONE;
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
    pool.node_limit = limits->nodes;
    pool.one_searcher = pool.thread_count == 1 || limits->limit_strength;
    if (limits->limit_strength)
        pool.skill = skill_params(limits->skill_level);
    /* No count of the last search may show in this one's, whichever thread starts first. */
    for (int i = 0; i < pool.thread_count; i++)
        atomic_store_explicit(&pool.workers[i]->nodes, 0, memory_order_relaxed);
    atomic_store(&pool.stop, false);
    atomic_store(&pool.pondering, limits->ponder);
    tt_new_search();
    pthread_mutex_lock(&pool.lock);
    atomic_store(&pool.start_ms, pool_now_ms());
    pool.running = pool.thread_count;
    pool.searching = true;
    pool.generation++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
}

void search_stop(void) { atomic_store(&pool.stop, true); }

void search_ponderhit(void)
{
    atomic_store(&pool.start_ms, pool_now_ms());
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

/* Search: iterative deepening with aspiration windows, principal variation search, quiescence, a
 * shared transposition table and Lazy SMP over a pool of threads. It reports through callbacks and
 * never prints: the protocols, the analysis front end and bench all drive it through this API.
 * The referee's results are terminal nodes under the position's rule set. */
#ifndef JANGGUN_SEARCH_H
#define JANGGUN_SEARCH_H

#include "../engine/game.h"
#include "skill.h"
#include "timeman.h"
#include "tt.h"

enum { MAX_PLY = 128, MAX_THREADS = 256, MAX_MULTIPV = 64 };

typedef struct {
    int depth;      /* 0 = no depth limit */
    uint64_t nodes; /* 0 = no node limit */
    int mate;       /* look for a mate in this many moves; 0 = no */
    bool infinite;  /* search until stopped */
    bool ponder;    /* pondering: the clock starts at search_ponderhit() */
    bool use_clock; /* `clock` holds a time control (wtime/btime/movetime ...) */
    TimeControl clock;
    int multipv; /* principal variations to report, 1 or more */
    Move searchmoves[MAX_MOVES];
    int searchmove_count; /* 0 = all legal root moves */
    /* A strength level (search/skill.h). Off in a zeroed struct: full strength. When on, thread 0 alone
     * searches, within the level's nodes and depth (and the limits above), `multipv` lines are reported
     * but the level's candidates are searched, and the move is chosen among them by skill_pick. */
    bool limit_strength;
    double skill_level;  /* below 20 */
    uint64_t skill_seed; /* the Skill Seed option */
} SearchLimits;

typedef struct {
    int depth, seldepth, multipv; /* multipv is 1-based */
    int score;                    /* centipawns (a soldier is 100) from the side to move's view, when !is_mate */
    bool is_mate;
    int mate_moves; /* moves to mate, negative when being mated; 0 at a finished root */
    Bound bound;    /* BOUND_EXACT, or BOUND_LOWER / BOUND_UPPER for an aspiration fail */
    uint64_t nodes, nps;
    int64_t time_ms;
    int hashfull; /* permill */
    int pv_length;
    Move pv[MAX_PLY];
} SearchInfo;

typedef struct {
    /* An iteration's principal variation (one call per multipv line). */
    void (*info)(const SearchInfo *info, void *ctx);
    /* The search is over. best is MOVE_NONE when the root has no legal move (ponder too when none). */
    void (*bestmove)(Move best, Move ponder, void *ctx);
    void *ctx;
} SearchReport;

/* Allocates the table (16 MB) and starts one thread. Call once after engine_init() and eval_init(). */
void search_init(void);
void search_shutdown(void);

/* Between searches only. false when the request cannot be met (nothing changes then). */
bool search_set_threads(int count);
bool search_set_hash(size_t megabytes);
void search_clear(void); /* a new game: empty table and histories */

/* Starts searching the game's current position in the background and returns at once. The game is
 * copied, so the caller may change it afterwards. The report callbacks run on a search thread. */
void search_start(const Game *game, const SearchLimits *limits, const SearchReport *report);
void search_stop(void);      /* ask the running search to finish (it still reports bestmove) */
void search_ponderhit(void); /* the pondered move was played: the clock starts now */
void search_wait(void);      /* until bestmove has been reported */
bool search_is_running(void);

/* Searches the fixed bench positions to `depth` with one thread and a fresh 16 MB table; returns the
 * total nodes and sets *elapsed_ms. Deterministic. */
uint64_t search_bench(int depth, int64_t *elapsed_ms);

#endif

/* The transposition table shared by all search threads: allocated once (resized by the Hash option),
 * buckets of four 16-byte entries on one 64-byte cache line, lock-free. Each entry stores its key
 * XOR-ed with its data, so a torn write from another thread reads as a miss rather than as wrong data.
 * Mate scores are stored relative to the node (see tt_score_to / tt_score_from). */
#ifndef JANGGUN_TT_H
#define JANGGUN_TT_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/types.h"

typedef enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 } Bound;

typedef struct {
    Move move;
    int16_t score; /* node-relative; convert with tt_score_from */
    int16_t eval;
    int8_t depth;
    uint8_t bound; /* Bound */
} TTData;

/* Scores beyond +-TT_MATE_BOUND are mate scores: VALUE_MATE - plies for a win. */
enum { VALUE_MATE = 32000, VALUE_MATE_BOUND = VALUE_MATE - 1000, VALUE_INFINITE = 32001, VALUE_NONE = 32002 };

/* (Re)allocates `megabytes` MB (rounded down to a power of two number of buckets) and clears it.
 * false, with the old table kept, if the memory cannot be had. */
bool tt_resize(size_t megabytes);
void tt_clear(void);
void tt_free(void);

/* A new search: ages the entries so that old ones are replaced first. */
void tt_new_search(void);

/* True when an entry for `key` is found; fills *out. */
bool tt_probe(uint64_t key, TTData *out);
/* Asks the memory system for `key`'s bucket ahead of its probe (a hint: it never faults). */
void tt_prefetch(uint64_t key);
void tt_store(uint64_t key, Move move, int score, int eval, int depth, Bound bound);

/* Permill of the first thousand buckets' entries that belong to the current search. */
int tt_hashfull(void);

/* Mate scores are stored as distance from this node and read back as distance from the root. */
int tt_score_to(int score, int ply);
int tt_score_from(int score, int ply);

#endif

/* The transposition table. A power-of-two number of 64-byte buckets, each holding four entries of two
 * 64-bit words: (key ^ data, data). Every word is read and written with relaxed C11 atomics, so threads
 * never block and ThreadSanitizer sees no race; a torn entry (words from two different writes) fails
 * the key check and reads as a miss.
 *
 * data, from the low bit up:
 *   bits  0-15  move
 *   bits 16-31  score (int16, node-relative)
 *   bits 32-47  static eval (int16)
 *   bits 48-55  depth + 128, with depth clamped to [-127, 127]; 0 marks an empty entry
 *   bits 56-57  bound
 *   bits 58-63  generation (the search that wrote the entry, modulo 64)
 *
 * Replacement: the entry with the same key if there is one; otherwise the entry with the lowest
 * depth - 8 * age, where age is how many searches ago it was written (empty entries go first). An entry
 * of the same key is overwritten only by an exact bound, a depth + 4 greater than its own, or when it is
 * from an older search; otherwise only its move (when the new one is a move) and generation are
 * refreshed. A store without a move keeps the move of the same key. */
#define _DEFAULT_SOURCE /* posix_memalign, madvise, _SC_PHYS_PAGES under -std=c17 */

#include "tt.h"

#include <limits.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    BUCKET_ENTRIES = 4,
    GENERATION_MASK = 63,
    DEPTH_OFFSET = 128,
    DEPTH_MAX = 127,
    HASHFULL_BUCKETS = 250, /* 1000 entries */
};

static const size_t MEGABYTE = (size_t)1 << 20;
static const size_t TABLE_ALIGNMENT = (size_t)2 << 20; /* a huge page */

typedef struct {
    _Atomic uint64_t key_xor_data;
    _Atomic uint64_t data;
} TTEntry;

typedef struct {
    alignas(64) TTEntry entries[BUCKET_ENTRIES];
} TTBucket;

_Static_assert(sizeof(TTBucket) == 64, "a bucket is one cache line");

static TTBucket *table;
static size_t bucket_count;         /* a power of two, or 0 when there is no table */
static _Atomic unsigned generation; /* 0 .. 63; changed between searches only */

static inline Move data_move(uint64_t d) { return (Move)(d & 0xffff); }
static inline int data_score(uint64_t d) { return (int16_t)(uint16_t)(d >> 16); }
static inline int data_eval(uint64_t d) { return (int16_t)(uint16_t)(d >> 32); }
static inline unsigned data_depth8(uint64_t d) { return (unsigned)(d >> 48) & 0xff; }
static inline int data_depth(uint64_t d) { return (int)data_depth8(d) - DEPTH_OFFSET; }
static inline unsigned data_bound(uint64_t d) { return (unsigned)(d >> 56) & 3; }
static inline unsigned data_generation(uint64_t d) { return (unsigned)(d >> 58); }

static inline uint64_t pack(Move move, int score, int eval, int depth, unsigned bound, unsigned gen)
{
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 16 | (uint64_t)(uint16_t)(int16_t)eval << 32
           | (uint64_t)(unsigned)(depth + DEPTH_OFFSET) << 48 | (uint64_t)(bound & 3) << 56
           | (uint64_t)(gen & GENERATION_MASK) << 58;
}

static inline uint64_t with_move_and_generation(uint64_t d, Move move, unsigned gen)
{
    return (d & ~((uint64_t)0xffff | (uint64_t)GENERATION_MASK << 58)) | (uint64_t)move
           | (uint64_t)(gen & GENERATION_MASK) << 58;
}

/* How many searches ago an entry was written, modulo 64. */
static inline int age(uint64_t d, unsigned gen) { return (int)((gen - data_generation(d)) & GENERATION_MASK); }

/* The high bits of the key choose the bucket (the whole key is still checked). */
static inline TTBucket *bucket_of(uint64_t key)
{
    return &table[(size_t)(((unsigned __int128)key * bucket_count) >> 64)];
}

static inline void entry_write(TTEntry *e, uint64_t key, uint64_t data)
{
    atomic_store_explicit(&e->data, data, memory_order_relaxed);
    atomic_store_explicit(&e->key_xor_data, key ^ data, memory_order_relaxed);
}

bool tt_resize(size_t megabytes)
{
    if (megabytes == 0 || megabytes > SIZE_MAX / MEGABYTE)
        return false;
    size_t fitting = megabytes * MEGABYTE / sizeof(TTBucket);
    size_t buckets = (size_t)1 << (63 - __builtin_clzll((unsigned long long)fitting));
    size_t bytes = buckets * sizeof(TTBucket);

    /* A table larger than the machine's memory could only swap (or, under the sanitizers, abort). */
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0 && bytes / (size_t)page_size > (size_t)pages)
        return false;

    void *mem = NULL;
    if (posix_memalign(&mem, TABLE_ALIGNMENT, bytes) != 0 || !mem)
        return false;
#ifdef MADV_HUGEPAGE
    madvise(mem, bytes, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
    free(table);
    table = mem;
    bucket_count = buckets;
    tt_clear();
    return true;
}

void tt_clear(void)
{
    if (table)
        memset(table, 0, bucket_count * sizeof(TTBucket));
    atomic_store_explicit(&generation, 0, memory_order_relaxed);
}

void tt_free(void)
{
    free(table);
    table = NULL;
    bucket_count = 0;
}

void tt_new_search(void)
{
    unsigned gen = atomic_load_explicit(&generation, memory_order_relaxed);
    atomic_store_explicit(&generation, (gen + 1) & GENERATION_MASK, memory_order_relaxed);
}

void tt_prefetch(uint64_t key)
{
    if (table)
        __builtin_prefetch(bucket_of(key));
}

bool tt_probe(uint64_t key, TTData *out)
{
    if (!table)
        return false;
    TTBucket *b = bucket_of(key);
    for (int i = 0; i < BUCKET_ENTRIES; i++) {
        TTEntry *e = &b->entries[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e->key_xor_data, memory_order_relaxed);
        if ((check ^ data) == key && data_depth8(data) != 0) {
            out->move = data_move(data);
            out->score = (int16_t)data_score(data);
            out->eval = (int16_t)data_eval(data);
            out->depth = (int8_t)data_depth(data);
            out->bound = (uint8_t)data_bound(data);
            return true;
        }
    }
    return false;
}

void tt_store(uint64_t key, Move move, int score, int eval, int depth, Bound bound)
{
    if (!table)
        return;
    if (depth > DEPTH_MAX)
        depth = DEPTH_MAX;
    if (depth < -DEPTH_MAX)
        depth = -DEPTH_MAX;
    unsigned gen = atomic_load_explicit(&generation, memory_order_relaxed);
    TTBucket *b = bucket_of(key);
    TTEntry *target = NULL;
    int lowest = INT_MAX;

    for (int i = 0; i < BUCKET_ENTRIES; i++) {
        TTEntry *e = &b->entries[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e->key_xor_data, memory_order_relaxed);
        if (data_depth8(data) != 0 && (check ^ data) == key) {
            if (move == MOVE_NONE)
                move = data_move(data);
            if (bound != BOUND_EXACT && depth + 4 <= data_depth(data) && age(data, gen) == 0) {
                /* A deeper entry of this search stays; only a new best move is kept. */
                if (move != data_move(data))
                    entry_write(e, key, with_move_and_generation(data, move, gen));
                return;
            }
            entry_write(e, key, pack(move, score, eval, depth, (unsigned)bound, gen));
            return;
        }
        int value = data_depth8(data) == 0 ? INT_MIN : data_depth(data) - 8 * age(data, gen);
        if (value < lowest) {
            lowest = value;
            target = e;
        }
    }
    entry_write(target, key, pack(move, score, eval, depth, (unsigned)bound, gen));
}

int tt_hashfull(void)
{
    if (!table)
        return 0;
    unsigned gen = atomic_load_explicit(&generation, memory_order_relaxed);
    size_t buckets = bucket_count < HASHFULL_BUCKETS ? bucket_count : HASHFULL_BUCKETS;
    size_t used = 0;
    for (size_t i = 0; i < buckets; i++)
        for (int j = 0; j < BUCKET_ENTRIES; j++) {
            uint64_t data = atomic_load_explicit(&table[i].entries[j].data, memory_order_relaxed);
            used += data_depth8(data) != 0 && data_generation(data) == gen;
        }
    return (int)(used * 1000 / (buckets * BUCKET_ENTRIES));
}

int tt_score_to(int score, int ply)
{
    if (score == VALUE_NONE)
        return score;
    if (score >= VALUE_MATE_BOUND)
        return score + ply;
    if (score <= -VALUE_MATE_BOUND)
        return score - ply;
    return score;
}

int tt_score_from(int score, int ply)
{
    if (score == VALUE_NONE)
        return score;
    if (score >= VALUE_MATE_BOUND)
        return score - ply;
    if (score <= -VALUE_MATE_BOUND)
        return score + ply;
    return score;
}

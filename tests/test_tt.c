/* The transposition table: store/probe round trips of every field, mate-score conversions, the
 * replacement policy and ageing, hashfull, resizing (and a refused resize keeping the old table), and
 * four threads hammering one table (clean under ThreadSanitizer: `make test-tsan`).
 * The tests rely on one documented property of the layout: the high bits of a key choose its bucket,
 * so keys that differ only in their low bits share a bucket. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/base/base.h"
#include "../search/tt.h"

/* Keys sharing a bucket: the same high bits, different low bits. */
static uint64_t bucket_key(uint64_t bucket_bits, unsigned i) { return bucket_bits << 32 | (i + 1); }

static TTData probe_hit(uint64_t key)
{
    TTData d;
    if (!tt_probe(key, &d))
        fail_msg("key %016llx: expected a hit", (unsigned long long)key);
    return d;
}

static void assert_miss(uint64_t key)
{
    TTData d;
    if (tt_probe(key, &d))
        fail_msg("key %016llx: expected a miss, got depth %d", (unsigned long long)key, d.depth);
}

static int setup_table(void **state)
{
    (void)state;
    return tt_resize(1) ? 0 : -1;
}

static void test_round_trip(void **state)
{
    (void)state;
    tt_clear();
    assert_miss(0); /* an empty entry is no entry for key 0 */
    assert_miss(0x123456789abcdef0ULL);

    static const struct {
        uint64_t key;
        Move move;
        int score, eval, depth;
        Bound bound;
    } cases[] = {
        {0x123456789abcdef0ULL, 0x1a2b, -1234, 567, 17, BOUND_LOWER},
        {0xfedcba9876543210ULL, MOVE_NONE, VALUE_NONE, VALUE_NONE, 0, BOUND_NONE},
        {0x0f0f0f0f0f0f0f0fULL, 0xffff, VALUE_MATE - 3, -20000, 127, BOUND_EXACT},
        {0xf0f0f0f0f0f0f0f0ULL, 0x0001, -(VALUE_MATE - 8), 20000, -1, BOUND_UPPER},
        {0x8000000000000001ULL, 0x7f80, VALUE_INFINITE, -32000, -127, BOUND_EXACT},
        {0, 0x0405, 1, -1, 5, BOUND_LOWER}, /* key 0 is a key like any other once stored */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        tt_store(cases[i].key, cases[i].move, cases[i].score, cases[i].eval, cases[i].depth, cases[i].bound);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TTData d = probe_hit(cases[i].key);
        assert_int_equal(d.move, cases[i].move);
        assert_int_equal(d.score, cases[i].score);
        assert_int_equal(d.eval, cases[i].eval);
        assert_int_equal(d.depth, cases[i].depth);
        assert_int_equal(d.bound, cases[i].bound);
    }
    /* A key differing in one bit is a miss. */
    assert_miss(0x123456789abcdef1ULL);
    assert_miss(0x923456789abcdef0ULL);

    /* Depths beyond the 8-bit field are clamped, not wrapped. */
    tt_store(0x1111, 0x0203, 10, 20, 300, BOUND_EXACT);
    assert_int_equal(probe_hit(0x1111).depth, 127);
    tt_store(0x2222, 0x0203, 10, 20, -300, BOUND_EXACT);
    assert_int_equal(probe_hit(0x2222).depth, -127);

    tt_clear();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_miss(cases[i].key);
}

static void test_mate_scores(void **state)
{
    (void)state;
    static const int plies[] = {0, 1, 2, 7, 30, 64, 127};
    for (size_t i = 0; i < sizeof plies / sizeof plies[0]; i++) {
        int ply = plies[i];
        for (int distance = 1; distance <= 40; distance += 13) {
            /* Mate in `distance` plies from this node, found `ply` plies from the root. */
            int win_root = VALUE_MATE - (ply + distance), loss_root = -win_root;
            assert_int_equal(tt_score_to(win_root, ply), VALUE_MATE - distance);
            assert_int_equal(tt_score_to(loss_root, ply), -(VALUE_MATE - distance));
            assert_int_equal(tt_score_from(VALUE_MATE - distance, ply), win_root);
            assert_int_equal(tt_score_from(-(VALUE_MATE - distance), ply), loss_root);
            /* The same entry read at another ply: the mate is as far from that node. */
            assert_int_equal(tt_score_from(tt_score_to(win_root, ply), ply + 5), win_root - 5);
            assert_int_equal(tt_score_from(tt_score_to(loss_root, ply), ply + 5), loss_root + 5);
            /* Through the table. */
            tt_clear();
            tt_store(0xabcdef, 0x0102, tt_score_to(win_root, ply), 0, 9, BOUND_EXACT);
            assert_int_equal(tt_score_from(probe_hit(0xabcdef).score, ply), win_root);
            tt_store(0xabcdef, 0x0102, tt_score_to(loss_root, ply), 0, 9, BOUND_EXACT);
            assert_int_equal(tt_score_from(probe_hit(0xabcdef).score, ply), loss_root);
        }
        /* Mate-bound scores convert; ordinary scores and VALUE_NONE do not. */
        assert_int_equal(tt_score_to(VALUE_MATE_BOUND, ply), VALUE_MATE_BOUND + ply);
        assert_int_equal(tt_score_to(-VALUE_MATE_BOUND, ply), -VALUE_MATE_BOUND - ply);
        static const int plain[] = {0, 1, -1, 100, -250, 20000, -20000, VALUE_MATE_BOUND - 1, -(VALUE_MATE_BOUND - 1)};
        for (size_t j = 0; j < sizeof plain / sizeof plain[0]; j++) {
            assert_int_equal(tt_score_to(plain[j], ply), plain[j]);
            assert_int_equal(tt_score_from(plain[j], ply), plain[j]);
        }
        assert_int_equal(tt_score_to(VALUE_NONE, ply), VALUE_NONE);
        assert_int_equal(tt_score_from(VALUE_NONE, ply), VALUE_NONE);
    }
}

static void test_replacement(void **state)
{
    (void)state;
    const uint64_t b = 0x5a5a1234;
    /* Four keys of one bucket, then a fifth: the shallowest goes. */
    tt_clear();
    static const int depths[] = {10, 3, 8, 12};
    for (unsigned i = 0; i < 4; i++)
        tt_store(bucket_key(b, i), (Move)(0x100 + i), (int)i, 0, depths[i], BOUND_LOWER);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(probe_hit(bucket_key(b, i)).depth, depths[i]);
    tt_store(bucket_key(b, 4), 0x104, 4, 0, 5, BOUND_UPPER);
    assert_int_equal(probe_hit(bucket_key(b, 4)).depth, 5);
    assert_miss(bucket_key(b, 1));
    assert_int_equal(probe_hit(bucket_key(b, 0)).depth, 10);
    assert_int_equal(probe_hit(bucket_key(b, 2)).depth, 8);
    assert_int_equal(probe_hit(bucket_key(b, 3)).depth, 12);
    /* A sixth, deeper than all: now the depth-5 entry goes. */
    tt_store(bucket_key(b, 5), 0x105, 5, 0, 30, BOUND_EXACT);
    assert_miss(bucket_key(b, 4));
    assert_int_equal(probe_hit(bucket_key(b, 5)).depth, 30);

    /* Restoring a key already in the full bucket replaces its own entry, nothing else. */
    tt_store(bucket_key(b, 2), 0x202, 0, 0, 1, BOUND_EXACT);
    assert_int_equal(probe_hit(bucket_key(b, 2)).depth, 1);
    assert_int_equal(probe_hit(bucket_key(b, 0)).depth, 10);
    assert_int_equal(probe_hit(bucket_key(b, 3)).depth, 12);
    assert_int_equal(probe_hit(bucket_key(b, 5)).depth, 30);
}

static void test_ageing(void **state)
{
    (void)state;
    const uint64_t b = 0x77aa0001;
    /* An entry one search old counts 8 plies shallower: depth 15 old (15 - 8 = 7) goes before depth 10 new. */
    tt_clear();
    tt_store(bucket_key(b, 0), 0x100, 0, 0, 15, BOUND_EXACT);
    tt_new_search();
    tt_store(bucket_key(b, 1), 0x101, 0, 0, 10, BOUND_EXACT);
    tt_store(bucket_key(b, 2), 0x102, 0, 0, 12, BOUND_EXACT);
    tt_store(bucket_key(b, 3), 0x103, 0, 0, 14, BOUND_EXACT);
    tt_store(bucket_key(b, 4), 0x104, 0, 0, 1, BOUND_EXACT);
    assert_miss(bucket_key(b, 0));
    for (unsigned i = 1; i <= 4; i++)
        probe_hit(bucket_key(b, i));

    /* Depth 40 four searches old (40 - 32 = 8) still goes before depth 10 of this search. */
    tt_clear();
    tt_store(bucket_key(b, 0), 0x100, 0, 0, 40, BOUND_EXACT);
    for (int i = 0; i < 4; i++)
        tt_new_search();
    tt_store(bucket_key(b, 1), 0x101, 0, 0, 10, BOUND_EXACT);
    tt_store(bucket_key(b, 2), 0x102, 0, 0, 12, BOUND_EXACT);
    tt_store(bucket_key(b, 3), 0x103, 0, 0, 14, BOUND_EXACT);
    tt_store(bucket_key(b, 4), 0x104, 0, 0, 1, BOUND_EXACT);
    assert_miss(bucket_key(b, 0));
    /* ... but depth 40 three searches old (16) stays and depth 10 of this search goes. */
    tt_clear();
    tt_store(bucket_key(b, 0), 0x100, 0, 0, 40, BOUND_EXACT);
    for (int i = 0; i < 3; i++)
        tt_new_search();
    tt_store(bucket_key(b, 1), 0x101, 0, 0, 10, BOUND_EXACT);
    tt_store(bucket_key(b, 2), 0x102, 0, 0, 12, BOUND_EXACT);
    tt_store(bucket_key(b, 3), 0x103, 0, 0, 14, BOUND_EXACT);
    tt_store(bucket_key(b, 4), 0x104, 0, 0, 1, BOUND_EXACT);
    probe_hit(bucket_key(b, 0));
    assert_miss(bucket_key(b, 1));
}

static void test_same_key_rules(void **state)
{
    (void)state;
    const uint64_t k = 0x0123456789abcdefULL;
    tt_clear();
    tt_store(k, 0x0101, 50, 7, 20, BOUND_EXACT);
    /* A shallow non-exact result without a move leaves the deep exact entry as it was. */
    tt_store(k, MOVE_NONE, -80, 9, 10, BOUND_LOWER);
    TTData d = probe_hit(k);
    assert_int_equal(d.depth, 20);
    assert_int_equal(d.bound, BOUND_EXACT);
    assert_int_equal(d.score, 50);
    assert_int_equal(d.eval, 7);
    assert_int_equal(d.move, 0x0101);
    /* With a move, only the move is taken. */
    tt_store(k, 0x0202, -80, 9, 16, BOUND_UPPER);
    d = probe_hit(k);
    assert_int_equal(d.depth, 20);
    assert_int_equal(d.bound, BOUND_EXACT);
    assert_int_equal(d.score, 50);
    assert_int_equal(d.move, 0x0202);
    /* depth + 4 > old depth replaces. */
    tt_store(k, 0x0303, -90, 11, 17, BOUND_UPPER);
    d = probe_hit(k);
    assert_int_equal(d.depth, 17);
    assert_int_equal(d.bound, BOUND_UPPER);
    assert_int_equal(d.score, -90);
    assert_int_equal(d.eval, 11);
    assert_int_equal(d.move, 0x0303);
    /* An exact bound always replaces; without a move the old move stays. */
    tt_store(k, MOVE_NONE, 33, 12, 2, BOUND_EXACT);
    d = probe_hit(k);
    assert_int_equal(d.depth, 2);
    assert_int_equal(d.bound, BOUND_EXACT);
    assert_int_equal(d.score, 33);
    assert_int_equal(d.move, 0x0303);
    /* An entry of an earlier search is replaced by anything. */
    tt_store(k, 0x0404, 1, 1, 40, BOUND_EXACT);
    tt_new_search();
    tt_store(k, MOVE_NONE, 2, 2, 1, BOUND_LOWER);
    d = probe_hit(k);
    assert_int_equal(d.depth, 1);
    assert_int_equal(d.bound, BOUND_LOWER);
    assert_int_equal(d.score, 2);
    assert_int_equal(d.move, 0x0404);
}

static void test_hashfull(void **state)
{
    (void)state;
    tt_clear();
    assert_int_equal(tt_hashfull(), 0);
    uint64_t seed = 42;
    for (int i = 0; i < 3000; i++)
        tt_store(splitmix64(&seed), 0x0102, 0, 0, 5, BOUND_EXACT);
    int some = tt_hashfull();
    assert_in_range(some, 1, 200); /* 3000 keys in 65536 entries: about 45 permill */
    for (int i = 0; i < 300000; i++)
        tt_store(splitmix64(&seed), 0x0102, 0, 0, 5, BOUND_EXACT);
    int full = tt_hashfull();
    assert_true(full > some);
    assert_in_range(full, 950, 1000);
    /* A new search: everything belongs to the previous one. */
    tt_new_search();
    assert_int_equal(tt_hashfull(), 0);
    for (int i = 0; i < 3000; i++)
        tt_store(splitmix64(&seed), 0x0102, 0, 0, 5, BOUND_EXACT);
    int again = tt_hashfull();
    assert_in_range(again, 1, 200);
    tt_clear();
    assert_int_equal(tt_hashfull(), 0);
}

/* Stores `count` keys whose high bits are evenly spread (the same number per bucket for any
 * power-of-two table up to `count` buckets) and returns how many can be found again. */
static int stored_and_found(int count)
{
    tt_clear();
    int shift = 64 - __builtin_ctz((unsigned)count);
    for (int i = 0; i < count; i++)
        tt_store((uint64_t)i << shift | 0x5, 0x0102, i & 0x3fff, 0, 3, BOUND_EXACT);
    int found = 0;
    TTData d;
    for (int i = 0; i < count; i++)
        found += tt_probe((uint64_t)i << shift | 0x5, &d) && d.score == (i & 0x3fff);
    return found;
}

static void test_resize(void **state)
{
    (void)state;
    /* 1 MB holds 16384 buckets, 65536 entries: exactly that many spread keys fit, twice as many do not. */
    assert_true(tt_resize(1));
    assert_int_equal(stored_and_found(65536), 65536);
    assert_int_equal(stored_and_found(131072), 65536);
    /* 3 MB rounds down to 2 MB: 131072 entries. */
    assert_true(tt_resize(3));
    assert_int_equal(stored_and_found(131072), 131072);
    assert_int_equal(stored_and_found(262144), 131072);
    assert_true(tt_resize(16));
    assert_int_equal(stored_and_found(1 << 20), 1 << 20);
    assert_true(tt_resize(7));
    assert_int_equal(stored_and_found(1 << 18), 1 << 18);
    assert_int_equal(stored_and_found(1 << 19), 1 << 18);

    /* A resize clears the table. */
    tt_store(0x42, 0x0102, 1, 2, 3, BOUND_EXACT);
    probe_hit(0x42);
    assert_true(tt_resize(1));
    assert_miss(0x42);
    assert_int_equal(tt_hashfull(), 0);

    /* Without a table nothing is found and nothing breaks. */
    tt_free();
    tt_store(0x42, 0x0102, 1, 2, 3, BOUND_EXACT);
    assert_miss(0x42);
    assert_int_equal(tt_hashfull(), 0);
    tt_clear();
    tt_new_search();
    tt_free();
    assert_true(tt_resize(1));
    tt_store(0x42, 0x0102, 1, 2, 3, BOUND_EXACT);
    probe_hit(0x42);
}

static void test_resize_failure_keeps_table(void **state)
{
    (void)state;
    assert_true(tt_resize(2));
    tt_store(0x99, 0x0506, -7, 8, 9, BOUND_UPPER);
    tt_new_search();
    tt_store(0x98, 0x0506, -7, 8, 9, BOUND_UPPER);
    int hashfull = tt_hashfull();
    static const size_t absurd[] = {SIZE_MAX / 2, SIZE_MAX, SIZE_MAX / ((size_t)1 << 20), (size_t)1 << 40, 0};
    for (size_t i = 0; i < sizeof absurd / sizeof absurd[0]; i++) {
        assert_false(tt_resize(absurd[i]));
        TTData d = probe_hit(0x99);
        assert_int_equal(d.move, 0x0506);
        assert_int_equal(d.score, -7);
        assert_int_equal(d.eval, 8);
        assert_int_equal(d.depth, 9);
        assert_int_equal(d.bound, BOUND_UPPER);
        probe_hit(0x98);
        assert_int_equal(tt_hashfull(), hashfull); /* the generation survived too */
    }
    assert_int_equal(stored_and_found(131072), 131072); /* still 2 MB */
}

/* The hammer: every data field is derived from the key, so a torn or mixed entry that passed the key
 * check would show up as inconsistent data. Half the keys crowd into four buckets. */
enum { HAMMER_THREADS = 4, HAMMER_KEYS = 2048, HAMMER_OPS = 200000 };

static uint64_t hammer_keys[HAMMER_KEYS];

static Move key_move(uint64_t k) { return (Move)((k & 0x7fff) | 1); }
static int key_score(uint64_t k) { return (int16_t)(uint16_t)(k >> 16); }
static int key_eval(uint64_t k) { return (int16_t)(uint16_t)(k >> 24); }
static int key_depth(uint64_t k) { return (int)((k >> 40) % 120); }
static Bound key_bound(uint64_t k) { return (Bound)(1 + (k >> 48) % 3); }

typedef struct {
    uint64_t seed;
    long hits, stores, bad;
} HammerState;

static void *hammer(void *arg)
{
    HammerState *h = arg;
    for (int i = 0; i < HAMMER_OPS; i++) {
        uint64_t r = splitmix64(&h->seed);
        uint64_t key = hammer_keys[r % HAMMER_KEYS];
        if (r >> 63) {
            tt_store(key, key_move(key), key_score(key), key_eval(key), key_depth(key), key_bound(key));
            h->stores++;
        } else {
            TTData d;
            if (tt_probe(key, &d)) {
                h->hits++;
                if (d.move != key_move(key) || d.score != key_score(key) || d.eval != key_eval(key)
                    || d.depth != key_depth(key) || d.bound != key_bound(key))
                    h->bad++;
            }
        }
    }
    return NULL;
}

static void test_concurrent_hammer(void **state)
{
    (void)state;
    assert_true(tt_resize(1));
    uint64_t seed = 7;
    for (int i = 0; i < HAMMER_KEYS; i++) {
        uint64_t k = splitmix64(&seed);
        if (i % 2)
            k = (k & 0x0000ffffffffffffULL) | (uint64_t)(0x1230 + 4 * (i / 2 % 4)) << 48;
        hammer_keys[i] = k;
    }
    pthread_t threads[HAMMER_THREADS];
    HammerState states[HAMMER_THREADS];
    for (int t = 0; t < HAMMER_THREADS; t++) {
        states[t] = (HammerState){.seed = 1000 + (uint64_t)t};
        assert_int_equal(pthread_create(&threads[t], NULL, hammer, &states[t]), 0);
    }
    long hits = 0, stores = 0, bad = 0;
    for (int t = 0; t < HAMMER_THREADS; t++) {
        assert_int_equal(pthread_join(threads[t], NULL), 0);
        hits += states[t].hits;
        stores += states[t].stores;
        bad += states[t].bad;
    }
    print_message("hammer: %ld stores, %ld hits, %ld inconsistent\n", stores, hits, bad);
    assert_int_equal(bad, 0);
    assert_true(hits > HAMMER_OPS / 10);
    assert_true(stores > HAMMER_OPS);
    /* After the threads: every key found is still consistent. */
    for (int i = 0; i < HAMMER_KEYS; i++) {
        TTData d;
        if (tt_probe(hammer_keys[i], &d))
            assert_int_equal(d.depth, key_depth(hammer_keys[i]));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_mate_scores),
        cmocka_unit_test(test_replacement),
        cmocka_unit_test(test_ageing),
        cmocka_unit_test(test_same_key_rules),
        cmocka_unit_test(test_hashfull),
        cmocka_unit_test(test_resize),
        cmocka_unit_test(test_resize_failure_keeps_table),
        cmocka_unit_test(test_concurrent_hammer),
    };
    int failed = cmocka_run_group_tests_name("tt", tests, setup_table, NULL);
    tt_free();
    return failed;
}

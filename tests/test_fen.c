/* FEN reading and writing: round trips, the forms FSF accepts and writes, the counters after moves
 * (expected FENs printed by fairy-stockfish 11.1's `d`), and every rejected FEN with its exact
 * message, the position it was read into left untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

#define START_BOARD "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR"
#define MIDDLE_RANKS "/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/"
/* Generals only, not facing: the base for most malformed FENs. */
#define BARE "4k4/9/9/9/9/9/9/9/3K5/9"

/* Reads `fen` (which must be accepted) and returns what is written back. */
static const char *read_write(const char *fen, FenFlags flags, Position *pos, char out[FEN_SIZE])
{
    char err[160] = "";
    if (!position_set_fen(pos, fen, &RULES_JANGGI, flags, err, sizeof err))
        fail_msg("FEN rejected: %s (%s)", err, fen);
    position_to_fen(pos, out, FEN_SIZE);
    return out;
}

/* ---- Round trips ---- */

/* The 16 start positions: each side picks one of four horse/elephant orders (spec 1.4). */
static void test_round_trip_setups(void **state)
{
    (void)state;
    static const char *const cho[] = {"RNBA1ABNR", "RBNA1ANBR", "RBNA1ABNR", "RNBA1ANBR"};
    static const char *const han[] = {"rnba1abnr", "rbna1anbr", "rnba1anbr", "rbna1abnr"};
    uint64_t keys[16];
    for (int c = 0; c < 4; c++)
        for (int h = 0; h < 4; h++) {
            char fen[FEN_SIZE], out[FEN_SIZE];
            Position pos;
            snprintf(fen, sizeof fen, "%s" MIDDLE_RANKS "%s w - - 0 1", han[h], cho[c]);
            assert_string_equal(read_write(fen, FEN_STRICT, &pos, out), fen);
            keys[4 * c + h] = pos.st->key;
            for (int k = 0; k < 4 * c + h; k++)
                assert_true(keys[k] != keys[4 * c + h]);
        }
}

/* Positions from play, either side to move, with counters. */
static void test_round_trip_positions(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1",
        "rb1a2bnr/4ka3/3n1c1c1/p1p3p1p/4p4/P8/2PPB1P1P/1C2K2C1/9/RNBA1A1NR w - - 12 7",
        "4kC3/7r1/1cn2a3/4bp2p/3r3P1/pb1P3P1/N4pRP1/9/1C1ARK3/1B2A1N2 b - - 1 47",
        "5k3/6P2/2P6/9/9/4N4/9/5K3/9/3A5 w - - 118 104",
        "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        char out[FEN_SIZE];
        Position pos;
        assert_string_equal(read_write(fens[i], FEN_STRICT, &pos, out), fens[i]);
    }
}

/* H and E are read as horse and elephant (either case) and written as N and B. */
static void test_letter_synonyms(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        "rhea1aehr" MIDDLE_RANKS "RHEA1AEHR w - - 0 1",
        "rhba1aenr" MIDDLE_RANKS "RHBA1AENR w - - 0 1",
    };
    Position start, pos;
    char out[FEN_SIZE];
    read_write(START_BOARD " w - - 0 1", FEN_STRICT, &start, out);
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        assert_string_equal(read_write(inputs[i], FEN_STRICT, &pos, out), START_BOARD " w - - 0 1");
        assert_true(pos.st->key == start.st->key);
    }
}

/* Whatever form was read, the written one is `<board> w|b - - <halfmove> <fullmove>`. */
static void test_written_form(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        /* Missing trailing fields take their defaults (FSF accepts them left out). */
        {BARE, BARE " w - - 0 1"},
        {BARE " b", BARE " b - - 0 1"},
        {BARE " w - -", BARE " w - - 0 1"},
        {BARE " b - - 7", BARE " b - - 7 1"},
        /* Castling and en-passant fields may be left out before the counters. */
        {BARE " b 7 3", BARE " b - - 7 3"},
        {BARE " w - 5 9", BARE " w - - 5 9"},
        /* Any run of spaces, tabs and line ends separates the fields. */
        {"  " BARE "\tb  -\t- 3 4\r\n", BARE " b - - 3 4"},
        /* The largest counters. */
        {BARE " w - - 100000 100000", BARE " w - - 100000 100000"},
        /* Facing generals are not check; the side to move may be in check, here also in bikjang. */
        {"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"},
        {"9/4k4/9/9/9/9/9/9/r3K4/9 w - - 0 1", "9/4k4/9/9/9/9/9/9/r3K4/9 w - - 0 1"},
        /* A cannon behind a cannon screen gives no check, so Han may stand there. */
        {"4k4/9/9/9/9/9/9/9/4C4/3KC4 w - - 0 1", "4k4/9/9/9/9/9/9/9/4C4/3KC4 w - - 0 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[FEN_SIZE];
        Position pos;
        assert_string_equal(read_write(cases[i][0], FEN_STRICT, &pos, out), cases[i][1]);
    }
}

/* ---- Counters after moves ---- */

typedef struct {
    const char *fen;
    const char *moves;
    const char *expected; /* FSF's FEN after the moves */
} CounterCase;

static const CounterCase counter_cases[] = {
    /* A pass and a soldier move both count. */
    {START_BOARD " w - - 0 1", "e2e2", START_BOARD " b - - 1 1"},
    {START_BOARD " w - - 0 1", "e4e5", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1"},
    {START_BOARD " w - - 0 1", "e4d4 e7d7", "rnba1abnr/4k4/1c5c1/p1pp2p1p/9/9/P1PP2P1P/1C5C1/4K4/RNBA1ABNR w - - 2 2"},
    {START_BOARD " w - - 0 1", "e4d4 e7d7 e2e2",
     "rnba1abnr/4k4/1c5c1/p1pp2p1p/9/9/P1PP2P1P/1C5C1/4K4/RNBA1ABNR b - - 3 2"},
    {START_BOARD " w - - 0 1", "e2e2 e9e9", START_BOARD " w - - 2 2"},
    /* Captures (by a soldier, by a chariot) reset it. */
    {START_BOARD " w - - 0 1", "c4c5 c7c6 c5c6",
     "rnba1abnr/4k4/1c5c1/p3p1p1p/2P6/9/P3P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 2"},
    {START_BOARD " w - - 0 1", "c4c5 c7c6 c5c6 a7a6",
     "rnba1abnr/4k4/1c5c1/4p1p1p/p1P6/9/P3P1P1P/1C5C1/4K4/RNBA1ABNR w - - 1 3"},
    {START_BOARD " w - - 0 1", "a4a5 a7a6 a5a6 a10a6",
     "1nba1abnr/4k4/1c5c1/2p1p1p1p/r8/9/2P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 3"},
    {START_BOARD " w - - 0 1", "a4a5 a7a6 a5a6 a10a6 e2e2",
     "1nba1abnr/4k4/1c5c1/2p1p1p1p/r8/9/2P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 3"},
    /* Counters read from the FEN carry on; the move number grows after Han's move. */
    {START_BOARD " w - - 10 5", "b1c3 b10c8",
     "r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR w - - 12 6"},
    {START_BOARD " b - - 7 9", "b10c8", "r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 8 10"},
};

/* After the moves the FEN is FSF's; unmaking them all gives back the FEN that was read. */
static void test_counters_after_moves(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof counter_cases / sizeof counter_cases[0]; i++) {
        const CounterCase *c = &counter_cases[i];
        TestGame g;
        char out[FEN_SIZE];
        test_game_setup(&g, "janggi", c->fen, c->moves);
        position_to_fen(&g.pos, out, sizeof out);
        assert_string_equal(out, c->expected);
        while (g.plies-- > 0)
            position_unmake(&g.pos);
        position_to_fen(&g.pos, out, sizeof out);
        assert_string_equal(out, c->fen);
    }
}

/* ---- Rejected FENs ---- */

typedef struct {
    const char *name;
    const char *fen;
    const char *message;
} ErrorCase;

static const ErrorCase error_cases[] = {
    /* Board shape. */
    {"too few ranks", "4k4/9/9/9/9/9/9/9/3K5 w - - 0 1", "9 ranks, expected 10"},
    {"too many ranks", BARE "/9 w - - 0 1", "more than 10 ranks"},
    {"trailing slash", BARE "/ w - - 0 1", "more than 10 ranks"},
    {"rank 1 too short", "4k4/9/9/9/9/9/9/9/3K5/8 w - - 0 1", "rank 1 has 8 files, expected 9"},
    {"rank 10 too short", "4k3/9/9/9/9/9/9/9/3K5/9 w - - 0 1", "rank 10 has 8 files, expected 9"},
    {"empty rank", "4k4//9/9/9/9/9/9/3K5/9 w - - 0 1", "rank 9 has 0 files, expected 9"},
    {"rank too long by a digit", "4k5/9/9/9/9/9/9/9/3K5/9 w - - 0 1", "rank 10 has more than 9 files"},
    {"rank too long by a piece", "4k4/9/9/9/9/9/9/9/3K5/9R w - - 0 1", "rank 1 has more than 9 files"},
    /* Characters. */
    {"unknown letter x", "4k4/9/9/9/9/9/9/9/3K5/5x3 w - - 0 1", "unknown piece letter 'x' in rank 1"},
    {"unknown letter Q", "4k4/9/9/9/9/Q8/9/9/3K5/9 w - - 0 1", "unknown piece letter 'Q' in rank 5"},
    {"control byte",
     "4k4/9/9/9/9/9/9/9/3K5/5\x01"
     "3 w - - 0 1",
     "unknown character 0x01 in rank 1"},
    {"non-ASCII byte",
     "4k4/9/9/9/9/9/9/9/3K5/5\xff"
     "3 w - - 0 1",
     "unknown character 0xff in rank 1"},
    {"digit 0", "4k4/9/9/9/9/9/9/9/3K5/40500 w - - 0 1", "empty-point count 0 in rank 1"},
    {"two-digit run", "4k4/9/9/9/10/9/9/9/3K5/9 w - - 0 1", "rank 6 has more than 9 files"},
    /* Generals and guards. */
    {"no Cho general", "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1", "Cho has no general"},
    {"no Han general", "9/9/9/9/9/9/9/9/3K5/9 w - - 0 1", "Han has no general"},
    {"two Cho generals", "4k4/9/9/9/9/9/9/9/3KK4/9 w - - 0 1", "Cho has 2 generals, exactly 1 allowed"},
    {"two Han generals", "3kk4/9/9/9/9/9/9/9/3K5/9 w - - 0 1", "Han has 2 generals, exactly 1 allowed"},
    {"Cho general outside its palace", "4k4/9/9/9/9/9/4K4/9/9/9 w - - 0 1", "Cho general on e4 is outside its palace"},
    {"Cho general in Han's palace", "3kK4/9/9/9/9/9/9/9/9/9 w - - 0 1", "Cho general on e10 is outside its palace"},
    {"Han general outside its palace", "k8/9/9/9/9/9/9/9/3K5/9 w - - 0 1", "Han general on a10 is outside its palace"},
    {"Cho guard outside its palace", "4k4/9/9/9/9/9/9/9/3K5/2A6 w - - 0 1", "Cho guard on c1 is outside its palace"},
    {"Han guard in Cho's palace", "4k4/9/9/9/9/9/9/9/3K5/3a5 w - - 0 1", "Han guard on d1 is outside its palace"},
    /* More pieces of a kind than a set has. */
    {"3 chariots", "4k4/9/9/9/9/9/9/9/3K5/RR1R5 w - - 0 1", "Cho has 3 chariots, at most 2 allowed"},
    {"6 soldiers", "4k4/9/9/pppppp3/9/9/9/9/3K5/9 w - - 0 1", "Han has 6 soldiers, at most 5 allowed"},
    {"3 cannons", "4k4/9/9/9/9/9/9/CCC6/3K5/9 w - - 0 1", "Cho has 3 cannons, at most 2 allowed"},
    {"3 horses", "4k4/9/9/9/9/nnn6/9/9/3K5/9 w - - 0 1", "Han has 3 horses, at most 2 allowed"},
    {"3 elephants", "4k4/9/9/9/9/9/EBB6/9/3K5/9 w - - 0 1", "Cho has 3 elephants, at most 2 allowed"},
    {"3 guards", "4k4/3aaa3/9/9/9/9/9/9/3K5/9 w - - 0 1", "Han has 3 guards, at most 2 allowed"},
    /* Side to move, castling and en passant. */
    {"side x", BARE " x - - 0 1", "side to move must be 'w' or 'b', not 'x'"},
    {"side white", BARE " white - - 0 1", "side to move must be 'w' or 'b', not 'white'"},
    {"side W", BARE " W - - 0 1", "side to move must be 'w' or 'b', not 'W'"},
    {"castling field", BARE " w KQ - 0 1", "field 3 must be '-' in Janggi, not 'KQ'"},
    {"en-passant field", BARE " w - e3 0 1", "field 4 must be '-' in Janggi, not 'e3'"},
    /* Counters. */
    {"half-move -1", BARE " w - - -1 1", "half-move counter must be a number from 0 to 100000, not '-1'"},
    {"half-move abc", BARE " w - - abc 1", "half-move counter must be a number from 0 to 100000, not 'abc'"},
    {"half-move +5", BARE " w - - +5 1", "half-move counter must be a number from 0 to 100000, not '+5'"},
    {"half-move 5x", BARE " w - - 5x 1", "half-move counter must be a number from 0 to 100000, not '5x'"},
    {"half-move too large", BARE " w - - 100001 1",
     "half-move counter must be a number from 0 to 100000, not '100001'"},
    {"half-move overflow", BARE " w - - 99999999999999999999 1",
     "half-move counter must be a number from 0 to 100000, not '99999999999999999999'"},
    {"move number 0", BARE " w - - 0 0", "move number must be a number from 1 to 100000, not '0'"},
    {"move number x", BARE " w - - 0 x", "move number must be a number from 1 to 100000, not 'x'"},
    {"move number -3", BARE " w - - 0 -3", "move number must be a number from 1 to 100000, not '-3'"},
    {"move number too large", BARE " w - - 0 100001", "move number must be a number from 1 to 100000, not '100001'"},
    /* Trailing text, with all fields or with castling and en passant left out. */
    {"trailing word", BARE " w - - 0 1 extra", "unexpected text after the move number: 'extra'"},
    {"trailing number", BARE " w - - 0 1 0", "unexpected text after the move number: '0'"},
    {"trailing after short form", BARE " w 0 1 junk", "unexpected text after the move number: 'junk'"},
    /* The side that just moved cannot have left its general attacked. */
    {"Han in check, Cho to move", "4k4/9/9/9/9/9/9/9/3K5/4R4 w - - 0 1", "the side not to move (Han) is in check"},
    {"Han in check from a cannon", "4k4/9/9/9/9/9/9/9/4P4/3KC4 w - - 0 1", "the side not to move (Han) is in check"},
    {"Cho in check, Han to move", "4k4/3r5/9/9/9/9/9/9/3K5/9 b - - 0 1", "the side not to move (Cho) is in check"},
    /* Nothing there. */
    {"empty string", "", "empty FEN"},
    {"only white space", " \t\r\n", "empty FEN"},
};

enum { ERROR_CASES = sizeof error_cases / sizeof error_cases[0] };

/* A position that is not a fresh set-up (its state chain leaves the root), to be left untouched. */
static void setup_played(TestGame *g) { test_game_setup(g, "janggi", START_BOARD " w - - 0 1", "c4c5 c7c6 c5c6 e9e9"); }

/* Fails unless setting `fen` is rejected with exactly `message` and `g` is unchanged, byte for byte. */
static void assert_rejected(TestGame *g, const char *fen, FenFlags flags, const char *message)
{
    Position before;
    char fen_before[FEN_SIZE], fen_after[FEN_SIZE], err[160] = "";
    memcpy(&before, &g->pos, sizeof before);
    position_to_fen(&g->pos, fen_before, sizeof fen_before);
    uint64_t key_before = g->pos.st->key;
    if (position_set_fen(&g->pos, fen, &RULES_JANGGI, flags, err, sizeof err))
        fail_msg("accepted: '%s'", fen);
    assert_string_equal(err, message);
    position_to_fen(&g->pos, fen_after, sizeof fen_after);
    assert_string_equal(fen_after, fen_before);
    assert_true(g->pos.st->key == key_before);
    assert_memory_equal(&g->pos, &before, sizeof before);
}

static void test_error(void **state)
{
    const ErrorCase *c = *state;
    TestGame g;
    setup_played(&g);
    assert_rejected(&g, c->fen, FEN_STRICT, c->message);
}

static void test_null_fen(void **state)
{
    (void)state;
    TestGame g;
    setup_played(&g);
    assert_rejected(&g, NULL, FEN_STRICT, "empty FEN");
}

/* 255 characters are accepted (the FEN padded with trailing spaces), 256 are not. */
static void test_length_limit(void **state)
{
    (void)state;
    char fen[300], out[FEN_SIZE];
    Position pos;
    snprintf(fen, sizeof fen, "%-255s", START_BOARD " w - - 0 1");
    assert_int_equal(strlen(fen), 255);
    assert_string_equal(read_write(fen, FEN_STRICT, &pos, out), START_BOARD " w - - 0 1");
    strcat(fen, " ");
    TestGame g;
    setup_played(&g);
    assert_rejected(&g, fen, FEN_STRICT, "FEN longer than 255 characters");
}

/* FEN_ALLOW_EXTRA_PIECES lifts only the per-kind limits. */
static void test_extra_pieces_flag(void **state)
{
    (void)state;
    static const char *const extra[] = {
        "4k4/9/9/9/9/9/9/9/3K5/RR1R5 w - - 0 1", "4k4/9/9/pppppp3/9/9/9/9/3K5/9 w - - 0 1",
        "4k4/3aaa3/9/9/9/nnn6/EBB6/CCC6/3K5/9 w - - 0 1", "4k4/c7R/9/3R1R3/9/9/9/9/9/3K5 b - - 0 1", /* from spec 2.4 */
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        char out[FEN_SIZE], expected[FEN_SIZE];
        Position pos;
        snprintf(expected, sizeof expected, "%s", extra[i]);
        /* E is written as B. */
        for (char *p = expected; *p; p++)
            if (*p == 'E')
                *p = 'B';
        assert_string_equal(read_write(extra[i], FEN_ALLOW_EXTRA_PIECES, &pos, out), expected);
    }
    TestGame g;
    setup_played(&g);
    assert_rejected(&g, "4k4/9/9/9/9/9/9/9/3KK4/RRR6 w - - 0 1", FEN_ALLOW_EXTRA_PIECES,
                    "Cho has 2 generals, exactly 1 allowed");
    assert_rejected(&g, "4k4/9/9/9/9/9/9/9/3K5/2A6 w - - 0 1", FEN_ALLOW_EXTRA_PIECES,
                    "Cho guard on c1 is outside its palace");
    assert_rejected(&g, "4k4/9/9/9/9/9/9/9/3K5/4RRR2 w - - 0 1", FEN_ALLOW_EXTRA_PIECES,
                    "the side not to move (Han) is in check");
}

/* The message is cut to the buffer, and a zero-sized buffer is never written. */
static void test_error_buffer(void **state)
{
    (void)state;
    Position pos;
    char small[8];
    memset(small, '#', sizeof small);
    assert_false(position_set_fen(&pos, BARE " x", &RULES_JANGGI, FEN_STRICT, small, sizeof small));
    assert_string_equal(small, "side to");
    memset(small, '#', sizeof small);
    assert_false(position_set_fen(&pos, BARE " x", &RULES_JANGGI, FEN_STRICT, small, 0));
    assert_int_equal(small[0], '#');
    assert_false(position_set_fen(&pos, BARE " x", &RULES_JANGGI, FEN_STRICT, NULL, 0));
}

int main(void)
{
    engine_init();
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_round_trip_setups),    cmocka_unit_test(test_round_trip_positions),
        cmocka_unit_test(test_letter_synonyms),      cmocka_unit_test(test_written_form),
        cmocka_unit_test(test_counters_after_moves), cmocka_unit_test(test_null_fen),
        cmocka_unit_test(test_length_limit),         cmocka_unit_test(test_extra_pieces_flag),
        cmocka_unit_test(test_error_buffer),
    };
    enum { FIXED = sizeof fixed / sizeof fixed[0] };
    static struct CMUnitTest tests[FIXED + ERROR_CASES];
    static char names[ERROR_CASES][80];
    memcpy(tests, fixed, sizeof fixed);
    for (size_t i = 0; i < ERROR_CASES; i++) {
        snprintf(names[i], sizeof names[i], "error: %s", error_cases[i].name);
        tests[FIXED + i] = (struct CMUnitTest){names[i], test_error, NULL, NULL, (void *)&error_cases[i]};
    }
    return _cmocka_run_group_tests("fen", tests, FIXED + ERROR_CASES, NULL, NULL);
}

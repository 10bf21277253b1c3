/* Helpers shared by the cmocka unit tests (include after <cmocka.h>): a position with room for the
 * states of the moves played on it (a fixed-size, allocation-free stand-in for Game), set up
 * from a FEN and a list of moves in UCI text. Not a test
 * program itself, so the Makefile's tests/test_*.c rule does not build it. */
#ifndef JANGGUN_TESTS_SUPPORT_H
#define JANGGUN_TESTS_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "../engine/base/base.h"
#include "../engine/move.h"
#include "../engine/movegen.h"

enum { GAME_MAX_PLIES = 64, FEN_SIZE = 128 };

/* The source tree the tests were built from (the Makefile defines it), so that a test finds its data
 * whatever folder it runs in. */
#ifndef JANGGUN_SOURCE_ROOT
#error "JANGGUN_SOURCE_ROOT must name the source tree (the Makefile defines it)"
#endif

/* The test data (tests/data/) and the real-game corpus (bench/data/), shipped with the sources. */
#define TEST_PERFT_FILE "tests/data/perft/janggi.epd"
#define TEST_GIB_SAMPLES "tests/data/gib_samples"
#define TEST_RESULT_MAPPING "tests/data/result_mapping.tsv"
#define TEST_CORPUS "bench/data/games.jsonl.xz"

/* A path in the source tree: test_data_path(buf, size, TEST_PERFT_FILE). */
static inline const char *test_data_path(char *buf, size_t size, const char *relative)
{
    snprintf(buf, size, "%s/%s", JANGGUN_SOURCE_ROOT, relative);
    return buf;
}

/* A whole file, NUL-terminated (its length in *len unless NULL); a file that cannot be read fails the
 * test with the reason. */
static inline char *test_read_file(const char *path, size_t *len)
{
    char err[300];
    char *text = read_whole_file(path, len, err, sizeof err);
    if (!text)
        fail_msg("%s: %s", path, err);
    return text;
}

/* Never copy a TestGame: its position points into itself and into `states`. */
typedef struct {
    Position pos;
    StateInfo states[GAME_MAX_PLIES];
    int plies;
} TestGame;

/* Plays space-separated moves in UCI text; a move that does not parse as legal fails the test. */
static inline void test_game_play(TestGame *g, const char *moves)
{
    char tok[16];
    int used;
    for (const char *p = moves; sscanf(p, " %15s%n", tok, &used) == 1; p += used) {
        Move m = MOVE_NONE;
        MoveParseResult r = move_parse(&g->pos, tok, RANKS_FROM_1, &m);
        if (r != MOVE_PARSE_OK)
            fail_msg("move '%s' rejected (result %d)", tok, (int)r);
        assert_true(g->plies < GAME_MAX_PLIES);
        position_make(&g->pos, m, &g->states[g->plies++]);
    }
}

/* Sets up `fen` under the rule set named `rules` and plays `moves` (NULL for none). Extra pieces are
 * allowed: FSF's test positions use them (three chariots); test_fen checks the strict mode. */
static inline void test_game_setup(TestGame *g, const char *rules, const char *fen, const char *moves)
{
    const RuleSet *rs = rules_by_name(rules);
    assert_non_null(rs);
    char err[160] = "";
    g->plies = 0;
    if (!position_set_fen(&g->pos, fen, rs, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
        fail_msg("FEN rejected: %s (%s)", err, fen);
    if (moves)
        test_game_play(g, moves);
}

#endif

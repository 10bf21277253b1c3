/* Checks shared by the record-format tests (test_gib.c, test_pgn.c): a game's moves as text, and a
 * bad game reported with its line while the good one after it is still read. Include after
 * <cmocka.h> and ../engine/records/record.h. Not a test program itself (the Makefile builds tests/test_*.c). */
#ifndef JANGGUN_TESTS_RECORD_CHECKS_H
#define JANGGUN_TESTS_RECORD_CHECKS_H

#include <stdio.h>
#include <string.h>

#include "../engine/move.h"
#include "../engine/records/record.h"

/* A game's moves as space-separated coordinate text (ranks from 1). */
static inline void record_moves_text(const ParsedGame *g, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < g->move_count && n + 8 < size; i++) {
        char m[MOVE_TEXT_SIZE];
        move_to_text(g->moves[i], RANKS_FROM_1, m);
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "", m);
    }
}

/* Two games read, the first dropped with exactly this message at this line, the second (two moves)
 * read. */
static inline void expect_bad_then_good(const ParsedGameList *list, int line, const char *message)
{
    assert_int_equal(list->count, 2);
    const ParsedGame *g = &list->games[0];
    assert_false(g->ok);
    if (strcmp(g->error, message) || g->error_line != line)
        fail_msg("got line %d: '%s'\nexpected line %d: '%s'", g->error_line, g->error, line, message);
    assert_true(list->games[1].ok);
    assert_int_equal(list->games[1].move_count, 2);
}

#endif

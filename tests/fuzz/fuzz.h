/* Shared by the fuzz targets (tests/fuzz/fuzz_*.c, libFuzzer with AddressSanitizer and UBSan; `make fuzz`):
 * the input as a NUL-terminated string, the checks that turn a broken invariant into a crash libFuzzer
 * reports with its input, and the checks every reader's output must pass. Not a target itself. */
#ifndef JANGGUN_FUZZ_H
#define JANGGUN_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/game.h"
#include "../../engine/movegen.h"
#include "../../engine/position.h"
#include "../../engine/records/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Aborts with the message when `ok` is false: a finding. */
#define FUZZ_CHECK(ok, ...)                                                                                            \
    do {                                                                                                               \
        if (!(ok)) {                                                                                                   \
            fprintf(stderr, "fuzz check failed at %s:%d: ", __FILE__, __LINE__);                                       \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/* The input as a string (malloc'd; the caller frees it). Inner NUL bytes stay: a reader that takes a
 * C string sees the text up to the first one. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* The position invariants, then every legal move made and taken back: each child passes them too and
 * the key comes back. */
static inline void fuzz_check_position(Position *pos)
{
    char why[200];
    FUZZ_CHECK(position_is_ok(pos, why, sizeof why), "position invariant: %s", why);
    MoveList legal;
    movegen_legal(pos, &legal);
    uint64_t key = pos->st->key;
    for (int i = 0; i < legal.count; i++) {
        StateInfo st;
        position_make(pos, legal.moves[i], &st);
        FUZZ_CHECK(position_is_ok(pos, why, sizeof why), "after a legal move: %s", why);
        position_unmake(pos);
        FUZZ_CHECK(pos->st->key == key, "unmake did not restore the key");
    }
}

/* A record the reader marked ok replays legally from its start under its rules. */
static inline void fuzz_check_record(const ParsedGame *g)
{
    if (!g->ok)
        return;
    FUZZ_CHECK(g->rules != NULL, "a readable record without rules");
    Game game;
    char err[200];
    FUZZ_CHECK(game_start(&game, g->start_fen, g->rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err),
               "a readable record's start FEN '%s' is refused: %s", g->start_fen, err);
    for (int i = 0; i < g->move_count; i++)
        FUZZ_CHECK(game_play(&game, g->moves[i]), "a readable record's move %d is not legal", i + 1);
    game_status(&game);
    game_free(&game);
}

#endif

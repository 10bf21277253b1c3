/* Shared by the fuzz targets (tests/fuzz/fuzz_*.c, libFuzzer with AddressSanitizer and UBSan; `make fuzz`):
 * the input as a NUL-terminated string, the checks that turn a broken invariant into a crash libFuzzer
 * reports with its input, and the checks every reader's output must pass. Not a target itself. */
#ifndef JANGGUN_FUZZ_H
#define JANGGUN_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/base/base.h"
#include "../../engine/game.h"
#include "../../engine/movegen.h"
#include "../../engine/position.h"
#include "../../engine/records/record.h"
#include "../../eval/eval.h"

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

/* The initialiser of a target that needs only the engine's tables. */
#define FUZZ_INIT_ENGINE_ONLY                                                                                          \
    int LLVMFuzzerInitialize(int *argc, char ***argv)                                                                  \
    {                                                                                                                  \
        (void)argc;                                                                                                    \
        (void)argv;                                                                                                    \
        engine_init();                                                                                                 \
        return 0;                                                                                                      \
    }

/* The engine tables and the evaluation (weights and net), for the targets that evaluate or search. */
static inline void fuzz_init_engine_and_eval(void)
{
    engine_init();
    char err[300];
    FUZZ_CHECK(eval_init(err, sizeof err), "%s", err);
}

/* The input as a string (malloc'd; the caller frees it). Inner NUL bytes stay: a reader that takes a
 * C string sees the text up to the first one. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    StrBuf b = {0};
    strbuf_add(&b, (const char *)data, size);
    char *text = strbuf_take(&b);
    FUZZ_CHECK(text != NULL, "out of memory");
    return text;
}

/* Positions the evaluation targets score: the start, an ending near the move limit, a middle game and
 * the start near the move limit. FUZZ_SAMPLE_COUNT of them. */
enum { FUZZ_SAMPLE_COUNT = 4 };
static inline const char *fuzz_sample_fen(int i)
{
    static const char *const fens[FUZZ_SAMPLE_COUNT] = {
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        "4ka3/4a4/9/9/9/9/9/9/4A4/3AK3R b - - 0 60",
        "2b1kab2/4a4/4c4/p1p3p1p/2n1p4/4P4/P1P3P1P/4C4/4A4/2BK1AB2 w - - 0 30",
        "r1ba1abr1/4k4/1c2n2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2N2C1/4K4/R1BA1ABR1 w - - 0 190",
    };
    return fens[i];
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

/* A record written back and read again (`again`) has the original's start, rules and moves. */
static inline void fuzz_check_same_record(const ParsedGameList *again, const ParsedGame *g, const char *text)
{
    FUZZ_CHECK(again->count == 1 && again->games[0].ok, "the written game does not read back:\n%s", text);
    const ParsedGame *b = &again->games[0];
    FUZZ_CHECK(
        strcmp(b->start_fen, g->start_fen) == 0 && b->rules == g->rules && b->move_count == g->move_count
            && (g->move_count == 0 || memcmp(b->moves, g->moves, (size_t)g->move_count * sizeof g->moves[0]) == 0),
        "the written game reads back differently:\n%s", text);
}

#endif

/* Openings for janggun-match: start positions with the moves played from them, read from an EPD
 * file (a FEN, optionally `moves m1 m2 ...`, optionally `; operations`), from the JSONL game files
 * of ../shared/games/ (the first N plies of each game), or built in (the start position, or the 16
 * pairs of named setups). Every opening is replayed under the tournament's rules; an illegal one is
 * an error, one whose game is already over is left out. Duplicates are dropped, and the order is
 * the file's or a seeded shuffle. It does not schedule games (match.h does). */
#ifndef JANGGUN_MATCH_OPENINGS_H
#define JANGGUN_MATCH_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../engine/rules.h"

typedef struct {
    char fen[128];
    char *moves; /* UCI text (ranks from 1), space separated; "" for none */
    int plies;
} Opening;

typedef enum { OPENINGS_STARTPOS, OPENINGS_SETUPS, OPENINGS_EPD, OPENINGS_JSONL } OpeningSource;

typedef struct {
    OpeningSource source;
    const char *path; /* EPD and JSONL */
    int plies;        /* the most plies taken from each line or game; 0: all of an EPD line, 8 for JSONL */
    bool random;      /* shuffled with `seed` (otherwise in file order) */
    uint64_t seed;
} OpeningConfig;

typedef struct {
    Opening *items;
    int count;
    int skipped_over;  /* left out: the game was already over */
    int skipped_short; /* JSONL games shorter than the plies asked for */
    int duplicates;
} OpeningBook;

/* false with a message ("file:line: ..."), and an empty book, on an unreadable file or a bad line. */
bool openings_load(const OpeningConfig *config, const RuleSet *rules, OpeningBook *book, char *err,
                   size_t err_size);
void openings_free(OpeningBook *book);

/* splitmix64, the generator of every seeded choice in janggun-match. */
uint64_t openings_rng_next(uint64_t *state);

#endif

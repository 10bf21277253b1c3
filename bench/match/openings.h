/* Openings for janggun-match: start positions with the moves played from them, read from an EPD
 * file (a FEN, optionally `moves m1 m2 ...`, optionally `; operations`), from a JSONL game corpus
 * such as bench/data/games.jsonl.xz (the first N plies of each game), or built in: the shipped
 * openings file bench/data/openings.epd (the default), the start position, or the 16 pairs of named
 * setups. Files may be xz-compressed. Every opening is replayed under the tournament's rules: an
 * illegal move in an EPD line is an error, while a corpus game that is illegal under these rules (a
 * real game played on through a bikjang, say) is left out and counted, as are games already over and
 * games too short. Openings that reach the same position are duplicates, and only the first is kept;
 * the order is the file's or a seeded shuffle. It does not schedule games (match.h does). */
#ifndef JANGGUN_MATCH_OPENINGS_H
#define JANGGUN_MATCH_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../engine/rules.h"

typedef struct {
    char fen[128];
    char *moves; /* UCI text (ranks from 1), space separated; "" for none */
    int plies;
    char reached[100]; /* the board and side to move after the moves: duplicates are told by it */
} Opening;

typedef enum { OPENINGS_BUILTIN, OPENINGS_STARTPOS, OPENINGS_SETUPS, OPENINGS_EPD, OPENINGS_JSONL } OpeningSource;

/* Where the built-in openings came from, for messages: "bench/data/openings.epd". */
extern const char openings_builtin_path[];

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
    int skipped_over;    /* left out: the game was already over */
    int skipped_short;   /* JSONL games shorter than the plies asked for */
    int skipped_illegal; /* JSONL games with a move that is illegal under the tournament's rules */
    int duplicates;
} OpeningBook;

/* false with a message ("file:line: ..."), and an empty book, on an unreadable file or a bad line. */
bool openings_load(const OpeningConfig *config, const RuleSet *rules, OpeningBook *book, char *err, size_t err_size);
void openings_free(OpeningBook *book);

/* Where the openings come from, for messages: the file, "the built-in bench/data/openings.epd", ... */
const char *openings_source_text(const OpeningConfig *config);

/* Writes the book as EPD lines `FEN moves m1 m2 ...`, after `header` (lines that are written with
 * "# " before each). false when the file cannot be written. */
bool openings_write(const OpeningBook *book, const char *header, FILE *out);

#endif

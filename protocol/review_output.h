/* The two forms `janggun analyze` writes its reviews in (review.h), byte for byte as README.md
 * documents them: aligned text for reading (review_text.c), one JSON object per line for programs
 * (review_json.c). Formatting into a StrBuf only, no I/O and no judgement, so both can be checked on
 * made-up reviews; the caller decides when to print. */
#ifndef JANGGUN_REVIEW_OUTPUT_H
#define JANGGUN_REVIEW_OUTPUT_H

#include "../engine/base/base.h"
#include "../engine/records/epd.h"
#include "../engine/records/gib.h"
#include "review.h"

/* Where a position or game comes from. */
typedef enum { INPUT_FEN, INPUT_EPD, INPUT_GIB, INPUT_PGN, INPUT_JSONL } InputKind;

typedef struct {
    InputKind input;
    const char *file;  /* NULL for --fen and --moves */
    const char *label; /* "--fen" or "--moves" when file is NULL (NULL: "--fen") */
    int number, line;  /* 0 when unknown */
} ReviewSource;

/* How the positions were searched (the limits are reported) and how moves are written. */
typedef struct {
    int depth, multipv, threads;
    uint64_t nodes;
    int64_t movetime;
    bool korean; /* moves in the GIB style (02마83), else UCI (b1c3) */
} ReviewFormat;

/* The source for messages: "FILE:LINE: game N" ("position N" for EPD), "FILE:LINE", "FILE" or the label. */
void review_place(const ReviewSource *src, char *buf, size_t size);
/* A move legal in pos, in the chosen notation; buf holds GIB_MOVE_TEXT_SIZE bytes. */
void review_move_text(const Position *pos, Move m, bool korean, char *buf);
/* The moves of a line played from pos, each as text, up to the first that is not legal (at most
 * MAX_PLY); returns how many were written. */
int review_line_texts(const Position *pos, const Move *moves, int count, bool korean,
                      char (*texts)[GIB_MOVE_TEXT_SIZE]);

/* ---- Text ---- */

/* A position: its source, FEN, rules and material, its EPD operations, the end if over, the search,
 * its lines, the best move and the bm/am verdicts; a blank line after. */
void review_text_position(StrBuf *b, const ReviewSource *src, const char *fen, const EpdPosition *epd,
                          const PositionReview *pr, const ReviewFormat *f);
/* A game's heading: its source, tags, start, rules and limits, then the column titles. */
void review_text_game_start(StrBuf *b, const ReviewSource *src, const ParsedGame *game, const ReviewFormat *f);
/* One move, one line. */
void review_text_row(StrBuf *b, const ReviewRow *row, const ReviewFormat *f);
/* After the last row: the summary per player and the end; a blank line after. */
void review_text_game_end(StrBuf *b, const Review *r);

/* ---- JSON (one object per line) ---- */

void review_json_position(StrBuf *b, const ReviewSource *src, const char *fen, const EpdPosition *epd,
                          const PositionReview *pr, const ReviewFormat *f);
/* A game object is written in pieces: its start up to the opening of "moves", each row, then the rest
 * ("summary", "end", "final") and the newline. */
void review_json_game_start(StrBuf *b, const ReviewSource *src, const ParsedGame *game, const ReviewFormat *f);
void review_json_row(StrBuf *b, const ReviewRow *row, const ReviewFormat *f);
void review_json_game_end(StrBuf *b, const Review *r);
/* An input that could not be read. */
void review_json_error(StrBuf *b, const ReviewSource *src, const char *message);

#endif

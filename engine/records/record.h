/* Game records read from files (GIB, PGN): the tags as written, the start position, the moves, and
 * for a record that could not be read, the line and the reason. The readers (gib.h, pgn.h) fill a
 * ParsedGameList; they check every move against the rules, so a record marked ok replays legally. This
 * module only holds the data; it does not read files or judge games (game.h, referee.h do). */
#ifndef JANGGUN_RECORD_H
#define JANGGUN_RECORD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "../rules.h"
#include "../types.h"

enum { RECORD_FEN_SIZE = 128, RECORD_ERROR_SIZE = 320 };

typedef struct {
    char *name, *value; /* UTF-8, as written (GIB values keep their spaces) */
} RecordTag;

typedef struct {
    int number; /* 1-based place of the game in its file, counting unreadable ones */
    int line;   /* the line where the game begins */
    RecordTag *tags;
    int tag_count, tag_capacity;
    char start_fen[RECORD_FEN_SIZE];
    const RuleSet *rules; /* the rules the moves were checked under */
    Move *moves;
    int move_count, move_capacity;
    bool ok; /* false: error_line and error say why; moves holds those read before it */
    int error_line;
    char error[RECORD_ERROR_SIZE];
} ParsedGame;

typedef struct {
    ParsedGame *games;
    int count, capacity;
} ParsedGameList;

/* A new game at the end of the list (ok, no tags, no moves), or NULL when out of memory. */
ParsedGame *record_list_add(ParsedGameList *list, int line);
void record_list_free(ParsedGameList *list);

/* false when out of memory. */
bool record_add_tag(ParsedGame *game, const char *name, const char *value);
bool record_add_move(ParsedGame *game, Move m);

/* The value of the first tag with this exact name, or NULL. */
const char *record_tag(const ParsedGame *game, const char *name);

/* Marks the game unreadable at `line` with a printf-style reason; the first reason given is kept. */
void record_fail(ParsedGame *game, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Splits a text into lines in place: returns the next line (without its '\n' or "\r\n") and moves
 * *cursor past it, or NULL at the end. */
char *record_next_line(char **cursor);

#endif

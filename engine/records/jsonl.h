/* JSON lines of games, the form of the real-game corpus (bench/data/games.jsonl.xz): one JSON object
 * per line. The one reader of that form: janggun-match's openings, janggun-tune and the tests use it.
 * An object's members are kept in order: strings (escapes decoded, \u escapes and surrogate pairs as
 * UTF-8), numbers (as their text), true, false and null, and arrays of strings (a game's moves); any
 * other value, nested objects included, is checked and skipped, so a line may carry more than the
 * readers need. Files may be xz-compressed (engine/base/datafile.h). jsonl_read_games reads a whole
 * file of games into the records of record.h, each move checked against the rules, as the GIB and PGN
 * readers do (janggun analyze --jsonl). */
#ifndef JANGGUN_RECORDS_JSONL_H
#define JANGGUN_RECORDS_JSONL_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/datafile.h"
#include "record.h"

typedef enum { JSON_NULL, JSON_STRING, JSON_NUMBER, JSON_BOOL, JSON_ARRAY, JSON_SKIPPED } JsonType;

typedef struct {
    char *key;
    JsonType type;
    char *str;  /* JSON_STRING, and a JSON_NUMBER's text */
    char **arr; /* JSON_ARRAY of strings */
    int arr_len;
    bool boolean;
} JsonField;

typedef struct {
    JsonField *fields;
    int count, capacity;
} JsonObject;

/* Parses one object (blanks around it allowed). false with the reason and the byte where it went
 * wrong, counted from 0 ("expected ':' at byte 5"; err may be NULL); the object is then empty.
 * json_free releases it either way. */
bool json_parse_object(const char *line, JsonObject *o, char *err, size_t err_size);
void json_free(JsonObject *o);

/* The first member with this key, or NULL. */
const JsonField *json_get(const JsonObject *o, const char *key);
/* A string member's value; NULL when missing or not a string. */
const char *json_str(const JsonObject *o, const char *key);

/* A JSON-lines file read a line at a time; n counts the lines read so far. */
typedef struct {
    DataFile *file;
    char *line;
    size_t cap;
    int n;
} JsonLines;

/* false with the message when the file cannot be opened. */
bool json_lines_open(JsonLines *r, const char *path, char *err, size_t err_size);
/* The next line whose index (from 0) is a multiple of every (1: every line); NULL at the end. */
const char *json_lines_next(JsonLines *r, int every);
/* false with the message when the text ended on an error (a truncated or corrupt file). */
bool json_lines_close(JsonLines *r, char *err, size_t err_size); /* r->n stays the count */

/* The games of a JSON-lines file, one per non-blank line, into `out`: "start_fen" (the start position
 * when missing) and "moves" (an array of UCI moves, ranks from 1), every move checked; the other
 * string and number members become the game's tags, named by their keys, in order. The rules are
 * `forced` when given, else the line's "variant" member, else `default_rules`. A line that is not a
 * game (not an object, no "moves", a bad FEN, an illegal move) is a game marked not ok with the
 * reason. false with the message only when the file cannot be read to its end. */
bool jsonl_read_games(const char *path, const RuleSet *default_rules, const RuleSet *forced, ParsedGameList *out,
                      char *err, size_t err_size);
/* One line's game, as jsonl_read_games reads it, into `game` (from record_list_add; line_no for messages). */
void jsonl_parse_game(const char *line, int line_no, const RuleSet *default_rules, const RuleSet *forced,
                      ParsedGame *game);

#endif

/* PGN for Janggi, as pychess-variants exports it: tag pairs ([Variant "Janggi"], [FEN], ...), then
 * movetext in Fairy-Stockfish's SAN or in UCI coordinates. Reading (many games per file, comments,
 * variations and NAGs skipped), SAN in and out. Depends on engine/ only.
 *
 * SAN, as FSF writes it for Janggi: a piece letter K A E H R C P (general, guard, elephant, horse,
 * chariot, cannon, soldier; N and B are read as H and E), the origin when another piece of the same
 * kind could go to the same point (file, else rank, else both), `x` for a capture, the destination
 * with ranks 1-10, and `+` or `#`: `Hc3`, `Ade2`, `Cfxf10`, `Pe5`, `R1a3`. A pass is the general's
 * own point (`Ke2`). Also read: no piece letter (a soldier), a `-` between origin and destination
 * (`Hb1-c3`), FSF's Janggi notation with GIB squares (`H02-83`), UCI moves (`b1c3`, `e2e2`),
 * `pass`, `0000`, `@@@@` and `--`, and the suffixes `+ # ! ?`. */
#ifndef JANGGUN_PGN_H
#define JANGGUN_PGN_H

#include "../position.h"
#include "record.h"

typedef enum {
    PGN_MOVE_OK,
    PGN_MOVE_SYNTAX,   /* not a move in any accepted notation */
    PGN_MOVE_ILLEGAL,  /* no legal move fits */
    PGN_MOVE_AMBIGUOUS /* more than one legal move fits */
} PgnMoveResult;

/* Reads one move of `pos` in any accepted notation. */
PgnMoveResult pgn_parse_move(const Position *pos, const char *text, Move *out);

/* The legal move m in FSF's SAN; buf holds PGN_SAN_SIZE bytes. */
enum { PGN_SAN_SIZE = 16 };
void pgn_move_to_san(const Position *pos, Move m, char *buf);

/* Reads every game of a PGN text into `out`. The rules are those of the [Variant] tag (janggi,
 * janggicasual, janggimodern, janggitraditional, in any case) unless `forced` is given; no tag means
 * `default_rules`. A game of another variant, a broken tag, a bad FEN or a move that cannot be read
 * or played marks the game unreadable with its line. */
void pgn_parse(const char *text, size_t len, const RuleSet *default_rules, const RuleSet *forced, ParsedGameList *out);

/* The one PGN writer (janggun-match's games, the tests, records read from files): the tags in the
 * order given (quotes and backslashes escaped, a line break as a blank, a NULL value as `?`), a blank
 * line, then the movetext wrapped at 79 columns: move numbers from the start FEN (`1.`, and `N...` for
 * Han's move after a comment or at the start), each move in SAN or UCI text (ranks 1-10, a pass as the
 * general's point twice), each followed by its comment when it has one (`{...}`, braces inside turned
 * into parentheses), the final comment, the result, and a blank line. */
typedef enum { PGN_MOVES_SAN, PGN_MOVES_UCI } PgnMoveStyle;

typedef struct {
    const char *name, *value;
} PgnTag;

typedef struct {
    const PgnTag *tags;
    int tag_count;
    const char *start_fen;
    const RuleSet *rules;
    const Move *moves;
    int move_count;
    PgnMoveStyle style;
    const char *const *comments; /* one per ply, NULL or "" for none; NULL for no comments at all */
    const char *final_comment;   /* NULL for none */
    const char *result;          /* "1-0", "0-1", "1/2-1/2", "*" (NULL: "*") */
} PgnOutput;

/* The PGN text (malloc'd); NULL when the FEN or a move is not legal, or out of memory. */
char *pgn_write(const PgnOutput *game);

/* A game read from a file as PGN text: its tags, [Variant] and [FEN] added when missing, moves in SAN,
 * then the result (the Result tag, or `*`). NULL when a move is not legal. */
char *pgn_game_text(const ParsedGame *game, const RuleSet *rules);

#endif

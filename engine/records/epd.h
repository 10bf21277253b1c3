/* EPD: one position per line, the four FEN fields (board, side, two '-' fields), optionally the two
 * FEN counters, then operations `opcode operand ...;` (`bm Hc3; id "test 1";`). Both the standard form
 * and the form of tests/data/perft/janggi.epd (`FEN ;variant janggi ;D1 32`) are read. The operations
 * are kept as written; `hmvc` and `fmvn` set the counters, and `moves m1 m2 ...` (as in a UCI position
 * command; openings files use it) is also found whole in the line, however long. The one EPD reader:
 * `janggun analyze --epd`, janggun-match's openings and the tests use it. Depends on engine/ only. */
#ifndef JANGGUN_EPD_H
#define JANGGUN_EPD_H

#include <stdbool.h>
#include <stddef.h>

enum { EPD_FEN_SIZE = 128, EPD_MAX_OPS = 32 };

typedef struct {
    char opcode[32];
    char operand[256]; /* the operand words as written (quotes removed from a single string) */
} EpdOperation;

typedef struct {
    char fen[EPD_FEN_SIZE]; /* `<board> <side> <f3> <f4> <halfmove> <fullmove>` */
    EpdOperation ops[EPD_MAX_OPS];
    int op_count;
    bool has_moves; /* a `moves` operation: its moves are line[moves_at .. moves_at + moves_len) */
    size_t moves_at, moves_len;
} EpdPosition;

/* Reads one EPD line. false with a message on a malformed line (the FEN itself is checked later,
 * against the rules, by position_set_fen). Blank lines and `#` comments are not positions: the
 * caller skips them (epd_is_blank). */
bool epd_parse_line(const char *line, EpdPosition *out, char *err, size_t err_size);

/* True for a line that holds no position: empty, spaces only, or a `#` comment. */
bool epd_is_blank(const char *line);

/* The operand of the first operation with this opcode, or NULL. */
const char *epd_operation(const EpdPosition *epd, const char *opcode);

#endif

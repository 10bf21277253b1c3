/* GIB, the Korean game record format: reading (cp949 or UTF-8, many games per file), writing, and the
 * Korean move text `79졸78`. Conventions (bench/data/README.md): a square is two digits, row then
 * column, row 1 = Han's back rank ... 9, 0 = Cho's back rank, column 1-9 = files a-i; Kakao's
 * chess-like squares (`b9馬c7`, digit = rank - 1) are read too. A move is
 * `<from>[side]<piece><to>[타][captured piece][장군|멍군]`, a pass `한수쉼`; move numbers, comments in
 * braces, timing marks `<N>` and stray 0x1A/0xFF bytes are skipped. The start is built from the
 * 초차림/한차림 (or 초포진/한포진) setups, or from a Kakao `[판]` board when that board is a standard
 * start with Cho to move. Depends on engine/ only. */
#ifndef JANGGUN_GIB_H
#define JANGGUN_GIB_H

#include "../position.h"
#include "record.h"

/* Reads every game of a GIB text into `out`, one ParsedGame per header block, in file order. Each move
 * is checked against the board (the piece letter, the side, the captured piece) and the rules; a game
 * with a problem is kept with ok = false, its line and the reason. Returns false (with a message) only
 * when the text as a whole cannot be decoded. */
bool gib_parse(const char *bytes, size_t len, const RuleSet *rules, ParsedGameList *out, char *err, size_t err_size);

/* "utf-8" when the bytes are UTF-8 (a BOM, or valid UTF-8 apart from stray 0xFF bytes), else "cp949". */
const char *gib_detect_encoding(const char *bytes, size_t len);

/* The text as UTF-8 (malloc'd, NUL-terminated): cp949 is converted with iconv; NUL, 0x1A and 0xFF bytes
 * become spaces, bytes that are not cp949 become U+FFFD. Line breaks stay where they were. NULL with a
 * message when cp949 cannot be converted on this system or memory runs out. */
char *gib_decode(const char *bytes, size_t len, char *err, size_t err_size);

/* The move in GIB style, `79졸78`: from, the piece (Cho's soldier 졸, Han's 병), to, then the captured
 * piece when it captures and `장군` when `mark_check` and it gives check; a pass is `한수쉼`. The move
 * must be legal in `pos`. buf holds GIB_MOVE_TEXT_SIZE bytes. */
enum { GIB_MOVE_TEXT_SIZE = 32 };
void gib_move_text(const Position *pos, Move m, bool mark_check, char *buf);

/* The GIB square of s, two digits (`79` is i4). */
void gib_square_text(Square s, char buf[3]);

/* The result and termination of a 대국결과 text, as tests/data/result_mapping.tsv maps them: result
 * "cho", "han", "draw" or "unknown"; termination "normal", "resign", "time", "count", "draw" or
 * "unknown". NULL text (no tag) gives unknown, unknown. */
void gib_result(const char *text, const char **result, const char **termination);

/* The setup names (마상상마 ...) of a standard start FEN with Cho to move, in buffers of 16 bytes;
 * false when the FEN is not one of the 16 standard starts. */
bool gib_setups(const char *fen, char *cho, char *han);

/* The game as GIB text (UTF-8, malloc'd): its tags in order, with 초차림/한차림 set from the start
 * position (초포진/한포진/판 left out) and 총수 from the moves, then numbered moves with captures and
 * 장군 marks, six to a line. NULL when the start is not a standard setup or a move is not legal. */
char *gib_game_text(const ParsedGame *game, const RuleSet *rules);

#endif

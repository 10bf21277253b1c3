/* Training positions as packed 40-byte records: the file format the data generator writes and
 * janggun-train reads (README, "Training data"), packing a position with its labels and unpacking it into
 * a Position that holds what the network's features read. No search, no I/O beyond reading a file. */
#ifndef JANGGUN_PACKED_H
#define JANGGUN_PACKED_H

#include <stddef.h>
#include <stdint.h>

#include "../../engine/position.h"

enum { PACKED_SIZE = 40, PACKED_MAX_PIECES = 32 };

/* Results, from Cho's point of view. */
enum { PACKED_HAN_WINS = 0, PACKED_DRAW = 1, PACKED_CHO_WINS = 2 };

/* Flags. */
enum { PACKED_QUIET = 1, PACKED_IN_CHECK = 2, PACKED_CAPTURE = 4 };

/* One record, little-endian on disk, no padding:
 *   0  12  occupancy: bit s (byte s / 8, bit s % 8) set when point s = 9 x rank + file holds a piece
 *  12  16  the pieces in point order, 4 bits each (low nibble first): type (1 soldier .. 7 general) + 8 for Han
 *  28   1  side to move: 0 Cho, 1 Han
 *  29   1  result: 0 Han won, 1 draw, 2 Cho won
 *  30   1  flags: 1 quiet (not in check, best move not a capture), 2 in check, 4 best move a capture
 *  31   1  rule set: index into rules_all (0 janggi)
 *  32   2  int16 score: the search's, side to move's view, evaluation centipawns
 *  34   2  ply of the game (from its start position)
 *  36   2  plies since the last capture
 *  38   2  0 */
typedef struct {
    uint8_t bytes[PACKED_SIZE];
} PackedRecord;

/* Packs `pos` with its labels; false when it has more than 32 pieces. */
bool packed_write(const Position *pos, int score, int result, int flags, int rules_index, int ply, PackedRecord *out);

/* The fields. */
static inline int packed_side(const PackedRecord *r) { return r->bytes[28]; }
static inline int packed_result(const PackedRecord *r) { return r->bytes[29]; }
static inline int packed_flags(const PackedRecord *r) { return r->bytes[30]; }
static inline int packed_score(const PackedRecord *r) { return (int16_t)(uint16_t)(r->bytes[32] | r->bytes[33] << 8); }
static inline int packed_ply(const PackedRecord *r) { return r->bytes[34] | r->bytes[35] << 8; }

/* Fills the position's board, colour and type sets, occupancy, generals and side to move (what the
 * features and the output bucket read; nothing else is set up: no state, no key, no rules). false
 * when the record is malformed (a bad piece code, not one general a side, a nibble past the pieces). */
bool packed_read(const PackedRecord *r, Position *pos);

/* A whole file of records, plain or xz-compressed (malloc'ed); a trailing partial record is dropped and
 * counted in *partial. On error NULL, with a message that names the file. */
PackedRecord *packed_load(const char *path, size_t *count, size_t *partial, char *err, size_t err_size);

#endif

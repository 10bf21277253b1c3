/* Packed training records (see packed.h). */
#include "packed.h"

#include <stdlib.h>
#include <string.h>

#include "../../engine/base/base.h"
#include "../../engine/base/datafile.h"

bool packed_write(const Position *pos, int score, int result, int flags, int rules_index, int ply, PackedRecord *out)
{
    memset(out, 0, sizeof *out);
    uint8_t *b = out->bytes;
    int n = 0;
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        Piece p = pos->board[s];
        if (p == NO_PIECE)
            continue;
        if (n == PACKED_MAX_PIECES)
            return false;
        b[s / 8] |= (uint8_t)(1 << (s % 8));
        b[12 + n / 2] |= (uint8_t)(p << (n % 2 * 4));
        n++;
    }
    if (score > INT16_MAX)
        score = INT16_MAX;
    if (score < -INT16_MAX)
        score = -INT16_MAX;
    b[28] = (uint8_t)pos->side;
    b[29] = (uint8_t)result;
    b[30] = (uint8_t)flags;
    b[31] = (uint8_t)rules_index;
    b[32] = (uint8_t)((uint16_t)score & 0xff);
    b[33] = (uint8_t)((uint16_t)score >> 8);
    b[34] = (uint8_t)(ply & 0xff);
    b[35] = (uint8_t)(ply >> 8 & 0xff);
    int halfmove = pos->st ? pos->st->halfmove : 0;
    b[36] = (uint8_t)(halfmove & 0xff);
    b[37] = (uint8_t)(halfmove >> 8 & 0xff);
    return true;
}

bool packed_read(const PackedRecord *r, Position *pos)
{
    const uint8_t *b = r->bytes;
    position_clear_board(pos);
    int n = 0, generals[COLOR_COUNT] = {0, 0};
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        if (!(b[s / 8] >> (s % 8) & 1))
            continue;
        if (n == PACKED_MAX_PIECES)
            return false;
        Piece p = (Piece)(b[12 + n / 2] >> (n % 2 * 4) & 0xf);
        n++;
        PieceType pt = piece_type(p);
        if (pt == NO_PIECE_TYPE)
            return false;
        position_put_piece(pos, p, s);
        generals[piece_color(p)] += pt == GENERAL;
    }
    for (Square s = SQUARE_COUNT; s < 96; s++)
        if (b[s / 8] >> (s % 8) & 1)
            return false;
    if (generals[WHITE] != 1 || generals[BLACK] != 1 || b[28] > 1 || b[29] > 2)
        return false;
    pos->side = (Color)b[28];
    return true;
}

PackedRecord *packed_load(const char *path, size_t *count, size_t *partial, char *err, size_t err_size)
{
    /* Plain or xz-compressed, told by the file's first bytes (datafile.h): the records kept in the
     * repository are compressed. */
    DataFile *file = datafile_open(path, err, err_size);
    if (!file)
        return NULL;
    StrBuf b = {0};
    char chunk[1 << 16];
    for (size_t n; (n = fread(chunk, 1, sizeof chunk, datafile_stream(file))) > 0;)
        strbuf_add(&b, chunk, n);
    size_t len = b.len;
    if (!datafile_close(file, err, err_size)) {
        strbuf_free(&b);
        return NULL;
    }
    char *data = strbuf_take(&b);
    if (!data) {
        snprintf(err, err_size, "%s: out of memory", path);
        return NULL;
    }
    *count = len / PACKED_SIZE;
    *partial = len % PACKED_SIZE;
    return (PackedRecord *)data; /* malloc'ed, byte-aligned records */
}

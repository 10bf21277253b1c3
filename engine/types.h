/* Scalar types shared by every module: colours, piece types, squares, moves and the 90-square
 * bitboard. Only typedefs, enums and tiny helpers live here; each module defines its own structs. */
#ifndef JANGGUN_TYPES_H
#define JANGGUN_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef unsigned __int128 Bitboard;

enum { FILE_COUNT = 9, RANK_COUNT = 10, SQUARE_COUNT = 90 };

/* Cho (blue, uppercase, moves first) is WHITE; Han (red, lowercase) is BLACK. */
typedef enum { WHITE = 0, BLACK = 1, COLOR_COUNT = 2 } Color;

typedef enum {
    NO_PIECE_TYPE = 0,
    SOLDIER,
    GUARD,
    ELEPHANT,
    HORSE,
    CANNON,
    CHARIOT,
    GENERAL,
    PIECE_TYPE_COUNT
} PieceType;

/* A piece is its type plus 8 for Han; 0 is an empty point. */
typedef uint8_t Piece;
enum { NO_PIECE = 0, PIECE_COUNT = 16 };

/* Square index 9*rank + file, rank 0 = Cho's back rank, file 0 = file a. */
typedef int Square;
enum { SQ_NONE = -1 };

/* A move is from | to << 7. A pass is the general's own square twice, so the null value 0
 * (a1a1) can never be a move: no general ever stands on a1. */
typedef uint16_t Move;
enum { MOVE_NONE = 0 };

/* The longest move list a Janggi position can have is far below this. */
enum { MAX_MOVES = 256 };

static inline Color color_flip(Color c) { return (Color)(c ^ 1); }
static inline Piece make_piece(Color c, PieceType pt) { return (Piece)(pt | (c << 3)); }
static inline PieceType piece_type(Piece p) { return (PieceType)(p & 7); }
static inline Color piece_color(Piece p) { return (Color)(p >> 3); }

static inline int square_file(Square s) { return s % FILE_COUNT; }
static inline int square_rank(Square s) { return s / FILE_COUNT; }
static inline Square make_square(int file, int rank) { return rank * FILE_COUNT + file; }

static inline Move make_move(Square from, Square to) { return (Move)(from | (to << 7)); }
static inline Square move_from(Move m) { return m & 0x7f; }
static inline Square move_to(Move m) { return m >> 7; }
static inline bool move_is_pass(Move m) { return move_from(m) == move_to(m); }

#endif

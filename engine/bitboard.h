/* The 90-point bitboard: square masks, the file-major ("transposed") copy used to read a file's
 * occupancy, and every precomputed attack table. Attacks never walk rays at run time: chariots and
 * cannons read rank and file occupancy tables, horses and elephants are lame leapers keyed by their
 * blocking points, and the palace diagonals have their own small tables. */
#ifndef JANGGUN_BITBOARD_H
#define JANGGUN_BITBOARD_H

#include "types.h"

extern Bitboard square_bb_table[SQUARE_COUNT];
extern Bitboard square_tbb_table[SQUARE_COUNT]; /* the same point in the file-major layout */
extern Bitboard file_bb_table[FILE_COUNT];
extern Bitboard rank_bb_table[RANK_COUNT];
extern Bitboard palace_bb[COLOR_COUNT];
extern Bitboard palace_diagonal_points; /* d1 f1 e2 d3 f3 d8 f8 e9 d10 f10 */

/* Squares whose change of occupancy can alter whether a general on this square is attacked: its
 * rank and file, its palace's diagonal points, and the diagonal rings at distance 1 (horse legs,
 * elephant eyes) and 2 (elephant eyes). */
extern Bitboard king_danger_bb[SQUARE_COUNT];
extern Bitboard diagonal_ring1_bb[SQUARE_COUNT];
extern Bitboard diagonal_ring2_bb[SQUARE_COUNT];

/* Points strictly between two points on one rank, file or palace diagonal; 0 otherwise. */
extern Bitboard between_bb[SQUARE_COUNT][SQUARE_COUNT];
/* Points from which a chariot or cannon could reach s along a line: rank, file, and for a palace
 * diagonal point the other diagonal points of its palace. */
extern Bitboard line_reach_bb[SQUARE_COUNT];
/* Points from which an elephant could reach s on an empty board. */
extern Bitboard elephant_reach_bb[SQUARE_COUNT];

extern uint16_t rank_slide_table[FILE_COUNT][128];
extern uint16_t rank_hop_table[FILE_COUNT][128];
extern Bitboard file_slide_table[RANK_COUNT][256];
extern Bitboard file_hop_table[RANK_COUNT][256];

extern Bitboard horse_moves_table[SQUARE_COUNT][16];     /* keyed by the 4 orthogonal legs */
extern Bitboard horse_attackers_table[SQUARE_COUNT][16]; /* keyed by the 4 diagonal neighbours */
extern int8_t orthogonal_neighbour[SQUARE_COUNT][4];     /* N E S W, -1 off the board */
extern int8_t diagonal_neighbour[SQUARE_COUNT][4];       /* NE SE SW NW, -1 off the board */

typedef struct {
    Bitboard target;
    Bitboard blockers; /* both intermediate points */
} ElephantStep;
extern ElephantStep elephant_moves_table[SQUARE_COUNT][8];
extern uint8_t elephant_moves_count[SQUARE_COUNT];
extern ElephantStep elephant_attackers_table[SQUARE_COUNT][8]; /* target = elephant's origin */
extern uint8_t elephant_attackers_count[SQUARE_COUNT];

extern Bitboard soldier_moves_table[COLOR_COUNT][SQUARE_COUNT];
extern Bitboard soldier_attackers_table[COLOR_COUNT][SQUARE_COUNT];
extern Bitboard palace_step_table[SQUARE_COUNT]; /* general and guard steps, within the palace */

/* Palace diagonals: for a diagonal point, the palace centre and, for a corner, the opposite corner. */
extern int8_t palace_centre_of[SQUARE_COUNT];
extern int8_t palace_opposite_corner[SQUARE_COUNT];

void bitboard_init(void);

static inline Bitboard bb_square(Square s) { return square_bb_table[s]; }
static inline Bitboard bb_tsquare(Square s) { return square_tbb_table[s]; }
static inline bool bb_test(Bitboard b, Square s) { return (b & square_bb_table[s]) != 0; }
static inline bool bb_any(Bitboard b) { return b != 0; }

static inline int bb_popcount(Bitboard b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}

static inline Square bb_lsb(Bitboard b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline Square bb_pop_lsb(Bitboard *b)
{
    Square s = bb_lsb(*b);
    *b &= *b - 1;
    return s;
}

static inline bool bb_more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

/* occ is rank-major, occ_t the same set file-major (bit 10*file + rank). */
static inline unsigned rank_inner_occupancy(Bitboard occ, int rank)
{
    return (unsigned)(occ >> (FILE_COUNT * rank + 1)) & 0x7f;
}

static inline unsigned file_inner_occupancy(Bitboard occ_t, int file)
{
    return (unsigned)(occ_t >> (RANK_COUNT * file + 1)) & 0xff;
}

static inline Bitboard file_slide(Square s, Bitboard occ_t)
{
    return file_slide_table[square_rank(s)][file_inner_occupancy(occ_t, square_file(s))] << square_file(s);
}

static inline Bitboard rank_slide(Square s, Bitboard occ)
{
    int r = square_rank(s);
    return (Bitboard)rank_slide_table[square_file(s)][rank_inner_occupancy(occ, r)] << (FILE_COUNT * r);
}

static inline Bitboard file_hop(Square s, Bitboard occ_t)
{
    return file_hop_table[square_rank(s)][file_inner_occupancy(occ_t, square_file(s))] << square_file(s);
}

static inline Bitboard rank_hop(Square s, Bitboard occ)
{
    int r = square_rank(s);
    return (Bitboard)rank_hop_table[square_file(s)][rank_inner_occupancy(occ, r)] << (FILE_COUNT * r);
}

/* Chariot moves along its rank and file (not the palace diagonals). */
static inline Bitboard chariot_line_attacks(Square s, Bitboard occ, Bitboard occ_t)
{
    return rank_slide(s, occ) | file_slide(s, occ_t);
}

/* Points a cannon reaches by jumping the first piece on its rank and file: the empty points beyond
 * the screen up to and including the next piece. Cannon restrictions are applied by the caller. */
static inline Bitboard cannon_line_hops(Square s, Bitboard occ, Bitboard occ_t)
{
    return rank_hop(s, occ) | file_hop(s, occ_t);
}

/* Chariot slides along the palace diagonals from a diagonal point. */
static inline Bitboard chariot_diagonal_attacks(Square s, Bitboard occ)
{
    int centre = palace_centre_of[s];
    if (centre < 0)
        return 0;
    if (centre == s) {
        Bitboard corners = 0;
        for (int i = 0; i < 4; i++)
            corners |= bb_square(diagonal_neighbour[s][i]);
        return corners;
    }
    Bitboard result = bb_square(centre);
    if (!bb_test(occ, centre))
        result |= bb_square(palace_opposite_corner[s]);
    return result;
}

/* Cannon hop from a palace corner over the centre to the opposite corner; the screen must not be a
 * cannon. Whether the landing point may be taken is the caller's business. */
static inline Bitboard cannon_diagonal_hops(Square s, Bitboard occ, Bitboard cannons)
{
    int centre = palace_centre_of[s];
    if (centre < 0 || centre == s)
        return 0;
    Bitboard screen = bb_square(centre);
    if ((occ & screen) && !(cannons & screen))
        return bb_square(palace_opposite_corner[s]);
    return 0;
}

static inline unsigned neighbour_occupancy(Bitboard occ, const int8_t n[4])
{
    unsigned idx = 0;
    for (int i = 0; i < 4; i++)
        if (n[i] < 0 || bb_test(occ, n[i]))
            idx |= 1u << i;
    return idx;
}

static inline Bitboard horse_moves(Square s, Bitboard occ)
{
    return horse_moves_table[s][neighbour_occupancy(occ, orthogonal_neighbour[s])];
}

static inline Bitboard horse_attackers(Square s, Bitboard occ)
{
    return horse_attackers_table[s][neighbour_occupancy(occ, diagonal_neighbour[s])];
}

/* The targets of those steps whose two blocking points are both empty. */
static inline Bitboard elephant_steps(const ElephantStep *step, int count, Bitboard occ)
{
    Bitboard result = 0;
    for (int i = 0; i < count; i++)
        if (!(occ & step[i].blockers))
            result |= step[i].target;
    return result;
}

static inline Bitboard elephant_moves(Square s, Bitboard occ)
{
    return elephant_steps(elephant_moves_table[s], elephant_moves_count[s], occ);
}

static inline Bitboard elephant_attackers(Square s, Bitboard occ)
{
    return elephant_steps(elephant_attackers_table[s], elephant_attackers_count[s], occ);
}

#endif

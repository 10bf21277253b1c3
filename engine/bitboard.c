/* Builds the masks and attack tables declared in bitboard.h, once, at start-up. */
#include "bitboard.h"

#include <stddef.h>

Bitboard square_bb_table[SQUARE_COUNT];
Bitboard square_tbb_table[SQUARE_COUNT];
Bitboard file_bb_table[FILE_COUNT];
Bitboard rank_bb_table[RANK_COUNT];
Bitboard palace_bb[COLOR_COUNT];
Bitboard palace_diagonal_points;
Bitboard king_danger_bb[SQUARE_COUNT];
Bitboard diagonal_ring1_bb[SQUARE_COUNT];
Bitboard diagonal_ring2_bb[SQUARE_COUNT];
Bitboard between_bb[SQUARE_COUNT][SQUARE_COUNT];
Bitboard line_reach_bb[SQUARE_COUNT];
Bitboard elephant_reach_bb[SQUARE_COUNT];

uint16_t rank_slide_table[FILE_COUNT][128];
uint16_t rank_hop_table[FILE_COUNT][128];
Bitboard file_slide_table[RANK_COUNT][256];
Bitboard file_hop_table[RANK_COUNT][256];

Bitboard horse_moves_table[SQUARE_COUNT][16];
Bitboard horse_attackers_table[SQUARE_COUNT][16];
int8_t orthogonal_neighbour[SQUARE_COUNT][4];
int8_t diagonal_neighbour[SQUARE_COUNT][4];

ElephantStep elephant_moves_table[SQUARE_COUNT][8];
uint8_t elephant_moves_count[SQUARE_COUNT];
ElephantStep elephant_attackers_table[SQUARE_COUNT][8];
uint8_t elephant_attackers_count[SQUARE_COUNT];

Bitboard soldier_moves_table[COLOR_COUNT][SQUARE_COUNT];
Bitboard soldier_attackers_table[COLOR_COUNT][SQUARE_COUNT];
Bitboard palace_step_table[SQUARE_COUNT];

int8_t palace_centre_of[SQUARE_COUNT];
int8_t palace_opposite_corner[SQUARE_COUNT];

static const int orthogonal_delta[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
static const int diagonal_delta[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};

static bool on_board(int file, int rank) { return file >= 0 && file < FILE_COUNT && rank >= 0 && rank < RANK_COUNT; }

static Square offset_square(Square s, int df, int dr)
{
    int f = square_file(s) + df, r = square_rank(s) + dr;
    return on_board(f, r) ? make_square(f, r) : SQ_NONE;
}

/* Slide (hop = false) or cannon hop (hop = true) along a line of `length` points from `pos`. */
static unsigned line_targets(int pos, unsigned occ, int length, bool hop)
{
    unsigned result = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        bool screened = false;
        for (int p = pos + dir; p >= 0 && p < length; p += dir) {
            bool occupied = (occ >> p) & 1;
            if (!hop || screened)
                result |= 1u << p;
            if (occupied) {
                if (!hop || screened)
                    break;
                screened = true;
            }
        }
    }
    return result;
}

static void init_line_tables(void)
{
    for (int f = 0; f < FILE_COUNT; f++)
        for (unsigned idx = 0; idx < 128; idx++) {
            rank_slide_table[f][idx] = (uint16_t)line_targets(f, idx << 1, FILE_COUNT, false);
            rank_hop_table[f][idx] = (uint16_t)line_targets(f, idx << 1, FILE_COUNT, true);
        }
    for (int r = 0; r < RANK_COUNT; r++)
        for (unsigned idx = 0; idx < 256; idx++) {
            unsigned slide = line_targets(r, idx << 1, RANK_COUNT, false);
            unsigned hop = line_targets(r, idx << 1, RANK_COUNT, true);
            file_slide_table[r][idx] = file_hop_table[r][idx] = 0;
            for (int p = 0; p < RANK_COUNT; p++) {
                if ((slide >> p) & 1)
                    file_slide_table[r][idx] |= bb_square(make_square(0, p));
                if ((hop >> p) & 1)
                    file_hop_table[r][idx] |= bb_square(make_square(0, p));
            }
        }
}

static void init_palaces(void)
{
    static const char diagonal_points[][2] = {{3, 0}, {5, 0}, {4, 1}, {3, 2}, {5, 2},
                                              {3, 7}, {5, 7}, {4, 8}, {3, 9}, {5, 9}};
    for (int r = 0; r < 3; r++)
        for (int f = 3; f <= 5; f++) {
            palace_bb[WHITE] |= bb_square(make_square(f, r));
            palace_bb[BLACK] |= bb_square(make_square(f, RANK_COUNT - 1 - r));
        }
    for (Square s = 0; s < SQUARE_COUNT; s++)
        palace_centre_of[s] = palace_opposite_corner[s] = -1;
    for (size_t i = 0; i < sizeof diagonal_points / sizeof diagonal_points[0]; i++) {
        Square s = make_square(diagonal_points[i][0], diagonal_points[i][1]);
        Square centre = make_square(4, diagonal_points[i][1] < 5 ? 1 : 8);
        palace_diagonal_points |= bb_square(s);
        palace_centre_of[s] = (int8_t)centre;
        if (s != centre)
            palace_opposite_corner[s] = (int8_t)(2 * centre - s);
    }
}

static void init_leapers(void)
{
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        for (int d = 0; d < 4; d++) {
            orthogonal_neighbour[s][d] = (int8_t)offset_square(s, orthogonal_delta[d][0], orthogonal_delta[d][1]);
            diagonal_neighbour[s][d] = (int8_t)offset_square(s, diagonal_delta[d][0], diagonal_delta[d][1]);
        }
        for (unsigned legs = 0; legs < 16; legs++) {
            Bitboard moves = 0, attackers = 0;
            for (int d = 0; d < 4; d++) {
                int df = orthogonal_delta[d][0], dr = orthogonal_delta[d][1];
                /* A free orthogonal leg lets the horse continue one step diagonally outward. */
                if (!(legs & (1u << d)) && orthogonal_neighbour[s][d] >= 0)
                    for (int side = -1; side <= 1; side += 2) {
                        Square t = offset_square(s, 2 * df + side * dr, 2 * dr + side * df);
                        if (t != SQ_NONE)
                            moves |= bb_square(t);
                    }
                /* A free diagonal neighbour is the leg of the two horses beyond it. */
                int ef = diagonal_delta[d][0], er = diagonal_delta[d][1];
                if (!(legs & (1u << d)) && diagonal_neighbour[s][d] >= 0) {
                    Square a = offset_square(s, ef, 2 * er), b = offset_square(s, 2 * ef, er);
                    if (a != SQ_NONE)
                        attackers |= bb_square(a);
                    if (b != SQ_NONE)
                        attackers |= bb_square(b);
                }
            }
            horse_moves_table[s][legs] = moves;
            horse_attackers_table[s][legs] = attackers;
        }
    }
    /* Elephant: one orthogonal step, then two diagonal steps outward; both stops must be empty. */
    for (Square s = 0; s < SQUARE_COUNT; s++)
        for (int d = 0; d < 4; d++) {
            int df = orthogonal_delta[d][0], dr = orthogonal_delta[d][1];
            for (int side = -1; side <= 1; side += 2) {
                int sf = side * dr, sr = side * df; /* perpendicular component */
                Square b1 = offset_square(s, df, dr);
                Square b2 = offset_square(s, 2 * df + sf, 2 * dr + sr);
                Square t = offset_square(s, 3 * df + 2 * sf, 3 * dr + 2 * sr);
                if (b1 == SQ_NONE || b2 == SQ_NONE || t == SQ_NONE)
                    continue;
                Bitboard blockers = bb_square(b1) | bb_square(b2);
                elephant_moves_table[s][elephant_moves_count[s]++] = (ElephantStep){bb_square(t), blockers};
                elephant_attackers_table[t][elephant_attackers_count[t]++] = (ElephantStep){bb_square(s), blockers};
                elephant_reach_bb[t] |= bb_square(s);
            }
        }
}

static void init_steppers(void)
{
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        Bitboard diagonal_steps = 0;
        if (bb_test(palace_diagonal_points, s))
            for (int d = 0; d < 4; d++)
                if (diagonal_neighbour[s][d] >= 0 && bb_test(palace_diagonal_points, diagonal_neighbour[s][d]))
                    diagonal_steps |= bb_square(diagonal_neighbour[s][d]);
        for (Color c = WHITE; c <= BLACK; c++) {
            int forward = c == WHITE ? 1 : -1;
            Bitboard moves = 0;
            Square t;
            if ((t = offset_square(s, 0, forward)) != SQ_NONE)
                moves |= bb_square(t);
            if ((t = offset_square(s, 1, 0)) != SQ_NONE)
                moves |= bb_square(t);
            if ((t = offset_square(s, -1, 0)) != SQ_NONE)
                moves |= bb_square(t);
            for (int d = 0; d < 4; d++) {
                int n = diagonal_neighbour[s][d];
                if (n >= 0 && bb_test(diagonal_steps, n) && diagonal_delta[d][1] == forward)
                    moves |= bb_square(n);
            }
            soldier_moves_table[c][s] = moves;
        }
        Bitboard palace = bb_test(palace_bb[WHITE], s)   ? palace_bb[WHITE]
                          : bb_test(palace_bb[BLACK], s) ? palace_bb[BLACK]
                                                         : 0;
        Bitboard steps = diagonal_steps;
        for (int d = 0; d < 4; d++)
            if (orthogonal_neighbour[s][d] >= 0)
                steps |= bb_square(orthogonal_neighbour[s][d]);
        palace_step_table[s] = steps & palace;
    }
    for (Color c = WHITE; c <= BLACK; c++)
        for (Square s = 0; s < SQUARE_COUNT; s++)
            for (Bitboard b = soldier_moves_table[c][s]; b;)
                soldier_attackers_table[c][bb_pop_lsb(&b)] |= bb_square(s);
}

static void init_danger(void)
{
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        Bitboard danger = rank_bb_table[square_rank(s)] | file_bb_table[square_file(s)];
        if (bb_test(palace_diagonal_points, s))
            danger |= palace_diagonal_points & (bb_test(palace_bb[WHITE], s) ? palace_bb[WHITE] : palace_bb[BLACK]);
        for (int d = 0; d < 4; d++)
            for (int k = 1; k <= 2; k++) {
                Square t = offset_square(s, k * diagonal_delta[d][0], k * diagonal_delta[d][1]);
                if (t != SQ_NONE)
                    (k == 1 ? diagonal_ring1_bb : diagonal_ring2_bb)[s] |= bb_square(t);
            }
        king_danger_bb[s] = danger | diagonal_ring1_bb[s] | diagonal_ring2_bb[s];
    }
}

static void init_lines(void)
{
    for (Square a = 0; a < SQUARE_COUNT; a++) {
        line_reach_bb[a] = (rank_bb_table[square_rank(a)] | file_bb_table[square_file(a)]) & ~bb_square(a);
        if (palace_centre_of[a] >= 0) {
            Bitboard palace = bb_test(palace_bb[WHITE], a) ? palace_bb[WHITE] : palace_bb[BLACK];
            line_reach_bb[a] |= palace & palace_diagonal_points & ~bb_square(a);
        }
        if (palace_opposite_corner[a] >= 0)
            between_bb[a][palace_opposite_corner[a]] = bb_square(palace_centre_of[a]);
        for (Square b = 0; b < SQUARE_COUNT; b++) {
            int df = square_file(b) - square_file(a), dr = square_rank(b) - square_rank(a);
            if (a == b || (df && dr))
                continue;
            int step = df ? (df > 0 ? 1 : -1) : (dr > 0 ? FILE_COUNT : -FILE_COUNT);
            for (Square s = a + step; s != b; s += step)
                between_bb[a][b] |= bb_square(s);
        }
    }
}

void bitboard_init(void)
{
    static bool done = false;
    if (done)
        return;
    done = true;
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        square_bb_table[s] = (Bitboard)1 << s;
        square_tbb_table[s] = (Bitboard)1 << (RANK_COUNT * square_file(s) + square_rank(s));
        file_bb_table[square_file(s)] |= square_bb_table[s];
        rank_bb_table[square_rank(s)] |= square_bb_table[s];
    }
    init_line_tables();
    init_palaces();
    init_leapers();
    init_steppers();
    init_danger();
    init_lines();
}

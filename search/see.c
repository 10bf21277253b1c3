/* Static exchange evaluation, with the cannon rules. */
#include "see.h"

const int see_value[PIECE_TYPE_COUNT] = {0, 100, 150, 150, 350, 450, 1000, 20000};

/* The least valuable attacker of colour `side` on `to` given the occupancy, or SQ_NONE. A cannon
 * never takes a cannon; guards and the general only step within their palace (position_attackers, made
 * for check detection, leaves both out). */
static Square least_attacker(const Position *pos, Square to, Color side, Bitboard occ, Bitboard occ_t, Bitboard cannons,
                             Bitboard cannons_t, PieceType on_target)
{
    Bitboard attackers = position_attackers(pos, to, side, occ, occ_t, cannons, cannons_t, pos->by_color[side] & occ);
    if (on_target == CANNON)
        attackers &= ~cannons;
    attackers |= palace_step_table[to] & pos->by_type[GUARD] & pos->by_color[side] & occ;
    Square g = pos->general[side];
    if (bb_test(occ, g) && bb_test(palace_step_table[g], to))
        attackers |= bb_square(g);
    if (!attackers)
        return SQ_NONE;
    for (PieceType pt = SOLDIER; pt <= GENERAL; pt++) {
        Bitboard b = attackers & pos->by_type[pt];
        if (b)
            return bb_lsb(b);
    }
    return SQ_NONE;
}

/* The material balance of the exchange on the move's target, from the mover's view. */
int see(const Position *pos, Move m)
{
    if (move_is_pass(m))
        return 0;
    Square from = move_from(m), to = move_to(m);
    int gain[40], d = 0;
    PieceType on_target = piece_type(pos->board[from]);
    gain[0] = see_value[piece_type(pos->board[to])];
    Bitboard occ = pos->occupied ^ bb_square(from), occ_t = pos->occupied_t ^ bb_tsquare(from);
    Bitboard cannons = pos->by_type[CANNON] & ~bb_square(from);
    Bitboard cannons_t = pos->cannons_t & ~bb_tsquare(from);
    if (pos->board[to] && piece_type(pos->board[to]) == CANNON) {
        cannons &= ~bb_square(to);
        cannons_t &= ~bb_tsquare(to);
    }
    if (on_target == CANNON) {
        cannons |= bb_square(to);
        cannons_t |= bb_tsquare(to);
    }
    occ |= bb_square(to);
    occ_t |= bb_tsquare(to);
    Color side = color_flip(pos->side);
    while (d < 38) {
        Square s = least_attacker(pos, to, side, occ, occ_t, cannons, cannons_t, on_target);
        if (s == SQ_NONE)
            break;
        PieceType pt = piece_type(pos->board[s]);
        d++;
        gain[d] = see_value[on_target] - gain[d - 1];
        if (on_target == GENERAL)
            break; /* the general was taken: the previous capture was illegal, stop here */
        occ ^= bb_square(s);
        occ_t ^= bb_tsquare(s);
        cannons &= ~bb_square(to);
        cannons_t &= ~bb_tsquare(to);
        if (pt == CANNON) {
            cannons = (cannons & ~bb_square(s)) | bb_square(to);
            cannons_t = (cannons_t & ~bb_tsquare(s)) | bb_tsquare(to);
        }
        on_target = pt;
        side = color_flip(side);
    }
    /* Each side may stop taking when going on loses: from the last capture back to the first. */
    for (; d > 0; d--)
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}

/* Pseudo-legal generation, legality, and the bulk count used at perft leaves. */
#include "movegen.h"

/* Generation order of piece types; the pass comes last. */
static const PieceType generation_order[] = {CHARIOT, CANNON, HORSE, ELEPHANT, SOLDIER, GUARD, GENERAL};

/* Full test of a non-pass move: after it, is the mover's general safe, and is a bikjang broken? */
static bool legal_after_move(const Position *pos, Square from, Square to)
{
    Color us = pos->side, them = color_flip(us);
    Piece pc = pos->board[from];
    Bitboard from_bb = bb_square(from), to_bb = bb_square(to);
    Bitboard from_t = bb_tsquare(from), to_t = bb_tsquare(to);
    Bitboard occ = (pos->occupied ^ from_bb) | to_bb;
    Bitboard occ_t = (pos->occupied_t ^ from_t) | to_t;
    Bitboard cannons = pos->by_type[CANNON], cannons_t = pos->cannons_t;
    if (piece_type(pc) == CANNON) {
        cannons = (cannons ^ from_bb) | to_bb;
        cannons_t = (cannons_t ^ from_t) | to_t;
    } else {
        cannons &= ~to_bb;
        cannons_t &= ~to_t;
    }
    Square general = piece_type(pc) == GENERAL ? to : pos->general[us];
    if (pos->st->bikjang) {
        Square theirs = pos->general[them];
        if (square_file(general) == square_file(theirs)
            && (chariot_line_attacks(general, occ, occ_t) & bb_square(theirs)))
            return false;
    }
    return !position_attackers(pos, general, them, occ, occ_t, cannons, cannons_t, pos->by_color[them] & ~to_bb);
}

/* A move by a piece other than the general, made outside check and bikjang: does it expose our
 * general? Only the lines, legs and eyes that the move touches are examined. */
static bool move_exposes_general(const Position *pos, Square from, Square to)
{
    Color us = pos->side, them = color_flip(us);
    Square general = pos->general[us];
    Bitboard from_bb = bb_square(from), to_bb = bb_square(to), changed = from_bb | to_bb;
    if (!(changed & king_danger_bb[general]))
        return false;
    Bitboard occ = (pos->occupied ^ from_bb) | to_bb;
    Bitboard enemies = pos->by_color[them] & ~to_bb;
    Bitboard chariots = pos->by_type[CHARIOT] & enemies;
    Bitboard cannons = pos->by_type[CANNON], cannons_t = pos->cannons_t;
    Bitboard from_t = bb_tsquare(from), to_t = bb_tsquare(to);
    if (piece_type(pos->board[from]) == CANNON) {
        cannons = (cannons ^ from_bb) | to_bb;
        cannons_t = (cannons_t ^ from_t) | to_t;
    } else {
        cannons &= ~to_bb;
        cannons_t &= ~to_t;
    }
    Bitboard enemy_cannons = cannons & enemies;
    if (changed & file_bb_table[square_file(general)]) {
        Bitboard occ_t = (pos->occupied_t ^ from_t) | to_t;
        if ((file_slide(general, occ_t) & chariots)
            || (enemy_cannons && (file_hop(general, occ_t) & file_hop(general, occ_t & ~cannons_t) & enemy_cannons)))
            return true;
    }
    if (changed & rank_bb_table[square_rank(general)]) {
        if ((rank_slide(general, occ) & chariots)
            || (enemy_cannons && (rank_hop(general, occ) & rank_hop(general, occ & ~cannons) & enemy_cannons)))
            return true;
    }
    if (bb_test(palace_diagonal_points, general) && (changed & palace_diagonal_points)) {
        if ((chariot_diagonal_attacks(general, occ) & chariots)
            || (cannon_diagonal_hops(general, occ, cannons) & enemy_cannons))
            return true;
    }
    /* Adding a piece never opens a leg or an eye, so only the origin matters here. */
    if ((from_bb & diagonal_ring1_bb[general]) && (horse_attackers(general, occ) & pos->by_type[HORSE] & enemies))
        return true;
    if ((from_bb & (diagonal_ring1_bb[general] | diagonal_ring2_bb[general]))
        && (elephant_attackers(general, occ) & pos->by_type[ELEPHANT] & enemies))
        return true;
    return false;
}

/* Outside check and bikjang, the moves of pieces other than the general that might expose it: a
 * move from a point in `from` or to a point in `to` needs move_exposes_general; any other move is
 * legal. `from` holds our lone blockers of enemy chariots, horses and elephants and the blockers of
 * enemy cannons with at most two pieces between; `to` holds the points between our general and
 * such cannons (a piece arriving there can become a screen). */
typedef struct {
    Bitboard from, to;
} Exposure;

static void find_exposure(const Position *pos, Exposure *e)
{
    Color us = pos->side, them = color_flip(us);
    Square general = pos->general[us];
    Bitboard occ = pos->occupied, ours = pos->by_color[us];
    e->from = e->to = 0;
    for (Bitboard snipers = position_pieces(pos, them, CHARIOT) & line_reach_bb[general]; snipers;) {
        Bitboard blockers = between_bb[general][bb_pop_lsb(&snipers)] & occ;
        if (!bb_more_than_one(blockers))
            e->from |= blockers & ours;
    }
    for (Bitboard snipers = position_pieces(pos, them, CANNON) & line_reach_bb[general]; snipers;) {
        Bitboard between = between_bb[general][bb_pop_lsb(&snipers)];
        if (bb_popcount(between & occ) <= 2) {
            e->from |= between & ours;
            e->to |= between;
        }
    }
    Bitboard horses = position_pieces(pos, them, HORSE);
    for (int d = 0; horses && d < 4; d++) {
        int leg = diagonal_neighbour[general][d];
        if (leg >= 0 && bb_test(ours, leg) && (horse_attackers_table[general][0xf ^ (1u << d)] & horses))
            e->from |= bb_square(leg);
    }
    Bitboard elephants = position_pieces(pos, them, ELEPHANT);
    const ElephantStep *step = elephant_attackers_table[general];
    for (int i = 0, n = elephants ? elephant_attackers_count[general] : 0; i < n; i++)
        if (step[i].target & elephants) {
            Bitboard blockers = step[i].blockers & occ;
            if (!bb_more_than_one(blockers))
                e->from |= blockers & ours;
        }
}

bool movegen_is_legal(const Position *pos, Move m)
{
    const StateInfo *st = pos->st;
    if (move_is_pass(m))
        return st->bikjang || !st->checkers;
    Square from = move_from(m), to = move_to(m);
    if (!st->checkers && !st->bikjang && piece_type(pos->board[from]) != GENERAL)
        return !move_exposes_general(pos, from, to);
    return legal_after_move(pos, from, to);
}

void movegen_pseudo(const Position *pos, GenKind kind, MoveList *list)
{
    Color us = pos->side;
    Bitboard target_mask = kind == GEN_CAPTURES ? pos->by_color[color_flip(us)]
                           : kind == GEN_QUIETS ? ~pos->occupied
                                                : ~pos->by_color[us];
    for (size_t i = 0; i < sizeof generation_order / sizeof generation_order[0]; i++) {
        PieceType pt = generation_order[i];
        for (Bitboard pieces = position_pieces(pos, us, pt); pieces;) {
            Square from = bb_pop_lsb(&pieces);
            for (Bitboard targets = movegen_piece_reach(pos, pt, from, us) & target_mask; targets;)
                list->moves[list->count++] = make_move(from, bb_pop_lsb(&targets));
        }
    }
    if (kind != GEN_CAPTURES)
        list->moves[list->count++] = make_move(pos->general[us], pos->general[us]);
}

void movegen_legal(const Position *pos, MoveList *list)
{
    list->count = 0;
    if (position_is_immediate_end(pos))
        return;
    MoveList pseudo;
    pseudo.count = 0;
    movegen_pseudo(pos, GEN_ALL, &pseudo);
    for (int i = 0; i < pseudo.count; i++)
        if (movegen_is_legal(pos, pseudo.moves[i]))
            list->moves[list->count++] = pseudo.moves[i];
}

static int count_unexposed(const Position *pos, Square from, Bitboard targets)
{
    int n = 0;
    while (targets)
        n += !move_exposes_general(pos, from, bb_pop_lsb(&targets));
    return n;
}

/* Legal moves of the pieces of one type (not the general), outside check and bikjang. */
static inline __attribute__((always_inline)) int count_piece_moves(const Position *pos, PieceType pt,
                                                                   const Exposure *exposure)
{
    Color us = pos->side;
    Bitboard not_own = ~pos->by_color[us];
    int n = 0;
    for (Bitboard pieces = position_pieces(pos, us, pt); pieces;) {
        Square from = bb_pop_lsb(&pieces);
        Bitboard targets = movegen_piece_reach(pos, pt, from, us) & not_own;
        if (bb_test(exposure->from, from))
            n += count_unexposed(pos, from, targets);
        else
            n += bb_popcount(targets & ~exposure->to) + count_unexposed(pos, from, targets & exposure->to);
    }
    return n;
}

int movegen_count_legal(const Position *pos)
{
    if (position_is_immediate_end(pos))
        return 0;
    const StateInfo *st = pos->st;
    if (st->checkers || st->bikjang) {
        MoveList list;
        movegen_legal(pos, &list);
        return list.count;
    }
    Color us = pos->side;
    Exposure exposure;
    find_exposure(pos, &exposure);
    Bitboard not_own = ~pos->by_color[us];
    int n = 1; /* the pass */
    n += count_piece_moves(pos, CHARIOT, &exposure);
    n += count_piece_moves(pos, CANNON, &exposure);
    n += count_piece_moves(pos, HORSE, &exposure);
    n += count_piece_moves(pos, ELEPHANT, &exposure);
    n += count_piece_moves(pos, SOLDIER, &exposure);
    n += count_piece_moves(pos, GUARD, &exposure);
    Square g = pos->general[us];
    for (Bitboard targets = palace_step_table[g] & not_own; targets;)
        n += legal_after_move(pos, g, bb_pop_lsb(&targets));
    return n;
}

bool movegen_contains_legal(const Position *pos, Move m)
{
    Square from = move_from(m), to = move_to(m);
    if (from >= SQUARE_COUNT || to >= SQUARE_COUNT || position_is_immediate_end(pos))
        return false;
    Color us = pos->side;
    if (move_is_pass(m))
        return from == pos->general[us] && movegen_is_legal(pos, m);
    Piece pc = pos->board[from];
    if (!pc || piece_color(pc) != us)
        return false;
    Bitboard reach = movegen_piece_reach(pos, piece_type(pc), from, us) & ~pos->by_color[us];
    return bb_test(reach, to) && movegen_is_legal(pos, m);
}

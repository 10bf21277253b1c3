/* The staged move picker and the history updates. On positions from seeded random games (janggi rules,
 * so with bikjang; positions in check, in bikjang and right after a pass among them) and with random
 * histories, killers, counter moves and table moves (legal, pseudo-legal but illegal, captures, garbage):
 * the main picker returns every legal move exactly once and no pseudo-legal move twice, its stages come
 * in order, quiescence returns exactly the captures that do not lose material (every move in check or
 * bikjang), and skip_quiets stops the quiet moves but not the captures. Then the exact arithmetic of
 * the gravity update, what a cutoff teaches the tables, threats in the quiet order, and exchanges
 * played out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../search/movepick.h"
#include "../search/see.h"
#include "support.h"

#define START "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

/* Start positions of the walks: the usual start, middlegames and endgames with checks, and sparse
 * positions where the generals often come to face each other (bikjang). */
static const char *const walk_fens[] = {
    START,
    "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1",
    "3a3b1/4kaR2/3ncn2r/1p2p2pp/9/9/1b2BPP1P/2r1CN3/1C2A4/3AK2BR b - - 3 18",
    "4kC3/7r1/1cn2a3/4bp2p/3r3P1/pb1P3P1/N4pRP1/9/1C1ARK3/1B2A1N2 b - - 1 47",
    "rb1a1a3/4k2n1/3nr4/8p/1pp6/2b1P4/Pc1P2PP1/1C1A2R2/R3AN3/1B1K2CB1 w - - 1 21",
    "3ak4/3a5/2n6/p1p3p1p/2c6/6C2/P1P3P1P/6N2/5A3/4KA3 b - - 0 1",
    "4k4/9/9/2p3p2/9/9/2P3P2/9/9/4K4 w - - 0 1",
    "3k5/4a4/9/9/r8/8R/9/1c7/4A4/4K1C2 w - - 0 1",
};

enum { WALKS_PER_FEN = 10, WALK_PLIES = 60, TRIALS_PER_POSITION = 3 };

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int rng_below(uint64_t *s, int n) { return (int)(rng_next(s) % (uint64_t)n); }

static OrderingStats stats; /* some MB: static, not on the stack */

static void randomise_table(int16_t *t, size_t n, int max, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++)
        t[i] = (int16_t)(rng_below(seed, 2 * max + 1) - max);
}

/* The butterfly and capture histories; the continuation history too when `all` (it is large). */
static void randomise_histories(uint64_t *seed, bool all)
{
    randomise_table(&stats.butterfly[0][0][0], sizeof stats.butterfly / sizeof(int16_t), HISTORY_MAX, seed);
    randomise_table(&stats.capture[0][0][0], sizeof stats.capture / sizeof(int16_t), CAPTURE_HISTORY_MAX, seed);
    if (all)
        randomise_table(&stats.continuation[0][0][0][0], sizeof stats.continuation / sizeof(int16_t),
                        CONTINUATION_HISTORY_MAX, seed);
}

static bool is_capture(const Position *pos, Move m) { return !move_is_pass(m) && pos->board[move_to(m)]; }

static bool list_has(const MoveList *list, Move m)
{
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return true;
    return false;
}

/* A killer, counter or table move to try: none, a legal move, a pseudo-legal one (maybe illegal), the
 * pass, or any 16-bit value. */
static Move random_candidate(const Position *pos, const MoveList *legal, const MoveList *pseudo, uint64_t *seed)
{
    switch (rng_below(seed, 6)) {
    case 0: return MOVE_NONE;
    case 1: return (Move)rng_next(seed);
    case 2: return pseudo->count ? pseudo->moves[rng_below(seed, pseudo->count)] : MOVE_NONE;
    case 3: return make_move(pos->general[pos->side], pos->general[pos->side]);
    default: return legal->count ? legal->moves[rng_below(seed, legal->count)] : MOVE_NONE;
    }
}

static HistoryContext random_context(const Position *pos, const MoveList *legal, const MoveList *pseudo, uint64_t *seed)
{
    HistoryContext h;
    for (int i = 0; i < CONT_PLIES; i++)
        h.continuation[i] = rng_below(seed, 4) == 0
                                ? continuation_sentinel(&stats)
                                : &stats.continuation[rng_below(seed, PIECE_COUNT)][rng_below(seed, SQUARE_COUNT)];
    h.previous_piece = rng_below(seed, 5) == 0 ? NO_PIECE : (Piece)rng_below(seed, PIECE_COUNT);
    h.previous_to = rng_below(seed, SQUARE_COUNT);
    if (h.previous_piece != NO_PIECE)
        stats.counter_moves[h.previous_piece][h.previous_to] = random_candidate(pos, legal, pseudo, seed);
    return h;
}

typedef struct {
    Move moves[2 * MAX_MOVES];
    PickKind kinds[2 * MAX_MOVES];
    int count;
    int skipped_at; /* index of the first move returned after skip_quiets was set; -1 if never set */
} Picked;

/* Every move the picker returns; skip_quiets is set after `skip_after` moves (never when negative). */
static void drain(MovePicker *mp, Picked *out, int skip_after)
{
    out->count = 0;
    out->skipped_at = -1;
    for (;;) {
        if (out->count == skip_after) {
            mp->skip_quiets = true;
            out->skipped_at = out->count;
        }
        Move m = picker_next(mp);
        if (m == MOVE_NONE)
            break;
        if (out->count >= 2 * MAX_MOVES)
            fail_msg("the picker does not stop");
        out->kinds[out->count] = mp->kind;
        out->moves[out->count++] = m;
    }
    assert_int_equal(picker_next(mp), MOVE_NONE); /* and stays done */
}

static const char *text(Move m)
{
    static char buf[4][MOVE_TEXT_SIZE];
    static int next;
    char *b = buf[next++ & 3];
    move_to_text(m, RANKS_FROM_1, b);
    return b;
}

static void fail_at(const Position *pos, const char *what, Move m)
{
    char fen[FEN_SIZE];
    position_to_fen(pos, fen, sizeof fen);
    fail_msg("%s: %s (%s)", fen, what, text(m));
}

static void assert_no_duplicates(const Position *pos, const Picked *p)
{
    for (int i = 0; i < p->count; i++)
        for (int j = 0; j < i; j++)
            if (p->moves[i] == p->moves[j])
                fail_at(pos, "returned twice", p->moves[i]);
}

/* The moves of `p` that are legal are exactly the legal moves of the position. */
static void assert_legal_set(const Position *pos, const Picked *p, const MoveList *pseudo, const MoveList *legal)
{
    MoveList got;
    got.count = 0;
    for (int i = 0; i < p->count; i++) {
        if (!list_has(pseudo, p->moves[i]))
            fail_at(pos, "not pseudo-legal", p->moves[i]);
        if (movegen_is_legal(pos, p->moves[i]))
            got.moves[got.count++] = p->moves[i];
    }
    for (int i = 0; i < legal->count; i++)
        if (!list_has(&got, legal->moves[i]))
            fail_at(pos, "legal move never returned", legal->moves[i]);
    assert_int_equal(got.count, legal->count);
}

static int capture_order_score(const Position *pos, Move m)
{
    PieceType victim = piece_type(pos->board[move_to(m)]);
    return CAPTURE_MVV_WEIGHT * see_value[victim] + stats.capture[pos->board[move_from(m)]][move_to(m)][victim];
}

/* Whether a piece of type pt on s would be attacked by a less valuable enemy piece (asked of the
 * position's attackers, which leave out guards and generals, and of the guards' palace steps; not of
 * the picker's own attack maps). */
static bool threatened_on(const Position *pos, PieceType pt, Square s)
{
    Color them = (Color)(pos->side ^ 1);
    Bitboard attackers =
        position_attackers_now(pos, s, them) | (palace_step_table[s] & position_pieces(pos, them, GUARD));
    while (attackers) {
        Square a = bb_pop_lsb(&attackers);
        if (see_value[piece_type(pos->board[a])] < see_value[pt])
            return true;
    }
    return false;
}

static int threat_escape_value(PieceType pt)
{
    return pt == CHARIOT                   ? THREAT_ESCAPE_CHARIOT
           : pt == CANNON                  ? THREAT_ESCAPE_CANNON
           : pt == HORSE || pt == ELEPHANT ? THREAT_ESCAPE_MINOR
                                           : 0;
}

static int quiet_order_score(const Position *pos, const HistoryContext *h, Move m)
{
    Piece pc = pos->board[move_from(m)];
    Square to = move_to(m);
    int score = stats.butterfly[pos->side][move_from(m)][to] + (*h->continuation[0])[pc][to]
                + (*h->continuation[1])[pc][to] + (*h->continuation[2])[pc][to] / 2;
    bool now = threatened_on(pos, piece_type(pc), move_from(m)), after = threatened_on(pos, piece_type(pc), to);
    if (now != after)
        score += now ? threat_escape_value(piece_type(pc)) : -threat_escape_value(piece_type(pc));
    return score;
}

/* The main picker outside check: stages in order, each move of the kind its stage says. */
static void check_main_stages(const Position *pos, const Picked *p, Move tt, const Move refutations[3],
                              const HistoryContext *h, int depth)
{
    bool tt_legal = tt != MOVE_NONE && movegen_contains_legal(pos, tt);
    if (tt_legal && (p->count == 0 || p->moves[0] != tt || p->kinds[0] != PICK_TABLE))
        fail_at(pos, "the table move does not come first", tt);
    int last_good = INT32_MAX, last_quiet = INT32_MAX, limit = -QUIET_SORT_LIMIT * depth;
    bool below_limit = false, pass_seen = false;
    for (int i = 0; i < p->count; i++) {
        Move m = p->moves[i];
        if (i > 0 && p->kinds[i] < p->kinds[i - 1])
            fail_at(pos, "stages out of order", m);
        switch (p->kinds[i]) {
        case PICK_TABLE:
            if (i != 0 || m != tt)
                fail_at(pos, "a table move that is not the table move", m);
            break;
        case PICK_GOOD_CAPTURE: {
            if (!is_capture(pos, m) || see(pos, m) < GOOD_CAPTURE_SEE)
                fail_at(pos, "not a good capture", m);
            int s = capture_order_score(pos, m);
            if (s > last_good)
                fail_at(pos, "good captures out of order", m);
            last_good = s;
            break;
        }
        case PICK_REFUTATION:
            if (is_capture(pos, m) || (m != refutations[0] && m != refutations[1] && m != refutations[2]))
                fail_at(pos, "not a refutation", m);
            break;
        case PICK_QUIET: {
            if (is_capture(pos, m) || pass_seen)
                fail_at(pos, "a quiet move that is a capture, or comes after the pass", m);
            if (move_is_pass(m)) {
                pass_seen = true;
                break;
            }
            /* Partly sorted: the moves at or above the limit first, best first, then the others. */
            int s = quiet_order_score(pos, h, m);
            if (s >= limit && (below_limit || s > last_quiet))
                fail_at(pos, "quiet moves out of order", m);
            below_limit = below_limit || s < limit;
            last_quiet = s;
            break;
        }
        case PICK_BAD_CAPTURE:
            if (!is_capture(pos, m) || see(pos, m) >= GOOD_CAPTURE_SEE)
                fail_at(pos, "not a bad capture", m);
            break;
        case PICK_EVASION: fail_at(pos, "an evasion outside check", m);
        }
    }
}

/* In check (or in quiescence's full width): the table move, then every move, captures first by most
 * valuable victim, the pass after the other quiet moves. */
static void check_evasion_order(const Position *pos, const Picked *p, Move tt_expected)
{
    int start = 0;
    if (tt_expected != MOVE_NONE) {
        if (p->count == 0 || p->moves[0] != tt_expected || p->kinds[0] != PICK_TABLE)
            fail_at(pos, "the table move does not come first", tt_expected);
        start = 1;
    }
    bool quiet_seen = false, pass_seen = false;
    int last_victim = INT32_MAX, last_attacker = 0;
    for (int i = start; i < p->count; i++) {
        Move m = p->moves[i];
        if (p->kinds[i] != PICK_EVASION)
            fail_at(pos, "not an evasion", m);
        if (pass_seen)
            fail_at(pos, "a move after the pass", m);
        if (is_capture(pos, m)) {
            int victim = see_value[piece_type(pos->board[move_to(m)])];
            int attacker = see_value[piece_type(pos->board[move_from(m)])];
            if (quiet_seen || victim > last_victim || (victim == last_victim && attacker < last_attacker))
                fail_at(pos, "captures out of order", m);
            last_victim = victim;
            last_attacker = attacker;
        } else {
            quiet_seen = true;
            pass_seen = move_is_pass(m);
        }
    }
}

typedef struct {
    int positions, in_check, bikjang, after_pass;
} Coverage;

/* All the checks on one position, with random ordering state. */
static void check_position(const Position *pos, uint64_t *seed, Coverage *cov)
{
    MoveList legal, pseudo, captures;
    movegen_legal(pos, &legal);
    pseudo.count = captures.count = 0;
    movegen_pseudo(pos, GEN_ALL, &pseudo);
    movegen_pseudo(pos, GEN_CAPTURES, &captures);
    bool in_check = pos->st->checkers != 0, full_width = in_check || pos->st->bikjang;
    cov->positions++;
    cov->in_check += in_check;
    cov->bikjang += pos->st->bikjang;
    cov->after_pass += pos->st->pass;

    for (int trial = 0; trial < TRIALS_PER_POSITION; trial++) {
        int ply = rng_below(seed, MAX_PLY);
        int depth = 1 + rng_below(seed, 20);
        stats.killers[ply][0] = random_candidate(pos, &legal, &pseudo, seed);
        stats.killers[ply][1] = random_candidate(pos, &legal, &pseudo, seed);
        HistoryContext h = random_context(pos, &legal, &pseudo, seed);
        Move tt = random_candidate(pos, &legal, &pseudo, seed);
        Move counter = h.previous_piece != NO_PIECE ? stats.counter_moves[h.previous_piece][h.previous_to] : MOVE_NONE;
        Move refutations[3] = {stats.killers[ply][0], stats.killers[ply][1], counter};

        /* The main search. */
        MovePicker mp;
        Picked p;
        picker_init_main(&mp, pos, &stats, tt, depth, ply, &h);
        drain(&mp, &p, -1);
        assert_no_duplicates(pos, &p);
        assert_legal_set(pos, &p, &pseudo, &legal);
        bool tt_legal = tt != MOVE_NONE && movegen_contains_legal(pos, tt);
        assert_int_equal(mp.tt_move, tt_legal ? tt : MOVE_NONE);
        if (in_check)
            check_evasion_order(pos, &p, tt_legal ? tt : MOVE_NONE);
        else
            check_main_stages(pos, &p, tt, refutations, &h, depth);

        /* skip_quiets: no quiet move after it is set, yet every capture comes once. */
        if (!in_check) {
            picker_init_main(&mp, pos, &stats, tt, depth, ply, &h);
            drain(&mp, &p, rng_below(seed, 6));
            assert_no_duplicates(pos, &p);
            int captures_seen = 0;
            for (int i = 0; i < p.count; i++) {
                bool capture = is_capture(pos, p.moves[i]);
                captures_seen += capture;
                if (p.skipped_at >= 0 && i >= p.skipped_at && !capture)
                    fail_at(pos, "a quiet move after skip_quiets", p.moves[i]);
            }
            assert_int_equal(captures_seen, captures.count);
        }

        /* Quiescence: exactly the captures that do not lose material, or everything at full width. */
        picker_init_qsearch(&mp, pos, &stats, tt, &h);
        drain(&mp, &p, -1);
        assert_no_duplicates(pos, &p);
        Move qs_tt = tt_legal && (full_width || is_capture(pos, tt)) ? tt : MOVE_NONE;
        assert_int_equal(mp.tt_move, qs_tt);
        if (full_width) {
            assert_legal_set(pos, &p, &pseudo, &legal);
            check_evasion_order(pos, &p, qs_tt);
        } else {
            if (qs_tt != MOVE_NONE && (p.count == 0 || p.moves[0] != qs_tt))
                fail_at(pos, "the table capture does not come first", qs_tt);
            int expected = qs_tt != MOVE_NONE && see(pos, qs_tt) < 0;
            for (int i = 0; i < captures.count; i++)
                expected += see(pos, captures.moves[i]) >= 0;
            for (int i = 0; i < p.count; i++) {
                Move m = p.moves[i];
                if (!list_has(&captures, m) || (m != qs_tt && see(pos, m) < 0))
                    fail_at(pos, "quiescence returned a quiet or losing move", m);
            }
            assert_int_equal(p.count, expected);
        }

        /* The root: exactly the moves given, the table move first, bands in order. */
        picker_init_listed(&mp, pos, &stats, legal.moves, legal.count, legal.count ? legal.moves[0] : MOVE_NONE, ply,
                           &h);
        drain(&mp, &p, -1);
        assert_no_duplicates(pos, &p);
        assert_int_equal(p.count, legal.count);
        for (int i = 0; i < p.count; i++) {
            if (!list_has(&legal, p.moves[i]))
                fail_at(pos, "the root returned a move it was not given", p.moves[i]);
            if (i > 0 && p.kinds[i] < p.kinds[i - 1])
                fail_at(pos, "root bands out of order", p.moves[i]);
        }
        if (legal.count)
            assert_int_equal(p.moves[0], legal.moves[0]);
    }
}

static void test_pickers_on_random_games(void **state)
{
    (void)state;
    uint64_t seed = 0x2545f4914f6cdd1dULL;
    Coverage cov = {0, 0, 0, 0};
    randomise_histories(&seed, true);
    for (size_t f = 0; f < sizeof walk_fens / sizeof walk_fens[0]; f++)
        for (int w = 0; w < WALKS_PER_FEN; w++) {
            randomise_histories(&seed, false);
            TestGame g;
            test_game_setup(&g, "janggi", walk_fens[f], NULL);
            for (int ply = 0; ply < WALK_PLIES && !position_is_immediate_end(&g.pos); ply++) {
                check_position(&g.pos, &seed, &cov);
                MoveList legal;
                movegen_legal(&g.pos, &legal);
                if (legal.count == 0)
                    break;
                /* The pass now and then, for positions right after one. */
                Move pass = make_move(g.pos.general[g.pos.side], g.pos.general[g.pos.side]);
                Move m = rng_below(&seed, 8) == 0 && list_has(&legal, pass)
                             ? pass
                             : legal.moves[rng_below(&seed, legal.count)];
                position_make(&g.pos, m, &g.states[g.plies++]);
            }
        }
    print_message("%d positions: %d in check, %d in bikjang, %d after a pass\n", cov.positions, cov.in_check,
                  cov.bikjang, cov.after_pass);
    assert_true(cov.positions >= 1000);
    assert_true(cov.in_check >= 30);
    assert_true(cov.bikjang >= 30);
    assert_true(cov.after_pass >= 30);
}

/* ---- History updates ---- */

static int gravity(int entry, int bonus, int max)
{
    int16_t e = (int16_t)entry;
    history_gravity(&e, bonus, max);
    return e;
}

static void test_gravity_arithmetic(void **state)
{
    (void)state;
    /* entry + bonus - entry * |bonus| / max, the division truncated towards zero. */
    assert_int_equal(gravity(0, 100, 16384), 100);
    assert_int_equal(gravity(0, -100, 16384), -100);
    assert_int_equal(gravity(1000, 400, 16384), 1376);    /* 1000 + 400 - 24 */
    assert_int_equal(gravity(-1000, 400, 16384), -576);   /* -1000 + 400 + 24 */
    assert_int_equal(gravity(10000, -2400, 16384), 6136); /* 10000 - 2400 - 1464 */
    assert_int_equal(gravity(-10000, -2400, 16384), -10936);
    assert_int_equal(gravity(16384, 2400, 16384), 16384); /* at the bound, a bonus on its side adds nothing */
    assert_int_equal(gravity(-16384, -2400, 16384), -16384);
    assert_int_equal(gravity(16384, -2400, 16384), 11584); /* and the other way it counts double */
    assert_int_equal(gravity(16383, 1, 16384), 16384);
    assert_int_equal(gravity(30000, 7000, 30000), 30000);
    assert_int_equal(gravity(5, 30000, 30000), 30000);

    /* Many updates, any bonus up to the bound itself: never past +-max. */
    uint64_t seed = 0x853c49e6748fea9bULL;
    static const int maxes[] = {HISTORY_MAX, CAPTURE_HISTORY_MAX, CONTINUATION_HISTORY_MAX, 7183, 30000};
    for (size_t k = 0; k < sizeof maxes / sizeof maxes[0]; k++) {
        int max = maxes[k];
        int16_t e = 0;
        for (int i = 0; i < 200000; i++) {
            int bonus = i % 1000 < 500 ? max : rng_below(&seed, 2 * max + 1) - max;
            if (i % 3000 < 1000)
                bonus = abs(bonus); /* long runs of one sign drive it to the bound */
            history_gravity(&e, bonus, max);
            if (e > max || e < -max)
                fail_msg("entry %d passed +-%d after %d updates", e, max, i + 1);
        }
    }

    /* The bonus grows with depth up to its cap. */
    for (int d = 1; d < MAX_PLY; d++) {
        int expected = HISTORY_BONUS_SLOPE * d - HISTORY_BONUS_OFFSET;
        assert_int_equal(history_bonus(d), expected > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : expected);
        assert_true(history_bonus(d) > 0 && history_bonus(d) <= CONTINUATION_HISTORY_MAX);
    }
}

static Move parse(const Position *pos, const char *move)
{
    Move m = MOVE_NONE;
    assert_int_equal(move_parse(pos, move, RANKS_FROM_1, &m), MOVE_PARSE_OK);
    return m;
}

/* A quiet cutoff: killer, counter move, bonus to the move in the butterfly and the continuation
 * histories (not in the sentinel), malus to the quiets and captures tried. A capture cutoff: capture
 * history bonus, and the same malus to the captures tried. A table cutoff: the quiet bonus. */
static void test_cutoff_updates(void **state)
{
    (void)state;
    TestGame g;
    /* Cho's horse f1 has two quiet moves; its chariot a1 takes a horse on a7, its soldier c5 a
     * soldier on c6. The moves before: Han's soldier to c6, Cho's soldier to c5. */
    test_game_setup(&g, "janggi", "4k4/9/9/n8/2p6/2P6/9/9/9/R2K1N3 w - - 0 1", NULL);
    const Position *pos = &g.pos;
    ordering_clear(&stats);
    Move best = parse(pos, "f1g3"), tried = parse(pos, "f1e3"), take = parse(pos, "a1a7");
    assert_true(is_capture(pos, take));
    Piece horse = pos->board[move_from(best)], chariot = pos->board[move_from(take)];
    HistoryContext h = {{&stats.continuation[make_piece(BLACK, SOLDIER)][make_square(2, 5)],
                         &stats.continuation[make_piece(WHITE, SOLDIER)][make_square(2, 4)],
                         continuation_sentinel(&stats)},
                        make_piece(BLACK, SOLDIER),
                        make_square(2, 5)};
    int depth = 5, bonus = history_bonus(depth);
    Move quiets[] = {tried}, captures[] = {take};
    ordering_update_cutoff(&stats, pos, &h, 7, depth, best, quiets, 1, captures, 1);
    assert_int_equal(stats.killers[7][0], best);
    assert_int_equal(stats.counter_moves[make_piece(BLACK, SOLDIER)][make_square(2, 5)], best);
    assert_int_equal(stats.butterfly[WHITE][move_from(best)][move_to(best)], bonus);
    assert_int_equal(stats.butterfly[WHITE][move_from(tried)][move_to(tried)], -bonus);
    assert_int_equal((*h.continuation[0])[horse][move_to(best)], bonus);
    assert_int_equal((*h.continuation[1])[horse][move_to(best)], bonus);
    assert_int_equal((*h.continuation[1])[horse][move_to(tried)], -bonus);
    assert_int_equal((*continuation_sentinel(&stats))[horse][move_to(best)], 0);
    assert_int_equal(stats.capture[chariot][move_to(take)][HORSE], -bonus);

    /* Again at the same depth: the gravity formula on the entries already there. */
    ordering_update_cutoff(&stats, pos, &h, 7, depth, best, quiets, 1, captures, 1);
    int twice = gravity(bonus, bonus, HISTORY_MAX);
    assert_int_equal(stats.butterfly[WHITE][move_from(best)][move_to(best)], twice);
    assert_int_equal(stats.capture[chariot][move_to(take)][HORSE], gravity(-bonus, -bonus, CAPTURE_HISTORY_MAX));
    assert_int_equal(stats.killers[7][0], best);
    assert_int_equal(stats.killers[7][1], MOVE_NONE); /* the same killer is not stored twice */

    /* A capture cuts off after another: bonus for it, malus for the other; quiet tables untouched. */
    Move take2 = parse(pos, "c5c6");
    ordering_update_cutoff(&stats, pos, &h, 7, 3, take2, quiets, 1, captures, 1);
    assert_int_equal(stats.capture[pos->board[move_from(take2)]][move_to(take2)][SOLDIER], history_bonus(3));
    assert_int_equal(stats.capture[chariot][move_to(take)][HORSE],
                     gravity(gravity(-bonus, -bonus, CAPTURE_HISTORY_MAX), -history_bonus(3), CAPTURE_HISTORY_MAX));
    assert_int_equal(stats.butterfly[WHITE][move_from(tried)][move_to(tried)], gravity(-bonus, -bonus, HISTORY_MAX));
    assert_int_equal(stats.killers[7][0], best);

    /* A table cutoff with a quiet move: the quiet bonus; with a capture: nothing. */
    Move tt = parse(pos, "a1a2");
    ordering_update_table_cutoff(&stats, pos, &h, 9, 4, tt);
    assert_int_equal(stats.killers[9][0], tt);
    assert_int_equal(stats.butterfly[WHITE][move_from(tt)][move_to(tt)], history_bonus(4));
    ordering_update_table_cutoff(&stats, pos, &h, 11, 4, take);
    assert_int_equal(stats.killers[11][0], MOVE_NONE);

    /* The killer now leads the refutations, then the second killer and the counter move. */
    MovePicker mp;
    picker_init_main(&mp, pos, &stats, MOVE_NONE, depth, 7, &h);
    Picked p;
    drain(&mp, &p, -1);
    int i = 0;
    while (i < p.count && p.kinds[i] == PICK_GOOD_CAPTURE)
        i++;
    assert_true(i < p.count);
    assert_int_equal(p.moves[i], best);
    assert_int_equal(p.kinds[i], PICK_REFUTATION);

    ordering_new_search(&stats);
    assert_int_equal(stats.killers[7][0], MOVE_NONE);
    assert_int_equal(stats.butterfly[WHITE][move_from(best)][move_to(best)], twice);
    ordering_clear(&stats);
    assert_int_equal(stats.butterfly[WHITE][move_from(best)][move_to(best)], 0);
    assert_int_equal(stats.counter_moves[make_piece(BLACK, SOLDIER)][make_square(2, 5)], MOVE_NONE);
}

/* Threats in the quiet order: Cho's chariot c5, attacked by Han's soldier c6, escapes first (any
 * quiet chariot move leaves the soldier's reach) although history favours the horse's moves; the
 * horse's step onto d6, which the soldier attacks, comes last before the pass. The same at the root. */
static void test_threat_order(void **state)
{
    (void)state;
    TestGame g;
    test_game_setup(&g, "janggi", "9/4k4/9/9/2p6/2R6/4N4/9/9/3K5 w - - 0 1", NULL);
    const Position *pos = &g.pos;
    ordering_clear(&stats);
    Square horse_from = move_from(parse(pos, "e4f6"));
    MoveList legal;
    movegen_legal(pos, &legal);
    for (int i = 0; i < legal.count; i++)
        if (move_from(legal.moves[i]) == horse_from && !move_is_pass(legal.moves[i]))
            stats.butterfly[WHITE][horse_from][move_to(legal.moves[i])] = 10000;
    HistoryContext h = {
        {continuation_sentinel(&stats), continuation_sentinel(&stats), continuation_sentinel(&stats)}, NO_PIECE, 0};
    Square chariot_from = move_from(parse(pos, "c5c1"));
    Move into_threat = parse(pos, "e4d6");
    for (int root = 0; root < 2; root++) {
        MovePicker mp;
        if (root)
            picker_init_listed(&mp, pos, &stats, legal.moves, legal.count, MOVE_NONE, 3, &h);
        else
            picker_init_main(&mp, pos, &stats, MOVE_NONE, 10, 3, &h);
        Picked p;
        drain(&mp, &p, -1);
        /* c5c6; 12 chariot moves; 6 horse moves (history 10,000); 3 general moves (0); e4d6
         * (10,000 - THREAT_ESCAPE_MINOR); the pass. */
        assert_int_equal(p.count, 24);
        assert_int_equal(legal.count, 24);
        assert_int_equal(p.moves[0], parse(pos, "c5c6"));
        for (int i = 1; i <= 12; i++) {
            if (move_from(p.moves[i]) != chariot_from || is_capture(pos, p.moves[i]))
                fail_at(pos, "not a chariot escape", p.moves[i]);
            assert_int_equal(p.kinds[i], PICK_QUIET);
        }
        for (int i = 13; i <= 18; i++)
            if (move_from(p.moves[i]) != horse_from || p.moves[i] == into_threat)
                fail_at(pos, "not a safe horse move", p.moves[i]);
        for (int i = 19; i <= 21; i++)
            if (move_from(p.moves[i]) != pos->general[WHITE] || move_is_pass(p.moves[i]))
                fail_at(pos, "not a general's step", p.moves[i]);
        assert_int_equal(p.moves[22], into_threat);
        assert_true(move_is_pass(p.moves[23]));
    }
}

/* The exchange evaluation, played out by hand: Cho's chariot takes a soldier that a soldier defends
 * (100 - 1000), then the same with Cho's horse taking back (100 - 1000 + 100); a guard retakes in its
 * palace (100 - 1000); an undefended soldier is free. */
static void test_see_exchanges(void **state)
{
    (void)state;
    TestGame g;
    test_game_setup(&g, "janggi", "4k4/9/9/9/3pp4/9/9/9/9/3R1K3 w - - 0 1", NULL);
    assert_int_equal(see(&g.pos, parse(&g.pos, "d1d6")), -900);
    test_game_setup(&g, "janggi", "4k4/9/9/9/3pp4/9/2N6/9/9/3R1K3 w - - 0 1", NULL);
    assert_int_equal(see(&g.pos, parse(&g.pos, "d1d6")), -800);
    test_game_setup(&g, "janggi", "3ak4/3p5/9/9/9/9/9/9/9/3R1K3 w - - 0 1", NULL);
    assert_int_equal(see(&g.pos, parse(&g.pos, "d1d9")), -900);
    test_game_setup(&g, "janggi", "4k4/3p5/9/9/9/9/9/9/9/3R1K3 w - - 0 1", NULL);
    assert_int_equal(see(&g.pos, parse(&g.pos, "d1d9")), 100);
}

int main(void)
{
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pickers_on_random_games), cmocka_unit_test(test_gravity_arithmetic),
        cmocka_unit_test(test_cutoff_updates),          cmocka_unit_test(test_threat_order),
        cmocka_unit_test(test_see_exchanges),
    };
    return cmocka_run_group_tests_name("movepick", tests, NULL, NULL);
}

/* position_is_ok: seeded random games under every rule set, the position checked after every make and
 * every unmake (the sanitizer builds also assert it inside make and unmake), and positions corrupted
 * one field at a time, each refused with its exact reason. position_gives_check before every move
 * made: it leaves the position as it was and agrees with the checkers the move then has. (The key
 * make takes from position_key_after is checked by position_is_ok against one computed from scratch.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

#define START "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

static void assert_ok(const Position *pos, const char *when, int ply)
{
    char why[160] = "";
    if (!position_is_ok(pos, why, sizeof why))
        fail_msg("%s at ply %d: %s", when, ply, why);
    assert_string_equal(why, ""); /* nothing written when the position is sound */
}

/* Refused, with exactly this reason; also refused without a buffer. */
static void assert_refused(const Position *pos, const char *reason)
{
    char why[160] = "";
    assert_false(position_is_ok(pos, why, sizeof why));
    assert_string_equal(why, reason);
    assert_false(position_is_ok(pos, NULL, 0));
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ---- Random games ---- */

enum { GAME_PLIES = 300, GAMES_PER_START = 4 };

typedef struct {
    Position pos;
    StateInfo states[GAME_PLIES];
    int plies;
} LongGame;

typedef struct {
    int games, made, unmade, captures, passes, checks, bikjang, ended, no_moves, full_plies, length;
} WalkStats;

/* Captures are favoured so that games reach their endgames. Passes are rare, and rarer still where
 * they end the game (after a pass, in bikjang), so that most games last a few hundred plies but
 * double passes and passes in bikjang still occur. */
static Move choose(const Position *pos, const MoveList *list, uint64_t *seed)
{
    Move captures[MAX_MOVES], others[MAX_MOVES], pass = MOVE_NONE;
    int nc = 0, no = 0;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (move_is_pass(m))
            pass = m;
        else if (pos->board[move_to(m)])
            captures[nc++] = m;
        else
            others[no++] = m;
    }
    uint64_t r = rng_next(seed) % 100;
    /* A pass after a pass, or in bikjang, ends the game. */
    bool pass_ends = pos->st->pass || pos->st->bikjang;
    bool want_pass = pass_ends ? rng_next(seed) % 30 == 0 : r < 3;
    if (pass != MOVE_NONE && (want_pass || no + nc == 0))
        return pass;
    if (nc && (r < 45 || no == 0))
        return captures[rng_next(seed) % (uint64_t)nc];
    return others[rng_next(seed) % (uint64_t)no];
}

static void make_checked(LongGame *g, Move m, WalkStats *ws)
{
    bool capture = !move_is_pass(m) && g->pos.board[move_to(m)];
    char before[FEN_SIZE], probed[FEN_SIZE];
    position_to_fen(&g->pos, before, sizeof before);
    uint64_t key = g->pos.st->key;
    bool predicted_check = position_gives_check(&g->pos, m);
    position_to_fen(&g->pos, probed, sizeof probed);
    assert_string_equal(probed, before);
    assert_true(g->pos.st->key == key);
    assert_ok(&g->pos, "gives-check probe", g->plies);
    position_make(&g->pos, m, &g->states[g->plies++]);
    if (predicted_check != (g->pos.st->checkers != 0))
        fail_msg("position_gives_check said %d for a move from %s", predicted_check, before);
    char why[160] = "";
    if (!position_is_ok(&g->pos, why, sizeof why)) {
        char mt[MOVE_TEXT_SIZE];
        move_to_text(m, RANKS_FROM_1, mt);
        fail_msg("%s: %s after %s under %s", why, before, mt, g->pos.rules->name);
    }
    ws->made++;
    ws->captures += capture;
    ws->passes += move_is_pass(m);
    ws->checks += g->pos.st->checkers != 0;
    ws->bikjang += g->pos.st->bikjang;
    ws->ended += g->pos.st->ended;
}

static void unmake_checked(LongGame *g, WalkStats *ws)
{
    position_unmake(&g->pos);
    g->plies--;
    assert_ok(&g->pos, "unmake", g->plies);
    ws->unmade++;
}

static void play_game(const RuleSet *rules, const char *fen, uint64_t *seed, WalkStats *ws)
{
    static LongGame g; /* off the stack: 300 states */
    char err[160] = "";
    g.plies = 0;
    if (!position_set_fen(&g.pos, fen, rules, FEN_STRICT, err, sizeof err))
        fail_msg("FEN rejected: %s (%s)", err, fen);
    assert_ok(&g.pos, "set-up", 0);
    char start_fen[FEN_SIZE], end_fen[FEN_SIZE];
    position_to_fen(&g.pos, start_fen, sizeof start_fen);
    uint64_t start_key = g.pos.st->key;
    ws->games++;
    while (g.plies < GAME_PLIES) {
        MoveList list;
        movegen_legal(&g.pos, &list);
        if (list.count == 0) {
            ws->no_moves++; /* mate or an immediate end */
            break;
        }
        /* Every 25th ply, every legal move is made and taken back. */
        if (g.plies % 25 == 0 && g.plies + 1 < GAME_PLIES) {
            ws->full_plies++;
            for (int i = 0; i < list.count; i++) {
                make_checked(&g, list.moves[i], ws);
                unmake_checked(&g, ws);
            }
        }
        make_checked(&g, choose(&g.pos, &list, seed), ws);
        /* Now and then a few moves are taken back and the game goes on from there. */
        if (rng_next(seed) % 100 < 5)
            for (int k = (int)(rng_next(seed) % 3); k >= 0 && g.plies > 0; k--)
                unmake_checked(&g, ws);
    }
    ws->length += g.plies;
    while (g.plies > 0)
        unmake_checked(&g, ws);
    assert_ptr_equal(g.pos.st, &g.pos.root);
    position_to_fen(&g.pos, end_fen, sizeof end_fen);
    assert_string_equal(end_fen, start_fen);
    assert_true(g.pos.st->key == start_key);
}

/* The four setups of Cho against two of Han's, a middlegame and an endgame in which the generals can
 * face each other. */
static const char *const walk_fens[] = {
    START,
    "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1",
    "rnba1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ANBR w - - 0 1",
    "rb1a2bnr/4ka3/3n1c1c1/p1p3p1p/4p4/P8/2PPB1P1P/1C2K2C1/9/RNBA1A1NR w - - 12 7",
    "4k4/9/3a1c3/9/9/5N3/9/5K3/5A3/9 w - - 15 61",
};

/* Per rule set, for the seed below: games, moves made, moves taken back, captures, passes, checks
 * given, bikjang states, immediate ends, games that ran out of moves, plies where every legal move was
 * tried, and plies played in all. The rule sets differ from the first ply on: bikjang restricts moves. */
typedef struct {
    const char *rules;
    WalkStats want;
} WalkExpectation;

static const WalkExpectation walk_expected[] = {
    {"janggi", {20, 7138, 7138, 515, 298, 168, 436, 30, 12, 172, 3665}},
    {"janggicasual", {20, 9917, 9917, 548, 430, 217, 0, 6, 4, 247, 5520}},
    {"janggimodern", {20, 10108, 10108, 541, 431, 240, 0, 11, 4, 239, 5482}},
    {"janggitraditional", {20, 5970, 5970, 434, 230, 126, 358, 27, 15, 145, 3060}},
};

static void test_random_games(void **state)
{
    (void)state;
    uint64_t seed = 0x6a616e6767756e31ULL;
    for (int r = 0; r < 4; r++) {
        WalkStats ws;
        memset(&ws, 0, sizeof ws);
        for (size_t f = 0; f < sizeof walk_fens / sizeof walk_fens[0]; f++)
            for (int k = 0; k < GAMES_PER_START; k++)
                play_game(rules_all[r], walk_fens[f], &seed, &ws);
        const WalkExpectation *e = &walk_expected[r];
        assert_string_equal(rules_all[r]->name, e->rules);
        assert_int_equal(ws.games, e->want.games);
        assert_int_equal(ws.made, e->want.made);
        assert_int_equal(ws.unmade, e->want.unmade);
        assert_int_equal(ws.captures, e->want.captures);
        assert_int_equal(ws.passes, e->want.passes);
        assert_int_equal(ws.checks, e->want.checks);
        assert_int_equal(ws.bikjang, e->want.bikjang);
        assert_int_equal(ws.ended, e->want.ended);
        assert_int_equal(ws.no_moves, e->want.no_moves);
        assert_int_equal(ws.full_plies, e->want.full_plies);
        assert_int_equal(ws.length, e->want.length);
    }
}

/* ---- Corrupted positions ---- */

static Square sq(const char *name) { return make_square(name[0] - 'a', atoi(name + 1) - 1); }

/* Moves a piece in the mailbox and every bitboard (and general[]), but not in the key: a corruption
 * that only the key, the palace or the state can reveal. */
static void shift_piece(Position *pos, Square from, Square to)
{
    Piece pc = pos->board[from];
    Bitboard change = bb_square(from) | bb_square(to), change_t = bb_tsquare(from) | bb_tsquare(to);
    pos->board[from] = NO_PIECE;
    pos->board[to] = pc;
    pos->by_color[piece_color(pc)] ^= change;
    pos->by_type[piece_type(pc)] ^= change;
    pos->occupied ^= change;
    pos->occupied_t ^= change_t;
    if (piece_type(pc) == CANNON)
        pos->cannons_t ^= change_t;
    if (piece_type(pc) == GENERAL)
        pos->general[piece_color(pc)] = to;
}

/* Adds a piece to the mailbox and every bitboard (general[] aside). */
static void add_piece(Position *pos, Piece pc, Square s)
{
    pos->board[s] = pc;
    pos->by_color[piece_color(pc)] |= bb_square(s);
    pos->by_type[piece_type(pc)] |= bb_square(s);
    pos->occupied |= bb_square(s);
    pos->occupied_t |= bb_tsquare(s);
}

static void setup(TestGame *g, const char *rules, const char *fen, const char *moves)
{
    test_game_setup(g, rules, fen, moves);
    assert_ok(&g->pos, "set-up", g->plies);
}

static void test_sound_positions(void **state)
{
    (void)state;
    TestGame g;
    setup(&g, "janggi", START, NULL);
    assert_true(position_is_ok(&g.pos, NULL, 0));
    setup(&g, "janggi", START, "b1c3 b10c8 e2e2");                  /* a pass */
    setup(&g, "janggi", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", NULL); /* bikjang */
    assert_true(g.pos.st->bikjang);
    setup(&g, "janggi", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e2e2"); /* a pass in bikjang ends the game */
    assert_true(g.pos.st->ended);
    setup(&g, "janggi", "3k5/9/9/9/9/9/9/9/9/3K4r w - - 0 1", NULL); /* the side to move in check */
    assert_true(g.pos.st->checkers != 0);
    setup(&g, "janggi", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
          "a4a5 a7a6 a5a6"); /* a capture */
    assert_int_equal(g.pos.st->captured, make_piece(BLACK, SOLDIER));
}

static void test_corrupt_board(void **state)
{
    (void)state;
    TestGame g;
    char want[160];

    setup(&g, "janggi", START, NULL);
    uint64_t key = g.pos.st->key;
    g.pos.st->key ^= 1;
    snprintf(want, sizeof want, "key is %016llx, a fresh computation gives %016llx", (unsigned long long)(key ^ 1),
             (unsigned long long)key);
    assert_refused(&g.pos, want);

    setup(&g, "janggi", START, NULL);
    g.pos.by_type[HORSE] ^= bb_square(sq("b1"));
    assert_refused(&g.pos, "by_type[horses] misses b1");

    setup(&g, "janggi", START, NULL);
    g.pos.by_color[BLACK] ^= bb_square(sq("e9"));
    assert_refused(&g.pos, "by_color[Han] misses e9");

    setup(&g, "janggi", START, NULL);
    g.pos.by_color[WHITE] |= (Bitboard)1 << 127;
    assert_refused(&g.pos, "by_color[Cho] has a bit off the board");

    setup(&g, "janggi", START, NULL);
    g.pos.occupied |= bb_square(sq("e5"));
    assert_refused(&g.pos, "occupied has e5, the board does not");

    setup(&g, "janggi", START, NULL);
    g.pos.occupied_t ^= bb_tsquare(sq("a1"));
    assert_refused(&g.pos, "occupied_t misses a1");

    setup(&g, "janggi", START, NULL);
    g.pos.cannons_t |= bb_tsquare(sq("e3"));
    assert_refused(&g.pos, "cannons_t has e3, the board does not");

    setup(&g, "janggi", START, NULL);
    g.pos.board[sq("e5")] = 8; /* Han, no type */
    assert_refused(&g.pos, "bad piece code 8 on e5");

    setup(&g, "janggi", START, NULL);
    shift_piece(&g.pos, sq("e2"), sq("e4"));
    assert_refused(&g.pos, "Cho general on e4 is outside its palace");

    setup(&g, "janggi", START, NULL);
    shift_piece(&g.pos, sq("e9"), sq("c9"));
    assert_refused(&g.pos, "Han general on c9 is outside its palace");

    setup(&g, "janggi", START, NULL);
    shift_piece(&g.pos, sq("d10"), sq("d7"));
    assert_refused(&g.pos, "Han guard on d7 is outside its palace");

    setup(&g, "janggi", START, NULL);
    add_piece(&g.pos, make_piece(WHITE, GENERAL), sq("e1"));
    assert_refused(&g.pos, "Cho has 2 generals, exactly 1 allowed");

    setup(&g, "janggi", START, NULL);
    g.pos.general[BLACK] = sq("e10");
    assert_refused(&g.pos, "general[Han] is e10, the general stands on e9");

    setup(&g, "janggi", START, NULL);
    g.pos.general[WHITE] = 95;
    assert_refused(&g.pos, "general[Cho] is off, the general stands on e2");

    setup(&g, "janggi", START, NULL);
    g.pos.side = (Color)2;
    assert_refused(&g.pos, "side to move is 2");

    setup(&g, "janggi", START, NULL);
    g.pos.rules = NULL;
    assert_refused(&g.pos, "no rule set");
}

static void test_corrupt_state(void **state)
{
    (void)state;
    TestGame g;

    setup(&g, "janggi", START, NULL);
    g.pos.st->checkers = bb_square(sq("e9"));
    assert_refused(&g.pos, "checkers disagree with the board");

    setup(&g, "janggi", START, NULL);
    g.pos.st->bikjang = true;
    assert_refused(&g.pos, "bikjang set, the generals do not face each other under janggi");

    setup(&g, "janggi", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", NULL);
    g.pos.st->bikjang = false;
    assert_refused(&g.pos, "bikjang not set, the generals face each other under janggi");

    setup(&g, "janggicasual", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", NULL);
    assert_false(g.pos.st->bikjang);
    g.pos.st->bikjang = true;
    assert_refused(&g.pos, "bikjang set, the generals do not face each other under janggicasual");

    /* Cho in check with Han to move: the side flipped, with the key and the checkers made to match. */
    TestGame w, b;
    setup(&w, "janggi", START, NULL);
    setup(&b, "janggi", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1", NULL);
    uint64_t side_key = w.pos.st->key ^ b.pos.st->key;
    setup(&g, "janggi", "3k5/9/9/9/9/9/9/9/9/3K4r w - - 0 1", NULL);
    g.pos.side = BLACK;
    g.pos.st->key ^= side_key;
    g.pos.st->checkers = 0;
    assert_refused(&g.pos, "the side not to move (Cho) is in check");

    setup(&g, "janggi", START, NULL);
    g.pos.st->halfmove = -1;
    assert_refused(&g.pos, "counters out of range: half-move -1, plies 0, move number 1");

    setup(&g, "janggi", START, NULL);
    g.pos.st->move = make_move(sq("b1"), sq("c3"));
    assert_refused(&g.pos, "the set-up state has a move, plies, a capture, a pass or an end");

    setup(&g, "janggi", START, "b1c3");
    g.pos.st->plies = 3;
    assert_refused(&g.pos, "plies 3 after 0");

    setup(&g, "janggi", START, "b1c3");
    g.pos.st->move = MOVE_NONE;
    assert_refused(&g.pos, "no move leads to this state");

    setup(&g, "janggi", START, "b1c3");
    g.pos.st->pass = true;
    assert_refused(&g.pos, "pass flag set after b1c3");

    setup(&g, "janggi", START, "b1c3");
    g.pos.st->ended = true;
    assert_refused(&g.pos, "immediate end set after b1c3");

    setup(&g, "janggi", START, "e2e2 e9e9");
    assert_true(g.pos.st->ended);
    g.pos.st->ended = false;
    assert_refused(&g.pos, "immediate end not set after e9e9");

    setup(&g, "janggi", START, "b1c3");
    g.pos.st->halfmove = 5;
    assert_refused(&g.pos, "half-move counter 5 after 0");

    setup(&g, "janggi", START, "a4a5 a7a6 a5a6");
    g.pos.st->halfmove = 3;
    assert_refused(&g.pos, "half-move counter 3 after 2 and a capture");

    setup(&g, "janggi", START, "a4a5 a7a6 a5a6");
    g.pos.st->captured = make_piece(WHITE, SOLDIER);
    assert_refused(&g.pos, "a5a6 cannot have taken piece code 1");

    setup(&g, "janggi", START, "b1c3");
    g.pos.st->move = make_move(sq("b1"), sq("d3"));
    assert_refused(&g.pos, "the board does not show the last move b1d3");
}

int main(void)
{
    engine_init();
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sound_positions),
        cmocka_unit_test(test_corrupt_board),
        cmocka_unit_test(test_corrupt_state),
        cmocka_unit_test(test_random_games),
    };
    return cmocka_run_group_tests_name("position", tests, NULL, NULL);
}

/* The evaluation: the shipped weight file (name by content hash, embedded copy, strict parser and its
 * messages), exact values of small positions under hand-set weights, colour symmetry over seeded random
 * games, material order, the counting term near the move limit, after a pass and in bikjang, and the
 * `eval` trace. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/referee.h"
#include "../eval/internal.h"
#include "support.h"

#define START "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

static EvalWeights shipped;

static int setup(void **state)
{
    (void)state;
    char err[256];
    if (!eval_init(err, sizeof err)) {
        fprintf(stderr, "eval_init: %s\n", err);
        return -1;
    }
    shipped = *eval_weights();
    return 0;
}

/* Every test starts from the shipped weights. */
static int restore(void **state)
{
    (void)state;
    eval_use_weights(&shipped);
    return 0;
}

static int eval_fen(const char *rules, const char *fen)
{
    TestGame g;
    test_game_setup(&g, rules, fen, NULL);
    return eval_evaluate(&g.pos);
}

/* ---- the weight file ---- */

static void test_weight_file_named_by_hash(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob("nets/janggun-*.weights", 0, NULL, &g), 0);
    assert_int_equal(g.gl_pathc, 1);
    const char *path = g.gl_pathv[0];
    assert_string_equal(path + strlen("nets/"), eval_weights_name());

    /* The embedded copy is the file, byte for byte. */
    size_t file_len, blob_len;
    char *file = test_read_file(path, &file_len);
    assert_non_null(file);
    const char *blob = eval_weights_text(&blob_len);
    assert_int_equal(blob_len, file_len);
    assert_memory_equal(blob, file, file_len);
    free(file);

    /* The name is the first 12 hex digits of the content's sha256. */
    char cmd[256], sum[80] = "";
    snprintf(cmd, sizeof cmd, "sha256sum '%s'", path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    assert_non_null(fgets(sum, sizeof sum, p));
    assert_int_equal(pclose(p), 0);
    char want[64];
    snprintf(want, sizeof want, "janggun-%.12s.weights", sum);
    assert_string_equal(eval_weights_name(), want);
    globfree(&g);

    /* The shipped text parses and is what eval_init loaded. */
    EvalWeights w;
    char err[256] = "";
    if (!eval_parse_weights(blob, blob_len, &w, err, sizeof err))
        fail_msg("shipped weights: %s", err);
    assert_memory_equal(&w, &shipped, sizeof w);
}

/* Every weight name with its count, in the parser's order. */
static const struct {
    const char *name;
    int count;
} NAMES[] = {
    {"piece_value", 6},
    {"cannon_screen", 1},
    {"pst_soldier", 90},
    {"pst_guard", 90},
    {"pst_elephant", 90},
    {"pst_horse", 90},
    {"pst_cannon", 90},
    {"pst_chariot", 90},
    {"pst_general", 90},
    {"mobility", 6},
    {"safety_attacker", 6},
    {"safety_square", 1},
    {"safety_scale", 5},
    {"safety_missing_guard", 1},
    {"threat_by_lesser", 5},
    {"threat_hanging", 1},
    {"tempo", 1},
    {"deom", 1},
    {"counting_verdict", 1},
    {"counting_window", 1},
    {"counting_limit_blend", 1},
    {"counting_option_blend", 1},
};
enum { NAME_COUNT = sizeof NAMES / sizeof NAMES[0] };

/* A valid text, one line per weight with every value 1, without the weight named `skip`. */
static void valid_text(char *buf, size_t size, const char *skip)
{
    size_t n = 0;
    for (int i = 0; i < NAME_COUNT; i++) {
        if (skip && !strcmp(NAMES[i].name, skip))
            continue;
        n += (size_t)snprintf(buf + n, size - n, "%s", NAMES[i].name);
        for (int k = 0; k < NAMES[i].count; k++)
            n += (size_t)snprintf(buf + n, size - n, " 1");
        n += (size_t)snprintf(buf + n, size - n, "\n");
    }
}

/* `before`, a valid text without `skip`, then `after` must be refused with exactly `message`. */
static void expect_refused(const char *before, const char *skip, const char *after, const char *message)
{
    static char text[16384], valid[16000];
    valid_text(valid, sizeof valid, skip);
    snprintf(text, sizeof text, "%s%s%s", before, valid, after);
    EvalWeights w;
    char err[256] = "";
    if (eval_parse_weights(text, strlen(text), &w, err, sizeof err))
        fail_msg("accepted: %s...%s", before, after);
    assert_string_equal(err, message);
}

static void test_malformed_weights_refused(void **state)
{
    (void)state;
    char valid[16000];
    valid_text(valid, sizeof valid, NULL);
    EvalWeights w;
    char err[256] = "";
    if (!eval_parse_weights(valid, strlen(valid), &w, err, sizeof err))
        fail_msg("valid text refused: %s", err);

    expect_refused("foo 1\n", NULL, "", "line 1: unknown weight 'foo'");
    expect_refused("", NULL, "deom 15\n", "line 23: 'deom' given twice");
    expect_refused("", "mobility", "", "missing weight 'mobility'");
    expect_refused("mobility 1 2 3 4 5\n", "mobility", "", "line 1: 'mobility' has 5 values, expected 6");
    expect_refused("deom 1 2\n", "deom", "", "line 1: 'deom' has 2 values, expected 1");
    expect_refused("deom\n", "deom", "", "line 1: 'deom' has 0 values, expected 1");
    expect_refused("", "deom", "deom 1\n 2\n", "line 22: 'deom' has 2 values, expected 1");
    expect_refused("deom 1x\n", "deom", "", "line 1: '1x' is not an integer (in 'deom')");
    expect_refused("deom 9999999999999\n", "deom", "", "line 1: 9999999999999 is out of range for 'deom' (0 to 1000)");
    expect_refused("counting_limit_blend 101\n", "counting_limit_blend", "",
                   "line 1: 101 is out of range for 'counting_limit_blend' (0 to 100)");
    expect_refused("counting_window 0\n", "counting_window", "",
                   "line 1: 0 is out of range for 'counting_window' (1 to 1000)");
    expect_refused(" 5\n", NULL, "", "line 1: value '5' before any weight name");
    expect_refused("# comment\n\ndeom\n counting_verdict 1\n", "deom", "",
                   "line 4: 'counting_verdict' is not an integer (in 'deom'); a line that begins with a space "
                   "continues the weight above it");
    expect_refused("de\x01om 1\n", NULL, "", "line 1: unknown weight 'de?om'");

    /* A board table with one value short. */
    char pst[1024] = "pst_horse";
    for (int i = 0; i < 89; i++)
        strcat(pst, " 0");
    strcat(pst, "\n");
    expect_refused(pst, "pst_horse", "", "line 1: 'pst_horse' has 89 values, expected 90");

    /* Nothing at all. */
    assert_false(eval_parse_weights("", 0, &w, err, sizeof err));
    assert_string_equal(err, "missing weight 'piece_value'");
}

/* Comments, continuation lines, CRLF, and the board tables' order: the first value is a10, the last i1. */
static void test_weight_text_layout(void **state)
{
    (void)state;
    static char text[20000], rest[16000];
    valid_text(rest, sizeof rest, "pst_cannon");
    size_t n = (size_t)snprintf(text, sizeof text, "# header\r\npst_cannon   # rank 10 first\r\n");
    for (int r = 9; r >= 0; r--) {
        n += (size_t)snprintf(text + n, sizeof text - n, "   ");
        for (int f = 0; f < FILE_COUNT; f++)
            n += (size_t)snprintf(text + n, sizeof text - n, " %d", 10 * r + f);
        n += (size_t)snprintf(text + n, sizeof text - n, "  # rank %d\r\n", r + 1);
    }
    snprintf(text + n, sizeof text - n, "\n%s", rest);
    EvalWeights w;
    char err[256] = "";
    if (!eval_parse_weights(text, strlen(text), &w, err, sizeof err))
        fail_msg("refused: %s", err);
    for (Square s = 0; s < SQUARE_COUNT; s++)
        assert_int_equal(w.pst[CANNON - SOLDIER][s], 10 * square_rank(s) + square_file(s));
    assert_int_equal(w.deom, 1);
}

/* ---- exact values under hand-set weights ---- */

static EvalWeights hand_weights(void)
{
    EvalWeights w;
    memset(&w, 0, sizeof w);
    const int value[VALUED_TYPES] = {100, 200, 200, 400, 500, 1000};
    const int mobility[VALUED_TYPES] = {1, 0, 0, 4, 3, 2};
    const int attacker[VALUED_TYPES] = {0, 0, 0, 0, 0, 30};
    const int scale[SAFETY_SCALE_STEPS] = {0, 50, 100, 100, 100};
    memcpy(w.piece_value, value, sizeof value);
    memcpy(w.mobility, mobility, sizeof mobility);
    memcpy(w.safety_attacker, attacker, sizeof attacker);
    memcpy(w.safety_scale, scale, sizeof scale);
    w.cannon_screen = 10;
    w.pst[CHARIOT - SOLDIER][make_square(3, 0)] = 7;  /* d1 */
    w.pst[GENERAL - SOLDIER][make_square(4, 1)] = 3;  /* e2 */
    w.pst[SOLDIER - SOLDIER][make_square(2, 4)] = 11; /* c5 */
    w.pst[HORSE - SOLDIER][make_square(7, 0)] = 6;    /* h1, that is h10 for Han */
    w.safety_square = 5;
    w.safety_missing_guard = 40;
    w.deom = 15;
    w.counting_verdict = 1000;
    w.counting_window = 20;
    w.counting_limit_blend = 100;
    w.counting_option_blend = 50;
    return w;
}

/* Cho: general e2, chariot d1. Han: general f10.
 *   material   Cho 1000, Han 0
 *   pst        Cho 7 (chariot d1) + 3 (general e2) = 10, Han 0 (f10 is f1 mirrored)
 *   mobility   chariot: a1 b1 c1 e1-i1 (8) and d2-d10 (9) = 17 points x 2 = 34; Han 0
 *   safety     the chariot reaches d8 d9 d10 of Han's palace: one attacker, (30 + 3 x 5) x 50% = 22;
 *              no guards on either side: 2 x 40. Cho -80, Han -102
 *   raw        1000 + 10 + 34 - 80 - (-102) = 1066; the deom (janggi) makes it 1051 */
static const char LONE_CHARIOT[] = "5k3/9/9/9/9/9/9/9/4K4/3R5 w - - 0 1";

/* Cho: general e1, cannon c1, soldier c5. Han: general d10, horse h10.
 *   material   screens are the soldier and the horse: cannon 500 + 2 x 10 = 520; Cho 620, Han 400
 *   pst        Cho 11 (soldier c5), Han 6 (horse h10)
 *   mobility   cannon: over the general to f1 g1 h1 i1, over the soldier to c6-c10: 9 x 3 = 27; soldier
 *              c6 b5 d5: 3 x 1; Cho 30. Horse h10: f9 g8 i8: 3 x 4 = 12
 *   safety     no attacks on either palace; no guards: -80 each
 *   raw        220 + 5 + 18 = 243; janggi: 228. The count is 9 to 5: Cho wins it (verdict +1000). */
static const char CANNON_ENDING[] = "3k3n1/9/9/9/9/2P6/9/9/9/2C1K4 w - - 0 1";

/* Threats with hand-set weights (by the attacked type guard..chariot: 1 2 3 4 5; hanging 10). Han's
 * horse b3 reaches a1 over b2 and a5 over b4; nothing of Cho's reaches the horse. */
static void test_threats(void **state)
{
    (void)state;
    EvalWeights w = hand_weights();
    const int lesser[THREAT_TYPES] = {1, 2, 3, 4, 5};
    memcpy(w.threat_by_lesser, lesser, sizeof lesser);
    w.threat_hanging = 10;
    eval_use_weights(&w);
    TestGame g;
    EvalTerms t;

    /* The chariot a1: attacked by a less valuable piece (5) and not defended (10). */
    test_game_setup(&g, "janggi", "3k5/9/9/9/9/9/9/1n7/4K4/R8 w - - 0 1", NULL);
    eval_terms(&g.pos, &t);
    assert_int_equal(t.threats[WHITE], -15);
    assert_int_equal(t.threats[BLACK], 0);

    /* A second chariot on a5: both attacked by the horse (2 x 5), each defending the other. */
    test_game_setup(&g, "janggi", "3k5/9/9/9/9/R8/9/1n7/4K4/R8 w - - 0 1", NULL);
    eval_terms(&g.pos, &t);
    assert_int_equal(t.threats[WHITE], -10);
    assert_int_equal(t.threats[BLACK], 0);
    int without = t.raw;
    w.threat_hanging = 0;
    memset(w.threat_by_lesser, 0, sizeof w.threat_by_lesser);
    eval_use_weights(&w);
    eval_terms(&g.pos, &t);
    assert_int_equal(t.threats[WHITE], 0);
    assert_int_equal(t.raw, without + 10);

    /* Cho's soldier e8 attacks Han's guard e9 (1) and elephant d8 (2), both defended (the general f10
     * along the palace diagonal, the guard from the palace centre). The soldier itself is attacked by
     * the guard, which is worth more, and nothing defends it: hanging (10). */
    memcpy(w.threat_by_lesser, lesser, sizeof lesser);
    w.threat_hanging = 10;
    eval_use_weights(&w);
    test_game_setup(&g, "janggi", "5k3/4a4/3bP4/9/9/9/9/9/4K4/9 w - - 0 1", NULL);
    eval_terms(&g.pos, &t);
    assert_int_equal(t.threats[BLACK], -(1 + 2));
    assert_int_equal(t.threats[WHITE], -10);
}

/* The tempo goes to the side to move, after the counting blends; a finished game is its verdict alone. */
static void test_tempo(void **state)
{
    (void)state;
    EvalWeights w = hand_weights();
    w.tempo = 25;
    eval_use_weights(&w);
    TestGame g;
    EvalTerms t;
    test_game_setup(&g, "janggicasual", LONE_CHARIOT, NULL);
    eval_terms(&g.pos, &t);
    assert_int_equal(t.tempo, 25);
    assert_int_equal(t.total, 1066 + 25);
    assert_int_equal(eval_evaluate(&g.pos), 1091);
    assert_int_equal(eval_fen("janggicasual", "5k3/9/9/9/9/9/9/9/4K4/3R5 b - - 0 1"), -1066 + 25);
    assert_int_equal(eval_fen("janggi", LONE_CHARIOT), 1051 + 25);
}

static void test_exact_values(void **state)
{
    (void)state;
    EvalWeights w = hand_weights();
    eval_use_weights(&w);
    TestGame g;
    EvalTerms t;

    test_game_setup(&g, "janggicasual", LONE_CHARIOT, NULL);
    eval_terms(&g.pos, &t);
    assert_int_equal(t.material[WHITE], 1000);
    assert_int_equal(t.material[BLACK], 0);
    assert_int_equal(t.pst[WHITE], 10);
    assert_int_equal(t.pst[BLACK], 0);
    assert_int_equal(t.mobility[WHITE], 34);
    assert_int_equal(t.mobility[BLACK], 0);
    assert_int_equal(t.safety[WHITE], -80);
    assert_int_equal(t.safety[BLACK], -102);
    assert_int_equal(t.raw, 1066);
    assert_int_equal(t.counting, 0);
    assert_int_equal(eval_evaluate(&g.pos), 1066);
    assert_int_equal(eval_fen("janggi", LONE_CHARIOT), 1051);
    assert_int_equal(eval_fen("janggi", "5k3/9/9/9/9/9/9/9/4K4/3R5 b - - 0 1"), -1051);

    test_game_setup(&g, "janggi", CANNON_ENDING, NULL);
    eval_terms(&g.pos, &t);
    assert_int_equal(t.material[WHITE], 620);
    assert_int_equal(t.material[BLACK], 400);
    assert_int_equal(t.pst[WHITE], 11);
    assert_int_equal(t.pst[BLACK], 6);
    assert_int_equal(t.mobility[WHITE], 30);
    assert_int_equal(t.mobility[BLACK], 12);
    assert_int_equal(t.safety[WHITE], -80);
    assert_int_equal(t.safety[BLACK], -80);
    assert_int_equal(t.raw, 243);
    assert_int_equal(t.total, 228);
    assert_int_equal(eval_evaluate(&g.pos), 228);

    /* 10 plies before the limit, half-way into the 20-ply window: 50% of the way from 228 to 1000. */
    assert_int_equal(eval_fen("janggi", "3k3n1/9/9/9/9/2P6/9/9/9/2C1K4 w - - 90 60"), 614);
    assert_int_equal(eval_fen("janggi", "3k3n1/9/9/9/9/2P6/9/9/9/2C1K4 b - - 90 60"), -614);
    /* Han passes at 90: 55% gives 228 + 772 x 55% = 652, then Cho may pass and win the count: 50% of
     * the way to 1000 = 826. */
    test_game_setup(&g, "janggi", "3k3n1/9/9/9/9/2P6/9/9/9/2C1K4 b - - 90 60", "d10d10");
    eval_terms(&g.pos, &t);
    assert_int_equal(t.limit_blend, 55);
    assert_int_equal(t.option_blend, 50);
    assert_int_equal(eval_evaluate(&g.pos), 826);
    /* Where the rule set does not count, the limit blends towards a draw: 243 - 243 x 50% = 122. */
    assert_int_equal(eval_fen("janggicasual", "3k3n1/9/9/9/9/2P6/9/9/9/2C1K4 w - - 90 60"), 122);
}

/* ---- symmetry ---- */

/* The colour-mirrored twin: ranks reversed, colours and the side to move swapped; counters kept. */
static void mirror_fen(const char *fen, char *out, size_t size)
{
    char board[128], side;
    int halfmove, fullmove;
    assert_int_equal(sscanf(fen, "%127s %c - - %d %d", board, &side, &halfmove, &fullmove), 4);
    char *ranks[RANK_COUNT];
    int n = 0;
    for (char *r = strtok(board, "/"); r; r = strtok(NULL, "/"))
        ranks[n++] = r;
    assert_int_equal(n, RANK_COUNT);
    size_t used = 0;
    for (int i = RANK_COUNT - 1; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            out[used++] = isupper((unsigned char)*c) ? (char)tolower(*c) : (char)toupper(*c);
        out[used++] = i ? '/' : ' ';
    }
    snprintf(out + used, size - used, "%c - - %d %d", side == 'w' ? 'b' : 'w', halfmove, fullmove);
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A position and its twin evaluate the same for the side to move, term by term; under janggi the
 * twin differs by exactly the deom twice (Han's bonus becomes Cho's missing one). */
static void check_symmetry(const char *fen)
{
    char twin[128], fen0[128];
    mirror_fen(fen, twin, sizeof twin);
    TestGame a, b;
    test_game_setup(&a, "janggicasual", fen, NULL);
    test_game_setup(&b, "janggicasual", twin, NULL);
    EvalTerms ta, tb;
    eval_terms(&a.pos, &ta);
    eval_terms(&b.pos, &tb);
    for (Color c = WHITE; c <= BLACK; c++) {
        assert_int_equal(ta.material[c], tb.material[color_flip(c)]);
        assert_int_equal(ta.pst[c], tb.pst[color_flip(c)]);
        assert_int_equal(ta.mobility[c], tb.mobility[color_flip(c)]);
        assert_int_equal(ta.safety[c], tb.safety[color_flip(c)]);
    }
    int ea = eval_evaluate(&a.pos), eb = eval_evaluate(&b.pos);
    if (ea != eb)
        fail_msg("janggicasual: %d for %s, %d for its twin %s", ea, fen, eb, twin);
    assert_true(ea > -EVAL_LIMIT && ea < EVAL_LIMIT);

    /* janggi at a fresh half-move counter; bikjang (facing generals) adds the pass option, skip it. */
    if (position_generals_facing(&a.pos))
        return;
    char board[100], side;
    assert_int_equal(sscanf(fen, "%99s %c", board, &side), 2);
    snprintf(fen0, sizeof fen0, "%s %c - - 0 1", board, side);
    mirror_fen(fen0, twin, sizeof twin);
    ea = eval_fen("janggi", fen0);
    eb = eval_fen("janggi", twin);
    int han_to_move = side == 'b';
    /* Cho to move in fen0: it is eval = raw - deom; the twin has Han to move: raw + deom. */
    if (eb - ea != (han_to_move ? -2 : 2) * shipped.deom)
        fail_msg("janggi: %d for %s, %d for its twin %s", ea, fen0, eb, twin);
}

static void test_symmetry(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int checked = 0;
    for (int game = 0; game < 40; game++) {
        TestGame g;
        test_game_setup(&g, "janggicasual", START, NULL);
        for (int ply = 0; ply < GAME_MAX_PLIES; ply++) {
            char fen[128];
            position_to_fen(&g.pos, fen, sizeof fen);
            check_symmetry(fen);
            checked++;
            MoveList list;
            movegen_legal(&g.pos, &list);
            if (list.count == 0)
                break;
            /* Prefer captures half of the time, so that games reach thinner material. */
            Move m = list.moves[next_random(&seed) % (uint64_t)list.count];
            if (next_random(&seed) & 1)
                for (int i = 0; i < list.count; i++)
                    if (!move_is_pass(list.moves[i]) && g.pos.board[move_to(list.moves[i])]) {
                        m = list.moves[i];
                        break;
                    }
            position_make(&g.pos, m, &g.states[g.plies++]);
        }
    }
    assert_true(checked > 1000);
}

/* ---- material, counting, trace ---- */

static void test_material_order(void **state)
{
    (void)state;
    EvalWeights w = hand_weights();
    eval_use_weights(&w);
    int start = eval_fen("janggi", START);
    int soldier = eval_fen("janggi", "rnba1abnr/4k4/1c5c1/2p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
    int horse = eval_fen("janggi", "r1ba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
    int cannon = eval_fen("janggi", "rnba1abnr/4k4/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
    int chariot = eval_fen("janggi", "1nba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
    assert_int_equal(start, -w.deom);
    assert_true(soldier > start + 50);
    assert_true(horse > soldier);
    assert_true(cannon > horse);
    assert_true(chariot > cannon);
    assert_true(chariot < EVAL_LIMIT);
    /* The same from Han's side: Han to move, Cho a piece down. */
    assert_int_equal(eval_fen("janggi", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/1NBA1ABNR b - - 0 1"),
                     chariot + 2 * w.deom);
}

/* Two quiet endings: Cho has a horse and an elephant (8 points), Han a horse and two soldiers (9), so
 * the count goes to Han; Cho has three soldiers and a guard against a bare general, so it goes to Cho. */
static const char HAN_COUNTS[] = "4k4/9/9/9/4N4/4B4/9/2p3p2/4K4/3n5";
static const char CHO_COUNTS[] = "4k4/9/9/4P4/2P1P4/9/9/9/4A4/3K5";

static int eval_at(const char *rules, const char *board, char side, int halfmove)
{
    char fen[128];
    snprintf(fen, sizeof fen, "%s %c - - %d 80", board, side, halfmove);
    return eval_fen(rules, fen);
}

static void test_counting_near_move_limit(void **state)
{
    (void)state;
    EvalWeights w = hand_weights();
    eval_use_weights(&w);
    /* Cho's view: Cho to move. */
    int early = eval_at("janggi", HAN_COUNTS, 'w', 0);
    int late = eval_at("janggi", HAN_COUNTS, 'w', 95);
    int last = eval_at("janggi", HAN_COUNTS, 'w', 99);
    assert_true(late < early);
    assert_true(last < late);
    assert_true(last < -w.counting_verdict / 2);
    /* Same from Han's side: Han to move sees it rise. */
    assert_true(eval_at("janggi", HAN_COUNTS, 'b', 95) > eval_at("janggi", HAN_COUNTS, 'b', 0));

    early = eval_at("janggi", CHO_COUNTS, 'w', 0);
    late = eval_at("janggi", CHO_COUNTS, 'w', 95);
    assert_true(late > early);
    assert_true(eval_at("janggi", CHO_COUNTS, 'w', 99) > w.counting_verdict / 2);

    /* janggimodern counts at 200 plies: nothing yet at 95, the same pull at 195. */
    assert_int_equal(eval_at("janggimodern", HAN_COUNTS, 'w', 95), eval_at("janggimodern", HAN_COUNTS, 'w', 0));
    assert_int_equal(eval_at("janggimodern", HAN_COUNTS, 'w', 195), eval_at("janggi", HAN_COUNTS, 'w', 95));

    /* No counting: the move limit pulls towards a draw, and there is no deom. */
    early = eval_at("janggicasual", CHO_COUNTS, 'w', 0);
    late = eval_at("janggicasual", CHO_COUNTS, 'w', 95);
    assert_true(early > 0);
    assert_true(late > 0 && late < early);
    assert_int_equal(eval_at("janggitraditional", CHO_COUNTS, 'w', 95), late);
    assert_int_equal(eval_fen("janggicasual", START), 0);
}

static void test_counting_after_pass_and_in_bikjang(void **state)
{
    (void)state;
    EvalWeights w = hand_weights();
    eval_use_weights(&w);
    TestGame g;
    /* Han passes; Cho, ahead on count, may pass and win: the evaluation rises. */
    test_game_setup(&g, "janggi", "4k4/9/9/4P4/2P1P4/9/9/9/4A4/3K5 b - - 10 80", "e10e10");
    int after_pass = eval_evaluate(&g.pos);
    int no_pass = eval_at("janggi", CHO_COUNTS, 'w', 11);
    assert_true(after_pass > no_pass);
    /* Han passes where Han wins the count: Cho will not pass, nothing changes. */
    test_game_setup(&g, "janggi", "4k4/9/9/9/4N4/4B4/9/2p3p2/4K4/3n5 b - - 10 80", "e10e10");
    assert_int_equal(eval_evaluate(&g.pos), eval_at("janggi", HAN_COUNTS, 'w', 11));

    /* Bikjang: the generals face each other on the e-file and Cho, to move, wins the count by passing.
     * janggimodern has no bikjang (and the same count with the deom), so it is the baseline. */
    char fen[128];
    snprintf(fen, sizeof fen, "%s w - - 0 80", "4k4/9/9/9/2P3P2/9/9/9/4K4/9");
    test_game_setup(&g, "janggi", fen, NULL);
    assert_true(g.pos.st->bikjang);
    assert_true(eval_evaluate(&g.pos) > eval_fen("janggimodern", fen));
    /* Han to move in the same bikjang loses the count: no gain from the pass option. */
    snprintf(fen, sizeof fen, "%s b - - 0 80", "4k4/9/9/9/2P3P2/9/9/9/4K4/9");
    assert_int_equal(eval_fen("janggi", fen), eval_fen("janggimodern", fen));
}

static void test_trace(void **state)
{
    (void)state;
    TestGame g;
    char buf[4096];
    test_game_setup(&g, "janggi", START, NULL);
    eval_trace(&g.pos, buf, sizeof buf);
    assert_non_null(strstr(buf, "Material count: Cho 72, Han 72 + 1.5 deom = 73.5 (Han ahead)\n"));
    assert_non_null(strstr(buf, eval_weights_name()));
    for (const char *term = "Material\0Piece-square\0Mobility\0Palace safety\0Threats\0Counting\0Tempo\0Total\0"; *term;
         term += strlen(term) + 1)
        if (!strstr(buf, term))
            fail_msg("no '%s' row in:\n%s", term, buf);
    char want[80];
    int start_total = shipped.tempo - shipped.deom;
    snprintf(want, sizeof want, "Final evaluation: %s%d.%02d (Cho's point of view)", start_total < 0 ? "-" : "",
             abs(start_total) / 100, abs(start_total) % 100);
    assert_non_null(strstr(buf, want));

    /* Hand-set weights: the lone chariot, term by term, in pawns. */
    EvalWeights w = hand_weights();
    eval_use_weights(&w);
    test_game_setup(&g, "janggi", LONE_CHARIOT, NULL);
    eval_trace(&g.pos, buf, sizeof buf);
    const char *rows[] = {
        "      Material |   10.00    0.00 |   10.00\n",
        "  Piece-square |    0.10    0.00 |    0.10\n",
        "      Mobility |    0.34    0.00 |    0.34\n",
        " Palace safety |   -0.80   -1.02 |    0.22\n",
        "       Threats |    0.00    0.00 |    0.00\n",
        "      Counting |      --    0.15 |   -0.15\n",
        "         Tempo |     Cho to move |    0.00\n",
        "         Total |                 |   10.51\n",
        "Final evaluation: 10.51 (Cho's point of view); 1051 cp for the side to move (Cho)\n",
        "Material count: Cho 13, Han 0 + 1.5 deom = 1.5 (Cho ahead)\n",
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strstr(buf, rows[i]))
            fail_msg("missing line '%s' in:\n%s", rows[i], buf);

    /* A short buffer is cut, still terminated. */
    char small[40];
    memset(small, 'x', sizeof small);
    eval_trace(&g.pos, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_weight_file_named_by_hash, restore),
        cmocka_unit_test_setup(test_malformed_weights_refused, restore),
        cmocka_unit_test_setup(test_weight_text_layout, restore),
        cmocka_unit_test_setup(test_exact_values, restore),
        cmocka_unit_test_setup(test_threats, restore),
        cmocka_unit_test_setup(test_tempo, restore),
        cmocka_unit_test_setup(test_symmetry, restore),
        cmocka_unit_test_setup(test_material_order, restore),
        cmocka_unit_test_setup(test_counting_near_move_limit, restore),
        cmocka_unit_test_setup(test_counting_after_pass_and_in_bikjang, restore),
        cmocka_unit_test_setup(test_trace, restore),
    };
    return cmocka_run_group_tests_name("eval", tests, setup, NULL);
}

/* The referee and the game record: every ending and reason in every rule set, with the reference
 * examples, material counting with the deom, and the named setups; and the optional ends (repetition,
 * perpetual check, the Kakao rule, the move limit) against the claims of the latest Fairy-Stockfish,
 * recorded in tests/data/fsf_game_ends.tsv.xz (bench/fsf_reference.py says how). */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/base/datafile.h"
#include "../engine/game.h"
#include "support.h"

typedef struct {
    GameResult result;
    EndReason reason;
    bool immediate, by_counting;
} Expected;

static const Expected ONGOING = {GAME_ONGOING, END_NONE, false, false};

/* Plays `moves` from `fen` under `variant`; the game must go on until the last move, after which
 * its status must be `want`. */
static void check_game(const char *variant, const char *fen, const char *moves, Expected want)
{
    Game game;
    char err[160];
    if (!game_start(&game, fen, rules_by_name(variant), FEN_STRICT, err, sizeof err))
        fail_msg("bad FEN %s: %s", fen, err);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    int ply = 0;
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        GameStatus before = game_status(&game);
        if (before.result != GAME_ONGOING)
            fail_msg("%s: game already over (%s, %s) before ply %d", variant, game_result_name(before.result),
                     end_reason_name(before.reason), ply + 1);
        if (game_play_text(&game, tok, RANKS_FROM_1) != MOVE_PARSE_OK)
            fail_msg("%s: move %s at ply %d refused", variant, tok, ply + 1);
        ply++;
    }
    GameStatus s = game_status(&game);
    if (s.result != want.result || s.reason != want.reason || s.immediate != want.immediate
        || s.by_counting != want.by_counting)
        fail_msg("%s after %d plies: got %s %s%s%s, expected %s %s%s%s", variant, ply, game_result_name(s.result),
                 end_reason_name(s.reason), s.immediate ? " immediate" : "", s.by_counting ? " by counting" : "",
                 game_result_name(want.result), end_reason_name(want.reason), want.immediate ? " immediate" : "",
                 want.by_counting ? " by counting" : "");
    game_free(&game);
}

/* The game must have ended at its last move (and not before) exactly as `want`. */
#define START "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

static const char HORSE_SHUFFLE[] = "b1c3 b10c8 c3b1 c8b10 b1c3 b10c8 c3b1 c8b10";

static void test_horse_shuffle(void **state)
{
    (void)state;
    check_game("janggi", START, HORSE_SHUFFLE, (Expected){GAME_HAN_WINS, END_REPETITION, false, true});
    check_game("janggitraditional", START, HORSE_SHUFFLE, (Expected){GAME_DRAW, END_REPETITION, false, false});
    check_game("janggicasual", START, HORSE_SHUFFLE, (Expected){GAME_DRAW, END_REPETITION, false, false});
    /* janggimodern: no 4-fold yet; the fifth shuffle move of each side loses by the Kakao rule. */
    check_game("janggimodern", START, HORSE_SHUFFLE, ONGOING);
    check_game("janggimodern", START, "b1c3 b10c8 c3b1 c8b10 b1c3 b10c8 c3b1 c8b10 b1c3",
               (Expected){GAME_HAN_WINS, END_KAKAO_REPETITION, false, false});
    Game game;
    char err[80];
    assert_true(game_start(&game, START, &RULES_JANGGIMODERN, FEN_STRICT, err, sizeof err));
    char moves[] = "b1c3 b10c8 c3b1 c8b10 b1c3 b10c8 c3b1 c8b10 b1c3 b10c8";
    for (char *tok = strtok(moves, " "); tok; tok = strtok(NULL, " "))
        assert_int_equal(game_play_text(&game, tok, RANKS_FROM_1), MOVE_PARSE_OK);
    GameStatus s = game_status(&game);
    assert_int_equal(s.result, GAME_CHO_WINS);
    assert_int_equal(s.reason, END_KAKAO_REPETITION);
    game_free(&game);
}

static void test_generals_shuffle_repetition(void **state)
{
    (void)state;
    /* Generals are confined to their palace, so the Kakao rule never applies to them: janggimodern
     * waits for the fourth occurrence. */
    const char *three = "e2e1 e9e10 e1e2 e10e9 e2e1 e9e10 e1e2 e10e9";
    const char *four = "e2e1 e9e10 e1e2 e10e9 e2e1 e9e10 e1e2 e10e9 e2e1 e9e10 e1e2 e10e9";
    check_game("janggi", START, three, (Expected){GAME_HAN_WINS, END_REPETITION, false, true});
    check_game("janggimodern", START, three, ONGOING);
    check_game("janggimodern", START, four, (Expected){GAME_HAN_WINS, END_REPETITION, false, true});
}

static void test_kakao_with_pass(void **state)
{
    (void)state;
    /* Cho: arrival b1c3, then c3b1 b1c3 c3b1, a pass, and b1c3 again: the pass case of the rule. */
    const char *moves = "b1c3 e9e10 c3b1 e10e9 b1c3 e9e10 c3b1 e10e9 e2e2 e9e10 b1c3";
    check_game("janggimodern", START, moves, (Expected){GAME_HAN_WINS, END_KAKAO_REPETITION, false, false});
    /* Without the pass the same shuffle is only a repetition (the eighth ply repeats the start). */
    check_game("janggicasual", START, "b1c3 e9e10 c3b1 e10e9 b1c3 e9e10 c3b1 e10e9",
               (Expected){GAME_DRAW, END_REPETITION, false, false});
}

static void test_kakao_check_resets(void **state)
{
    (void)state;
    /* Cho shuffles its horse b1c3/c3b1 (ply 2 is the arrival) while Han moves one chariot along the i file
     * and the other to a3 and back, never repeating a move pair itself. With Cho's general on e2
     * nothing is a check, and Cho's fifth horse move (ply 10) loses. */
    static const char *const plies[] = {"i8i7", "b1c3", "i7i6", "c3b1", "a4a3", "b1c3", "a3a4", "c3b1",
                                        "i6i5", "b1c3", "i5i4", "c3b1", "i4i5", "b1c3", "i5i6", "c3b1"};
    char moves[128] = "";
    char upto[17][128];
    for (int i = 0; i < 16; i++) {
        strcat(moves, i ? " " : "");
        strcat(moves, plies[i]);
        strcpy(upto[i + 1], moves);
    }
    check_game("janggimodern", "4k4/9/8r/9/9/9/r8/9/4K4/1N7 b - - 0 1", upto[10],
               (Expected){GAME_HAN_WINS, END_KAKAO_REPETITION, false, false});
    /* With the general on e3, a4a3 is a check that b1c3 blocks (ply 6). Each window of five Cho
     * moves holding ply 6 restarts (it is M4 at ply 10, M6 at ply 12 and the arrival at ply 14);
     * the first clean window completes at ply 16. */
    const char *checked = "4k4/9/8r/9/9/9/r8/4K4/9/1N7 b - - 0 1";
    check_game("janggimodern", checked, upto[15], ONGOING);
    check_game("janggimodern", checked, upto[16], (Expected){GAME_HAN_WINS, END_KAKAO_REPETITION, false, false});
}

static void test_perpetual_check(void **state)
{
    (void)state;
    /* Cho's chariot checks Han's general at every move. The checking side is never in check, so
     * in janggimodern the shuffle loses by the Kakao rule before any fourfold repetition; in the
     * other rule sets the third occurrence is a perpetual check, which loses for the checker. */
    const char *fen = "3k5/9/R8/9/4P4/9/9/9/4K4/9 w - - 0 1";
    const char *moves = "a8a10 d10d9 a10a9 d9d10 a9a10 d10d9 a10a9 d9d10 a9a10";
    check_game("janggimodern", fen, moves, (Expected){GAME_HAN_WINS, END_KAKAO_REPETITION, false, false});
    check_game("janggi", fen, moves, (Expected){GAME_HAN_WINS, END_PERPETUAL_CHECK, false, false});
    check_game("janggitraditional", fen, moves, (Expected){GAME_HAN_WINS, END_PERPETUAL_CHECK, false, false});
    check_game("janggicasual", fen, moves, (Expected){GAME_HAN_WINS, END_PERPETUAL_CHECK, false, false});
    /* Seen from the checked side's repetition: Han's general shuffle repeats first when Cho's
     * checks start one move later, and the checker still loses. */
    check_game("janggi", "3k5/9/R8/9/4P4/9/9/9/4K4/9 b - - 0 1",
               "d10d9 a8a9 d9d10 a9a10 d10d9 a10a9 d9d10 a9a10 d10d9 a10a9",
               (Expected){GAME_HAN_WINS, END_PERPETUAL_CHECK, false, false});
}

static void test_bikjang(void **state)
{
    (void)state;
    const char *moves = "e4d4 e7d7 e2e2";
    check_game("janggi", START, moves, (Expected){GAME_HAN_WINS, END_BIKJANG, true, true});
    check_game("janggitraditional", START, moves, (Expected){GAME_DRAW, END_BIKJANG, true, false});
    check_game("janggimodern", START, moves, ONGOING);
    check_game("janggicasual", START, moves, ONGOING);
    /* Counting after bikjang with Cho ahead by a soldier (2 points > 1.5). */
    check_game("janggi", "4k4/9/9/9/9/9/P8/9/4K4/9 w - - 0 1", "e2e2",
               (Expected){GAME_CHO_WINS, END_BIKJANG, true, true});
}

static void test_double_pass(void **state)
{
    (void)state;
    Expected han_by_count = {GAME_HAN_WINS, END_DOUBLE_PASS, true, true};
    Expected draw = {GAME_DRAW, END_DOUBLE_PASS, true, false};
    check_game("janggi", START, "e2e2 e9e9", han_by_count);
    check_game("janggimodern", START, "e2e2 e9e9", han_by_count);
    check_game("janggitraditional", START, "e2e2 e9e9", draw);
    check_game("janggicasual", START, "e2e2 e9e9", draw);
    /* A pass that does not follow a pass ends nothing. */
    check_game("janggi", START, "e2e2 e7e6 e2e2", ONGOING);
    /* Unequal material: Cho +2 wins the count, Cho +1 does not (the deom is 1.5). */
    const char *soldier_up = "3k5/9/9/9/9/9/P8/9/4K4/9 w - - 0 1";
    const char *elephant_vs_soldier = "3k5/9/9/9/p8/9/B8/9/4K4/9 w - - 0 1";
    check_game("janggi", soldier_up, "e2e2 d10d10", (Expected){GAME_CHO_WINS, END_DOUBLE_PASS, true, true});
    check_game("janggimodern", soldier_up, "e2e2 d10d10", (Expected){GAME_CHO_WINS, END_DOUBLE_PASS, true, true});
    check_game("janggicasual", soldier_up, "e2e2 d10d10", draw);
    check_game("janggi", elephant_vs_soldier, "e2e2 d10d10", han_by_count);
    /* Han passing first, then Cho: the side to move after the second pass is Han. */
    check_game("janggi", "3k5/9/9/9/9/9/P8/9/4K4/9 b - - 0 1", "d10d10 e2e2",
               (Expected){GAME_CHO_WINS, END_DOUBLE_PASS, true, true});
}

static void test_move_limit(void **state)
{
    (void)state;
    const char *fen = "5k3/9/9/9/9/9/9/9/4K4/9 w - - 99 60";
    check_game("janggi", fen, "e2e1", (Expected){GAME_HAN_WINS, END_MOVE_LIMIT, false, true});
    check_game("janggitraditional", fen, "e2e1", (Expected){GAME_DRAW, END_MOVE_LIMIT, false, false});
    check_game("janggicasual", fen, "e2e1", (Expected){GAME_DRAW, END_MOVE_LIMIT, false, false});
    check_game("janggimodern", fen, "e2e1", ONGOING);
    check_game("janggimodern", "5k3/9/9/9/9/9/9/9/4K4/9 w - - 199 60", "e2e1",
               (Expected){GAME_HAN_WINS, END_MOVE_LIMIT, false, true});
    /* A capture resets the counter; passes do not. */
    check_game("janggi", "5k3/9/9/9/9/9/9/p8/R3K4/9 w - - 99 60", "a2a3", ONGOING);
    check_game("janggi", "5k3/9/9/9/9/9/9/9/4K4/9 w - - 98 60", "e2e2 f10f10",
               (Expected){GAME_HAN_WINS, END_DOUBLE_PASS, true, true});
    check_game("janggi", "5k3/9/9/9/9/9/9/9/4K4/9 w - - 98 60", "e2e2 f10e10",
               (Expected){GAME_HAN_WINS, END_MOVE_LIMIT, false, true});
}

static void test_checkmate(void **state)
{
    (void)state;
    const char *fen = "3k5/3aa4/9/9/9/9/9/9/4K4/R8 w - - 0 1";
    for (int i = 0; i < 4; i++)
        check_game(rules_all[i]->name, fen, "a1a10", (Expected){GAME_CHO_WINS, END_CHECKMATE, true, false});
    /* Mate takes precedence over the move limit. */
    check_game("janggi", "3k5/3aa4/9/9/9/9/9/9/4K4/R8 w - - 99 1", "a1a10",
               (Expected){GAME_CHO_WINS, END_CHECKMATE, true, false});
}

static void test_material_count(void **state)
{
    (void)state;
    Position pos;
    char err[80];
    assert_true(position_set_fen(&pos, START, &RULES_JANGGI, FEN_STRICT, err, sizeof err));
    MaterialCount m = referee_count_material(&pos);
    assert_int_equal(m.cho, 72);
    assert_int_equal(m.han, 72);
    assert_int_equal(referee_counting_winner(m), BLACK);
    assert_int_equal(referee_counting_winner((MaterialCount){10, 8}), WHITE);
    assert_int_equal(referee_counting_winner((MaterialCount){10, 9}), BLACK);
    assert_true(position_set_fen(&pos, "4k4/2r1a4/2c6/2n6/2b6/2p6/9/9/4K4/9 w - - 0 1", &RULES_JANGGI, FEN_STRICT, err,
                                 sizeof err));
    m = referee_count_material(&pos);
    assert_int_equal(m.cho, 0);
    assert_int_equal(m.han, 13 + 3 + 7 + 5 + 3 + 2);
}

static void test_named_setups(void **state)
{
    (void)state;
    static const char *const korean[4] = {"마상상마", "상마마상", "상마상마", "마상마상"};
    static const char *const roman[4] = {"inner elephant", "Outer", "left-elephant", "RIGHT"};
    static const char *const cho_rank[4] = {"RNBA1ABNR", "RBNA1ANBR", "RBNA1ABNR", "RNBA1ANBR"};
    static const char *const han_rank[4] = {"rnba1abnr", "rbna1anbr", "rbna1abnr", "rnba1anbr"};
    for (int c = 0; c < 4; c++)
        for (int h = 0; h < 4; h++) {
            char fen[128], want[128], err[200];
            snprintf(want, sizeof want, "%s/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/%s w - - 0 1", han_rank[h],
                     cho_rank[c]);
            assert_true(setup_start_fen(korean[c], korean[h], fen, sizeof fen, err, sizeof err));
            assert_string_equal(fen, want);
            assert_true(setup_start_fen(roman[c], roman[h], fen, sizeof fen, err, sizeof err));
            assert_string_equal(fen, want);
            Position pos;
            assert_true(position_set_fen(&pos, fen, &RULES_JANGGI, FEN_STRICT, err, sizeof err));
        }
    char fen[128], err[200];
    assert_false(setup_start_fen("마상상마", "elephant", fen, sizeof fen, err, sizeof err));
    assert_string_equal(
        err,
        "unknown Han setup 'elephant' (마상상마, 상마마상, 상마상마, 마상마상, or inner, outer, left, right elephant)");
    assert_false(setup_start_fen("innerelephant", "inner", fen, sizeof fen, err, sizeof err));
    assert_string_equal(err, "unknown Cho setup 'innerelephant' (마상상마, 상마마상, 상마상마, 마상마상, or inner, "
                             "outer, left, right elephant)");
}

static void test_undo_restores_status(void **state)
{
    (void)state;
    Game game;
    char err[80];
    assert_true(game_start(&game, START, &RULES_JANGGI, FEN_STRICT, err, sizeof err));
    assert_int_equal(game_play_text(&game, "e2e2", RANKS_FROM_1), MOVE_PARSE_OK);
    assert_int_equal(game_play_text(&game, "e9e9", RANKS_FROM_1), MOVE_PARSE_OK);
    assert_int_equal(game_status(&game).reason, END_DOUBLE_PASS);
    /* No move after an immediate end. */
    assert_int_equal(game_play_text(&game, "a1a2", RANKS_FROM_1), MOVE_PARSE_ILLEGAL);
    assert_true(game_undo(&game));
    assert_int_equal(game_status(&game).result, GAME_ONGOING);
    assert_int_equal(game_play_text(&game, "a10a9", RANKS_FROM_1), MOVE_PARSE_OK);
    assert_int_equal(game_status(&game).result, GAME_ONGOING);
    /* A long game forces the record to grow: shuffle generals for 600 plies with captures absent,
     * under janggicasual the move limit ends it at the 100th ply without capture. */
    game_free(&game);
    assert_true(game_start(&game, START, &RULES_JANGGICASUAL, FEN_STRICT, err, sizeof err));
    static const char *const cycle[] = {"a1a2", "a10a9", "a2a1", "a9a10", "i1i2", "i10i9", "i2i1", "i9i10"};
    for (int i = 0; i < 600; i++) {
        assert_true(game_play_text(&game, cycle[i % 8], RANKS_FROM_1) == MOVE_PARSE_OK);
        if (i == 98)
            assert_int_equal(game_status(&game).reason, END_REPETITION);
    }
    assert_int_equal(game.length, 600);
    assert_int_equal(game_status(&game).reason, END_MOVE_LIMIT);
    while (game_undo(&game))
        ;
    char fen[128];
    position_to_fen(&game.pos, fen, sizeof fen);
    assert_string_equal(fen, START);
    game_free(&game);
}

/* Each recorded game (generated by test_referee_fsf.c, ended optionally by Janggun's referee and played
 * on a few random plies) with the first ply at which the latest FSF in XBoard mode claims a result, and
 * that result: Janggun's referee must end the game at the same ply with the same result. */
static void test_latest_fsf_claims(void **state)
{
    (void)state;
    char path[1200], err[700];
    test_data_path(path, sizeof path, "tests/data/fsf_game_ends.tsv.xz");
    DataFile *file = datafile_open(path, err, sizeof err);
    if (!file)
        fail_msg("%s", err);
    char *line = NULL;
    size_t cap = 0;
    int games = 0, mismatches = 0, by_variant[4] = {0}, ended_by[END_MOVE_LIMIT + 1] = {0};
    static const char *const variants[4] = {"janggi", "janggitraditional", "janggimodern", "janggicasual"};
    while (getline(&line, &cap, datafile_stream(file)) > 0) {
        line[strcspn(line, "\n")] = '\0';
        char *fields[5], *save = NULL;
        int n = 0;
        for (char *f = strtok_r(line, "\t", &save); f && n < 5; f = strtok_r(NULL, "\t", &save))
            fields[n++] = f;
        assert_int_equal(n, 5);
        const RuleSet *rules = rules_by_name(fields[0]);
        assert_non_null(rules);
        for (int v = 0; v < 4; v++)
            by_variant[v] += strcmp(fields[0], variants[v]) == 0;
        int fsf_ply = atoi(fields[3]);
        const char *fsf_result = fields[4];
        Game g;
        if (!game_start(&g, fields[1], rules, FEN_STRICT, err, sizeof err))
            fail_msg("line %d: bad FEN %s: %s", games + 1, fields[1], err);
        int ply = -1;
        GameStatus status = game_status(&g);
        char *msave = NULL;
        char *m = strtok_r(fields[2], " ", &msave);
        for (int k = 0;; k++) {
            status = game_status(&g);
            if (status.result != GAME_ONGOING) {
                ply = k;
                break;
            }
            if (!m)
                break;
            if (game_play_text(&g, m, RANKS_FROM_1) != MOVE_PARSE_OK)
                fail_msg("line %d: move %d '%s' refused", games + 1, k + 1, m);
            m = strtok_r(NULL, " ", &msave);
        }
        const char *result = ply < 0 ? "-" : game_result_name(status.result);
        if (ply != fsf_ply || strcmp(result, fsf_result) != 0) {
            if (++mismatches <= 5)
                print_error("line %d (%s, %s): Janggun ends at ply %d with %s (%s), FSF claims at ply %d: %s\n",
                            games + 1, fields[0], fields[1], ply, result,
                            ply < 0 ? "-" : end_reason_name(status.reason), fsf_ply, fsf_result);
        } else if (ply >= 0) {
            ended_by[status.reason]++;
        }
        game_free(&g);
        games++;
    }
    free(line);
    if (!datafile_close(file, err, sizeof err))
        fail_msg("%s", err);
    print_message("%d games (janggi %d, janggitraditional %d, janggimodern %d, janggicasual %d): the same end "
                  "as FSF's claim; repetition %d, perpetual check %d, kakao repetition %d, move limit %d, "
                  "immediate ends %d\n",
                  games, by_variant[0], by_variant[1], by_variant[2], by_variant[3], ended_by[END_REPETITION],
                  ended_by[END_PERPETUAL_CHECK], ended_by[END_KAKAO_REPETITION], ended_by[END_MOVE_LIMIT],
                  ended_by[END_CHECKMATE] + ended_by[END_DOUBLE_PASS] + ended_by[END_BIKJANG]);
    if (mismatches)
        fail_msg("%d of %d games end differently from FSF's claim (first 5 above)", mismatches, games);
    for (int v = 0; v < 4; v++)
        if (by_variant[v] < 200)
            fail_msg("only %d recorded games under %s", by_variant[v], variants[v]);
    if (!ended_by[END_REPETITION] || !ended_by[END_PERPETUAL_CHECK] || !ended_by[END_KAKAO_REPETITION]
        || !ended_by[END_MOVE_LIMIT])
        fail_msg("some optional end is missing from the recorded games");
}

int main(void)
{
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_horse_shuffle),     cmocka_unit_test(test_generals_shuffle_repetition),
        cmocka_unit_test(test_kakao_with_pass),   cmocka_unit_test(test_kakao_check_resets),
        cmocka_unit_test(test_perpetual_check),   cmocka_unit_test(test_bikjang),
        cmocka_unit_test(test_double_pass),       cmocka_unit_test(test_move_limit),
        cmocka_unit_test(test_checkmate),         cmocka_unit_test(test_material_count),
        cmocka_unit_test(test_named_setups),      cmocka_unit_test(test_undo_restores_status),
        cmocka_unit_test(test_latest_fsf_claims),
    };
    return cmocka_run_group_tests_name("referee", tests, NULL, NULL);
}

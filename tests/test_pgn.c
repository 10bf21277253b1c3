/* PGN (engine/records/pgn.h): Fairy-Stockfish's SAN for Janggi: every legal move of 3,039 positions against the
 * SAN the latest FSF writes for it (tests/data/fsf_san.tsv.xz, recorded by bench/fsf_reference.py),
 * FSF's own SAN examples, and the SAN written and read back at every ply of every 20th game of the
 * corpus (bench/data/games.jsonl.xz); the other accepted move forms;
 * pychess-variants style PGN with tags, comments, variations, NAGs, results and several games; UCI
 * movetext; and the messages for bad games, the rest of the file still read. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/base/datafile.h"
#include "../engine/game.h"
#include "../engine/move.h"
#include "../engine/movegen.h"
#include "../engine/records/pgn.h"
#include "../engine/records/jsonl.h"
#include "record_checks.h"
#include "support.h"

static void setup(Game *g, const char *fen)
{
    char err[200];
    if (!game_start(g, fen, &RULES_JANGGI, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
        fail_msg("bad FEN %s: %s", fen, err);
}

static void expect_san(const char *fen, const char *uci, const char *san)
{
    Game g;
    setup(&g, fen);
    Move m;
    if (move_parse(&g.pos, uci, RANKS_FROM_1, &m) != MOVE_PARSE_OK)
        fail_msg("%s is not legal in %s", uci, fen);
    char text[PGN_SAN_SIZE];
    pgn_move_to_san(&g.pos, m, text);
    if (strcmp(text, san))
        fail_msg("%s in %s: SAN %s, expected %s", uci, fen, text, san);
    Move back = MOVE_NONE;
    assert_int_equal(pgn_parse_move(&g.pos, san, &back), PGN_MOVE_OK);
    assert_int_equal(back, m);
    game_free(&g);
}

/* Whether a SAN names part of the origin (file, rank or square) between the piece and the destination. */
static bool names_origin(const char *san)
{
    size_t n = strcspn(san, "+#");
    size_t dest = n >= 3 && san[n - 2] == '1' && san[n - 1] == '0' ? n - 3 : n - 2; /* a10 or a9 */
    size_t from = 1, to = dest > 0 && san[dest - 1] == 'x' ? dest - 1 : dest;
    return to > from;
}

/* Each line: a rule set, a FEN and every legal move there with FSF's SAN (`uci=san ...`). Janggun must
 * have the same legal moves, write the same SAN for each, and read each SAN back as the move. */
static void test_fsf_san(void **state)
{
    (void)state;
    char path[1200], err[700];
    test_data_path(path, sizeof path, "tests/data/fsf_san.tsv.xz");
    DataFile *file = datafile_open(path, err, sizeof err);
    if (!file)
        fail_msg("%s", err);
    char *line = NULL;
    size_t cap = 0;
    int positions = 0, moves = 0, disambiguated = 0, checks = 0, captures = 0, mismatches = 0;
    while (getline(&line, &cap, datafile_stream(file)) > 0) {
        line[strcspn(line, "\n")] = '\0';
        char *save = NULL, *variant = strtok_r(line, "\t", &save), *fen = strtok_r(NULL, "\t", &save),
             *pairs = strtok_r(NULL, "\t", &save);
        assert_non_null(pairs);
        Position pos;
        if (!position_set_fen(&pos, fen, rules_by_name(variant), FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
            fail_msg("line %d: bad FEN %s: %s", positions + 1, fen, err);
        MoveList legal;
        movegen_legal(&pos, &legal);
        int listed = 0;
        char *psave = NULL;
        for (char *pair = strtok_r(pairs, " ", &psave); pair; pair = strtok_r(NULL, " ", &psave)) {
            char *san = strchr(pair, '=');
            assert_non_null(san);
            *san++ = '\0';
            Move m;
            if (move_parse(&pos, pair, RANKS_FROM_1, &m) != MOVE_PARSE_OK)
                fail_msg("%s: FSF's move %s is not legal for Janggun", fen, pair);
            char text[PGN_SAN_SIZE];
            pgn_move_to_san(&pos, m, text);
            Move back = MOVE_NONE;
            PgnMoveResult r = pgn_parse_move(&pos, san, &back);
            if ((strcmp(text, san) != 0 || r != PGN_MOVE_OK || back != m) && ++mismatches <= 10)
                print_error("%s: %s is %s for FSF, %s for Janggun (read back: %s)\n", fen, pair, san, text,
                            r == PGN_MOVE_OK && back == m ? "the same move" : "not the move");
            listed++;
            disambiguated += san[0] != 'P' && names_origin(san);
            checks += strchr(san, '+') != NULL;
            captures += strchr(san, 'x') != NULL;
        }
        if (listed != legal.count)
            fail_msg("%s: FSF lists %d legal moves, Janggun %d", fen, listed, legal.count);
        moves += listed;
        positions++;
    }
    free(line);
    if (!datafile_close(file, err, sizeof err))
        fail_msg("%s", err);
    print_message("%d positions, %d moves (%d checks, %d captures, %d pieces other than soldiers named with "
                  "their file, rank or square): FSF's SAN written and read back\n",
                  positions, moves, checks, captures, disambiguated);
    if (mismatches)
        fail_msg("%d moves written differently from FSF's SAN (first 10 above)", mismatches);
    assert_int_equal(positions, 3039);
    assert_true(disambiguated > 1000);
}

/* The one writer, exactly: tags escaped, SAN with move numbers, Han's first move numbered, a comment,
 * wrapping at 79 columns, the result. */
static void test_write_exact(void **state)
{
    (void)state;
    Game g;
    setup(&g, START_FEN);
    const char *moves = "b1c3 b10c8 h1g3 h10g8 c4d4 c7d7 a1a2 a10a9 i1i2 i10i9 a2d2 a9d9 i2f2 i9f9 c3d5 c8d6 e2e2";
    for (char *copy = strdup(moves), *save = NULL, *t = strtok_r(copy, " ", &save); t || (free(copy), 0);
         t = strtok_r(NULL, " ", &save))
        assert_int_equal(game_play_text(&g, t, RANKS_FROM_1), MOVE_PARSE_OK);
    const PgnTag tags[] = {{"Event", "A \"B\" \\ C\nD"}, {"Site", NULL}};
    const char *comments[17] = {[1] = "book {x}"};
    PgnOutput out = {.tags = tags,
                     .tag_count = 2,
                     .start_fen = START_FEN,
                     .rules = &RULES_JANGGI,
                     .moves = g.moves,
                     .move_count = g.length,
                     .style = PGN_MOVES_SAN,
                     .comments = comments,
                     .final_comment = "end",
                     .result = "1-0"};
    char *text = pgn_write(&out);
    assert_non_null(text);
    assert_string_equal(text, "[Event \"A \\\"B\\\" \\\\ C D\"]\n[Site \"?\"]\n\n"
                              "1. Hc3 Hc8 {book (x)} 2. Hg3 Hg8 3. Pcd4 Pcd7 4. Ra2 Ra9 5. Ri2 Ri9 6. Rd2 Rd9\n"
                              "7. Rf2 Rf9 8. Hd5 Hd6 9. Ke2 {end} 1-0\n\n");
    free(text);
    out.style = PGN_MOVES_UCI;
    out.comments = NULL;
    out.final_comment = NULL;
    out.tag_count = 0;
    out.move_count = 3;
    out.result = NULL;
    text = pgn_write(&out);
    assert_string_equal(text, "\n1. b1c3 b10c8 2. h1g3 *\n\n");
    free(text);
    Move illegal = g.moves[1]; /* Han's move first: not legal for Cho */
    out.moves = &illegal;
    out.move_count = 1;
    assert_null(pgn_write(&out));
    game_free(&g);
}

static void expect_read(const char *fen, const char *text, PgnMoveResult result, const char *uci)
{
    Game g;
    setup(&g, fen);
    Move m = MOVE_NONE;
    PgnMoveResult r = pgn_parse_move(&g.pos, text, &m);
    if (r != result)
        fail_msg("'%s': result %d, expected %d", text, (int)r, (int)result);
    if (uci) {
        char got[MOVE_TEXT_SIZE];
        move_to_text(m, RANKS_FROM_1, got);
        assert_string_equal(got, uci);
    }
    game_free(&g);
}

static void test_san_examples(void **state)
{
    (void)state;
    /* Fairy-Stockfish's own test cases (pyffish get_san) */
    expect_san("1b1aa2b1/5k3/3ncn3/1pp1pp3/5r2p/9/P1PPB1PPB/2N1CCN1c/9/R2AKAR2 w - - 19 17", "d1e2", "Ade2");
    expect_san("1Pbcka3/3nNn1c1/N2CaC3/1pB6/9/9/5P3/9/4K4/9 w - - 0 23", "f8f10", "Cfxf10");
    /* the start position */
    expect_san(START_FEN, "b1c3", "Hc3");
    expect_san(START_FEN, "h1g3", "Hg3");
    expect_san(START_FEN, "a4b4", "Pab4");
    expect_san(START_FEN, "c4c5", "Pc5");
    expect_san(START_FEN, "e4d4", "Ped4");
    expect_san(START_FEN, "a1a3", "Ra3");
    expect_san(START_FEN, "e2e2", "Ke2");
    expect_san(START_FEN, "d1e1", "Ade1");
    expect_san(START_FEN, "e2d3", "Kd3");
    /* two chariots on one file: the rank tells them apart; check and mate */
    expect_san("3k5/9/9/9/9/9/R8/9/R8/4K4 w - - 0 1", "a4a3", "R4a3");
    expect_san("3k5/9/9/9/9/9/9/9/4K4/R7R w - - 0 1", "a1d1", "Rad1+");
    expect_san("4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a1a10", "Ra10#");
}

static void test_move_forms(void **state)
{
    (void)state;
    expect_read(START_FEN, "b1c3", PGN_MOVE_OK, "b1c3");
    expect_read(START_FEN, "Hb1-c3", PGN_MOVE_OK, "b1c3");
    expect_read(START_FEN, "Hb1c3", PGN_MOVE_OK, "b1c3");
    expect_read(START_FEN, "Nc3", PGN_MOVE_OK, "b1c3");
    expect_read(START_FEN, "H02-83", PGN_MOVE_OK, "b1c3");
    expect_read(START_FEN, "Hc3+!?", PGN_MOVE_OK, "b1c3");
    expect_read(START_FEN, "c5", PGN_MOVE_OK, "c4c5");
    expect_read(START_FEN, "pass", PGN_MOVE_OK, "e2e2");
    expect_read(START_FEN, "0000", PGN_MOVE_OK, "e2e2");
    expect_read(START_FEN, "@@@@", PGN_MOVE_OK, "e2e2");
    expect_read(START_FEN, "e2e2", PGN_MOVE_OK, "e2e2");
    expect_read(START_FEN, "Pb4", PGN_MOVE_AMBIGUOUS, NULL);
    expect_read(START_FEN, "Hc4", PGN_MOVE_ILLEGAL, NULL);
    expect_read(START_FEN, "Hxc3", PGN_MOVE_ILLEGAL, NULL);
    expect_read(START_FEN, "b1c4", PGN_MOVE_ILLEGAL, NULL);
    expect_read(START_FEN, "Qd5", PGN_MOVE_SYNTAX, NULL);
    expect_read(START_FEN, "Hz3", PGN_MOVE_SYNTAX, NULL);
    expect_read(START_FEN, "", PGN_MOVE_SYNTAX, NULL);
    expect_read(START_FEN, "H02-8", PGN_MOVE_SYNTAX, NULL);
    expect_read("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1", "Hc8", PGN_MOVE_OK,
                "b10c8");
    expect_read("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1", "R10a9", PGN_MOVE_OK,
                "a10a9");
}

/* SAN at every ply of every 20th game, read back; and whole games as PGN text, read back. */
static void test_san_round_trip(void **state)
{
    (void)state;
    char path[1200];
    char open_err[600];
    test_data_path(path, sizeof path, TEST_CORPUS);
    JsonLines corpus;
    if (!json_lines_open(&corpus, path, open_err, sizeof open_err))
        fail_msg("%s", open_err);
    const char *line;
    int games = 0;
    long plies = 0;
    while ((line = json_lines_next(&corpus, 20))) {
        JsonObject e;
        assert_true(json_parse_object(line, &e, NULL, 0));
        ParsedGameList list = {0};
        ParsedGame *rg = record_list_add(&list, 1);
        snprintf(rg->start_fen, sizeof rg->start_fen, "%s", json_str(&e, "start_fen"));
        record_add_tag(rg, "Event", json_str(&e, "id"));
        record_add_tag(rg, "White", json_str(&e, "cho") ? json_str(&e, "cho") : "?");
        record_add_tag(rg, "Result", "*");
        Game g;
        char err[200];
        assert_true(game_start(&g, rg->start_fen, &RULES_JANGGICASUAL, FEN_STRICT, err, sizeof err));
        const JsonField *mv = json_get(&e, "moves");
        for (int i = 0; i < mv->arr_len; i++) {
            Move m, back = MOVE_NONE;
            assert_int_equal(move_parse(&g.pos, mv->arr[i], RANKS_FROM_1, &m), MOVE_PARSE_OK);
            char san[PGN_SAN_SIZE];
            pgn_move_to_san(&g.pos, m, san);
            PgnMoveResult r = pgn_parse_move(&g.pos, san, &back);
            if (r != PGN_MOVE_OK || back != m)
                fail_msg("%s ply %d: %s written %s, read back as %d (result %d)", json_str(&e, "id"), i + 1, mv->arr[i],
                         san, back, (int)r);
            assert_true(game_play(&g, m));
            record_add_move(rg, m);
        }
        game_free(&g);
        char *text = pgn_game_text(rg, &RULES_JANGGICASUAL);
        assert_non_null(text);
        ParsedGameList back = {0};
        pgn_parse(text, strlen(text), &RULES_JANGGI, NULL, &back);
        assert_int_equal(back.count, 1);
        if (!back.games[0].ok)
            fail_msg("%s: %s\n%s", json_str(&e, "id"), back.games[0].error, text);
        assert_ptr_equal(back.games[0].rules, &RULES_JANGGICASUAL); /* from the Variant tag */
        assert_string_equal(back.games[0].start_fen, rg->start_fen);
        assert_int_equal(back.games[0].move_count, rg->move_count);
        assert_memory_equal(back.games[0].moves, rg->moves, (size_t)rg->move_count * sizeof(Move));
        assert_string_equal(record_tag(&back.games[0], "Event"), json_str(&e, "id"));
        plies += mv->arr_len;
        games++;
        free(text);
        record_list_free(&back);
        record_list_free(&list);
        json_free(&e);
    }
    if (!json_lines_close(&corpus, open_err, sizeof open_err))
        fail_msg("%s", open_err);
    assert_int_equal(corpus.n, 24711);
    assert_true(games > 1200);
    print_message("%d games, %ld plies: SAN written and read back\n", games, plies);
}

static void test_pychess_pgn(void **state)
{
    (void)state;
    const char *text =
        "[Event \"PyChess casual game\"]\n"
        "[Site \"https://www.pychess.org/AbCdEfGh\"]\n"
        "[Date \"2021.03.04\"]\n"
        "[Round \"-\"]\n"
        "[White \"alice\"]\n"
        "[Black \"bob \\\"the cannon\\\"\"]\n"
        "[Result \"0-1\"]\n"
        "[TimeControl \"900+15\"]\n"
        "[WhiteElo \"1500?\"]\n"
        "[BlackElo \"1623\"]\n"
        "[Variant \"Janggi\"]\n"
        "[FEN \"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\"]\n"
        "[SetUp \"1\"]\n"
        "\n"
        "1. Hc3 Hc8 {a comment\nover two lines} 2. Hg3 $1 (2. Pab4 Pab7 (2... Pcb7)) Hg8 ; rest of line\n"
        "3. Ke2 Ke9 0-1\n"
        "\n"
        "% an escaped line\n"
        "[Event \"uci\"]\n"
        "[Variant \"janggimodern\"]\n"
        "[FEN \"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1\"]\n"
        "\n"
        "1... b10c8 2. b1c3 e9e9 *\n"
        "\n"
        "[Event \"no result token\"]\n"
        "\n"
        "1.Hc3 2...Hc8\n";
    ParsedGameList list = {0};
    pgn_parse(text, strlen(text), &RULES_JANGGI, NULL, &list);
    assert_int_equal(list.count, 3);
    char moves[256];
    const ParsedGame *g = &list.games[0];
    if (!g->ok)
        fail_msg("line %d: %s", g->error_line, g->error);
    record_moves_text(g, moves, sizeof moves);
    assert_string_equal(moves, "b1c3 b10c8 h1g3 h10g8 e2e2 e9e9");
    assert_string_equal(record_tag(g, "Black"), "bob \"the cannon\"");
    assert_string_equal(record_tag(g, "Result"), "0-1");
    assert_ptr_equal(g->rules, &RULES_JANGGI);
    assert_int_equal(g->line, 1);
    g = &list.games[1];
    assert_true(g->ok);
    record_moves_text(g, moves, sizeof moves);
    assert_string_equal(moves, "b10c8 b1c3 e9e9");
    assert_ptr_equal(g->rules, &RULES_JANGGIMODERN);
    assert_int_equal(g->line, 20);
    g = &list.games[2];
    assert_true(g->ok);
    record_moves_text(g, moves, sizeof moves);
    assert_string_equal(moves, "b1c3 b10c8");
    record_list_free(&list);

    /* --variant forces the rules over the tag */
    list = (ParsedGameList){0};
    pgn_parse(text, strlen(text), &RULES_JANGGI, &RULES_JANGGICASUAL, &list);
    assert_ptr_equal(list.games[1].rules, &RULES_JANGGICASUAL);
    record_list_free(&list);
}

/* A bad game then a good one: the message, its line, and the good game still read. */
static void expect_bad(const char *bad, int line, const char *message)
{
    char text[2048];
    snprintf(text, sizeof text, "%s\n\n[Event \"good\"]\n\n1. Hc3 Hc8 *\n", bad);
    ParsedGameList list = {0};
    pgn_parse(text, strlen(text), &RULES_JANGGI, NULL, &list);
    expect_bad_then_good(&list, line, message);
    record_list_free(&list);
}

static void test_bad_games(void **state)
{
    (void)state;
    expect_bad("[Event \"x\"]\n\n1. Hc3 Hc8 2. Qd5 *", 3, "ply 3: unreadable move 'Qd5'");
    expect_bad("[Event \"x\"]\n\n1. Hc3 Hc8\n2. Hc4 *", 4, "ply 3: illegal move 'Hc4'");
    expect_bad("[Event \"x\"]\n\n1. Pb4 *", 3, "ply 1: ambiguous move 'Pb4'");
    expect_bad("[Event \"x\"]\n[Variant \"Xiangqi\"]\n\n1. Hc3 *", 1,
               "variant 'Xiangqi' is not Janggi (janggi, janggicasual, janggimodern, janggitraditional)");
    expect_bad("[Event \"x\"]\n[Site x]\n\n1. Hc3 *", 2, "broken tag pair");
    expect_bad(
        "[Event \"x\"]\n[FEN \"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABN w - - 0 1\"]\n\n1. Hc3 *",
        1, "bad FEN tag: rank 1 has 8 files, expected 9");
    expect_bad("[Event \"x\"]\n\n1. Ke2 Ke9 2. Hc3 *", 3, "ply 3: move 'Hc3' after the end of the game (double pass)");
    /* Cut to the record's 127 characters, this FEN (move 12, written with leading zeros) would read as move 1. */
    expect_bad("[FEN \"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 "
               "00000000000000000000000000000000000000000000000000000012\"]\n\n1. Hc3 *",
               1, "bad FEN tag: longer than 127 characters");
}

int main(void)
{
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_san_examples), cmocka_unit_test(test_fsf_san),        cmocka_unit_test(test_write_exact),
        cmocka_unit_test(test_move_forms),   cmocka_unit_test(test_san_round_trip), cmocka_unit_test(test_pychess_pgn),
        cmocka_unit_test(test_bad_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

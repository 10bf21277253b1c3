/* GIB records (engine/records/gib.h): every sample of tests/data/gib_samples parses to exactly its expected
 * games (start FEN, moves, header fields, result mapping) and every dropped block is reported with a
 * line; the encodings; a write/read round trip of every 8th game of the corpus (bench/data/games.jsonl.xz); the
 * Korean move text; the result mapping of every string of result_mapping.tsv; and the exact messages
 * for malformed records, the rest of the file still read. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../engine/game.h"
#include "../engine/records/gib.h"
#include "../engine/move.h"
#include "../engine/records/jsonl.h"
#include "record_checks.h"
#include "support.h"

static char samples_dir[1024]; /* tests/data/gib_samples */

static const RuleSet *casual(void) { return &RULES_JANGGICASUAL; }

static void parse_text(const char *text, const RuleSet *rules, ParsedGameList *list)
{
    char err[200];
    memset(list, 0, sizeof *list);
    assert_true(gib_parse(text, strlen(text), rules, list, err, sizeof err));
}

/* A header field of the expected games: the raw tag, its synonym, or null. */
static void check_tag(const ParsedGame *g, const JsonObject *e, const char *key, const char *tag, const char *alt)
{
    const char *want = json_str(e, key);
    const char *got = record_tag(g, tag);
    if (!got && alt)
        got = record_tag(g, alt);
    if (!want) {
        if (got)
            fail_msg("%s: %s is '%s', expected null", json_str(e, "id"), key, got);
        return;
    }
    if (!got || strcmp(got, want))
        fail_msg("%s: %s is '%s', expected '%s'", json_str(e, "id"), key, got ? got : "(none)", want);
}

static int sample_number(const char *id) { return atoi(strrchr(id, '#') + 1); }

static void test_samples(void **state)
{
    (void)state;
    char path[1200];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", samples_dir);
    char *manifest = test_read_file(path, NULL);
    if (!manifest)
        fail_msg("cannot read %s", path);
    int samples = 0, games = 0, dropped = 0, plies = 0;
    char *save = NULL;
    for (char *line = strtok_r(manifest, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[16];
        int blocks, valid, drops;
        if (strncmp(line, "sample", 6) == 0)
            continue;
        assert_int_equal(sscanf(line, "%15s", name), 1);
        /* columns: sample original_name bytes sha256 header_blocks valid dropped features */
        char *cols[8];
        char copy[2048];
        snprintf(copy, sizeof copy, "%s", line);
        char *s2 = NULL;
        int c = 0;
        for (char *col = strtok_r(copy, "\t", &s2); col && c < 8; col = strtok_r(NULL, "\t", &s2))
            cols[c++] = col;
        assert_true(c >= 7);
        blocks = atoi(cols[4]);
        valid = atoi(cols[5]);
        drops = atoi(cols[6]);

        snprintf(path, sizeof path, "%s/%s.gib", samples_dir, name);
        size_t len = 0;
        char *bytes = test_read_file(path, &len);
        assert_non_null(bytes);
        assert_string_equal(gib_detect_encoding(bytes, len), "cp949");
        ParsedGameList list = {0};
        char err[200];
        assert_true(gib_parse(bytes, len, casual(), &list, err, sizeof err));
        if (list.count != blocks)
            fail_msg("%s: %d header blocks, expected %d", name, list.count, blocks);

        /* the expected games, in file order */
        snprintf(path, sizeof path, "%s/expected/%s.jsonl", samples_dir, name);
        char *expected = test_read_file(path, NULL);
        assert_non_null(expected);
        bool is_expected[1024] = {false};
        int seen = 0;
        char *s3 = NULL;
        for (char *l = strtok_r(expected, "\n", &s3); l; l = strtok_r(NULL, "\n", &s3)) {
            JsonObject e;
            assert_true(json_parse_object(l, &e, NULL, 0));
            const char *id = json_str(&e, "id");
            int n = sample_number(id);
            assert_true(n >= 1 && n <= list.count && n < 1024);
            is_expected[n] = true;
            const ParsedGame *g = &list.games[n - 1];
            assert_int_equal(g->number, n);
            if (!g->ok)
                fail_msg("%s (%s game %d): not read: line %d: %s", id, name, n, g->error_line, g->error);
            if (strcmp(g->start_fen, json_str(&e, "start_fen")))
                fail_msg("%s: start %s, expected %s", id, g->start_fen, json_str(&e, "start_fen"));
            const JsonField *mv = json_get(&e, "moves");
            assert_non_null(mv);
            if (g->move_count != mv->arr_len)
                fail_msg("%s: %d moves, expected %d", id, g->move_count, mv->arr_len);
            for (int i = 0; i < mv->arr_len; i++) {
                char m[MOVE_TEXT_SIZE];
                move_to_text(g->moves[i], RANKS_FROM_1, m);
                if (strcmp(m, mv->arr[i]))
                    fail_msg("%s: ply %d is %s, expected %s", id, i + 1, m, mv->arr[i]);
            }
            check_tag(g, &e, "event", "대회명", NULL);
            check_tag(g, &e, "date", "대국일자", NULL);
            check_tag(g, &e, "site", "대국장소", NULL);
            check_tag(g, &e, "cho", "초대국자", NULL);
            check_tag(g, &e, "han", "한대국자", NULL);
            check_tag(g, &e, "result_text", "대국결과", NULL);
            char cho[16], han[16];
            assert_true(gib_setups(g->start_fen, cho, han));
            assert_string_equal(cho, json_str(&e, "cho_setup"));
            assert_string_equal(han, json_str(&e, "han_setup"));
            const char *result, *termination;
            gib_result(record_tag(g, "대국결과"), &result, &termination);
            assert_string_equal(result, json_str(&e, "result"));
            assert_string_equal(termination, json_str(&e, "termination"));
            plies += g->move_count;
            seen++;
            json_free(&e);
        }
        free(expected);
        assert_int_equal(seen, valid);

        /* the dropped blocks: reported, with a line inside the file */
        int reported = 0;
        snprintf(path, sizeof path, "%s/expected/%s.dropped.jsonl", samples_dir, name);
        char read_err[300];
        char *drop =
            access(path, F_OK) == 0 ? read_whole_file(path, NULL, read_err, sizeof read_err) : NULL; /* optional */
        if (drop) {
            char *s4 = NULL;
            for (char *l = strtok_r(drop, "\n", &s4); l; l = strtok_r(NULL, "\n", &s4)) {
                JsonObject e;
                assert_true(json_parse_object(l, &e, NULL, 0));
                int n = sample_number(json_str(&e, "id"));
                const ParsedGame *g = &list.games[n - 1];
                if (g->ok)
                    fail_msg("%s: read as valid, expected dropped (%s)", json_str(&e, "id"), json_str(&e, "reason"));
                assert_true(g->error[0] != '\0');
                assert_true(g->error_line >= g->line);
                reported++;
                json_free(&e);
            }
            free(drop);
        }
        assert_int_equal(reported, drops);
        /* nothing else: every block is an expected game or a reported one */
        for (int i = 0; i < list.count; i++)
            if (!is_expected[i + 1] && list.games[i].ok)
                fail_msg("%s game %d: read, but not in the expected games", name, i + 1);
        games += seen;
        dropped += reported;
        samples++;
        record_list_free(&list);
        free(bytes);
    }
    free(manifest);
    assert_int_equal(samples, 30);
    assert_int_equal(games, 905);
    assert_int_equal(dropped, 26);
    print_message("30 samples: %d games (%d plies) as expected, %d dropped blocks reported\n", games, plies, dropped);
}

/* The same sample read as cp949 and as UTF-8 (with and without a BOM) gives the same games. */
static void test_encodings(void **state)
{
    (void)state;
    char path[1200], err[200];
    snprintf(path, sizeof path, "%s/s06.gib", samples_dir);
    size_t len = 0;
    char *bytes = test_read_file(path, &len);
    assert_non_null(bytes);
    char *utf8 = gib_decode(bytes, len, err, sizeof err);
    assert_non_null(utf8);
    assert_string_equal(gib_detect_encoding(utf8, strlen(utf8)), "utf-8");
    /* The first header line, decoded from cp949 exactly (iconv -f cp949 gives the same). */
    const char *event = strstr(utf8, "[대회명 ");
    assert_non_null(event);
    assert_memory_equal(event, "[대회명 \"2011년 명인장기 전국 토너먼트\"]\n",
                        strlen("[대회명 \"2011년 명인장기 전국 토너먼트\"]\n"));
    char *bom = malloc(strlen(utf8) + 4);
    sprintf(bom, "\xEF\xBB\xBF%s", utf8);
    ParsedGameList a, b, c;
    parse_text(bytes, casual(), &a);
    parse_text(utf8, casual(), &b);
    parse_text(bom, casual(), &c);
    assert_int_equal(a.count, b.count);
    assert_int_equal(a.count, c.count);
    for (int i = 0; i < a.count; i++) {
        assert_int_equal(a.games[i].ok, b.games[i].ok);
        assert_int_equal(a.games[i].move_count, b.games[i].move_count);
        assert_int_equal(a.games[i].move_count, c.games[i].move_count);
        assert_memory_equal(a.games[i].moves, b.games[i].moves, (size_t)a.games[i].move_count * sizeof(Move));
        assert_int_equal(a.games[i].line, b.games[i].line);
    }
    record_list_free(&a);
    record_list_free(&b);
    record_list_free(&c);
    /* stray bytes: 0xFF and 0x1A become spaces, a broken cp949 pair U+FFFD; lines stay in place */
    const char raw[] = "\xC7\xD1\xFF\n\x1A\xC7\n";
    char *dec = gib_decode(raw, sizeof raw - 1, err, sizeof err);
    assert_string_equal(dec, "한 \n  \n");
    free(dec);
    free(bom);
    free(utf8);
    free(bytes);
}

/* Every 8th game of games.jsonl written as GIB and read back. */
static void test_round_trip(void **state)
{
    (void)state;
    char path[1200];
    char open_err[600];
    test_data_path(path, sizeof path, TEST_CORPUS);
    JsonLines games;
    if (!json_lines_open(&games, path, open_err, sizeof open_err))
        fail_msg("%s", open_err);
    const char *line;
    int checked = 0;
    long plies = 0;
    while ((line = json_lines_next(&games, 8))) {
        JsonObject e;
        assert_true(json_parse_object(line, &e, NULL, 0));
        ParsedGameList list = {0};
        ParsedGame *g = record_list_add(&list, 1);
        static const char *const map[][2] = {{"event", "대회명"}, {"date", "대국일자"}, {"site", "대국장소"},
                                             {"cho", "초대국자"}, {"han", "한대국자"},  {"result_text", "대국결과"}};
        for (size_t k = 0; k < 6; k++)
            if (json_str(&e, map[k][0]))
                record_add_tag(g, map[k][1], json_str(&e, map[k][0]));
        snprintf(g->start_fen, sizeof g->start_fen, "%s", json_str(&e, "start_fen"));
        Game gr;
        char err[200];
        assert_true(game_start(&gr, g->start_fen, casual(), FEN_STRICT, err, sizeof err));
        const JsonField *mv = json_get(&e, "moves");
        for (int i = 0; i < mv->arr_len; i++) {
            Move m;
            assert_int_equal(move_parse(&gr.pos, mv->arr[i], RANKS_FROM_1, &m), MOVE_PARSE_OK);
            assert_true(game_play(&gr, m));
            record_add_move(g, m);
        }
        game_free(&gr);
        char *text = gib_game_text(g, casual());
        if (!text)
            fail_msg("%s: not written", json_str(&e, "id"));
        ParsedGameList back;
        parse_text(text, casual(), &back);
        assert_int_equal(back.count, 1);
        const ParsedGame *r = &back.games[0];
        if (!r->ok)
            fail_msg("%s: written game not read back: line %d: %s\n%s", json_str(&e, "id"), r->error_line, r->error,
                     text);
        assert_string_equal(r->start_fen, g->start_fen);
        assert_int_equal(r->move_count, g->move_count);
        assert_memory_equal(r->moves, g->moves, (size_t)g->move_count * sizeof(Move));
        for (size_t k = 0; k < 6; k++) {
            const char *want = json_str(&e, map[k][0]), *got = record_tag(r, map[k][1]);
            if (want ? !got || strcmp(want, got) : got != NULL)
                fail_msg("%s: tag %s is '%s', expected '%s'", json_str(&e, "id"), map[k][1], got ? got : "(none)",
                         want ? want : "(none)");
        }
        char cho[16], han[16], total[16];
        assert_true(gib_setups(r->start_fen, cho, han));
        assert_string_equal(record_tag(r, "초차림"), json_str(&e, "cho_setup"));
        assert_string_equal(record_tag(r, "한차림"), json_str(&e, "han_setup"));
        snprintf(total, sizeof total, "%d", g->move_count);
        assert_string_equal(record_tag(r, "총수"), total);
        const char *result, *termination;
        gib_result(record_tag(r, "대국결과"), &result, &termination);
        assert_string_equal(result, json_str(&e, "result"));
        assert_string_equal(termination, json_str(&e, "termination"));
        plies += g->move_count;
        checked++;
        free(text);
        record_list_free(&back);
        record_list_free(&list);
        json_free(&e);
    }
    if (!json_lines_close(&games, open_err, sizeof open_err))
        fail_msg("%s", open_err);
    assert_int_equal(games.n, 24711);
    assert_true(checked > 3000);
    print_message("%d games (%ld plies) written and read back\n", checked, plies);
}

static void test_move_text(void **state)
{
    (void)state;
    Game g;
    char err[200], text[GIB_MOVE_TEXT_SIZE];
    assert_true(game_start(&g, START_FEN, &RULES_JANGGI, FEN_STRICT, err, sizeof err));
    Move m;
    assert_int_equal(move_parse(&g.pos, "i4h4", RANKS_FROM_1, &m), MOVE_PARSE_OK);
    gib_move_text(&g.pos, m, true, text);
    assert_string_equal(text, "79졸78");
    assert_int_equal(move_parse(&g.pos, "h1g3", RANKS_FROM_1, &m), MOVE_PARSE_OK);
    gib_move_text(&g.pos, m, true, text);
    assert_string_equal(text, "08마87");
    assert_int_equal(move_parse(&g.pos, "e2e2", RANKS_FROM_1, &m), MOVE_PARSE_OK);
    gib_move_text(&g.pos, m, true, text);
    assert_string_equal(text, "한수쉼");
    game_free(&g);
    /* Han's soldier is 병; a capture names the captured piece; 장군 on a check when asked */
    assert_true(game_start(&g, "4k4/9/9/9/9/4p4/9/9/4R4/3K5 b - - 0 1", &RULES_JANGGI, FEN_STRICT, err, sizeof err));
    assert_int_equal(move_parse(&g.pos, "e5e4", RANKS_FROM_1, &m), MOVE_PARSE_OK);
    gib_move_text(&g.pos, m, true, text);
    assert_string_equal(text, "65병75");
    game_free(&g);
    assert_true(game_start(&g, "4k4/9/9/9/9/4p4/9/9/4R4/3K5 w - - 0 1", &RULES_JANGGI, FEN_STRICT, err, sizeof err));
    assert_int_equal(move_parse(&g.pos, "e2e5", RANKS_FROM_1, &m), MOVE_PARSE_OK);
    gib_move_text(&g.pos, m, true, text);
    assert_string_equal(text, "95차65병장군");
    gib_move_text(&g.pos, m, false, text);
    assert_string_equal(text, "95차65병");
    game_free(&g);
    char sq[3];
    gib_square_text(make_square(8, 3), sq);
    assert_string_equal(sq, "79");
    gib_square_text(make_square(0, 0), sq);
    assert_string_equal(sq, "01");
    gib_square_text(make_square(1, 9), sq);
    assert_string_equal(sq, "12");
}

static void test_result_mapping(void **state)
{
    (void)state;
    char path[1200];
    test_data_path(path, sizeof path, TEST_RESULT_MAPPING);
    char *tsv = test_read_file(path, NULL);
    assert_non_null(tsv);
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "result_text", 11))
            continue;
        char *cols[5], *s2 = NULL;
        int c = 0;
        for (char *col = strtok_r(line, "\t", &s2); col && c < 5; col = strtok_r(NULL, "\t", &s2))
            cols[c++] = col;
        assert_int_equal(c, 5);
        char text[256];
        const char *arg = NULL;
        if (strcmp(cols[0], "(missing)")) { /* "quoted" */
            snprintf(text, sizeof text, "%.*s", (int)strlen(cols[0]) - 2, cols[0] + 1);
            arg = text;
        }
        const char *result, *termination;
        gib_result(arg, &result, &termination);
        if (strcmp(result, cols[3]) || strcmp(termination, cols[4]))
            fail_msg("'%s': %s/%s, expected %s/%s", cols[0], result, termination, cols[3], cols[4]);
        rows++;
    }
    free(tsv);
    assert_int_equal(rows, 123);
}

static void test_setups(void **state)
{
    (void)state;
    char cho[16], han[16];
    assert_true(gib_setups(START_FEN, cho, han));
    assert_string_equal(cho, "마상상마");
    assert_string_equal(han, "마상상마");
    assert_true(gib_setups("rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1", cho, han));
    assert_string_equal(cho, "마상마상");
    assert_string_equal(han, "상마마상");
    assert_false(gib_setups("rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR b - - 0 1", cho, han));
    assert_false(gib_setups("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", cho, han));
}

/* ---- malformed records ---- */

#define HEAD(cho, han) "[대회명 \"test\"]\n[초차림 \"" cho "\"]\n[한차림 \"" han "\"]\n[대국결과 \"초 완승\"]\n\n"
#define GOOD "[대회명 \"good\"]\n[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n\n1. 79졸78 2. 41병42\n\n"

/* Parses a text of two games, the bad one first: the second is still read. */
static void expect_error(const char *text, const RuleSet *rules, int line, const char *message)
{
    ParsedGameList list;
    parse_text(text, rules, &list);
    expect_bad_then_good(&list, line, message);
    assert_int_equal(list.games[1].number, 2);
    record_list_free(&list);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_error(HEAD("마상상마", "마상상마") "1. 79졸78 2. 41병42 3. 08말87\n\n" GOOD, casual(), 6,
                 "ply 3: unreadable move '08말87'");
    expect_error(HEAD("마상상마", "마상상마") "1. 79졸78\n2. 41병42 3. 0마87\n" GOOD, casual(), 7,
                 "ply 3: unreadable move '0마87'");
    expect_error(HEAD("마상상마", "마상상마") "1. 79졸78 2. 41병42 3. 08상87\n" GOOD, casual(), 6,
                 "ply 3: '08상87' moves an elephant, but the piece on h1 is a horse");
    expect_error(HEAD("마상상마", "마상상마") "1. 79졸78 2. 41병42 3. 58마37\n" GOOD, casual(), 6,
                 "ply 3: '58마37' moves from h6, which is empty");
    expect_error(HEAD("마상상마", "마상상마") "1. 79졸78 2. 08마87\n" GOOD, casual(), 6,
                 "ply 2: '08마87' moves Cho's horse on h1, but Han is to move");
    expect_error(HEAD("마상상마", "마상상마") "1. 79漢卒78\n" GOOD, casual(), 6,
                 "ply 1: '79漢卒78' is marked as Han's move, but Cho is to move");
    expect_error(HEAD("마상상마", "마상상마") "1. 79졸78마\n" GOOD, casual(), 6,
                 "ply 1: '79졸78마' says it captures a horse, but h4 is empty");
    expect_error(HEAD("마상상마", "마상상마") "1. 79졸59\n" GOOD, casual(), 6, "ply 1: illegal move i4i6 ('79졸59')");
    expect_error(HEAD("마상상마", "마상상마") "1. 한수쉼 2. 한수쉼 3. 79졸78\n" GOOD, casual(), 6,
                 "ply 3: illegal move i4h4 ('79졸78'): the game is already over (double pass)");
    expect_error("[대회명 \"x\"]\n[초차림 \"마상상마\"]\n[한차림 \"마상상마\n\n1. 79졸78\n" GOOD, casual(), 3,
                 "broken header (no closing \"]): [한차림 \"마상상마");
    expect_error("[대회명 \"x\"]\n[초차림 마상상마]\n\n1. 79졸78\n" GOOD, casual(), 2,
                 "broken header (no opening quote): [초차림 마상상마]");
    expect_error("[대회명 \"x\"]\n[한차림 \"마상상마\"]\n\n1. 79졸78\n" GOOD, casual(), 1,
                 "no 초차림 (or 초포진) tag: the start position is unknown");
    expect_error(
        HEAD("마마상상", "마상상마") "1. 79졸78\n" GOOD, casual(), 1,
        "unknown Cho setup '마마상상' (마상상마, 상마마상, 상마상마, 마상마상, or inner, outer, left, right elephant)");
    expect_error(
        "[대회명 \"x\"]\n[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n[기보형식 \"구좌표\"]\n\n1. 84졸74\n" GOOD,
        casual(), 1, "old coordinates ([기보형식 \"구좌표\"]) are not supported");
    /* A rank far longer than the board's buffer is refused at its tenth point, before it is copied. */
    char wide[1200] = "[대회명 \"x\"]\n[판 \"";
    for (int i = 0; i < 140; i++)
        strcat(wide, "졸");
    strcat(wide,
           "/4장/1포5포/졸1졸1졸1졸1졸/9/9/兵1兵1兵1兵1兵/1包5包/4將/車馬象士1士馬象車 초\"]\n\n1. 79졸78\n" GOOD);
    expect_error(wide, casual(), 1, "the [판] board has 10 files on its rank 10, at most 9");
    expect_error("[대회명 \"x\"]\n[판 \"차마상사1사마상차/4장/1포5포/졸1졸1졸1졸1졸///兵1兵1兵1兵1兵/1包5包/4將 초 "
                 "접장기\"]\n\n1. 79졸78\n" GOOD,
                 casual(), 1, "the [판] board has 9 ranks, expected 10");
    expect_error("[대회명 \"x\"]\n[판 "
                 "\"차마상사1사마상차/4장/1포5포/졸1졸1졸1졸1졸///兵1兵1兵1兵1兵/1包5包/4將/車馬象士1士馬象車 한 "
                 "접장기\"]\n\n1. 49병48\n" GOOD,
                 casual(), 1,
                 "the [판] board (rnba1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR b - - 0 1) is not a "
                 "standard start with Cho to move; not read (Kakao boards rarely match their moves)");
    /* under janggi rules the generals may not stay facing: a move that does not break a bikjang */
    expect_error("[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n\n1. 75졸74 2. 45병44 3. 79졸78\n" GOOD, &RULES_JANGGI,
                 4,
                 "ply 3: illegal move i4h4 ('79졸78'): the generals face each other (bikjang) and under janggi rules "
                 "every move but the pass must break the facing (janggicasual has no bikjang)");
}

static void test_forms(void **state)
{
    (void)state;
    /* comments over lines, timing marks, side prefixes in Hangul and Hanja, 타, 장군/멍군, Kakao squares,
     * stray bytes, CRLF, a glued move number, a [판] board that is a standard start */
    const char *text =
        "\xFF[대회명 \"forms\"]\r\n[초포진 \"상마상마\"]\r\n[한포진 \"마상마상\"]\r\n\r\n"
        "{a comment\r\n[not a header]\r\n} 1. 79초졸78 <0> 2.41한병42 {x} 3. 08楚馬87 4. 12漢馬33\r\n"
        "5. 73卒63 6. 43병53 7. 63졸53타병 8. 33마52\r\n9. 한수쉼 10. 52마73멍군\r\n\x1A\n"
        "[대회명 \"kakao\"]\n[판 "
        "\"차마상사1사마상차/4장/1포5포/졸1졸1졸1졸1졸///兵1兵1兵1兵1兵/1包5包/4將/車馬象士1士馬象車 초 접장기\"]\n\n"
        "1. i3卒h3 2. b9馬c7 3. e1將e0\n";
    ParsedGameList list;
    parse_text(text, casual(), &list);
    assert_int_equal(list.count, 2);
    const ParsedGame *g = &list.games[0];
    if (!g->ok)
        fail_msg("line %d: %s", g->error_line, g->error);
    char moves[512];
    record_moves_text(g, moves, sizeof moves);
    assert_string_equal(moves, "i4h4 a7b7 h1g3 b10c8 c4c5 c7c6 c5c6 c8b6 e2e2 b6c4");
    assert_string_equal(g->start_fen, "rnba1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1");
    assert_int_equal(g->line, 1);
    g = &list.games[1];
    if (!g->ok)
        fail_msg("line %d: %s", g->error_line, g->error);
    record_moves_text(g, moves, sizeof moves);
    assert_string_equal(moves, "i4h4 b10c8 e2e1");
    assert_string_equal(g->start_fen, "rnba1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1");
    assert_int_equal(g->line, 11);
    assert_string_equal(record_tag(g, "대회명"), "kakao");
    record_list_free(&list);
}

int main(void)
{
    engine_init();
    test_data_path(samples_dir, sizeof samples_dir, TEST_GIB_SAMPLES);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),   cmocka_unit_test(test_encodings),      cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_move_text), cmocka_unit_test(test_result_mapping), cmocka_unit_test(test_setups),
        cmocka_unit_test(test_malformed), cmocka_unit_test(test_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The JSON-lines reader of the records layer (engine/records/jsonl.h): members of every kind in order,
 * escapes (\u, surrogate pairs, a lone surrogate), nested values skipped, arrays of strings kept and
 * other arrays skipped, and the exact message (with the byte) for each malformed line; the games of a
 * file read into records (jsonl_read_games): tags, start positions, rules, moves, and each bad line's
 * reason and line. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/records/jsonl.h"
#include "../engine/move.h"
#include <unistd.h>

static void test_members(void **state)
{
    (void)state;
    JsonObject o;
    char err[200] = "";
    const char *line = " {\"id\": \"a\\\"b\\\\c\\/d\\n\", \"han\": \"\\uD55C\\u0041\", \"emoji\": \"\\ud83d\\ude00\", "
                       "\"lone\": \"x\\ud800y\", \"n\": -12.5e3, \"t\": true, \"f\": false, \"z\": null, "
                       "\"moves\": [\"b1c3\", \"b10c8\"], \"empty\": [], \"nums\": [1, 2], "
                       "\"nested\": {\"a\": [1, {\"b\": \"}\"}]}, \"last\": \"\xED\x95\x9C\"}\r\n";
    if (!json_parse_object(line, &o, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(o.count, 13);
    assert_string_equal(json_str(&o, "id"), "a\"b\\c/d\n");
    assert_string_equal(json_str(&o, "han"), "\xED\x95\x9C"
                                             "A"); /* 한A */
    assert_string_equal(json_str(&o, "emoji"), "\xF0\x9F\x98\x80");
    assert_string_equal(json_str(&o, "lone"), "x\xEF\xBF\xBDy"); /* U+FFFD */
    const JsonField *f = json_get(&o, "n");
    assert_int_equal(f->type, JSON_NUMBER);
    assert_string_equal(f->str, "-12.5e3");
    assert_true(json_get(&o, "t")->type == JSON_BOOL && json_get(&o, "t")->boolean);
    assert_true(json_get(&o, "f")->type == JSON_BOOL && !json_get(&o, "f")->boolean);
    assert_int_equal(json_get(&o, "z")->type, JSON_NULL);
    assert_null(json_str(&o, "z"));
    f = json_get(&o, "moves");
    assert_int_equal(f->type, JSON_ARRAY);
    assert_int_equal(f->arr_len, 2);
    assert_string_equal(f->arr[1], "b10c8");
    assert_int_equal(json_get(&o, "empty")->type, JSON_ARRAY);
    assert_int_equal(json_get(&o, "empty")->arr_len, 0);
    assert_int_equal(json_get(&o, "nums")->type, JSON_SKIPPED);
    assert_int_equal(json_get(&o, "nested")->type, JSON_SKIPPED);
    assert_string_equal(json_str(&o, "last"), "\xED\x95\x9C");
    assert_string_equal(o.fields[12].key, "last"); /* in order */
    assert_null(json_get(&o, "missing"));
    json_free(&o);
    assert_true(json_parse_object("{}", &o, err, sizeof err));
    assert_int_equal(o.count, 0);
    json_free(&o);
}

static void expect_error(const char *line, const char *message)
{
    JsonObject o;
    char err[200] = "";
    if (json_parse_object(line, &o, err, sizeof err))
        fail_msg("'%s' was read", line);
    assert_string_equal(err, message);
    assert_int_equal(o.count, 0);
    json_free(&o);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", "not a JSON object at byte 0");
    expect_error("[1]", "not a JSON object at byte 0");
    expect_error("{\"a\" 1}", "expected ':' at byte 5");
    expect_error("{\"a\": 1 \"b\": 2}", "expected ',' or '}' at byte 8");
    expect_error("{\"a\": \"x}", "unterminated string at byte 9");
    expect_error("{\"a\": \"\\q\"}", "bad escape in a string at byte 7");
    expect_error("{\"a\": \"\\u12G4\"}", "bad \\u escape at byte 7");
    expect_error("{\"a\": \"x\ty\"}", "control character in a string at byte 8");
    expect_error("{\"a\": tru}", "expected a value at byte 6");
    expect_error("{\"a\": 1.}", "expected a value at byte 6");
    expect_error("{\"a\": [\"x\" \"y\"]}", "expected ',' or ']' at byte 11");
    expect_error("{\"a\": {\"b\": 1}", "expected ',' or '}' at byte 14");
    expect_error("{\"a\": [\"x\",]}", "expected a value at byte 11"); /* no trailing comma */
    expect_error("{\"a\": 1,}", "expected a string at byte 8");
    expect_error("{\"a\": 1} x", "text after the object at byte 9");
    expect_error("{1: 2}", "expected a string at byte 1");
    char deep[300] = "{\"a\": ";
    for (int i = 0; i < 70; i++)
        strcat(deep, "[");
    expect_error(deep, "nested too deeply at byte 70");
}

static void expect_moves(const ParsedGame *g, const char *want)
{
    char text[400] = "";
    for (int i = 0; i < g->move_count; i++) {
        char mt[MOVE_TEXT_SIZE];
        move_to_text(g->moves[i], RANKS_FROM_1, mt);
        strcat(text, i ? " " : "");
        strcat(text, mt);
    }
    assert_string_equal(text, want);
}

static void test_read_games(void **state)
{
    (void)state;
    char path[] = "/tmp/janggun-test-jsonl-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text =
        "{\"id\": \"g1\", \"result\": \"cho\", \"plies\": 2, \"start_fen\": "
        "\"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 01\", \"moves\": [\"b1c3\", "
        "\"b10c8\"], \"extra\": {\"x\": [1]}}\n"
        "\n"
        "{\"id\": \"g2\", \"moves\": [\"e2e2\", \"e9e9\"], \"variant\": \"janggicasual\"}\n"
        "{\"id\": \"g3\", \"moves\": [\"b1c3\", \"h1\"]}\n"
        "{\"id\": \"g4\", \"variant\": \"xiangqi\", \"moves\": []}\n"
        "{\"id\": \"g5\"}\n"
        "{\"id\": \"g6\", \"moves\": [\"e2e2\", \"e9e9\", \"b1c3\"]}\n"
        "{\"id\": \"g7\", \"start_fen\": \"9/9/9/9/9/9/9/9/9/9 w - - 0 1\", \"moves\": []}\n"
        "{\"id\" 1}\n"
        "{\"start_fen\": \"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 "
        "00000000000000000000000000000000000000000000000000000012\", \"moves\": []}\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);

    ParsedGameList list = {0};
    char err[200] = "";
    assert_true(jsonl_read_games(path, &RULES_JANGGI, NULL, &list, err, sizeof err));
    assert_int_equal(list.count, 9); /* the blank line is no game */
    const ParsedGame *g = &list.games[0];
    assert_true(g->ok);
    assert_int_equal(g->number, 1);
    assert_int_equal(g->line, 1);
    assert_int_equal(g->tag_count, 3); /* id, result, plies: start_fen, the moves and the object are not tags */
    assert_string_equal(record_tag(g, "id"), "g1");
    assert_string_equal(record_tag(g, "plies"), "2");
    assert_null(record_tag(g, "start_fen"));
    assert_string_equal(g->start_fen, START_FEN); /* written back as the engine writes it */
    assert_ptr_equal(g->rules, &RULES_JANGGI);
    expect_moves(g, "b1c3 b10c8");

    g = &list.games[1];
    assert_true(g->ok);
    assert_int_equal(g->number, 2);
    assert_int_equal(g->line, 3);
    assert_ptr_equal(g->rules, rules_by_name("janggicasual"));
    expect_moves(g, "e2e2 e9e9");

    static const struct {
        int line;
        const char *error;
    } bad[] = {
        {4, "ply 2: unreadable move 'h1'"},
        {5, "variant 'xiangqi' is not Janggi (janggi, janggicasual, janggimodern, janggitraditional)"},
        {6, "no \"moves\" array"},
        {7, "ply 3: move 'b1c3' after the end of the game (double pass)"},
        {8, "bad start_fen: Cho has no general"},
        {9, "bad JSON: expected ':' at byte 6"},
        {10, "bad start_fen: longer than 127 characters"}, /* cut short, it would read as move 1, not 12 */
    };
    for (int i = 0; i < 7; i++) {
        g = &list.games[2 + i];
        assert_false(g->ok);
        assert_int_equal(g->number, 3 + i);
        assert_int_equal(g->error_line, bad[i].line);
        assert_string_equal(g->error, bad[i].error);
    }
    record_list_free(&list);

    /* Forced rules win over the line's variant. */
    ParsedGameList forced = {0};
    assert_true(jsonl_read_games(path, &RULES_JANGGI, rules_by_name("janggimodern"), &forced, err, sizeof err));
    assert_ptr_equal(forced.games[1].rules, rules_by_name("janggimodern"));
    assert_true(forced.games[4].ok == false); /* a variant that is not Janggi is still refused */
    record_list_free(&forced);
    unlink(path);

    ParsedGameList none = {0};
    assert_false(jsonl_read_games("/nonexistent/games.jsonl", &RULES_JANGGI, NULL, &none, err, sizeof err));
    assert_string_equal(err, "cannot open '/nonexistent/games.jsonl': No such file or directory");
    assert_int_equal(none.count, 0);
    record_list_free(&none);
}

int main(void)
{
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_read_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

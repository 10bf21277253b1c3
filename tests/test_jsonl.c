/* The JSON-lines reader of the records layer (engine/records/jsonl.h): members of every kind in order,
 * escapes (\u, surrogate pairs, a lone surrogate), nested values skipped, arrays of strings kept and
 * other arrays skipped, and the exact message (with the byte) for each malformed line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/records/jsonl.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

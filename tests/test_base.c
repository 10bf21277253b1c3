/* The ground floor (engine/base/base.h): splitmix64's known sequence, growable arrays, the string
 * builder, reading a whole file (and its messages), the monotonic clock and the error line. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../engine/base/base.h"

static void test_splitmix64(void **state)
{
    (void)state;
    /* The reference sequence for seed 0 (Vigna's splitmix64.c). */
    uint64_t s = 0;
    assert_true(splitmix64(&s) == 0xe220a8397b1dcdafull);
    assert_true(splitmix64(&s) == 0x6e789e6aa1b965f4ull);
    assert_true(splitmix64(&s) == 0x06c45d188009454full);
}

static void test_array_reserve(void **state)
{
    (void)state;
    int *items = NULL, capacity = 0;
    assert_true(ARRAY_RESERVE(items, capacity, 1));
    assert_int_equal(capacity, 16);
    assert_true(ARRAY_RESERVE(items, capacity, 16));
    assert_int_equal(capacity, 16); /* enough room: nothing changes */
    assert_true(ARRAY_RESERVE(items, capacity, 17));
    assert_int_equal(capacity, 32);
    assert_true(ARRAY_RESERVE(items, capacity, 1000));
    assert_int_equal(capacity, 1024);
    for (int i = 0; i < 1000; i++)
        items[i] = i;
    assert_int_equal(items[999], 999);
    free(items);
}

static void test_strbuf(void **state)
{
    (void)state;
    StrBuf b = {0};
    char *empty = strbuf_take(&b);
    assert_string_equal(empty, "");
    free(empty);
    strbuf_puts(&b, "ab");
    strbuf_add(&b, "cdef", 2);
    strbuf_printf(&b, "-%d-%s", 42, "x");
    assert_int_equal(b.len, 9);
    assert_string_equal(b.text, "abcd-42-x");
    for (int i = 0; i < 1000; i++)
        strbuf_puts(&b, "0123456789");
    assert_int_equal(b.len, 10009);
    char *text = strbuf_take(&b);
    assert_int_equal(strlen(text), 10009);
    assert_null(b.text);
    assert_int_equal(b.len, 0);
    free(text);
}

static void test_read_whole_file(void **state)
{
    (void)state;
    char path[] = "/tmp/janggun-base-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "one\0two\n", 8), 8);
    close(fd);
    size_t len = 0;
    char err[200] = "";
    char *text = read_whole_file(path, &len, err, sizeof err);
    assert_non_null(text);
    assert_int_equal(len, 8);
    assert_memory_equal(text, "one\0two\n", 9); /* with the NUL added */
    free(text);
    unlink(path);
    assert_null(read_whole_file(path, &len, err, sizeof err));
    assert_string_equal(err, "cannot open: No such file or directory");
    assert_null(read_whole_file("/tmp", &len, err, sizeof err));
    assert_string_equal(err, "read error");
}

static void test_clock_and_error_line(void **state)
{
    (void)state;
    int64_t a = clock_us();
    nanosleep(&(struct timespec){0, 2000000}, NULL);
    int64_t b = clock_us();
    assert_true(b - a >= 2000 && b - a < 10000000);
    assert_true(clock_ms() >= a / 1000);
    char path[] = "/tmp/janggun-base-err-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    int saved = dup(2);
    dup2(fd, 2);
    report_error("prog", "bad %s %d", "thing", 7);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    char err[200];
    char *text = read_whole_file(path, NULL, err, sizeof err);
    assert_string_equal(text, "prog: error: bad thing 7\n");
    free(text);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64),
        cmocka_unit_test(test_array_reserve),
        cmocka_unit_test(test_strbuf),
        cmocka_unit_test(test_read_whole_file),
        cmocka_unit_test(test_clock_and_error_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

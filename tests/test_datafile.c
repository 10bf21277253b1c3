/* Data files (engine/base/datafile.h): plain and xz text read alike, whatever the name says; a truncated,
 * corrupt or unreadable file is reported with a message that names it. The xz data is made here with
 * liblzma's encoder, and the shipped corpus is checked to be xz and complete. */
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
#include <lzma.h>

#include "../engine/base/datafile.h"
#include "support.h"

static char folder[] = "/tmp/janggun-datafile-XXXXXX";

/* Some lines of text, long enough to span several reads and xz blocks' worth of input. */
static char *sample_text(size_t *len)
{
    size_t cap = 400000, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    for (int i = 0; n + 64 < cap; i++)
        n += (size_t)snprintf(text + n, cap - n, "line %d: {\"moves\": [\"b1c3\", \"b10c8\"]}\n", i);
    *len = n;
    return text;
}

static uint8_t *xz_encode(const char *text, size_t len, size_t *out_len)
{
    size_t cap = lzma_stream_buffer_bound(len), pos = 0;
    uint8_t *out = malloc(cap);
    assert_non_null(out);
    assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text, len, out, &pos, cap),
                     LZMA_OK);
    *out_len = pos;
    return out;
}

static const char *write_file(const char *name, const void *bytes, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* The whole text of a data file; *ok and err tell how datafile_close ended. */
static char *read_all(const char *path, size_t *len, bool *ok, char *err, size_t err_size)
{
    char open_err[600];
    DataFile *d = datafile_open(path, open_err, sizeof open_err);
    if (!d)
        fail_msg("%s", open_err);
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t got;
    while ((got = getline(&line, &line_cap, datafile_stream(d))) > 0) {
        if (n + (size_t)got + 1 > cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        memcpy(buf + n, line, (size_t)got);
        n += (size_t)got;
    }
    free(line);
    buf[n] = '\0';
    *len = n;
    *ok = datafile_close(d, err, err_size);
    return buf;
}

static void test_plain_and_xz_read_alike(void **state)
{
    (void)state;
    size_t len, xz_len, got;
    char *text = sample_text(&len);
    uint8_t *xz = xz_encode(text, len, &xz_len);
    char err[700] = "";
    bool ok;
    /* The name says nothing: a plain file named .xz and xz data named .jsonl both read. */
    const char *names[] = {"plain.jsonl", "plain.jsonl.xz", "packed.jsonl.xz", "packed.jsonl"};
    for (int i = 0; i < 4; i++) {
        const char *path = i < 2 ? write_file(names[i], text, len) : write_file(names[i], xz, xz_len);
        char *back = read_all(path, &got, &ok, err, sizeof err);
        if (!ok)
            fail_msg("%s: %s", names[i], err);
        assert_int_equal(got, len);
        assert_memory_equal(back, text, len);
        free(back);
    }
    /* Two xz streams one after the other read as one text, as xz -dc reads them. */
    uint8_t *two = malloc(2 * xz_len);
    memcpy(two, xz, xz_len);
    memcpy(two + xz_len, xz, xz_len);
    char *back = read_all(write_file("two.xz", two, 2 * xz_len), &got, &ok, err, sizeof err);
    assert_true(ok);
    assert_int_equal(got, 2 * len);
    assert_memory_equal(back + len, text, len);
    free(back), free(two);
    /* An empty file is an empty text. */
    back = read_all(write_file("empty", "", 0), &got, &ok, err, sizeof err);
    assert_true(ok);
    assert_int_equal(got, 0);
    free(back), free(xz), free(text);
}

static void test_broken_files_are_reported(void **state)
{
    (void)state;
    size_t len, xz_len, got;
    char *text = sample_text(&len);
    uint8_t *xz = xz_encode(text, len, &xz_len);
    char err[700] = "", want[700];
    bool ok;

    const char *path = write_file("cut.jsonl.xz", xz, xz_len / 2);
    char *back = read_all(path, &got, &ok, err, sizeof err);
    assert_false(ok);
    snprintf(want, sizeof want, "%s: truncated xz data (the file ends inside the compressed stream)", path);
    assert_string_equal(err, want);
    assert_true(got < len);
    assert_memory_equal(back, text, got); /* what came before the cut is right */
    free(back);

    /* The last bytes (the stream footer) missing: every block decoded, still truncated. */
    path = write_file("nofooter.xz", xz, xz_len - 4);
    free(read_all(path, &got, &ok, err, sizeof err));
    assert_false(ok);
    assert_non_null(strstr(err, "nofooter.xz: truncated xz data"));

    xz[xz_len / 2] ^= 0x55;
    path = write_file("corrupt.jsonl.xz", xz, xz_len);
    free(read_all(path, &got, &ok, err, sizeof err));
    assert_false(ok);
    snprintf(want, sizeof want, "%s: corrupt xz data", path);
    assert_string_equal(err, want);

    /* Only the magic: the header that follows is not xz. */
    path = write_file("magic.xz",
                      "\xfd"
                      "7zXZ\0garbage garbage garbage",
                      27);
    free(read_all(path, &got, &ok, err, sizeof err));
    assert_false(ok);
    assert_non_null(strstr(err, "magic.xz: "));

    char missing[600];
    snprintf(missing, sizeof missing, "%s/no-such-file.xz", folder);
    assert_null(datafile_open(missing, err, sizeof err));
    snprintf(want, sizeof want, "cannot open '%s': No such file or directory", missing);
    assert_string_equal(err, want);
    assert_null(datafile_open(folder, err, sizeof err));
    snprintf(want, sizeof want, "cannot open '%s': Is a directory", folder);
    assert_string_equal(err, want);
    free(xz), free(text);
}

/* The shipped corpus is xz, and reads to its end without an error. */
static void test_shipped_corpus(void **state)
{
    (void)state;
    char path[1200], err[700];
    test_data_path(path, sizeof path, TEST_CORPUS);
    DataFile *d = datafile_open(path, err, sizeof err);
    if (!d)
        fail_msg("%s", err);
    assert_true(datafile_compressed(d));
    char *line = NULL;
    size_t cap = 0;
    long lines = 0;
    while (getline(&line, &cap, datafile_stream(d)) > 0)
        lines++;
    free(line);
    if (!datafile_close(d, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(lines, 24711);
}

static int make_folder(void **state)
{
    (void)state;
    return mkdtemp(folder) ? 0 : -1;
}

static int remove_folder(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", folder);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_and_xz_read_alike),
        cmocka_unit_test(test_broken_files_are_reported),
        cmocka_unit_test(test_shipped_corpus),
    };
    return cmocka_run_group_tests(tests, make_folder, remove_folder);
}

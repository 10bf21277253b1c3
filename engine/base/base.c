#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t clock_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

bool array_reserve(void **items, int *capacity, int needed, size_t item_size)
{
    if (needed <= *capacity)
        return true;
    int cap = *capacity >= 16 ? *capacity : 16;
    while (cap < needed)
        cap *= 2;
    void *grown = realloc(*items, (size_t)cap * item_size);
    if (!grown)
        return false;
    *items = grown;
    *capacity = cap;
    return true;
}

static bool strbuf_room(StrBuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *grown = realloc(b->text, cap);
    if (!grown) {
        b->failed = true;
        return false;
    }
    b->text = grown;
    b->cap = cap;
    return true;
}

void strbuf_add(StrBuf *b, const char *s, size_t n)
{
    if (!strbuf_room(b, n))
        return;
    memcpy(b->text + b->len, s, n);
    b->len += n;
    b->text[b->len] = '\0';
}

void strbuf_puts(StrBuf *b, const char *s) { strbuf_add(b, s, strlen(s)); }

void strbuf_printf(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !strbuf_room(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->text + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *strbuf_take(StrBuf *b)
{
    char *text = b->failed ? NULL : b->text ? b->text : calloc(1, 1);
    if (b->failed)
        free(b->text);
    *b = (StrBuf){0};
    return text;
}

void strbuf_free(StrBuf *b)
{
    free(b->text);
    *b = (StrBuf){0};
}

char *read_whole_file(const char *path, size_t *len, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    StrBuf b = {0};
    char chunk[1 << 16];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        strbuf_add(&b, chunk, n);
    bool bad = ferror(f);
    fclose(f);
    size_t size = b.len;
    char *text = bad ? (strbuf_free(&b), NULL) : strbuf_take(&b);
    if (!text) {
        snprintf(err, err_size, "%s", bad ? "read error" : "out of memory");
        return NULL;
    }
    if (len)
        *len = size;
    return text;
}

void report_error_v(const char *program, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: error: ", program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void report_error(const char *program, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_error_v(program, fmt, ap);
    va_end(ap);
}

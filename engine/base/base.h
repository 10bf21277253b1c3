/* The ground floor every layer may use, with no Janggi in it: seeded random numbers (splitmix64), the
 * monotonic clock, growable arrays, a string builder, reading a whole file, and the one form of error
 * line the command-line programs print. Small things that were written again in every folder. */
#ifndef JANGGUN_BASE_H
#define JANGGUN_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* splitmix64: the next number of the sequence `*state` seeds; every seeded choice uses it. */
static inline uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The monotonic clock, from an arbitrary start: microseconds, milliseconds, seconds. */
int64_t clock_us(void);
static inline int64_t clock_ms(void) { return clock_us() / 1000; }
static inline double clock_seconds(void) { return (double)clock_us() / 1e6; }

/* Makes room for `needed` items of `item_size` bytes in the array *items of *capacity items (at least
 * doubling it, from 16). false, with the array as it was, when out of memory. */
bool array_reserve(void **items, int *capacity, int needed, size_t item_size);
#define ARRAY_RESERVE(items, capacity, needed) array_reserve((void **)&(items), &(capacity), (needed), sizeof *(items))

/* A string built piece by piece: always NUL-terminated once anything was added (text is NULL before).
 * Running out of memory is remembered in `failed`, and later additions are ignored. */
typedef struct {
    char *text;
    size_t len, cap;
    bool failed;
} StrBuf;

void strbuf_add(StrBuf *b, const char *s, size_t n);
void strbuf_puts(StrBuf *b, const char *s);
void strbuf_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text, handed over to the caller (an empty string for an empty builder; NULL when out of memory). */
char *strbuf_take(StrBuf *b);
void strbuf_free(StrBuf *b);

/* A whole file, NUL-terminated (the length without the NUL in *len). NULL with "cannot open: REASON",
 * "read error" or "out of memory" in err. */
char *read_whole_file(const char *path, size_t *len, char *err, size_t err_size);

/* "PROGRAM: error: MESSAGE" on standard error, the form every command-line program here uses. */
void report_error(const char *program, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void report_error_v(const char *program, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif

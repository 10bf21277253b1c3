/* Bounded line input for the protocol loop: reads a file descriptor in fixed chunks and hands out one
 * line at a time from a buffer allocated once. A line longer than INPUT_LINE_MAX bytes is not kept:
 * the rest of it is read and thrown away, and the caller is told. A second descriptor may wake the
 * reader (another thread writes a byte to it) while it waits for input. After a hang-up (hangup.h) it
 * answers the end of input, also while it waits. Knows nothing of commands. */
#ifndef JANGGUN_INPUT_H
#define JANGGUN_INPUT_H

#include <stdbool.h>
#include <stddef.h>

enum { INPUT_LINE_MAX = 1 << 20, INPUT_CHUNK = 1 << 16 };

typedef enum {
    LINE_OK,       /* a line (its end of line and any '\r' before it removed) */
    LINE_TOO_LONG, /* a line over INPUT_LINE_MAX bytes was read and discarded */
    LINE_EOF,      /* end of input (a read error, a hang-up): no more lines */
    LINE_WAKE      /* the wake descriptor was written to (its bytes are drained); no line */
} LineStatus;

typedef struct {
    int fd;
    int wake_fd; /* -1: none */
    char *line;  /* INPUT_LINE_MAX + 1 bytes */
    size_t line_len;
    bool overflow; /* the current line has passed the limit */
    bool eof;
    char chunk[INPUT_CHUNK];
    size_t chunk_len, chunk_pos;
} LineReader;

/* false when the line buffer cannot be allocated. */
bool input_open(LineReader *reader, int fd);
void input_close(LineReader *reader);

/* From now on input_read_line answers LINE_WAKE, before any line, whenever `fd` (made non-blocking
 * here) has bytes to read; -1 stops that. The reader does not own the descriptor. */
void input_set_wake(LineReader *reader, int fd);

/* The next line, NUL-terminated in *line with its length in *len (it may hold NUL bytes of its own).
 * A last line without an end of line is still returned before LINE_EOF. */
LineStatus input_read_line(LineReader *reader, char **line, size_t *len);

/* Why a line cannot be a command, or NULL when it can: a NUL byte, or bytes that are not UTF-8. */
const char *input_line_problem(const char *line, size_t len);

#endif

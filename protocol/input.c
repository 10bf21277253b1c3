#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hangup.h"

bool input_open(LineReader *reader, int fd)
{
    memset(reader, 0, sizeof *reader);
    reader->fd = fd;
    reader->wake_fd = -1;
    reader->line = malloc(INPUT_LINE_MAX + 1);
    return reader->line != NULL;
}

void input_close(LineReader *reader)
{
    free(reader->line);
    reader->line = NULL;
}

void input_set_wake(LineReader *reader, int fd)
{
    reader->wake_fd = fd;
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Whether the wake descriptor has bytes (drained), waiting for them, for input or for the hang-up when
 * `block`; false at once without a wake descriptor unless blocking with a hang-up to watch. */
static bool woken(LineReader *r, bool block)
{
    int hang = hangup_fd();
    if (r->wake_fd < 0 && (!block || hang < 0))
        return false;
    struct pollfd fds[3];
    nfds_t n = 0;
    if (r->wake_fd >= 0)
        fds[n++] = (struct pollfd){r->wake_fd, POLLIN, 0};
    if (block) {
        fds[n++] = (struct pollfd){r->fd, POLLIN, 0};
        if (hang >= 0)
            fds[n++] = (struct pollfd){hang, POLLIN, 0};
    }
    while (poll(fds, n, block ? -1 : 0) < 0)
        if (errno != EINTR || hangup_happened())
            return false;
    if (r->wake_fd < 0 || !(fds[0].revents & POLLIN))
        return false;
    char sink[64];
    while (read(r->wake_fd, sink, sizeof sink) > 0) {
    }
    return true;
}

typedef enum { REFILL_DATA, REFILL_EOF, REFILL_WAKE } Refill;

/* Refills the chunk, unless the end of input came, the session was hung up or (while waiting for input)
 * a wake came. */
static Refill refill(LineReader *r)
{
    if (!r->eof && woken(r, true))
        return REFILL_WAKE;
    for (;;) {
        if (r->eof || hangup_happened()) {
            r->eof = true;
            return REFILL_EOF;
        }
        ssize_t n = read(r->fd, r->chunk, sizeof r->chunk);
        if (n > 0) {
            r->chunk_len = (size_t)n;
            r->chunk_pos = 0;
            return REFILL_DATA;
        }
        if (n < 0 && errno == EINTR)
            continue;
        r->eof = true;
        return REFILL_EOF;
    }
}

/* Ends the line collected so far: strips one '\r' and terminates it. */
static LineStatus finish_line(LineReader *r, char **line, size_t *len)
{
    bool overflow = r->overflow;
    size_t n = r->line_len;
    r->line_len = 0;
    r->overflow = false;
    if (overflow)
        return LINE_TOO_LONG;
    if (n > 0 && r->line[n - 1] == '\r')
        n--;
    r->line[n] = '\0';
    *line = r->line;
    *len = n;
    return LINE_OK;
}

LineStatus input_read_line(LineReader *r, char **line, size_t *len)
{
    /* After a hang-up, lines already read are not run either: the session is over. */
    if (hangup_happened()) {
        r->eof = true;
        return LINE_EOF;
    }
    /* A wake is answered before any line, even one already read: what the waker reports (a search's
     * move) came before any reply the GUI can have sent to it. */
    if (woken(r, false))
        return LINE_WAKE;
    for (;;) {
        Refill got = r->chunk_pos == r->chunk_len ? refill(r) : REFILL_DATA;
        if (got == REFILL_WAKE)
            return LINE_WAKE;
        if (got == REFILL_EOF) {
            if (r->line_len > 0 || r->overflow)
                return finish_line(r, line, len);
            return LINE_EOF;
        }
        const char *start = r->chunk + r->chunk_pos;
        size_t avail = r->chunk_len - r->chunk_pos;
        const char *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) : avail;
        if (!r->overflow) {
            if (r->line_len + take > INPUT_LINE_MAX)
                r->overflow = true;
            else {
                memcpy(r->line + r->line_len, start, take);
                r->line_len += take;
            }
        }
        r->chunk_pos += take + (nl != NULL);
        if (nl)
            return finish_line(r, line, len);
    }
}

const char *input_line_problem(const char *line, size_t len)
{
    const unsigned char *s = (const unsigned char *)line;
    if (memchr(line, '\0', len))
        return "the line holds a NUL byte";
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t extra = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
        if (extra == 0 || i + extra >= len)
            return "the line is not valid UTF-8";
        unsigned lo = 0x80, hi = 0xbf; /* the range of the first continuation byte */
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
        else if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return "the line is not valid UTF-8";
        for (size_t k = 2; k <= extra; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                return "the line is not valid UTF-8";
        i += extra + 1;
    }
    return NULL;
}

/* What the differential tests against Fairy-Stockfish (test_fsf_diff, test_referee_fsf) share: the
 * FSF child process below the protocol, and the seeded generator their random games draw from.
 *
 * This header owns finding an executable program (a path, or a name looked up on $PATH), starting it
 * with its standard input and output on pipes (pipe, fork, dup2, exec; a failed exec is reported here,
 * not left to show up later as a closed pipe), writing text to it, reading its output line by line
 * with a timeout, and ending it (`quit` or SIGKILL) and reaping it. Each test keeps what is its own:
 * the protocol it speaks (UCI, XBoard), where it looks for the binary, its timeouts, and the wording
 * of its failure messages (fsf_process_read_line says what went wrong; the test says it).
 *
 * Define _POSIX_C_SOURCE 200809L before any include, and ignore SIGPIPE, so that a dead child shows up
 * as a failed write rather than a dead test. Not a test program itself, so the Makefile's
 * tests/test_*.c rule does not build it. */
#ifndef JANGGUN_TESTS_FSF_PROCESS_H
#define JANGGUN_TESTS_FSF_PROCESS_H

#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#error "define _POSIX_C_SOURCE 200809L before any include to use fsf_process.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../engine/base/base.h"

/* ---- PRNG: splitmix64 ---- */

typedef struct {
    uint64_t s;
} Rng;

static inline uint64_t rng_next(Rng *r) { return splitmix64(&r->s); }

static inline int rng_below(Rng *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }

static inline bool rng_percent(Rng *r, int percent) { return rng_below(r, 100) < percent; }

/* ---- the Fairy-Stockfish child process ---- */

/* The longest line read is FSF_READ_BUF - 1 bytes (64 kB); FSF's `uci` option list has lines of a
 * few kB. */
enum { FSF_READ_BUF = 1 << 16 };

typedef struct {
    pid_t pid;              /* the child, 0 when there is none */
    int to_fd, from_fd;     /* its standard input and output, -1 when closed */
    char path[1024];        /* the program */
    char buf[FSF_READ_BUF]; /* bytes read and not yet consumed: buf[start, len) */
    size_t start, len;
    char error[1024]; /* why the last call failed */
} FsfProcess;

/* What fsf_process_read_line found. */
typedef enum {
    FSF_READ_OK,       /* *line is the next line */
    FSF_READ_TOO_LONG, /* a line does not fit in the buffer */
    FSF_READ_TIMEOUT,  /* nothing came for the timeout */
    FSF_READ_CLOSED,   /* the output is closed (the child crashed or exited) or cannot be read */
} FsfRead;

/* Puts the message in f->error; returns false, for `return fsf_fail(...)`. */
__attribute__((format(printf, 2, 3))) static inline bool fsf_fail(FsfProcess *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->error, sizeof f->error, fmt, ap);
    va_end(ap);
    return false;
}

/* Empty, with no child and no pipes: the state to set f->path in (or fail) before the spawn. */
static inline void fsf_process_reset(FsfProcess *f)
{
    memset(f, 0, sizeof *f);
    f->to_fd = f->from_fd = -1;
}

/* A regular file this process may execute. */
static inline bool fsf_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* `name` itself when it holds a slash, else the first executable `name` in $PATH; the path, always
 * with a slash, goes to `out`. */
static inline bool fsf_search_path(const char *name, char *out, size_t size)
{
    if (strchr(name, '/')) {
        snprintf(out, size, "%s", name);
        return fsf_executable(out);
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(out, size, "%.*s/%s", (int)n, n ? path : ".", name);
        if (fsf_executable(out))
            return true;
        path += n;
        if (*path == ':')
            path++;
    }
    return false;
}

/* Waits up to `wait_ms` for the child to exit, then kills it; reaps it and says in `how` how it ended
 * (`how` may be NULL). Without a child, `how` says "still running". */
static inline void fsf_process_reap(FsfProcess *f, int wait_ms, char *how, size_t size)
{
    char unused[128];
    if (!how)
        how = unused, size = sizeof unused;
    int status;
    snprintf(how, size, "still running");
    if (f->pid <= 0)
        return;
    pid_t r = waitpid(f->pid, &status, WNOHANG);
    for (int i = 0; r == 0 && i < wait_ms / 10; i++) {
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        r = waitpid(f->pid, &status, WNOHANG);
    }
    if (r == 0) {
        kill(f->pid, SIGKILL);
        r = waitpid(f->pid, &status, 0);
        snprintf(how, size, "did not exit, killed");
    } else if (r == f->pid && WIFEXITED(status))
        snprintf(how, size, "exited with status %d", WEXITSTATUS(status));
    else if (r == f->pid && WIFSIGNALED(status))
        snprintf(how, size, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(how, size, "could not be reaped: %s", strerror(errno));
    f->pid = 0;
}

/* Closes both pipes, kills the child first when `kill_it`, and reaps it as fsf_process_reap does. */
static inline void fsf_process_end(FsfProcess *f, bool kill_it, int wait_ms, char *how, size_t size)
{
    if (f->to_fd >= 0)
        close(f->to_fd);
    if (f->from_fd >= 0)
        close(f->from_fd);
    f->to_fd = f->from_fd = -1;
    if (kill_it && f->pid > 0)
        kill(f->pid, SIGKILL);
    fsf_process_reap(f, wait_ms, how, size);
}

/* Ends the child: `quit` when `graceful` (and its input is open), else SIGKILL; then closes the pipes
 * and reaps it, killing it if it has not exited after `wait_ms`. Without a child, does nothing. */
static inline void fsf_process_stop(FsfProcess *f, bool graceful, int wait_ms, char *how, size_t size)
{
    if (f->pid <= 0)
        return;
    bool quit = graceful && f->to_fd >= 0;
    if (quit) {
        ssize_t ignored = write(f->to_fd, "quit\n", 5);
        (void)ignored;
    }
    fsf_process_end(f, !quit, wait_ms, how, size);
}

/* Starts f->path with no arguments, its standard input and output on pipes (standard error is this
 * process's). On failure there is no child and f->error says why. */
static inline bool fsf_process_spawn(FsfProcess *f)
{
    int in[2], out[2], exec_err[2];
    if (pipe(in) < 0)
        return fsf_fail(f, "pipe: %s", strerror(errno));
    if (pipe(out) < 0) {
        close(in[0]), close(in[1]);
        return fsf_fail(f, "pipe: %s", strerror(errno));
    }
    if (pipe(exec_err) < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return fsf_fail(f, "pipe: %s", strerror(errno));
    }
    /* Closed by a successful exec; a failed one writes its errno there. */
    fcntl(exec_err[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(exec_err[0]), close(exec_err[1]);
        return fsf_fail(f, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(exec_err[0]);
        char *argv[] = {f->path, NULL};
        execv(f->path, argv);
        int e = errno;
        ssize_t ignored = write(exec_err[1], &e, sizeof e);
        (void)ignored;
        _exit(127);
    }
    close(in[0]), close(out[1]), close(exec_err[1]);
    f->pid = pid;
    f->to_fd = in[1];
    f->from_fd = out[0];
    int e;
    ssize_t n;
    while ((n = read(exec_err[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(exec_err[0]);
    if (n == (ssize_t)sizeof e) {
        fsf_process_end(f, true, 5000, NULL, 0);
        return fsf_fail(f, "cannot execute %s: %s", f->path, strerror(e));
    }
    return true;
}

/* Writes all of text[0, len); false when the child no longer reads its input. */
static inline bool fsf_process_write(FsfProcess *f, const char *text, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(f->to_fd, text + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += (size_t)n;
    }
    return true;
}

/* The next line of output, without its line end ("\n" or "\r\n"), in *line (valid until the next
 * call), waiting at most `timeout_ms` for each read. */
static inline FsfRead fsf_process_read_line(FsfProcess *f, char **line, int timeout_ms)
{
    for (;;) {
        char *nl = memchr(f->buf + f->start, '\n', f->len - f->start);
        if (nl) {
            *nl = '\0';
            *line = f->buf + f->start;
            f->start = (size_t)(nl + 1 - f->buf);
            size_t n = strlen(*line);
            if (n && (*line)[n - 1] == '\r')
                (*line)[n - 1] = '\0';
            return FSF_READ_OK;
        }
        if (f->start > 0) {
            memmove(f->buf, f->buf + f->start, f->len - f->start);
            f->len -= f->start;
            f->start = 0;
        }
        if (f->len == sizeof f->buf - 1)
            return FSF_READ_TOO_LONG;
        struct pollfd p = {.fd = f->from_fd, .events = POLLIN};
        int r = poll(&p, 1, timeout_ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return FSF_READ_TIMEOUT;
        ssize_t n = read(f->from_fd, f->buf + f->len, sizeof f->buf - 1 - f->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FSF_READ_CLOSED;
        f->len += (size_t)n;
    }
}

#endif

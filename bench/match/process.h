/* An engine child process for janggun-match: started by /bin/sh -c 'exec CMD' in its own process
 * group with its standard input and output on pipes (close-on-exec everywhere, so concurrent games
 * never hold each other's pipes), written to line by line, read line by line against a deadline
 * with poll(), killed as a group and reaped. It knows nothing of any protocol (engine.h does). */
#ifndef JANGGUN_MATCH_PROCESS_H
#define JANGGUN_MATCH_PROCESS_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../engine/base/base.h"

/* The longest line kept is PROCESS_LINE_MAX - 1 bytes; the rest of a longer line is dropped. */
enum { PROCESS_LINE_MAX = 1 << 16 };

typedef struct {
    pid_t pid;          /* 0 when there is no child */
    int to_fd, from_fd; /* -1 when closed */
    char buf[PROCESS_LINE_MAX];
    size_t start, len; /* bytes read and not yet returned: buf[start, start + len) */
    bool discarding;   /* inside the tail of an over-long line */
    bool exited;       /* reaped; status holds the wait status */
    int status;
} Process;

/* Set by a signal handler to make every wait return PROCESS_INTERRUPTED soon. */
extern atomic_int process_stop_requested;

/* Ctrl-C and SIGTERM set process_stop_requested (a second one ends the runner at once); SIGPIPE is
 * ignored, so an engine that exits makes a write fail instead of killing the runner. */
void process_catch_interrupts(void);

/* Microseconds on the monotonic clock. */

/* Starts `cmd` (run by /bin/sh) in `dir` (NULL: the current one) with its standard error appended to
 * `stderr_path` (NULL: /dev/null). false with a message when the pipes or the fork fail. */
bool process_start(Process *p, const char *cmd, const char *dir, const char *stderr_path, char *err, size_t err_size);

/* Writes `line` and a newline; false when the child no longer reads (it exited or closed its input). */
bool process_write_line(Process *p, const char *line);

typedef enum { PROCESS_LINE, PROCESS_TIMEOUT, PROCESS_EOF, PROCESS_INTERRUPTED } ProcessRead;

/* The next line (without its end of line, '\r' removed) into *line, valid until the next call;
 * waits until `deadline_us` (clock_us time, engine/base/base.h). */
ProcessRead process_read_line(Process *p, int64_t deadline_us, const char **line);

/* Waits up to timeout_ms for the child to exit by itself, then kills its process group with SIGKILL
 * and reaps it. Closes the pipes. Safe to call on a process that was never started. */
void process_finish(Process *p, int timeout_ms);

/* How the reaped child ended: "exited with status 3", "killed by signal 11 (Segmentation fault)". */
void process_describe_exit(const Process *p, char *buf, size_t size);

#endif

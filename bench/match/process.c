#define _GNU_SOURCE /* pipe2 */
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

atomic_int process_stop_requested = 0; /* lock-free, so the handler may set it while workers read it */

static void on_interrupt(int sig)
{
    (void)sig;
    atomic_store(&process_stop_requested, 1);
}

void process_catch_interrupts(void)
{
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C or SIGTERM ends the runner at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

bool process_start(Process *p, const char *cmd, const char *dir, const char *stderr_path, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    p->to_fd = p->from_fd = -1;
    int in[2], out[2], ex[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, err_size, "pipe: %s", strerror(errno));
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, err_size, "pipe: %s", strerror(errno));
        close(in[0]), close(in[1]);
        return false;
    }
    /* The child reports a failed chdir, open or exec on this pipe; it closes on a successful exec. */
    if (pipe2(ex, O_CLOEXEC) != 0) {
        snprintf(err, err_size, "pipe: %s", strerror(errno));
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return false;
    }
    size_t n = strlen(cmd) + 8;
    char *script = malloc(n);
    if (!script) {
        snprintf(err, err_size, "out of memory");
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(ex[0]), close(ex[1]);
        return false;
    }
    snprintf(script, n, "exec %s", cmd);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, err_size, "fork: %s", strerror(errno));
        free(script);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(ex[0]), close(ex[1]);
        return false;
    }
    if (pid == 0) {
        /* Only async-signal-safe calls from here on. */
        int code = 0;
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        int errfd = open(stderr_path ? stderr_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (errfd < 0)
            code = 1;
        else if (dir && chdir(dir) != 0)
            code = 2;
        else if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(errfd, 2) < 0)
            code = 3;
        if (code == 0) {
            execl("/bin/sh", "sh", "-c", script, (char *)NULL);
            code = 4;
        }
        int e[2] = {code, errno};
        ssize_t ignored = write(ex[1], e, sizeof e);
        (void)ignored;
        _exit(127);
    }
    free(script);
    setpgid(pid, pid); /* also here, so the group exists before anyone signals it */
    close(in[0]), close(out[1]), close(ex[1]);
    int e[2];
    ssize_t got;
    do
        got = read(ex[0], e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(ex[0]);
    p->pid = pid;
    p->to_fd = in[1];
    p->from_fd = out[0];
    if (got == (ssize_t)sizeof e) {
        static const char *const what[] = {"", "cannot open the standard error file", "cannot enter the directory",
                                           "cannot set up the pipes", "cannot run /bin/sh"};
        snprintf(err, err_size, "%s: %s", what[e[0] >= 1 && e[0] <= 4 ? e[0] : 3], strerror(e[1]));
        process_finish(p, 0);
        return false;
    }
    return true;
}

bool process_write_line(Process *p, const char *line)
{
    if (p->to_fd < 0)
        return false;
    size_t n = strlen(line);
    char *text = malloc(n + 1);
    if (!text)
        return false;
    memcpy(text, line, n);
    text[n] = '\n';
    size_t done = 0;
    bool ok = true;
    while (done < n + 1) {
        ssize_t w = write(p->to_fd, text + done, n + 1 - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            ok = false;
            break;
        }
        done += (size_t)w;
    }
    free(text);
    return ok;
}

/* Takes a complete line out of the buffer, if there is one. */
static bool take_line(Process *p, const char **line)
{
    for (;;) {
        char *begin = p->buf + p->start;
        char *nl = memchr(begin, '\n', p->len);
        if (!nl)
            return false;
        size_t used = (size_t)(nl - begin) + 1;
        *nl = '\0';
        if (nl > begin && nl[-1] == '\r')
            nl[-1] = '\0';
        p->start += used;
        p->len -= used;
        if (p->discarding) { /* the end of an over-long line */
            p->discarding = false;
            continue;
        }
        *line = begin;
        return true;
    }
}

ProcessRead process_read_line(Process *p, int64_t deadline_us, const char **line)
{
    for (;;) {
        if (take_line(p, line))
            return PROCESS_LINE;
        if (p->from_fd < 0)
            return PROCESS_EOF;
        if (process_stop_requested)
            return PROCESS_INTERRUPTED;
        /* Make room: move what is left to the front; drop a line that fills the buffer. */
        if (p->start > 0) {
            memmove(p->buf, p->buf + p->start, p->len);
            p->start = 0;
        }
        if (p->len >= sizeof p->buf - 1) {
            p->len = 0;
            p->discarding = true;
        }
        int64_t left = deadline_us - clock_us();
        if (left <= 0)
            return PROCESS_TIMEOUT;
        int wait_ms = (int)(left > 100000 ? 100 : (left + 999) / 1000);
        struct pollfd pfd = {.fd = p->from_fd, .events = POLLIN};
        int r = poll(&pfd, 1, wait_ms);
        if (r < 0 && errno != EINTR)
            return PROCESS_EOF;
        if (r <= 0)
            continue;
        ssize_t got = read(p->from_fd, p->buf + p->len, sizeof p->buf - 1 - p->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            close(p->from_fd);
            p->from_fd = -1;
            if (p->len > 0 && !p->discarding) { /* a last line without an end of line */
                p->buf[p->len] = '\0';
                *line = p->buf;
                p->len = 0;
                return PROCESS_LINE;
            }
            return PROCESS_EOF;
        }
        p->len += (size_t)got;
    }
}

void process_finish(Process *p, int timeout_ms)
{
    if (p->to_fd >= 0)
        close(p->to_fd);
    p->to_fd = -1;
    if (p->pid > 0 && !p->exited) {
        /* Wait for the engine to exit, without reaping it: while it is not reaped its pid, and so
         * the id of its process group, cannot be reused, so the kill below reaches only what it
         * left behind (or the engine itself, when it did not exit in time). */
        int64_t deadline = clock_us() + (int64_t)timeout_ms * 1000;
        for (;;) {
            siginfo_t info;
            memset(&info, 0, sizeof info);
            int r = waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT);
            if ((r == 0 && info.si_pid == p->pid) || (r < 0 && errno != EINTR) || clock_us() >= deadline)
                break;
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
        kill(-p->pid, SIGKILL);
        pid_t r;
        while ((r = waitpid(p->pid, &p->status, 0)) < 0 && errno == EINTR) {
        }
        p->exited = r == p->pid;
    }
    if (p->from_fd >= 0)
        close(p->from_fd);
    p->from_fd = -1;
}

void process_describe_exit(const Process *p, char *buf, size_t size)
{
    if (!p->exited)
        snprintf(buf, size, "did not exit");
    else if (WIFEXITED(p->status))
        snprintf(buf, size, "exited with status %d", WEXITSTATUS(p->status));
    else if (WIFSIGNALED(p->status))
        snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(p->status), strsignal(WTERMSIG(p->status)));
    else
        snprintf(buf, size, "ended with wait status %d", p->status);
}

#define _POSIX_C_SOURCE 200809L /* sigaction */
#include "hangup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

/* Lock-free atomics: safe in a signal handler, and written on one thread, read on another. */
static atomic_int hung_up;
static atomic_int first_signal;
static int hangup_pipe[2] = {-1, -1};

void hangup_now(void)
{
    atomic_store(&hung_up, 1);
    int fd = hangup_pipe[1];
    if (fd >= 0) {
        char byte = 1;
        ssize_t written = write(fd, &byte, 1); /* non-blocking: a full pipe is already readable */
        (void)written;
    }
}

bool hangup_happened(void) { return atomic_load_explicit(&hung_up, memory_order_relaxed) != 0; }

int hangup_fd(void) { return hangup_pipe[0]; }

static void on_grace_over(int sig)
{
    (void)sig;
    int sig_first = atomic_load(&first_signal);
    _exit(128 + (sig_first ? sig_first : SIGTERM));
}

static void on_end_signal(int sig)
{
    int saved = errno;
    int none = 0;
    atomic_compare_exchange_strong(&first_signal, &none, sig);
    hangup_now();
    alarm(HANGUP_GRACE_S);
    errno = saved;
}

bool hangup_install(void)
{
    if (hangup_pipe[0] >= 0)
        return true;
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    }
    hangup_pipe[0] = fds[0];
    hangup_pipe[1] = fds[1];

    struct sigaction sa = {0};
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_grace_over;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = on_end_signal;
    sa.sa_flags = SA_RESETHAND; /* a second signal takes its default action: the end, at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    return true;
}

void hangup_flush(FILE *out)
{
    if (fflush(out) == 0 && !ferror(out))
        return;
    int why = errno;
    clearerr(out);
    if (why != EAGAIN && why != EWOULDBLOCK && why != EINTR)
        hangup_now();
}

/* The end of a protocol session that does not come through its input: SIGINT, SIGTERM or SIGHUP (a GUI's
 * stop button, a closed terminal) and an output that is gone (a GUI that died). Either one makes the line
 * reader answer the end of input, so the session ends as it does at the end of input: a running search
 * stops, its bestmove is written, the threads are joined and the engine exits with status 0. Owns the
 * signal handlers and the self-pipe the reader watches. */
#ifndef JANGGUN_HANGUP_H
#define JANGGUN_HANGUP_H

#include <stdbool.h>
#include <stdio.h>

/* A session that has not ended this many seconds after the signal (the reading thread busy in a long
 * `go perft`, say) is ended at once; so is one that gets a second signal. */
enum { HANGUP_GRACE_S = 5 };

/* Installs the handlers and makes the pipe; false (and nothing installed) when the pipe cannot be made. */
bool hangup_install(void);

/* Ends the session. Safe in a signal handler and on any thread. */
void hangup_now(void);

bool hangup_happened(void);

/* Becomes readable at the hang-up and stays so; -1 before hangup_install. */
int hangup_fd(void);

/* Flushes the session's output; an output that cannot be written any more (a broken pipe, a closed
 * descriptor) ends the session. */
void hangup_flush(FILE *out);

#endif

/* The protocol loop: UCI by default, UCCI after the `ucci` handshake (section 5 of fsf-reference.md);
 * after `xboard` it hands its input to xboard_loop (xboard.h) until a `uci`/`ucci` handshake.
 * The calling thread reads commands while the search runs on its own threads and reports through
 * callbacks; every line of output goes through one lock, so lines never interleave. */
#ifndef JANGGUN_UCI_H
#define JANGGUN_UCI_H

#include <stdio.h>

/* Reads commands from `in_fd` until `quit` or the end of input, writing to `out`; returns the exit
 * status (0). search_init() must have been called. */
int uci_loop(int in_fd, FILE *out);

#endif

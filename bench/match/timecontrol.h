/* Time controls for janggun-match and the clocks the runner keeps for each side: base plus increment
 * (`10+0.1`), moves per period (`40/60`, `40/60+0.5`), a fixed time per move, fixed nodes, fixed
 * depth, and the margin an engine may overrun its clock by before it loses on time. Pure functions:
 * the runner measures the time, this module only does the arithmetic. */
#ifndef JANGGUN_MATCH_TIMECONTROL_H
#define JANGGUN_MATCH_TIMECONTROL_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    TC_NONE,    /* no clock: only nodes or depth (or nothing) limit a move */
    TC_CLOCK,   /* base, increment, moves per period */
    TC_MOVETIME /* a fixed time for every move */
} TcKind;

typedef struct {
    TcKind kind;
    long base_ms, inc_ms; /* TC_CLOCK */
    int moves;            /* TC_CLOCK: moves per period (0: the whole game) */
    long movetime_ms;     /* TC_MOVETIME */
    long nodes;           /* 0: no limit */
    int depth;            /* 0: no limit */
    long margin_ms;       /* how far past its time an engine may answer and still not lose */
} TimeControl;

typedef struct {
    long remaining_ms; /* TC_CLOCK: time on the clock */
    int moves_made;
} Clock;

/* Reads a clock: `BASE[+INC]` or `MOVES/BASE[+INC]`, times in seconds (decimals allowed, or
 * `M:SS`). Sets kind, base, increment and moves; false with a message otherwise. */
bool tc_parse_clock(const char *text, TimeControl *tc, char *err, size_t err_size);

/* Reads a number of seconds (`0.5`, `2`, `1:30`) into milliseconds; false unless positive. */
bool tc_parse_seconds(const char *text, long *ms);

/* The text for the PGN TimeControl tag and the summary: `10+0.1`, `40/60+0.5`, `st=0.5`, and
 * `nodes=N`, `depth=N` (joined by a space when combined), `-` when nothing limits a move. */
void tc_describe(const TimeControl *tc, char *buf, size_t size);

void tc_clock_start(const TimeControl *tc, Clock *clock);

/* Moves to play before the next period's time is added (0: not a moves-per-period clock). */
int tc_moves_to_go(const TimeControl *tc, const Clock *clock);

/* How long the engine to move may take before it loses on time, margin included; `no_clock_ms`
 * when there is no clock (the hang timeout). */
long tc_allowance_ms(const TimeControl *tc, const Clock *clock, long no_clock_ms);

/* Charges a move that took `elapsed_ms`; false when it took longer than the time left plus the
 * margin (a loss on time). Otherwise the clock goes down (not below 0), then the increment is added,
 * and the next period's base when the period is complete. */
bool tc_clock_charge(const TimeControl *tc, Clock *clock, long elapsed_ms);

#endif

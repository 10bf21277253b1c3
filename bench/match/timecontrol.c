#include "timecontrol.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seconds as text: digits with an optional fraction, or minutes:seconds. Zero is allowed. */
static bool parse_seconds(const char *text, size_t len, long *ms)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, text, len);
    buf[len] = '\0';
    double minutes = 0;
    char *s = buf, *colon = strchr(buf, ':');
    if (colon) {
        *colon = '\0';
        char *end;
        if (!*s || strspn(s, "0123456789") != strlen(s))
            return false;
        minutes = strtod(s, &end);
        s = colon + 1;
        if (strlen(s) != 2)
            return false;
    }
    if (!*s || strspn(s, "0123456789.") != strlen(s) || strchr(s, '.') != strrchr(s, '.') || *s == '.')
        return false;
    char *end;
    errno = 0;
    double seconds = strtod(s, &end);
    if (*end || errno || seconds < 0 || (colon && seconds >= 60))
        return false;
    double total = (minutes * 60 + seconds) * 1000;
    if (total > 1e12)
        return false;
    *ms = lround(total);
    return true;
}

bool tc_parse_seconds(const char *text, long *ms) { return parse_seconds(text, strlen(text), ms) && *ms > 0; }

bool tc_parse_clock(const char *text, TimeControl *tc, char *err, size_t err_size)
{
    const char *slash = strchr(text, '/'), *plus = strchr(text, '+');
    const char *base = text;
    int moves = 0;
    if (slash) {
        if (slash == text || strspn(text, "0123456789") != (size_t)(slash - text) || slash - text > 6)
            goto bad;
        moves = atoi(text);
        if (moves <= 0)
            goto bad;
        base = slash + 1;
    }
    if (plus && plus < base)
        goto bad;
    long base_ms, inc_ms = 0;
    if (!parse_seconds(base, plus ? (size_t)(plus - base) : strlen(base), &base_ms))
        goto bad;
    if (plus && !parse_seconds(plus + 1, strlen(plus + 1), &inc_ms))
        goto bad;
    if (base_ms <= 0 && inc_ms <= 0)
        goto bad;
    tc->kind = TC_CLOCK;
    tc->base_ms = base_ms;
    tc->inc_ms = inc_ms;
    tc->moves = moves;
    return true;
bad:
    snprintf(err, err_size,
             "time control must be BASE[+INC] or MOVES/BASE[+INC] in seconds (10+0.1, 40/60, 1:30+1), not '%s'", text);
    return false;
}

/* Milliseconds as seconds, without trailing zeros: 100 -> "0.1", 10000 -> "10". */
static void seconds_text(long ms, char *buf, size_t size)
{
    if (ms % 1000 == 0)
        snprintf(buf, size, "%ld", ms / 1000);
    else {
        snprintf(buf, size, "%ld.%03ld", ms / 1000, ms % 1000);
        char *end = buf + strlen(buf) - 1;
        while (*end == '0')
            *end-- = '\0';
    }
}

void tc_describe(const TimeControl *tc, char *buf, size_t size)
{
    char part[64], a[24], b[24];
    buf[0] = '\0';
    size_t used = 0;
    if (tc->kind == TC_CLOCK) {
        seconds_text(tc->base_ms, a, sizeof a);
        seconds_text(tc->inc_ms, b, sizeof b);
        char moves[16] = "";
        if (tc->moves)
            snprintf(moves, sizeof moves, "%d/", tc->moves);
        snprintf(part, sizeof part, "%s%s%s%s", moves, a, tc->inc_ms ? "+" : "", tc->inc_ms ? b : "");
        used += (size_t)snprintf(buf + used, size - used, "%s", part);
    } else if (tc->kind == TC_MOVETIME) {
        seconds_text(tc->movetime_ms, a, sizeof a);
        used += (size_t)snprintf(buf + used, size - used, "st=%s", a);
    }
    if (tc->nodes && used < size)
        used += (size_t)snprintf(buf + used, size - used, "%snodes=%ld", used ? " " : "", tc->nodes);
    if (tc->depth && used < size)
        used += (size_t)snprintf(buf + used, size - used, "%sdepth=%d", used ? " " : "", tc->depth);
    if (used == 0)
        snprintf(buf, size, "-");
}

void tc_clock_start(const TimeControl *tc, Clock *clock)
{
    clock->remaining_ms = tc->kind == TC_CLOCK ? tc->base_ms : 0;
    clock->moves_made = 0;
}

int tc_moves_to_go(const TimeControl *tc, const Clock *clock)
{
    if (tc->kind != TC_CLOCK || tc->moves == 0)
        return 0;
    return tc->moves - clock->moves_made % tc->moves;
}

long tc_allowance_ms(const TimeControl *tc, const Clock *clock, long no_clock_ms)
{
    switch (tc->kind) {
    case TC_CLOCK: return clock->remaining_ms + tc->margin_ms;
    case TC_MOVETIME: return tc->movetime_ms + tc->margin_ms;
    default: return no_clock_ms;
    }
}

bool tc_clock_charge(const TimeControl *tc, Clock *clock, long elapsed_ms)
{
    if (tc->kind == TC_MOVETIME)
        return elapsed_ms <= tc->movetime_ms + tc->margin_ms;
    if (tc->kind != TC_CLOCK)
        return true;
    if (elapsed_ms > clock->remaining_ms + tc->margin_ms)
        return false;
    clock->remaining_ms -= elapsed_ms;
    if (clock->remaining_ms < 0)
        clock->remaining_ms = 0;
    clock->remaining_ms += tc->inc_ms;
    clock->moves_made++;
    if (tc->moves && clock->moves_made % tc->moves == 0)
        clock->remaining_ms += tc->base_ms;
    return true;
}

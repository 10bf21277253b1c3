/* The tournament of janggun-match: the schedule (round robin or gauntlet, each opening played twice
 * with colours reversed), the worker threads that play games at once (each with its own engine
 * processes, restarted after a crash), one game from its opening to the end with the referee of
 * engine/game.h deciding every result, clocks, adjudication, the PGN file, the live progress line,
 * the final standings and the SPRT that stops the match when it is decided. */
#ifndef JANGGUN_MATCH_MATCH_H
#define JANGGUN_MATCH_MATCH_H

#include <stdbool.h>

#include "../../engine/rules.h"
#include "openings.h"
#include "player.h"
#include "stats.h"
#include "timecontrol.h"

typedef enum { FORMAT_ROUND_ROBIN, FORMAT_GAUNTLET } MatchFormat;

typedef struct {
    bool enabled;
    int movecount, score; /* a side at -score or worse, its opponent at +score or better, movecount moves each */
} ResignRule;

typedef struct {
    bool enabled;
    int movenumber, movecount, score; /* from move movenumber, both within +-score for movecount moves each */
} DrawRule;

typedef struct {
    PlayerSpec *players;
    int player_count;
    MatchFormat format;
    int games; /* per pairing of engines */
    int concurrency;
    const RuleSet *rules;
    TimeControl tc;
    long timeout_ms; /* handshake, isready, and a move when there is no clock */
    OpeningConfig openings;
    const char *pgn_path; /* appended to; NULL for none */
    const char *log_path; /* every line to and from the engines; NULL for none */
    const char *event;
    ResignRule resign;
    DrawRule draw;
    bool sprt_enabled;
    SprtConfig sprt;
} MatchConfig;

/* Plays the tournament and prints the standings. Returns the exit status: 0 when it ran (whatever
 * the results), 1 when interrupted, 2 when it could not start (bad openings, an engine that does
 * not start or does not play the variant). */
int match_run(const MatchConfig *config);

#endif

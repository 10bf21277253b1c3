/* An engine as janggun-match runs it (a player): its description from the command line (`cmd=...
 * proto=uci name=... option.Hash=64 ...`) and the protocol conversation with it (UCI with UCI_Variant, as FSF
 * speaks it, or UCCI): handshake, options, variant, new game, position and go, the `info` score and
 * the `bestmove`, and pondering (`go ponder` on the reply the engine expects, then `ponderhit` or `stop`).
 * Deadlines come from the caller; this module reports what happened (a move, a
 * timeout, a crash) and leaves judging the game to match.c and the referee. */
#ifndef JANGGUN_MATCH_PLAYER_H
#define JANGGUN_MATCH_PLAYER_H

#include <pthread.h>
#include <stdio.h>

#include "../../engine/game.h"
#include "process.h"

typedef enum { PROTO_UCI, PROTO_UCCI } Protocol;

typedef struct {
    char *name, *value;
} PlayerOption;

typedef struct {
    char name[64];
    char *cmd, *dir, *stderr_path;
    Protocol proto;
    PlayerOption *options;
    int option_count;
    bool ponder; /* ponder=on: after each move it ponders on the reply it named */
} PlayerSpec;

/* Applies one `key=value` word (cmd, name, proto, dir, stderr, ponder, option.NAME); false with a message. */
bool player_spec_set(PlayerSpec *spec, const char *word, char *err, size_t err_size);
/* Checks the description is complete and names the engine after its command when no name was given. */
bool player_spec_finish(PlayerSpec *spec, int index, char *err, size_t err_size);
void player_spec_free(PlayerSpec *spec);

/* Where every line sent and received is written, with the time and the engine (NULL: nowhere). */
typedef struct {
    FILE *file;
    pthread_mutex_t lock;
    int64_t start_us;
} TrafficLog;

typedef struct {
    const PlayerSpec *spec;
    const char *variant;
    TrafficLog *log;
    int slot; /* the worker that runs it, for the log */
    Process proc;
    bool running;
    bool warn; /* print warnings about options (the first start only) */
    bool has_variant_option, variant_listed, has_usemillisec, has_ponder_option;
    bool pondering;     /* a `go ponder` runs */
    char ponder_on[64]; /* on this move, in its protocol's text */
    char error[320];    /* what went wrong in the last call */
} Player;

typedef enum {
    PLAYER_OK,
    PLAYER_TIMEOUT,    /* no answer before the deadline */
    PLAYER_CRASHED,    /* its output closed or it could not be started; error says how it ended */
    PLAYER_REFUSED,    /* it does not support the variant */
    PLAYER_INTERRUPTED /* the runner is stopping */
} PlayerStatus;

void player_init(Player *p, const PlayerSpec *spec, const char *variant, TrafficLog *log, int slot);

/* Starts the process and does the handshake, the options, the variant and isready. */
PlayerStatus player_start(Player *p, long timeout_ms);

/* ucinewgame (uccinewgame) and isready. */
PlayerStatus player_new_game(Player *p, long timeout_ms);

typedef struct {
    bool clock;
    long time_ms[2], inc_ms[2]; /* by colour */
    int movestogo;
    long movetime_ms, nodes;
    int depth;
} GoLimits;

typedef struct {
    char move[64];   /* the bestmove word: a move, "(none)", or "" for nobestmove */
    char ponder[64]; /* the move after `ponder` on the bestmove line, or "" */
    bool ponderhit;  /* the move came from a ponder search the runner confirmed */
    bool pondermiss; /* a ponder search on another move was stopped first */
    bool has_score, mate;
    int score; /* centipawns, or moves to mate (negative: being mated) */
    int depth;
    long long nodes;
    long elapsed_ms; /* from writing go to reading bestmove */
} PlayerReply;

/* Sends the position of `game` and go with `limits`; reads until bestmove or the deadline. When the
 * engine was pondering: `ponderhit` if game's last move is the one it pondered on (the time counts from
 * there), else `stop`, its stale bestmove read and dropped, then the position and go as usual. */
PlayerStatus player_go(Player *p, const Game *game, const GoLimits *limits, int64_t deadline_us, PlayerReply *reply);

/* Starts `go ponder` on the position after `move` (the reply the engine named, legal in game) with the
 * limits of its next move; returns at once. PLAYER_OK without pondering when the move is not legal. */
PlayerStatus player_ponder(Player *p, const Game *game, const char *move, const GoLimits *limits);

/* Ends a ponder search that no move will confirm (the game is over): stop, and its bestmove read. */
void player_stop_pondering(Player *p, long grace_ms);

/* After a timeout: sends stop and waits up to grace_ms for the late bestmove; kills the engine when
 * none comes (the next start restarts it). */
void player_settle(Player *p, long grace_ms);

/* quit, then kill after grace_ms. */
void player_quit(Player *p, long grace_ms);

/* Marks it dead and reaps it after a crash (error gets the exit status). */
void player_reap(Player *p);

#endif

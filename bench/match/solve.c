#define _POSIX_C_SOURCE 200809L /* getline, strtok_r */
#include "solve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/base/base.h"
#include "../../engine/base/datafile.h"
#include "../../engine/game.h"
#include "../../engine/records/epd.h"
#include "../../engine/records/pgn.h"
#include "process.h"

/* Grace for a late bestmove after `stop`, and for `quit`. */
enum { SETTLE_MS = 1000, QUIT_MS = 1000, MAX_BEST_MOVES = 16 };

typedef struct {
    char id[128];
    char fen[EPD_FEN_SIZE];
    char *moves; /* UCI text played from the FEN before the position ("" for none) */
    Move best[MAX_BEST_MOVES];
    int best_count;
    char best_text[256]; /* the bm operand, for messages */
} SolvePosition;

typedef enum { ANSWER_SOLVED, ANSWER_MISSED, ANSWER_ILLEGAL, ANSWER_NO_MOVE, ANSWER_TIMEOUT, ANSWER_CRASH } Answer;

typedef struct {
    Answer answer;
    char played[64];
} SolveOutcome;

/* ---- reading the positions ---- */

/* The game of a position: its FEN and the moves before it. false with a message. */
static bool position_game(const SolvePosition *sp, const RuleSet *rules, Game *game, char *err, size_t err_size)
{
    char msg[160];
    if (!game_start(game, sp->fen, rules, FEN_ALLOW_EXTRA_PIECES, msg, sizeof msg)) {
        snprintf(err, err_size, "bad FEN: %s", msg);
        return false;
    }
    char *copy = malloc(strlen(sp->moves) + 1), *save = NULL;
    if (!copy) {
        game_free(game);
        snprintf(err, err_size, "out of memory");
        return false;
    }
    strcpy(copy, sp->moves);
    int ply = 0;
    for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        ply++;
        MoveParseResult r =
            game_status(game).result != GAME_ONGOING ? MOVE_PARSE_ILLEGAL : game_play_text(game, tok, RANKS_FROM_1);
        if (r != MOVE_PARSE_OK) {
            snprintf(err, err_size, "%s move '%s' at ply %d", r == MOVE_PARSE_SYNTAX ? "unparsable" : "illegal", tok,
                     ply);
            free(copy), game_free(game);
            return false;
        }
    }
    free(copy);
    return true;
}

/* Fills in a position from its EPD line: the bm moves (in any form a PGN move may take) must be legal
 * and the game not over. false with a message. */
static bool read_position(const EpdPosition *epd, const char *line, long lineno, const RuleSet *rules,
                          SolvePosition *sp, char *err, size_t err_size)
{
    memset(sp, 0, sizeof *sp);
    snprintf(sp->fen, sizeof sp->fen, "%s", epd->fen);
    const char *id = epd_operation(epd, "id");
    if (id)
        snprintf(sp->id, sizeof sp->id, "%s", id);
    else
        snprintf(sp->id, sizeof sp->id, "line %ld", lineno);
    size_t len = epd->has_moves ? epd->moves_len : 0;
    if (!(sp->moves = malloc(len + 1))) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    memcpy(sp->moves, line + epd->moves_at, len);
    sp->moves[len] = '\0';
    const char *bm = epd_operation(epd, "bm");
    if (!bm || !*bm) {
        snprintf(err, err_size, "no bm operation (the best moves)");
        return false;
    }
    snprintf(sp->best_text, sizeof sp->best_text, "%s", bm);
    Game game;
    if (!position_game(sp, rules, &game, err, err_size))
        return false;
    bool ok = true;
    GameStatus status = game_status(&game);
    if (status.result != GAME_ONGOING) {
        snprintf(err, err_size, "the game is already over in this position");
        ok = false;
    }
    char copy[256], *save = NULL;
    snprintf(copy, sizeof copy, "%s", bm);
    for (char *tok = strtok_r(copy, " ,", &save); ok && tok; tok = strtok_r(NULL, " ,", &save)) {
        Move m;
        PgnMoveResult r = pgn_parse_move(&game.pos, tok, &m);
        if (r != PGN_MOVE_OK) {
            snprintf(err, err_size, "bm: %s move '%s'",
                     r == PGN_MOVE_SYNTAX      ? "unreadable"
                     : r == PGN_MOVE_AMBIGUOUS ? "ambiguous"
                                               : "illegal",
                     tok);
            ok = false;
        } else if (sp->best_count == MAX_BEST_MOVES) {
            snprintf(err, err_size, "bm: more than %d moves", MAX_BEST_MOVES);
            ok = false;
        } else {
            sp->best[sp->best_count++] = m;
        }
    }
    game_free(&game);
    return ok;
}

static void free_positions(SolvePosition *positions, int count)
{
    for (int i = 0; i < count; i++)
        free(positions[i].moves);
    free(positions);
}

/* The positions of the EPD file; false with "FILE:LINE: message" on the first bad line. */
static bool load_positions(const SolveConfig *cfg, SolvePosition **out, int *count, char *err, size_t err_size)
{
    char msg[600];
    DataFile *file = datafile_open(cfg->path, msg, sizeof msg);
    if (!file) {
        snprintf(err, err_size, "%s", msg);
        return false;
    }
    FILE *f = datafile_stream(file);
    SolvePosition *positions = NULL;
    int n = 0, cap = 0;
    EpdPosition *epd = malloc(sizeof *epd);
    char *line = NULL;
    size_t size = 0;
    long lineno = 0;
    bool ok = epd != NULL;
    if (!ok)
        snprintf(err, err_size, "out of memory");
    while (ok && getline(&line, &size, f) >= 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (epd_is_blank(line))
            continue;
        if (!ARRAY_RESERVE(positions, cap, n + 1)) {
            snprintf(err, err_size, "out of memory");
            ok = false;
        } else if (!epd_parse_line(line, epd, msg, sizeof msg)
                   || !read_position(epd, line, lineno, cfg->rules, &positions[n++], msg, sizeof msg)) {
            snprintf(err, err_size, "%s:%ld: %s", cfg->path, lineno, msg);
            ok = false;
        }
    }
    free(line);
    free(epd);
    /* A broken compressed file also cuts its last line short: its own message says more. */
    if (!datafile_close(file, msg, sizeof msg)) {
        snprintf(err, err_size, "%s", msg);
        ok = false;
    }
    if (ok && n == 0) {
        snprintf(err, err_size, "%s: no positions", cfg->path);
        ok = false;
    }
    if (!ok) {
        free_positions(positions, n);
        return false;
    }
    *out = positions;
    *count = n;
    return true;
}

/* ---- asking the engines ---- */

static bool is_best(const SolvePosition *sp, Move m)
{
    for (int i = 0; i < sp->best_count; i++)
        if (sp->best[i] == m)
            return true;
    return false;
}

/* One position put to a started engine (restarted first when it is not running). */
static SolveOutcome ask(const SolveConfig *cfg, Player *p, const SolvePosition *sp, const Game *game, char *detail,
                        size_t detail_size)
{
    SolveOutcome o = {ANSWER_CRASH, ""};
    PlayerStatus s = p->running ? PLAYER_OK : player_start(p, cfg->timeout_ms);
    if (s == PLAYER_OK)
        s = player_new_game(p, cfg->timeout_ms);
    if (s != PLAYER_OK) {
        o.answer = s == PLAYER_TIMEOUT ? ANSWER_TIMEOUT : ANSWER_CRASH;
        snprintf(detail, detail_size, "could not start: %s", p->error);
        return o;
    }
    const TimeControl *tc = &cfg->tc;
    GoLimits limits = {
        .movetime_ms = tc->kind == TC_MOVETIME ? tc->movetime_ms : 0, .nodes = tc->nodes, .depth = tc->depth};
    long allowance = tc->kind == TC_MOVETIME ? tc->movetime_ms + tc->margin_ms : cfg->timeout_ms;
    PlayerReply r;
    s = player_go(p, game, &limits, clock_us() + (int64_t)allowance * 1000, &r);
    if (s == PLAYER_TIMEOUT) {
        player_settle(p, SETTLE_MS);
        o.answer = ANSWER_TIMEOUT;
        snprintf(detail, detail_size, "no move within %.3f s", allowance / 1000.0);
        return o;
    }
    if (s != PLAYER_OK) {
        snprintf(detail, detail_size, "%s%s",
                 s == PLAYER_INTERRUPTED ? "interrupted" : "crashed: ", s == PLAYER_INTERRUPTED ? "" : p->error);
        return o;
    }
    snprintf(o.played, sizeof o.played, "%s", r.move);
    char info[64] = "";
    if (r.has_score && r.mate)
        snprintf(info, sizeof info, " (%sM%d/%d, %.3f s)", r.score >= 0 ? "+" : "-", abs(r.score), r.depth,
                 r.elapsed_ms / 1000.0);
    else if (r.has_score)
        snprintf(info, sizeof info, " (%+.2f/%d, %.3f s)", r.score / 100.0, r.depth, r.elapsed_ms / 1000.0);
    else
        snprintf(info, sizeof info, " (%.3f s)", r.elapsed_ms / 1000.0);
    Move m;
    if (r.move[0] == '\0' || strcmp(r.move, "(none)") == 0) {
        o.answer = ANSWER_NO_MOVE;
        snprintf(detail, detail_size, "%s%s", r.move[0] ? "bestmove (none)" : "nobestmove", info);
    } else if (move_parse(&game->pos, r.move, p->spec->proto == PROTO_UCI ? RANKS_FROM_1 : RANKS_FROM_0, &m)
               != MOVE_PARSE_OK) {
        o.answer = ANSWER_ILLEGAL;
        snprintf(detail, detail_size, "%s, an illegal move%s", r.move, info);
    } else {
        o.answer = is_best(sp, m) ? ANSWER_SOLVED : ANSWER_MISSED;
        snprintf(detail, detail_size, "%s%s", r.move, info);
    }
    return o;
}

/* Every position put to one engine, a line printed for each. false when interrupted, or (with a
 * message on standard error) when the engine does not start for the first position. */
static bool run_engine(const SolveConfig *cfg, int e, TrafficLog *log, const SolvePosition *positions, int count,
                       SolveOutcome *outcomes)
{
    const PlayerSpec *spec = &cfg->players[e];
    Player p;
    player_init(&p, spec, cfg->rules->name, log, e + 1);
    p.warn = true;
    PlayerStatus s = player_start(&p, cfg->timeout_ms);
    if (s != PLAYER_OK) {
        fprintf(stderr, "janggun-match: error: engine %s: %s\n", spec->name, p.error);
        player_quit(&p, 0);
        return false;
    }
    for (int i = 0; i < count && !process_stop_requested; i++) {
        const SolvePosition *sp = &positions[i];
        Game game;
        char detail[400];
        if (position_game(sp, cfg->rules, &game, detail, sizeof detail)) { /* checked when loaded */
            outcomes[i] = ask(cfg, &p, sp, &game, detail, sizeof detail);
            game_free(&game);
        } else {
            outcomes[i] = (SolveOutcome){ANSWER_NO_MOVE, ""}; /* out of memory */
        }
        if (process_stop_requested)
            break;
        if (outcomes[i].answer == ANSWER_SOLVED)
            printf("%s %d/%d \"%s\": %s: solved\n", spec->name, i + 1, count, sp->id, detail);
        else
            printf("%s %d/%d \"%s\": %s: not solved (bm %s)\n", spec->name, i + 1, count, sp->id, detail,
                   sp->best_text);
        fflush(stdout);
    }
    player_quit(&p, QUIT_MS);
    return !process_stop_requested;
}

/* ---- results ---- */

static bool write_failed(const SolveConfig *cfg, const SolvePosition *positions, int count,
                         SolveOutcome *const *outcomes)
{
    FILE *f = fopen(cfg->failed_path, "w");
    if (!f)
        return false;
    fprintf(f, "# engine\tid\tplayed\tbm\n");
    for (int e = 0; e < cfg->player_count; e++)
        for (int i = 0; i < count; i++)
            if (outcomes[e][i].answer != ANSWER_SOLVED)
                fprintf(f, "%s\t%s\t%s\t%s\n", cfg->players[e].name, positions[i].id,
                        outcomes[e][i].played[0] ? outcomes[e][i].played : "-", positions[i].best_text);
    return fclose(f) == 0;
}

static void print_results(const SolveConfig *cfg, const SolvePosition *positions, int count,
                          SolveOutcome *const *outcomes, const char *tc_text)
{
    printf("\nPositions solved (%d from %s, %s rules, %s):\n", count, cfg->path, cfg->rules->name, tc_text);
    for (int e = 0; e < cfg->player_count; e++) {
        int by[ANSWER_CRASH + 1] = {0};
        for (int i = 0; i < count; i++)
            by[outcomes[e][i].answer]++;
        printf("%s: %d of %d (%.1f%%)", cfg->players[e].name, by[ANSWER_SOLVED], count,
               100.0 * by[ANSWER_SOLVED] / count);
        if (by[ANSWER_ILLEGAL] || by[ANSWER_NO_MOVE] || by[ANSWER_TIMEOUT] || by[ANSWER_CRASH])
            printf("; %d illegal moves, %d without a move, %d out of time, %d crashes", by[ANSWER_ILLEGAL],
                   by[ANSWER_NO_MOVE], by[ANSWER_TIMEOUT], by[ANSWER_CRASH]);
        printf("\n");
    }
    for (int a = 0; a < cfg->player_count; a++)
        for (int b = a + 1; b < cfg->player_count; b++) {
            int only_a = 0, only_b = 0, both = 0;
            for (int i = 0; i < count; i++) {
                bool sa = outcomes[a][i].answer == ANSWER_SOLVED, sb = outcomes[b][i].answer == ANSWER_SOLVED;
                only_a += sa && !sb, only_b += sb && !sa, both += sa && sb;
            }
            printf("%s and %s: %d solved by %s only, %d by %s only, %d by both, %d by neither\n", cfg->players[a].name,
                   cfg->players[b].name, only_a, cfg->players[a].name, only_b, cfg->players[b].name, both,
                   count - only_a - only_b - both);
        }
    for (int e = 0; e < cfg->player_count; e++) {
        int missed = 0;
        for (int i = 0; i < count; i++)
            missed += outcomes[e][i].answer != ANSWER_SOLVED;
        printf("Not solved by %s (%d):", cfg->players[e].name, missed);
        const char *sep = " ";
        for (int i = 0; i < count; i++)
            if (outcomes[e][i].answer != ANSWER_SOLVED) {
                printf("%s%s", sep, positions[i].id);
                sep = ", ";
            }
        printf("\n");
    }
    fflush(stdout);
}

int solve_run(const SolveConfig *cfg)
{
    char err[800];
    SolvePosition *positions;
    int count;
    if (!load_positions(cfg, &positions, &count, err, sizeof err)) {
        fprintf(stderr, "janggun-match: error: %s\n", err);
        return 2;
    }
    int status = 2;
    TrafficLog log = {.start_us = clock_us()};
    pthread_mutex_init(&log.lock, NULL);
    SolveOutcome **outcomes = calloc((size_t)cfg->player_count, sizeof *outcomes);
    if (!outcomes)
        goto out;
    for (int e = 0; e < cfg->player_count; e++)
        if (!(outcomes[e] = calloc((size_t)count, sizeof **outcomes)))
            goto out;
    if (cfg->log_path && !(log.file = fopen(cfg->log_path, "a"))) {
        fprintf(stderr, "janggun-match: error: cannot write the log '%s': %s\n", cfg->log_path, strerror(errno));
        goto out;
    }
    /* Made before any search, so a bad path does not waste a long run. */
    if (cfg->failed_path && !write_failed(cfg, positions, 0, outcomes)) {
        fprintf(stderr, "janggun-match: error: cannot write '%s': %s\n", cfg->failed_path, strerror(errno));
        goto out;
    }
    process_catch_interrupts();
    char tc_text[96];
    tc_describe(&cfg->tc, tc_text, sizeof tc_text);
    printf("janggun-match: %d positions from %s, %d engine%s one after the other, %s rules, %s a position\n", count,
           cfg->path, cfg->player_count, cfg->player_count == 1 ? "" : "s", cfg->rules->name, tc_text);
    fflush(stdout);
    for (int e = 0; e < cfg->player_count; e++)
        if (!run_engine(cfg, e, &log, positions, count, outcomes[e])) {
            if (process_stop_requested) {
                printf("Interrupted\n");
                status = 1;
            }
            goto out;
        }
    print_results(cfg, positions, count, outcomes, tc_text);
    status = 0;
    if (cfg->failed_path && !write_failed(cfg, positions, count, outcomes)) {
        fprintf(stderr, "janggun-match: error: cannot write '%s': %s\n", cfg->failed_path, strerror(errno));
        status = 2;
    }
out:
    if (outcomes)
        for (int e = 0; e < cfg->player_count; e++)
            free(outcomes[e]);
    free(outcomes);
    if (log.file)
        fclose(log.file);
    pthread_mutex_destroy(&log.lock);
    free_positions(positions, count);
    return status;
}

#define _POSIX_C_SOURCE 200809L /* strtok_r, localtime_r, gethostname */
#include "match.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "match_pgn.h"

/* How games end, as the Termination tag names them. */
typedef enum {
    TERM_CHECKMATE,
    TERM_BIKJANG,
    TERM_DOUBLE_PASS,
    TERM_REPETITION,
    TERM_PERPETUAL_CHECK,
    TERM_KAKAO,
    TERM_MOVE_LIMIT,
    TERM_TIME,
    TERM_ILLEGAL,
    TERM_CRASH,
    TERM_HANG,
    TERM_ADJ_RESIGN,
    TERM_ADJ_DRAW,
    TERM_COUNT
} Termination;

static const char *const TERM_NAMES[TERM_COUNT] = {
    "checkmate",
    "bikjang",
    "double pass",
    "repetition",
    "perpetual check",
    "Kakao repetition",
    "move limit",
    "time forfeit",
    "illegal move",
    "crash",
    "hang",
    "adjudication: resign",
    "adjudication: draw",
};

static const char *const SIDE_NAMES[2] = {"Cho", "Han"};

/* Grace for a late bestmove after `stop`, and for `quit`. */
enum { SETTLE_MS = 1000, QUIT_MS = 1000 };

typedef struct {
    int a, b; /* engine indices; statistics are from a's side */
} Pairing;

typedef struct {
    int number; /* 1-based, in schedule order */
    int pairing;
    int pair_id; /* the two games of an opening with colours reversed */
    int opening;
    int white, black;
} Job;

typedef struct {
    long wins, draws, losses;
} Wdl;

typedef struct {
    const MatchConfig *config;
    OpeningBook book;
    Pairing *pairings;
    int pairing_count;
    Job *jobs;
    int job_count;
    TrafficLog log;
    FILE *pgn;
    char site[64];
    char tc_text[96];

    pthread_mutex_t lock; /* everything below */
    int next_job;
    bool stop; /* SPRT decided: no new games */
    int games_done;
    Wdl *by_engine;                        /* per engine, all games */
    Wdl *by_pairing;                       /* per pairing, from a's side */
    Pentanomial *pent;                     /* per pairing */
    signed char *pair_games, *pair_points; /* per pair_id: games done, a's half points */
    long term_counts[TERM_COUNT];
    long ponder_hits, ponder_misses;
    SprtDecision sprt_decision; /* the first decision, with the games and LLR it was reached at */
    int sprt_games;
    double sprt_llr, sprt_decision_llr;
} Tournament;

typedef struct {
    Tournament *t;
    int slot;
    Player *players; /* one per engine, started when first needed */
} MatchWorker;

typedef struct {
    Game game;
    char (*comments)[48];
    int comment_cap;
    GameResult result;
    Termination term;
    char detail[640];
    bool interrupted;
    int ponder_hits, ponder_misses;
} GameOutcome;

/* ---- one game ---- */

static bool grow_comments(GameOutcome *o, int plies) { return ARRAY_RESERVE(o->comments, o->comment_cap, plies + 1); }

static void set_comment(GameOutcome *o, int ply, const char *text)
{
    if (grow_comments(o, ply))
        snprintf(o->comments[ply], sizeof o->comments[ply], "%s", text);
}

/* `loser` loses the game for `term`. */
static void lose(GameOutcome *o, Color loser, Termination term)
{
    o->result = loser == WHITE ? GAME_HAN_WINS : GAME_CHO_WINS;
    o->term = term;
}

/* The referee's verdict. */
static void judge(GameOutcome *o, const GameStatus *st)
{
    static const Termination by_reason[] = {
        [END_CHECKMATE] = TERM_CHECKMATE,
        [END_BIKJANG] = TERM_BIKJANG,
        [END_DOUBLE_PASS] = TERM_DOUBLE_PASS,
        [END_REPETITION] = TERM_REPETITION,
        [END_PERPETUAL_CHECK] = TERM_PERPETUAL_CHECK,
        [END_KAKAO_REPETITION] = TERM_KAKAO,
        [END_MOVE_LIMIT] = TERM_MOVE_LIMIT,
    };
    o->result = st->result;
    o->term = by_reason[st->reason];
    game_end_text(&o->game, st, o->detail, sizeof o->detail);
}

/* A score as the adjudication compares them: mates far beyond any centipawn score. */
static int comparable_score(const PlayerReply *r)
{
    if (!r->mate)
        return r->score;
    return r->score > 0 ? 100000 - r->score : -100000 - r->score;
}

typedef struct {
    int bad[2], good[2], level[2]; /* consecutive moves of each side at <= -resign, >= +resign, within +-draw */
} Adjudication;

/* Updates the counts with the move just played by `c`; true when the game is adjudicated. */
static bool adjudicate(const MatchConfig *cfg, Adjudication *a, Color c, const PlayerReply *r, GameOutcome *o)
{
    if (!cfg->resign.enabled && !cfg->draw.enabled)
        return false;
    if (r->has_score) {
        int s = comparable_score(r);
        a->bad[c] = s <= -cfg->resign.score ? a->bad[c] + 1 : 0;
        a->good[c] = s >= cfg->resign.score ? a->good[c] + 1 : 0;
        a->level[c] = abs(s) <= cfg->draw.score ? a->level[c] + 1 : 0;
    } else {
        a->bad[c] = a->good[c] = a->level[c] = 0;
    }
    if (cfg->resign.enabled)
        for (int side = 0; side < 2; side++)
            if (a->bad[side] >= cfg->resign.movecount && a->good[side ^ 1] >= cfg->resign.movecount) {
                lose(o, (Color)side, TERM_ADJ_RESIGN);
                snprintf(o->detail, sizeof o->detail,
                         "%s resigns: both engines scored it at -%d cp or worse for %d moves each", SIDE_NAMES[side],
                         cfg->resign.score, cfg->resign.movecount);
                return true;
            }
    if (cfg->draw.enabled && o->game.length / 2 >= cfg->draw.movenumber && a->level[0] >= cfg->draw.movecount
        && a->level[1] >= cfg->draw.movecount) {
        o->result = GAME_DRAW;
        o->term = TERM_ADJ_DRAW;
        snprintf(o->detail, sizeof o->detail, "draw: both engines' scores within %d cp for %d moves each",
                 cfg->draw.score, cfg->draw.movecount);
        return true;
    }
    return false;
}

/* The per-move comment: score (in soldiers, or M<n> for a mate) and depth, then the time taken. */
static void move_comment(const PlayerReply *r, char *buf, size_t size)
{
    char score[32] = "";
    if (r->has_score && r->mate)
        snprintf(score, sizeof score, "%sM%d/%d ", r->score >= 0 ? "+" : "-", abs(r->score), r->depth);
    else if (r->has_score)
        snprintf(score, sizeof score, "%+.2f/%d ", r->score / 100.0, r->depth);
    snprintf(buf, size, "%s%.3fs", score, r->elapsed_ms / 1000.0);
}

/* An engine that failed to start or to begin a new game loses. */
static void failed_to_start(GameOutcome *o, Color c, const Player *p, PlayerStatus s)
{
    if (s == PLAYER_INTERRUPTED) {
        o->interrupted = true;
        return;
    }
    lose(o, c, s == PLAYER_TIMEOUT ? TERM_HANG : TERM_CRASH);
    snprintf(o->detail, sizeof o->detail, "%s (%s) could not start the game: %s", SIDE_NAMES[c], p->spec->name,
             p->error);
}

/* The limits of colour c's next move. */
static GoLimits move_limits(const TimeControl *tc, const Clock clocks[2], Color c)
{
    return (GoLimits){.clock = tc->kind == TC_CLOCK,
                      .time_ms = {clocks[0].remaining_ms, clocks[1].remaining_ms},
                      .inc_ms = {tc->inc_ms, tc->inc_ms},
                      .movestogo = tc_moves_to_go(tc, &clocks[c]),
                      .movetime_ms = tc->kind == TC_MOVETIME ? tc->movetime_ms : 0,
                      .nodes = tc->nodes,
                      .depth = tc->depth};
}

static void play_game(MatchWorker *w, const Job *job, GameOutcome *o)
{
    Tournament *t = w->t;
    const MatchConfig *cfg = t->config;
    const Opening *op = &t->book.items[job->opening];
    char err[160];
    memset(o, 0, sizeof *o);
    if (!game_start(&o->game, op->fen, cfg->rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err)) { /* checked when loaded */
        o->interrupted = true;
        return;
    }
    if (op->plies > 0) {
        char *moves = malloc(strlen(op->moves) + 1), *save = NULL;
        if (!moves) {
            o->interrupted = true;
            return;
        }
        strcpy(moves, op->moves);
        for (char *tok = strtok_r(moves, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            game_play_text(&o->game, tok, RANKS_FROM_1);
            set_comment(o, o->game.length - 1, "book");
        }
        free(moves);
    }
    Player *players[2] = {&w->players[job->white], &w->players[job->black]};
    for (int c = 0; c < 2; c++) {
        Player *p = players[c];
        PlayerStatus s = p->running ? PLAYER_OK : player_start(p, cfg->timeout_ms);
        if (s == PLAYER_OK)
            s = player_new_game(p, cfg->timeout_ms);
        if (s != PLAYER_OK) {
            failed_to_start(o, (Color)c, p, s);
            return;
        }
    }
    const TimeControl *tc = &cfg->tc;
    Clock clocks[2];
    tc_clock_start(tc, &clocks[0]);
    tc_clock_start(tc, &clocks[1]);
    Adjudication adj = {{0, 0}, {0, 0}, {0, 0}};
    char ponder_on[64] = ""; /* the reply the last mover expects, when it ponders */
    for (;;) {
        GameStatus st = game_status(&o->game);
        if (st.result != GAME_ONGOING) {
            judge(o, &st);
            return;
        }
        Color c = o->game.pos.side;
        Player *p = players[c];
        const char *who = SIDE_NAMES[c];
        if (ponder_on[0]) {
            Color last = color_flip(c);
            GoLimits next = move_limits(tc, clocks, last);
            if (player_ponder(players[last], &o->game, ponder_on, &next) != PLAYER_OK) {
                lose(o, last, TERM_CRASH);
                snprintf(o->detail, sizeof o->detail, "%s (%s) crashed: %s", SIDE_NAMES[last],
                         players[last]->spec->name, players[last]->error);
                return;
            }
            ponder_on[0] = '\0';
        }
        GoLimits limits = move_limits(tc, clocks, c);
        long allowance = tc_allowance_ms(tc, &clocks[c], cfg->timeout_ms);
        PlayerReply r;
        PlayerStatus s = player_go(p, &o->game, &limits, clock_us() + (int64_t)allowance * 1000, &r);
        o->ponder_hits += r.ponderhit;
        o->ponder_misses += r.pondermiss;
        if (s == PLAYER_INTERRUPTED) {
            o->interrupted = true;
            return;
        }
        if (s == PLAYER_TIMEOUT) {
            if (tc->kind == TC_NONE) {
                lose(o, c, TERM_HANG);
                snprintf(o->detail, sizeof o->detail, "%s (%s) did not move within %.3f s", who, p->spec->name,
                         allowance / 1000.0);
            } else {
                lose(o, c, TERM_TIME);
                snprintf(o->detail, sizeof o->detail,
                         "%s (%s) lost on time: no move within %.3f s (%.3f s left, %.3f s margin)", who, p->spec->name,
                         allowance / 1000.0, (tc->kind == TC_CLOCK ? clocks[c].remaining_ms : tc->movetime_ms) / 1000.0,
                         tc->margin_ms / 1000.0);
            }
            player_settle(p, SETTLE_MS);
            return;
        }
        if (s != PLAYER_OK) {
            lose(o, c, TERM_CRASH);
            snprintf(o->detail, sizeof o->detail, "%s (%s) crashed: %s", who, p->spec->name, p->error);
            return;
        }
        long left = tc->kind == TC_CLOCK ? clocks[c].remaining_ms : tc->movetime_ms;
        if (!tc_clock_charge(tc, &clocks[c], r.elapsed_ms)) {
            lose(o, c, TERM_TIME);
            snprintf(o->detail, sizeof o->detail, "%s (%s) lost on time: %.3f s used, %.3f s left, %.3f s margin", who,
                     p->spec->name, r.elapsed_ms / 1000.0, left / 1000.0, tc->margin_ms / 1000.0);
            return;
        }
        if (r.move[0] == '\0' || strcmp(r.move, "(none)") == 0) {
            lose(o, c, TERM_ILLEGAL);
            snprintf(o->detail, sizeof o->detail, "%s (%s) answered %s, but the game is not over", who, p->spec->name,
                     r.move[0] ? "bestmove (none)" : "nobestmove");
            return;
        }
        MoveParseResult mr =
            game_play_text(&o->game, r.move, p->spec->proto == PROTO_UCI ? RANKS_FROM_1 : RANKS_FROM_0);
        if (mr != MOVE_PARSE_OK) {
            lose(o, c, TERM_ILLEGAL);
            snprintf(o->detail, sizeof o->detail, "%s (%s) played %s move '%s'", who, p->spec->name,
                     mr == MOVE_PARSE_SYNTAX ? "an unparsable" : "an illegal", r.move);
            return;
        }
        char text[48];
        move_comment(&r, text, sizeof text);
        set_comment(o, o->game.length - 1, text);
        if (adjudicate(cfg, &adj, c, &r, o))
            return;
        if (p->spec->ponder)
            snprintf(ponder_on, sizeof ponder_on, "%s", r.ponder);
    }
}

/* ---- output ---- */

static void format_elo(double elo, double error, char *buf, size_t size)
{
    if (isnan(elo))
        snprintf(buf, size, "-");
    else if (isinf(elo))
        snprintf(buf, size, "%sinf", elo > 0 ? "+" : "-");
    else if (isinf(error))
        snprintf(buf, size, "%.1f +/- inf", elo);
    else
        snprintf(buf, size, "%.1f +/- %.1f", elo, error);
}

static void write_pgn(Tournament *t, const Job *job, const GameOutcome *o)
{
    if (!t->pgn)
        return;
    const MatchConfig *cfg = t->config;
    char date[16], round[16];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(round, sizeof round, "%d", job->number);
    const char **comments = calloc((size_t)o->game.length + 1, sizeof *comments);
    if (comments)
        for (int i = 0; i < o->game.length && i < o->comment_cap; i++)
            comments[i] = o->comments[i];
    MatchPgnGame g = {.event = cfg->event,
                      .site = t->site,
                      .date = date,
                      .round = round,
                      .white = cfg->players[job->white].name,
                      .black = cfg->players[job->black].name,
                      .result = game_result_name(o->result),
                      .rules = cfg->rules->name,
                      .time_control = t->tc_text,
                      .termination = TERM_NAMES[o->term],
                      .game = &o->game,
                      .comments = comments,
                      .final_comment = o->detail};
    /* The game goes to the file in one write, so a runner killed at any moment leaves whole games. */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        match_pgn_write(mem, &g);
        if (fclose(mem) == 0) {
            size_t done = 0;
            while (done < len) {
                ssize_t n = write(fileno(t->pgn), text + done, len - done);
                if (n <= 0) {
                    fprintf(stderr, "janggun-match: warning: the PGN file could not be written: %s\n", strerror(errno));
                    break;
                }
                done += (size_t)n;
            }
        }
    }
    free(text);
    free(comments);
}

/* The score line of a two-engine match (or of the first pairing). */
static void print_score_line(Tournament *t)
{
    const MatchConfig *cfg = t->config;
    const Wdl *s = &t->by_pairing[0];
    long n = s->wins + s->draws + s->losses;
    EloEstimate e = stats_elo_trinomial(s->wins, s->draws, s->losses);
    char elo[48];
    format_elo(e.elo, e.error95, elo, sizeof elo);
    printf("Score of %s vs %s: +%ld =%ld -%ld [%.3f] %ld/%d, Elo %s, LOS %.1f%%", cfg->players[t->pairings[0].a].name,
           cfg->players[t->pairings[0].b].name, s->wins, s->draws, s->losses, n ? e.score : 0.5, n, t->job_count, elo,
           100 * stats_los(s->wins, s->losses));
    if (cfg->sprt_enabled) {
        double lower, upper;
        stats_sprt_bounds(&cfg->sprt, &lower, &upper);
        printf(", LLR %.2f (%.2f, %.2f)", t->sprt_llr, lower, upper);
    }
    printf("\n");
}

static void record(Tournament *t, const Job *job, const GameOutcome *o)
{
    const MatchConfig *cfg = t->config;
    pthread_mutex_lock(&t->lock);
    int w = job->white, b = job->black;
    Wdl *sw = &t->by_engine[w], *sb = &t->by_engine[b];
    int white_half = o->result == GAME_CHO_WINS ? 2 : o->result == GAME_DRAW ? 1 : 0;
    if (white_half == 2)
        sw->wins++, sb->losses++;
    else if (white_half == 1)
        sw->draws++, sb->draws++;
    else
        sw->losses++, sb->wins++;
    const Pairing *pr = &t->pairings[job->pairing];
    int a_half = pr->a == w ? white_half : 2 - white_half;
    Wdl *sp = &t->by_pairing[job->pairing];
    if (a_half == 2)
        sp->wins++;
    else if (a_half == 1)
        sp->draws++;
    else
        sp->losses++;
    t->pair_points[job->pair_id] = (signed char)(t->pair_points[job->pair_id] + a_half);
    if (++t->pair_games[job->pair_id] == 2)
        t->pent[job->pairing].n[(int)t->pair_points[job->pair_id]]++;
    t->term_counts[o->term]++;
    t->ponder_hits += o->ponder_hits;
    t->ponder_misses += o->ponder_misses;
    t->games_done++;
    write_pgn(t, job, o);
    printf("Finished game %d (%s vs %s): %s {%s: %s}\n", job->number, cfg->players[w].name, cfg->players[b].name,
           game_result_name(o->result), TERM_NAMES[o->term], o->detail);
    if (t->pairing_count == 1) {
        if (cfg->sprt_enabled) {
            t->sprt_llr = stats_sprt_llr(&t->pent[0], cfg->sprt.elo0, cfg->sprt.elo1);
            SprtDecision d = stats_sprt_decide(&cfg->sprt, t->sprt_llr);
            if (d != SPRT_CONTINUE && t->sprt_decision == SPRT_CONTINUE) {
                t->sprt_decision = d;
                t->sprt_games = t->games_done;
                t->sprt_decision_llr = t->sprt_llr;
                t->stop = true;
            }
        }
        print_score_line(t);
    } else {
        printf("Progress: %d/%d games\n", t->games_done, t->job_count);
    }
    fflush(stdout);
    pthread_mutex_unlock(&t->lock);
}

static void print_standings(Tournament *t)
{
    const MatchConfig *cfg = t->config;
    int n = cfg->player_count;
    int *order = malloc((size_t)n * sizeof *order);
    double *score = malloc((size_t)n * sizeof *score);
    if (!order || !score) {
        free(order), free(score);
        return;
    }
    for (int i = 0; i < n; i++) {
        const Wdl *s = &t->by_engine[i];
        long g = s->wins + s->draws + s->losses;
        order[i] = i;
        score[i] = g ? (s->wins + s->draws / 2.0) / (double)g : -1;
    }
    for (int i = 1; i < n; i++) /* by score, stable */
        for (int j = i; j > 0 && score[order[j]] > score[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    printf("\nRank Name                             Elo     +/-  Games   Score   Draws\n");
    for (int r = 0; r < n; r++) {
        int i = order[r];
        const Wdl *s = &t->by_engine[i];
        long g = s->wins + s->draws + s->losses;
        EloEstimate e = stats_elo_trinomial(s->wins, s->draws, s->losses);
        char elo[16], err[16];
        snprintf(elo, sizeof elo, isnan(e.elo) ? "-" : isinf(e.elo) ? (e.elo > 0 ? "+inf" : "-inf") : "%.1f", e.elo);
        snprintf(err, sizeof err, isnan(e.elo) || isinf(e.error95) ? "inf" : "%.1f", e.error95);
        printf("%4d %-28s %7s %7s %6ld %6.1f%% %6.1f%%\n", r + 1, cfg->players[i].name, elo, err, g,
               g ? 100 * e.score : 0, g ? 100.0 * s->draws / (double)g : 0);
    }
    for (int p = 0; p < t->pairing_count; p++) {
        const Wdl *s = &t->by_pairing[p];
        long g = s->wins + s->draws + s->losses;
        if (g == 0)
            continue;
        const Pentanomial *pe = &t->pent[p];
        long pairs = pe->n[0] + pe->n[1] + pe->n[2] + pe->n[3] + pe->n[4];
        EloEstimate e = stats_elo_trinomial(s->wins, s->draws, s->losses);
        char elo[48];
        format_elo(e.elo, e.error95, elo, sizeof elo);
        printf("\n%s vs %s: %ld games, +%ld =%ld -%ld, score %.1f%%\n", cfg->players[t->pairings[p].a].name,
               cfg->players[t->pairings[p].b].name, g, s->wins, s->draws, s->losses, 100 * e.score);
        printf("Elo difference: %s (95%%, per game)\n", elo);
        if (pairs > 0) {
            EloEstimate ep = stats_elo_pentanomial(pe);
            format_elo(ep.elo, ep.error95, elo, sizeof elo);
            printf("Elo difference: %s (95%%, per game pair, %ld pair%s)\n", elo, pairs, pairs == 1 ? "" : "s");
            printf("Game pairs by %s's points (0, 0.5, 1, 1.5, 2): %ld %ld %ld %ld %ld\n",
                   cfg->players[t->pairings[p].a].name, pe->n[0], pe->n[1], pe->n[2], pe->n[3], pe->n[4]);
        }
        printf("LOS: %.1f%%\n", 100 * stats_los(s->wins, s->losses));
        if (cfg->sprt_enabled && t->pairing_count == 1) {
            double lower, upper;
            stats_sprt_bounds(&cfg->sprt, &lower, &upper);
            double llr = stats_sprt_llr(pe, cfg->sprt.elo0, cfg->sprt.elo1);
            SprtDecision d = stats_sprt_decide(&cfg->sprt, llr);
            printf("SPRT (elo0 %g, elo1 %g, alpha %g, beta %g): LLR %.2f (%.2f, %.2f): %s\n", cfg->sprt.elo0,
                   cfg->sprt.elo1, cfg->sprt.alpha, cfg->sprt.beta, llr, lower, upper,
                   d == SPRT_H1   ? "H1 accepted"
                   : d == SPRT_H0 ? "H0 accepted"
                                  : "continue");
        }
    }
    printf("\nTerminations:");
    bool any = false;
    for (int i = 0; i < TERM_COUNT; i++)
        if (t->term_counts[i]) {
            printf("%s %s %ld", any ? "," : "", TERM_NAMES[i], t->term_counts[i]);
            any = true;
        }
    printf("%s\n", any ? "" : " none");
    long pondered = t->ponder_hits + t->ponder_misses;
    if (pondered)
        printf("Ponder: %ld hits, %ld misses (%.1f%% hits)\n", t->ponder_hits, t->ponder_misses,
               100.0 * (double)t->ponder_hits / (double)pondered);
    fflush(stdout);
    free(order), free(score);
}

/* ---- workers ---- */

static void *worker_main(void *arg)
{
    MatchWorker *w = arg;
    Tournament *t = w->t;
    for (;;) {
        pthread_mutex_lock(&t->lock);
        bool done = t->stop || process_stop_requested || t->next_job >= t->job_count;
        Job job = done ? (Job){0} : t->jobs[t->next_job++];
        pthread_mutex_unlock(&t->lock);
        if (done)
            break;
        GameOutcome o;
        play_game(w, &job, &o);
        for (int i = 0; i < t->config->player_count; i++)
            player_stop_pondering(&w->players[i], SETTLE_MS);
        if (!o.interrupted)
            record(t, &job, &o);
        game_free(&o.game);
        free(o.comments);
    }
    for (int i = 0; i < t->config->player_count; i++)
        player_quit(&w->players[i], QUIT_MS);
    return NULL;
}

/* ---- the schedule ---- */

static bool schedule(Tournament *t)
{
    const MatchConfig *cfg = t->config;
    int n = cfg->player_count;
    t->pairings = malloc((size_t)n * (size_t)n * sizeof *t->pairings);
    if (!t->pairings)
        return false;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (cfg->format == FORMAT_ROUND_ROBIN || a == 0)
                t->pairings[t->pairing_count++] = (Pairing){a, b};
    int rounds = (cfg->games + 1) / 2;
    t->job_count = t->pairing_count * cfg->games;
    t->jobs = malloc((size_t)t->job_count * sizeof *t->jobs);
    int pair_ids = rounds * t->pairing_count;
    t->pair_games = calloc((size_t)pair_ids, 1);
    t->pair_points = calloc((size_t)pair_ids, 1);
    if (!t->jobs || !t->pair_games || !t->pair_points)
        return false;
    int k = 0;
    for (int r = 0; r < rounds; r++)
        for (int p = 0; p < t->pairing_count; p++)
            for (int g = 0; g < 2 && 2 * r + g < cfg->games; g++) {
                const Pairing *pr = &t->pairings[p];
                t->jobs[k] =
                    (Job){k + 1, p, r * t->pairing_count + p, r % t->book.count, g ? pr->b : pr->a, g ? pr->a : pr->b};
                k++;
            }
    return true;
}

int match_run(const MatchConfig *cfg)
{
    Tournament t;
    memset(&t, 0, sizeof t);
    t.config = cfg;
    char err[400];
    if (!openings_load(&cfg->openings, cfg->rules, &t.book, err, sizeof err)) {
        fprintf(stderr, "janggun-match: error: %s\n", err);
        return 2;
    }
    pthread_mutex_init(&t.lock, NULL);
    pthread_mutex_init(&t.log.lock, NULL);
    t.log.start_us = clock_us();
    int status = 2;
    MatchWorker *workers = NULL;
    pthread_t *threads = NULL;
    int nworkers = 0;
    if (cfg->log_path && !(t.log.file = fopen(cfg->log_path, "a"))) {
        fprintf(stderr, "janggun-match: error: cannot write the log '%s'\n", cfg->log_path);
        goto out;
    }
    if (!schedule(&t)) {
        fprintf(stderr, "janggun-match: error: out of memory\n");
        goto out;
    }
    t.by_engine = calloc((size_t)cfg->player_count, sizeof *t.by_engine);
    t.by_pairing = calloc((size_t)t.pairing_count, sizeof *t.by_pairing);
    t.pent = calloc((size_t)t.pairing_count, sizeof *t.pent);
    if (!t.by_engine || !t.by_pairing || !t.pent) {
        fprintf(stderr, "janggun-match: error: out of memory\n");
        goto out;
    }
    if (gethostname(t.site, sizeof t.site) != 0)
        snprintf(t.site, sizeof t.site, "?");
    t.site[sizeof t.site - 1] = '\0';
    tc_describe(&cfg->tc, t.tc_text, sizeof t.tc_text);

    process_catch_interrupts();

    /* Every engine must start and accept the variant before any game. */
    for (int i = 0; i < cfg->player_count; i++) {
        Player p;
        player_init(&p, &cfg->players[i], cfg->rules->name, &t.log, 0);
        p.warn = true;
        PlayerStatus s = player_start(&p, cfg->timeout_ms);
        if (s != PLAYER_OK) {
            fprintf(stderr, "janggun-match: error: engine %s: %s\n", cfg->players[i].name, p.error);
            player_quit(&p, 0);
            goto out;
        }
        player_quit(&p, QUIT_MS);
    }
    if (cfg->pgn_path && !(t.pgn = fopen(cfg->pgn_path, "a"))) {
        fprintf(stderr, "janggun-match: error: cannot write the PGN file '%s'\n", cfg->pgn_path);
        goto out;
    }
    printf("janggun-match: %d engines, %s, %d games, %s rules, time control %s, %d openings%s (%s), concurrency %d\n",
           cfg->player_count, cfg->format == FORMAT_GAUNTLET ? "gauntlet" : "round robin", t.job_count,
           cfg->rules->name, t.tc_text, t.book.count, cfg->openings.random ? " shuffled" : "",
           openings_source_text(&cfg->openings), cfg->concurrency);
    if (t.book.skipped_over || t.book.skipped_short || t.book.skipped_illegal || t.book.duplicates)
        printf("openings left out: %d already over, %d too short, %d illegal under %s rules, %d duplicates\n",
               t.book.skipped_over, t.book.skipped_short, t.book.skipped_illegal, cfg->rules->name, t.book.duplicates);
    fflush(stdout);

    nworkers = cfg->concurrency < t.job_count ? cfg->concurrency : t.job_count;
    workers = calloc((size_t)nworkers, sizeof *workers);
    threads = calloc((size_t)nworkers, sizeof *threads);
    if (!workers || !threads)
        goto out;
    int started = 0;
    for (int i = 0; i < nworkers; i++) {
        workers[i].t = &t;
        workers[i].slot = i + 1;
        workers[i].players = calloc((size_t)cfg->player_count, sizeof(Player));
        if (!workers[i].players)
            break;
        for (int e = 0; e < cfg->player_count; e++)
            player_init(&workers[i].players[e], &cfg->players[e], cfg->rules->name, &t.log, i + 1);
        if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) != 0)
            break;
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    print_standings(&t);
    if (t.sprt_decision != SPRT_CONTINUE)
        printf("SPRT decided: %s after %d games (LLR %.2f)\n",
               t.sprt_decision == SPRT_H1 ? "H1 accepted" : "H0 accepted", t.sprt_games, t.sprt_decision_llr);
    status = process_stop_requested ? 1 : started == nworkers ? 0 : 2;
    if (process_stop_requested)
        printf("Interrupted after %d games\n", t.games_done);
out:
    if (workers)
        for (int i = 0; i < nworkers; i++)
            free(workers[i].players);
    free(workers), free(threads);
    if (t.pgn)
        fclose(t.pgn);
    if (t.log.file)
        fclose(t.log.file);
    free(t.pairings), free(t.jobs), free(t.pair_games), free(t.pair_points);
    free(t.by_engine), free(t.by_pairing), free(t.pent);
    openings_free(&t.book);
    return status;
}

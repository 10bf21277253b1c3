#include "uci.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/perft.h"
#include "../engine/base/version.h"
#include "../eval/eval.h"
#include "../search/search.h"
#include "cli.h"
#include "command.h"
#include "hangup.h"
#include "input.h"
#include "options.h"
#include "report.h"
#include "xboard.h"

enum { FEN_TEXT_MAX = 256, EVAL_TRACE_SIZE = 16384, BOARD_TEXT_SIZE = 2048 };

typedef struct {
    FILE *out;
    Protocol proto;
    EngineOptions opts;
    Game games[2]; /* the current one and a spare to build the next position in */
    int current;
    Move banned[MAX_MOVES]; /* UCCI banmoves, until the next position */
    int banned_count;

    /* Shared with the search's report callbacks, under `lock` (which also orders all output). */
    pthread_mutex_t lock;
    pthread_cond_t idle;
    bool searching;      /* from go until its bestmove is printed */
    bool stop_requested; /* stop, quit or the end of input came during this search */
    bool hold;           /* ponder or infinite: the bestmove waits for stop or ponderhit */
    bool pondering;
    bool infinite;
    bool have_pending; /* a held bestmove */
    Move pending_best, pending_ponder;
    ReportStyle style; /* how the running search's lines are written */
} Session;

static Game *game(Session *s) { return &s->games[s->current]; }

static RankBase rank_base(const Session *s) { return report_rank_base(s->proto); }

/* ---- Output ---- */

/* One line, under the lock held by the caller. */
static void write_line_locked(Session *s, const char *line)
{
    fputs(line, s->out);
    fputc('\n', s->out);
    hangup_flush(s->out);
}

static void say(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Session *s, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&s->lock);
    write_line_locked(s, line);
    pthread_mutex_unlock(&s->lock);
}

static void say_error(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_error(Session *s, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    say(s, "info string error: %s", msg);
}

/* Prints a bestmove line and ends the search, under the lock. */
static void finish_locked(Session *s, Move best, Move ponder)
{
    char line[64];
    report_bestmove_line(best, ponder, s->style.proto, line, sizeof line);
    write_line_locked(s, line);
    s->searching = false;
    s->have_pending = false;
    pthread_cond_broadcast(&s->idle);
}

/* ---- Search callbacks (on a search thread) ---- */

/* Reports that come while no search of ours runs are dropped: only a search started by `go` may speak. */
static void on_info(const SearchInfo *info, void *ctx)
{
    Session *s = ctx;
    char line[REPORT_LINE_SIZE];
    pthread_mutex_lock(&s->lock);
    if (s->searching && !s->have_pending) {
        report_info_line(info, &s->style, line, sizeof line);
        write_line_locked(s, line);
    }
    pthread_mutex_unlock(&s->lock);
}

static void on_bestmove(Move best, Move ponder, void *ctx)
{
    Session *s = ctx;
    pthread_mutex_lock(&s->lock);
    if (!s->searching || s->have_pending) {
        /* not ours: nothing to say */
    } else if (s->hold && !s->stop_requested) {
        s->have_pending = true;
        s->pending_best = best;
        s->pending_ponder = ponder;
    } else {
        finish_locked(s, best, ponder);
    }
    pthread_mutex_unlock(&s->lock);
}

/* ---- Search state ---- */

/* Asks a running search to end; a held bestmove is printed at once. */
static void request_stop(Session *s)
{
    pthread_mutex_lock(&s->lock);
    bool searching = s->searching;
    if (searching) {
        s->stop_requested = true;
        s->hold = false;
        if (s->have_pending)
            finish_locked(s, s->pending_best, s->pending_ponder);
    }
    pthread_mutex_unlock(&s->lock);
    if (searching)
        search_stop();
}

static void wait_until_idle(Session *s)
{
    pthread_mutex_lock(&s->lock);
    while (s->searching)
        pthread_cond_wait(&s->idle, &s->lock);
    pthread_mutex_unlock(&s->lock);
    search_wait();
}

/* For commands that need the search idle: waits for a search that was told to stop; refuses (false,
 * with an error) while one runs that was not. */
static bool ensure_idle(Session *s, const char *what)
{
    pthread_mutex_lock(&s->lock);
    bool busy = s->searching, stopping = s->stop_requested;
    pthread_mutex_unlock(&s->lock);
    if (busy && !stopping) {
        say_error(s, "%s needs the engine idle but a search is running; send stop first", what);
        return false;
    }
    wait_until_idle(s);
    return true;
}

/* ---- Commands ---- */

static void reset_game(Session *s)
{
    Game *g = game(s);
    game_free(g);
    char err[160];
    game_start(g, START_FEN, rules_all[s->opts.value[OPTION_VARIANT]], FEN_STRICT, err, sizeof err);
    s->banned_count = 0;
}

static void cmd_handshake(Session *s, Protocol proto)
{
    s->proto = proto;
    /* As in FSF, a handshake sets the variant to the protocol's default and reloads the start. */
    s->opts.value[OPTION_VARIANT] = option_defs[OPTION_VARIANT].def;
    reset_game(s);
    pthread_mutex_lock(&s->lock);
    fprintf(s->out, "id name Janggun %s\nid author %s\n\n", janggun_version, JANGGUN_AUTHOR);
    options_print(proto, s->out);
    fputs(proto == PROTO_UCI ? "uciok\n" : "ucciok\n", s->out);
    hangup_flush(s->out);
    pthread_mutex_unlock(&s->lock);
}

static void cmd_setoption(Session *s, const SetOptionCommand *so)
{
    char q[64];
    int id = options_find(so->name);
    if (id < 0) {
        span_quote(so->name, q, sizeof q, 40);
        say_error(s, "unknown option '%s'", q);
        return;
    }
    const OptionDef *def = &option_defs[id];
    long long v = 0;
    char err[OPTION_TEXT_SIZE + 400];
    static char text[OPTION_TEXT_SIZE];
    bool ok = def->type == OPTION_STRING
                  ? options_parse_text((OptionId)id, so->value, so->has_value, text, err, sizeof err)
                  : options_parse_value((OptionId)id, so->value, so->has_value, &v, err, sizeof err);
    if (!ok) {
        say_error(s, "%s", err);
        return;
    }
    if (def->needs_idle) {
        char what[64];
        snprintf(what, sizeof what, "setting %s", def->name);
        if (!ensure_idle(s, what))
            return;
    }
    switch ((OptionId)id) {
    case OPTION_THREADS:
        if (!search_set_threads((int)protocol_cap(v, protocol_caps.threads))) {
            say_error(s, "could not start %lld threads", v);
            return;
        }
        break;
    case OPTION_HASH:
        if (!search_set_hash((size_t)protocol_cap(v, protocol_caps.hash_mb))) {
            say_error(s, "could not allocate %lld MB for the hash table; it keeps %lld MB", v,
                      s->opts.value[OPTION_HASH]);
            return;
        }
        break;
    case OPTION_CLEAR_HASH: search_clear(); return;
    case OPTION_USE_NNUE: eval_set_use_nnue(v != 0); break;
    case OPTION_EVAL_FILE:
        if (!eval_load_net(text, err, sizeof err)) {
            say_error(s, "option EvalFile: %s; the net stays %s", err, eval_net_name());
            return;
        }
        snprintf(s->opts.eval_file, sizeof s->opts.eval_file, "%s", text);
        say(s, "info string EvalFile: using the net %s", eval_net_description());
        return;
    case OPTION_VARIANT: {
        s->opts.value[id] = v;
        reset_game(s);
        say(s, "info string variant %s files 9 ranks 10 pocket 0 template janggi startpos %s", rules_all[v]->name,
            START_FEN);
        return;
    }
    default: break;
    }
    s->opts.value[id] = v;
}

/* Plays the move list on `g`; on the first bad move says which and stops there. */
static void play_moves(Session *s, Game *g, const TokenList *moves)
{
    if (moves->all.len == 0)
        return; /* (no text at all: NULL) */
    const char *p = moves->all.text, *end = moves->all.text + moves->all.len;
    Span tok;
    for (int ply = 1; span_next_token(&p, end, &tok); ply++) {
        char text[16], q[64];
        MoveParseResult r = MOVE_PARSE_SYNTAX;
        if (tok.len < sizeof text) {
            memcpy(text, tok.text, tok.len);
            text[tok.len] = '\0';
            r = game_play_text(g, text, rank_base(s));
        }
        if (r == MOVE_PARSE_OK)
            continue;
        span_quote(tok, q, sizeof q, 40);
        GameStatus st = game_status(g);
        if (st.immediate && r == MOVE_PARSE_ILLEGAL)
            say_error(s, "illegal move '%s' at ply %d: the game is over (%s); the moves from there on are ignored", q,
                      ply, end_reason_name(st.reason));
        else
            say_error(s, "%s move '%s' at ply %d; the moves from there on are ignored",
                      r == MOVE_PARSE_ILLEGAL ? "illegal" : "unparsable", q, ply);
        return;
    }
}

static void cmd_position(Session *s, const PositionCommand *pc)
{
    char fen[FEN_TEXT_MAX + 1];
    if (pc->startpos) {
        strcpy(fen, START_FEN);
    } else if (pc->fen.len > FEN_TEXT_MAX) {
        say_error(s, "bad FEN: longer than %d characters; position unchanged", FEN_TEXT_MAX);
        return;
    } else {
        memcpy(fen, pc->fen.text, pc->fen.len);
        fen[pc->fen.len] = '\0';
    }
    Game *next = &s->games[1 - s->current];
    game_free(next);
    char err[160];
    if (!game_start(next, fen, rules_all[s->opts.value[OPTION_VARIANT]], FEN_ALLOW_EXTRA_PIECES, err, sizeof err)) {
        say_error(s, "bad FEN: %s; position unchanged", err);
        return;
    }
    play_moves(s, next, &pc->moves);
    s->current = 1 - s->current;
    game_free(&s->games[1 - s->current]);
    s->banned_count = 0;
}

/* Reads a list of moves into `out` (no duplicates); says which ones are not legal here. */
static int read_move_list(Session *s, const TokenList *list, const char *what, Move *out, int count)
{
    if (list->all.len == 0)
        return count;
    const char *p = list->all.text, *end = list->all.text + list->all.len;
    Span tok;
    while (span_next_token(&p, end, &tok)) {
        char text[16], q[64];
        Move m = MOVE_NONE;
        MoveParseResult r = MOVE_PARSE_SYNTAX;
        if (tok.len < sizeof text) {
            memcpy(text, tok.text, tok.len);
            text[tok.len] = '\0';
            r = move_parse(&game(s)->pos, text, rank_base(s), &m);
        }
        if (r != MOVE_PARSE_OK) {
            span_quote(tok, q, sizeof q, 40);
            say_error(s, "%s: %s move '%s' ignored", what, r == MOVE_PARSE_ILLEGAL ? "illegal" : "unparsable", q);
            continue;
        }
        bool seen = false;
        for (int i = 0; i < count; i++)
            seen |= out[i] == m;
        if (!seen && count < MAX_MOVES)
            out[count++] = m;
    }
    return count;
}

static void cmd_banmoves(Session *s, const TokenList *list)
{
    s->banned_count = read_move_list(s, list, "banmoves", s->banned, s->banned_count);
}

static const char *side_name(Color c) { return c == WHITE ? "Cho" : "Han"; }

/* Fills the time control from the go command for the side to move. */
static void fill_clock(Session *s, const GoCommand *go, SearchLimits *limits)
{
    Color us = game(s)->pos.side;
    int64_t scale = s->opts.value[OPTION_USEMILLISEC] ? 1 : 1000;
    const int own_time = us == WHITE ? CLOCK_WTIME : CLOCK_BTIME, own_inc = us == WHITE ? CLOCK_WINC : CLOCK_BINC;
    TimeControl *tc = &limits->clock;
    bool has_time = go->has_clock[CLOCK_TIME] || go->has_clock[own_time];
    int64_t time = go->has_clock[CLOCK_TIME] ? go->clock[CLOCK_TIME] * scale : go->clock[own_time];
    tc->time_left_ms = !has_time ? -1 : time < 0 ? 0 : time; /* a clock past zero: move at once */
    tc->increment_ms = go->has_clock[CLOCK_INC] ? go->clock[CLOCK_INC] * scale
                       : go->has_clock[own_inc] ? go->clock[own_inc]
                                                : 0;
    tc->moves_to_go = go->movestogo;
    tc->movetime_ms = go->movetime;
    tc->overhead_ms = s->opts.value[OPTION_MOVE_OVERHEAD];
    tc->game_ply = game(s)->length;
    limits->use_clock = tc->time_left_ms >= 0 || tc->movetime_ms > 0;

    bool other_clock = go->has_clock[CLOCK_OPPTIME] || go->has_clock[us == WHITE ? CLOCK_BTIME : CLOCK_WTIME];
    if (tc->time_left_ms < 0 && other_clock)
        say_error(s, "go: a clock was given only for %s, not for %s to move; searching without a clock",
                  side_name(color_flip(us)), side_name(us));
}

/* A go that comes while a search runs stops that search, which answers first: every go gets exactly one
 * bestmove, in order, and the loop never waits on a search that only a stop can end. */
static void stop_for_go(Session *s)
{
    pthread_mutex_lock(&s->lock);
    bool running = s->searching && !s->stop_requested;
    pthread_mutex_unlock(&s->lock);
    if (running)
        say(s, "info string go while a search runs: that search is stopped and answers first");
    request_stop(s);
    wait_until_idle(s);
}

static void cmd_go(Session *s, const GoCommand *go)
{
    stop_for_go(s);
    Game *g = game(s);
    static SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.depth = go->depth;
    limits.nodes = go->nodes;
    limits.mate = go->mate;
    limits.infinite = go->infinite;
    limits.ponder = go->ponder;
    fill_clock(s, go, &limits);

    MoveList legal;
    movegen_legal(&g->pos, &legal);
    Move root[MAX_MOVES];
    int root_count = 0;
    bool restricted = false;
    if (go->has_searchmoves && go->searchmoves.count > 0) {
        root_count = read_move_list(s, &go->searchmoves, "go searchmoves", root, 0);
        restricted = root_count > 0;
        if (!restricted)
            say_error(s, "go: no legal move among searchmoves; searching all moves");
    }
    if (!restricted) {
        memcpy(root, legal.moves, (size_t)legal.count * sizeof root[0]);
        root_count = legal.count;
    }
    if (s->banned_count > 0 && root_count > 0) {
        Move kept[MAX_MOVES];
        int kept_count = 0;
        for (int i = 0; i < root_count; i++) {
            bool banned = false;
            for (int k = 0; k < s->banned_count; k++)
                banned |= s->banned[k] == root[i];
            if (!banned)
                kept[kept_count++] = root[i];
        }
        if (kept_count == 0) {
            say_error(s, "go: every move is banned; banmoves ignored");
        } else {
            memcpy(root, kept, (size_t)kept_count * sizeof root[0]);
            root_count = kept_count;
            restricted = true;
        }
    }
    if (restricted) {
        memcpy(limits.searchmoves, root, (size_t)root_count * sizeof root[0]);
        limits.searchmove_count = root_count;
    }
    limits.multipv = (int)s->opts.value[OPTION_MULTIPV];
    if (limits.multipv > root_count && root_count > 0)
        limits.multipv = root_count;
    options_strength_limits(&s->opts, &limits);
    options_apply_caps(&limits);

    pthread_mutex_lock(&s->lock);
    int game_ply = 2 * (g->pos.fullmove - 1) + (g->pos.side == BLACK);
    s->style = (ReportStyle){s->proto, s->opts.value[OPTION_SHOW_WDL] != 0, game_ply};
    s->searching = true;
    s->stop_requested = false;
    s->pondering = go->ponder;
    s->infinite = go->infinite;
    s->hold = go->ponder || go->infinite;
    s->have_pending = false;
    pthread_mutex_unlock(&s->lock);

    /* A finished game (no legal moves): answered at once, as FSF does. */
    GameStatus status = game_status(g);
    if (status.immediate || legal.count == 0) {
        say(s, "info depth 0 score %s", status.result != GAME_DRAW ? "mate 0" : s->proto == PROTO_UCI ? "cp 0" : "0");
        on_bestmove(MOVE_NONE, MOVE_NONE, s);
        return;
    }
    SearchReport report = {on_info, on_bestmove, s};
    search_start(g, &limits, &report);
}

static void cmd_perft(Session *s, int depth)
{
    if (!ensure_idle(s, "go perft"))
        return;
    MoveList root;
    static uint64_t counts[MAX_MOVES];
    uint64_t total = perft_divide(&game(s)->pos, (int)protocol_cap(depth, protocol_caps.depth), &root, counts);
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < root.count; i++) {
        char text[MOVE_TEXT_SIZE];
        move_to_text(root.moves[i], rank_base(s), text);
        fprintf(s->out, "%s: %" PRIu64 "\n", text, counts[i]);
    }
    fprintf(s->out, "\nNodes searched: %" PRIu64 "\n\n", total);
    hangup_flush(s->out);
    pthread_mutex_unlock(&s->lock);
}

static void cmd_ponderhit(Session *s)
{
    pthread_mutex_lock(&s->lock);
    bool pondering = s->searching && s->pondering;
    if (pondering) {
        s->pondering = false;
        s->hold = s->infinite;
        if (s->have_pending && !s->hold)
            finish_locked(s, s->pending_best, s->pending_ponder);
    }
    pthread_mutex_unlock(&s->lock);
    if (pondering)
        search_ponderhit();
    else
        say_error(s, "ponderhit without a ponder search; ignored");
}

static void print_block(Session *s, const char *text)
{
    pthread_mutex_lock(&s->lock);
    fputs(text, s->out);
    hangup_flush(s->out);
    pthread_mutex_unlock(&s->lock);
}

static void cmd_bench(Session *s, int depth)
{
    if (!ensure_idle(s, "bench"))
        return;
    char text[256];
    if (protocol_caps.depth > 0 && (depth <= 0 || depth > protocol_caps.depth))
        depth = (int)protocol_caps.depth;
    cli_bench_text(depth, text, sizeof text);
    print_block(s, text);
}

/* Runs one command; false after quit. */
static bool execute(Session *s, const Command *cmd)
{
    switch (cmd->kind) {
    case CMD_NONE:
    case CMD_ERROR: break;
    case CMD_UCI: cmd_handshake(s, PROTO_UCI); break;
    case CMD_UCCI: cmd_handshake(s, PROTO_UCCI); break;
    case CMD_XBOARD: break; /* uci_loop hands the input to xboard_loop */
    case CMD_ISREADY: say(s, "readyok"); break;
    case CMD_SETOPTION: cmd_setoption(s, &cmd->u.setoption); break;
    case CMD_NEWGAME:
        if (ensure_idle(s, "ucinewgame"))
            search_clear();
        break;
    case CMD_POSITION: cmd_position(s, &cmd->u.position); break;
    case CMD_BANMOVES: cmd_banmoves(s, &cmd->u.banmoves); break;
    case CMD_GO: cmd_go(s, &cmd->u.go); break;
    case CMD_PERFT: cmd_perft(s, cmd->u.perft_depth); break;
    case CMD_STOP:
        request_stop(s); /* a stop with no search is a harmless race; nothing is said */
        break;
    case CMD_PONDERHIT: cmd_ponderhit(s); break;
    case CMD_QUIT: return false;
    case CMD_DISPLAY: {
        char text[BOARD_TEXT_SIZE];
        report_board(&game(s)->pos, s->proto, text, sizeof text);
        print_block(s, text);
        break;
    }
    case CMD_EVAL: {
        static char text[EVAL_TRACE_SIZE];
        eval_trace(&game(s)->pos, text, sizeof text);
        print_block(s, text);
        break;
    }
    case CMD_BENCH: cmd_bench(s, cmd->u.bench_depth); break;
    }
    return true;
}

int uci_loop(int in_fd, FILE *out)
{
    static Session session;
    Session *s = &session;
    memset(s, 0, sizeof *s);
    s->out = out;
    s->proto = PROTO_UCI;
    options_reset(&s->opts);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->idle, NULL);
    reset_game(s);

    LineReader *in = malloc(sizeof *in);
    if (!in || !input_open(in, in_fd)) {
        fputs("info string error: out of memory\n", out);
        free(in);
        return 1;
    }
    say(s, "Janggun %s by %s", janggun_version, JANGGUN_AUTHOR);

    bool quit = false;
    for (;;) {
        char *line;
        size_t len;
        LineStatus st = input_read_line(in, &line, &len);
        if (st == LINE_EOF)
            break;
        if (st == LINE_TOO_LONG) {
            say_error(s, "input line longer than %d bytes; ignored", INPUT_LINE_MAX);
            continue;
        }
        const char *problem = input_line_problem(line, len);
        if (problem) {
            say_error(s, "%s; ignored", problem);
            continue;
        }
        static Command cmd;
        command_parse(line, s->proto, &cmd);
        if (cmd.message[0])
            say_error(s, "%s", cmd.message);
        if (cmd.kind == CMD_XBOARD) {
            /* CECP from here on, until quit, the end of input or a uci/ucci handshake (as FSF). */
            request_stop(s);
            wait_until_idle(s);
            XBoardExit how = xboard_loop(in, s->out, &s->opts);
            if (how == XBOARD_QUIT || how == XBOARD_EOF)
                break;
            cmd_handshake(s, how == XBOARD_TO_UCI ? PROTO_UCI : PROTO_UCCI);
            continue;
        }
        if (!execute(s, &cmd)) {
            quit = true;
            break;
        }
    }

    /* quit, or the end of input: stop any search and let it print its bestmove. */
    request_stop(s);
    wait_until_idle(s);
    if (quit && s->proto == PROTO_UCCI)
        say(s, "bye");
    input_close(in);
    free(in);
    game_free(&s->games[0]);
    game_free(&s->games[1]);
    return 0;
}

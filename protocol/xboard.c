#include "xboard.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/base/version.h"
#include "../engine/movegen.h"
#include "../engine/perft.h"
#include "../eval/eval.h"
#include "../search/search.h"
#include "command.h"
#include "hangup.h"
#include "report.h"

enum {
    NO_COLOR = -1,        /* play_color in force mode */
    FEN_TEXT_MAX = 256,   /* longer setboard FENs are refused */
    QUOTE_CHARS = 80,     /* how much of a bad line an error repeats */
    DRAW_ACCEPT_CP = 200, /* a draw offer is accepted when the engine's last score is this far behind */
    EVAL_TRACE_SIZE = 16384,
    BOARD_TEXT_SIZE = 2048,
};

/* How `variant` describes the board: FSF 11.1's xiangqi parent with `piece` commands, which every
 * XBoard and WinBoard understands (Debian's XBoard 4.9.1 has no Janggi of its own), or the latest
 * FSF's line for GUIs with a built-in Janggi. Chosen by the XBoard-only option below. */
typedef enum { SETUP_XIANGQI, SETUP_JANGGI } SetupForm;
static const char *const SETUP_OPTION = "XBoard Setup";
static const char *const setup_form_names[2] = {"xiangqi", "janggi"};

typedef enum { SEARCH_NONE, SEARCH_PLAY, SEARCH_PONDER, SEARCH_ANALYZE } SearchKind;

typedef struct {
    FILE *out;
    EngineOptions *opts;
    Game games[2]; /* the game and a spare to build a new one in (a Game cannot be copied) */
    int current;
    int play_color; /* the side the engine plays, or NO_COLOR (force mode) */
    bool analyzing, post;
    SetupForm setup_form;

    XBoardClock clock;
    int depth_limit; /* `sd`, on top of the clock; 0 = none */

    Move predicted;   /* the reply the engine's last search expected: pondered on, given as a hint */
    Move ponder_move; /* the move a ponder search assumes */
    bool have_score;  /* the engine's view of its last move, for draw offers */
    int score_cp;

    int wake[2]; /* a play search's result wakes the reading thread through this pipe */

    /* Shared with the search's report callbacks (search threads), under `lock`, which also orders
     * every line of output. */
    pthread_mutex_t lock;
    SearchKind kind; /* of the running search; SEARCH_NONE once it ended or was abandoned */
    bool result_ready;
    Move result_best, result_ponder;
    bool have_last;
    SearchInfo last; /* the running search's last principal variation (multipv 1) */
} XBoard;

static Game *game(XBoard *xb) { return &xb->games[xb->current]; }

/* ---- Output ---- */

static void say(XBoard *xb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(XBoard *xb, const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&xb->lock);
    fputs(line, xb->out);
    fputc('\n', xb->out);
    hangup_flush(xb->out);
    pthread_mutex_unlock(&xb->lock);
}

static void print_block(XBoard *xb, const char *text)
{
    pthread_mutex_lock(&xb->lock);
    fputs(text, xb->out);
    hangup_flush(xb->out);
    pthread_mutex_unlock(&xb->lock);
}

/* CECP's error line, `Error (<reason>): <command>`, repeating the line as it came (quoted). */
static void say_error(XBoard *xb, const char *line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say_error(XBoard *xb, const char *line, const char *fmt, ...)
{
    char reason[400], q[QUOTE_CHARS * 4 + 8];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    span_quote((Span){line, strlen(line)}, q, sizeof q, QUOTE_CHARS);
    say(xb, "Error (%s): %s", reason, q);
}

static void say_illegal(XBoard *xb, Span move)
{
    char q[QUOTE_CHARS * 4 + 8];
    span_quote(move, q, sizeof q, QUOTE_CHARS);
    say(xb, "Illegal move: %s", q);
}

/* ---- Search callbacks (on a search thread) ---- */

static void on_info(const SearchInfo *info, void *ctx)
{
    XBoard *xb = ctx;
    pthread_mutex_lock(&xb->lock);
    if (xb->kind != SEARCH_NONE) {
        if (info->multipv == 1) {
            xb->last = *info;
            xb->have_last = true;
        }
        if (xb->post) {
            char line[REPORT_LINE_SIZE];
            report_xboard_thinking(info, line, sizeof line);
            fputs(line, xb->out);
            fputc('\n', xb->out);
            hangup_flush(xb->out);
        }
    }
    pthread_mutex_unlock(&xb->lock);
}

/* Only a play search's move matters; the reading thread plays it (it owns the game), woken here. */
static void on_bestmove(Move best, Move ponder, void *ctx)
{
    XBoard *xb = ctx;
    pthread_mutex_lock(&xb->lock);
    if (xb->kind == SEARCH_PLAY) {
        xb->result_ready = true;
        xb->result_best = best;
        xb->result_ponder = ponder;
        char byte = 1;
        while (write(xb->wake[1], &byte, 1) < 0 && errno == EINTR) {
        }
    }
    xb->kind = SEARCH_NONE;
    pthread_mutex_unlock(&xb->lock);
}

/* ---- Game ends ---- */

/* `1-0 {...}`, `0-1 {...}` or `1/2-1/2 {...}` with the referee's reason; false while the game goes on. */
static bool claim_if_over(XBoard *xb)
{
    GameStatus st = game_status(game(xb));
    if (st.result == GAME_ONGOING)
        return false;
    char why[400];
    game_end_text(game(xb), &st, why, sizeof why);
    say(xb, "%s {%s}", game_result_name(st.result), why);
    return true;
}

/* ---- Searches ---- */

static SearchLimits play_limits(XBoard *xb, bool ponder)
{
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    const Position *pos = &game(xb)->pos;
    limits.depth = xb->depth_limit;
    limits.ponder = ponder;
    limits.multipv = 1;
    limits.clock = xboard_time_control(&xb->clock, pos->fullmove);
    TimeControl *tc = &limits.clock;
    tc->overhead_ms = xb->opts->value[OPTION_MOVE_OVERHEAD];
    tc->game_ply = game(xb)->length;
    limits.use_clock = true;
    options_strength_limits(xb->opts, &limits); /* the engine's own moves only: analysis is at full strength */
    return limits;
}

static void launch(XBoard *xb, SearchKind kind, const Game *g, const SearchLimits *limits)
{
    pthread_mutex_lock(&xb->lock);
    xb->kind = kind;
    xb->result_ready = false;
    xb->have_last = false;
    pthread_mutex_unlock(&xb->lock);
    SearchReport report = {on_info, on_bestmove, xb};
    SearchLimits capped = *limits;
    options_apply_caps(&capped);
    search_start(g, &capped, &report);
}

/* The engine is to move: claims a finished game, otherwise thinks. */
static void start_play(XBoard *xb)
{
    if (claim_if_over(xb))
        return;
    SearchLimits limits = play_limits(xb, false);
    launch(xb, SEARCH_PLAY, game(xb), &limits);
}

static void start_analysis(XBoard *xb)
{
    Game *g = game(xb);
    Verdict v;
    if (referee_immediate_end(&g->pos, &v)) {
        /* Nothing to search (no legal move): one line with the verdict, as FSF's `info depth 0`. */
        if (xb->post)
            say(xb, "0 %d 0 0 0 0 0\t", v.outcome == OUTCOME_WIN ? 100000 : v.outcome == OUTCOME_LOSS ? -100000 : 0);
        return;
    }
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.infinite = true;
    limits.multipv = (int)xb->opts->value[OPTION_MULTIPV];
    int legal = movegen_count_legal(&g->pos);
    if (limits.multipv > legal)
        limits.multipv = legal;
    launch(xb, SEARCH_ANALYZE, g, &limits);
}

/* After the engine's move: ponders on the expected reply when pondering is on. */
static void start_ponder(XBoard *xb)
{
    Game *g = game(xb);
    if (!xb->opts->value[OPTION_PONDER] || xb->play_color == NO_COLOR || xb->analyzing || xb->predicted == MOVE_NONE
        || !game_play(g, xb->predicted))
        return;
    GameStatus st = game_status(g);
    if (st.result == GAME_ONGOING) {
        SearchLimits limits = play_limits(xb, true);
        xb->ponder_move = xb->predicted;
        launch(xb, SEARCH_PONDER, g, &limits); /* the search copies the game, ponder move included */
    }
    game_undo(g);
}

/* Plays the move a finished play search chose, if one is waiting: `move <m>`, then the claim when
 * it ended the game, else pondering. */
static void take_result(XBoard *xb)
{
    pthread_mutex_lock(&xb->lock);
    bool ready = xb->result_ready;
    Move best = xb->result_best, ponder = xb->result_ponder;
    bool have_score = xb->have_last;
    SearchInfo last = xb->last;
    xb->result_ready = false;
    pthread_mutex_unlock(&xb->lock);
    if (!ready)
        return;
    search_wait(); /* the search's threads are done with it before the next one starts */
    if (best == MOVE_NONE || !game_play(game(xb), best)) {
        claim_if_over(xb); /* cannot happen: finished games are claimed before searching */
        return;
    }
    char text[MOVE_TEXT_SIZE];
    report_xboard_move(best, text);
    say(xb, "move %s", text);
    xb->have_score = have_score;
    xb->score_cp = last.is_mate ? (last.mate_moves > 0 ? 100000 : -100000) : last.score;
    xb->predicted = ponder;
    if (!claim_if_over(xb))
        start_ponder(xb);
}

/* Ends the running search. `abandon`: its move (if it was the engine's turn) is not played; otherwise
 * a play search's move is played, as when the GUI interrupts with a move of its own. */
static void stop_search(XBoard *xb, bool abandon)
{
    pthread_mutex_lock(&xb->lock);
    if (abandon)
        xb->kind = SEARCH_NONE;
    pthread_mutex_unlock(&xb->lock);
    search_stop();
    search_wait();
    if (abandon) {
        pthread_mutex_lock(&xb->lock);
        xb->result_ready = false;
        pthread_mutex_unlock(&xb->lock);
    }
    take_result(xb);
}

static SearchKind running_kind(XBoard *xb)
{
    pthread_mutex_lock(&xb->lock);
    SearchKind k = xb->kind;
    pthread_mutex_unlock(&xb->lock);
    return k;
}

/* After the position changed: analysis goes on in the new one; the engine moves when it is its turn. */
static void resume(XBoard *xb)
{
    if (xb->analyzing)
        start_analysis(xb);
    else if ((int)game(xb)->pos.side == xb->play_color)
        start_play(xb);
}

/* ---- Positions ---- */

static void reset_game(XBoard *xb)
{
    Game *g = game(xb);
    game_free(g);
    char err[160];
    game_start(g, START_FEN, rules_all[xb->opts->value[OPTION_VARIANT]], FEN_STRICT, err, sizeof err);
    xb->predicted = MOVE_NONE;
}

static void print_setup(XBoard *xb)
{
    if (xb->setup_form == SETUP_JANGGI) {
        say(xb, "setup (PH.R.AE..K.C.ph.r.ae..k.c.) 9x10+0_janggi "
                "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1");
        return;
    }
    /* The pieces' moves in Betza notation, with the palace diagonals (B, pB, F, fF), as FSF 11.1. */
    print_block(xb, "setup (.N.R.AB.P..C.........K.n.r.ab.p..c.........k) 9x10+0_xiangqi "
                    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\n"
                    "piece R& RB\npiece C& pRpB\npiece P& fsWfF\npiece N& nN\npiece B& mafsmafW\n"
                    "piece A& WF\npiece K& WF\n");
}

/* XBoard writes FENs without the castling and en-passant fields ("... w 0 1"); they are put back. */
static void normalise_fen(const char *in, char *out, size_t size)
{
    Span tok[8];
    int n = 0;
    const char *p = in, *end = in + strlen(in);
    while (n < 8 && span_next_token(&p, end, &tok[n]))
        n++;
    bool counters_third = n >= 3 && n <= 4 && tok[2].text[0] >= '0' && tok[2].text[0] <= '9';
    if (!counters_third) {
        snprintf(out, size, "%s", in);
        return;
    }
    snprintf(out, size, "%.*s %.*s - - %.*s%s%.*s", (int)tok[0].len, tok[0].text, (int)tok[1].len, tok[1].text,
             (int)tok[2].len, tok[2].text, n == 4 ? " " : "", n == 4 ? (int)tok[3].len : 0, n == 4 ? tok[3].text : "");
}

/* The board and the side to move of a FEN, the part a position's identity rests on. */
static void fen_board_and_side(const Position *pos, char *buf, size_t size)
{
    position_to_fen(pos, buf, size);
    char *space = strchr(buf, ' ');
    if (space && (space = strchr(space + 1, ' ')))
        *space = '\0';
}

/* ---- Numbers ---- */

/* The next token of `rest`, which moves past it. */
static bool next_token(Span *rest, Span *tok)
{
    const char *p = rest->text, *end = rest->text + rest->len;
    bool got = span_next_token(&p, end, tok);
    rest->len = (size_t)(end - p);
    rest->text = p;
    return got;
}

/* A non-negative decimal number of `unit` milliseconds ("5", "0.1", "2.75"), up to 3 decimals'
 * worth of milliseconds and at most a million units. */
static bool parse_decimal_ms(const char *s, size_t len, int64_t unit, int64_t *out)
{
    int64_t whole = 0, frac = 0, scale = 1;
    size_t i = 0;
    bool digits = false;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits = true)
        if ((whole = whole * 10 + (s[i] - '0')) > 1000000)
            return false;
    if (i < len && s[i] == '.')
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits = true)
            if (scale < 1000) {
                frac = frac * 10 + (s[i] - '0');
                scale *= 10;
            }
    if (i != len || !digits)
        return false;
    *out = whole * unit + frac * unit / scale;
    return true;
}

bool xboard_parse_seconds(const char *text, size_t len, int64_t *ms) { return parse_decimal_ms(text, len, 1000, ms); }

bool xboard_parse_level(const char *args, XBoardClock *clock)
{
    Span rest = {args, strlen(args)}, t[4];
    int n = 0;
    while (n < 4 && next_token(&rest, &t[n]))
        n++;
    int64_t mps, base = 0, inc, seconds_ms = 0;
    bool ok = n == 3 && span_parse_int(t[0], 0, 100000, &mps);
    if (ok) {
        const char *colon = memchr(t[1].text, ':', t[1].len);
        if (colon) {
            int64_t minutes = 0;
            ok = span_parse_int((Span){t[1].text, (size_t)(colon - t[1].text)}, 0, 100000, &minutes)
                 && parse_decimal_ms(colon + 1, (size_t)(t[1].text + t[1].len - colon - 1), 1000, &seconds_ms)
                 && seconds_ms < 60000;
            base = minutes * 60000 + seconds_ms;
        } else {
            ok = parse_decimal_ms(t[1].text, t[1].len, 60000, &base);
        }
    }
    ok = ok && parse_decimal_ms(t[2].text, t[2].len, 1000, &inc);
    if (!ok || (base == 0 && inc == 0))
        return false;
    clock->moves_per_session = (int)mps;
    clock->base_ms = clock->clock_ms = base;
    clock->increment_ms = inc;
    clock->move_time_ms = 0;
    return true;
}

TimeControl xboard_time_control(const XBoardClock *clock, int fullmove)
{
    TimeControl tc;
    memset(&tc, 0, sizeof tc);
    if (clock->move_time_ms > 0) {
        tc.time_left_ms = -1;
        tc.movetime_ms = clock->move_time_ms;
        return tc;
    }
    tc.time_left_ms = clock->clock_ms;
    tc.increment_ms = clock->increment_ms;
    /* The side to move has made fullmove - 1 moves; the session restarts every MPS of them. */
    if (clock->moves_per_session > 0 && fullmove >= 1)
        tc.moves_to_go = clock->moves_per_session - (fullmove - 1) % clock->moves_per_session;
    return tc;
}

/* ---- Commands ---- */

typedef enum { FLOW_ON, FLOW_QUIT, FLOW_UCI, FLOW_UCCI } Flow;

typedef struct {
    const char *line; /* the whole line, for errors */
    Span word;        /* the command word */
    Span args;        /* the rest, blanks trimmed (len 0 when none) */
} Line;

/* The arguments as numbers: exactly `count` tokens that parse, or an error. */
static bool int_args(XBoard *xb, const Line *l, int64_t min, int64_t max, int64_t *out, const char *what)
{
    Span rest = l->args, tok, extra;
    if (!next_token(&rest, &tok) || next_token(&rest, &extra) || !span_parse_int(tok, min, max, out)) {
        say_error(xb, l->line, "%.*s needs %s from %" PRId64 " to %" PRId64, (int)l->word.len, l->word.text, what, min,
                  max);
        return false;
    }
    return true;
}

static bool no_args(XBoard *xb, const Line *l)
{
    if (l->args.len == 0)
        return true;
    say_error(xb, l->line, "%.*s takes no arguments", (int)l->word.len, l->word.text);
    return false;
}

static void cmd_protover(XBoard *xb)
{
    pthread_mutex_lock(&xb->lock);
    fprintf(xb->out,
            "feature setboard=1 usermove=1 time=1 memory=1 smp=1 ping=1 colors=0 sigint=0 sigterm=0 "
            "myname=\"Janggun %s\" variants=\"janggi,janggicasual,janggimodern,janggitraditional\"\n",
            janggun_version);
    options_print_xboard(xb->out);
    fprintf(xb->out, "feature option=\"%s -combo *%s /// %s\"\n", SETUP_OPTION, setup_form_names[SETUP_XIANGQI],
            setup_form_names[SETUP_JANGGI]);
    fputs("feature done=1\n", xb->out);
    hangup_flush(xb->out);
    pthread_mutex_unlock(&xb->lock);
}

static void cmd_new(XBoard *xb)
{
    stop_search(xb, true);
    search_clear();
    reset_game(xb);
    xb->play_color = BLACK; /* CECP: White moves first, the engine plays Black */
    xb->depth_limit = 0;
    xb->clock.clock_ms = xb->clock.base_ms;
    xb->have_score = false;
    if (xb->analyzing)
        start_analysis(xb);
}

static void cmd_variant(XBoard *xb, const Line *l)
{
    Span rest = l->args, name, extra;
    if (!next_token(&rest, &name) || next_token(&rest, &extra)) {
        say_error(xb, l->line, "variant needs one name: janggi, janggicasual, janggimodern or janggitraditional");
        return;
    }
    int id = -1;
    for (int k = 0; k < 4; k++)
        if (span_equals(name, rules_all[k]->name))
            id = k;
    if (id < 0) {
        say_error(xb, l->line, "unsupported variant; janggi, janggicasual, janggimodern or janggitraditional");
        return;
    }
    stop_search(xb, true);
    xb->opts->value[OPTION_VARIANT] = id;
    reset_game(xb);
    print_setup(xb);
    if (xb->analyzing)
        start_analysis(xb);
}

/* A move from the GUI: `usermove M` (`explicit`) or a bare move. */
static void cmd_move(XBoard *xb, Span tok, bool explicit, const char *line)
{
    char text[16];
    MoveParseResult r = MOVE_PARSE_SYNTAX;
    Move m = MOVE_NONE;
    if (tok.len < sizeof text) {
        memcpy(text, tok.text, tok.len);
        text[tok.len] = '\0';
        r = move_parse(&game(xb)->pos, text, RANKS_FROM_0, &m);
    }
    if (r == MOVE_PARSE_SYNTAX && !explicit) {
        say_error(xb, line, "unknown command");
        return;
    }
    /* The pondered move: the ponder search becomes the search for the engine's move. */
    if (r == MOVE_PARSE_OK && running_kind(xb) == SEARCH_PONDER && m == xb->ponder_move) {
        pthread_mutex_lock(&xb->lock);
        bool still = xb->kind == SEARCH_PONDER;
        if (still)
            xb->kind = SEARCH_PLAY;
        pthread_mutex_unlock(&xb->lock);
        if (still && game_play(game(xb), m)) {
            search_ponderhit();
            return;
        }
    }
    /* A move while the engine thinks on its own turn: it plays what it has first (as FSF does). */
    stop_search(xb, running_kind(xb) != SEARCH_PLAY);
    if (r != MOVE_PARSE_SYNTAX)
        r = move_parse(&game(xb)->pos, text, RANKS_FROM_0, &m); /* the position may have moved on */
    if (r != MOVE_PARSE_OK || !game_play(game(xb), m)) {
        say_illegal(xb, tok);
        if (xb->analyzing)
            start_analysis(xb);
        return;
    }
    resume(xb);
}

static void cmd_setboard(XBoard *xb, const Line *l)
{
    if (l->args.len == 0) {
        say_error(xb, l->line, "setboard needs a FEN");
        return;
    }
    if (l->args.len > FEN_TEXT_MAX) {
        say_error(xb, l->line, "bad FEN: longer than %d characters; position unchanged", FEN_TEXT_MAX);
        return;
    }
    char raw[FEN_TEXT_MAX + 1], fen[FEN_TEXT_MAX + 16], err[160];
    memcpy(raw, l->args.text, l->args.len);
    raw[l->args.len] = '\0';
    normalise_fen(raw, fen, sizeof fen);
    Game *next = &xb->games[1 - xb->current];
    game_free(next);
    if (!game_start(next, fen, rules_all[xb->opts->value[OPTION_VARIANT]], FEN_ALLOW_EXTRA_PIECES, err, sizeof err)) {
        say_error(xb, l->line, "bad FEN: %s; position unchanged", err);
        return;
    }
    stop_search(xb, true);
    /* XBoard may send a pass as the position after it: when passing leads to the FEN's board and side
     * to move, the pass is played and the game's history kept (FSF does the same). */
    Game *g = game(xb);
    Move pass;
    char now[FEN_TEXT_MAX], want[FEN_TEXT_MAX];
    fen_board_and_side(&next->pos, want, sizeof want);
    if (move_parse(&g->pos, "@@@@", RANKS_FROM_0, &pass) == MOVE_PARSE_OK && game_play(g, pass)) {
        fen_board_and_side(&g->pos, now, sizeof now);
        if (strcmp(now, want) == 0) {
            game_free(next);
            resume(xb);
            return;
        }
        game_undo(g);
    }
    game_free(g);
    xb->current = 1 - xb->current;
    xb->predicted = MOVE_NONE;
    resume(xb);
}

static void cmd_undo(XBoard *xb, const Line *l, int plies)
{
    if (!no_args(xb, l))
        return;
    if (game(xb)->length < plies) {
        say_error(xb, l->line, "%s", plies == 1 ? "no move to take back" : "fewer than two moves to take back");
        return;
    }
    stop_search(xb, true);
    for (int i = 0; i < plies; i++)
        game_undo(game(xb));
    xb->predicted = MOVE_NONE;
    if (xb->analyzing)
        start_analysis(xb);
}

static void cmd_level(XBoard *xb, const Line *l)
{
    char args[200];
    snprintf(args, sizeof args, "%.*s", (int)(l->args.len < 199 ? l->args.len : 199), l->args.text);
    if (l->args.len >= sizeof args || !xboard_parse_level(args, &xb->clock))
        say_error(xb, l->line,
                  "level needs moves per session, base time (minutes or minutes:seconds) and increment "
                  "(seconds), not all zero");
}

static void cmd_st(XBoard *xb, const Line *l)
{
    int64_t ms;
    Span rest = l->args, tok, extra;
    if (!next_token(&rest, &tok) || next_token(&rest, &extra) || !xboard_parse_seconds(tok.text, tok.len, &ms)
        || ms == 0) {
        say_error(xb, l->line, "st needs a number of seconds above 0");
        return;
    }
    xb->clock.move_time_ms = ms;
}

static void cmd_option(XBoard *xb, const Line *l)
{
    const char *eq = memchr(l->args.text, '=', l->args.len);
    Span name = {l->args.text, eq ? (size_t)(eq - l->args.text) : l->args.len};
    Span value = {eq ? eq + 1 : "", eq ? (size_t)(l->args.text + l->args.len - eq - 1) : 0};
    while (name.len > 0 && (name.text[name.len - 1] == ' ' || name.text[name.len - 1] == '\t'))
        name.len--;
    if (name.len == 0) {
        say_error(xb, l->line, "option needs NAME=VALUE");
        return;
    }
    if (span_equals(name, SETUP_OPTION)) {
        for (int k = 0; k < 2; k++)
            if (span_equals(value, setup_form_names[k])) {
                xb->setup_form = (SetupForm)k;
                return;
            }
        say_error(xb, l->line, "option %s must be xiangqi or janggi", SETUP_OPTION);
        return;
    }
    int id = options_find(name);
    if (id < 0) {
        say_error(xb, l->line, "unknown option");
        return;
    }
    const OptionDef *def = &option_defs[id];
    if (def->type == OPTION_CHECK && (span_equals(value, "1") || span_equals(value, "0")))
        value = span_equals(value, "1") ? (Span){"true", 4} : (Span){"false", 5}; /* CECP's check values */
    long long v;
    char err[256];
    if (!options_parse_value((OptionId)id, value, eq != NULL, &v, err, sizeof err)) {
        say_error(xb, l->line, "%s", err);
        return;
    }
    if (def->needs_idle || id == OPTION_VARIANT || (id == OPTION_PONDER && !v && running_kind(xb) == SEARCH_PONDER))
        stop_search(xb, true);
    switch ((OptionId)id) {
    case OPTION_THREADS:
        if (!search_set_threads((int)protocol_cap(v, protocol_caps.threads))) {
            say_error(xb, l->line, "could not start %lld threads", v);
            return;
        }
        break;
    case OPTION_HASH:
        if (!search_set_hash((size_t)protocol_cap(v, protocol_caps.hash_mb))) {
            say_error(xb, l->line, "could not allocate %lld MB", v);
            return;
        }
        break;
    case OPTION_CLEAR_HASH: search_clear(); return;
    case OPTION_ANALYSE_MODE: break; /* `analyze` and `exit` set it; as an option it only records */
    default: break;
    }
    xb->opts->value[id] = v;
    if (id == OPTION_VARIANT) {
        reset_game(xb);
        print_setup(xb);
        if (xb->analyzing)
            start_analysis(xb);
    }
}

static void cmd_memory_cores(XBoard *xb, const Line *l, bool memory)
{
    const OptionDef *def = &option_defs[memory ? OPTION_HASH : OPTION_THREADS];
    int64_t v;
    if (!int_args(xb, l, def->min, def->max, &v, memory ? "a number of megabytes" : "a number of threads"))
        return;
    stop_search(xb, true);
    if (memory ? !search_set_hash((size_t)protocol_cap(v, protocol_caps.hash_mb))
               : !search_set_threads((int)protocol_cap(v, protocol_caps.threads))) {
        say_error(xb, l->line, "could not %s %" PRId64 " %s", memory ? "allocate" : "start", v,
                  memory ? "MB" : "threads");
        return;
    }
    xb->opts->value[memory ? OPTION_HASH : OPTION_THREADS] = v;
}

static void cmd_perft(XBoard *xb, const Line *l)
{
    int64_t depth;
    if (!int_args(xb, l, 1, PERFT_MAX_DEPTH, &depth, "a depth"))
        return;
    stop_search(xb, true);
    MoveList root;
    static uint64_t counts[MAX_MOVES];
    uint64_t total = perft_divide(&game(xb)->pos, (int)protocol_cap(depth, protocol_caps.depth), &root, counts);
    pthread_mutex_lock(&xb->lock);
    for (int i = 0; i < root.count; i++) {
        char text[MOVE_TEXT_SIZE];
        report_xboard_move(root.moves[i], text);
        fprintf(xb->out, "%s: %" PRIu64 "\n", text, counts[i]);
    }
    fprintf(xb->out, "\nNodes searched: %" PRIu64 "\n\n", total);
    hangup_flush(xb->out);
    pthread_mutex_unlock(&xb->lock);
}

/* `.` in analysis: CECP's status line for the last completed iteration (so no moves are left in it). */
static void cmd_status(XBoard *xb, const Line *l)
{
    if (!xb->analyzing) {
        say_error(xb, l->line, "not analysing");
        return;
    }
    pthread_mutex_lock(&xb->lock);
    SearchInfo last = xb->last;
    bool have = xb->have_last;
    pthread_mutex_unlock(&xb->lock);
    int total = movegen_count_legal(&game(xb)->pos);
    char move[MOVE_TEXT_SIZE] = "";
    if (have && last.pv_length > 0)
        report_xboard_move(last.pv[0], move);
    say(xb, "stat01: %" PRId64 " %" PRIu64 " %d 0 %d%s%s", have ? last.time_ms / 10 : 0, have ? last.nodes : 0,
        have ? last.depth : 0, total, move[0] ? " " : "", move);
}

static void cmd_draw(XBoard *xb)
{
    /* Accepted when the engine's last move was scored clearly against it; otherwise declined
     * silently, as CECP asks. */
    if (xb->play_color != NO_COLOR && xb->have_score && xb->score_cp <= -DRAW_ACCEPT_CP)
        say(xb, "offer draw");
}

static void cmd_hint(XBoard *xb)
{
    if (xb->predicted == MOVE_NONE || !movegen_contains_legal(&game(xb)->pos, xb->predicted))
        return; /* CECP: no hint, no answer */
    char text[MOVE_TEXT_SIZE];
    report_xboard_move(xb->predicted, text);
    say(xb, "Hint: %s", text);
}

/* Commands a GUI may send that change nothing here. */
static const char *const ignored_words[] = {"accepted", "rejected", "random", "computer", "name",  "rating",
                                            "ics",      "bk",       "lift",   "put",      "hover", "xboard"};

static Flow execute(XBoard *xb, const char *line)
{
    Line l = {line, {NULL, 0}, {NULL, 0}};
    const char *end = line + strlen(line), *p = line;
    if (!span_next_token(&p, end, &l.word) || l.word.text[0] == '#')
        return FLOW_ON;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    l.args = (Span){p, (size_t)(end - p)};
    while (l.args.len > 0 && (p[l.args.len - 1] == ' ' || p[l.args.len - 1] == '\t' || p[l.args.len - 1] == '\r'))
        l.args.len--;
    Span w = l.word;
    for (size_t i = 0; i < sizeof ignored_words / sizeof ignored_words[0]; i++)
        if (span_equals(w, ignored_words[i]))
            return FLOW_ON;
    int64_t v;
    if (span_equals(w, "protover")) {
        cmd_protover(xb);
    } else if (span_equals(w, "ping")) {
        if (int_args(xb, &l, INT32_MIN, INT32_MAX, &v, "a number"))
            say(xb, "pong %" PRId64, v);
    } else if (span_equals(w, "new")) {
        if (no_args(xb, &l))
            cmd_new(xb);
    } else if (span_equals(w, "variant")) {
        cmd_variant(xb, &l);
    } else if (span_equals(w, "force") || span_equals(w, "result")) {
        if (span_equals(w, "result") || no_args(xb, &l)) {
            stop_search(xb, true);
            xb->play_color = NO_COLOR;
        }
    } else if (span_equals(w, "go")) {
        if (no_args(xb, &l)) {
            stop_search(xb, true);
            xb->play_color = (int)game(xb)->pos.side;
            if (!xb->analyzing)
                start_play(xb);
        }
    } else if (span_equals(w, "playother")) {
        if (no_args(xb, &l)) {
            stop_search(xb, true);
            xb->play_color = (int)color_flip(game(xb)->pos.side);
        }
    } else if (span_equals(w, "usermove")) {
        Span rest = l.args, tok, extra;
        if (!next_token(&rest, &tok) || next_token(&rest, &extra))
            say_error(xb, line, "usermove needs one move");
        else
            cmd_move(xb, tok, true, line);
    } else if (span_equals(w, "setboard")) {
        cmd_setboard(xb, &l);
    } else if (span_equals(w, "undo")) {
        cmd_undo(xb, &l, 1);
    } else if (span_equals(w, "remove")) {
        cmd_undo(xb, &l, 2);
    } else if (span_equals(w, "level")) {
        cmd_level(xb, &l);
    } else if (span_equals(w, "st")) {
        cmd_st(xb, &l);
    } else if (span_equals(w, "sd")) {
        if (int_args(xb, &l, 1, GO_MAX_DEPTH, &v, "a depth"))
            xb->depth_limit = (int)v;
    } else if (span_equals(w, "time")) {
        if (int_args(xb, &l, INT32_MIN, INT32_MAX, &v, "centiseconds"))
            xb->clock.clock_ms = v < 0 ? 0 : v * 10; /* a clock past zero: move at once */
    } else if (span_equals(w, "otim")) {
        int_args(xb, &l, INT32_MIN, INT32_MAX, &v, "centiseconds"); /* checked, not used */
    } else if (span_equals(w, "hard") || span_equals(w, "easy")) {
        if (no_args(xb, &l)) {
            xb->opts->value[OPTION_PONDER] = span_equals(w, "hard");
            if (span_equals(w, "easy") && running_kind(xb) == SEARCH_PONDER)
                stop_search(xb, true);
        }
    } else if (span_equals(w, "post") || span_equals(w, "nopost")) {
        if (no_args(xb, &l)) {
            pthread_mutex_lock(&xb->lock);
            xb->post = span_equals(w, "post");
            pthread_mutex_unlock(&xb->lock);
        }
    } else if (span_equals(w, "analyze")) {
        if (no_args(xb, &l)) {
            stop_search(xb, true);
            xb->analyzing = true;
            xb->opts->value[OPTION_ANALYSE_MODE] = 1;
            start_analysis(xb);
        }
    } else if (span_equals(w, "exit")) {
        if (!no_args(xb, &l)) {
        } else if (!xb->analyzing) {
            say_error(xb, line, "not analysing");
        } else {
            stop_search(xb, true);
            xb->analyzing = false;
            xb->opts->value[OPTION_ANALYSE_MODE] = 0;
        }
    } else if (span_equals(w, ".")) {
        cmd_status(xb, &l);
    } else if (span_equals(w, "?")) {
        if (running_kind(xb) == SEARCH_PLAY)
            search_stop(); /* its move comes through the wake, as any other */
    } else if (span_equals(w, "memory")) {
        cmd_memory_cores(xb, &l, true);
    } else if (span_equals(w, "cores")) {
        cmd_memory_cores(xb, &l, false);
    } else if (span_equals(w, "option")) {
        cmd_option(xb, &l);
    } else if (span_equals(w, "hint")) {
        cmd_hint(xb);
    } else if (span_equals(w, "draw")) {
        cmd_draw(xb);
    } else if (span_equals(w, "quit")) {
        return FLOW_QUIT;
    } else if (span_equals(w, "uci") || span_equals(w, "ucci")) {
        return span_equals(w, "uci") ? FLOW_UCI : FLOW_UCCI;
    } else if (span_equals(w, "perft")) {
        cmd_perft(xb, &l);
    } else if (span_equals(w, "d")) {
        char text[BOARD_TEXT_SIZE];
        report_board(&game(xb)->pos, PROTO_XBOARD, text, sizeof text);
        print_block(xb, text);
    } else if (span_equals(w, "eval")) {
        static char text[EVAL_TRACE_SIZE];
        eval_trace(&game(xb)->pos, text, sizeof text);
        print_block(xb, text);
    } else if (l.args.len == 0) {
        cmd_move(xb, w, false, line); /* a bare move, or an unknown command */
    } else {
        say_error(xb, line, "unknown command");
    }
    return FLOW_ON;
}

XBoardExit xboard_loop(LineReader *in, FILE *out, EngineOptions *opts)
{
    static XBoard board;
    XBoard *xb = &board;
    memset(xb, 0, sizeof *xb);
    xb->out = out;
    xb->opts = opts;
    xb->post = true;
    xb->setup_form = SETUP_XIANGQI;
    xb->play_color = BLACK;
    /* XBoard's own default time control until `level` or `st` says otherwise: 40 moves in 5 minutes. */
    xb->clock = (XBoardClock){40, 5 * 60000, 0, 0, 5 * 60000};
    pthread_mutex_init(&xb->lock, NULL);
    opts->value[OPTION_VARIANT] = option_defs[OPTION_VARIANT].def; /* as every handshake, in FSF */
    opts->value[OPTION_ANALYSE_MODE] = 0;
    reset_game(xb);
    if (pipe(xb->wake) != 0) {
        say(xb, "Error (cannot create a pipe): xboard");
        return XBOARD_EOF;
    }
    input_set_wake(in, xb->wake[0]);

    XBoardExit exit = XBOARD_EOF;
    for (;;) {
        char *line;
        size_t len;
        LineStatus st = input_read_line(in, &line, &len);
        take_result(xb); /* a move that came meanwhile is played before the line is read */
        if (st == LINE_WAKE)
            continue;
        if (st == LINE_EOF)
            break;
        if (st == LINE_TOO_LONG) {
            say(xb, "Error (input line longer than %d bytes): ignored", INPUT_LINE_MAX);
            continue;
        }
        const char *problem = input_line_problem(line, len);
        if (problem) {
            char q[QUOTE_CHARS * 4 + 8];
            span_quote((Span){line, len}, q, sizeof q, QUOTE_CHARS);
            say(xb, "Error (%s): %s", problem, q);
            continue;
        }
        Flow flow = execute(xb, line);
        if (flow != FLOW_ON) {
            exit = flow == FLOW_QUIT ? XBOARD_QUIT : flow == FLOW_UCI ? XBOARD_TO_UCI : XBOARD_TO_UCCI;
            break;
        }
    }
    stop_search(xb, true);
    input_set_wake(in, -1);
    close(xb->wake[0]);
    close(xb->wake[1]);
    game_free(&xb->games[0]);
    game_free(&xb->games[1]);
    pthread_mutex_destroy(&xb->lock);
    return exit;
}

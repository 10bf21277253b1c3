#include "command.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

bool span_next_token(const char **cursor, const char *end, Span *token)
{
    const char *p = *cursor;
    while (p < end && is_blank(*p))
        p++;
    if (p >= end) {
        *cursor = p;
        return false;
    }
    const char *start = p;
    while (p < end && !is_blank(*p))
        p++;
    token->text = start;
    token->len = (size_t)(p - start);
    *cursor = p;
    return true;
}

bool span_equals(Span s, const char *word) { return strlen(word) == s.len && memcmp(s.text, word, s.len) == 0; }

void span_quote(Span s, char *buf, size_t size, size_t max_chars)
{
    size_t out = 0;
    if (size == 0)
        return;
    for (size_t i = 0; i < s.len; i++) {
        if (i == max_chars) {
            if (out + 4 < size) {
                memcpy(buf + out, "...", 3);
                out += 3;
            }
            break;
        }
        unsigned char c = (unsigned char)s.text[i];
        char piece[5];
        int n = c >= 0x20 && c < 0x7f ? snprintf(piece, sizeof piece, "%c", c)
                                      : snprintf(piece, sizeof piece, "\\x%02X", c);
        if (out + (size_t)n + 1 > size)
            break;
        memcpy(buf + out, piece, (size_t)n);
        out += (size_t)n;
    }
    buf[out] = '\0';
}

/* The parser's state: the rest of the line and the command being filled. */
typedef struct {
    const char *p, *end;
    Command *cmd;
} Parser;

static bool next(Parser *ps, Span *tok) { return span_next_token(&ps->p, ps->end, tok); }

static bool peek(const Parser *ps, Span *tok)
{
    const char *p = ps->p;
    return span_next_token(&p, ps->end, tok);
}

static void refuse(Parser *ps, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->cmd->message, sizeof ps->cmd->message, fmt, ap);
    va_end(ap);
    ps->cmd->kind = CMD_ERROR;
}

/* Adds a note about something ignored (several notes are joined with "; "). */
static void note(Command *cmd, const char *fmt, ...)
{
    size_t used = strlen(cmd->message);
    if (used + 3 >= sizeof cmd->message)
        return;
    if (used) {
        memcpy(cmd->message + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd->message + used, sizeof cmd->message - used, fmt, ap);
    va_end(ap);
}

#define QUOTE(span, buf) (span_quote((span), (buf), sizeof(buf), 40), (buf))

/* The tokens from here to the end of the line, as one list. */
static TokenList rest_of_line(Parser *ps)
{
    TokenList list = {{ps->end, 0}, 0};
    Span tok;
    while (next(ps, &tok)) {
        if (list.count++ == 0)
            list.all.text = tok.text;
        list.all.len = (size_t)(tok.text + tok.len - list.all.text);
    }
    return list;
}

/* Notes extra words at the end of a command; `takes` says what the command takes. */
static void ignore_rest(Parser *ps, const char *command, const char *takes)
{
    Span first;
    if (!peek(ps, &first))
        return;
    TokenList rest = rest_of_line(ps);
    char q[64];
    note(ps->cmd, "'%s' takes %s; ignored '%s'", command, takes, QUOTE(rest.all, q));
}

bool span_parse_int(Span tok, int64_t min, int64_t max, int64_t *out)
{
    char buf[32];
    if (tok.len == 0 || tok.len >= sizeof buf)
        return false;
    memcpy(buf, tok.text, tok.len);
    buf[tok.len] = '\0';
    const char *digits = buf + (buf[0] == '-' || buf[0] == '+');
    if (*digits < '0' || *digits > '9')
        return false;
    char *endp;
    errno = 0;
    long long v = strtoll(buf, &endp, 10);
    if (*endp || errno || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* Reads the number after `keyword`; refuses the command when it is missing or out of range. */
static bool number_after(Parser *ps, const char *keyword, int64_t min, int64_t max, const char *what, int64_t *out)
{
    Span tok;
    if (!next(ps, &tok)) {
        refuse(ps, "go: '%s' needs %s from %" PRId64 " to %" PRId64, keyword, what, min, max);
        return false;
    }
    if (!span_parse_int(tok, min, max, out)) {
        char q[64];
        refuse(ps, "go: '%s' needs %s from %" PRId64 " to %" PRId64 ", not '%s'", keyword, what, min, max,
               QUOTE(tok, q));
        return false;
    }
    return true;
}

static void parse_position(Parser *ps)
{
    PositionCommand *pc = &ps->cmd->u.position;
    memset(pc, 0, sizeof *pc);
    Span tok;
    char q[64];
    if (!next(ps, &tok)) {
        refuse(ps, "position needs 'startpos' or 'fen <FEN>'");
        return;
    }
    if (span_equals(tok, "startpos")) {
        pc->startpos = true;
    } else if (span_equals(tok, "fen")) {
        /* The FEN is every token up to 'moves' or the end of the line. */
        Span fen = {NULL, 0};
        while (peek(ps, &tok) && !span_equals(tok, "moves")) {
            next(ps, &tok);
            if (!fen.text)
                fen.text = tok.text;
            fen.len = (size_t)(tok.text + tok.len - fen.text);
        }
        if (!fen.text) {
            refuse(ps, "position fen needs a FEN");
            return;
        }
        pc->fen = fen;
    } else {
        refuse(ps, "position needs 'startpos' or 'fen <FEN>', not '%s'", QUOTE(tok, q));
        return;
    }
    if (!next(ps, &tok))
        return;
    if (!span_equals(tok, "moves")) {
        refuse(ps, "position: expected 'moves' after startpos, not '%s'", QUOTE(tok, q));
        return;
    }
    pc->moves = rest_of_line(ps);
}

/* UCI: setoption name <words> [value <words>]. UCCI: setoption <name> [<value words>], or the UCI form. */
static void parse_setoption(Parser *ps, Protocol proto)
{
    SetOptionCommand *so = &ps->cmd->u.setoption;
    memset(so, 0, sizeof *so);
    Span tok;
    if (!peek(ps, &tok)) {
        refuse(ps, proto == PROTO_UCI ? "setoption needs 'name <option>'" : "setoption needs an option name");
        return;
    }
    if (span_equals(tok, "name")) {
        next(ps, &tok);
        Span name = {NULL, 0};
        bool value_follows = false;
        while (!value_follows && next(ps, &tok)) {
            value_follows = span_equals(tok, "value");
            if (value_follows)
                break;
            if (!name.text)
                name.text = tok.text;
            name.len = (size_t)(tok.text + tok.len - name.text);
        }
        if (!name.text) {
            refuse(ps, "setoption: missing option name after 'name'");
            return;
        }
        so->name = name;
        if (value_follows) {
            TokenList value = rest_of_line(ps);
            so->has_value = true;
            so->value = value.all;
        }
        return;
    }
    if (proto == PROTO_UCI) {
        char q[64];
        refuse(ps, "setoption: expected 'name', not '%s'", QUOTE(tok, q));
        return;
    }
    next(ps, &so->name);
    TokenList value = rest_of_line(ps);
    so->has_value = value.count > 0;
    so->value = value.all;
}

static void parse_go(Parser *ps)
{
    Command *cmd = ps->cmd;
    GoCommand *go = &cmd->u.go;
    memset(go, 0, sizeof *go);
    static const char *const clock_words[CLOCK_FIELDS] = {"wtime", "btime",   "winc",      "binc",
                                                          "time",  "opptime", "increment", "oppincrement"};
    const int64_t TIME_MAX = INT64_C(1) << 40;
    int perft = 0;
    bool given[8] = {false}; /* depth nodes movetime mate movestogo perft infinite ponder */
    const char *const limit_words[8] = {"depth",     "nodes", "movetime", "mate",
                                        "movestogo", "perft", "infinite", "ponder"};
    Span tok;
    char q[64];
    while (next(ps, &tok)) {
        int64_t v;
        int clock = -1;
        for (int i = 0; i < CLOCK_FIELDS; i++)
            if (span_equals(tok, clock_words[i]))
                clock = i;
        int limit = -1;
        for (int i = 0; i < 8; i++)
            if (span_equals(tok, limit_words[i]))
                limit = i;
        if ((clock >= 0 && go->has_clock[clock]) || (limit >= 0 && given[limit]))
            note(cmd, "'%s' given twice; the last one counts", clock >= 0 ? clock_words[clock] : limit_words[limit]);
        if (clock >= 0) {
            bool is_increment =
                clock == CLOCK_WINC || clock == CLOCK_BINC || clock == CLOCK_INC || clock == CLOCK_OPPINC;
            int64_t min = is_increment ? 0 : -TIME_MAX;
            if (!number_after(ps, clock_words[clock], min, TIME_MAX, "a number of milliseconds", &v))
                return;
            go->clock[clock] = v;
            go->has_clock[clock] = true;
            continue;
        }
        if (limit >= 0)
            given[limit] = true;
        if (span_equals(tok, "depth")) {
            if (!number_after(ps, "depth", 1, GO_MAX_DEPTH, "a number", &v))
                return;
            go->depth = (int)v;
        } else if (span_equals(tok, "nodes")) {
            if (!number_after(ps, "nodes", 1, INT64_MAX, "a number", &v))
                return;
            go->nodes = (uint64_t)v;
        } else if (span_equals(tok, "movetime")) {
            if (!number_after(ps, "movetime", 1, TIME_MAX, "a number of milliseconds", &v))
                return;
            go->movetime = v;
        } else if (span_equals(tok, "mate")) {
            if (!number_after(ps, "mate", 1, GO_MAX_MATE, "a number of moves", &v))
                return;
            go->mate = (int)v;
        } else if (span_equals(tok, "movestogo")) {
            if (!number_after(ps, "movestogo", 0, 100000, "a number", &v))
                return;
            go->movestogo = (int)v;
        } else if (span_equals(tok, "perft")) {
            if (!number_after(ps, "perft", 1, PERFT_MAX_DEPTH, "a depth", &v))
                return;
            perft = (int)v;
        } else if (span_equals(tok, "infinite")) {
            go->infinite = true;
        } else if (span_equals(tok, "ponder")) {
            go->ponder = true;
        } else if (span_equals(tok, "draw")) {
            /* UCCI's draw offer: accepted and ignored, as FSF does. */
        } else if (span_equals(tok, "searchmoves")) {
            go->has_searchmoves = true;
            go->searchmoves = rest_of_line(ps);
            if (go->searchmoves.count == 0)
                note(cmd, "'searchmoves' without moves; searching all moves");
        } else {
            note(cmd, "unknown go parameter '%s' ignored", QUOTE(tok, q));
        }
    }

    if (perft) {
        char ignored[200] = "";
        for (int i = 0; i < CLOCK_FIELDS; i++)
            if (go->has_clock[i])
                snprintf(ignored + strlen(ignored), sizeof ignored - strlen(ignored), " %s", clock_words[i]);
        for (int i = 0; i < 8; i++)
            if (given[i] && i != 5)
                snprintf(ignored + strlen(ignored), sizeof ignored - strlen(ignored), " %s", limit_words[i]);
        if (go->has_searchmoves)
            snprintf(ignored + strlen(ignored), sizeof ignored - strlen(ignored), " searchmoves");
        if (*ignored)
            note(cmd, "go perft ignores%s", ignored);
        cmd->kind = CMD_PERFT;
        cmd->u.perft_depth = perft;
        return;
    }
    if (go->infinite) {
        char ignored[200] = "";
        for (int i = 0; i < CLOCK_FIELDS; i++)
            if (go->has_clock[i]) {
                snprintf(ignored + strlen(ignored), sizeof ignored - strlen(ignored), " %s", clock_words[i]);
                go->has_clock[i] = false;
            }
        if (go->movetime)
            snprintf(ignored + strlen(ignored), sizeof ignored - strlen(ignored), " movetime");
        if (go->movestogo)
            snprintf(ignored + strlen(ignored), sizeof ignored - strlen(ignored), " movestogo");
        go->movetime = 0;
        go->movestogo = 0;
        if (*ignored)
            note(cmd, "go infinite searches until stopped; ignored%s", ignored);
    }
}

static const struct {
    const char *word;
    CommandKind kind;
} simple_commands[] = {
    {"uci", CMD_UCI},         {"ucci", CMD_UCCI},          {"xboard", CMD_XBOARD},
    {"isready", CMD_ISREADY}, {"ucinewgame", CMD_NEWGAME}, {"uccinewgame", CMD_NEWGAME},
    {"stop", CMD_STOP},       {"quit", CMD_QUIT},          {"d", CMD_DISPLAY},
    {"eval", CMD_EVAL},
};

void command_parse(const char *line, Protocol proto, Command *cmd)
{
    memset(cmd, 0, sizeof *cmd);
    Parser ps = {line, line + strlen(line), cmd};
    Span word;
    if (!next(&ps, &word) || word.text[0] == '#') {
        cmd->kind = CMD_NONE;
        return;
    }
    cmd->word = word;
    for (size_t i = 0; i < sizeof simple_commands / sizeof simple_commands[0]; i++)
        if (span_equals(word, simple_commands[i].word)) {
            cmd->kind = simple_commands[i].kind;
            ignore_rest(&ps, simple_commands[i].word, "no arguments");
            return;
        }
    char q[64];
    if (span_equals(word, "ponderhit")) {
        cmd->kind = CMD_PONDERHIT;
        Span tok;
        if (peek(&ps, &tok) && span_equals(tok, "draw")) /* UCCI's draw offer: ignored */
            next(&ps, &tok);
        ignore_rest(&ps, "ponderhit", "no arguments");
    } else if (span_equals(word, "position")) {
        cmd->kind = CMD_POSITION;
        parse_position(&ps);
    } else if (span_equals(word, "setoption")) {
        cmd->kind = CMD_SETOPTION;
        parse_setoption(&ps, proto);
    } else if (span_equals(word, "banmoves")) {
        cmd->kind = CMD_BANMOVES;
        cmd->u.banmoves = rest_of_line(&ps);
    } else if (span_equals(word, "go")) {
        cmd->kind = CMD_GO;
        parse_go(&ps);
    } else if (span_equals(word, "bench")) {
        cmd->kind = CMD_BENCH;
        Span tok;
        int64_t v = 0;
        if (next(&ps, &tok) && !span_parse_int(tok, 1, BENCH_MAX_DEPTH, &v)) {
            refuse(&ps, "bench: the depth must be a number from 1 to %d, not '%s'", BENCH_MAX_DEPTH, QUOTE(tok, q));
            return;
        }
        cmd->u.bench_depth = (int)v;
        ignore_rest(&ps, "bench", "one depth at most");
    } else {
        refuse(&ps, "unknown command '%s'", QUOTE(word, q));
    }
}

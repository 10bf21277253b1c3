#define _POSIX_C_SOURCE 200809L
#include "analyze.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../engine/base/base.h"
#include "../engine/records/epd.h"
#include "../engine/records/gib.h"
#include "../engine/move.h"
#include "../engine/movegen.h"
#include "../engine/records/pgn.h"
#include "../eval/eval.h"
#include "../search/search.h"

enum { MAX_INPUTS = 64, MAX_DEPTH = 100 };

/* ---- AnalyzeOptions ---- */

typedef enum { INPUT_FEN, INPUT_EPD, INPUT_GIB, INPUT_PGN } InputKind;
static const char *const input_names[] = {"fen", "epd", "gib", "pgn"};

typedef struct {
    InputKind kind;
    const char *arg;   /* the FEN or the file name */
    const char *moves; /* --moves after --fen */
} Input;

typedef struct {
    Input inputs[MAX_INPUTS];
    int input_count;
    int depth;
    uint64_t nodes;
    int64_t movetime;
    int multipv, threads;
    long hash;
    const RuleSet *rules;
    bool rules_given, json, korean;
    int progress; /* -1: when standard error is a terminal */
} AnalyzeOptions;

static const char usage_text[] =
    "usage: janggun analyze INPUT... [LIMITS] [OPTIONS]\n"
    "  inputs:  --fen \"FEN\" [--moves \"M1 M2 ...\"]   a position; with moves, a game from it\n"
    "           --moves \"M1 M2 ...\"                   a game from the start position\n"
    "           --epd FILE | --gib FILE | --pgn FILE  positions (EPD) or games (GIB, PGN)\n"
    "  limits:  --depth N (default 10) --movetime MS --nodes N, for each position searched\n"
    "  options: --multipv K --threads N --hash MB --variant NAME (default janggi)\n"
    "           --json --notation uci|korean --progress | --no-progress\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("janggun: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fputs(usage_text, stderr);
    return 2;
}

static bool read_number(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Returns -1 when the options are fine, else the exit status. */
static int parse_options(int argc, char **argv, AnalyzeOptions *o)
{
    memset(o, 0, sizeof *o);
    o->multipv = 1;
    o->threads = 1;
    o->hash = 16;
    o->progress = -1;
    o->rules = &RULES_JANGGI;
    static const struct {
        const char *name;
        long long lo, hi;
    } numbers[] = {{"--depth", 1, MAX_DEPTH},         {"--movetime", 1, 86400000}, {"--nodes", 1, 1000000000000LL},
                   {"--multipv", 1, MAX_MULTIPV},     {"--threads", 1, MAX_THREADS}, {"--hash", 1, 65536}};
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (!strcmp(opt, "--json") || !strcmp(opt, "--progress") || !strcmp(opt, "--no-progress")) {
            if (opt[2] == 'j')
                o->json = true;
            else
                o->progress = opt[2] == 'p';
            continue;
        }
        if (i + 1 >= argc)
            return strncmp(opt, "--", 2) ? usage_error("unknown analyze option '%s'", opt)
                                         : usage_error("option %s needs a value", opt);
        const char *value = argv[i + 1];
        bool known = false;
        for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++) {
            if (strcmp(opt, numbers[k].name))
                continue;
            long long v;
            if (!read_number(value, numbers[k].lo, numbers[k].hi, &v))
                return usage_error("%s must be a number from %lld to %lld, not '%s'", opt, numbers[k].lo, numbers[k].hi,
                                   value);
            switch (k) {
            case 0: o->depth = (int)v; break;
            case 1: o->movetime = v; break;
            case 2: o->nodes = (uint64_t)v; break;
            case 3: o->multipv = (int)v; break;
            case 4: o->threads = (int)v; break;
            default: o->hash = (long)v; break;
            }
            known = true;
        }
        i++;
        if (known)
            continue;
        if (!strcmp(opt, "--fen") || !strcmp(opt, "--epd") || !strcmp(opt, "--gib") || !strcmp(opt, "--pgn")) {
            if (o->input_count == MAX_INPUTS)
                return usage_error("at most %d inputs", MAX_INPUTS);
            InputKind kind = opt[2] == 'f' ? INPUT_FEN : opt[2] == 'e' ? INPUT_EPD : opt[2] == 'g' ? INPUT_GIB : INPUT_PGN;
            o->inputs[o->input_count++] = (Input){kind, value, NULL};
        } else if (!strcmp(opt, "--moves")) {
            Input *last = o->input_count ? &o->inputs[o->input_count - 1] : NULL;
            if (last && last->kind == INPUT_FEN && !last->moves) {
                last->moves = value;
            } else {
                if (o->input_count == MAX_INPUTS)
                    return usage_error("at most %d inputs", MAX_INPUTS);
                o->inputs[o->input_count++] = (Input){INPUT_FEN, NULL, value};
            }
        } else if (!strcmp(opt, "--variant")) {
            o->rules = rules_by_name(value);
            o->rules_given = true;
            if (!o->rules)
                return usage_error("unknown variant '%s' (janggi, janggicasual, janggimodern, janggitraditional)", value);
        } else if (!strcmp(opt, "--notation")) {
            if (strcmp(value, "uci") && strcmp(value, "korean"))
                return usage_error("--notation must be uci or korean, not '%s'", value);
            o->korean = value[0] == 'k';
        } else {
            return usage_error("unknown analyze option '%s'", opt);
        }
    }
    if (o->input_count == 0)
        return usage_error("analyze needs an input: --fen, --moves, --epd, --gib or --pgn");
    if (!o->depth && !o->nodes && !o->movetime)
        o->depth = ANALYZE_DEFAULT_DEPTH;
    return -1;
}

/* ---- Output text ---- */

/* A JSON string: quotes, backslashes and control characters escaped, bytes that are not UTF-8 replaced
 * by U+FFFD, so the output is always valid JSON. NULL is written as null. */
static void buf_json(StrBuf *b, const char *s)
{
    if (!s) {
        strbuf_puts(b, "null");
        return;
    }
    strbuf_puts(b, "\"");
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            strbuf_printf(b, "\\%c", c);
            p++;
        } else if (c < 0x20) {
            strbuf_printf(b, "\\u%04x", c);
            p++;
        } else if (c < 0x80) {
            strbuf_add(b, (const char *)p, 1);
            p++;
        } else {
            size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            bool ok = n > 0;
            for (size_t i = 1; ok && i < n; i++)
                ok = (p[i] & 0xC0) == 0x80;
            if (ok && n == 3)
                ok = !(c == 0xE0 && p[1] < 0xA0) && !(c == 0xED && p[1] >= 0xA0);
            if (ok && n == 4)
                ok = !(c == 0xF0 && p[1] < 0x90) && !(c == 0xF4 && p[1] >= 0x90);
            if (!ok) {
                strbuf_puts(b, "\xEF\xBF\xBD");
                p++;
                continue;
            }
            strbuf_add(b, (const char *)p, n);
            p += n;
        }
    }
    strbuf_puts(b, "\"");
}

/* ---- Progress on standard error ---- */

static struct {
    bool on;
    long total, done;
    double start, last_draw;
} progress;

static void progress_draw(bool force);

/* Writes the buffer to standard output, the progress line cleared first and drawn again after. */
/* Columns a text takes on a terminal: Hangul and Hanja take two. */
static int display_width(const char *s)
{
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p & 0xC0) == 0x80)
            continue;
        w += *p >= 0xE1 ? 2 : 1; /* from U+1000 on: the Korean and CJK blocks */
    }
    return w;
}

/* The text left-aligned in `width` columns (followed by one space). */
static void buf_column(StrBuf *b, const char *s, int width)
{
    strbuf_puts(b, s);
    for (int w = display_width(s); w < width; w++)
        strbuf_puts(b, " ");
    strbuf_puts(b, " ");
}

static void flush_buf(StrBuf *b)
{
    if (!b->len)
        return;
    if (progress.on && progress.total > 0) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    if (b->failed) {
        report_error("janggun", "out of memory");
        exit(2);
    }
    fwrite(b->text, 1, b->len, stdout);
    fflush(stdout);
    b->len = 0;
    b->text[0] = '\0';
    progress_draw(true);
}

static void progress_draw(bool force)
{
    if (!progress.on || progress.total <= 0)
        return;
    double now = clock_seconds();
    if (!force && now - progress.last_draw < 0.1)
        return;
    progress.last_draw = now;
    enum { WIDTH = 30 };
    int filled = (int)(WIDTH * progress.done / progress.total);
    char bar[WIDTH + 1];
    for (int i = 0; i < WIDTH; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    char eta[32] = "--:--";
    if (progress.done > 0) {
        double per_position = (now - progress.start) / (double)progress.done;
        long left = (long)(per_position * (double)(progress.total - progress.done) + 0.5);
        snprintf(eta, sizeof eta, "%ld:%02ld", left / 60, left % 60);
    }
    fprintf(stderr, "\r[%s] %3ld%% %ld/%ld positions, %s left ", bar, 100 * progress.done / progress.total,
            progress.done, progress.total, eta);
    fflush(stderr);
}

static void progress_end(void)
{
    if (progress.on && progress.total > 0) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

/* ---- Work items ---- */

typedef enum { ITEM_POSITION, ITEM_GAME, ITEM_ERROR } ItemKind;

typedef struct {
    ItemKind kind;
    InputKind input;
    const char *file;   /* NULL for --fen and --moves */
    const char *label;  /* "--fen" or "--moves" when file is NULL */
    int number, line;
    const RuleSet *rules;
    char fen[RECORD_FEN_SIZE];
    EpdPosition *epd;   /* EPD positions */
    ParsedGame *game;   /* games (owned by a ParsedGameList, or by the item for --fen) */
    bool owns_game;
    char *message;      /* errors */
} Item;

typedef struct {
    Item *items;
    int count, capacity;
    ParsedGameList *lists;
    int list_count;
    int failures;
} Work;

static Item *add_item(Work *w, ItemKind kind, InputKind input, const char *file, int number, int line)
{
    if (w->count == w->capacity) {
        int capacity = w->capacity ? 2 * w->capacity : 64;
        Item *items = realloc(w->items, (size_t)capacity * sizeof *items);
        if (!items) {
            fputs("janggun: error: out of memory\n", stderr);
            exit(2);
        }
        w->items = items;
        w->capacity = capacity;
    }
    Item *it = &w->items[w->count++];
    memset(it, 0, sizeof *it);
    *it = (Item){.kind = kind, .input = input, .file = file, .number = number, .line = line};
    return it;
}

/* Where an item comes from, for messages: "FILE:LINE: game N" or "--fen". */
static void item_place(const Item *it, char *buf, size_t size)
{
    const char *what = it->input == INPUT_EPD ? "position" : "game";
    if (!it->file)
        snprintf(buf, size, "%s", it->label ? it->label : "--fen");
    else if (it->line > 0 && it->number > 0)
        snprintf(buf, size, "%s:%d: %s %d", it->file, it->line, what, it->number);
    else if (it->line > 0)
        snprintf(buf, size, "%s:%d", it->file, it->line);
    else
        snprintf(buf, size, "%s", it->file);
}

static Item *add_error(Work *w, InputKind input, const char *file, const char *label, int number, int line,
                       const char *message)
{
    Item *it = add_item(w, ITEM_ERROR, input, file, number, line);
    it->label = label;
    it->message = strdup(message);
    char place[1200];
    item_place(it, place, sizeof place);
    fprintf(stderr, "janggun: error: %s: %s\n", place, message);
    w->failures++;
    return it;
}

static ParsedGameList *new_list(Work *w)
{
    ParsedGameList *lists = realloc(w->lists, (size_t)(w->list_count + 1) * sizeof *lists);
    if (!lists) {
        fputs("janggun: error: out of memory\n", stderr);
        exit(2);
    }
    w->lists = lists;
    ParsedGameList *list = &w->lists[w->list_count++];
    memset(list, 0, sizeof *list);
    return list;
}

/* A --fen (or --moves) input: a position, or a game when moves are given. */
static void load_fen(Work *w, const Input *in, const AnalyzeOptions *o)
{
    const char *fen = in->arg && strcmp(in->arg, "startpos") ? in->arg : START_FEN;
    const char *label = in->arg ? "--fen" : "--moves";
    Game g;
    char err[200];
    if (!game_start(&g, fen, o->rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err)) {
        char msg[300];
        snprintf(msg, sizeof msg, "bad FEN: %s", err);
        add_error(w, INPUT_FEN, NULL, label, 0, 0, msg);
        return;
    }
    if (!in->moves) {
        Item *it = add_item(w, ITEM_POSITION, INPUT_FEN, NULL, 1, 0);
        it->label = label;
        it->rules = o->rules;
        position_to_fen(&g.pos, it->fen, sizeof it->fen);
        game_free(&g);
        return;
    }
    ParsedGame *game = calloc(1, sizeof *game);
    if (!game)
        exit(2);
    game->number = 1;
    game->ok = true;
    game->rules = o->rules;
    snprintf(game->start_fen, sizeof game->start_fen, "%s", g.start_fen);
    char *copy = strdup(in->moves), *save = NULL;
    int ply = 0;
    for (char *tok = strtok_r(copy, " \t\n", &save); tok && game->ok; tok = strtok_r(NULL, " \t\n", &save)) {
        ply++;
        Move m = MOVE_NONE;
        PgnMoveResult r = pgn_parse_move(&g.pos, tok, &m);
        if (r == PGN_MOVE_OK && game_play(&g, m))
            record_add_move(game, m);
        else if (movegen_count_legal(&g.pos) == 0)
            record_fail(game, 0, "move '%s' at ply %d after the end of the game (%s)", tok, ply,
                        end_reason_name(game_status(&g).reason));
        else
            record_fail(game, 0, "%s move '%s' at ply %d",
                        r == PGN_MOVE_SYNTAX ? "unreadable" : r == PGN_MOVE_AMBIGUOUS ? "ambiguous" : "illegal", tok, ply);
    }
    free(copy);
    game_free(&g);
    if (!game->ok) {
        add_error(w, INPUT_FEN, NULL, "--moves", 0, 0, game->error);
        free(game->moves);
        free(game);
        return;
    }
    Item *it = add_item(w, ITEM_GAME, INPUT_FEN, NULL, 1, 0);
    it->label = label;
    it->game = game;
    it->owns_game = true;
    it->rules = o->rules;
}

static void load_epd(Work *w, const Input *in, const AnalyzeOptions *o)
{
    size_t len;
    char err[200];
    char *text = read_whole_file(in->arg, &len, err, sizeof err);
    if (!text) {
        add_error(w, INPUT_EPD, in->arg, NULL, 0, 0, err);
        return;
    }
    for (size_t i = 0; i < len; i++)
        if (!text[i])
            text[i] = ' ';
    char *cursor = text;
    int line_no = 0, number = 0;
    for (char *line; (line = record_next_line(&cursor));) {
        line_no++;
        if (epd_is_blank(line))
            continue;
        number++;
        EpdPosition *epd = malloc(sizeof *epd);
        if (!epd)
            exit(2);
        if (!epd_parse_line(line, epd, err, sizeof err)) {
            add_error(w, INPUT_EPD, in->arg, NULL, number, line_no, err);
            free(epd);
            continue;
        }
        const RuleSet *rules = o->rules;
        const char *variant = epd_operation(epd, "variant");
        if (variant && !o->rules_given && !(rules = rules_by_name(variant))) {
            char msg[300];
            snprintf(msg, sizeof msg, "variant '%.100s' is not Janggi (janggi, janggicasual, janggimodern, janggitraditional)",
                     variant);
            add_error(w, INPUT_EPD, in->arg, NULL, number, line_no, msg);
            free(epd);
            continue;
        }
        Position pos;
        if (!position_set_fen(&pos, epd->fen, rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err)) {
            char msg[300];
            snprintf(msg, sizeof msg, "bad FEN: %s", err);
            add_error(w, INPUT_EPD, in->arg, NULL, number, line_no, msg);
            free(epd);
            continue;
        }
        Item *it = add_item(w, ITEM_POSITION, INPUT_EPD, in->arg, number, line_no);
        it->rules = rules;
        it->epd = epd;
        position_to_fen(&pos, it->fen, sizeof it->fen);
    }
    free(text);
}

static void load_games(Work *w, const Input *in, const AnalyzeOptions *o)
{
    size_t len;
    char err[200];
    char *data = read_whole_file(in->arg, &len, err, sizeof err);
    if (!data) {
        add_error(w, in->kind, in->arg, NULL, 0, 0, err);
        return;
    }
    ParsedGameList *list = new_list(w);
    if (in->kind == INPUT_GIB) {
        if (!gib_parse(data, len, o->rules, list, err, sizeof err))
            add_error(w, in->kind, in->arg, NULL, 0, 0, err);
    } else {
        pgn_parse(data, len, &RULES_JANGGI, o->rules_given ? o->rules : NULL, list);
    }
    free(data);
    if (list->count == 0)
        add_error(w, in->kind, in->arg, NULL, 0, 0, "no game in the file");
    for (int i = 0; i < list->count; i++) {
        ParsedGame *game = &list->games[i];
        if (!game->ok) {
            add_error(w, in->kind, in->arg, NULL, game->number, game->error_line ? game->error_line : game->line,
                      game->error);
            continue;
        }
        Item *it = add_item(w, ITEM_GAME, in->kind, in->arg, game->number, game->line);
        it->game = game;
        it->rules = game->rules;
    }
}

/* ---- Searching ---- */

/* A search's result: the lines of its last complete iteration (all of them, up to --multipv) and the
 * best move, the first move of the first line. */
typedef struct {
    SearchInfo lines[MAX_MULTIPV];
    int count;
    SearchInfo partial[MAX_MULTIPV]; /* the iteration being reported */
    bool partial_have[MAX_MULTIPV];
    int want;                        /* lines in an iteration */
    Move best;
} Searched;

static void on_info(const SearchInfo *info, void *ctx)
{
    Searched *s = ctx;
    int k = info->multipv - 1;
    if (k < 0 || k >= s->want || info->bound != BOUND_EXACT || info->pv_length == 0)
        return;
    s->partial[k] = *info;
    s->partial_have[k] = true;
    if (k == s->want - 1) {
        memcpy(s->lines, s->partial, (size_t)s->want * sizeof s->lines[0]);
        s->count = s->want;
        memset(s->partial_have, 0, sizeof s->partial_have);
    }
}

static void on_bestmove(Move best, Move ponder, void *ctx)
{
    (void)ponder;
    ((Searched *)ctx)->best = best;
}

static void run_search(const Game *g, const AnalyzeOptions *o, Searched *out)
{
    memset(out, 0, sizeof *out);
    int legal = movegen_count_legal(&g->pos);
    out->want = o->multipv < legal ? o->multipv : legal;
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.depth = o->depth;
    limits.nodes = o->nodes;
    limits.multipv = o->multipv;
    if (o->movetime > 0) {
        limits.use_clock = true;
        limits.clock.time_left_ms = -1;
        limits.clock.movetime_ms = o->movetime;
    }
    SearchReport report = {on_info, on_bestmove, out};
    search_start(g, &limits, &report);
    search_wait();
    /* stopped before the first iteration was complete: the lines it did report */
    if (out->count == 0) {
        int n = 0;
        while (n < out->want && out->partial_have[n]) {
            out->lines[n] = out->partial[n];
            n++;
        }
        out->count = n;
    }
    if (out->count > 0)
        out->best = out->lines[0].pv[0];
    progress.done++;
    progress_draw(false);
}

static const SearchInfo *best_line(const Searched *s) { return s->count ? &s->lines[0] : NULL; }

/* ---- Scores, from Cho's point of view ---- */

typedef enum { SCORE_NONE, SCORE_CP, SCORE_MATE, SCORE_RESULT } ScoreKind;

typedef struct {
    ScoreKind kind;
    int value; /* centipawns; moves to mate (negative: Han mates); result +1 Cho wins, 0 draw, -1 Han wins */
} Score;

static Score info_score(const SearchInfo *info, Color side)
{
    if (!info)
        return (Score){SCORE_NONE, 0};
    int sign = side == WHITE ? 1 : -1;
    if (info->is_mate)
        return (Score){SCORE_MATE, sign * info->mate_moves};
    return (Score){SCORE_CP, sign * info->score};
}

static Score result_score(GameResult r)
{
    return (Score){SCORE_RESULT, r == GAME_CHO_WINS ? 1 : r == GAME_HAN_WINS ? -1 : 0};
}

/* The score for `mover`, capped at +-ANALYZE_LOSS_CAP. */
static int capped(Score s, Color mover)
{
    int v;
    if (s.kind == SCORE_CP)
        v = s.value > ANALYZE_LOSS_CAP ? ANALYZE_LOSS_CAP : s.value < -ANALYZE_LOSS_CAP ? -ANALYZE_LOSS_CAP : s.value;
    else if (s.kind == SCORE_MATE)
        v = s.value >= 0 ? ANALYZE_LOSS_CAP : -ANALYZE_LOSS_CAP;
    else
        v = s.value * ANALYZE_LOSS_CAP;
    return mover == WHITE ? v : -v;
}

static void score_json(StrBuf *b, Score s)
{
    switch (s.kind) {
    case SCORE_NONE: strbuf_puts(b, "null"); break;
    case SCORE_CP: strbuf_printf(b, "{\"cp\":%d}", s.value); break;
    case SCORE_MATE: strbuf_printf(b, "{\"mate\":%d}", s.value); break;
    default: strbuf_printf(b, "{\"result\":\"%s\"}", s.value > 0 ? "1-0" : s.value < 0 ? "0-1" : "1/2-1/2"); break;
    }
}

static void score_text(Score s, char *buf, size_t size)
{
    switch (s.kind) {
    case SCORE_NONE: snprintf(buf, size, "?"); break;
    case SCORE_CP: snprintf(buf, size, "%+d", s.value); break;
    case SCORE_MATE: snprintf(buf, size, "%sM%d", s.value < 0 ? "-" : "+", abs(s.value)); break;
    default: snprintf(buf, size, "%s", s.value > 0 ? "1-0" : s.value < 0 ? "0-1" : "1/2"); break;
    }
}

/* ---- Moves as text ---- */

static void move_text(const Position *pos, Move m, bool korean, char *buf)
{
    if (korean)
        gib_move_text(pos, m, false, buf);
    else
        move_to_text(m, RANKS_FROM_1, buf);
}

/* Plays the moves on a copy of pos, writing each (as a JSON array or space-separated text). */
static void line_text(StrBuf *b, const Position *pos, const Move *moves, int count, bool korean, bool json)
{
    Position copy = *pos;
    if (pos->st == &pos->root)
        copy.st = &copy.root;
    StateInfo states[MAX_PLY];
    if (json)
        strbuf_puts(b, "[");
    for (int i = 0; i < count && i < MAX_PLY; i++) {
        if (!movegen_contains_legal(&copy, moves[i]))
            break;
        char text[GIB_MOVE_TEXT_SIZE];
        move_text(&copy, moves[i], korean, text);
        if (i)
            strbuf_puts(b, json ? "," : " ");
        if (json)
            buf_json(b, text);
        else
            strbuf_puts(b, text);
        position_make(&copy, moves[i], &states[i]);
    }
    if (json)
        strbuf_puts(b, "]");
}

static const char *side_name(Color c) { return c == WHITE ? "cho" : "han"; }
static const char *side_title(Color c) { return c == WHITE ? "Cho" : "Han"; }

static void material_json(StrBuf *b, MaterialCount m)
{
    strbuf_printf(b, "{\"cho\":%d,\"han\":%d.5}", m.cho, m.han + 1);
}

static void material_text(MaterialCount m, char *buf, size_t size)
{
    snprintf(buf, size, "%d-%d.5", m.cho, m.han + 1);
}

static const char *winner_name(GameResult r)
{
    return r == GAME_CHO_WINS ? "cho" : r == GAME_HAN_WINS ? "han" : r == GAME_DRAW ? "draw" : NULL;
}

static void end_json(StrBuf *b, const GameStatus *st)
{
    strbuf_printf(b, "{\"result\":\"%s\",\"winner\":\"%s\",\"reason\":\"%s\",\"immediate\":%s,\"by_counting\":%s",
               game_result_name(st->result), winner_name(st->result), end_reason_name(st->reason),
               st->immediate ? "true" : "false", st->by_counting ? "true" : "false");
}

static void end_text(const GameStatus *st, char *buf, size_t size)
{
    char material[32];
    material_text(st->material, material, sizeof material);
    const char *how = st->immediate ? "" : " (a referee's claim)";
    if (st->result == GAME_DRAW)
        snprintf(buf, size, "drawn by %s%s; material %s", end_reason_name(st->reason), how, material);
    else
        snprintf(buf, size, "%s wins by %s%s%s; material %s", st->result == GAME_CHO_WINS ? "Cho" : "Han",
                 end_reason_name(st->reason), st->by_counting ? ", decided by counting" : "", how, material);
}

static void limits_text(const AnalyzeOptions *o, char *buf, size_t size)
{
    int n = snprintf(buf, size, "per position:");
    if (o->depth)
        n += snprintf(buf + n, size - (size_t)n, " depth %d", o->depth);
    if (o->nodes)
        n += snprintf(buf + n, size - (size_t)n, " nodes %llu", (unsigned long long)o->nodes);
    if (o->movetime)
        snprintf(buf + n, size - (size_t)n, " movetime %lld ms", (long long)o->movetime);
}

static void limits_json(StrBuf *b, const AnalyzeOptions *o)
{
    strbuf_printf(b, "{\"depth\":%d,\"nodes\":%llu,\"movetime_ms\":%lld,\"multipv\":%d,\"threads\":%d}", o->depth,
               (unsigned long long)o->nodes, (long long)o->movetime, o->multipv, o->threads);
}

/* The multipv lines of a search, best first. */
static void lines_output(StrBuf *b, const Position *pos, const Searched *s, const AnalyzeOptions *o)
{
    bool first = true;
    for (int k = 0; k < s->count; k++) {
        Score score = info_score(&s->lines[k], pos->side);
        if (o->json) {
            strbuf_printf(b, "%s{\"rank\":%d,\"move\":", first ? "" : ",", k + 1);
            char text[GIB_MOVE_TEXT_SIZE];
            move_text(pos, s->lines[k].pv[0], o->korean, text);
            buf_json(b, text);
            strbuf_puts(b, ",\"score\":");
            score_json(b, score);
            strbuf_printf(b, ",\"depth\":%d,\"pv\":", s->lines[k].depth);
            line_text(b, pos, s->lines[k].pv, s->lines[k].pv_length, o->korean, true);
            strbuf_puts(b, "}");
        } else {
            char sc[32];
            score_text(score, sc, sizeof sc);
            strbuf_printf(b, "  %2d. %6s  ", k + 1, sc);
            line_text(b, pos, s->lines[k].pv, s->lines[k].pv_length, o->korean, false);
            strbuf_puts(b, "\n");
        }
        first = false;
    }
}

/* ---- Positions ---- */

static void analyze_position(const Item *it, const AnalyzeOptions *o, StrBuf *b)
{
    Game g;
    char err[200];
    game_start(&g, it->fen, it->rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err);
    const Position *pos = &g.pos;
    GameStatus st = game_status(&g);
    Searched s;
    memset(&s, 0, sizeof s);
    if (!st.immediate) {
        search_clear();
        run_search(&g, o, &s);
    }
    const SearchInfo *best = st.immediate ? NULL : best_line(&s);
    Score score = st.immediate ? result_score(st.result) : info_score(best, pos->side);
    const char *bm = it->epd ? epd_operation(it->epd, "bm") : NULL;
    const char *am = it->epd ? epd_operation(it->epd, "am") : NULL;
    char best_text[GIB_MOVE_TEXT_SIZE] = "";
    if (s.best)
        move_text(pos, s.best, o->korean, best_text);
    /* bm and am hold moves in any accepted notation, separated by spaces */
    int bm_verdict = -1, am_verdict = -1;
    for (int pass = 0; pass < 2 && s.best; pass++) {
        const char *list = pass ? am : bm;
        if (!list)
            continue;
        char copy[256], *save = NULL;
        snprintf(copy, sizeof copy, "%s", list);
        bool hit = false;
        for (char *tok = strtok_r(copy, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save)) {
            Move m;
            hit |= pgn_parse_move(pos, tok, &m) == PGN_MOVE_OK && m == s.best;
        }
        if (pass)
            am_verdict = !hit;
        else
            bm_verdict = hit;
    }
    if (o->json) {
        strbuf_printf(b, "{\"type\":\"position\",\"input\":\"%s\",\"file\":", input_names[it->input]);
        buf_json(b, it->file);
        if (it->line)
            strbuf_printf(b, ",\"line\":%d", it->line);
        else
            strbuf_puts(b, ",\"line\":null");
        strbuf_printf(b, ",\"number\":%d,\"fen\":", it->number);
        buf_json(b, it->fen);
        strbuf_printf(b, ",\"variant\":\"%s\",\"to_move\":\"%s\"", it->rules->name, side_name(pos->side));
        if (it->epd) {
            strbuf_puts(b, ",\"operations\":{");
            int written = 0;
            for (int i = 0; i < it->epd->op_count; i++) {
                bool repeated = false;
                for (int k = 0; k < i; k++)
                    repeated |= !strcmp(it->epd->ops[k].opcode, it->epd->ops[i].opcode);
                if (repeated)
                    continue;
                strbuf_puts(b, written++ ? "," : "");
                buf_json(b, it->epd->ops[i].opcode);
                strbuf_puts(b, ":");
                buf_json(b, it->epd->ops[i].operand);
            }
            strbuf_puts(b, "}");
        }
        strbuf_puts(b, ",\"material\":");
        material_json(b, st.material);
        strbuf_puts(b, ",\"end\":");
        if (st.result == GAME_ONGOING) {
            strbuf_puts(b, "null");
        } else {
            end_json(b, &st);
            strbuf_puts(b, "}");
        }
        strbuf_puts(b, ",\"limits\":");
        limits_json(b, o);
        if (best)
            strbuf_printf(b, ",\"search\":{\"depth\":%d,\"seldepth\":%d,\"nodes\":%llu,\"time_ms\":%lld}", best->depth,
                       best->seldepth, (unsigned long long)best->nodes, (long long)best->time_ms);
        else
            strbuf_puts(b, ",\"search\":null");
        strbuf_puts(b, ",\"best\":");
        buf_json(b, s.best ? best_text : NULL);
        strbuf_puts(b, ",\"score\":");
        score_json(b, score);
        strbuf_puts(b, ",\"pv\":");
        if (best)
            line_text(b, pos, best->pv, best->pv_length, o->korean, true);
        else
            line_text(b, pos, &s.best, s.best ? 1 : 0, o->korean, true);
        strbuf_puts(b, ",\"lines\":[");
        lines_output(b, pos, &s, o);
        strbuf_puts(b, "]");
        if (bm_verdict >= 0)
            strbuf_printf(b, ",\"bm_found\":%s", bm_verdict ? "true" : "false");
        if (am_verdict >= 0)
            strbuf_printf(b, ",\"am_avoided\":%s", am_verdict ? "true" : "false");
        strbuf_puts(b, "}\n");
    } else {
        char place[1200], material[32], limits[96];
        item_place(it, place, sizeof place);
        material_text(st.material, material, sizeof material);
        limits_text(o, limits, sizeof limits);
        strbuf_printf(b, "== Position %d (%s) ==\nFEN: %s\n", it->number, place, it->fen);
        strbuf_printf(b, "Rules: %s; %s to move; material %s (Cho-Han, with Han's 1.5-point deom)\n", it->rules->name,
                   side_title(pos->side), material);
        if (it->epd && it->epd->op_count) {
            strbuf_puts(b, "EPD:");
            for (int i = 0; i < it->epd->op_count; i++)
                strbuf_printf(b, " %s %s;", it->epd->ops[i].opcode, it->epd->ops[i].operand);
            strbuf_puts(b, "\n");
        }
        if (st.result != GAME_ONGOING) {
            char end[160];
            end_text(&st, end, sizeof end);
            strbuf_printf(b, "The game is over: %s\n", end);
        }
        if (!st.immediate) {
            if (best)
                strbuf_printf(b, "Search (%s): depth %d, seldepth %d, %llu nodes, %lld ms\n", limits, best->depth,
                           best->seldepth, (unsigned long long)best->nodes, (long long)best->time_ms);
            lines_output(b, pos, &s, o);
            char sc[32];
            score_text(score, sc, sizeof sc);
            strbuf_printf(b, "Best move: %s, score %s (Cho's view)", s.best ? best_text : "(none)", sc);
            if (bm_verdict >= 0)
                strbuf_printf(b, "; bm %s: %s", bm, bm_verdict ? "found" : "not found");
            if (am_verdict >= 0)
                strbuf_printf(b, "; am %s: %s", am, am_verdict ? "avoided" : "played");
            strbuf_puts(b, "\n");
        }
        strbuf_puts(b, "\n");
    }
    game_free(&g);
}

/* ---- Games ---- */

typedef struct {
    int moves, scored, best_played, marks[3];
    long loss_sum;
} PlayerSummary;

static const char *const mark_names[3] = {"inaccuracy", "mistake", "blunder"};

static int mark_of(int loss)
{
    return loss >= ANALYZE_BLUNDER ? 2 : loss >= ANALYZE_MISTAKE ? 1 : loss >= ANALYZE_INACCURACY ? 0 : -1;
}

static void game_header(const Item *it, const AnalyzeOptions *o, StrBuf *b)
{
    const ParsedGame *game = it->game;
    if (o->json) {
        strbuf_printf(b, "{\"type\":\"game\",\"input\":\"%s\",\"file\":", input_names[it->input]);
        buf_json(b, it->file);
        if (it->line)
            strbuf_printf(b, ",\"line\":%d", it->line);
        else
            strbuf_puts(b, ",\"line\":null");
        strbuf_printf(b, ",\"number\":%d,\"tags\":{", it->number);
        int written = 0;
        for (int i = 0; i < game->tag_count; i++) {
            if (record_tag(game, game->tags[i].name) != game->tags[i].value)
                continue; /* a repeated tag: the first one counts */
            strbuf_puts(b, written++ ? "," : "");
            buf_json(b, game->tags[i].name);
            strbuf_puts(b, ":");
            buf_json(b, game->tags[i].value);
        }
        strbuf_puts(b, "}");
        if (it->input == INPUT_GIB) {
            const char *result, *termination;
            gib_result(record_tag(game, "대국결과"), &result, &termination);
            strbuf_printf(b, ",\"record_result\":\"%s\",\"record_termination\":\"%s\"", result, termination);
        } else {
            const char *result = record_tag(game, "Result");
            strbuf_puts(b, ",\"record_result\":");
            buf_json(b, !result ? NULL
                        : !strcmp(result, "1-0") ? "cho"
                        : !strcmp(result, "0-1") ? "han"
                        : !strcmp(result, "1/2-1/2") ? "draw"
                                                     : "unknown");
            strbuf_puts(b, ",\"record_termination\":null");
        }
        strbuf_puts(b, ",\"start_fen\":");
        buf_json(b, game->start_fen);
        strbuf_printf(b, ",\"variant\":\"%s\",\"plies\":%d,\"limits\":", it->rules->name, game->move_count);
        limits_json(b, o);
        strbuf_puts(b, ",\"moves\":[");
        return;
    }
    char place[1200], limits[96];
    item_place(it, place, sizeof place);
    limits_text(o, limits, sizeof limits);
    strbuf_printf(b, "== Game %d (%s) ==\n", it->number, place);
    static const char *const shown[][2] = {{"대회명", "Event"},   {"Event", "Event"}, {"대국일자", "Date"},
                                           {"Date", "Date"},      {"초대국자", "Cho"}, {"White", "Cho"},
                                           {"한대국자", "Han"},   {"Black", "Han"},    {"대국결과", "Result"},
                                           {"Result", "Result"}};
    bool any = false;
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        const char *v = record_tag(game, shown[i][0]);
        if (v) {
            strbuf_printf(b, "%s%s: %s", any ? " | " : "", shown[i][1], v);
            any = true;
        }
    }
    if (any)
        strbuf_puts(b, "\n");
    char cho[16], han[16];
    if (gib_setups(game->start_fen, cho, han))
        strbuf_printf(b, "Start: %s (Cho %s, Han %s)\n", game->start_fen, cho, han);
    else
        strbuf_printf(b, "Start: %s\n", game->start_fen);
    strbuf_printf(b, "Rules: %s; search %s; scores in centipawns from Cho's view, loss from the mover's\n",
               it->rules->name, limits);
    strbuf_printf(b, "%4s %-4s %-10s %-10s %7s %7s %5s %-11s %s\n", "ply", "side", "move", "best", "before", "after",
               "loss", "mark", "material");
}

typedef struct {
    Color side;
    Move move, best;
    char move_text[GIB_MOVE_TEXT_SIZE], best_text[GIB_MOVE_TEXT_SIZE];
    Score before;
    int depth;
    StrBuf pv;    /* JSON array of the principal variation */
    StrBuf lines; /* JSON array of the multipv lines, with --multipv K > 1 */
} Row;

static void finish_row(const Row *row, int ply, Score after, MaterialCount material, const AnalyzeOptions *o, StrBuf *b,
                       PlayerSummary *sum)
{
    PlayerSummary *ps = &sum[row->side];
    ps->moves++;
    bool scored = row->before.kind != SCORE_NONE && after.kind != SCORE_NONE;
    int loss = 0, mark = -1;
    if (row->best && row->move == row->best)
        ps->best_played++;
    if (scored) {
        loss = row->move == row->best ? 0 : capped(row->before, row->side) - capped(after, row->side);
        if (loss < 0)
            loss = 0;
        mark = mark_of(loss);
        ps->scored++;
        ps->loss_sum += loss;
        if (mark >= 0)
            ps->marks[mark]++;
    }
    if (o->json) {
        strbuf_printf(b, "%s{\"ply\":%d,\"side\":\"%s\",\"move\":", ply > 1 ? "," : "", ply, side_name(row->side));
        buf_json(b, row->move_text);
        strbuf_puts(b, ",\"best\":");
        buf_json(b, row->best ? row->best_text : NULL);
        strbuf_puts(b, ",\"score_before\":");
        score_json(b, row->before);
        strbuf_puts(b, ",\"score_after\":");
        score_json(b, after);
        if (scored)
            strbuf_printf(b, ",\"loss\":%d", loss);
        else
            strbuf_puts(b, ",\"loss\":null");
        strbuf_puts(b, ",\"mark\":");
        buf_json(b, mark >= 0 ? mark_names[mark] : NULL);
        strbuf_puts(b, ",\"material\":");
        material_json(b, material);
        strbuf_printf(b, ",\"depth\":%d,\"pv\":%s", row->depth, row->pv.text ? row->pv.text : "[]");
        if (o->multipv > 1)
            strbuf_printf(b, ",\"lines\":[%s]", row->lines.text ? row->lines.text : "");
        strbuf_puts(b, "}");
        return;
    }
    char before[32], aft[32], mat[32], loss_text[16] = "?";
    score_text(row->before, before, sizeof before);
    score_text(after, aft, sizeof aft);
    material_text(material, mat, sizeof mat);
    if (scored)
        snprintf(loss_text, sizeof loss_text, "%d", loss);
    strbuf_printf(b, "%4d %-4s ", ply, side_title(row->side));
    buf_column(b, row->move_text, 10);
    buf_column(b, row->best ? row->best_text : "-", 10);
    strbuf_printf(b, "%7s %7s %5s %-11s %s\n", before, aft, loss_text, mark >= 0 ? mark_names[mark] : "", mat);
}

static void analyze_game(const Item *it, const AnalyzeOptions *o, StrBuf *b)
{
    const ParsedGame *game = it->game;
    Game g;
    char err[200];
    game_start(&g, game->start_fen, it->rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err);
    search_clear();
    game_header(it, o, b);
    if (!o->json)
        flush_buf(b);
    PlayerSummary sum[COLOR_COUNT];
    memset(sum, 0, sizeof sum);
    Row row;
    memset(&row, 0, sizeof row);
    GameStatus end = {0}, final = {0};
    int end_ply = -1;
    Searched s;
    for (int ply = 0; ply <= game->move_count; ply++) {
        final = game_status(&g);
        if (end_ply < 0 && final.result != GAME_ONGOING) {
            end = final;
            end_ply = ply;
        }
        Score score;
        if (final.immediate) {
            score = result_score(final.result);
            memset(&s, 0, sizeof s);
        } else {
            run_search(&g, o, &s);
            score = info_score(best_line(&s), g.pos.side);
        }
        if (ply > 0) {
            finish_row(&row, ply, score, referee_count_material(&g.pos), o, b, sum);
            if (!o->json)
                flush_buf(b);
        }
        if (ply == game->move_count)
            break;
        /* the move about to be played */
        Move m = game->moves[ply];
        const SearchInfo *best = best_line(&s);
        row.side = g.pos.side;
        row.move = m;
        row.best = s.best;
        row.before = score;
        row.depth = best ? best->depth : 0;
        move_text(&g.pos, m, o->korean, row.move_text);
        if (s.best)
            move_text(&g.pos, s.best, o->korean, row.best_text);
        row.pv.len = row.lines.len = 0;
        if (row.pv.text)
            row.pv.text[0] = '\0';
        if (row.lines.text)
            row.lines.text[0] = '\0';
        if (best && o->json)
            line_text(&row.pv, &g.pos, best->pv, best->pv_length, o->korean, true);
        if (o->json && o->multipv > 1)
            lines_output(&row.lines, &g.pos, &s, o);
        game_play(&g, m);
    }
    strbuf_free(&row.pv);
    strbuf_free(&row.lines);
    if (o->json) {
        strbuf_puts(b, "],\"summary\":{");
        for (Color c = WHITE; c <= BLACK; c++) {
            const PlayerSummary *ps = &sum[c];
            strbuf_printf(b, "%s\"%s\":{\"moves\":%d,\"average_loss\":", c ? "," : "", side_name(c), ps->moves);
            if (ps->scored)
                strbuf_printf(b, "%.1f", (double)ps->loss_sum / ps->scored);
            else
                strbuf_puts(b, "null");
            strbuf_printf(b, ",\"best_moves\":%d,\"inaccuracies\":%d,\"mistakes\":%d,\"blunders\":%d}", ps->best_played,
                       ps->marks[0], ps->marks[1], ps->marks[2]);
        }
        strbuf_puts(b, "},\"end\":");
        if (end_ply < 0) {
            strbuf_puts(b, "null");
        } else {
            end_json(b, &end);
            strbuf_printf(b, ",\"ply\":%d,\"material\":", end_ply);
            material_json(b, end.material);
            strbuf_printf(b, ",\"record_continues\":%s}", end_ply < game->move_count ? "true" : "false");
        }
        char fen[RECORD_FEN_SIZE];
        position_to_fen(&g.pos, fen, sizeof fen);
        strbuf_puts(b, ",\"final\":{\"fen\":");
        buf_json(b, fen);
        strbuf_puts(b, ",\"material\":");
        material_json(b, final.material);
        strbuf_puts(b, "}}\n");
    } else {
        strbuf_puts(b, "Summary:\n");
        for (Color c = WHITE; c <= BLACK; c++) {
            const PlayerSummary *ps = &sum[c];
            char avg[32] = "?";
            if (ps->scored)
                snprintf(avg, sizeof avg, "%.1f", (double)ps->loss_sum / ps->scored);
            strbuf_printf(b, "  %s: %d moves, average loss %s, best move played %d, ", side_title(c), ps->moves, avg,
                       ps->best_played);
            strbuf_printf(b, "%d inaccuracies, %d mistakes, %d blunders\n", ps->marks[0], ps->marks[1], ps->marks[2]);
        }
        char text[200];
        if (end_ply < 0) {
            char material[32];
            material_text(final.material, material, sizeof material);
            strbuf_printf(b, "End: not over after %d plies, by the referee; material %s\n", game->move_count, material);
        } else {
            end_text(&end, text, sizeof text);
            strbuf_printf(b, "End: after ply %d, %s%s\n", end_ply, text,
                       end_ply < game->move_count ? " (the record goes on past it)" : "");
        }
        strbuf_puts(b, "\n");
    }
    game_free(&g);
}

static void error_output(const Item *it, const AnalyzeOptions *o, StrBuf *b)
{
    if (!o->json)
        return; /* the message went to standard error when the input was read */
    strbuf_printf(b, "{\"type\":\"error\",\"input\":\"%s\",\"file\":", input_names[it->input]);
    buf_json(b, it->file);
    if (it->line)
        strbuf_printf(b, ",\"line\":%d", it->line);
    else
        strbuf_puts(b, ",\"line\":null");
    if (it->number)
        strbuf_printf(b, ",\"number\":%d", it->number);
    else
        strbuf_puts(b, ",\"number\":null");
    strbuf_puts(b, ",\"message\":");
    buf_json(b, it->message);
    strbuf_puts(b, "}\n");
}

/* ---- Main ---- */

int analyze_main(int argc, char **argv)
{
    AnalyzeOptions o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    char err[256];
    if (!eval_init(err, sizeof err)) {
        fprintf(stderr, "janggun: error: %s\n", err);
        return 2;
    }
    search_init();
    if (!search_set_threads(o.threads) || !search_set_hash((size_t)o.hash)) {
        fprintf(stderr, "janggun: error: cannot start %d threads with a %ld MB table\n", o.threads, o.hash);
        search_shutdown();
        return 2;
    }

    Work w = {0};
    for (int i = 0; i < o.input_count; i++) {
        const Input *in = &o.inputs[i];
        if (in->kind == INPUT_FEN)
            load_fen(&w, in, &o);
        else if (in->kind == INPUT_EPD)
            load_epd(&w, in, &o);
        else
            load_games(&w, in, &o);
    }

    progress.on = o.progress < 0 ? isatty(STDERR_FILENO) : o.progress;
    progress.start = clock_seconds();
    for (int i = 0; i < w.count; i++)
        progress.total += w.items[i].kind == ITEM_POSITION ? 1
                          : w.items[i].kind == ITEM_GAME   ? w.items[i].game->move_count + 1
                                                           : 0;
    progress_draw(true);

    StrBuf b = {0};
    for (int i = 0; i < w.count; i++) {
        const Item *it = &w.items[i];
        if (it->kind == ITEM_POSITION)
            analyze_position(it, &o, &b);
        else if (it->kind == ITEM_GAME)
            analyze_game(it, &o, &b);
        else
            error_output(it, &o, &b);
        flush_buf(&b);
    }
    progress_end();
    strbuf_free(&b);

    for (int i = 0; i < w.count; i++) {
        free(w.items[i].epd);
        free(w.items[i].message);
        if (w.items[i].owns_game) {
            free(w.items[i].game->moves);
            free(w.items[i].game);
        }
    }
    free(w.items);
    for (int i = 0; i < w.list_count; i++)
        record_list_free(&w.lists[i]);
    free(w.lists);
    search_shutdown();
    return w.failures ? 1 : 0;
}

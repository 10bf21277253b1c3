#define _POSIX_C_SOURCE 200809L
#include "analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/base/base.h"
#include "../engine/base/cli_options.h"
#include "../engine/movegen.h"
#include "../engine/records/epd.h"
#include "../engine/records/gib.h"
#include "../engine/records/jsonl.h"
#include "../engine/records/pgn.h"
#include "../eval/eval.h"
#include "../search/search.h"
#include "review.h"
#include "review_output.h"

enum { MAX_INPUTS = 64, MAX_DEPTH = 100 };

/* ---- AnalyzeOptions ---- */

typedef struct {
    InputKind kind;
    const char *arg;   /* the FEN or the file name */
    const char *moves; /* --moves after --fen */
} Input;

typedef struct {
    Input inputs[MAX_INPUTS];
    int input_count;
    int depth, multipv, threads, hash;
    int64_t nodes, movetime;
    const RuleSet *rules;
    bool rules_given, json, korean, progress;
} AnalyzeOptions;

/* --fen, --epd, --gib, --pgn, --jsonl and --moves, in command-line order: --moves after a --fen is that
 * position's game, otherwise a game from the start. */
static bool add_input(const CliOption *option, char **words, int count, void *context, char *err, size_t err_size)
{
    (void)count;
    AnalyzeOptions *o = context;
    const char *name = option->name, *value = words[0];
    bool moves = !strcmp(name, "--moves");
    Input *last = o->input_count ? &o->inputs[o->input_count - 1] : NULL;
    if (moves && last && last->kind == INPUT_FEN && !last->moves) {
        last->moves = value;
        return true;
    }
    if (o->input_count == MAX_INPUTS) {
        snprintf(err, err_size, "at most %d inputs", MAX_INPUTS);
        return false;
    }
    InputKind kind = !strcmp(name, "--epd")     ? INPUT_EPD
                     : !strcmp(name, "--gib")   ? INPUT_GIB
                     : !strcmp(name, "--pgn")   ? INPUT_PGN
                     : !strcmp(name, "--jsonl") ? INPUT_JSONL
                                                : INPUT_FEN;
    o->inputs[o->input_count++] = moves ? (Input){INPUT_FEN, NULL, value} : (Input){kind, value, NULL};
    return true;
}

/* Returns -1 when the options are fine, else the exit status. */
static int parse_options(int argc, char **argv, AnalyzeOptions *o)
{
    memset(o, 0, sizeof *o);
    o->multipv = 1;
    o->threads = 1;
    o->hash = 16;
    o->progress = isatty(STDERR_FILENO);
    const char *variant = NULL;
    int notation = 0;
    const CliOption options[] = {
        {.name = "--fen",
         .kind = CLI_STRING,
         .action = add_input,
         .value_name = "\"FEN\"",
         .help = "a position (startpos: the start); with --moves after it, a game from it"},
        {.name = "--moves",
         .kind = CLI_STRING,
         .action = add_input,
         .value_name = "\"M1 M2 ...\"",
         .help = "a game from the --fen before it, or from the start position"},
        {.name = "--epd", .kind = CLI_STRING, .action = add_input, .value_name = "FILE", .help = "positions (EPD)"},
        {.name = "--gib", .kind = CLI_STRING, .action = add_input, .value_name = "FILE", .help = "games (GIB)"},
        {.name = "--pgn", .kind = CLI_STRING, .action = add_input, .value_name = "FILE", .help = "games (PGN)"},
        {.name = "--jsonl",
         .kind = CLI_STRING,
         .action = add_input,
         .value_name = "FILE",
         .help = "games as JSON lines, plain or xz (the corpus's form)"},
        {.name = "--depth",
         .kind = CLI_INT,
         .integer = &o->depth,
         .min = 1,
         .max = MAX_DEPTH,
         .value_name = "N",
         .help = "search each position to depth N (default 10 when no limit is given)"},
        {.name = "--movetime",
         .kind = CLI_INT64,
         .integer64 = &o->movetime,
         .min = 1,
         .max = 86400000,
         .value_name = "MS",
         .help = "search each position for MS milliseconds"},
        {.name = "--nodes",
         .kind = CLI_INT64,
         .integer64 = &o->nodes,
         .min = 1,
         .max = 1000000000000LL,
         .value_name = "N",
         .help = "search each position for N nodes"},
        {.name = "--multipv",
         .kind = CLI_INT,
         .integer = &o->multipv,
         .min = 1,
         .max = MAX_MULTIPV,
         .value_name = "K",
         .help = "the K best lines of each position (default 1)"},
        {.name = "--threads",
         .kind = CLI_INT,
         .integer = &o->threads,
         .min = 1,
         .max = MAX_THREADS,
         .value_name = "N",
         .help = "search threads (default 1)"},
        {.name = "--hash",
         .kind = CLI_INT,
         .integer = &o->hash,
         .min = 1,
         .max = 65536,
         .value_name = "MB",
         .help = "the hash table's size (default 16)"},
        {.name = "--variant",
         .kind = CLI_STRING,
         .text = &variant,
         .value_name = "NAME",
         .help = "janggi (default), janggicasual, janggimodern or janggitraditional"},
        {.name = "--json", .kind = CLI_FLAG, .flag = &o->json, .help = "one JSON object per position or game"},
        {.name = "--notation",
         .kind = CLI_CHOICE,
         .choice = &notation,
         .choices = (const char *const[]){"uci", "korean", NULL},
         .value_name = "uci|korean",
         .help = "moves as UCI (default) or in the GIB style"},
        {.name = "--progress",
         .kind = CLI_FLAG,
         .flag = &o->progress,
         .help = "the progress bar on standard error (default: when it is a terminal)"},
        {.name = "--no-progress", .kind = CLI_FLAG, .flag = &o->progress, .off = true, .help = "no progress bar"},
    };
    const CliCommand cmd = {
        "janggun analyze", "usage: janggun analyze INPUT... [LIMITS] [OPTIONS]\n",
        "INPUT is --fen (with --moves), --moves, --epd, --gib, --pgn or --jsonl, repeated and mixed as wanted,\n"
        "analysed in order; LIMITS are --depth, --movetime and --nodes, for every position searched. See README.md.\n",
        options, CLI_COUNT(options)};
    int status = cli_read_options(&cmd, argc, argv, o);
    if (status >= 0)
        return status;
    o->korean = notation == 1;
    o->rules = &RULES_JANGGI;
    if (variant && !(o->rules = rules_by_name(variant))) {
        report_error("janggun", "unknown variant '%s' (janggi, janggicasual, janggimodern, janggitraditional)",
                     variant);
        return 2;
    }
    o->rules_given = variant != NULL;
    if (o->input_count == 0) {
        report_error("janggun", "analyze needs an input: --fen, --moves, --epd, --gib, --pgn or --jsonl");
        return 2;
    }
    if (!o->depth && !o->nodes && !o->movetime)
        o->depth = ANALYZE_DEFAULT_DEPTH;
    return -1;
}

/* ---- Progress on standard error ---- */

static struct {
    bool on;
    long total, done;
    double start, last_draw;
} progress;

static void progress_draw(bool force);

/* Writes the buffer to standard output, the progress line cleared first and drawn again after. */
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
    ReviewSource from;
    const RuleSet *rules;
    char fen[RECORD_FEN_SIZE];
    EpdPosition *epd; /* EPD positions */
    ParsedGame *game; /* games (owned by a ParsedGameList, or by the item for --fen) */
    bool owns_game;
    char *message; /* errors */
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
    if (!ARRAY_RESERVE(w->items, w->capacity, w->count + 1)) {
        report_error("janggun", "out of memory");
        exit(2);
    }
    Item *it = &w->items[w->count++];
    memset(it, 0, sizeof *it);
    *it = (Item){.kind = kind, .from = {.input = input, .file = file, .number = number, .line = line}};
    return it;
}

static Item *add_error(Work *w, InputKind input, const char *file, const char *label, int number, int line,
                       const char *message)
{
    Item *it = add_item(w, ITEM_ERROR, input, file, number, line);
    it->from.label = label;
    it->message = strdup(message);
    char place[1200];
    review_place(&it->from, place, sizeof place);
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
        it->from.label = label;
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
                        r == PGN_MOVE_SYNTAX      ? "unreadable"
                        : r == PGN_MOVE_AMBIGUOUS ? "ambiguous"
                                                  : "illegal",
                        tok, ply);
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
    it->from.label = label;
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
            snprintf(msg, sizeof msg,
                     "variant '%.100s' is not Janggi (janggi, janggicasual, janggimodern, janggitraditional)", variant);
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
    ParsedGameList *list = new_list(w);
    char *data = NULL;
    if (in->kind == INPUT_JSONL) {
        if (!jsonl_read_games(in->arg, &RULES_JANGGI, o->rules_given ? o->rules : NULL, list, err, sizeof err)) {
            add_error(w, in->kind, NULL, "--jsonl", 0, 0, err); /* the message names the file */
            if (list->count == 0)
                return; /* the file could not be opened */
        }
    } else if (!(data = read_whole_file(in->arg, &len, err, sizeof err))) {
        add_error(w, in->kind, in->arg, NULL, 0, 0, err);
        return;
    } else if (in->kind == INPUT_GIB) {
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

/* A search under way: its result (the lines of the last complete iteration, all of them up to
 * --multipv, and the best move, the first move of the first line) and the iteration being reported. */
typedef struct {
    ReviewSearch *result;
    SearchInfo partial[MAX_MULTIPV]; /* the iteration being reported */
    bool partial_have[MAX_MULTIPV];
    int want; /* lines in an iteration */
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
        memcpy(s->result->lines, s->partial, (size_t)s->want * sizeof s->result->lines[0]);
        s->result->count = s->want;
        memset(s->partial_have, 0, sizeof s->partial_have);
    }
}

static void on_bestmove(Move best, Move ponder, void *ctx)
{
    (void)ponder;
    ((Searched *)ctx)->result->best = best;
}

/* Searches the game's position with the limits of the options into *out. */
static void run_search(const Game *g, const AnalyzeOptions *o, ReviewSearch *out)
{
    out->count = 0;
    out->best = MOVE_NONE;
    Searched s;
    memset(&s, 0, sizeof s);
    s.result = out;
    int legal = movegen_count_legal(&g->pos);
    s.want = o->multipv < legal ? o->multipv : legal;
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
    SearchReport report = {on_info, on_bestmove, &s};
    search_start(g, &limits, &report);
    search_wait();
    /* stopped before the first iteration was complete: the lines it did report */
    if (out->count == 0) {
        int n = 0;
        while (n < s.want && s.partial_have[n]) {
            out->lines[n] = s.partial[n];
            n++;
        }
        out->count = n;
    }
    if (out->count > 0)
        out->best = out->lines[0].pv[0];
    progress.done++;
    progress_draw(false);
}

/* ---- Positions and games ---- */

static void analyze_position(const Item *it, const AnalyzeOptions *o, const ReviewFormat *f, StrBuf *b)
{
    Game g;
    char err[200];
    game_start(&g, it->fen, it->rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err);
    GameStatus st = game_status(&g);
    ReviewSearch s;
    memset(&s, 0, sizeof s);
    if (!st.immediate) {
        search_clear();
        run_search(&g, o, &s);
    }
    const char *bm = it->epd ? epd_operation(it->epd, "bm") : NULL;
    const char *am = it->epd ? epd_operation(it->epd, "am") : NULL;
    PositionReview pr = review_position(&g.pos, st, st.immediate ? NULL : &s, bm, am);
    if (o->json)
        review_json_position(b, &it->from, it->fen, it->epd, &pr, f);
    else
        review_text_position(b, &it->from, it->fen, it->epd, &pr, f);
    game_free(&g);
}

static void analyze_game(const Item *it, const AnalyzeOptions *o, const ReviewFormat *f, StrBuf *b)
{
    Review r;
    ReviewSearch s;
    char err[200];
    if (!review_start_record(&r, it->game, err, sizeof err)) {
        /* the readers check every move, so this does not happen */
        report_error("janggun", "game %d: %s", it->from.number, err);
        exit(2);
    }
    search_clear();
    if (o->json) {
        review_json_game_start(b, &it->from, it->game, f);
    } else {
        review_text_game_start(b, &it->from, it->game, f);
        flush_buf(b);
    }
    while (!r.done) {
        bool searched = review_needs_search(&r);
        if (searched)
            run_search(&r.game, o, &s);
        const ReviewRow *row = review_add(&r, searched ? &s : NULL);
        if (!row)
            continue;
        if (o->json) {
            review_json_row(b, row, f);
        } else {
            review_text_row(b, row, f);
            flush_buf(b);
        }
    }
    if (o->json)
        review_json_game_end(b, &r);
    else
        review_text_game_end(b, &r);
    review_free(&r);
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
        fprintf(stderr, "janggun: error: cannot start %d threads with a %d MB table\n", o.threads, o.hash);
        search_shutdown();
        return 2;
    }
    const ReviewFormat format = {.depth = o.depth,
                                 .multipv = o.multipv,
                                 .threads = o.threads,
                                 .nodes = o.nodes,
                                 .movetime = o.movetime,
                                 .korean = o.korean};

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

    progress.on = o.progress;
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
            analyze_position(it, &o, &format, &b);
        else if (it->kind == ITEM_GAME)
            analyze_game(it, &o, &format, &b);
        else if (o.json)
            review_json_error(&b, &it->from, it->message); /* in text, the message went to standard error */
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

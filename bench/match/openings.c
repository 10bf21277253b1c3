#define _POSIX_C_SOURCE 200809L /* strtok_r, getline, localtime_r, sigaction, gethostname */
#include "openings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/base/base.h"
#include "../../engine/base/datafile.h"
#include "../../engine/game.h"
#include "../../engine/records/epd.h"
#include "../../engine/records/jsonl.h"

/* The shipped openings file, embedded at build time (openings_blob.c). */
extern const char openings_builtin_blob[], openings_builtin_blob_end[];

void openings_free(OpeningBook *book)
{
    for (int i = 0; i < book->count; i++)
        free(book->items[i].moves);
    free(book->items);
    memset(book, 0, sizeof *book);
}

typedef enum { ADD_OK, ADD_ILLEGAL, ADD_ERROR } AddResult;

/* Replays `moves` (at most max_plies of them; 0: all) from `fen` and adds the opening unless the
 * game is over. ADD_ILLEGAL (nothing added) when a move is illegal under the rules, ADD_ERROR when
 * the FEN or a move's text is bad; both with a message. */
static AddResult add_opening(OpeningBook *book, int *capacity, const char *fen, const char *moves, int max_plies,
                             const RuleSet *rules, char *err, size_t err_size)
{
    Game game;
    char msg[160];
    if (!game_start(&game, fen, rules, FEN_ALLOW_EXTRA_PIECES, msg, sizeof msg)) {
        snprintf(err, err_size, "bad FEN: %s", msg);
        return ADD_ERROR;
    }
    size_t len = strlen(moves);
    char *text = malloc(len * 2 + 2), *copy = malloc(len + 1);
    if (!text || !copy) {
        free(text), free(copy), game_free(&game);
        snprintf(err, err_size, "out of memory");
        return ADD_ERROR;
    }
    memcpy(copy, moves, len + 1);
    text[0] = '\0';
    size_t used = 0;
    bool over = false;
    int plies = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, " \t", &save); tok && (max_plies == 0 || plies < max_plies);
         tok = strtok_r(NULL, " \t", &save)) {
        if (game_status(&game).result != GAME_ONGOING) {
            over = true;
            break;
        }
        MoveParseResult r = game_play_text(&game, tok, RANKS_FROM_1);
        if (r != MOVE_PARSE_OK) {
            snprintf(err, err_size, "%s move '%s' at ply %d", r == MOVE_PARSE_SYNTAX ? "unparsable" : "illegal", tok,
                     plies + 1);
            free(text), free(copy), game_free(&game);
            return r == MOVE_PARSE_SYNTAX ? ADD_ERROR : ADD_ILLEGAL;
        }
        char mt[MOVE_TEXT_SIZE];
        move_to_text(game.moves[plies], RANKS_FROM_1, mt);
        used += (size_t)sprintf(text + used, "%s%s", plies ? " " : "", mt);
        plies++;
    }
    free(copy);
    if (over || game_status(&game).result != GAME_ONGOING) {
        book->skipped_over++;
        free(text), game_free(&game);
        return ADD_OK;
    }
    if (!ARRAY_RESERVE(book->items, *capacity, book->count + 1)) {
        free(text), game_free(&game);
        snprintf(err, err_size, "out of memory");
        return ADD_ERROR;
    }
    Opening *o = &book->items[book->count++];
    snprintf(o->fen, sizeof o->fen, "%s", game.start_fen);
    o->moves = text;
    o->plies = plies;
    char reached[128];
    position_to_fen(&game.pos, reached, sizeof reached);
    size_t fields = strcspn(reached, " ") + 2; /* the board, a blank and the side to move */
    snprintf(o->reached, sizeof o->reached, "%.*s", (int)fields, reached);
    game_free(&game);
    return ADD_OK;
}

/* ---- EPD ---- */

/* A book read a line at a time, its lines counted for the messages. */
typedef struct {
    FILE *f;
    char *line;
    size_t size;
    long lineno;
} BookLines;

/* The next line with more than blanks on it, from its first non-blank; NULL at the end of the file. An
 * EPD line first loses its end of line, and a '#' comment is skipped; in JSONL line ends are blanks. */
static const char *book_next_line(BookLines *r, bool epd)
{
    while (getline(&r->line, &r->size, r->f) >= 0) {
        r->lineno++;
        if (epd)
            r->line[strcspn(r->line, "\r\n")] = '\0';
        const char *p = r->line + strspn(r->line, epd ? " \t" : " \t\r\n");
        if (*p != '\0' && !(epd && *p == '#'))
            return p;
    }
    return NULL;
}

static bool load_epd(const OpeningConfig *config, const RuleSet *rules, OpeningBook *book, int *cap, FILE *f, char *err,
                     size_t err_size)
{
    BookLines r = {.f = f};
    bool ok = true;
    EpdPosition *epd = malloc(sizeof *epd);
    StrBuf moves = {0};
    if (!epd) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    while (ok && book_next_line(&r, true)) {
        char msg[200];
        if (!epd_parse_line(r.line, epd, msg, sizeof msg)) {
            snprintf(err, err_size, "%s:%ld: %s", config->path, r.lineno, msg);
            ok = false;
            continue;
        }
        moves.len = 0;
        strbuf_add(&moves, epd->has_moves ? r.line + epd->moves_at : "", epd->has_moves ? epd->moves_len : 0);
        if (moves.failed) {
            snprintf(err, err_size, "out of memory");
            ok = false;
        } else if (add_opening(book, cap, epd->fen, moves.text, config->plies, rules, msg, sizeof msg) != ADD_OK) {
            snprintf(err, err_size, "%s:%ld: %s", config->path, r.lineno, msg);
            ok = false;
        }
    }
    strbuf_free(&moves);
    free(epd);
    free(r.line);
    return ok;
}

/* ---- JSONL: the "start_fen" and "moves" of each game (engine/records/jsonl.h) ---- */

static bool load_jsonl(const OpeningConfig *config, const RuleSet *rules, OpeningBook *book, int *cap, FILE *f,
                       char *err, size_t err_size)
{
    int plies = config->plies > 0 ? config->plies : 8;
    BookLines r = {.f = f};
    const char *p;
    bool ok = true;
    StrBuf moves = {0};
    while (ok && (p = book_next_line(&r, false))) {
        JsonObject game;
        char msg[200];
        if (!json_parse_object(p, &game, msg, sizeof msg)) {
            snprintf(err, err_size, "%s:%ld: not a JSON object (%s)", config->path, r.lineno, msg);
            ok = false;
            continue;
        }
        const char *fen = json_str(&game, "start_fen");
        const JsonField *list = json_get(&game, "moves");
        if (!fen || !list || list->type != JSON_ARRAY) {
            snprintf(err, err_size, "%s:%ld: no \"%s\" field", config->path, r.lineno, fen ? "moves" : "start_fen");
            ok = false;
        } else if (list->arr_len < plies) {
            book->skipped_short++;
        } else {
            moves.len = 0;
            strbuf_puts(&moves, "");
            for (int i = 0; i < plies; i++)
                strbuf_printf(&moves, "%s%s", i ? " " : "", list->arr[i]);
            AddResult added =
                moves.failed ? ADD_ERROR : add_opening(book, cap, fen, moves.text, plies, rules, msg, sizeof msg);
            if (moves.failed)
                snprintf(msg, sizeof msg, "out of memory");
            if (added == ADD_ILLEGAL) {
                book->skipped_illegal++;
            } else if (added == ADD_ERROR) {
                snprintf(err, err_size, "%s:%ld: %s", config->path, r.lineno, msg);
                ok = false;
            }
        }
        json_free(&game);
    }
    strbuf_free(&moves);
    free(r.line);
    return ok;
}

/* ---- duplicates and order ---- */

static int compare_openings(const void *a, const void *b)
{
    const Opening *x = *(const Opening *const *)a, *y = *(const Opening *const *)b;
    int c = strcmp(x->reached, y->reached);
    if (c == 0)
        c = x < y ? -1 : x > y;
    return c;
}

/* Drops the later openings that reach a position already reached, keeping the order of the first ones. */
static bool drop_duplicates(OpeningBook *book)
{
    if (book->count < 2)
        return true;
    Opening **sorted = malloc((size_t)book->count * sizeof *sorted);
    bool *dup = calloc((size_t)book->count, sizeof *dup);
    if (!sorted || !dup) {
        free(sorted), free(dup);
        return false;
    }
    for (int i = 0; i < book->count; i++)
        sorted[i] = &book->items[i];
    qsort(sorted, (size_t)book->count, sizeof *sorted, compare_openings);
    for (int i = 1; i < book->count; i++)
        if (strcmp(sorted[i]->reached, sorted[i - 1]->reached) == 0)
            dup[sorted[i] - book->items] = true;
    int kept = 0;
    for (int i = 0; i < book->count; i++) {
        if (dup[i]) {
            free(book->items[i].moves);
            book->duplicates++;
        } else {
            book->items[kept++] = book->items[i];
        }
    }
    book->count = kept;
    free(sorted), free(dup);
    return true;
}

bool openings_load(const OpeningConfig *config, const RuleSet *rules, OpeningBook *book, char *err, size_t err_size)
{
    memset(book, 0, sizeof *book);
    int cap = 0;
    bool ok = true;
    const char *path = config->source == OPENINGS_BUILTIN ? openings_builtin_path : config->path;
    if (config->source == OPENINGS_STARTPOS) {
        ok = add_opening(book, &cap, START_FEN, "", 0, rules, err, err_size) == ADD_OK;
    } else if (config->source == OPENINGS_BUILTIN) {
        size_t size = (size_t)(openings_builtin_blob_end - openings_builtin_blob);
        FILE *f = fmemopen((void *)openings_builtin_blob, size, "r");
        if (!f) {
            snprintf(err, err_size, "cannot read the built-in openings: %s", strerror(errno));
            return false;
        }
        OpeningConfig builtin = *config;
        builtin.path = path;
        ok = load_epd(&builtin, rules, book, &cap, f, err, err_size);
        fclose(f);
    } else if (config->source == OPENINGS_SETUPS) {
        static const char *const names[] = {"inner", "outer", "left", "right"};
        for (int cho = 0; cho < 4 && ok; cho++)
            for (int han = 0; han < 4 && ok; han++) {
                char fen[128];
                ok = setup_start_fen(names[cho], names[han], fen, sizeof fen, err, err_size)
                     && add_opening(book, &cap, fen, "", 0, rules, err, err_size) == ADD_OK;
            }
    } else {
        char msg[600];
        DataFile *file = datafile_open(config->path, msg, sizeof msg);
        if (!file) {
            snprintf(err, err_size, "openings: %s", msg);
            return false;
        }
        FILE *f = datafile_stream(file);
        ok = config->source == OPENINGS_EPD ? load_epd(config, rules, book, &cap, f, err, err_size)
                                            : load_jsonl(config, rules, book, &cap, f, err, err_size);
        /* A broken compressed file also cuts its last line short: its own message says more. */
        if (!datafile_close(file, msg, sizeof msg)) {
            snprintf(err, err_size, "%s", msg);
            ok = false;
        }
    }
    if (ok && !drop_duplicates(book)) {
        snprintf(err, err_size, "out of memory");
        ok = false;
    }
    if (ok && book->count == 0) {
        snprintf(err, err_size, "no usable opening in '%s'", path ? path : "the built-in list");
        ok = false;
    }
    if (!ok) {
        openings_free(book);
        return false;
    }
    if (config->random) {
        uint64_t state = config->seed;
        for (int i = book->count - 1; i > 0; i--) {
            int j = (int)(splitmix64(&state) % (uint64_t)(i + 1));
            Opening t = book->items[i];
            book->items[i] = book->items[j];
            book->items[j] = t;
        }
    }
    return true;
}

bool openings_write(const OpeningBook *book, const char *header, FILE *out)
{
    for (const char *line = header; line && *line;) {
        size_t len = strcspn(line, "\n");
        fprintf(out, "#%s%.*s\n", len ? " " : "", (int)len, line);
        line += len + (line[len] == '\n');
    }
    for (int i = 0; i < book->count; i++) {
        const Opening *o = &book->items[i];
        fprintf(out, "%s%s%s\n", o->fen, o->plies ? " moves " : "", o->moves);
    }
    return fflush(out) == 0 && !ferror(out);
}

const char *openings_source_text(const OpeningConfig *config)
{
    static char builtin[300];
    switch (config->source) {
    case OPENINGS_BUILTIN: snprintf(builtin, sizeof builtin, "the built-in %s", openings_builtin_path); return builtin;
    case OPENINGS_STARTPOS: return "the start position";
    case OPENINGS_SETUPS: return "the 16 setups";
    default: return config->path;
    }
}

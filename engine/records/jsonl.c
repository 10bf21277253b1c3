#define _POSIX_C_SOURCE 200809L /* getline */
#include "jsonl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "../game.h"
#include "../movegen.h"

enum { MAX_DEPTH = 64 };

typedef struct {
    const char *p, *base;
    char *err;
    size_t err_size;
    bool failed;
} Reader;

static bool fail(Reader *r, const char *why)
{
    if (!r->failed && r->err)
        snprintf(r->err, r->err_size, "%s at byte %td", why, r->p - r->base); /* counted from 0 */
    r->failed = true;
    return false;
}

static void skip_blanks(Reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
        r->p++;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static void put_utf8(StrBuf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80)
        u[0] = (char)cp, n = 1;
    else if (cp < 0x800)
        u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F)),
        n = 3;
    else
        u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    strbuf_add(b, u, n);
}

/* A string at r->p (on its opening quote); its decoded text, or NULL (out: NULL skips it). */
static bool read_string(Reader *r, char **out)
{
    if (*r->p != '"')
        return fail(r, "expected a string");
    r->p++;
    StrBuf b = {0};
    for (;;) {
        unsigned char c = (unsigned char)*r->p;
        if (c == '"')
            break;
        if (c == '\0') {
            strbuf_free(&b);
            return fail(r, "unterminated string");
        }
        if (c < 0x20) {
            strbuf_free(&b);
            return fail(r, "control character in a string");
        }
        if (c != '\\') {
            const char *run = r->p;
            while (*r->p != '"' && *r->p != '\\' && (unsigned char)*r->p >= 0x20)
                r->p++;
            if (out)
                strbuf_add(&b, run, (size_t)(r->p - run));
            continue;
        }
        char e = r->p[1];
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            if (out)
                strbuf_add(&b, &decoded[simple - "\"\\/bfnrt"], 1);
            r->p += 2;
            continue;
        }
        if (e != 'u') {
            strbuf_free(&b);
            return fail(r, "bad escape in a string");
        }
        int cp = hex4(r->p + 2);
        if (cp < 0) {
            strbuf_free(&b);
            return fail(r, "bad \\u escape");
        }
        r->p += 6;
        if (cp >= 0xD800 && cp < 0xDC00 && r->p[0] == '\\' && r->p[1] == 'u') {
            int lo = hex4(r->p + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                r->p += 6;
            }
        }
        if (out)
            put_utf8(&b, cp >= 0xD800 && cp < 0xE000 ? 0xFFFD : (unsigned)cp); /* a lone surrogate */
    }
    r->p++;
    if (out) {
        *out = strbuf_take(&b);
        if (!*out)
            return fail(r, "out of memory");
    }
    return true;
}

static bool skip_value(Reader *r, int depth);

static bool skip_container(Reader *r, int depth)
{
    char close = *r->p == '{' ? '}' : ']';
    bool object = *r->p == '{';
    r->p++;
    skip_blanks(r);
    if (*r->p == close) {
        r->p++;
        return true;
    }
    for (;;) {
        skip_blanks(r);
        if (object) {
            if (!read_string(r, NULL))
                return false;
            skip_blanks(r);
            if (*r->p != ':')
                return fail(r, "expected ':'");
            r->p++;
        }
        if (!skip_value(r, depth + 1))
            return false;
        skip_blanks(r);
        if (*r->p == ',') {
            r->p++;
            continue;
        }
        if (*r->p == close) {
            r->p++;
            return true;
        }
        return fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static size_t number_length(const char *p)
{
    const char *s = p;
    if (*s == '-')
        s++;
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9')
        s++;
    if (*s == '.') {
        s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return (size_t)(s - p);
}

static bool skip_value(Reader *r, int depth)
{
    if (depth > MAX_DEPTH)
        return fail(r, "nested too deeply");
    skip_blanks(r);
    if (*r->p == '"')
        return read_string(r, NULL);
    if (*r->p == '{' || *r->p == '[')
        return skip_container(r, depth);
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++)
        if (strncmp(r->p, words[i], strlen(words[i])) == 0) {
            r->p += strlen(words[i]);
            return true;
        }
    size_t n = number_length(r->p);
    if (!n)
        return fail(r, "expected a value");
    r->p += n;
    return true;
}

/* An array of strings into f; any other array (numbers, a mix) is checked and skipped. */
static bool read_array(Reader *r, JsonField *f)
{
    const char *start = r->p;
    r->p++;
    skip_blanks(r);
    int cap = 0;
    f->type = JSON_ARRAY;
    if (*r->p == ']') {
        r->p++;
        return true;
    }
    for (;;) {
        if (*r->p != '"') { /* not an array of strings: keep nothing of it */
            for (int i = 0; i < f->arr_len; i++)
                free(f->arr[i]);
            free(f->arr);
            f->arr = NULL, f->arr_len = 0, f->type = JSON_SKIPPED;
            r->p = start;
            return skip_container(r, 1);
        }
        if (!ARRAY_RESERVE(f->arr, cap, f->arr_len + 1))
            return fail(r, "out of memory");
        if (!read_string(r, &f->arr[f->arr_len]))
            return false;
        f->arr_len++;
        skip_blanks(r);
        if (*r->p == ']') {
            r->p++;
            return true;
        }
        if (*r->p != ',')
            return fail(r, "expected ',' or ']'");
        r->p++;
        skip_blanks(r);
    }
}

bool json_parse_object(const char *line, JsonObject *o, char *err, size_t err_size)
{
    memset(o, 0, sizeof *o);
    Reader r = {line, line, err, err_size, false};
    skip_blanks(&r);
    if (*r.p != '{')
        return fail(&r, "not a JSON object"), json_free(o), false;
    r.p++;
    skip_blanks(&r);
    bool ok = true;
    if (*r.p == '}')
        r.p++;
    else
        for (;;) {
            skip_blanks(&r);
            if (!ARRAY_RESERVE(o->fields, o->capacity, o->count + 1)) {
                ok = fail(&r, "out of memory");
                break;
            }
            JsonField *f = &o->fields[o->count];
            memset(f, 0, sizeof *f);
            if (!read_string(&r, &f->key)) {
                ok = false;
                break;
            }
            o->count++;
            skip_blanks(&r);
            if (*r.p != ':') {
                ok = fail(&r, "expected ':'");
                break;
            }
            r.p++;
            skip_blanks(&r);
            size_t n;
            if (*r.p == '"') {
                f->type = JSON_STRING;
                ok = read_string(&r, &f->str);
            } else if (*r.p == '[') {
                ok = read_array(&r, f);
            } else if (*r.p == '{') {
                f->type = JSON_SKIPPED;
                ok = skip_container(&r, 1);
            } else if (strncmp(r.p, "null", 4) == 0) {
                f->type = JSON_NULL;
                r.p += 4;
            } else if (strncmp(r.p, "true", 4) == 0 || strncmp(r.p, "false", 5) == 0) {
                f->type = JSON_BOOL;
                f->boolean = *r.p == 't';
                r.p += f->boolean ? 4 : 5;
            } else if ((n = number_length(r.p)) > 0) {
                f->type = JSON_NUMBER;
                f->str = strndup(r.p, n);
                r.p += n;
                ok = f->str != NULL || fail(&r, "out of memory");
            } else {
                ok = fail(&r, "expected a value");
            }
            if (!ok)
                break;
            skip_blanks(&r);
            if (*r.p == ',') {
                r.p++;
                continue;
            }
            if (*r.p != '}')
                ok = fail(&r, "expected ',' or '}'");
            else
                r.p++;
            break;
        }
    if (ok) {
        skip_blanks(&r);
        if (*r.p != '\0')
            ok = fail(&r, "text after the object");
    }
    if (!ok)
        json_free(o);
    return ok;
}

void json_free(JsonObject *o)
{
    for (int i = 0; i < o->count; i++) {
        JsonField *f = &o->fields[i];
        free(f->key);
        free(f->str);
        for (int k = 0; k < f->arr_len; k++)
            free(f->arr[k]);
        free(f->arr);
    }
    free(o->fields);
    memset(o, 0, sizeof *o);
}

const JsonField *json_get(const JsonObject *o, const char *key)
{
    for (int i = 0; i < o->count; i++)
        if (strcmp(o->fields[i].key, key) == 0)
            return &o->fields[i];
    return NULL;
}

const char *json_str(const JsonObject *o, const char *key)
{
    const JsonField *f = json_get(o, key);
    return f && f->type == JSON_STRING ? f->str : NULL;
}

bool json_lines_open(JsonLines *r, const char *path, char *err, size_t err_size)
{
    memset(r, 0, sizeof *r);
    r->file = datafile_open(path, err, err_size);
    return r->file != NULL;
}

const char *json_lines_next(JsonLines *r, int every)
{
    while (getline(&r->line, &r->cap, datafile_stream(r->file)) > 0)
        if (r->n++ % every == 0)
            return r->line;
    return NULL;
}

bool json_lines_close(JsonLines *r, char *err, size_t err_size)
{
    free(r->line);
    bool ok = datafile_close(r->file, err, err_size);
    r->line = NULL, r->cap = 0, r->file = NULL; /* n still counts the lines read */
    return ok;
}

/* ---- games ---- */

void jsonl_parse_game(const char *line, int line_no, const RuleSet *default_rules, const RuleSet *forced,
                      ParsedGame *game)
{
    JsonObject o;
    char why[200];
    if (!json_parse_object(line, &o, why, sizeof why)) {
        record_fail(game, line_no, "bad JSON: %s", why);
        return;
    }
    for (int i = 0; i < o.count && game->ok; i++) {
        const JsonField *f = &o.fields[i];
        bool tag = (f->type == JSON_STRING || f->type == JSON_NUMBER) && strcmp(f->key, "start_fen") != 0;
        if (tag && !record_add_tag(game, f->key, f->str))
            record_fail(game, line_no, "out of memory");
    }
    const RuleSet *rules = forced ? forced : default_rules;
    const char *variant = json_str(&o, "variant");
    if (variant && !rules_by_name(variant))
        record_fail(game, line_no,
                    "variant '%.100s' is not Janggi (janggi, janggicasual, janggimodern, janggitraditional)", variant);
    else if (variant && !forced)
        rules = rules_by_name(variant);
    game->rules = rules;
    const char *fen = json_str(&o, "start_fen");
    const JsonField *moves = json_get(&o, "moves");
    if (!moves || moves->type != JSON_ARRAY)
        record_fail(game, line_no, "no \"moves\" array");
    if (json_get(&o, "start_fen") && !fen)
        record_fail(game, line_no, "\"start_fen\" is not a string");
    else if (fen && strlen(fen) >= sizeof game->start_fen)
        record_fail(game, line_no, "bad start_fen: longer than %d characters", (int)sizeof game->start_fen - 1);
    snprintf(game->start_fen, sizeof game->start_fen, "%s", fen ? fen : START_FEN);
    Game g;
    if (game->ok && !game_start(&g, game->start_fen, rules, FEN_STRICT, why, sizeof why)) {
        record_fail(game, line_no, "bad start_fen: %s", why);
    } else if (game->ok) {
        position_to_fen(&g.pos, game->start_fen, sizeof game->start_fen);
        for (int i = 0; i < moves->arr_len && game->ok; i++) {
            const char *text = moves->arr[i];
            MoveParseResult r = game_play_text(&g, text, RANKS_FROM_1);
            if (r == MOVE_PARSE_OK) {
                if (!record_add_move(game, g.moves[g.length - 1]))
                    record_fail(game, line_no, "out of memory");
            } else if (movegen_count_legal(&g.pos) == 0) {
                GameStatus st = game_status(&g);
                record_fail(game, line_no, "ply %d: move '%.40s' after the end of the game (%s)", i + 1, text,
                            end_reason_name(st.reason));
            } else {
                record_fail(game, line_no, "ply %d: %s move '%.40s'", i + 1,
                            r == MOVE_PARSE_SYNTAX ? "unreadable" : "illegal", text);
            }
        }
        game_free(&g);
    }
    json_free(&o);
}

bool jsonl_read_games(const char *path, const RuleSet *default_rules, const RuleSet *forced, ParsedGameList *out,
                      char *err, size_t err_size)
{
    JsonLines r;
    if (!json_lines_open(&r, path, err, err_size))
        return false;
    const char *line;
    bool ok = true;
    while (ok && (line = json_lines_next(&r, 1)) != NULL) {
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (!*p)
            continue;
        ParsedGame *game = record_list_add(out, r.n);
        if (!game) {
            snprintf(err, err_size, "out of memory");
            ok = false;
            break;
        }
        jsonl_parse_game(line, r.n, default_rules, forced, game);
    }
    return json_lines_close(&r, ok ? err : NULL, ok ? err_size : 0) && ok;
}

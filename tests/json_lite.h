/* A small reader for the flat JSON objects of the game corpus (one per line): string, number, true,
 * false and null members, and arrays of strings. Enough for the expected parses the tests compare
 * against; not a general JSON parser. Not a test program itself (the Makefile builds tests/test_*.c). */
#ifndef JANGGUN_TESTS_JSON_LITE_H
#define JANGGUN_TESTS_JSON_LITE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/base/datafile.h"

enum { JSON_MAX_FIELDS = 32 };

typedef enum { JSON_NULL, JSON_STRING, JSON_NUMBER, JSON_BOOL, JSON_ARRAY } JsonType;

typedef struct {
    char key[64];
    JsonType type;
    char *str;   /* JSON_STRING; also the number's text */
    char **arr;  /* JSON_ARRAY of strings */
    int arr_len;
    bool boolean;
} JsonField;

typedef struct {
    JsonField fields[JSON_MAX_FIELDS];
    int count;
} JsonObject;

static inline void json_ws(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

static inline void json_put_utf8(char **out, unsigned cp)
{
    if (cp < 0x80) {
        *(*out)++ = (char)cp;
    } else if (cp < 0x800) {
        *(*out)++ = (char)(0xC0 | cp >> 6);
        *(*out)++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *(*out)++ = (char)(0xE0 | cp >> 12);
        *(*out)++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *(*out)++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *(*out)++ = (char)(0xF0 | cp >> 18);
        *(*out)++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *(*out)++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *(*out)++ = (char)(0x80 | (cp & 0x3F));
    }
}

/* Reads a string at *p (on its opening quote) into a malloc'd UTF-8 string. */
static inline char *json_string(const char **p)
{
    if (**p != '"')
        return NULL;
    (*p)++;
    const char *start = *p;
    size_t cap = 1;
    while (**p && **p != '"') {
        if (**p == '\\' && (*p)[1])
            (*p)++;
        (*p)++;
        cap++;
    }
    if (**p != '"')
        return NULL;
    char *s = malloc(4 * cap), *out = s;
    for (const char *q = start; q < *p; q++) {
        if (*q != '\\') {
            *out++ = *q;
            continue;
        }
        q++;
        switch (*q) {
        case 'n': *out++ = '\n'; break;
        case 't': *out++ = '\t'; break;
        case 'r': *out++ = '\r'; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'u': {
            unsigned cp = (unsigned)strtoul((char[5]){q[1], q[2], q[3], q[4], 0}, NULL, 16);
            q += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && q[1] == '\\' && q[2] == 'u') {
                unsigned lo = (unsigned)strtoul((char[5]){q[3], q[4], q[5], q[6], 0}, NULL, 16);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                q += 6;
            }
            json_put_utf8(&out, cp);
            break;
        }
        default: *out++ = *q; break;
        }
    }
    *out = '\0';
    (*p)++;
    return s;
}

static inline void json_free(JsonObject *o)
{
    for (int i = 0; i < o->count; i++) {
        free(o->fields[i].str);
        for (int k = 0; k < o->fields[i].arr_len; k++)
            free(o->fields[i].arr[k]);
        free(o->fields[i].arr);
    }
    o->count = 0;
}

/* Parses one flat object; false when the line is not one. */
static inline bool json_parse_object(const char *line, JsonObject *o)
{
    memset(o, 0, sizeof *o);
    const char *p = line;
    json_ws(&p);
    if (*p++ != '{')
        return false;
    json_ws(&p);
    if (*p == '}')
        return true;
    for (;;) {
        json_ws(&p);
        if (o->count == JSON_MAX_FIELDS)
            return false;
        JsonField *f = &o->fields[o->count];
        char *key = json_string(&p);
        if (!key)
            return false;
        snprintf(f->key, sizeof f->key, "%s", key);
        free(key);
        o->count++;
        json_ws(&p);
        if (*p++ != ':')
            return false;
        json_ws(&p);
        if (*p == '"') {
            f->type = JSON_STRING;
            if (!(f->str = json_string(&p)))
                return false;
        } else if (!strncmp(p, "null", 4)) {
            f->type = JSON_NULL;
            p += 4;
        } else if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
            f->type = JSON_BOOL;
            f->boolean = *p == 't';
            p += f->boolean ? 4 : 5;
        } else if (*p == '[') {
            f->type = JSON_ARRAY;
            p++;
            int cap = 0;
            json_ws(&p);
            while (*p != ']') {
                if (f->arr_len == cap) {
                    cap = cap ? 2 * cap : 64;
                    f->arr = realloc(f->arr, (size_t)cap * sizeof *f->arr);
                }
                char *s = json_string(&p);
                if (!s)
                    return false;
                f->arr[f->arr_len++] = s;
                json_ws(&p);
                if (*p == ',') {
                    p++;
                    json_ws(&p);
                }
            }
            p++;
        } else {
            f->type = JSON_NUMBER;
            const char *start = p;
            while (*p && *p != ',' && *p != '}' && *p != ' ')
                p++;
            f->str = strndup(start, (size_t)(p - start));
        }
        json_ws(&p);
        if (*p == ',') {
            p++;
            continue;
        }
        return *p == '}';
    }
}

static inline const JsonField *json_get(const JsonObject *o, const char *key)
{
    for (int i = 0; i < o->count; i++)
        if (!strcmp(o->fields[i].key, key))
            return &o->fields[i];
    return NULL;
}

/* The string value of a member; NULL for null or a missing member. */
static inline const char *json_str(const JsonObject *o, const char *key)
{
    const JsonField *f = json_get(o, key);
    return f && f->type == JSON_STRING ? f->str : NULL;
}

/* A .jsonl file, plain or xz-compressed, read a line at a time (getline: define _POSIX_C_SOURCE
 * 200809L first); n counts the lines read so far. */
typedef struct {
    DataFile *file;
    char *line;
    size_t cap;
    int n;
} JsonLines;

/* false with the message when the file cannot be opened. */
static inline bool json_lines_open(JsonLines *r, const char *path, char *err, size_t err_size)
{
    memset(r, 0, sizeof *r);
    r->file = datafile_open(path, err, err_size);
    return r->file != NULL;
}

/* The next line whose index (from 0) is a multiple of every; NULL at the end of the file. */
static inline const char *json_lines_next(JsonLines *r, int every)
{
    while (getline(&r->line, &r->cap, datafile_stream(r->file)) > 0)
        if (r->n++ % every == 0)
            return r->line;
    return NULL;
}

/* false with the message when the text ended on an error (a truncated or corrupt file). */
static inline bool json_lines_close(JsonLines *r, char *err, size_t err_size)
{
    free(r->line);
    return datafile_close(r->file, err, err_size);
}

#endif

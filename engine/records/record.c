#define _POSIX_C_SOURCE 200809L
#include "record.h"
#include "../base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ParsedGame *record_list_add(ParsedGameList *list, int line)
{
    if (!ARRAY_RESERVE(list->games, list->capacity, list->count + 1))
        return NULL;
    ParsedGame *game = &list->games[list->count++];
    memset(game, 0, sizeof *game);
    game->number = list->count;
    game->line = line;
    game->ok = true;
    return game;
}

void record_list_free(ParsedGameList *list)
{
    for (int i = 0; i < list->count; i++) {
        ParsedGame *game = &list->games[i];
        for (int t = 0; t < game->tag_count; t++) {
            free(game->tags[t].name);
            free(game->tags[t].value);
        }
        free(game->tags);
        free(game->moves);
    }
    free(list->games);
    memset(list, 0, sizeof *list);
}

bool record_add_tag(ParsedGame *game, const char *name, const char *value)
{
    if (!ARRAY_RESERVE(game->tags, game->tag_capacity, game->tag_count + 1))
        return false;
    char *n = strdup(name), *v = strdup(value);
    if (!n || !v) {
        free(n);
        free(v);
        return false;
    }
    game->tags[game->tag_count++] = (RecordTag){n, v};
    return true;
}

bool record_add_move(ParsedGame *game, Move m)
{
    if (!ARRAY_RESERVE(game->moves, game->move_capacity, game->move_count + 1))
        return false;
    game->moves[game->move_count++] = m;
    return true;
}

const char *record_tag(const ParsedGame *game, const char *name)
{
    for (int i = 0; i < game->tag_count; i++)
        if (strcmp(game->tags[i].name, name) == 0)
            return game->tags[i].value;
    return NULL;
}

void record_fail(ParsedGame *game, int line, const char *fmt, ...)
{
    if (!game->ok)
        return;
    game->ok = false;
    game->error_line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(game->error, sizeof game->error, fmt, ap);
    va_end(ap);
}

char *record_next_line(char **cursor)
{
    char *line = *cursor;
    if (!line || !*line)
        return NULL;
    char *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *cursor = nl + 1;
    } else {
        *cursor = line + strlen(line);
    }
    size_t n = strlen(line);
    if (n && line[n - 1] == '\r')
        line[n - 1] = '\0';
    return line;
}

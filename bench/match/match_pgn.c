#define _POSIX_C_SOURCE 200809L /* strtok_r, getline, localtime_r, sigaction, gethostname */
#include "match_pgn.h"

#include <stdlib.h>
#include <string.h>

/* A tag value with quotes and backslashes escaped. */
static void write_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *c = value ? value : "?"; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', out);
        fputc(*c == '\n' ? ' ' : *c, out);
    }
    fputs("\"]\n", out);
}

/* Movetext words, wrapped at 79 columns. */
typedef struct {
    FILE *out;
    int column;
} Wrap;

static void word(Wrap *w, const char *text)
{
    int len = (int)strlen(text);
    if (w->column > 0 && w->column + 1 + len > 79) {
        fputc('\n', w->out);
        w->column = 0;
    }
    if (w->column > 0) {
        fputc(' ', w->out);
        w->column++;
    }
    fputs(text, w->out);
    w->column += len;
}

/* A comment; braces inside it become parentheses, as PGN comments cannot hold '}'. */
static void comment(Wrap *w, const char *text)
{
    size_t n = strlen(text);
    char *c = malloc(n + 3);
    if (!c)
        return;
    c[0] = '{';
    for (size_t i = 0; i < n; i++)
        c[i + 1] = text[i] == '}' ? ')' : text[i] == '{' ? '(' : text[i] == '\n' ? ' ' : text[i];
    c[n + 1] = '}';
    c[n + 2] = '\0';
    /* Long comments are split at spaces like any words. */
    char *save = NULL;
    for (char *tok = strtok_r(c, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        word(w, tok);
    free(c);
}

void match_pgn_write(FILE *out, const MatchPgnGame *g)
{
    const Game *game = g->game;
    write_tag(out, "Event", g->event);
    write_tag(out, "Site", g->site);
    write_tag(out, "Date", g->date);
    write_tag(out, "Round", g->round);
    write_tag(out, "White", g->white);
    write_tag(out, "Black", g->black);
    write_tag(out, "Result", g->result);
    write_tag(out, "Variant", "Janggi");
    write_tag(out, "Rules", g->rules);
    write_tag(out, "SetUp", "1");
    write_tag(out, "FEN", game->start_fen);
    write_tag(out, "TimeControl", g->time_control);
    write_tag(out, "Termination", g->termination);
    char plies[16];
    snprintf(plies, sizeof plies, "%d", game->length);
    write_tag(out, "PlyCount", plies);
    fputc('\n', out);

    /* The FEN gives the side to move and the move number: "<board> w|b - - <halfmove> <fullmove>". */
    char side = 'w';
    int fullmove = 1;
    const char *sp = strchr(game->start_fen, ' ');
    if (sp) {
        side = sp[1];
        const char *last = strrchr(game->start_fen, ' ');
        fullmove = atoi(last + 1);
        if (fullmove < 1)
            fullmove = 1;
    }
    Wrap w = {out, 0};
    bool black = side == 'b', number_black = true; /* Han's move needs "N..." first, after a comment */
    for (int i = 0; i < game->length; i++) {
        char num[24], mt[MOVE_TEXT_SIZE];
        if (!black) {
            snprintf(num, sizeof num, "%d.", fullmove);
            word(&w, num);
        } else if (number_black) {
            snprintf(num, sizeof num, "%d...", fullmove);
            word(&w, num);
        }
        move_to_text(game->moves[i], RANKS_FROM_1, mt);
        word(&w, mt);
        number_black = false;
        if (g->comments && g->comments[i] && g->comments[i][0]) {
            comment(&w, g->comments[i]);
            number_black = true;
        }
        if (black)
            fullmove++;
        black = !black;
    }
    if (g->final_comment && g->final_comment[0])
        comment(&w, g->final_comment);
    word(&w, g->result);
    fputs("\n\n", out);
}

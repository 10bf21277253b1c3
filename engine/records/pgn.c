#define _POSIX_C_SOURCE 200809L
#include "pgn.h"

#include "../base/base.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../game.h"
#include "../move.h"
#include "../movegen.h"

/* ---- Moves ---- */

static const char san_letters[PIECE_TYPE_COUNT + 1] = "?PAEHCRK";

static PieceType letter_type(char c)
{
    switch (c) {
    case 'K': return GENERAL;
    case 'A': return GUARD;
    case 'E':
    case 'B': return ELEPHANT;
    case 'H':
    case 'N': return HORSE;
    case 'R': return CHARIOT;
    case 'C': return CANNON;
    case 'P': return SOLDIER;
    default: return NO_PIECE_TYPE;
    }
}

/* Ranks 1-10 at *p ("10" before a single digit); -1 when there is none. */
static int read_rank(const char **p)
{
    const char *s = *p;
    if (s[0] == '1' && s[1] == '0') {
        *p += 2;
        return 10;
    }
    if (s[0] >= '1' && s[0] <= '9') {
        *p += 1;
        return s[0] - '0';
    }
    return -1;
}

static bool is_file(char c) { return c >= 'a' && c <= 'i'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A GIB square, row digit then column digit (FSF's Janggi notation). */
static Square gib_square(const char *s)
{
    int row = s[0] - '0';
    return make_square(s[1] - '1', row == 0 ? 0 : 10 - row);
}

static PgnMoveResult legal_or_illegal(const Position *pos, Move m, Move *out)
{
    if (!movegen_contains_legal(pos, m))
        return PGN_MOVE_ILLEGAL;
    *out = m;
    return PGN_MOVE_OK;
}

PgnMoveResult pgn_parse_move(const Position *pos, const char *text, Move *out)
{
    char t[32];
    size_t n = strlen(text);
    while (n && strchr("+#!?", text[n - 1]))
        n--;
    if (n == 0 || n >= sizeof t)
        return PGN_MOVE_SYNTAX;
    memcpy(t, text, n);
    t[n] = '\0';
    Square general = pos->general[pos->side];
    if (!strcasecmp(t, "pass") || !strcmp(t, "0000") || !strcmp(t, "@@@@") || !strcmp(t, "--"))
        return legal_or_illegal(pos, make_move(general, general), out);

    /* UCI: <file><rank><file><rank>, ranks 1-10 */
    const char *p = t;
    if (is_file(p[0])) {
        const char *q = p + 1;
        int r1 = read_rank(&q);
        if (r1 > 0 && is_file(q[0])) {
            const char *q2 = q + 1;
            int r2 = read_rank(&q2);
            if (r2 > 0 && !*q2)
                return legal_or_illegal(
                    pos, make_move(make_square(p[0] - 'a', r1 - 1), make_square(q[0] - 'a', r2 - 1)), out);
        }
    }

    PieceType piece = NO_PIECE_TYPE;
    if (isupper((unsigned char)*p)) {
        piece = letter_type(*p);
        if (piece == NO_PIECE_TYPE)
            return PGN_MOVE_SYNTAX;
        p++;
    }

    /* FSF's Janggi notation: H02-83 */
    if (is_digit(p[0]) && is_digit(p[1]) && p[1] != '0') {
        const char *q = p + 2;
        if (*q == '-' || *q == 'x')
            q++;
        if (is_digit(q[0]) && is_digit(q[1]) && q[1] != '0' && !q[2]) {
            Square from = gib_square(p), to = gib_square(q);
            Piece pc = pos->board[from];
            if (!pc || piece_color(pc) != pos->side || (piece && piece_type(pc) != piece))
                return PGN_MOVE_ILLEGAL;
            return legal_or_illegal(pos, make_move(from, to), out);
        }
    }

    /* SAN: [origin file][origin rank][x|-]<file><rank> */
    int f1 = -1, r1 = -1, f2 = -1, r2 = -1;
    bool capture = false, separator = false;
    if (is_file(*p))
        f1 = *p++ - 'a';
    if (is_digit(*p) && (r1 = read_rank(&p)) < 0)
        return PGN_MOVE_SYNTAX;
    if (*p == 'x' || *p == '-') {
        capture = *p == 'x';
        separator = true;
        p++;
    }
    if (is_file(*p)) {
        f2 = *p++ - 'a';
        if ((r2 = read_rank(&p)) < 0)
            return PGN_MOVE_SYNTAX;
    }
    if (*p)
        return PGN_MOVE_SYNTAX;
    if (f2 < 0) {
        if (f1 < 0 || r1 < 0 || separator)
            return PGN_MOVE_SYNTAX;
        f2 = f1, r2 = r1, f1 = r1 = -1;
    }
    Square to = make_square(f2, r2 - 1);
    if (to == general && piece == GENERAL && (f1 < 0 || f1 == square_file(general))
        && (r1 < 0 || r1 - 1 == square_rank(general)))
        return legal_or_illegal(pos, make_move(general, general), out);
    if (piece == NO_PIECE_TYPE)
        piece = SOLDIER;

    MoveList legal;
    movegen_legal(pos, &legal);
    int found = 0;
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        Square from = move_from(m);
        if (move_is_pass(m) || move_to(m) != to || piece_type(pos->board[from]) != piece)
            continue;
        if ((f1 >= 0 && square_file(from) != f1) || (r1 >= 0 && square_rank(from) != r1 - 1))
            continue;
        if (capture && !pos->board[to])
            continue;
        if (found++ == 0)
            *out = m;
    }
    return found == 0 ? PGN_MOVE_ILLEGAL : found == 1 ? PGN_MOVE_OK : PGN_MOVE_AMBIGUOUS;
}

void pgn_move_to_san(const Position *pos, Move m, char *buf)
{
    Square from = move_from(m), to = move_to(m);
    char square[MOVE_TEXT_SIZE];
    square_to_text(to, RANKS_FROM_1, square);
    if (move_is_pass(m)) {
        snprintf(buf, PGN_SAN_SIZE, "K%s", square);
        return;
    }
    PieceType pt = piece_type(pos->board[from]);
    char *out = buf;
    *out++ = san_letters[pt];

    MoveList legal;
    movegen_legal(pos, &legal);
    bool others = false, same_file = false, same_rank = false;
    for (int i = 0; i < legal.count; i++) {
        Square s = move_from(legal.moves[i]);
        if (move_to(legal.moves[i]) != to || s == from || move_is_pass(legal.moves[i])
            || piece_type(pos->board[s]) != pt)
            continue;
        others = true;
        same_file |= square_file(s) == square_file(from);
        same_rank |= square_rank(s) == square_rank(from);
    }
    if (others) {
        char origin[MOVE_TEXT_SIZE];
        square_to_text(from, RANKS_FROM_1, origin);
        if (!same_file)
            *out++ = origin[0];
        else if (!same_rank)
            out += sprintf(out, "%s", origin + 1);
        else
            out += sprintf(out, "%s", origin);
    }
    if (pos->board[to])
        *out++ = 'x';
    out += sprintf(out, "%s", square);

    Position copy = *pos;
    if (pos->st == &pos->root)
        copy.st = &copy.root;
    StateInfo st;
    position_make(&copy, m, &st);
    if (position_in_check(&copy))
        *out++ = movegen_count_legal(&copy) ? '+' : '#';
    *out = '\0';
}

/* ---- Reading ---- */

typedef struct {
    char *text;
    int line;
} Word;

typedef struct {
    ParsedGame *game;
    Word *words;
    int word_count, word_capacity;
    bool has_movetext; /* moves or a result token seen: a tag now starts the next game */
} Pending;

static bool add_word(Pending *pg, const char *start, size_t len, int line)
{
    if (!ARRAY_RESERVE(pg->words, pg->word_capacity, pg->word_count + 1))
        return false;
    char *text = strndup(start, len);
    if (!text)
        return false;
    pg->words[pg->word_count++] = (Word){text, line};
    return true;
}

static const RuleSet *variant_rules(const char *name)
{
    char lower[32];
    size_t n = strlen(name);
    if (n >= sizeof lower)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)tolower((unsigned char)name[i]);
    return rules_by_name(lower);
}

static const char *const parse_problem[] = {"", "unreadable", "illegal", "ambiguous"};

static void finish_game(Pending *pg, const RuleSet *default_rules, const RuleSet *forced)
{
    ParsedGame *game = pg->game;
    if (!game)
        return;
    const char *variant = record_tag(game, "Variant");
    const RuleSet *rules = forced ? forced : default_rules;
    if (variant) {
        const RuleSet *named = variant_rules(variant);
        if (!named)
            record_fail(game, game->line,
                        "variant '%s' is not Janggi (janggi, janggicasual, janggimodern, janggitraditional)", variant);
        else if (!forced)
            rules = named;
    }
    game->rules = rules;
    const char *fen = record_tag(game, "FEN");
    if (fen && strlen(fen) >= sizeof game->start_fen) /* cut short, it could read as another position */
        record_fail(game, game->line, "bad FEN tag: longer than %d characters", (int)sizeof game->start_fen - 1);
    snprintf(game->start_fen, sizeof game->start_fen, "%s", fen ? fen : START_FEN);
    Game g;
    char why[160];
    if (game->ok && !game_start(&g, game->start_fen, rules, FEN_STRICT, why, sizeof why))
        record_fail(game, game->line, "bad FEN tag: %s", why);
    else if (game->ok) {
        position_to_fen(&g.pos, game->start_fen, sizeof game->start_fen);
        int ply = 0;
        for (int i = 0; i < pg->word_count && game->ok; i++) {
            const char *w = pg->words[i].text;
            /* move numbers: "12." and "12...", also glued to the move ("12.Hc3") */
            const char *p = w;
            while (is_digit(*p))
                p++;
            if (p > w && *p == '.') {
                while (*p == '.')
                    p++;
                w = p;
            }
            if (!*w)
                continue;
            ply++;
            Move m = MOVE_NONE;
            PgnMoveResult r = pgn_parse_move(&g.pos, w, &m);
            if (r == PGN_MOVE_OK && !game_play(&g, m))
                r = PGN_MOVE_ILLEGAL;
            if (r != PGN_MOVE_OK) {
                MoveList legal;
                movegen_legal(&g.pos, &legal);
                if (legal.count == 0) {
                    GameStatus st = game_status(&g);
                    record_fail(game, pg->words[i].line, "ply %d: move '%s' after the end of the game (%s)", ply, w,
                                end_reason_name(st.reason));
                } else {
                    record_fail(game, pg->words[i].line, "ply %d: %s move '%s'", ply, parse_problem[r], w);
                }
            } else if (!record_add_move(game, m)) {
                record_fail(game, pg->words[i].line, "out of memory");
            }
        }
        game_free(&g);
    }
    for (int i = 0; i < pg->word_count; i++)
        free(pg->words[i].text);
    pg->word_count = 0;
    pg->game = NULL;
    pg->has_movetext = false;
}

/* Reads a tag pair at *p (just past '['); false when it is broken. */
static bool read_tag(ParsedGame *game, const char **cursor)
{
    const char *p = *cursor;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *name = p;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
        p++;
    size_t name_len = (size_t)(p - name);
    while (*p == ' ' || *p == '\t')
        p++;
    if (name_len == 0 || name_len > 64 || *p != '"')
        return false;
    p++;
    char value[1024];
    size_t n = 0;
    while (*p && *p != '"' && *p != '\n') {
        if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
            p++;
        if (n + 1 < sizeof value)
            value[n++] = *p;
        p++;
    }
    value[n] = '\0';
    if (*p != '"')
        return false;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != ']')
        return false;
    *cursor = p + 1;
    char tag[72];
    memcpy(tag, name, name_len);
    tag[name_len] = '\0';
    return record_add_tag(game, tag, value);
}

void pgn_parse(const char *data, size_t len, const RuleSet *default_rules, const RuleSet *forced, ParsedGameList *out)
{
    char *text = malloc(len + 1);
    if (!text)
        return;
    for (size_t i = 0; i < len; i++)
        text[i] = data[i] ? data[i] : ' ';
    text[len] = '\0';
    Pending pg = {0};
    int line = 1;
    bool line_start = true;
    const char *p = text;
    while (*p) {
        char c = *p;
        if (c == '\n') {
            line++;
            line_start = true;
            p++;
            continue;
        }
        if (line_start && c == '%') { /* escape line */
            while (*p && *p != '\n')
                p++;
            continue;
        }
        line_start = false;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            p++;
            continue;
        }
        if (c == '[') {
            if (!pg.game || pg.has_movetext) {
                finish_game(&pg, default_rules, forced);
                if (!(pg.game = record_list_add(out, line)))
                    break;
            }
            p++;
            if (!read_tag(pg.game, &p)) {
                record_fail(pg.game, line, "broken tag pair");
                while (*p && *p != '\n')
                    p++;
            }
            continue;
        }
        if (c == ';') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (c == '{' || c == '(') {
            /* comments, and variations (nested, with their own comments) */
            int depth = 0;
            bool in_comment = false;
            do {
                if (*p == '\n')
                    line++;
                if (in_comment)
                    in_comment = *p != '}';
                else if (*p == '{')
                    in_comment = true;
                else if (*p == '(')
                    depth++;
                else if (*p == ')')
                    depth--;
                p++;
            } while (*p && (in_comment || depth > 0));
            continue;
        }
        if (c == '$') {
            p++;
            while (is_digit(*p))
                p++;
            continue;
        }
        const char *start = p;
        while (*p && !strchr(" \t\r\n\v\f{}();[", *p))
            p++;
        if (p == start) { /* a stray ')' or '}' */
            p++;
            continue;
        }
        if (!pg.game && !(pg.game = record_list_add(out, line)))
            break;
        size_t n = (size_t)(p - start);
        bool result = (n == 3 && (!strncmp(start, "1-0", 3) || !strncmp(start, "0-1", 3)))
                      || (n == 7 && !strncmp(start, "1/2-1/2", 7)) || (n == 1 && *start == '*');
        pg.has_movetext = true;
        if (result) {
            finish_game(&pg, default_rules, forced);
            continue;
        }
        if (!add_word(&pg, start, n, line)) {
            record_fail(pg.game, line, "out of memory");
            break;
        }
    }
    finish_game(&pg, default_rules, forced);
    free(pg.words);
    free(text);
}

/* ---- Writing ---- */

/* Movetext words, wrapped at 79 columns. */
static void pgn_word(StrBuf *b, int *column, const char *text)
{
    int len = (int)strlen(text);
    if (*column > 0 && *column + 1 + len > 79) {
        strbuf_puts(b, "\n");
        *column = 0;
    }
    if (*column > 0) {
        strbuf_puts(b, " ");
        (*column)++;
    }
    strbuf_puts(b, text);
    *column += len;
}

/* A comment, split at blanks like any words; braces inside become parentheses. */
static void pgn_comment(StrBuf *b, int *column, const char *text)
{
    StrBuf c = {0};
    strbuf_puts(&c, "{");
    for (const char *t = text; *t; t++)
        strbuf_add(&c, *t == '}' ? ")" : *t == '{' ? "(" : *t == '\n' ? " " : t, 1);
    strbuf_puts(&c, "}");
    if (c.failed) {
        b->failed = true;
        strbuf_free(&c);
        return;
    }
    char *save = NULL;
    for (char *tok = strtok_r(c.text, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        pgn_word(b, column, tok);
    strbuf_free(&c);
}

char *pgn_write(const PgnOutput *game)
{
    Game g;
    char err[160];
    if (!game_start(&g, game->start_fen, game->rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
        return NULL;
    StrBuf b = {0};
    for (int i = 0; i < game->tag_count; i++) {
        strbuf_printf(&b, "[%s \"", game->tags[i].name);
        for (const char *v = game->tags[i].value ? game->tags[i].value : "?"; *v; v++) {
            if (*v == '"' || *v == '\\')
                strbuf_puts(&b, "\\");
            strbuf_add(&b, *v == '\n' ? " " : v, 1);
        }
        strbuf_puts(&b, "\"]\n");
    }
    strbuf_puts(&b, "\n");
    int column = 0;
    bool number_han = true; /* Han's move needs "N..." first: at the start and after a comment */
    for (int i = 0; i < game->move_count; i++) {
        Move m = game->moves[i];
        if (!movegen_contains_legal(&g.pos, m)) {
            strbuf_free(&b);
            game_free(&g);
            return NULL;
        }
        char num[24], text[32]; /* a SAN or a move text */
        if (g.pos.side == WHITE || number_han) {
            snprintf(num, sizeof num, g.pos.side == WHITE ? "%d." : "%d...", g.pos.fullmove);
            pgn_word(&b, &column, num);
        }
        if (game->style == PGN_MOVES_SAN)
            pgn_move_to_san(&g.pos, m, text);
        else
            move_to_text(m, RANKS_FROM_1, text);
        pgn_word(&b, &column, text);
        number_han = false;
        if (game->comments && game->comments[i] && game->comments[i][0]) {
            pgn_comment(&b, &column, game->comments[i]);
            number_han = true;
        }
        game_play(&g, m);
    }
    if (game->final_comment && game->final_comment[0])
        pgn_comment(&b, &column, game->final_comment);
    pgn_word(&b, &column, game->result ? game->result : "*");
    strbuf_puts(&b, "\n\n");
    game_free(&g);
    return strbuf_take(&b);
}

char *pgn_game_text(const ParsedGame *game, const RuleSet *rules)
{
    PgnTag *tags = malloc((size_t)(game->tag_count + 2) * sizeof *tags);
    if (!tags)
        return NULL;
    int n = 0;
    for (int i = 0; i < game->tag_count; i++)
        tags[n++] = (PgnTag){game->tags[i].name, game->tags[i].value};
    if (!record_tag(game, "Variant"))
        tags[n++] = (PgnTag){"Variant", rules->name};
    if (!record_tag(game, "FEN"))
        tags[n++] = (PgnTag){"FEN", game->start_fen};
    PgnOutput out = {.tags = tags,
                     .tag_count = n,
                     .start_fen = game->start_fen,
                     .rules = rules,
                     .moves = game->moves,
                     .move_count = game->move_count,
                     .style = PGN_MOVES_SAN,
                     .result = record_tag(game, "Result")};
    /* The tag is kept as read; the movetext ends with a result the reader knows. */
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    bool known = false;
    for (size_t i = 0; out.result && i < sizeof results / sizeof results[0]; i++)
        known |= strcmp(out.result, results[i]) == 0;
    if (!known)
        out.result = "*";
    char *text = pgn_write(&out);
    free(tags);
    return text;
}

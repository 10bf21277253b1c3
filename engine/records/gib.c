#define _POSIX_C_SOURCE 200809L
#include "gib.h"

#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../game.h"
#include "../movegen.h"
#include "../base/base.h"

/* ---- Decoding ---- */

/* Length of the UTF-8 sequence at s (at most n bytes), or 0 when it is not valid UTF-8. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    unsigned cp = c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

const char *gib_detect_encoding(const char *bytes, size_t len)
{
    const unsigned char *s = (const unsigned char *)bytes;
    if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        return "utf-8";
    for (size_t i = 0; i < len;) {
        if (s[i] == 0xFF) {
            i++;
            continue;
        }
        size_t n = utf8_length(s + i, len - i);
        if (!n)
            return "cp949";
        i += n;
    }
    return "utf-8";
}

static char *put_replacement(char *out)
{
    memcpy(out, "\xEF\xBF\xBD", 3);
    return out + 3;
}

char *gib_decode(const char *bytes, size_t len, char *err, size_t err_size)
{
    const unsigned char *s = (const unsigned char *)bytes;
    char *text = malloc(3 * len + 1), *out = text;
    if (!text) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    if (strcmp(gib_detect_encoding(bytes, len), "utf-8") == 0) {
        size_t i = len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF ? 3 : 0;
        for (; i < len; i++)
            *out++ = s[i] == 0 || s[i] == 0x1A || s[i] == 0xFF ? ' ' : (char)s[i];
        *out = '\0';
        return text;
    }
    iconv_t cd = iconv_open("UTF-8", "CP949");
    if (cd == (iconv_t)-1) {
        snprintf(err, err_size, "cannot decode cp949 text: this system's iconv has no CP949 converter");
        free(text);
        return NULL;
    }
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c < 0x80) {
            *out++ = c == 0 || c == 0x1A ? ' ' : (char)c;
            i++;
        } else if (c >= 0x81 && c <= 0xFE && i + 1 < len && s[i + 1] >= 0x41 && s[i + 1] <= 0xFE) {
            char in[2] = {(char)s[i], (char)s[i + 1]}, *inp = in, *outp = out;
            size_t inleft = 2, outleft = 8;
            if (iconv(cd, &inp, &inleft, &outp, &outleft) == (size_t)-1 || inleft) {
                iconv(cd, NULL, NULL, NULL, NULL);
                out = put_replacement(out);
            } else {
                out = outp;
            }
            i += 2;
        } else {
            /* stray bytes: 0xFF (padding in some collections), 0x80, a lead byte without its trail */
            *out++ = ' ';
            i++;
        }
    }
    iconv_close(cd);
    *out = '\0';
    return text;
}

/* ---- Korean letters ---- */

typedef struct {
    const char *text;
    PieceType type;
    bool hanja;
} PieceName;

static const PieceName piece_names[] = {
    {"차", CHARIOT, false}, {"車", CHARIOT, true},  {"俥", CHARIOT, true},   {"마", HORSE, false},
    {"馬", HORSE, true},    {"傌", HORSE, true},    {"상", ELEPHANT, false}, {"象", ELEPHANT, true},
    {"相", ELEPHANT, true}, {"사", GUARD, false},   {"士", GUARD, true},     {"仕", GUARD, true},
    {"장", GENERAL, false}, {"將", GENERAL, true},  {"将", GENERAL, true},   {"帥", GENERAL, true},
    {"포", CANNON, false},  {"包", CANNON, true},   {"砲", CANNON, true},    {"炮", CANNON, true},
    {"졸", SOLDIER, false}, {"병", SOLDIER, false}, {"卒", SOLDIER, true},   {"兵", SOLDIER, true},
};

static const char *const english_names[PIECE_TYPE_COUNT] = {"nothing", "soldier", "guard",   "elephant",
                                                            "horse",   "cannon",  "chariot", "general"};
/* With its article: "a horse", "an elephant". */
static const char *const english_a[PIECE_TYPE_COUNT] = {"nothing", "a soldier", "a guard",   "an elephant",
                                                        "a horse", "a cannon",  "a chariot", "a general"};

/* The Korean letter written for a piece: Cho's soldier 졸, Han's 병. */
static const char *korean_letter(Piece pc)
{
    static const char *const letters[PIECE_TYPE_COUNT] = {"", "졸", "사", "상", "마", "포", "차", "장"};
    return piece_type(pc) == SOLDIER && piece_color(pc) == BLACK ? "병" : letters[piece_type(pc)];
}

static bool starts_with(const char *p, const char *prefix) { return strncmp(p, prefix, strlen(prefix)) == 0; }

/* Reads a piece letter at *p; NO_PIECE_TYPE when there is none. */
static PieceType read_piece(const char **p, bool *hanja)
{
    for (size_t i = 0; i < sizeof piece_names / sizeof piece_names[0]; i++)
        if (starts_with(*p, piece_names[i].text)) {
            *p += strlen(piece_names[i].text);
            if (hanja)
                *hanja = piece_names[i].hanja;
            return piece_names[i].type;
        }
    return NO_PIECE_TYPE;
}

/* Reads a side mark 楚/초 (Cho) or 漢/한 (Han); -1 when there is none. */
static int read_side(const char **p)
{
    static const struct {
        const char *text;
        Color side;
    } sides[] = {{"楚", WHITE}, {"초", WHITE}, {"漢", BLACK}, {"한", BLACK}};
    for (size_t i = 0; i < 4; i++)
        if (starts_with(*p, sides[i].text)) {
            *p += strlen(sides[i].text);
            return sides[i].side;
        }
    return -1;
}

/* Reads a square: two digits (row, column) or Kakao's file letter and rank - 1. */
static bool read_square(const char **p, Square *sq)
{
    const char *s = *p;
    if (s[0] >= '0' && s[0] <= '9' && s[1] >= '1' && s[1] <= '9') {
        int row = s[0] - '0';
        *sq = make_square(s[1] - '1', row == 0 ? 0 : 10 - row);
    } else if (s[0] >= 'a' && s[0] <= 'i' && s[1] >= '0' && s[1] <= '9') {
        *sq = make_square(s[0] - 'a', s[1] - '0');
    } else {
        return false;
    }
    *p += 2;
    return true;
}

void gib_square_text(Square s, char buf[3])
{
    int rank = square_rank(s);
    buf[0] = (char)('0' + (rank == 0 ? 0 : 10 - rank));
    buf[1] = (char)('1' + square_file(s));
    buf[2] = '\0';
}

/* position_gives_check moves a piece on the board and back; the caller's position is const. */
static bool gives_check(const Position *pos, Move m)
{
    Position copy = *pos;
    return position_gives_check(&copy, m);
}

void gib_move_text(const Position *pos, Move m, bool mark_check, char *buf)
{
    if (move_is_pass(m)) {
        strcpy(buf, "한수쉼");
        return;
    }
    char from[3], to[3];
    gib_square_text(move_from(m), from);
    gib_square_text(move_to(m), to);
    Piece captured = pos->board[move_to(m)];
    snprintf(buf, GIB_MOVE_TEXT_SIZE, "%s%s%s%s%s", from, korean_letter(pos->board[move_from(m)]), to,
             captured ? korean_letter(captured) : "", mark_check && gives_check(pos, m) ? "장군" : "");
}

/* ---- Results and setups ---- */

void gib_result(const char *text, const char **result, const char **termination)
{
    *result = *termination = "unknown";
    if (!text)
        return;
    char s[256];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof s; p++)
        if (*p != ' ' && *p != '\t')
            s[n++] = *p;
    s[n] = '\0';
    if (strstr(s, "무승부")) {
        *result = *termination = "draw";
        return;
    }
    const char *p = s;
    int side = read_side(&p);
    if (side < 0)
        return;
    if (strstr(s, "패"))
        side = !side;
    *result = side == WHITE ? "cho" : "han";
    static const struct {
        const char *word, *termination;
    } words[] = {
        {"끊김", "unknown"},  {"기권", "resign"}, {"불계", "resign"}, {"시간", "time"},
        {"점", "count"},      {"빅", "count"},    {"외통", "normal"}, {"완승", "normal"},
        {"장군승", "normal"}, {"촨승", "normal"}, {"와늣", "normal"}, {"완슫", "normal"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(s, words[i].word)) {
            *termination = words[i].termination;
            return;
        }
}

static const char *const setup_names[4] = {"마상상마", "상마마상", "상마상마", "마상마상"};

bool gib_setups(const char *fen, char *cho, char *han)
{
    size_t board = strcspn(fen, " ");
    if (strncmp(fen + board, " w", 2) != 0)
        return false;
    for (int c = 0; c < 4; c++)
        for (int h = 0; h < 4; h++) {
            char start[128], err[160];
            setup_start_fen(setup_names[c], setup_names[h], start, sizeof start, err, sizeof err);
            if (strncmp(start, fen, board) == 0 && start[board] == ' ') {
                strcpy(cho, setup_names[c]);
                strcpy(han, setup_names[h]);
                return true;
            }
        }
    return false;
}

/* ---- Reading ---- */

typedef struct {
    char *text;
    int line;
} Token;

typedef struct {
    int line;
    Token *tokens;
    int token_count, token_capacity;
    ParsedGame *game;
} Block;

static bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Ideographic space U+3000 and no-break space U+00A0 separate words too. */
static size_t space_length(const char *p)
{
    if (is_space((unsigned char)*p))
        return 1;
    if (starts_with(p, "\xE3\x80\x80"))
        return 3;
    if (starts_with(p, "\xC2\xA0"))
        return 2;
    return 0;
}

static const char *skip_spaces(const char *p)
{
    for (size_t n; (n = space_length(p)) > 0;)
        p += n;
    return p;
}

/* Reads `[name "value"]` tags from a header line; false (with the reason) when it is broken. */
static bool read_header_line(ParsedGame *game, const char *line, char *why, size_t why_size)
{
    const char *p = skip_spaces(line);
    while (*p == '[') {
        p = skip_spaces(p + 1);
        const char *name = p;
        while (*p && !space_length(p) && *p != '"' && *p != ']')
            p++;
        size_t name_len = (size_t)(p - name);
        if (name_len == 0 || name_len > 64) {
            snprintf(why, why_size, "broken header (no tag name): %.60s", line);
            return false;
        }
        p = skip_spaces(p);
        if (*p != '"') {
            snprintf(why, why_size, "broken header (no opening quote): %.60s", line);
            return false;
        }
        const char *value = ++p;
        /* the value ends at the first quote followed (after spaces) by ']' */
        const char *end = value;
        while (*end && !(*end == '"' && *skip_spaces(end + 1) == ']'))
            end++;
        if (!*end) {
            snprintf(why, why_size, "broken header (no closing \"]): %.60s", line);
            return false;
        }
        char tag[72];
        memcpy(tag, name, name_len);
        tag[name_len] = '\0';
        char *v = strndup(value, (size_t)(end - value));
        bool added = v && record_add_tag(game, tag, v);
        free(v);
        if (!added) {
            snprintf(why, why_size, "out of memory");
            return false;
        }
        p = skip_spaces(skip_spaces(end + 1) + 1);
    }
    if (*p) {
        snprintf(why, why_size, "broken header (unexpected text after the tag): %.60s", line);
        return false;
    }
    return true;
}

static bool add_token(Block *b, const char *start, size_t len, int line)
{
    if (!ARRAY_RESERVE(b->tokens, b->token_capacity, b->token_count + 1))
        return false;
    char *text = strndup(start, len);
    if (!text)
        return false;
    b->tokens[b->token_count++] = (Token){text, line};
    return true;
}

/* Builds the start FEN of a Kakao [판] board, "<10 ranks from Han's side> 한|초 ...": Hangul letters
 * are Han's pieces, Hanja Cho's, digits empty points, trailing empty points left out. */
static bool pan_board_fen(const char *value, char *fen, size_t fen_size, char *why, size_t why_size)
{
    char board[128] = "";
    size_t n = 0;
    const char *p = value;
    int rank = 0;
    for (; rank < RANK_COUNT; rank++) {
        int files = 0, empty = 0;
        /* Stops past the ninth point, so that an overlong rank never outgrows `board`. */
        while (files <= FILE_COUNT && *p && *p != '/' && !space_length(p)) {
            bool hanja;
            if (*p >= '1' && *p <= '9') {
                empty += *p - '0';
                files += *p - '0';
                p++;
                continue;
            }
            PieceType pt = read_piece(&p, &hanja);
            if (pt == NO_PIECE_TYPE) {
                snprintf(why, why_size, "unknown letter in the [판] board at '%.12s'", p);
                return false;
            }
            if (empty)
                board[n++] = (char)('0' + empty);
            empty = 0;
            board[n++] = "?PABNCRK"[pt] + (hanja ? 0 : 32);
            files++;
        }
        if (files > FILE_COUNT) {
            snprintf(why, why_size, "the [판] board has %d files on its rank %d, at most 9", files, RANK_COUNT - rank);
            return false;
        }
        if (FILE_COUNT - files + empty > 0)
            board[n++] = (char)('0' + FILE_COUNT - files + empty);
        if (rank < RANK_COUNT - 1) {
            if (*p != '/') {
                snprintf(why, why_size, "the [판] board has %d ranks, expected 10", rank + 1);
                return false;
            }
            board[n++] = '/';
            p++;
        }
    }
    board[n] = '\0';
    p = skip_spaces(p);
    int side = read_side(&p);
    if (side < 0) {
        snprintf(why, why_size, "the [판] board does not say who moves first (한 or 초)");
        return false;
    }
    int written = snprintf(fen, fen_size, "%s %c - - 0 1", board, side == WHITE ? 'w' : 'b');
    if (written < 0 || (size_t)written >= fen_size) {
        snprintf(why, why_size, "the [판] board is too long");
        return false;
    }
    return true;
}

static void status_text(const Game *g, char *buf, size_t size)
{
    GameStatus st = game_status(g);
    snprintf(buf, size, "%s", end_reason_name(st.reason));
}

/* Plays one move token; false (the game marked unreadable) on any problem. */
static bool play_token(ParsedGame *game, Game *g, const Token *tok, int ply)
{
    const char *t = tok->text, *p = t;
    Position *pos = &g->pos;
    Color us = pos->side;
    const char *who = us == WHITE ? "Cho" : "Han";
    Move m;
    if (strcmp(t, "한수쉼") == 0) {
        m = make_move(pos->general[us], pos->general[us]);
    } else {
        Square from, to;
        bool ok = read_square(&p, &from);
        int side = ok ? read_side(&p) : -1;
        PieceType pt = ok ? read_piece(&p, NULL) : NO_PIECE_TYPE;
        ok = ok && pt != NO_PIECE_TYPE && read_square(&p, &to);
        bool take_mark = ok && starts_with(p, "타");
        if (take_mark)
            p += strlen("타");
        PieceType captured = NO_PIECE_TYPE;
        if (ok && !starts_with(p, "장군"))
            captured = read_piece(&p, NULL);
        if (ok && (starts_with(p, "장군") || starts_with(p, "멍군")))
            p += strlen("장군");
        if (!ok || *p || (take_mark && captured == NO_PIECE_TYPE)) {
            record_fail(game, tok->line, "ply %d: unreadable move '%s'", ply, t);
            return false;
        }
        char f[4], s[4];
        square_to_text(from, RANKS_FROM_1, f);
        square_to_text(to, RANKS_FROM_1, s);
        Piece pc = pos->board[from];
        if (side >= 0 && side != (int)us) {
            record_fail(game, tok->line, "ply %d: '%s' is marked as %s's move, but %s is to move", ply, t,
                        side == WHITE ? "Cho" : "Han", who);
            return false;
        }
        if (!pc) {
            record_fail(game, tok->line, "ply %d: '%s' moves from %s, which is empty", ply, t, f);
            return false;
        }
        if (piece_color(pc) != us) {
            record_fail(game, tok->line, "ply %d: '%s' moves %s's %s on %s, but %s is to move", ply, t,
                        us == WHITE ? "Han" : "Cho", english_names[piece_type(pc)], f, who);
            return false;
        }
        if (piece_type(pc) != pt) {
            record_fail(game, tok->line, "ply %d: '%s' moves %s, but the piece on %s is %s", ply, t, english_a[pt], f,
                        english_a[piece_type(pc)]);
            return false;
        }
        Piece victim = pos->board[to];
        if (victim && piece_color(victim) == us) {
            record_fail(game, tok->line, "ply %d: '%s' captures %s's own %s on %s", ply, t, who,
                        english_names[piece_type(victim)], s);
            return false;
        }
        if (captured != NO_PIECE_TYPE && piece_type(victim) != captured) {
            if (victim)
                record_fail(game, tok->line, "ply %d: '%s' says it captures %s, but the piece on %s is %s", ply, t,
                            english_a[captured], s, english_a[piece_type(victim)]);
            else
                record_fail(game, tok->line, "ply %d: '%s' says it captures %s, but %s is empty", ply, t,
                            english_a[captured], s);
            return false;
        }
        m = make_move(from, to);
    }
    if (!game_play(g, m)) {
        char text[MOVE_TEXT_SIZE], why[160] = "";
        move_to_text(m, RANKS_FROM_1, text);
        MoveList legal;
        movegen_legal(pos, &legal);
        if (legal.count == 0) {
            char reason[32];
            status_text(g, reason, sizeof reason);
            snprintf(why, sizeof why, ": the game is already over (%s)", reason);
        } else if (pos->st->bikjang) {
            snprintf(why, sizeof why,
                     ": the generals face each other (bikjang) and under %s rules every move but the pass must "
                     "break the facing (janggicasual has no bikjang)",
                     pos->rules->name);
        } else if (move_is_pass(m) && position_in_check(pos)) {
            snprintf(why, sizeof why, ": a side in check cannot pass");
        }
        record_fail(game, tok->line, "ply %d: illegal move %s ('%s')%s", ply, text, t, why);
        return false;
    }
    if (!record_add_move(game, m)) {
        record_fail(game, tok->line, "out of memory");
        return false;
    }
    return true;
}

/* A move number `12.` (possibly glued to the move that follows) is dropped. */
static const char *strip_move_number(const char *t)
{
    const char *p = t;
    while (*p >= '0' && *p <= '9')
        p++;
    if (p > t && *p == '.') {
        while (*p == '.')
            p++;
        return p;
    }
    return t;
}

static void finish_block(Block *b, const RuleSet *rules)
{
    ParsedGame *game = b->game;
    if (!game)
        return;
    game->rules = rules;
    if (game->ok) {
        const char *format = record_tag(game, "기보형식");
        const char *pan = record_tag(game, "판");
        const char *cho = record_tag(game, "초차림"), *han = record_tag(game, "한차림");
        if (!cho)
            cho = record_tag(game, "초포진");
        if (!han)
            han = record_tag(game, "한포진");
        char why[160];
        if (format && strstr(format, "구좌표")) {
            record_fail(game, game->line, "old coordinates ([기보형식 \"구좌표\"]) are not supported");
        } else if (pan) {
            char fen[128], c[16], h[16];
            if (!pan_board_fen(pan, fen, sizeof fen, why, sizeof why))
                record_fail(game, game->line, "%s", why);
            else if (!gib_setups(fen, c, h))
                record_fail(game, game->line,
                            "the [판] board (%s) is not a standard start with Cho to move; not read (Kakao boards "
                            "rarely match their moves)",
                            fen);
            else
                snprintf(game->start_fen, sizeof game->start_fen, "%s", fen);
        } else if (!cho || !han) {
            record_fail(game, game->line, "no %s tag: the start position is unknown",
                        !cho ? "초차림 (or 초포진)" : "한차림 (or 한포진)");
        } else if (!setup_start_fen(cho, han, game->start_fen, sizeof game->start_fen, why, sizeof why)) {
            record_fail(game, game->line, "%s", why);
        }
    }
    if (game->ok) {
        Game g;
        char why[160];
        if (!game_start(&g, game->start_fen, rules, FEN_STRICT, why, sizeof why)) {
            record_fail(game, game->line, "bad start position: %s", why);
        } else {
            int ply = 0;
            for (int i = 0; i < b->token_count; i++) {
                const char *t = strip_move_number(b->tokens[i].text);
                if (!*t)
                    continue;
                Token tok = {(char *)t, b->tokens[i].line};
                if (!play_token(game, &g, &tok, ++ply))
                    break;
            }
            game_free(&g);
        }
    }
    for (int i = 0; i < b->token_count; i++)
        free(b->tokens[i].text);
    b->token_count = 0;
    b->game = NULL;
}

/* Splits the move text of one line into tokens, skipping comments (which may span lines) and timing
 * marks `<N>`. */
static bool read_move_text(Block *b, const char *p, int line, bool *in_comment)
{
    while (*p) {
        if (*in_comment) {
            const char *close = strchr(p, '}');
            if (!close)
                return true;
            *in_comment = false;
            p = close + 1;
            continue;
        }
        size_t sp = space_length(p);
        if (sp) {
            p += sp;
            continue;
        }
        if (*p == '{') {
            *in_comment = true;
            p++;
            continue;
        }
        if (*p == '<') {
            const char *close = strchr(p, '>');
            p = close ? close + 1 : p + strlen(p);
            continue;
        }
        const char *start = p;
        while (*p && !space_length(p) && *p != '{' && *p != '<')
            p++;
        if (!add_token(b, start, (size_t)(p - start), line))
            return false;
    }
    return true;
}

bool gib_parse(const char *bytes, size_t len, const RuleSet *rules, ParsedGameList *out, char *err, size_t err_size)
{
    char *text = gib_decode(bytes, len, err, err_size);
    if (!text)
        return false;
    Block b = {0};
    bool in_comment = false, ok = true;
    char *cursor = text;
    int line_no = 0;
    for (char *line; ok && (line = record_next_line(&cursor));) {
        line_no++;
        const char *p = skip_spaces(line);
        if (!in_comment && *p == '[') {
            if (!b.game || b.token_count > 0) {
                finish_block(&b, rules);
                b.game = record_list_add(out, line_no);
                if (!b.game) {
                    ok = false;
                    break;
                }
            }
            char why[160];
            if (b.game->ok && !read_header_line(b.game, p, why, sizeof why))
                record_fail(b.game, line_no, "%s", why);
            continue;
        }
        if (!*p)
            continue;
        if (!b.game && !in_comment) {
            /* text before any header: a game without tags */
            b.game = record_list_add(out, line_no);
            if (!b.game) {
                ok = false;
                break;
            }
        }
        if (b.game)
            ok = read_move_text(&b, p, line_no, &in_comment);
    }
    if (ok)
        finish_block(&b, rules);
    for (int i = 0; i < b.token_count; i++)
        free(b.tokens[i].text);
    free(b.tokens);
    free(text);
    if (!ok)
        snprintf(err, err_size, "out of memory");
    return ok;
}

/* ---- Writing ---- */

typedef struct {
    char *buf;
    size_t len, cap;
    bool failed;
} Text;

static void text_add(Text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->failed)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (t->len + n + 1 > cap)
            cap *= 2;
        char *buf = realloc(t->buf, cap);
        if (!buf) {
            t->failed = true;
            return;
        }
        t->buf = buf;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n + 1);
    t->len += n;
}

char *gib_game_text(const ParsedGame *game, const RuleSet *rules)
{
    char cho[16], han[16], err[160];
    if (!gib_setups(game->start_fen, cho, han))
        return NULL;
    Game g;
    if (!game_start(&g, game->start_fen, rules, FEN_STRICT, err, sizeof err))
        return NULL;
    Text t = {0};
    char line[1024];
    bool setups_written = false;
    for (int i = 0; i < game->tag_count; i++) {
        const char *name = game->tags[i].name;
        if (!strcmp(name, "초포진") || !strcmp(name, "한포진") || !strcmp(name, "판") || !strcmp(name, "총수")
            || !strcmp(name, "초차림") || !strcmp(name, "한차림"))
            continue;
        if (!strcmp(name, "대국결과") && !setups_written) {
            snprintf(line, sizeof line, "[초차림 \"%s\"]\n[한차림 \"%s\"]\n[총수 \"%d\"]\n", cho, han,
                     game->move_count);
            text_add(&t, line);
            setups_written = true;
        }
        text_add(&t, "[");
        text_add(&t, name);
        text_add(&t, " \"");
        text_add(&t, game->tags[i].value);
        text_add(&t, "\"]\n");
    }
    if (!setups_written) {
        snprintf(line, sizeof line, "[초차림 \"%s\"]\n[한차림 \"%s\"]\n[총수 \"%d\"]\n", cho, han, game->move_count);
        text_add(&t, line);
    }
    text_add(&t, "\n");
    for (int i = 0; i < game->move_count; i++) {
        Move m = game->moves[i];
        if (!movegen_contains_legal(&g.pos, m)) {
            t.failed = true;
            break;
        }
        char move[GIB_MOVE_TEXT_SIZE];
        gib_move_text(&g.pos, m, true, move);
        snprintf(line, sizeof line, "%d. %s%s", i + 1, move,
                 (i + 1) % 6 == 0 || i + 1 == game->move_count ? "\n" : " ");
        text_add(&t, line);
        game_play(&g, m);
    }
    text_add(&t, "\n");
    game_free(&g);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    return t.buf;
}

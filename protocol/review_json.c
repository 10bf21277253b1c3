#include "review_output.h"

#include <string.h>

#include "../engine/movegen.h"
#include "../engine/records/gib.h"

static const char *const input_names[] = {"fen", "epd", "gib", "pgn", "jsonl"};

/* ---- Pieces of JSON ---- */

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

static const char *side_name(Color c) { return c == WHITE ? "cho" : "han"; }

/* "input", "file" and "line" of an object (after its "type"). */
static void source_json(StrBuf *b, const ReviewSource *src)
{
    strbuf_printf(b, ",\"input\":\"%s\",\"file\":", input_names[src->input]);
    buf_json(b, src->file);
    if (src->line)
        strbuf_printf(b, ",\"line\":%d", src->line);
    else
        strbuf_puts(b, ",\"line\":null");
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

static void material_json(StrBuf *b, MaterialCount m)
{
    strbuf_printf(b, "{\"cho\":%d,\"han\":%d.5}", m.cho, m.han + 1);
}

static const char *winner_name(GameResult r)
{
    return r == GAME_CHO_WINS ? "cho" : r == GAME_HAN_WINS ? "han" : r == GAME_DRAW ? "draw" : NULL;
}

/* The end object, left open for the fields a game adds. */
static void end_json(StrBuf *b, const GameStatus *st)
{
    strbuf_printf(b, "{\"result\":\"%s\",\"winner\":\"%s\",\"reason\":\"%s\",\"immediate\":%s,\"by_counting\":%s",
                  game_result_name(st->result), winner_name(st->result), end_reason_name(st->reason),
                  st->immediate ? "true" : "false", st->by_counting ? "true" : "false");
}

static void limits_json(StrBuf *b, const ReviewFormat *f)
{
    strbuf_printf(b, "{\"depth\":%d,\"nodes\":%llu,\"movetime_ms\":%lld,\"multipv\":%d,\"threads\":%d}", f->depth,
                  (unsigned long long)f->nodes, (long long)f->movetime, f->multipv, f->threads);
}

/* Plays the moves on a copy of pos, writing them as a JSON array; stops at one that is not legal. */
static void line_json(StrBuf *b, const Position *pos, const Move *moves, int count, bool korean)
{
    char texts[MAX_PLY][GIB_MOVE_TEXT_SIZE];
    int n = review_line_texts(pos, moves, count, korean, texts);
    strbuf_puts(b, "[");
    for (int i = 0; i < n; i++) {
        if (i)
            strbuf_puts(b, ",");
        buf_json(b, texts[i]);
    }
    strbuf_puts(b, "]");
}

/* The lines of a search, best first, as array items (NULL: none). */
static void lines_json(StrBuf *b, const Position *pos, const ReviewSearch *s, bool korean)
{
    for (int k = 0; s && k < s->count; k++) {
        strbuf_printf(b, "%s{\"rank\":%d,\"move\":", k ? "," : "", k + 1);
        char text[GIB_MOVE_TEXT_SIZE];
        review_move_text(pos, s->lines[k].pv[0], korean, text);
        buf_json(b, text);
        strbuf_puts(b, ",\"score\":");
        score_json(b, review_line_score(&s->lines[k], pos->side));
        strbuf_printf(b, ",\"depth\":%d,\"pv\":", s->lines[k].depth);
        line_json(b, pos, s->lines[k].pv, s->lines[k].pv_length, korean);
        strbuf_puts(b, "}");
    }
}

/* ---- Positions ---- */

void review_json_position(StrBuf *b, const ReviewSource *src, const char *fen, const EpdPosition *epd,
                          const PositionReview *pr, const ReviewFormat *f)
{
    const Position *pos = pr->pos;
    strbuf_puts(b, "{\"type\":\"position\"");
    source_json(b, src);
    strbuf_printf(b, ",\"number\":%d,\"fen\":", src->number);
    buf_json(b, fen);
    strbuf_printf(b, ",\"variant\":\"%s\",\"to_move\":\"%s\"", pos->rules->name, side_name(pos->side));
    if (epd) {
        strbuf_puts(b, ",\"operations\":{");
        int written = 0;
        for (int i = 0; i < epd->op_count; i++) {
            bool repeated = false;
            for (int k = 0; k < i; k++)
                repeated |= !strcmp(epd->ops[k].opcode, epd->ops[i].opcode);
            if (repeated)
                continue;
            strbuf_puts(b, written++ ? "," : "");
            buf_json(b, epd->ops[i].opcode);
            strbuf_puts(b, ":");
            buf_json(b, epd->ops[i].operand);
        }
        strbuf_puts(b, "}");
    }
    strbuf_puts(b, ",\"material\":");
    material_json(b, pr->status.material);
    strbuf_puts(b, ",\"end\":");
    if (pr->status.result == GAME_ONGOING) {
        strbuf_puts(b, "null");
    } else {
        end_json(b, &pr->status);
        strbuf_puts(b, "}");
    }
    strbuf_puts(b, ",\"limits\":");
    limits_json(b, f);
    const SearchInfo *best = pr->line;
    if (best)
        strbuf_printf(b, ",\"search\":{\"depth\":%d,\"seldepth\":%d,\"nodes\":%llu,\"time_ms\":%lld}", best->depth,
                      best->seldepth, (unsigned long long)best->nodes, (long long)best->time_ms);
    else
        strbuf_puts(b, ",\"search\":null");
    Move best_move = pr->search ? pr->search->best : MOVE_NONE;
    strbuf_puts(b, ",\"best\":");
    if (best_move) {
        char text[GIB_MOVE_TEXT_SIZE];
        review_move_text(pos, best_move, f->korean, text);
        buf_json(b, text);
    } else {
        strbuf_puts(b, "null");
    }
    strbuf_puts(b, ",\"score\":");
    score_json(b, pr->score);
    strbuf_puts(b, ",\"pv\":");
    if (best)
        line_json(b, pos, best->pv, best->pv_length, f->korean);
    else
        line_json(b, pos, &best_move, best_move ? 1 : 0, f->korean);
    strbuf_puts(b, ",\"lines\":[");
    lines_json(b, pos, pr->search, f->korean);
    strbuf_puts(b, "]");
    if (pr->bm_found >= 0)
        strbuf_printf(b, ",\"bm_found\":%s", pr->bm_found ? "true" : "false");
    if (pr->am_avoided >= 0)
        strbuf_printf(b, ",\"am_avoided\":%s", pr->am_avoided ? "true" : "false");
    strbuf_puts(b, "}\n");
}

/* ---- Games ---- */

void review_json_game_start(StrBuf *b, const ReviewSource *src, const ParsedGame *game, const ReviewFormat *f)
{
    strbuf_puts(b, "{\"type\":\"game\"");
    source_json(b, src);
    strbuf_printf(b, ",\"number\":%d,\"tags\":{", src->number);
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
    if (src->input == INPUT_GIB) {
        const char *result, *termination;
        gib_result(record_tag(game, "대국결과"), &result, &termination);
        strbuf_printf(b, ",\"record_result\":\"%s\",\"record_termination\":\"%s\"", result, termination);
    } else if (src->input == INPUT_JSONL) {
        const char *result = record_tag(game, "result"), *termination = record_tag(game, "termination");
        bool known = result && (!strcmp(result, "cho") || !strcmp(result, "han") || !strcmp(result, "draw"));
        strbuf_puts(b, ",\"record_result\":");
        buf_json(b, !result ? NULL : known ? result : "unknown");
        strbuf_puts(b, ",\"record_termination\":");
        buf_json(b, termination);
    } else {
        const char *result = record_tag(game, "Result");
        strbuf_puts(b, ",\"record_result\":");
        buf_json(b, !result                      ? NULL
                    : !strcmp(result, "1-0")     ? "cho"
                    : !strcmp(result, "0-1")     ? "han"
                    : !strcmp(result, "1/2-1/2") ? "draw"
                                                 : "unknown");
        strbuf_puts(b, ",\"record_termination\":null");
    }
    strbuf_puts(b, ",\"start_fen\":");
    buf_json(b, game->start_fen);
    strbuf_printf(b, ",\"variant\":\"%s\",\"plies\":%d,\"limits\":", game->rules->name, game->move_count);
    limits_json(b, f);
    strbuf_puts(b, ",\"moves\":[");
}

void review_json_row(StrBuf *b, const ReviewRow *row, const ReviewFormat *f)
{
    strbuf_printf(b, "%s{\"ply\":%d,\"side\":\"%s\",\"move\":", row->ply > 1 ? "," : "", row->ply,
                  side_name(row->side));
    char text[GIB_MOVE_TEXT_SIZE];
    review_move_text(row->position, row->move, f->korean, text);
    buf_json(b, text);
    strbuf_puts(b, ",\"best\":");
    if (row->best) {
        review_move_text(row->position, row->best, f->korean, text);
        buf_json(b, text);
    } else {
        strbuf_puts(b, "null");
    }
    strbuf_puts(b, ",\"score_before\":");
    score_json(b, row->before);
    strbuf_puts(b, ",\"score_after\":");
    score_json(b, row->after);
    if (row->scored)
        strbuf_printf(b, ",\"loss\":%d", row->loss);
    else
        strbuf_puts(b, ",\"loss\":null");
    strbuf_puts(b, ",\"mark\":");
    buf_json(b, review_mark_name(row->mark));
    strbuf_puts(b, ",\"material\":");
    material_json(b, row->material);
    strbuf_printf(b, ",\"depth\":%d,\"pv\":", row->depth);
    const SearchInfo *best = review_best_line(&row->search);
    if (best)
        line_json(b, row->position, best->pv, best->pv_length, f->korean);
    else
        strbuf_puts(b, "[]");
    if (f->multipv > 1) {
        strbuf_puts(b, ",\"lines\":[");
        lines_json(b, row->position, &row->search, f->korean);
        strbuf_puts(b, "]");
    }
    strbuf_puts(b, "}");
}

void review_json_game_end(StrBuf *b, const Review *r)
{
    strbuf_puts(b, "],\"summary\":{");
    for (Color c = WHITE; c <= BLACK; c++) {
        const ReviewSummary *ps = &r->summary[c];
        strbuf_printf(b, "%s\"%s\":{\"moves\":%d,\"average_loss\":", c ? "," : "", side_name(c), ps->moves);
        double average;
        if (review_average_loss(ps, &average))
            strbuf_printf(b, "%.1f", average);
        else
            strbuf_puts(b, "null");
        strbuf_printf(b, ",\"best_moves\":%d,\"inaccuracies\":%d,\"mistakes\":%d,\"blunders\":%d}", ps->best_played,
                      ps->marks[REVIEW_INACCURACY], ps->marks[REVIEW_MISTAKE], ps->marks[REVIEW_BLUNDER]);
    }
    strbuf_puts(b, "},\"end\":");
    if (!r->end.over) {
        strbuf_puts(b, "null");
    } else {
        end_json(b, &r->end.status);
        strbuf_printf(b, ",\"ply\":%d,\"material\":", r->end.ply);
        material_json(b, r->end.status.material);
        strbuf_printf(b, ",\"record_continues\":%s}", r->end.record_continues ? "true" : "false");
    }
    char fen[RECORD_FEN_SIZE];
    position_to_fen(&r->game.pos, fen, sizeof fen);
    strbuf_puts(b, ",\"final\":{\"fen\":");
    buf_json(b, fen);
    strbuf_puts(b, ",\"material\":");
    material_json(b, r->status.material);
    strbuf_puts(b, "}}\n");
}

void review_json_error(StrBuf *b, const ReviewSource *src, const char *message)
{
    strbuf_puts(b, "{\"type\":\"error\"");
    source_json(b, src);
    if (src->number)
        strbuf_printf(b, ",\"number\":%d", src->number);
    else
        strbuf_puts(b, ",\"number\":null");
    strbuf_puts(b, ",\"message\":");
    buf_json(b, message);
    strbuf_puts(b, "}\n");
}

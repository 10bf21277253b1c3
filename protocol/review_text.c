#include "review_output.h"

#include <stdio.h>
#include <stdlib.h>

#include "../engine/move.h"
#include "../engine/movegen.h"
#include "../engine/records/gib.h"

/* ---- Shared with the JSON writer ---- */

void review_place(const ReviewSource *src, char *buf, size_t size)
{
    const char *what = src->input == INPUT_EPD ? "position" : "game";
    if (!src->file)
        snprintf(buf, size, "%s", src->label ? src->label : "--fen");
    else if (src->line > 0 && src->number > 0)
        snprintf(buf, size, "%s:%d: %s %d", src->file, src->line, what, src->number);
    else if (src->line > 0)
        snprintf(buf, size, "%s:%d", src->file, src->line);
    else
        snprintf(buf, size, "%s", src->file);
}

void review_move_text(const Position *pos, Move m, bool korean, char *buf)
{
    if (korean)
        gib_move_text(pos, m, false, buf);
    else
        move_to_text(m, RANKS_FROM_1, buf);
}

int review_line_texts(const Position *pos, const Move *moves, int count, bool korean, char (*texts)[GIB_MOVE_TEXT_SIZE])
{
    Position copy = *pos;
    if (pos->st == &pos->root)
        copy.st = &copy.root;
    StateInfo states[MAX_PLY];
    int n = 0;
    for (; n < count && n < MAX_PLY && movegen_contains_legal(&copy, moves[n]); n++) {
        review_move_text(&copy, moves[n], korean, texts[n]);
        position_make(&copy, moves[n], &states[n]);
    }
    return n;
}

/* ---- Pieces of text ---- */

static const char *side_title(Color c) { return c == WHITE ? "Cho" : "Han"; }

static void score_text(Score s, char *buf, size_t size)
{
    switch (s.kind) {
    case SCORE_NONE: snprintf(buf, size, "?"); break;
    case SCORE_CP: snprintf(buf, size, "%+d", s.value); break;
    case SCORE_MATE: snprintf(buf, size, "%sM%d", s.value < 0 ? "-" : "+", abs(s.value)); break;
    default: snprintf(buf, size, "%s", s.value > 0 ? "1-0" : s.value < 0 ? "0-1" : "1/2"); break;
    }
}

static void material_text(MaterialCount m, char *buf, size_t size) { snprintf(buf, size, "%d-%d.5", m.cho, m.han + 1); }

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

static void limits_text(const ReviewFormat *f, char *buf, size_t size)
{
    int n = snprintf(buf, size, "per position:");
    if (f->depth)
        n += snprintf(buf + n, size - (size_t)n, " depth %d", f->depth);
    if (f->nodes)
        n += snprintf(buf + n, size - (size_t)n, " nodes %llu", (unsigned long long)f->nodes);
    if (f->movetime)
        snprintf(buf + n, size - (size_t)n, " movetime %lld ms", (long long)f->movetime);
}

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

/* Plays the moves on a copy of pos, writing each, separated by spaces; stops at one that is not legal. */
static void line_text(StrBuf *b, const Position *pos, const Move *moves, int count, bool korean)
{
    char texts[MAX_PLY][GIB_MOVE_TEXT_SIZE];
    int n = review_line_texts(pos, moves, count, korean, texts);
    for (int i = 0; i < n; i++)
        strbuf_printf(b, "%s%s", i ? " " : "", texts[i]);
}

/* ---- Positions ---- */

void review_text_position(StrBuf *b, const ReviewSource *src, const char *fen, const EpdPosition *epd,
                          const PositionReview *pr, const ReviewFormat *f)
{
    const Position *pos = pr->pos;
    char place[1200], material[32], limits[96];
    review_place(src, place, sizeof place);
    material_text(pr->status.material, material, sizeof material);
    limits_text(f, limits, sizeof limits);
    strbuf_printf(b, "== Position %d (%s) ==\nFEN: %s\n", src->number, place, fen);
    strbuf_printf(b, "Rules: %s; %s to move; material %s (Cho-Han, with Han's 1.5-point deom)\n", pos->rules->name,
                  side_title(pos->side), material);
    if (epd && epd->op_count) {
        strbuf_puts(b, "EPD:");
        for (int i = 0; i < epd->op_count; i++)
            strbuf_printf(b, " %s %s;", epd->ops[i].opcode, epd->ops[i].operand);
        strbuf_puts(b, "\n");
    }
    if (pr->status.result != GAME_ONGOING) {
        char end[160];
        end_text(&pr->status, end, sizeof end);
        strbuf_printf(b, "The game is over: %s\n", end);
    }
    if (!pr->status.immediate) {
        const SearchInfo *best = pr->line;
        if (best)
            strbuf_printf(b, "Search (%s): depth %d, seldepth %d, %llu nodes, %lld ms\n", limits, best->depth,
                          best->seldepth, (unsigned long long)best->nodes, (long long)best->time_ms);
        const ReviewSearch *s = pr->search;
        for (int k = 0; s && k < s->count; k++) {
            char sc[32];
            score_text(review_line_score(&s->lines[k], pos->side), sc, sizeof sc);
            strbuf_printf(b, "  %2d. %6s  ", k + 1, sc);
            line_text(b, pos, s->lines[k].pv, s->lines[k].pv_length, f->korean);
            strbuf_puts(b, "\n");
        }
        char sc[32], best_text[GIB_MOVE_TEXT_SIZE] = "(none)";
        score_text(pr->score, sc, sizeof sc);
        if (s && s->best)
            review_move_text(pos, s->best, f->korean, best_text);
        strbuf_printf(b, "Best move: %s, score %s (Cho's view)", best_text, sc);
        if (pr->bm_found >= 0)
            strbuf_printf(b, "; bm %s: %s", pr->bm, pr->bm_found ? "found" : "not found");
        if (pr->am_avoided >= 0)
            strbuf_printf(b, "; am %s: %s", pr->am, pr->am_avoided ? "avoided" : "played");
        strbuf_puts(b, "\n");
    }
    strbuf_puts(b, "\n");
}

/* ---- Games ---- */

void review_text_game_start(StrBuf *b, const ReviewSource *src, const ParsedGame *game, const ReviewFormat *f)
{
    char place[1200], limits[96];
    review_place(src, place, sizeof place);
    limits_text(f, limits, sizeof limits);
    strbuf_printf(b, "== Game %d (%s) ==\n", src->number, place);
    static const char *const shown[][2] = {
        {"대회명", "Event"},    {"Event", "Event"},   {"대국일자", "Date"}, {"Date", "Date"},
        {"초대국자", "Cho"},    {"White", "Cho"},     {"한대국자", "Han"},  {"Black", "Han"},
        {"대국결과", "Result"}, {"Result", "Result"}, {"id", "Id"},         {"event", "Event"},
        {"date", "Date"},       {"cho", "Cho"},       {"han", "Han"},       {"result", "Result"}};
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
                  game->rules->name, limits);
    strbuf_printf(b, "%4s %-4s %-10s %-10s %7s %7s %5s %-11s %s\n", "ply", "side", "move", "best", "before", "after",
                  "loss", "mark", "material");
}

void review_text_row(StrBuf *b, const ReviewRow *row, const ReviewFormat *f)
{
    char move[GIB_MOVE_TEXT_SIZE], best[GIB_MOVE_TEXT_SIZE] = "-";
    review_move_text(row->position, row->move, f->korean, move);
    if (row->best)
        review_move_text(row->position, row->best, f->korean, best);
    char before[32], after[32], material[32], loss[16] = "?";
    score_text(row->before, before, sizeof before);
    score_text(row->after, after, sizeof after);
    material_text(row->material, material, sizeof material);
    if (row->scored)
        snprintf(loss, sizeof loss, "%d", row->loss);
    const char *mark = review_mark_name(row->mark);
    strbuf_printf(b, "%4d %-4s ", row->ply, side_title(row->side));
    buf_column(b, move, 10);
    buf_column(b, best, 10);
    strbuf_printf(b, "%7s %7s %5s %-11s %s\n", before, after, loss, mark ? mark : "", material);
}

void review_text_game_end(StrBuf *b, const Review *r)
{
    strbuf_puts(b, "Summary:\n");
    for (Color c = WHITE; c <= BLACK; c++) {
        const ReviewSummary *ps = &r->summary[c];
        char avg[32] = "?";
        double average;
        if (review_average_loss(ps, &average))
            snprintf(avg, sizeof avg, "%.1f", average);
        strbuf_printf(b, "  %s: %d moves, average loss %s, best move played %d, ", side_title(c), ps->moves, avg,
                      ps->best_played);
        strbuf_printf(b, "%d inaccuracies, %d mistakes, %d blunders\n", ps->marks[REVIEW_INACCURACY],
                      ps->marks[REVIEW_MISTAKE], ps->marks[REVIEW_BLUNDER]);
    }
    if (!r->end.over) {
        char material[32];
        material_text(r->status.material, material, sizeof material);
        strbuf_printf(b, "End: not over after %d plies, by the referee; material %s\n", r->move_count, material);
    } else {
        char text[200];
        end_text(&r->end.status, text, sizeof text);
        strbuf_printf(b, "End: after ply %d, %s%s\n", r->end.ply, text,
                      r->end.record_continues ? " (the record goes on past it)" : "");
    }
    strbuf_puts(b, "\n");
}

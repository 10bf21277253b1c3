#define _POSIX_C_SOURCE 200809L
#include "review.h"

#include <stdio.h>
#include <string.h>

#include "../engine/movegen.h"
#include "../engine/records/pgn.h"

/* ---- Scores and losses ---- */

const SearchInfo *review_best_line(const ReviewSearch *search)
{
    return search && search->count ? &search->lines[0] : NULL;
}

Score review_line_score(const SearchInfo *line, Color side)
{
    if (!line)
        return (Score){SCORE_NONE, 0};
    int sign = side == WHITE ? 1 : -1;
    if (line->is_mate)
        return (Score){SCORE_MATE, sign * line->mate_moves};
    return (Score){SCORE_CP, sign * line->score};
}

Score review_result_score(GameResult result)
{
    return (Score){SCORE_RESULT, result == GAME_CHO_WINS ? 1 : result == GAME_HAN_WINS ? -1 : 0};
}

int review_capped(Score score, Color mover)
{
    int v;
    if (score.kind == SCORE_CP)
        v = score.value > REVIEW_LOSS_CAP    ? REVIEW_LOSS_CAP
            : score.value < -REVIEW_LOSS_CAP ? -REVIEW_LOSS_CAP
                                             : score.value;
    else if (score.kind == SCORE_MATE)
        v = score.value >= 0 ? REVIEW_LOSS_CAP : -REVIEW_LOSS_CAP;
    else
        v = score.value * REVIEW_LOSS_CAP;
    return mover == WHITE ? v : -v;
}

int review_loss(Score before, Score after, Color mover, bool best_played)
{
    if (before.kind == SCORE_NONE || after.kind == SCORE_NONE)
        return -1;
    int loss = best_played ? 0 : review_capped(before, mover) - review_capped(after, mover);
    return loss < 0 ? 0 : loss;
}

ReviewMark review_mark(int loss)
{
    return loss >= REVIEW_BLUNDER_LOSS      ? REVIEW_BLUNDER
           : loss >= REVIEW_MISTAKE_LOSS    ? REVIEW_MISTAKE
           : loss >= REVIEW_INACCURACY_LOSS ? REVIEW_INACCURACY
                                            : REVIEW_NO_MARK;
}

const char *review_mark_name(ReviewMark mark)
{
    static const char *const names[REVIEW_MARK_COUNT] = {"inaccuracy", "mistake", "blunder"};
    return mark >= 0 && mark < REVIEW_MARK_COUNT ? names[mark] : NULL;
}

bool review_average_loss(const ReviewSummary *summary, double *average)
{
    if (!summary->scored)
        return false;
    *average = (double)summary->loss_sum / summary->scored;
    return true;
}

/* ---- Games ---- */

bool review_start(Review *r, const char *start_fen, const RuleSet *rules, const Move *moves, int move_count, char *err,
                  size_t err_size)
{
    memset(r, 0, sizeof *r);
    if (!game_start(&r->game, start_fen, rules, FEN_ALLOW_EXTRA_PIECES, err, err_size))
        return false;
    /* the moves replay: checked once here, so review_add never meets an illegal one */
    for (int i = 0; i < move_count; i++) {
        if (!game_play(&r->game, moves[i])) {
            snprintf(err, err_size, "illegal move at ply %d", i + 1);
            game_free(&r->game);
            return false;
        }
    }
    while (game_undo(&r->game)) {
    }
    game_start(&r->before, start_fen, rules, FEN_ALLOW_EXTRA_PIECES, NULL, 0);
    r->moves = moves;
    r->move_count = move_count;
    r->status = game_status(&r->game);
    return true;
}

bool review_start_record(Review *r, const ParsedGame *game, char *err, size_t err_size)
{
    return review_start(r, game->start_fen, game->rules, game->moves, game->move_count, err, err_size);
}

void review_free(Review *r)
{
    game_free(&r->game);
    game_free(&r->before);
}

const ReviewRow *review_add(Review *r, const ReviewSearch *search)
{
    if (r->done)
        return NULL;
    if (r->status.immediate)
        search = NULL;
    const SearchInfo *line = review_best_line(search);
    Score score =
        r->status.immediate ? review_result_score(r->status.result) : review_line_score(line, r->game.pos.side);
    if (!r->end.over && r->status.result != GAME_ONGOING) {
        r->end.over = true;
        r->end.ply = r->ply;
        r->end.status = r->status;
        r->end.record_continues = r->ply < r->move_count;
    }

    const ReviewRow *finished = NULL;
    if (r->ply > 0) {
        /* `before` catches up to the position before the move just played */
        while (r->before.length < r->ply - 1)
            game_play(&r->before, r->moves[r->before.length]);
        ReviewRow *row = &r->rows[r->ply % 2];
        row->after = score;
        row->material = r->status.material;
        row->position = &r->before.pos;
        ReviewSummary *sum = &r->summary[row->side];
        sum->moves++;
        if (row->best && row->move == row->best)
            sum->best_played++;
        int loss = review_loss(row->before, row->after, row->side, row->move == row->best);
        row->scored = loss >= 0;
        row->loss = row->scored ? loss : 0;
        row->mark = review_mark(loss);
        if (row->scored) {
            sum->scored++;
            sum->loss_sum += loss;
            if (row->mark != REVIEW_NO_MARK)
                sum->marks[row->mark]++;
        }
        finished = row;
    }

    if (r->ply == r->move_count) {
        r->done = true;
        return finished;
    }
    /* the move about to be played: its row is finished by the next call */
    ReviewRow *next = &r->rows[(r->ply + 1) % 2];
    next->ply = r->ply + 1;
    next->side = r->game.pos.side;
    next->move = r->moves[r->ply];
    next->best = search ? search->best : MOVE_NONE;
    next->before = score;
    next->depth = line ? line->depth : 0;
    next->position = NULL;
    next->search.count = search ? search->count : 0;
    next->search.best = next->best;
    if (search) /* the lines in use only: a search holds room for MAX_MULTIPV */
        memcpy(next->search.lines, search->lines, (size_t)search->count * sizeof search->lines[0]);
    game_play(&r->game, next->move);
    r->ply++;
    r->status = game_status(&r->game);
    return finished;
}

/* ---- Positions ---- */

PositionReview review_position(const Position *pos, GameStatus status, const ReviewSearch *search, const char *bm,
                               const char *am)
{
    if (status.immediate)
        search = NULL;
    PositionReview pr = {
        .pos = pos, .status = status, .search = search, .bm = bm, .am = am, .bm_found = -1, .am_avoided = -1};
    pr.line = review_best_line(search);
    pr.score = status.immediate ? review_result_score(status.result) : review_line_score(pr.line, pos->side);
    Move best = search ? search->best : MOVE_NONE;
    for (int pass = 0; pass < 2 && best; pass++) {
        const char *list = pass ? am : bm;
        if (!list)
            continue;
        char copy[256], *save = NULL;
        snprintf(copy, sizeof copy, "%s", list);
        bool hit = false;
        for (char *tok = strtok_r(copy, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save)) {
            Move m;
            hit |= pgn_parse_move(pos, tok, &m) == PGN_MOVE_OK && m == best;
        }
        if (pass)
            pr.am_avoided = !hit;
        else
            pr.bm_found = hit;
    }
    return pr;
}

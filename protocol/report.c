#include "report.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends to a buffer, never past its end. */
typedef struct {
    char *buf;
    size_t size, len;
} Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(Out *o, const char *fmt, ...)
{
    if (o->len + 1 >= o->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len = o->len + (size_t)n < o->size ? o->len + (size_t)n : o->size - 1;
}

/* e^x without libm, good to far better than the permill the model is printed in. */
static double exp_small(double x)
{
    if (x > 60)
        x = 60;
    if (x < -60)
        x = -60;
    double y = x / 1024.0, e = 1 + y * (1 + y / 2 * (1 + y / 3 * (1 + y / 4)));
    for (int i = 0; i < 10; i++)
        e *= e;
    return e;
}

void report_wdl(int cp, int game_ply, int wdl[3])
{
    /* The win rate passes 50% at a score `a` with spread `b`; both shrink as the game goes on, when
     * an advantage converts more surely. Counting decides most Janggi endings, so draws are rarer
     * than in chess. */
    double m = (game_ply < 240 ? game_ply : 240) / 64.0;
    double a = 150.0 - 30.0 * m, b = 120.0 - 10.0 * m;
    double x = cp < -4000 ? -4000 : cp > 4000 ? 4000 : cp;
    int win = (int)(0.5 + 1000.0 / (1.0 + exp_small((a - x) / b)));
    int loss = (int)(0.5 + 1000.0 / (1.0 + exp_small((a + x) / b)));
    wdl[0] = win;
    wdl[1] = 1000 - win - loss;
    wdl[2] = loss;
}

void report_info_line(const SearchInfo *info, const ReportStyle *style, char *buf, size_t size)
{
    Out o = {buf, size, 0};
    buf[0] = '\0';
    put(&o, "info depth %d seldepth %d multipv %d score ", info->depth, info->seldepth, info->multipv);
    if (info->is_mate)
        put(&o, "mate %d", info->mate_moves);
    else
        put(&o, style->proto == PROTO_UCI ? "cp %d" : "%d", info->score);
    if (style->show_wdl) {
        int wdl[3];
        if (info->is_mate) {
            wdl[0] = info->mate_moves > 0 ? 1000 : 0;
            wdl[1] = 0;
            wdl[2] = info->mate_moves > 0 ? 0 : 1000;
        } else {
            report_wdl(info->score, style->game_ply, wdl);
        }
        put(&o, " wdl %d %d %d", wdl[0], wdl[1], wdl[2]);
    }
    if (info->bound == BOUND_LOWER)
        put(&o, " lowerbound");
    else if (info->bound == BOUND_UPPER)
        put(&o, " upperbound");
    put(&o, " nodes %" PRIu64 " nps %" PRIu64 " hashfull %d time %" PRId64, info->nodes, info->nps, info->hashfull,
        info->time_ms);
    if (info->pv_length > 0) {
        put(&o, " pv");
        for (int i = 0; i < info->pv_length && i < MAX_PLY; i++) {
            char text[MOVE_TEXT_SIZE];
            move_to_text(info->pv[i], report_rank_base(style->proto), text);
            put(&o, " %s", text);
        }
    }
}

void report_xboard_move(Move m, char *buf)
{
    if (m != MOVE_NONE && move_is_pass(m))
        strcpy(buf, "@@@@");
    else
        move_to_text(m, RANKS_FROM_0, buf);
}

void report_xboard_thinking(const SearchInfo *info, char *buf, size_t size)
{
    Out o = {buf, size, 0};
    buf[0] = '\0';
    int score = info->score;
    if (info->is_mate)
        score = info->mate_moves > 0 ? 100000 + info->mate_moves : -100000 + info->mate_moves;
    put(&o, "%d %d %" PRId64 " %" PRIu64 " %d %" PRIu64 " 0\t", info->depth, score, info->time_ms / 10, info->nodes,
        info->seldepth, info->nps);
    for (int i = 0; i < info->pv_length && i < MAX_PLY; i++) {
        char text[MOVE_TEXT_SIZE];
        report_xboard_move(info->pv[i], text);
        put(&o, " %s", text);
    }
}

void report_bestmove_line(Move best, Move ponder, Protocol proto, char *buf, size_t size)
{
    Out o = {buf, size, 0};
    buf[0] = '\0';
    if (best == MOVE_NONE) {
        put(&o, "bestmove (none)");
        return;
    }
    char text[MOVE_TEXT_SIZE];
    move_to_text(best, report_rank_base(proto), text);
    put(&o, "bestmove %s", text);
    if (ponder != MOVE_NONE) {
        move_to_text(ponder, report_rank_base(proto), text);
        put(&o, " ponder %s", text);
    }
}

static const char piece_letters[] = " PABNCRK pabncrk";

void report_board(const Position *pos, Protocol proto, char *buf, size_t size)
{
    Out o = {buf, size, 0};
    buf[0] = '\0';
    const char *border = " +---+---+---+---+---+---+---+---+---+\n";
    put(&o, "\n%s", border);
    for (int rank = RANK_COUNT - 1; rank >= 0; rank--) {
        for (int file = 0; file < FILE_COUNT; file++) {
            Piece p = pos->board[make_square(file, rank)];
            put(&o, " | %c", p == NO_PIECE ? ' ' : piece_letters[p]);
        }
        put(&o, " |%d", rank + (proto == PROTO_UCI ? 1 : 0));
        if (rank == RANK_COUNT - 1 || rank == 0)
            put(&o, "%s", (rank == 0) == (pos->side == WHITE) ? " *" : "  ");
        put(&o, "\n%s", border);
    }
    for (int file = 0; file < FILE_COUNT; file++)
        put(&o, "   %c", 'a' + file);
    char fen[128];
    position_to_fen(pos, fen, sizeof fen);
    /* SFEN: the board, the side with colours swapped (shogi's first player is "b"), no pieces in hand,
     * and the move count in plies from 1. */
    char board[128];
    size_t board_len = strcspn(fen, " ");
    memcpy(board, fen, board_len);
    board[board_len] = '\0';
    int game_ply = 2 * (pos->fullmove - 1) + (pos->side == BLACK);
    put(&o, "\n\nFen: %s\nSfen: %s %c - %d\nKey: %016" PRIX64 "\nCheckers: ", fen, board,
        pos->side == WHITE ? 'b' : 'w', game_ply + 1, pos->st->key);
    for (Bitboard b = pos->st->checkers; b;) {
        char sq[4];
        square_to_text(bb_pop_lsb(&b), report_rank_base(proto), sq);
        put(&o, "%s ", sq);
    }
    put(&o, "\nChased: \n");
}

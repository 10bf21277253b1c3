/* Move ordering: scores, killers and history. */
#include "movepick.h"

#include <stdlib.h>
#include <string.h>

#include "see.h"

int score_moves(const OrderingStats *os, const Position *pos, const MoveList *list, ScoredMove *out, Move tt_move,
                int ply)
{
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        int score;
        Piece victim = move_is_pass(m) ? NO_PIECE : pos->board[move_to(m)];
        if (m == tt_move)
            score = SCORE_TT;
        else if (victim) {
            int victim_value = see_value[piece_type(victim)];
            int attacker_value = see_value[piece_type(pos->board[move_from(m)])];
            int mvv_lva = 16 * victim_value - attacker_value / 16;
            /* Taking something at least as valuable never loses material: no exchange to resolve. */
            bool good = victim_value >= attacker_value || see(pos, m) >= 0;
            score = (good ? SCORE_GOOD_CAPTURE : SCORE_BAD_CAPTURE) + mvv_lva;
        } else if (m == os->killers[ply][0])
            score = SCORE_KILLER + 1;
        else if (m == os->killers[ply][1])
            score = SCORE_KILLER;
        else if (move_is_pass(m))
            score = SCORE_PASS; /* after the other quiet moves */
        else
            score = os->history[pos->side][move_from(m)][move_to(m)];
        out[i] = (ScoredMove){m, score};
    }
    return list->count;
}

/* Gravity update: the bonus shrinks as the entry nears +-HISTORY_MAX, which it never passes. */
static void update_history(OrderingStats *os, Color side, Move m, int bonus)
{
    int16_t *h = &os->history[side][move_from(m)][move_to(m)];
    int v = *h + bonus - *h * abs(bonus) / HISTORY_MAX;
    *h = (int16_t)v;
}

void update_quiet_stats(OrderingStats *os, Color side, int ply, int depth, Move best, const Move *tried,
                        int tried_count)
{
    if (os->killers[ply][0] != best) {
        os->killers[ply][1] = os->killers[ply][0];
        os->killers[ply][0] = best;
    }
    int bonus = depth * depth > HISTORY_MAX / 4 ? HISTORY_MAX / 4 : depth * depth;
    update_history(os, side, best, bonus);
    for (int q = 0; q < tried_count; q++)
        update_history(os, side, tried[q], -bonus);
}

void ordering_new_search(OrderingStats *os) { memset(os->killers, 0, sizeof os->killers); }

void ordering_clear(OrderingStats *os) { memset(os, 0, sizeof *os); }

#include "referee.h"

#include "movegen.h"

static const int piece_points[PIECE_TYPE_COUNT] = {0, 2, 3, 3, 5, 7, 13, 0};

MaterialCount referee_count_material(const Position *pos)
{
    MaterialCount m = {0, 0};
    for (PieceType pt = SOLDIER; pt < GENERAL; pt++) {
        m.cho += piece_points[pt] * bb_popcount(position_pieces(pos, WHITE, pt));
        m.han += piece_points[pt] * bb_popcount(position_pieces(pos, BLACK, pt));
    }
    return m;
}

/* A draw, or the count's verdict where the rule set counts. */
static void settle_draw(const Position *pos, Verdict *v)
{
    v->outcome = OUTCOME_DRAW;
    v->by_counting = false;
    if (pos->rules->material_counting) {
        v->by_counting = true;
        v->outcome = referee_counting_winner(referee_count_material(pos)) == pos->side ? OUTCOME_WIN : OUTCOME_LOSS;
    }
}

bool referee_immediate_end(const Position *pos, Verdict *v)
{
    const StateInfo *st = pos->st;
    if (st->ended) {
        v->reason = st->bikjang && st->prev->bikjang ? END_BIKJANG : END_DOUBLE_PASS;
        settle_draw(pos, v);
        return true;
    }
    if (movegen_count_legal(pos) == 0) {
        /* Without check the pass would be legal, so this is mate. */
        v->reason = END_CHECKMATE;
        v->outcome = OUTCOME_LOSS;
        v->by_counting = false;
        return true;
    }
    return false;
}

static Move reverse_move(Move m) { return make_move(move_to(m), move_from(m)); }

static const StateInfo *plies_back(const StateInfo *st, int n)
{
    while (n-- > 0)
        st = st->prev;
    return st;
}

/* The Kakao rule's starting state for the last move M0 by X (its moves are M0, M2, M4, ...):
 * 2 when M2 reversed M0, 1 when M2 was a pass, 0 when the rule cannot apply. */
static int kakao_start(const Position *pos)
{
    const StateInfo *s0 = pos->st;
    if (!pos->rules->kakao_repetition || move_is_pass(s0->move))
        return 0;
    PieceType moved = piece_type(pos->board[move_to(s0->move)]);
    if (moved == GENERAL || moved == GUARD) /* confined to their palace: never reach the enemy's */
        return 0;
    const StateInfo *s2 = plies_back(s0, 2);
    if (s0->prev->checkers || s2->prev->checkers) /* X was in check before M0 or M2 */
        return 0;
    return s2->move == reverse_move(s0->move) ? 2 : move_is_pass(s2->move) ? 1 : 0;
}

bool referee_optional_end(const Position *pos, int search_ply, Verdict *v)
{
    const StateInfo *s0 = pos->st;
    const RuleSet *rules = pos->rules;
    v->by_counting = false;

    if (s0->halfmove >= rules->nmove_plies && (!s0->checkers || movegen_count_legal(pos) > 0)) {
        v->reason = END_MOVE_LIMIT;
        settle_draw(pos, v);
        return true;
    }

    /* Only positions since the last capture and since the set-up can repeat. */
    int end = s0->halfmove < s0->plies ? s0->halfmove : s0->plies;
    if (end < 4)
        return false;
    const StateInfo *s2 = plies_back(s0, 2);
    /* Whether the side that just moved (them) or the side to move (us) gave check at every one of
     * their moves back to the repeated position. */
    bool them_always_checking = s0->checkers && s2->checkers;
    bool us_always_checking = s0->prev->checkers && s2->prev->checkers;
    int kakao = kakao_start(pos);
    int needed = search_ply > 0 && !rules->kakao_repetition ? 2 : rules->nfold;
    int occurrences = 1;
    const StateInfo *back = s2; /* i - 2 plies back at the top of the loop */
    for (int i = 4; i <= end; i += 2) {
        if (kakao) {
            const StateInfo *at_i = back->prev->prev;
            if (i + 1 <= end && at_i->prev->checkers) {
                kakao = 0; /* X was in check before one of its moves: the pattern restarts */
            } else if (kakao < 4) {
                const StateInfo *later = kakao == 1 ? s0 : back;
                kakao = at_i->move == reverse_move(later->move) ? kakao + 1 : 0;
            } else {
                /* Four oscillating moves: the piece must have arrived without capturing. */
                if (!at_i->captured && move_from(back->move) == move_to(at_i->move)) {
                    v->reason = END_KAKAO_REPETITION;
                    v->outcome = OUTCOME_WIN;
                    return true;
                }
                kakao = 0;
            }
        }
        back = back->prev->prev;
        them_always_checking = them_always_checking && back->checkers;
        if (back->key == s0->key && ++occurrences == needed) {
            if (them_always_checking || us_always_checking) {
                v->reason = END_PERPETUAL_CHECK;
                if (!us_always_checking)
                    v->outcome = OUTCOME_WIN;
                else if (!them_always_checking)
                    v->outcome = OUTCOME_LOSS;
                else
                    settle_draw(pos, v);
            } else {
                v->reason = END_REPETITION;
                settle_draw(pos, v);
            }
            return true;
        }
        if (i + 1 <= end)
            us_always_checking = us_always_checking && back->prev->checkers;
    }
    return false;
}

bool referee_judge(const Position *pos, Verdict *v)
{
    if (referee_immediate_end(pos, v) || referee_optional_end(pos, 0, v))
        return true;
    v->reason = END_NONE;
    v->outcome = OUTCOME_DRAW;
    v->by_counting = false;
    return false;
}

const char *end_reason_name(EndReason reason)
{
    static const char *const names[] = {"none",       "checkmate",       "bikjang",          "double pass",
                                        "repetition", "perpetual check", "kakao repetition", "move limit"};
    return names[reason];
}

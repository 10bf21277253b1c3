/* The staged move picker and the history updates. */
#include "movepick.h"

#include <string.h>

#include "see.h"

/* Score bands of the evasion and listed orders, best first: the table move, captures that do not
 * lose material, the killers and counter move, quiet moves by history, the pass, losing captures. */
enum {
    SCORE_TABLE = 1 << 30,
    SCORE_GOOD_CAPTURE = 1 << 28,
    SCORE_REFUTATION = 1 << 26,
    SCORE_PASS = -(1 << 20),
    SCORE_BAD_CAPTURE = -(1 << 28)
};

static inline bool is_capture(const Position *pos, Move m) { return !move_is_pass(m) && pos->board[move_to(m)]; }

/* Taking something at least as valuable as the attacker never loses more than their difference, so
 * the exchange need not be played out then. */
static bool capture_is_good(const Position *pos, Move m, int threshold)
{
    int victim = see_value[piece_type(pos->board[move_to(m)])];
    int attacker = see_value[piece_type(pos->board[move_from(m)])];
    return victim - attacker >= threshold || see(pos, m) >= threshold;
}

static int capture_score(const MovePicker *mp, Move m)
{
    const Position *pos = mp->pos;
    Piece moved = pos->board[move_from(m)];
    PieceType victim = piece_type(pos->board[move_to(m)]);
    return CAPTURE_MVV_WEIGHT * see_value[victim] + mp->os->capture[moved][move_to(m)][victim];
}

/* Most valuable victim, then least valuable attacker (victim values differ by at least 50, and 32 * 50
 * outweighs any attacker / 16). Evasions are few, so this alone orders their captures. */
static int mvv_lva(const Position *pos, Move m)
{
    return 32 * see_value[piece_type(pos->board[move_to(m)])] - see_value[piece_type(pos->board[move_from(m)])] / 16;
}

/* What escaping a threat is worth in the quiet order, by the moving piece's type. Soldiers and
 * guards are left to the histories: they are cheap, and a guard's place is by its general. */
static const int threat_escape[PIECE_TYPE_COUNT] = {
    [ELEPHANT] = THREAT_ESCAPE_MINOR,
    [HORSE] = THREAT_ESCAPE_MINOR,
    [CANNON] = THREAT_ESCAPE_CANNON,
    [CHARIOT] = THREAT_ESCAPE_CHARIOT,
};

/* Every point the pieces of type pt and colour c attack (or defend). */
static Bitboard attacks_by(const Position *pos, Color c, PieceType pt)
{
    Bitboard attacks = 0, pieces = position_pieces(pos, c, pt);
    while (pieces)
        attacks |= movegen_piece_reach(pos, pt, bb_pop_lsb(&pieces), c);
    return attacks;
}

/* Fills mp->threatened: for each type, the union of the attacks of the enemy's cheaper types. */
static void find_threats(MovePicker *mp)
{
    static const PieceType by_value[] = {SOLDIER, GUARD, ELEPHANT, HORSE, CANNON, CHARIOT};
    const Position *pos = mp->pos;
    Color them = (Color)(pos->side ^ 1);
    Bitboard attacks[PIECE_TYPE_COUNT] = {0};
    for (size_t i = 0; i < sizeof by_value / sizeof by_value[0]; i++)
        attacks[by_value[i]] = attacks_by(pos, them, by_value[i]);
    for (PieceType pt = SOLDIER; pt < PIECE_TYPE_COUNT; pt++) {
        mp->threatened[pt] = 0;
        for (size_t i = 0; i < sizeof by_value / sizeof by_value[0]; i++)
            if (see_value[by_value[i]] < see_value[pt])
                mp->threatened[pt] |= attacks[by_value[i]];
    }
    mp->threats_known = true;
}

/* The quiet order: butterfly and continuation histories, the one 4 plies back at half weight, and
 * (outside check) threats escaped or walked into. */
static int quiet_score(const MovePicker *mp, Move m)
{
    const Position *pos = mp->pos;
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from];
    PieceToHistory *const *cont = mp->history.continuation;
    int score =
        mp->os->butterfly[pos->side][from][to] + (*cont[0])[pc][to] + (*cont[1])[pc][to] + (*cont[2])[pc][to] / 2;
    if (mp->threats_known && !move_is_pass(m)) {
        PieceType pt = piece_type(pc);
        bool threatened_now = bb_test(mp->threatened[pt], from), threatened_after = bb_test(mp->threatened[pt], to);
        if (threatened_now != threatened_after)
            score += threatened_now ? threat_escape[pt] : -threat_escape[pt];
    }
    return score;
}

QuietHistory picker_quiet_history(const MovePicker *mp, Move m)
{
    const Position *pos = mp->pos;
    Square to = move_to(m);
    Piece pc = pos->board[move_from(m)];
    PieceToHistory *const *cont = mp->history.continuation;
    int continuation = (*cont[0])[pc][to] + (*cont[1])[pc][to];
    return (QuietHistory){mp->os->butterfly[pos->side][move_from(m)][to] + continuation + (*cont[2])[pc][to],
                          continuation};
}

/* Selection step: brings the best of [cur, end) to cur. Few moves are usually picked before a cutoff,
 * so sorting the whole range would be wasted. */
static Move pick_best(MovePicker *mp)
{
    int best = mp->cur;
    for (int j = mp->cur + 1; j < mp->end; j++)
        if (mp->scores[j] > mp->scores[best])
            best = j;
    Move m = mp->list.moves[best];
    int s = mp->scores[best];
    mp->list.moves[best] = mp->list.moves[mp->cur];
    mp->scores[best] = mp->scores[mp->cur];
    mp->list.moves[mp->cur] = m;
    mp->scores[mp->cur] = s;
    return m;
}

/* Sorts the moves of [begin, end) scoring at least `limit` to the front, best first; the others follow
 * in no particular order. The ones below the limit would rarely be reached before a cutoff. */
static void partial_insertion_sort(MovePicker *mp, int begin, int end, int limit)
{
    Move *moves = mp->list.moves;
    int *scores = mp->scores;
    for (int sorted_end = begin, p = begin + 1; p < end; p++) {
        if (scores[p] < limit)
            continue;
        Move m = moves[p];
        int s = scores[p];
        moves[p] = moves[++sorted_end];
        scores[p] = scores[sorted_end];
        int q = sorted_end;
        for (; q > begin && scores[q - 1] < s; q--) {
            moves[q] = moves[q - 1];
            scores[q] = scores[q - 1];
        }
        moves[q] = m;
        scores[q] = s;
    }
}

static bool is_refutation(const MovePicker *mp, Move m)
{
    return m == mp->refutations[0] || m == mp->refutations[1] || m == mp->refutations[2];
}

static void init_common(MovePicker *mp, const Position *pos, const OrderingStats *os, const HistoryContext *history)
{
    mp->pos = pos;
    mp->os = os;
    mp->history = *history;
    mp->tt_move = MOVE_NONE;
    mp->refutations[0] = mp->refutations[1] = mp->refutations[2] = MOVE_NONE;
    mp->pass = MOVE_NONE;
    mp->depth = 0;
    mp->kind = PICK_QUIET;
    mp->skip_quiets = false;
    mp->cur = mp->end = mp->bad_end = 0;
    mp->list.count = 0;
    mp->threats_known = false;
}

void picker_init_main(MovePicker *mp, const Position *pos, const OrderingStats *os, Move tt_move, int depth, int ply,
                      const HistoryContext *history)
{
    init_common(mp, pos, os, history);
    mp->depth = depth;
    if (tt_move != MOVE_NONE && movegen_contains_legal(pos, tt_move))
        mp->tt_move = tt_move;
    if (pos->st->checkers) {
        mp->stage = STAGE_EVASION_TABLE;
        return;
    }
    mp->stage = STAGE_MAIN_TABLE;
    Move counter = history->previous_piece != NO_PIECE
                       ? os->counter_moves[history->previous_piece][history->previous_to]
                       : MOVE_NONE;
    Move candidates[3] = {os->killers[ply][0], os->killers[ply][1], counter};
    for (int i = 0, n = 0; i < 3; i++) {
        Move m = candidates[i];
        if (m != MOVE_NONE && m != mp->tt_move && !is_refutation(mp, m))
            mp->refutations[n++] = m;
    }
}

void picker_init_qsearch(MovePicker *mp, const Position *pos, const OrderingStats *os, Move tt_move,
                         const HistoryContext *history)
{
    init_common(mp, pos, os, history);
    bool full_width = pos->st->checkers || pos->st->bikjang;
    if (tt_move != MOVE_NONE && movegen_contains_legal(pos, tt_move) && (full_width || is_capture(pos, tt_move)))
        mp->tt_move = tt_move;
    mp->stage = full_width ? STAGE_EVASION_TABLE : STAGE_QS_TABLE;
}

void picker_init_listed(MovePicker *mp, const Position *pos, const OrderingStats *os, const Move *moves, int count,
                        Move tt_move, int ply, const HistoryContext *history)
{
    init_common(mp, pos, os, history);
    mp->tt_move = tt_move;
    mp->stage = STAGE_LISTED;
    if (!pos->st->checkers)
        find_threats(mp);
    for (int i = 0; i < count; i++) {
        Move m = moves[i];
        int score;
        if (m == tt_move)
            score = SCORE_TABLE;
        else if (is_capture(pos, m))
            score = (capture_is_good(pos, m, GOOD_CAPTURE_SEE) ? SCORE_GOOD_CAPTURE : SCORE_BAD_CAPTURE)
                    + capture_score(mp, m);
        else if (m == os->killers[ply][0])
            score = SCORE_REFUTATION + 1;
        else if (m == os->killers[ply][1])
            score = SCORE_REFUTATION;
        else if (move_is_pass(m))
            score = SCORE_PASS;
        else
            score = quiet_score(mp, m);
        mp->list.moves[i] = m;
        mp->scores[i] = score;
    }
    mp->list.count = mp->end = count;
}

/* The bands lie far further apart than capture and history scores reach. */
static PickKind listed_kind(int score)
{
    return score >= SCORE_TABLE              ? PICK_TABLE
           : score >= SCORE_GOOD_CAPTURE / 2 ? PICK_GOOD_CAPTURE
           : score >= SCORE_REFUTATION       ? PICK_REFUTATION
           : score > SCORE_BAD_CAPTURE / 2   ? PICK_QUIET
                                             : PICK_BAD_CAPTURE;
}

Move picker_next(MovePicker *mp)
{
    const Position *pos = mp->pos;
    for (;;) {
        switch (mp->stage) {
        case STAGE_MAIN_TABLE:
            mp->stage = STAGE_CAPTURE_INIT;
            if (mp->tt_move != MOVE_NONE && !(mp->skip_quiets && !is_capture(pos, mp->tt_move))) {
                mp->kind = PICK_TABLE;
                return mp->tt_move;
            }
            break;

        case STAGE_EVASION_TABLE:
        case STAGE_QS_TABLE:
            mp->stage++;
            if (mp->tt_move != MOVE_NONE) {
                mp->kind = PICK_TABLE;
                return mp->tt_move;
            }
            break;

        case STAGE_CAPTURE_INIT:
        case STAGE_QS_CAPTURE_INIT:
            movegen_pseudo(pos, GEN_CAPTURES, &mp->list);
            for (int i = 0; i < mp->list.count; i++)
                mp->scores[i] = capture_score(mp, mp->list.moves[i]);
            mp->cur = mp->bad_end = 0;
            mp->end = mp->list.count;
            mp->stage++;
            break;

        case STAGE_GOOD_CAPTURES:
            while (mp->cur < mp->end) {
                Move m = pick_best(mp);
                mp->cur++;
                if (m == mp->tt_move)
                    continue;
                if (capture_is_good(pos, m, GOOD_CAPTURE_SEE)) {
                    mp->kind = PICK_GOOD_CAPTURE;
                    return m;
                }
                mp->list.moves[mp->bad_end++] = m; /* a slot already consumed */
            }
            mp->cur = 0;
            mp->stage = STAGE_REFUTATIONS;
            break;

        case STAGE_REFUTATIONS:
            while (mp->cur < 3 && !mp->skip_quiets) {
                Move m = mp->refutations[mp->cur++];
                if (m != MOVE_NONE && movegen_contains_legal(pos, m) && !is_capture(pos, m)) {
                    mp->kind = PICK_REFUTATION;
                    return m;
                }
            }
            mp->stage = STAGE_QUIET_INIT;
            break;

        case STAGE_QUIET_INIT:
            mp->cur = mp->end = mp->list.count;
            if (!mp->skip_quiets) {
                movegen_pseudo(pos, GEN_QUIETS, &mp->list);
                /* The pass is generated last; it comes after the other quiet moves whatever their
                 * history, so it stays out of the sort. */
                if (mp->list.count > mp->end && move_is_pass(mp->list.moves[mp->list.count - 1]))
                    mp->pass = mp->list.moves[--mp->list.count];
                mp->end = mp->list.count;
                find_threats(mp);
                for (int i = mp->cur; i < mp->end; i++)
                    mp->scores[i] = quiet_score(mp, mp->list.moves[i]);
                partial_insertion_sort(mp, mp->cur, mp->end, -QUIET_SORT_LIMIT * mp->depth);
            }
            mp->stage = STAGE_QUIETS;
            break;

        case STAGE_QUIETS:
            while (mp->cur < mp->end && !mp->skip_quiets) {
                Move m = mp->list.moves[mp->cur++];
                if (m != mp->tt_move && !is_refutation(mp, m)) {
                    mp->kind = PICK_QUIET;
                    return m;
                }
            }
            mp->stage = STAGE_PASS;
            break;

        case STAGE_PASS:
            mp->cur = 0;
            mp->stage = STAGE_BAD_CAPTURES;
            if (mp->pass != MOVE_NONE && !mp->skip_quiets && mp->pass != mp->tt_move && !is_refutation(mp, mp->pass)) {
                mp->kind = PICK_QUIET;
                return mp->pass;
            }
            break;

        case STAGE_BAD_CAPTURES:
            if (mp->cur < mp->bad_end) {
                mp->kind = PICK_BAD_CAPTURE;
                return mp->list.moves[mp->cur++];
            }
            mp->stage = STAGE_DONE;
            break;

        case STAGE_EVASION_INIT:
            movegen_pseudo(pos, GEN_ALL, &mp->list);
            for (int i = 0; i < mp->list.count; i++) {
                Move m = mp->list.moves[i];
                mp->scores[i] = is_capture(pos, m) ? SCORE_GOOD_CAPTURE + mvv_lva(pos, m)
                                : move_is_pass(m)  ? SCORE_PASS
                                                   : quiet_score(mp, m);
            }
            mp->cur = 0;
            mp->end = mp->list.count;
            mp->stage = STAGE_EVASIONS;
            break;

        case STAGE_EVASIONS:
            while (mp->cur < mp->end) {
                Move m = pick_best(mp);
                mp->cur++;
                if (m != mp->tt_move) {
                    mp->kind = PICK_EVASION;
                    return m;
                }
            }
            mp->stage = STAGE_DONE;
            break;

        case STAGE_QS_CAPTURES:
            /* Captures that lose material are left out of quiescence. */
            while (mp->cur < mp->end) {
                Move m = pick_best(mp);
                mp->cur++;
                if (m != mp->tt_move && capture_is_good(pos, m, 0)) {
                    mp->kind = PICK_GOOD_CAPTURE;
                    return m;
                }
            }
            mp->stage = STAGE_DONE;
            break;

        case STAGE_LISTED:
            if (mp->cur < mp->end) {
                Move m = pick_best(mp);
                mp->kind = listed_kind(mp->scores[mp->cur++]);
                return m;
            }
            mp->stage = STAGE_DONE;
            break;

        case STAGE_DONE: return MOVE_NONE;
        }
    }
}

/* ---- Learning from cutoffs ---- */

static void update_quiet_histories(OrderingStats *os, const Position *pos, const HistoryContext *history, Move m,
                                   int bonus)
{
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from];
    history_gravity(&os->butterfly[pos->side][from][to], bonus, HISTORY_MAX);
    PieceToHistory *sentinel = continuation_sentinel(os);
    for (int i = 0; i < CONT_PLIES; i++)
        if (history->continuation[i] != sentinel)
            history_gravity(&(*history->continuation[i])[pc][to], bonus, CONTINUATION_HISTORY_MAX);
}

static void update_capture_history(OrderingStats *os, const Position *pos, Move m, int bonus)
{
    Square to = move_to(m);
    history_gravity(&os->capture[pos->board[move_from(m)]][to][piece_type(pos->board[to])], bonus, CAPTURE_HISTORY_MAX);
}

/* The quiet move `best` cut off: killer, counter move and histories. */
static void reward_quiet(OrderingStats *os, const Position *pos, const HistoryContext *history, int ply, Move best,
                         int bonus)
{
    if (os->killers[ply][0] != best) {
        os->killers[ply][1] = os->killers[ply][0];
        os->killers[ply][0] = best;
    }
    if (history->previous_piece != NO_PIECE)
        os->counter_moves[history->previous_piece][history->previous_to] = best;
    update_quiet_histories(os, pos, history, best, bonus);
}

void ordering_update_cutoff(OrderingStats *os, const Position *pos, const HistoryContext *history, int ply, int depth,
                            Move best, const Move *quiets, int quiet_count, const Move *captures, int capture_count)
{
    int bonus = history_bonus(depth);
    if (!is_capture(pos, best)) {
        reward_quiet(os, pos, history, ply, best, bonus);
        for (int i = 0; i < quiet_count; i++)
            update_quiet_histories(os, pos, history, quiets[i], -bonus);
    } else {
        update_capture_history(os, pos, best, bonus);
    }
    for (int i = 0; i < capture_count; i++)
        update_capture_history(os, pos, captures[i], -bonus);
}

void ordering_update_table_cutoff(OrderingStats *os, const Position *pos, const HistoryContext *history, int ply,
                                  int depth, Move tt_move)
{
    if (!is_capture(pos, tt_move))
        reward_quiet(os, pos, history, ply, tt_move, history_bonus(depth));
}

void ordering_new_search(OrderingStats *os) { memset(os->killers, 0, sizeof os->killers); }

void ordering_clear(OrderingStats *os) { memset(os, 0, sizeof *os); }

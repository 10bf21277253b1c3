/* The referee: how and when a Janggi game ends under each rule set (fsf-reference.md section 3).
 * Immediate ends leave no legal moves (checkmate, double pass, confirmed bikjang); optional ends are
 * claimed (repetition, perpetual check, the Kakao move-repetition rule, the move limit). Material
 * counting with Han's 1.5-point deom decides drawn endings where the rule set counts. Search,
 * protocol, analysis and the match runner all judge games here. */
#ifndef JANGGUN_REFEREE_H
#define JANGGUN_REFEREE_H

#include "position.h"

typedef enum {
    END_NONE,
    END_CHECKMATE,
    END_BIKJANG,
    END_DOUBLE_PASS,
    END_REPETITION,
    END_PERPETUAL_CHECK,
    END_KAKAO_REPETITION,
    END_MOVE_LIMIT
} EndReason;

/* For the side to move. */
typedef enum { OUTCOME_LOSS = -1, OUTCOME_DRAW = 0, OUTCOME_WIN = 1 } Outcome;

typedef struct {
    EndReason reason; /* END_NONE: the game goes on */
    Outcome outcome;  /* for the side to move */
    bool by_counting; /* a drawn ending converted by material counting */
} Verdict;

/* Points on the board: chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2. */
typedef struct {
    int cho, han;
} MaterialCount;

enum { DEOM_HALF_POINTS = 3 }; /* Han's 1.5-point compensation for moving second */

MaterialCount referee_count_material(const Position *pos);

/* Cho wins a count with a lead of more than the deom (2 points or more); there is no draw. */
static inline Color referee_counting_winner(MaterialCount m)
{
    return 2 * (m.cho - m.han) > DEOM_HALF_POINTS ? WHITE : BLACK;
}

/* True when the position has no legal moves: checkmate, double pass or confirmed bikjang. */
bool referee_immediate_end(const Position *pos, Verdict *verdict);

/* True when a referee may end the game here: move limit, repetition (perpetual check loses), or the
 * Kakao rule. search_ply > 0 lets search treat one repetition inside the search tree as final, as
 * FSF does (not where the Kakao rule applies); referees pass 0. */
bool referee_optional_end(const Position *pos, int search_ply, Verdict *verdict);

/* Immediate ends first, then optional ones. */
bool referee_judge(const Position *pos, Verdict *verdict);

const char *end_reason_name(EndReason reason);

#endif

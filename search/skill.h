/* Strength levels (`Skill Level`, `UCI_LimitStrength` with `UCI_Elo`): what a weakened search may spend
 * and how it chooses among its best root moves. Pure functions with no state and no clock: the search
 * applies them (threads.c, search.c), the protocols turn the options into a level, the tests check
 * them with made-up scores. Full strength (level 20) never reaches this module. */
#ifndef JANGGUN_SKILL_H
#define JANGGUN_SKILL_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/types.h"

enum {
    SKILL_LEVEL_MIN = -20,
    SKILL_LEVEL_MAX = 20,     /* full strength: the search as it is without a limit */
    SKILL_STRENGTH_MIN = -27, /* the weakest search a level gets (skill_strength) */
    SKILL_ELO_MIN = 500,
    SKILL_ELO_MAX = 2850,
    SKILL_ELO_DEFAULT = 1350,
    SKILL_SEED_MAX = 2147483647,
    SKILL_CANDIDATES_MAX = 8, /* the most root moves a level chooses among (with MultiPV above 4) */
    SKILL_QSEARCH_FULL = 1000 /* no limit on the quiescence search */
};

/* What one level may search and how far its choice may stray. */
typedef struct {
    uint64_t nodes;    /* node budget, enforced from the end of the first iteration (which always completes) */
    int depth;         /* deepest iteration */
    int candidates;    /* best root moves searched as hidden MultiPV lines and chosen among */
    int error_cp;      /* the largest random push given to a candidate, centipawns (a soldier is 100) */
    int qsearch_plies; /* captures looked at beyond the depth; SKILL_QSEARCH_FULL: as at full strength */
} SkillParams;

/* One candidate of the last completed iteration: its move, score (the search's units) and ponder move. */
typedef struct {
    Move move, ponder;
    int score;
} SkillCandidate;

/* The level that `UCI_Elo` asks for: linear between the points of the table in skill.c (README, Strength
 * levels). Values outside 500-2850 are clamped. Between -20 and 20, fractional. */
double skill_level_from_elo(int elo);

/* The level the options ask for: `UCI_Elo`'s when `limit_strength`, otherwise `Skill Level`. */
double skill_level(int skill_level_option, bool limit_strength, int elo);

/* Whether a level weakens the search at all (below 20). */
static inline bool skill_enabled(double level) { return level < SKILL_LEVEL_MAX; }

/* The strength of the search a level gets, from SKILL_STRENGTH_MIN to 20 (full strength): a table
 * measured against FSF's levels (skill.c), linear between its points. Level 20 has strength 20. */
double skill_strength(double level);

/* Below this strength a level's search has no quiescence search. */
#define SKILL_STRENGTH_NO_QSEARCH (-26.5)

/* What a search of a given strength may spend and how far its choice may stray: the node budget
 * doubles every SKILL_LEVELS_PER_DOUBLING above 0, the depth is SKILL_DEPTH_LEVEL0 + strength from 0
 * and 1 + (strength + 20) / 4 plies below (1 at least), the error halves every SKILL_ERROR_HALVING
 * above -20 and doubles at the same rate below; below -20 the candidates grow from SKILL_CANDIDATES to
 * SKILL_CANDIDATES_MAX at the weakest, and below SKILL_STRENGTH_NO_QSEARCH the search no longer looks
 * at the exchanges after its move (a beginner's blind spot: the recapture). */
SkillParams skill_params_at(double strength);

/* The parameters of a level below 20: skill_params_at(skill_strength(level)). */
SkillParams skill_params(double level);

/* The seed of a choice: the `Skill Seed` option mixed with the position's key, so that the same position
 * under the same seed always gives the same move, and different positions or seeds draw afresh. */
uint64_t skill_seed(uint64_t option_seed, uint64_t position_key);

/* Chooses among `count` candidates (count >= 1, best first, scores in the search's units): each gets a
 * push drawn from 0 to `error` (the same units) by `seed` and its move, and the highest score plus push
 * wins (the earlier on a tie). When the best is a winning mate score it is always played. Returns the
 * index of the choice. */
int skill_pick(const SkillCandidate *candidates, int count, int error, uint64_t seed);

#endif

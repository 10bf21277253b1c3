/* Strength levels: the level an option set asks for, what a level may search, and the choice among the
 * best root moves, in the spirit of Stockfish's skill levels (a shallow search, hidden MultiPV lines and
 * a seeded random push that grows as the level drops), with a push that is bounded, so that no level
 * gives away more than SKILL_ERROR_MAX_CP against the best move it saw: a weak level still takes a
 * hanging chariot that it sees, and misses what its small search does not see. */
#include "skill.h"

#include <math.h>

#include "../engine/base/base.h"
#include "tt.h"
#include "tunables.h"

/* A table of points (x, y), x rising: y linear between them, clamped outside. */
typedef struct {
    int x, y;
} TablePoint;

static double table_interpolate(const TablePoint *t, int points, double x)
{
    if (x <= t[0].x)
        return t[0].y;
    for (int i = 1; i < points; i++)
        if (x <= t[i].x)
            return t[i - 1].y + (x - t[i - 1].x) / (t[i].x - t[i - 1].x) * (t[i].y - t[i - 1].y);
    return t[points - 1].y;
}

#define TABLE_POINTS(t) ((int)(sizeof(t) / sizeof(t)[0]))

/* UCI_Elo -> level, in tenths of a level: Fairy-Stockfish's own curve sampled at these points (level =
 * ((elo - 1346.6) / 143.4)^(1 / 0.806) above 1346.6, (elo - 1346.6) / 143.4 + ((elo - 1346.6) / 500)^5
 * below), so that a tool asks Janggun for the level it would ask FSF for; the strength table below makes
 * each level play as FSF's level of that number. Points (elo, level in tenths). */
static const TablePoint elo_table[] = {
    {500, -200}, {600, -126}, {700, -81}, {800, -54}, {1000, -26}, {1350, 0},
    {1500, 11},  {1750, 36},  {2000, 66}, {2250, 98}, {2500, 133}, {2850, 185},
};

double skill_level_from_elo(int elo) { return table_interpolate(elo_table, TABLE_POINTS(elo_table), elo) / 10.0; }

double skill_level(int skill_level_option, bool limit_strength, int elo)
{
    return limit_strength ? skill_level_from_elo(elo) : (double)skill_level_option;
}

/* Level -> the search's strength, in tenths. A level's strength is what its search may spend and how far
 * its choice may stray (skill_params_at). Levels 1.1, 6.6 and 13.3 (FSF's levels for UCI_Elo 1500, 2000
 * and 2500) have the strengths that gauntlets against Fairy-Stockfish 11.1's UCI_Elo found even with it,
 * so that from level 0 up a level plays about as strongly as FSF's own level of that number (README,
 * Strength levels, Calibration). FSF's levels climb steeply from 0 to 7 (its search goes from 1 ply to 8)
 * and slowly above. Below 0, where FSF's own levels barely differ, the levels go on down to the weakest
 * strength in steps of one more candidate and more error (matches of each level against the one four
 * below placed them). Points (level, strength), both in tenths. */
static const TablePoint strength_table[] = {
    {-200, -270}, {-160, -262}, {-120, -244}, {-80, -227}, {-40, -209},
    {0, -170},    {11, -165},   {66, -36},    {133, 32},   {200, 200},
};

double skill_strength(double level)
{
    return table_interpolate(strength_table, TABLE_POINTS(strength_table), level * 10.0) / 10.0;
}

SkillParams skill_params_at(double strength)
{
    if (strength < SKILL_STRENGTH_MIN)
        strength = SKILL_STRENGTH_MIN;
    if (strength > SKILL_LEVEL_MAX)
        strength = SKILL_LEVEL_MAX;
    SkillParams p;
    p.nodes = (uint64_t)llround(SKILL_NODES_LEVEL0 * exp2((strength > 0 ? strength : 0) / SKILL_LEVELS_PER_DOUBLING));
    p.depth =
        strength < 0 ? 1 + (int)floor((strength - SKILL_LEVEL_MIN) / 4) : SKILL_DEPTH_LEVEL0 + (int)floor(strength);
    if (p.depth < 1)
        p.depth = 1;
    /* Below -20 the choice widens as well: more candidates, up to SKILL_CANDIDATES_MAX at the weakest. */
    double below =
        strength < SKILL_LEVEL_MIN ? (SKILL_LEVEL_MIN - strength) / (SKILL_LEVEL_MIN - SKILL_STRENGTH_MIN) : 0;
    p.candidates = SKILL_CANDIDATES + (int)lround(below * (SKILL_CANDIDATES_MAX - SKILL_CANDIDATES));
    p.error_cp = (int)lround(SKILL_ERROR_MAX_CP * exp2((SKILL_LEVEL_MIN - strength) / SKILL_ERROR_HALVING));
    p.qsearch_plies = strength < SKILL_STRENGTH_NO_QSEARCH ? 0 : SKILL_QSEARCH_FULL;
    return p;
}

SkillParams skill_params(double level) { return skill_params_at(skill_strength(level)); }

uint64_t skill_seed(uint64_t option_seed, uint64_t position_key)
{
    uint64_t state = option_seed;
    return splitmix64(&state) ^ position_key;
}

int skill_pick(const SkillCandidate *candidates, int count, int error, uint64_t seed)
{
    if (count <= 1 || candidates[0].score >= VALUE_MATE_BOUND || error <= 0)
        return 0;
    int best = 0;
    int64_t best_value = INT64_MIN;
    for (int i = 0; i < count; i++) {
        /* The push depends on the seed and the move only, not on where the move stands in the list. */
        uint64_t state = seed ^ ((uint64_t)candidates[i].move * 0xd1b54a32d192ed03ull);
        int64_t value = (int64_t)candidates[i].score + (int64_t)(splitmix64(&state) % ((uint64_t)error + 1));
        if (value > best_value) {
            best_value = value;
            best = i;
        }
    }
    return best;
}

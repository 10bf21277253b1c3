/* Strength levels as pure functions (search/skill.h), with made-up scores: the UCI_Elo table and its
 * interpolation, which option decides the level, the strength of each level and what each strength may
 * spend (budget, depth, candidates, error), and the choice among candidates (bounded error, a winning
 * mate always played, determinism for a seed, different seeds drawing differently, the spread of
 * choices growing as the strength drops). The search with a
 * level is tested in test_search, the options in test_protocol, cli_uci.sh and cli_ucci.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../search/skill.h"
#include "../search/tt.h"

/* A table's value within rounding: WHAT names the argument in the message. */
static void assert_near(const char *what, double arg, double got, double want)
{
    if (got < want - 1e-6 || got > want + 1e-6)
        fail_msg("%s %.2f: %.6f, expected %.6f", what, arg, got, want);
}

static void assert_level(int elo, double want)
{
    assert_near("UCI_Elo -> level at", elo, skill_level_from_elo(elo), want);
}

static void test_elo_table(void **state)
{
    (void)state;
    /* The table's points, exactly. */
    const struct {
        int elo;
        double level;
    } points[] = {{500, -20.0}, {600, -12.6}, {700, -8.1}, {800, -5.4}, {1000, -2.6}, {1350, 0.0},
                  {1500, 1.1},  {1750, 3.6},  {2000, 6.6}, {2250, 9.8}, {2500, 13.3}, {2850, 18.5}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        assert_level(points[i].elo, points[i].level);
    /* Linear between them; clamped outside 500-2850. */
    assert_level(1425, 0.55);
    assert_level(550, -16.3);
    assert_level(2675, 15.9);
    assert_level(0, -20.0);
    assert_level(400, -20.0);
    assert_level(3000, 18.5);
    /* Monotonic over the whole range. */
    for (int elo = SKILL_ELO_MIN; elo < SKILL_ELO_MAX; elo++)
        if (skill_level_from_elo(elo + 1) <= skill_level_from_elo(elo))
            fail_msg("UCI_Elo %d -> %d does not raise the level", elo, elo + 1);
}

static void test_which_option_decides(void **state)
{
    (void)state;
    assert_true(skill_level(20, false, 500) == 20.0); /* the default: full strength */
    assert_false(skill_enabled(skill_level(20, false, 500)));
    assert_true(skill_level(-7, false, 2850) == -7.0);
    assert_true(skill_enabled(skill_level(19, false, 1350)));
    assert_true(skill_level(20, true, 1350) == 0.0); /* UCI_LimitStrength: UCI_Elo decides */
    assert_true(skill_level(-20, true, 2850) == 18.5);
    assert_true(skill_enabled(skill_level(20, true, SKILL_ELO_MAX))); /* the top of UCI_Elo is still limited */
}

static void assert_params_at(double strength, uint64_t nodes, int depth, int candidates, int error_cp)
{
    SkillParams p = skill_params_at(strength);
    if (p.nodes != nodes || p.depth != depth || p.candidates != candidates || p.error_cp != error_cp)
        fail_msg("strength %.2f: nodes %llu depth %d candidates %d error %d; expected %llu %d %d %d", strength,
                 (unsigned long long)p.nodes, p.depth, p.candidates, p.error_cp, (unsigned long long)nodes, depth,
                 candidates, error_cp);
}

static void assert_strength(double level, double want)
{
    assert_near("level -> strength at", level, skill_strength(level), want);
}

static void test_strength_params(void **state)
{
    (void)state;
    /* The strength scale: budget, depth, candidates and error. */
    assert_params_at(-27, 12000, 1, 8, 1200); /* the weakest */
    assert_int_equal(skill_params_at(-27).qsearch_plies, 0);
    assert_int_equal(skill_params_at(-26.5).qsearch_plies, SKILL_QSEARCH_FULL);
    assert_params_at(-23.5, 12000, 1, 6, 849);
    assert_params_at(-21.25, 12000, 1, 5, 679);
    assert_params_at(-20, 12000, 1, 4, 600);
    assert_params_at(-16, 12000, 2, 4, 404);
    assert_params_at(-12, 12000, 3, 4, 272);
    assert_params_at(-8, 12000, 4, 4, 183);
    assert_params_at(-4, 12000, 5, 4, 123);
    assert_params_at(-1, 12000, 5, 4, 91);
    assert_params_at(0, 12000, 6, 4, 83);
    assert_params_at(0.5, 13162, 6, 4, 79);
    assert_params_at(4, 25135, 10, 4, 56);
    assert_params_at(8, 52648, 14, 4, 38);
    assert_params_at(12, 110275, 18, 4, 25);
    assert_params_at(16, 230981, 22, 4, 17);
    assert_params_at(19, 402161, 25, 4, 13);
    assert_params_at(-30, 12000, 1, 8, 1200); /* clamped */
    /* Every step up gives at least as many nodes and plies, no more candidates and no more error. */
    for (int tenth = -270; tenth < 199; tenth++) {
        SkillParams a = skill_params_at(tenth / 10.0), b = skill_params_at((tenth + 1) / 10.0);
        if (b.nodes < a.nodes || b.depth < a.depth || b.candidates > a.candidates || b.error_cp > a.error_cp
            || b.qsearch_plies < a.qsearch_plies)
            fail_msg("strength %.1f -> %.1f weakens the search", tenth / 10.0, (tenth + 1) / 10.0);
    }
}

static void test_level_strength(void **state)
{
    (void)state;
    /* The table's points (README, Strength levels), linear between them, clamped outside. */
    const struct {
        double level, strength;
    } points[] = {{-20, -27.0}, {-16, -26.2}, {-12, -24.4}, {-8, -22.7}, {-4, -20.9},
                  {0, -17.0},   {1.1, -16.5}, {6.6, -3.6},  {13.3, 3.2}, {20, 20.0}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        assert_strength(points[i].level, points[i].strength);
    assert_strength(4, -9.698182);
    assert_strength(8, -2.179104);
    assert_strength(12, 1.880597);
    assert_strength(16, 9.970149);
    assert_strength(-2, -18.95);
    assert_strength(-25, -27.0);
    for (int tenth = -200; tenth < 200; tenth++)
        if (skill_strength((tenth + 1) / 10.0) <= skill_strength(tenth / 10.0))
            fail_msg("level %.1f -> %.1f does not raise the strength", tenth / 10.0, (tenth + 1) / 10.0);
    /* A level's parameters are those of its strength: the README's table of levels. */
    const struct {
        double level;
        uint64_t nodes;
        int depth, candidates, error_cp, qsearch_plies;
    } levels[] = {{-20, 12000, 1, 8, 1200, 0},
                  {-16, 12000, 1, 8, 1109, SKILL_QSEARCH_FULL},
                  {-12, 12000, 1, 7, 928, SKILL_QSEARCH_FULL},
                  {-8, 12000, 1, 6, 784, SKILL_QSEARCH_FULL},
                  {-4, 12000, 1, 5, 656, SKILL_QSEARCH_FULL},
                  {0, 12000, 1, 4, 446, SKILL_QSEARCH_FULL},
                  {4, 12000, 3, 4, 216, SKILL_QSEARCH_FULL},
                  {8, 12000, 5, 4, 103, SKILL_QSEARCH_FULL},
                  {12, 16988, 7, 4, 69, SKILL_QSEARCH_FULL},
                  {16, 75776, 15, 4, 31, SKILL_QSEARCH_FULL},
                  {19, 304361, 23, 4, 15, SKILL_QSEARCH_FULL}};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        SkillParams p = skill_params(levels[i].level);
        if (p.nodes != levels[i].nodes || p.depth != levels[i].depth || p.candidates != levels[i].candidates
            || p.error_cp != levels[i].error_cp || p.qsearch_plies != levels[i].qsearch_plies)
            fail_msg("level %.0f: nodes %llu depth %d candidates %d error %d quiescence %d", levels[i].level,
                     (unsigned long long)p.nodes, p.depth, p.candidates, p.error_cp, p.qsearch_plies);
    }
}

static SkillCandidate cand(Move move, int score) { return (SkillCandidate){move, MOVE_NONE, score}; }

static void test_pick_bounds(void **state)
{
    (void)state;
    SkillCandidate c[4] = {cand(101, 300), cand(102, 290), cand(103, -900), cand(104, -950)};
    /* Without error, or with one candidate, the best. */
    assert_int_equal(skill_pick(c, 4, 0, 1), 0);
    assert_int_equal(skill_pick(c, 1, 1000, 1), 0);
    /* An error smaller than the gap never gives the bad moves away: the best two only, both chosen. */
    int chosen[4] = {0};
    for (uint64_t seed = 0; seed < 1000; seed++)
        chosen[skill_pick(c, 4, 1000, seed)]++;
    assert_int_equal(chosen[0] + chosen[1], 1000 - chosen[2] - chosen[3]);
    /* 1200 - gap: the third move needs a push 1200 above the best's, and can only get 1000. */
    assert_int_equal(chosen[2], 0);
    assert_int_equal(chosen[3], 0);
    assert_int_equal(chosen[0], 496);
    assert_int_equal(chosen[1], 504);
    /* A winning mate is always played, whatever the error. */
    SkillCandidate mate[3] = {cand(101, VALUE_MATE - 3), cand(102, VALUE_MATE - 5), cand(103, 0)};
    for (uint64_t seed = 0; seed < 100; seed++)
        assert_int_equal(skill_pick(mate, 3, 1000000, seed), 0);
    /* Being mated is never chosen when something else is not. */
    SkillCandidate lost[2] = {cand(101, -50), cand(102, -VALUE_MATE + 4)};
    for (uint64_t seed = 0; seed < 100; seed++)
        assert_int_equal(skill_pick(lost, 2, 1200, seed), 0);
}

static void test_pick_seeds(void **state)
{
    (void)state;
    /* Four moves of equal score: the seed alone decides, the same seed always the same way. */
    SkillCandidate c[4] = {cand(201, 0), cand(202, 0), cand(203, 0), cand(204, 0)};
    int chosen[4] = {0};
    for (uint64_t seed = 0; seed < 400; seed++) {
        int i = skill_pick(c, 4, 100, seed);
        assert_int_equal(skill_pick(c, 4, 100, seed), i);
        chosen[i]++;
    }
    assert_int_equal(chosen[0], 107);
    assert_int_equal(chosen[1], 94);
    assert_int_equal(chosen[2], 104);
    assert_int_equal(chosen[3], 95);
    /* The seed mixes the option with the position: each changes the draw. */
    assert_true(skill_seed(0, 1) != skill_seed(0, 2));
    assert_true(skill_seed(0, 1) != skill_seed(1, 1));
    assert_true(skill_seed(5, 77) == skill_seed(5, 77));
}

/* The weaker the search, the more often a move other than the best is chosen among typical scores. */
static void test_pick_spread_by_level(void **state)
{
    (void)state;
    SkillCandidate c[4] = {cand(301, 120), cand(302, 100), cand(303, 40), cand(304, -150)};
    const int levels[] = {19, 8, 0, -8, -20};            /* strengths */
    const int want_not_best[] = {0, 115, 281, 424, 580}; /* of 1000 seeds; level 19's error (13) is below the gap */
    int previous = -1;
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; k++) {
        int error = skill_params_at(levels[k]).error_cp; /* these scores are in centipawns too */
        int not_best = 0;
        for (uint64_t seed = 0; seed < 1000; seed++)
            not_best += skill_pick(c, 4, error, skill_seed(seed, 0x1234)) != 0;
        if (not_best != want_not_best[k])
            fail_msg("strength %d: %d of 1000 not the best, expected %d", levels[k], not_best, want_not_best[k]);
        assert_true(not_best > previous);
        previous = not_best;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_table),
        cmocka_unit_test(test_which_option_decides),
        cmocka_unit_test(test_strength_params),
        cmocka_unit_test(test_level_strength),
        cmocka_unit_test(test_pick_bounds),
        cmocka_unit_test(test_pick_seeds),
        cmocka_unit_test(test_pick_spread_by_level),
    };
    return cmocka_run_group_tests_name("skill", tests, NULL, NULL);
}

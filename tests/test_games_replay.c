/* Replays every game of the real-game corpus (bench/data/games.jsonl.xz, 24,711 games) from its
 * start position under janggicasual rules: every move must be legal, and before each move janggun's
 * referee must not see an immediate end (checkmate, double pass), since a game cannot go on after one.
 * Optional ends (repetition, move limit) may be passed over by players and are only counted.
 *
 * Each line is one JSON object, read by the records layer's JSON-lines reader (engine/records/jsonl.h);
 * its "id", "start_fen", "moves" and "plies" members are used. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../engine/base/datafile.h"
#include "../engine/game.h"
#include "../engine/records/jsonl.h"
#include "../engine/movegen.h"
#include "support.h"

enum {
    EXPECTED_GAMES = 24711,
    MAX_REPORTED = 10,
};

static const long long EXPECTED_PLIES = 2466076;

static char games_path[1200];

/* ---- one line of the corpus (engine/records/jsonl.h) ---- */

typedef struct {
    JsonObject obj;
    const char *id, *fen;
    char **moves;
    int move_count;
    long long plies; /* the "plies" member, -1 when absent */
} GameLine;

/* false with the reason when the line is not an object with "start_fen" and "moves". */
static bool parse_game_line(const char *line, GameLine *g, char *why, size_t why_size)
{
    json_free(&g->obj);
    g->id = "?";
    if (!json_parse_object(line, &g->obj, why, why_size))
        return false;
    const char *id = json_str(&g->obj, "id");
    g->id = id ? id : "?";
    g->fen = json_str(&g->obj, "start_fen");
    const JsonField *moves = json_get(&g->obj, "moves"), *plies = json_get(&g->obj, "plies");
    g->plies = plies && plies->type == JSON_NUMBER ? atoll(plies->str) : -1;
    if (!g->fen || !moves || moves->type != JSON_ARRAY) {
        snprintf(why, why_size, "no \"%s\" member", g->fen ? "moves" : "start_fen");
        return false;
    }
    g->moves = moves->arr;
    g->move_count = moves->arr_len;
    return true;
}

static void test_parser(void **state)
{
    (void)state;
    GameLine g = {0};
    char why[160] = "";
    const char *line = "{\"id\": \"한국 \\\"x\\\" #3\", \"cho\": \"金漢英\", \"n\": [1, {\"a\": [\"]\"]}], "
                       "\"x\": null, \"start_fen\": \"4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1\", \"moves\": [\"e2e2\", "
                       "\"e9e9\"], \"plies\": 2}";
    assert_true(parse_game_line(line, &g, why, sizeof why));
    assert_string_equal(g.id, "한국 \"x\" #3");
    assert_string_equal(g.fen, "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
    assert_int_equal(g.move_count, 2);
    assert_string_equal(g.moves[1], "e9e9");
    assert_int_equal(g.plies, 2);
    assert_false(parse_game_line("{\"id\": \"x\", \"moves\": [\"e2e2\"", &g, why, sizeof why));
    assert_string_equal(why, "expected ',' or ']' at byte 28");
    assert_false(parse_game_line("{\"id\": \"x\", \"moves\": []}", &g, why, sizeof why));
    assert_string_equal(why, "no \"start_fen\" member");
    json_free(&g.obj);
}

static void test_replay_all(void **state)
{
    (void)state;
    const RuleSet *rules = rules_by_name("janggicasual");
    assert_non_null(rules);
    char open_err[600];
    DataFile *file = datafile_open(games_path, open_err, sizeof open_err);
    if (!file)
        fail_msg("%s", open_err);
    FILE *f = datafile_stream(file);
    GameLine line = {0};
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    long long lines = 0, games = 0, plies = 0, plies_field = 0;
    long long optional_seen = 0, games_with_optional = 0, mates = 0, double_passes = 0, passes = 0;
    long long optional_by_reason[END_MOVE_LIMIT + 1] = {0};
    int failures = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Game g;
    while ((len = getline(&buf, &cap, f)) > 0) {
        lines++;
        char why[160];
        if (!parse_game_line(buf, &line, why, sizeof why)) {
            if (++failures <= MAX_REPORTED)
                print_error("line %lld (id %s): cannot read the JSON: %s\n", lines, line.id, why);
            continue;
        }
        if (line.plies != line.move_count && ++failures <= MAX_REPORTED)
            print_error("game %s (line %lld): \"plies\" is %lld but \"moves\" has %d entries\n", line.id, lines,
                        line.plies, line.move_count);
        plies_field += line.plies;
        char err[200] = "";
        if (!game_start(&g, line.fen, rules, FEN_STRICT, err, sizeof err)) {
            if (++failures <= MAX_REPORTED)
                print_error("game %s (line %lld): start FEN rejected: %s (%s)\n", line.id, lines, err, line.fen);
            continue;
        }
        bool ok = true, optional = false;
        for (int i = 0; i < line.move_count; i++) {
            GameStatus st = game_status(&g);
            if (st.immediate) {
                if (++failures <= MAX_REPORTED)
                    print_error("game %s: the game is already over (%s, %s) before ply %d, move %s\n", line.id,
                                game_result_name(st.result), end_reason_name(st.reason), i + 1, line.moves[i]);
                ok = false;
                break;
            }
            if (st.result != GAME_ONGOING) {
                optional_seen++;
                optional_by_reason[st.reason]++;
                optional = true;
            }
            MoveParseResult r = game_play_text(&g, line.moves[i], RANKS_FROM_1);
            if (r != MOVE_PARSE_OK) {
                char fen[128];
                position_to_fen(&g.pos, fen, sizeof fen);
                if (++failures <= MAX_REPORTED)
                    print_error("game %s: ply %d, move %s is %s in %s\n", line.id, i + 1, line.moves[i],
                                r == MOVE_PARSE_SYNTAX ? "not a move (syntax)" : "illegal", fen);
                ok = false;
                break;
            }
            passes += move_is_pass(g.moves[g.length - 1]);
        }
        if (ok) {
            games++;
            plies += line.move_count;
            games_with_optional += optional;
            GameStatus st = game_status(&g);
            mates += st.immediate && st.reason == END_CHECKMATE;
            double_passes += st.immediate && st.reason == END_DOUBLE_PASS;
        }
        game_free(&g);
    }
    free(buf);
    json_free(&line.obj);
    if (!datafile_close(file, open_err, sizeof open_err))
        fail_msg("%s", open_err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("games_replay: %lld lines, %lld games and %lld plies replayed in %.2f s (sum of \"plies\": %lld); "
           "%lld passes; %lld games end in checkmate, %lld in a double pass; %lld positions in %lld games where "
           "a referee could have ended the game (repetition %lld, perpetual check %lld, move limit %lld) and "
           "play went on\n",
           lines, games, plies, seconds, plies_field, passes, mates, double_passes, optional_seen, games_with_optional,
           optional_by_reason[END_REPETITION], optional_by_reason[END_PERPETUAL_CHECK],
           optional_by_reason[END_MOVE_LIMIT]);
    fflush(stdout);
    if (failures)
        fail_msg("%d problems in %s (first %d printed above)", failures, games_path, MAX_REPORTED);
    assert_int_equal(lines, EXPECTED_GAMES);
    assert_int_equal(games, EXPECTED_GAMES);
    assert_int_equal(plies, plies_field);
    assert_int_equal(plies, EXPECTED_PLIES);
}

int main(void)
{
    engine_init();
    test_data_path(games_path, sizeof games_path, TEST_CORPUS);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parser),
        cmocka_unit_test(test_replay_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Replays every game of the real-game corpus (bench/data/games.jsonl.xz, 24,711 games) from its
 * start position under janggicasual rules: every move must be legal, and before each move janggun's
 * referee must not see an immediate end (checkmate, double pass), since a game cannot go on after one.
 * Optional ends (repetition, move limit) may be passed over by players and are only counted.
 *
 * Each line is one JSON object; only its "id", "start_fen", "moves" and "plies" members are read, by a
 * small parser that walks the object member by member (other members hold UTF-8 Korean text, which
 * it skips as opaque bytes). */
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
#include "../engine/movegen.h"
#include "support.h"

enum {
    EXPECTED_GAMES = 24711,
    MAX_GAME_MOVES = 4096,
    MAX_REPORTED = 10,
};

static const long long EXPECTED_PLIES = 2466076;

static char games_path[1200];

/* ---- a minimal JSON reader for one line ---- */

typedef struct {
    const char *p, *end, *base;
    bool error;
    char why[128];
} Json;

static void json_fail(Json *j, const char *why)
{
    if (!j->error)
        snprintf(j->why, sizeof j->why, "%s at byte %td", why, j->p - j->base);
    j->error = true;
}

static void skip_ws(Json *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static bool expect(Json *j, char c)
{
    skip_ws(j);
    if (j->p < j->end && *j->p == c) {
        j->p++;
        return true;
    }
    json_fail(j, c == ':' ? "':' expected" : c == '{' ? "'{' expected" : "unexpected character");
    return false;
}

/* Reads a string into out (when out is not NULL); escapes are decoded for ASCII only, other bytes are
 * copied as they are. Returns false on a malformed or too long string. */
static bool read_string(Json *j, char *out, size_t size)
{
    skip_ws(j);
    if (j->p >= j->end || *j->p != '"') {
        json_fail(j, "string expected");
        return false;
    }
    j->p++;
    size_t n = 0;
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if (c == '\\') {
            if (j->p >= j->end)
                break;
            char e = *j->p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
                /* \uXXXX: kept only as '?' (the fields read here are plain ASCII) */
                for (int i = 0; i < 4; i++)
                    if (j->p < j->end)
                        j->p++;
                c = '?';
                break;
            default: c = e; break; /* \" \\ \/ */
            }
        }
        if (out) {
            if (n + 1 >= size) {
                json_fail(j, "string too long");
                return false;
            }
            out[n++] = c;
        }
    }
    if (j->p >= j->end) {
        json_fail(j, "unterminated string");
        return false;
    }
    j->p++;
    if (out)
        out[n] = '\0';
    return true;
}

/* Skips any value (string, number, literal, array or object). */
static void skip_value(Json *j)
{
    skip_ws(j);
    if (j->p >= j->end) {
        json_fail(j, "value expected");
        return;
    }
    char c = *j->p;
    if (c == '"') {
        read_string(j, NULL, 0);
    } else if (c == '[' || c == '{') {
        char close = c == '[' ? ']' : '}';
        j->p++;
        skip_ws(j);
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return;
        }
        while (!j->error) {
            if (close == '}') {
                read_string(j, NULL, 0);
                expect(j, ':');
            }
            skip_value(j);
            skip_ws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            expect(j, close);
            return;
        }
    } else {
        while (j->p < j->end && *j->p != ',' && *j->p != '}' && *j->p != ']' && *j->p != ' ')
            j->p++;
    }
}

typedef struct {
    char id[512];
    char fen[160];
    char (*moves)[8];
    int move_count;
    long long plies; /* the "plies" member, -1 when absent */
    bool has_fen, has_moves;
} GameLine;

static void read_moves(Json *j, GameLine *g)
{
    if (!expect(j, '['))
        return;
    skip_ws(j);
    if (j->p < j->end && *j->p == ']') {
        j->p++;
        return;
    }
    while (!j->error) {
        if (g->move_count >= MAX_GAME_MOVES) {
            json_fail(j, "too many moves");
            return;
        }
        if (!read_string(j, g->moves[g->move_count], sizeof g->moves[0]))
            return;
        g->move_count++;
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        expect(j, ']');
        return;
    }
}

static bool parse_game_line(const char *line, size_t len, GameLine *g, char *why, size_t why_size)
{
    Json j = {line, line + len, line, false, ""};
    g->id[0] = g->fen[0] = '\0';
    g->move_count = 0;
    g->plies = -1;
    g->has_fen = g->has_moves = false;
    if (expect(&j, '{')) {
        skip_ws(&j);
        if (j.p < j.end && *j.p == '}')
            j.p++;
        else
            while (!j.error) {
                char key[64];
                if (!read_string(&j, key, sizeof key) || !expect(&j, ':'))
                    break;
                skip_ws(&j);
                if (strcmp(key, "id") == 0 && j.p < j.end && *j.p == '"')
                    read_string(&j, g->id, sizeof g->id);
                else if (strcmp(key, "start_fen") == 0) {
                    g->has_fen = read_string(&j, g->fen, sizeof g->fen);
                } else if (strcmp(key, "moves") == 0) {
                    read_moves(&j, g);
                    g->has_moves = !j.error;
                } else if (strcmp(key, "plies") == 0) {
                    char *end;
                    g->plies = strtoll(j.p, &end, 10);
                    if (end == j.p)
                        json_fail(&j, "number expected for plies");
                    j.p = end;
                } else
                    skip_value(&j);
                skip_ws(&j);
                if (j.p < j.end && *j.p == ',') {
                    j.p++;
                    continue;
                }
                expect(&j, '}');
                break;
            }
    }
    if (!j.error) {
        skip_ws(&j);
        if (j.p != j.end)
            json_fail(&j, "text after the object");
    }
    if (!j.error && (!g->has_fen || !g->has_moves))
        snprintf(j.why, sizeof j.why, "no %s member", g->has_fen ? "\"moves\"" : "\"start_fen\""), j.error = true;
    if (j.error)
        snprintf(why, why_size, "%s", j.why);
    return !j.error;
}

/* ---- the test ---- */

static void test_parser(void **state)
{
    (void)state;
    static char moves[MAX_GAME_MOVES][8];
    GameLine g = {.moves = moves};
    char why[160] = "";
    const char *line = "{\"id\": \"한국 \\\"x\\\" #3\", \"cho\": \"金漢英\", \"n\": [1, {\"a\": [\"]\"]}], "
                       "\"x\": null, \"start_fen\": \"4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1\", \"moves\": [\"e2e2\", "
                       "\"e9e9\"], \"plies\": 2}";
    assert_true(parse_game_line(line, strlen(line), &g, why, sizeof why));
    assert_string_equal(g.id, "한국 \"x\" #3");
    assert_string_equal(g.fen, "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
    assert_int_equal(g.move_count, 2);
    assert_string_equal(g.moves[1], "e9e9");
    assert_int_equal(g.plies, 2);
    const char *bad = "{\"id\": \"x\", \"moves\": [\"e2e2\"";
    assert_false(parse_game_line(bad, strlen(bad), &g, why, sizeof why));
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
    static char moves[MAX_GAME_MOVES][8];
    GameLine line = {.moves = moves};
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
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            len--;
        char why[160];
        if (!parse_game_line(buf, (size_t)len, &line, why, sizeof why)) {
            if (++failures <= MAX_REPORTED)
                print_error("line %lld (id %s): cannot read the JSON: %s\n", lines, line.id[0] ? line.id : "?", why);
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

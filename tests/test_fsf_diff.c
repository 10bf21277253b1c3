/* Differential test of the legal move generator against Fairy-Stockfish: seeded random games from the
 * 16 horse/elephant setups, with janggun's movegen_legal compared, as a set of UCI strings, with FSF's
 * `go perft 1` at every ply, final positions included. One cmocka test and one FSF process per rule set.
 *
 * What FSF is sent at each ply: by default `position fen <FEN two plies back> moves <last two moves>`,
 * which holds all the history legal moves depend on (double pass, two-ply bikjang); at the end of each
 * game the final position is checked once more through `position fen <start FEN> moves <whole game>`,
 * and FSF's FEN of it must equal janggun's. FSF 11.1 replays each move of a `moves` list at about 28 us,
 * so sending the whole game at every ply is quadratic: 200 games per rule set then take over a minute
 * instead of about ten seconds. JANGGUN_DIFF_FULL_HISTORY=1 sends the whole game at every ply anyway.
 *
 * FSF is a required dependency: $FAIRY_STOCKFISH, else /usr/games/fairy-stockfish, else
 * `fairy-stockfish` on PATH; without it the tests fail. Environment: JANGGUN_DIFF_GAMES (games per rule
 * set, default 200; coverage is asserted only with at least 200), JANGGUN_DIFF_SEED (decimal or 0x hex).
 * Each game draws from its own generator, derived from (seed, rule set, game number), so game N of a
 * failing run is replayed by the same seed with JANGGUN_DIFF_GAMES=N+1. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../engine/move.h"
#include "../engine/movegen.h"
#include "../engine/position.h"
#include "fsf_process.h"

enum {
    DEFAULT_GAMES = 200,
    MAX_PLIES = 150,         /* ply cap of one game */
    READ_TIMEOUT_MS = 30000, /* longest wait for one line from FSF (the message says 30 s) */
    QUIT_TIMEOUT_MS = 5000,  /* how long FSF may take to exit after `quit` */
    CMD_BUF = 256 + MAX_PLIES * MOVE_TEXT_SIZE,
    HISTORY_WINDOW = 2, /* plies of history sent with a FEN in the fast mode */
};

static const uint64_t DEFAULT_SEED = 0x4a616e6767756e31ull; /* "Janggun1" */

static int games_per_rule_set = DEFAULT_GAMES;
static uint64_t base_seed = DEFAULT_SEED;
static bool full_history = false;

/* ---- Fairy-Stockfish over UCI (the process itself: fsf_process.h) ---- */

static bool fsf_locate(FsfProcess *f)
{
    const char *env = getenv("FAIRY_STOCKFISH");
    if (env && *env) {
        if (!fsf_search_path(env, f->path, sizeof f->path))
            return fsf_fail(f, "FAIRY_STOCKFISH=%s is not an executable program", env);
        return true;
    }
    if (fsf_search_path("/usr/games/fairy-stockfish", f->path, sizeof f->path)
        || fsf_search_path("fairy-stockfish", f->path, sizeof f->path))
        return true;
    return fsf_fail(f, "fairy-stockfish not found: it is required for this test. Install Debian's package "
                       "fairy-stockfish (/usr/games/fairy-stockfish), put it on PATH, or set FAIRY_STOCKFISH");
}

/* Ends the child: `quit` when `graceful`, else SIGKILL; closes the pipes and reaps it. */
static void fsf_close(FsfProcess *f, bool graceful) { fsf_process_stop(f, graceful, QUIT_TIMEOUT_MS, NULL, 0); }

/* The child died or hung (then `kill_it`): adds how it ended to the message and reaps it. */
static bool fsf_lost(FsfProcess *f, const char *what, bool kill_it)
{
    char how[128];
    fsf_process_end(f, kill_it, QUIT_TIMEOUT_MS, how, sizeof how);
    return fsf_fail(f, "fairy-stockfish (%s) %s: %s", f->path, what, how);
}

static bool fsf_send(FsfProcess *f, const char *text)
{
    return fsf_process_write(f, text, strlen(text)) || fsf_lost(f, "stopped reading its input", false);
}

/* The next line of output, without its line end, in *line (valid until the next call). */
static bool fsf_read_line(FsfProcess *f, char **line)
{
    FsfRead r = fsf_process_read_line(f, line, READ_TIMEOUT_MS);
    if (r == FSF_READ_TOO_LONG)
        return fsf_lost(f, "printed a line longer than 64 kB", true);
    if (r == FSF_READ_TIMEOUT)
        return fsf_lost(f, "sent no line for 30 s", true);
    if (r == FSF_READ_CLOSED)
        return fsf_lost(f, "closed its output (crashed or exited)", false);
    return true;
}

/* Starts FSF and selects `variant`; its `id name` goes to `name`. On failure the child is gone and
 * f->error says why. */
static bool fsf_start(FsfProcess *f, const char *variant, char *name, size_t name_size)
{
    fsf_process_reset(f);
    name[0] = '\0';
    if (!fsf_locate(f) || !fsf_process_spawn(f))
        return false;

    char *line;
    if (!fsf_send(f, "uci\n"))
        return false;
    do {
        if (!fsf_read_line(f, &line))
            return false;
        if (strncmp(line, "id name ", 8) == 0)
            snprintf(name, name_size, "%s", line + 8);
    } while (strcmp(line, "uciok") != 0);

    char cmd[160], expect[64];
    snprintf(cmd, sizeof cmd, "setoption name UCI_Variant value %s\nisready\n", variant);
    snprintf(expect, sizeof expect, "info string variant %s ", variant);
    if (!fsf_send(f, cmd))
        return false;
    bool selected = false;
    do {
        if (!fsf_read_line(f, &line))
            return false;
        if (strncmp(line, expect, strlen(expect)) == 0)
            selected = true;
    } while (strcmp(line, "readyok") != 0);
    if (!selected) {
        fsf_close(f, true);
        return fsf_fail(f, "%s did not accept UCI_Variant %s (no `%s...` line)", f->path, variant, expect);
    }
    return true;
}

/* Sends `position_cmd` and `go perft 1`; collects the moves of FSF's answer. */
static bool fsf_perft1(FsfProcess *f, const char *position_cmd, char moves[][MOVE_TEXT_SIZE], int *count)
{
    if (!fsf_send(f, position_cmd) || !fsf_send(f, "go perft 1\n"))
        return false;
    *count = 0;
    for (;;) {
        char *line;
        if (!fsf_read_line(f, &line))
            return false;
        unsigned long long nodes;
        char move[16];
        int n;
        if (line[0] == '\0' || strncmp(line, "info ", 5) == 0)
            continue;
        if (sscanf(line, "Nodes searched: %llu", &nodes) == 1) {
            if (nodes != (unsigned long long)*count)
                return fsf_fail(f, "FSF listed %d moves but reported `%s`", *count, line);
            return true;
        }
        if (sscanf(line, "%15[a-i0-9]: %d", move, &n) == 2 && n == 1 && strlen(move) < MOVE_TEXT_SIZE
            && *count < MAX_MOVES) {
            memcpy(moves[(*count)++], move, strlen(move) + 1);
            continue;
        }
        return fsf_fail(f, "unexpected line from FSF in its perft answer: `%s`", line);
    }
}

/* FSF's `Fen:` of its current position (for failure reports), or "?" */
static void fsf_current_fen(FsfProcess *f, char *out, size_t size)
{
    snprintf(out, size, "?");
    if (!fsf_send(f, "d\nisready\n"))
        return;
    char *line;
    while (fsf_read_line(f, &line) && strcmp(line, "readyok") != 0)
        if (strncmp(line, "Fen: ", 5) == 0)
            snprintf(out, size, "%s", line + 5);
}

/* ---- games ---- */

static const char *const CHO_BACK_RANKS[4] = {"RNBA1ABNR", "RBNA1ANBR", "RBNA1ABNR", "RNBA1ANBR"};
static const char *const HAN_BACK_RANKS[4] = {"rnba1abnr", "rbna1anbr", "rnba1anbr", "rbna1abnr"};

typedef struct {
    long games, plies, positions, checks, bikjang, bikjang_checks, facing, captures, passes;
    long end_double_pass, end_bikjang, end_mate, capped;
} Coverage;

/* How one game picks its moves (percentages), drawn per game. */
typedef struct {
    int capture, check, pass, pass_reply, accept_bikjang, drift;
} Style;

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

/* Pieces strictly between ranks r1 and r2 on file f. */
static int pieces_between(const Position *pos, int f, int r1, int r2)
{
    int lo = r1 < r2 ? r1 : r2, hi = r1 < r2 ? r2 : r1, n = 0;
    for (int r = lo + 1; r < hi; r++)
        n += pos->board[make_square(f, r)] != NO_PIECE;
    return n;
}

/* How far the generals are from facing each other: 0 when they face. */
static int facing_distance(const Position *pos)
{
    Square w = pos->general[WHITE], b = pos->general[BLACK];
    int fw = square_file(w), fb = square_file(b), rw = square_rank(w), rb = square_rank(b);
    int on_w = pieces_between(pos, fw, rw, rb), on_b = pieces_between(pos, fb, rw, rb);
    return 3 * abs(fw - fb) + (on_w < on_b ? on_w : on_b);
}

typedef struct {
    bool capture, check;
    int distance;
} MoveInfo;

static Move pick_random(Rng *rng, const MoveList *list, const MoveInfo *info, bool (*want)(const MoveInfo *))
{
    Move pool[MAX_MOVES];
    int n = 0;
    for (int i = 0; i < list->count; i++)
        if (!move_is_pass(list->moves[i]) && want(&info[i]))
            pool[n++] = list->moves[i];
    return n ? pool[rng_below(rng, n)] : MOVE_NONE;
}

static bool want_capture(const MoveInfo *i) { return i->capture; }
static bool want_check(const MoveInfo *i) { return i->check; }
static bool want_any(const MoveInfo *i) { return (void)i, true; }

static Move choose_move(Position *pos, const MoveList *list, const Style *style, Rng *rng)
{
    MoveInfo info[MAX_MOVES];
    Move pass = MOVE_NONE;
    int best = 1000, here = facing_distance(pos);
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (move_is_pass(m)) {
            pass = m;
            continue;
        }
        StateInfo scratch;
        info[i].capture = pos->board[move_to(m)] != NO_PIECE;
        position_make(pos, m, &scratch);
        info[i].check = position_in_check(pos);
        info[i].distance = facing_distance(pos);
        position_unmake(pos);
        if (info[i].distance < best)
            best = info[i].distance;
    }
    if (pass != MOVE_NONE) {
        int chance = pos->st->pass ? style->pass_reply : pos->st->bikjang ? style->accept_bikjang : style->pass;
        if (rng_percent(rng, chance) || list->count == 1)
            return pass;
    }
    if (best < here && rng_percent(rng, style->drift)) {
        Move pool[MAX_MOVES];
        int n = 0;
        for (int i = 0; i < list->count; i++)
            if (!move_is_pass(list->moves[i]) && info[i].distance == best)
                pool[n++] = list->moves[i];
        return pool[rng_below(rng, n)];
    }
    Move m = MOVE_NONE;
    if (rng_percent(rng, style->capture))
        m = pick_random(rng, list, info, want_capture);
    if (m == MOVE_NONE && rng_percent(rng, style->check))
        m = pick_random(rng, list, info, want_check);
    if (m == MOVE_NONE)
        m = pick_random(rng, list, info, want_any);
    return m != MOVE_NONE ? m : pass;
}

static Style draw_style(Rng *rng)
{
    static const int pass_rates[] = {0, 1, 2, 3, 5};
    Style s;
    s.capture = 50 + rng_below(rng, 41);
    s.check = 10 + rng_below(rng, 31);
    s.pass = pass_rates[rng_below(rng, 5)];
    s.pass_reply = 5 + rng_below(rng, 26);
    s.accept_bikjang = 3 + rng_below(rng, 18);
    s.drift = rng_percent(rng, 30) ? 40 + rng_below(rng, 41) : 0; /* some games drift */
    return s;
}

/* Prints a full reproduction of a difference to stderr. */
static void report_difference(FsfProcess *f, const char *what, const char *variant, int game, uint64_t game_seed,
                              const char *start_fen, char texts[][MOVE_TEXT_SIZE], int plies, const Position *pos,
                              const char *cmd, char fsf_moves[][MOVE_TEXT_SIZE], int fsf_count,
                              char ours[][MOVE_TEXT_SIZE], int our_count)
{
    char fen[128], fsf_fen[256];
    position_to_fen(pos, fen, sizeof fen);
    fsf_current_fen(f, fsf_fen, sizeof fsf_fen);
    qsort(fsf_moves, (size_t)fsf_count, MOVE_TEXT_SIZE, cmp_text);
    qsort(ours, (size_t)our_count, MOVE_TEXT_SIZE, cmp_text);
    fprintf(stderr, "\nfsf_diff: %s\n", what);
    fprintf(stderr, "  rule set:     %s\n", variant);
    fprintf(stderr, "  game:         %d (seed 0x%016llx, JANGGUN_DIFF_SEED=0x%016llx)\n", game,
            (unsigned long long)game_seed, (unsigned long long)base_seed);
    fprintf(stderr, "  start FEN:    %s\n", start_fen);
    fprintf(stderr, "  moves (%d):", plies);
    for (int i = 0; i < plies; i++)
        fprintf(stderr, " %s", texts[i]);
    fprintf(stderr, "\n  current FEN:  %s\n", fen);
    fprintf(stderr, "  FSF's FEN:    %s\n", fsf_fen);
    fprintf(stderr, "  only FSF has:");
    for (int i = 0, j = 0; i < fsf_count; i++) {
        while (j < our_count && strcmp(ours[j], fsf_moves[i]) < 0)
            j++;
        if (j == our_count || strcmp(ours[j], fsf_moves[i]) != 0)
            fprintf(stderr, " %s", fsf_moves[i]);
    }
    fprintf(stderr, "\n  only janggun has:");
    for (int i = 0, j = 0; i < our_count; i++) {
        while (j < fsf_count && strcmp(fsf_moves[j], ours[i]) < 0)
            j++;
        if (j == fsf_count || strcmp(fsf_moves[j], ours[i]) != 0)
            fprintf(stderr, " %s", ours[i]);
    }
    fprintf(stderr, "\n  FSF (%d):", fsf_count);
    for (int i = 0; i < fsf_count; i++)
        fprintf(stderr, " %s", fsf_moves[i]);
    fprintf(stderr, "\n  janggun (%d):", our_count);
    for (int i = 0; i < our_count; i++)
        fprintf(stderr, " %s", ours[i]);
    fprintf(stderr, "\n  sent to FSF:  %s", cmd);
    fprintf(stderr, "  reproduce: setoption name UCI_Variant value %s / position fen %s moves", variant, start_fen);
    for (int i = 0; i < plies; i++)
        fprintf(stderr, " %s", texts[i]);
    fprintf(stderr, " / go perft 1\n\n");
}

/* True when both lists hold the same set of moves (each list is sorted in place). */
static bool same_set(char a[][MOVE_TEXT_SIZE], int na, char b[][MOVE_TEXT_SIZE], int nb)
{
    if (na != nb)
        return false;
    qsort(a, (size_t)na, MOVE_TEXT_SIZE, cmp_text);
    qsort(b, (size_t)nb, MOVE_TEXT_SIZE, cmp_text);
    for (int i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return false;
    return true;
}

/* `position fen <fen> moves <moves...>` and a line end. */
static bool position_command(char *out, size_t size, const char *fen, char moves[][MOVE_TEXT_SIZE], int count)
{
    size_t len = (size_t)snprintf(out, size, "position fen %s moves", fen);
    for (int i = 0; i < count && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, " %s", moves[i]);
    if (len + 1 >= size)
        return false;
    out[len++] = '\n';
    out[len] = '\0';
    return true;
}

typedef enum { GAME_OK, GAME_DIFFERENT, GAME_FSF_ERROR } GameResult;

static GameResult play_game(FsfProcess *f, const RuleSet *rules, int rules_index, int game, Coverage *cov)
{
    uint64_t game_seed = base_seed ^ ((uint64_t)(rules_index + 1) << 56) ^ ((uint64_t)game * 0x9e3779b97f4a7c15ull);
    Rng rng = {game_seed};
    Style style = draw_style(&rng);
    char start_fen[128];
    snprintf(start_fen, sizeof start_fen, "%s/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/%s w - - 0 1",
             HAN_BACK_RANKS[rng_below(&rng, 4)], CHO_BACK_RANKS[rng_below(&rng, 4)]);

    static Position pos;
    static StateInfo states[MAX_PLIES];
    static char texts[MAX_PLIES][MOVE_TEXT_SIZE];
    static char fsf_moves[MAX_MOVES][MOVE_TEXT_SIZE], ours[MAX_MOVES][MOVE_TEXT_SIZE];
    char err[160] = "";
    if (!position_set_fen(&pos, start_fen, rules, FEN_STRICT, err, sizeof err))
        fail_msg("janggun rejected the start FEN %s: %s", start_fen, err);

    static char fens[MAX_PLIES + 1][128];
    cov->games++;
    for (int ply = 0;; ply++) {
        MoveList list;
        movegen_legal(&pos, &list);
        for (int i = 0; i < list.count; i++)
            move_to_text(list.moves[i], RANKS_FROM_1, ours[i]);
        position_to_fen(&pos, fens[ply], sizeof fens[ply]);

        /* The whole game from the start FEN, or (fast) the FEN of two plies back and the last two
         * moves: all the history the move generator depends on (double pass, two-ply bikjang). */
        int from = full_history || ply < HISTORY_WINDOW ? 0 : ply - HISTORY_WINDOW;
        char cmd[CMD_BUF];
        if (!position_command(cmd, sizeof cmd, from ? fens[from] : start_fen, texts + from, ply - from))
            fail_msg("position command too long");
        int fsf_count;
        if (!fsf_perft1(f, cmd, fsf_moves, &fsf_count))
            return GAME_FSF_ERROR;
        cov->positions++;
        cov->checks += position_in_check(&pos);
        cov->bikjang += pos.st->bikjang;
        cov->bikjang_checks += pos.st->bikjang && position_in_check(&pos);
        cov->facing += position_generals_facing(&pos);
        if (!same_set(fsf_moves, fsf_count, ours, list.count)) {
            report_difference(f, "MOVE LIST DIFFERENCE", rules->name, game, game_seed, start_fen, texts, ply, &pos, cmd,
                              fsf_moves, fsf_count, ours, list.count);
            return GAME_DIFFERENT;
        }

        bool over = list.count == 0 || ply == MAX_PLIES;
        if (over && from > 0) {
            /* The final position once more, reached through the whole game from the start FEN; and
             * FSF's FEN of it must be janggun's, which the short commands above relied on. */
            if (!position_command(cmd, sizeof cmd, start_fen, texts, ply))
                fail_msg("position command too long");
            if (!fsf_perft1(f, cmd, fsf_moves, &fsf_count))
                return GAME_FSF_ERROR;
            char fsf_fen[256];
            fsf_current_fen(f, fsf_fen, sizeof fsf_fen);
            bool same = same_set(fsf_moves, fsf_count, ours, list.count);
            if (!same || strcmp(fsf_fen, fens[ply]) != 0) {
                report_difference(f, same ? "FEN DIFFERENCE after the whole game" : "MOVE LIST DIFFERENCE", rules->name,
                                  game, game_seed, start_fen, texts, ply, &pos, cmd, fsf_moves, fsf_count, ours,
                                  list.count);
                return GAME_DIFFERENT;
            }
        }
        if (list.count == 0) {
            if (pos.st->ended && pos.st->pass && pos.st->prev->pass)
                cov->end_double_pass++;
            else if (pos.st->ended)
                cov->end_bikjang++;
            else
                cov->end_mate++;
            break;
        }
        if (ply == MAX_PLIES) {
            cov->capped++;
            break;
        }
        Move m = choose_move(&pos, &list, &style, &rng);
        move_to_text(m, RANKS_FROM_1, texts[ply]);
        position_make(&pos, m, &states[ply]);
        cov->plies++;
        cov->captures += pos.st->captured != NO_PIECE;
        cov->passes += pos.st->pass;
    }
    return GAME_OK;
}

static void run_rule_set(const char *variant, int rules_index)
{
    const RuleSet *rules = rules_by_name(variant);
    assert_non_null(rules);
    static FsfProcess fsf;
    char name[128];
    if (!fsf_start(&fsf, variant, name, sizeof name))
        fail_msg("fsf_diff %s: %s", variant, fsf.error);
    printf("fsf_diff %s: %s, %d games, JANGGUN_DIFF_SEED=0x%016llx\n", variant, name, games_per_rule_set,
           (unsigned long long)base_seed);
    fflush(stdout);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Coverage cov = {0};
    for (int game = 0; game < games_per_rule_set; game++) {
        GameResult r = play_game(&fsf, rules, rules_index, game, &cov);
        if (r == GAME_FSF_ERROR) {
            fsf_close(&fsf, false);
            fail_msg("fsf_diff %s, game %d: %s", variant, game, fsf.error);
        }
        if (r == GAME_DIFFERENT) {
            fsf_close(&fsf, true);
            fail_msg("fsf_diff %s: janggun and FSF disagree in game %d (seed 0x%016llx); details above", variant, game,
                     (unsigned long long)base_seed);
        }
    }
    fsf_close(&fsf, true);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

    printf("fsf_diff %s: %ld games, %ld plies, %ld positions compared, %ld in check, %ld bikjang (%ld of them "
           "in check), %ld facing, %ld captures, %ld passes; ends: %ld double pass, %ld bikjang, %ld no moves in "
           "check, %ld at the %d-ply cap (%.1f s)\n",
           variant, cov.games, cov.plies, cov.positions, cov.checks, cov.bikjang, cov.bikjang_checks, cov.facing,
           cov.captures, cov.passes, cov.end_double_pass, cov.end_bikjang, cov.end_mate, cov.capped, MAX_PLIES, secs);
    fflush(stdout);

    if (games_per_rule_set < DEFAULT_GAMES) {
        printf("fsf_diff %s: fewer than %d games, coverage not asserted\n", variant, DEFAULT_GAMES);
        return;
    }
    long ended_no_moves = cov.end_double_pass + cov.end_bikjang + cov.end_mate;
    assert_true(cov.games > 0);
    assert_true(cov.plies > 0);
    assert_true(cov.checks > 0);
    assert_true(cov.captures > 0);
    assert_true(cov.end_double_pass > 0);
    assert_true(ended_no_moves > 0);
    assert_true(cov.facing > 0);
    if (rules->bikjang) {
        assert_true(cov.bikjang > 0);
        assert_true(cov.end_bikjang > 0);
    } else {
        assert_int_equal(cov.bikjang, 0);
        assert_int_equal(cov.end_bikjang, 0);
    }
}

static void fsf_diff_janggi(void **state)
{
    (void)state;
    run_rule_set("janggi", 0);
}

static void fsf_diff_janggicasual(void **state)
{
    (void)state;
    run_rule_set("janggicasual", 1);
}

int main(void)
{
    engine_init();
    signal(SIGPIPE, SIG_IGN); /* a dead child shows up as a failed write, not a dead test */
    const char *env = getenv("JANGGUN_DIFF_GAMES");
    if (env && *env)
        games_per_rule_set = atoi(env);
    env = getenv("JANGGUN_DIFF_SEED");
    if (env && *env)
        base_seed = strtoull(env, NULL, 0);
    env = getenv("JANGGUN_DIFF_FULL_HISTORY");
    full_history = env && *env && strcmp(env, "0") != 0;
    if (games_per_rule_set < 1) {
        fprintf(stderr, "test_fsf_diff: JANGGUN_DIFF_GAMES must be at least 1\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fsf_diff_janggi),
        cmocka_unit_test(fsf_diff_janggicasual),
    };
    return cmocka_run_group_tests_name("fsf_diff", tests, NULL, NULL);
}

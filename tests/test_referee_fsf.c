/* Differential test of the referee against Fairy-Stockfish 11.1 in XBoard mode.
 *
 * For each rule set, seeded random games are played with janggun alone (passes, piece shuffles,
 * checks, captures, mates and facing generals biased in; some games start from sparse positions with
 * a high half-move counter) until janggun's game_status says the game is over, or a ply cap. FSF is
 * then given the same game (`new`, `force`, [`setboard`], every move, `go`), and again without the
 * last move:
 *   - an immediate end (checkmate, double pass, bikjang): FSF must claim exactly the same result
 *     (`1-0 {White wins}`, `0-1 {Black wins}`, `1/2-1/2 {Draw}`; Cho is White);
 *   - ongoing, or an optional end (repetition, perpetual check, Kakao repetition, move limit): FSF
 *     must answer with a move, because 11.1 never claims optional ends at the root;
 *   - one ply earlier FSF must answer with a move, so both agree on the ply at which a game ends;
 *   - FSF must accept every move (11.1 answers a move it does not accept with `Error (unkown
 *     command): <m>`; later versions with `Illegal move: <m>`).
 * The optional ends cannot be checked against 11.1; they are counted instead, and every way a game can
 * end in a rule set must occur at least once over the run.
 *
 * FSF is required: $FAIRY_STOCKFISH, else /usr/games/fairy-stockfish; without it the tests fail.
 * Environment: JANGGUN_REFEREE_GAMES (games per rule set, default 200), JANGGUN_REFEREE_SEED (decimal
 * or 0x hex). Each game has its own generator seeded from (seed, rule set, game number), printed on a
 * mismatch. JANGGUN_REFEREE_DUMP=FILE appends every game that janggun ends optionally to FILE, one per
 * line (`variant<TAB>start FEN<TAB>moves<TAB>result<TAB>reason`): the input from which
 * bench/fsf_game_ends.py records the latest FSF's claims (tests/data/fsf_game_ends.tsv.xz). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
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

#include "../engine/game.h"
#include "../engine/movegen.h"
#include "fsf_process.h"

enum {
    DEFAULT_GAMES = 200,
    PLY_CAP = 300,           /* a game still going after this many plies stops here */
    READ_TIMEOUT_MS = 20000, /* longest wait for one line from FSF */
    QUIT_TIMEOUT_MS = 3000,  /* how long FSF may take to exit after `quit` */
    MAX_REPORTED = 5,        /* mismatches printed in full per rule set */
    END_REASON_COUNT = END_MOVE_LIMIT + 1,
};

static const uint64_t DEFAULT_SEED = 0x5265666572656531ull; /* "Referee1" */

static int games_per_rule_set = DEFAULT_GAMES;
static FILE *dump; /* JANGGUN_REFEREE_DUMP */

static void dump_game(const char *variant, const Game *g, GameStatus status)
{
    char text[MOVE_TEXT_SIZE];
    fprintf(dump, "%s\t%s\t", variant, g->start_fen);
    for (int i = 0; i < g->length; i++) {
        move_to_text(g->moves[i], RANKS_FROM_1, text);
        fprintf(dump, "%s%s", i ? " " : "", text);
    }
    fprintf(dump, "\t%s\t%s\n", game_result_name(status.result), end_reason_name(status.reason));
}
static uint64_t base_seed = DEFAULT_SEED;

static uint64_t game_seed(int rule_set, int game)
{
    Rng r = {base_seed ^ ((uint64_t)(rule_set + 1) << 56) ^ (uint64_t)game * 0x2545f4914f6cdd1dull};
    return rng_next(&r);
}

/* ---- Fairy-Stockfish in XBoard mode (the process itself: fsf_process.h) ---- */

typedef struct {
    FsfProcess proc;
    int ping; /* the last `ping N` sent */
} Fsf;

static bool fsf_locate(FsfProcess *f)
{
    const char *env = getenv("FAIRY_STOCKFISH");
    const char *path = env && *env ? env : "/usr/games/fairy-stockfish";
    snprintf(f->path, sizeof f->path, "%s", path);
    if (!fsf_executable(path))
        return fsf_fail(f,
                        "fairy-stockfish is required by this test and %s is not an executable file (%s). "
                        "Install Debian's package fairy-stockfish or set FAIRY_STOCKFISH to the binary.",
                        path, env && *env ? "from $FAIRY_STOCKFISH" : "the default; $FAIRY_STOCKFISH is not set");
    return true;
}

static void fsf_close(FsfProcess *f) { fsf_process_stop(f, true, QUIT_TIMEOUT_MS, NULL, 0); }

static bool fsf_lost(FsfProcess *f, const char *what)
{
    fsf_close(f);
    return fsf_fail(f, "fairy-stockfish (%s) %s", f->path, what);
}

static bool fsf_send(FsfProcess *f, const char *text, size_t len)
{
    return fsf_process_write(f, text, len) || fsf_lost(f, "stopped reading its input");
}

/* The next line of output, without its line end, in *line (valid until the next call). */
static bool fsf_read_line(FsfProcess *f, char **line)
{
    FsfRead r = fsf_process_read_line(f, line, READ_TIMEOUT_MS);
    if (r == FSF_READ_TOO_LONG)
        return fsf_fail(f, "fairy-stockfish printed a line longer than %d bytes", FSF_READ_BUF);
    if (r == FSF_READ_TIMEOUT)
        return fsf_lost(f, "sent nothing for 20 s");
    if (r == FSF_READ_CLOSED)
        return fsf_lost(f, "closed its output (crashed or exited)");
    return true;
}

static bool is_rejection(const char *line)
{
    return strncmp(line, "Illegal move", 12) == 0 || strncmp(line, "Error", 5) == 0;
}

/* Sends `ping N` and reads up to `pong N`; the first line that rejects input goes to `rejected`. */
static bool fsf_sync(Fsf *f, char *rejected, size_t size)
{
    char cmd[32], pong[32];
    f->ping++;
    int n = snprintf(cmd, sizeof cmd, "ping %d\n", f->ping);
    snprintf(pong, sizeof pong, "pong %d", f->ping);
    if (!fsf_send(&f->proc, cmd, (size_t)n))
        return false;
    for (;;) {
        char *line;
        if (!fsf_read_line(&f->proc, &line))
            return false;
        if (strcmp(line, pong) == 0)
            return true;
        if (is_rejection(line) && rejected && !rejected[0])
            snprintf(rejected, size, "%s", line);
    }
}

/* Starts FSF in XBoard mode with `variant`; on failure the child is gone and f->proc.error says why. */
static bool fsf_start(Fsf *f, const char *variant)
{
    FsfProcess *p = &f->proc;
    fsf_process_reset(p);
    f->ping = 0;
    if (!fsf_locate(p) || !fsf_process_spawn(p))
        return false;

    const char *hello = "xboard\nprotover 2\n";
    if (!fsf_send(p, hello, strlen(hello)))
        return false;
    char *line;
    bool offered = false;
    do {
        if (!fsf_read_line(p, &line))
            return false;
        if (strstr(line, "variants=\"") && strstr(line, variant))
            offered = true;
    } while (strcmp(line, "feature done=1") != 0);
    if (!offered) {
        fsf_close(p);
        return fsf_fail(p, "%s does not offer the variant %s in its features", p->path, variant);
    }
    char cmd[64], rejected[256] = "";
    int n = snprintf(cmd, sizeof cmd, "variant %s\n", variant);
    if (!fsf_send(p, cmd, (size_t)n) || !fsf_sync(f, rejected, sizeof rejected))
        return false;
    if (rejected[0]) {
        fsf_close(p);
        return fsf_fail(p, "%s refused `variant %s`: %s", p->path, variant, rejected);
    }
    return true;
}

typedef enum { REPLY_MOVE, REPLY_RESULT, REPLY_REJECTED } ReplyKind;

typedef struct {
    ReplyKind kind;
    char line[256]; /* the move, result or rejection line */
} Reply;

static bool is_result_line(const char *line)
{
    return strncmp(line, "1-0 {", 5) == 0 || strncmp(line, "0-1 {", 5) == 0 || strncmp(line, "1/2-1/2 {", 9) == 0;
}

/* Gives FSF the game from `fen` (NULL: the variant's start) with `n` moves and asks it to move. */
static bool fsf_ask(Fsf *f, const char *fen, const Move *moves, int n, Reply *reply)
{
    size_t cap = 256 + (size_t)n * 20, len = 0;
    char *cmd = malloc(cap);
    if (!cmd)
        return fsf_fail(&f->proc, "out of memory");
    len += (size_t)snprintf(cmd + len, cap - len, "new\nforce\n");
    if (fen)
        len += (size_t)snprintf(cmd + len, cap - len, "setboard %s\n", fen);
    len += (size_t)snprintf(cmd + len, cap - len, "sd 1\n");
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_SIZE];
        move_to_text(moves[i], RANKS_FROM_0, text);
        len += (size_t)snprintf(cmd + len, cap - len, "usermove %s\n", text);
    }
    bool ok = fsf_send(&f->proc, cmd, len);
    free(cmd);
    reply->kind = REPLY_MOVE;
    reply->line[0] = '\0';
    if (!ok || !fsf_sync(f, reply->line, sizeof reply->line))
        return false;
    if (reply->line[0]) {
        reply->kind = REPLY_REJECTED;
        return true;
    }
    if (!fsf_send(&f->proc, "go\n", 3))
        return false;
    for (;;) {
        char *line;
        if (!fsf_read_line(&f->proc, &line))
            return false;
        if (strncmp(line, "move ", 5) == 0 || is_result_line(line) || is_rejection(line)) {
            reply->kind = is_result_line(line) ? REPLY_RESULT : is_rejection(line) ? REPLY_REJECTED : REPLY_MOVE;
            snprintf(reply->line, sizeof reply->line, "%s", line);
            return true;
        }
    }
}

/* ---- random games ---- */

typedef enum {
    STYLE_RANDOM,  /* a bit of everything */
    STYLE_MATE,    /* captures, checks and mates, no passing */
    STYLE_PASS,    /* some play, then passes */
    STYLE_BIKJANG, /* open the file between the generals, accept with a pass */
    STYLE_SHUFFLE, /* move a piece and move it back */
    STYLE_PALACE,  /* shuffle generals and guards (repetition without the Kakao rule) */
    STYLE_LIMIT,   /* sparse position, counter near the move limit, no captures */
    STYLE_CHECK,   /* sparse position, check whenever possible (perpetual check) */
    STYLE_COUNT
} Style;

static const char *const style_names[STYLE_COUNT] = {"random",  "mate",   "pass",  "bikjang",
                                                     "shuffle", "palace", "limit", "check"};

typedef struct {
    int warmup; /* plies of plain biased play before the style's habits start */
    int mate, shuffle, pass, pass_reply, face, palace, check, capture; /* percentages */
    bool avoid_captures;
} Habits;

/* Sparse positions (Cho to move; the side is flipped for some games). All are legal in every rule
 * set, with generals not facing, and with different material balances for counting. */
static const char *const sparse_boards[] = {
    "5k3/4a4/9/9/9/9/9/9/4A4/R3K4",    /* Cho +13 */
    "3k5/9/9/9/9/9/P8/9/4K4/9",        /* Cho +2: wins a count by exactly the deom margin */
    "3ak4/9/9/2p6/9/9/6P2/9/5K3/3A5",  /* equal: Han wins a count */
    "3k1a3/9/4b4/9/9/9/9/2N6/4K4/9",   /* Han +1 */
    "5k3/4a4/2c6/9/9/9/9/6C2/3A5/4K4", /* equal, cannons */
    "3k5/9/9/9/4p4/9/9/9/5K3/9",       /* Han +2 */
    "4k4/3a5/9/9/9/9/9/1N4B2/4A4/5K3", /* Cho +8 */
    "5k3/9/9/r8/9/9/9/9/4K4/4A4",      /* Han +10 */
};

enum { SPARSE_COUNT = sizeof sparse_boards / sizeof sparse_boards[0] };

typedef struct {
    Move move;
    bool capture, check, mate, face, pass, reverse, palace;
} MoveInfo;

static Move choose_move(Game *g, Rng *rng, const Habits *h)
{
    MoveList list;
    movegen_legal(&g->pos, &list);
    assert_true(list.count > 0);
    Position *pos = &g->pos;
    Move own_last = g->length >= 2 ? g->moves[g->length - 2] : MOVE_NONE;
    bool they_passed = g->length >= 1 && move_is_pass(g->moves[g->length - 1]);
    bool active = g->length >= h->warmup;
    MoveInfo info[MAX_MOVES];
    int n = list.count;
    for (int i = 0; i < n; i++) {
        Move m = list.moves[i];
        MoveInfo *mi = &info[i];
        memset(mi, 0, sizeof *mi);
        mi->move = m;
        mi->pass = move_is_pass(m);
        mi->capture = !mi->pass && pos->board[move_to(m)] != NO_PIECE;
        PieceType pt = piece_type(pos->board[move_from(m)]);
        mi->palace = !mi->pass && (pt == GENERAL || pt == GUARD);
        mi->reverse = !mi->pass && own_last != MOVE_NONE && !move_is_pass(own_last)
                      && m == make_move(move_to(own_last), move_from(own_last));
        StateInfo st;
        position_make(pos, m, &st);
        mi->check = pos->st->checkers != 0;
        mi->mate = mi->check && movegen_count_legal(pos) == 0;
        mi->face = !mi->pass && position_generals_facing(pos);
        position_unmake(pos);
    }

    /* The habits in order of priority; each picks a random move of its kind. */
    struct {
        int percent;
        bool active_only;
        size_t field;
    } const rules[] = {
        {h->mate, false, offsetof(MoveInfo, mate)},
        {h->shuffle, true, offsetof(MoveInfo, reverse)},
        {they_passed ? h->pass_reply : h->pass, true, offsetof(MoveInfo, pass)},
        {h->face, true, offsetof(MoveInfo, face)},
        {h->palace, true, offsetof(MoveInfo, palace)},
        {h->check, false, offsetof(MoveInfo, check)},
        {h->capture, false, offsetof(MoveInfo, capture)},
    };
    int pick[MAX_MOVES];
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        if (rules[r].active_only && !active)
            continue;
        if (!rng_percent(rng, rules[r].percent))
            continue;
        int k = 0;
        for (int i = 0; i < n; i++)
            if (*(const bool *)((const char *)&info[i] + rules[r].field))
                pick[k++] = i;
        if (k)
            return info[pick[rng_below(rng, k)]].move;
    }
    /* Otherwise any move but the pass (and captures when avoided), if there is one. */
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!info[i].pass && !(h->avoid_captures && info[i].capture))
            pick[k++] = i;
    if (!k)
        for (int i = 0; i < n; i++)
            if (!info[i].pass)
                pick[k++] = i;
    if (!k)
        return info[rng_below(rng, n)].move;
    return info[pick[rng_below(rng, k)]].move;
}

static Habits habits_for(Style style, Rng *rng)
{
    Habits h = {0};
    switch (style) {
    case STYLE_RANDOM:
        h = (Habits){.warmup = 0,
                     .mate = 60,
                     .shuffle = 10,
                     .pass = 5,
                     .pass_reply = 30,
                     .face = 10,
                     .check = 20,
                     .capture = 50};
        break;
    case STYLE_MATE: h = (Habits){.warmup = 0, .mate = 100, .check = 40, .capture = 70}; break;
    case STYLE_PASS:
        h = (Habits){
            .warmup = 10 + rng_below(rng, 70), .mate = 50, .pass = 30, .pass_reply = 70, .check = 15, .capture = 60};
        break;
    case STYLE_BIKJANG:
        h = (Habits){.warmup = rng_below(rng, 30), .mate = 50, .pass = 40, .face = 80, .check = 10, .capture = 50};
        break;
    case STYLE_SHUFFLE:
        h = (Habits){.warmup = rng_below(rng, 40), .mate = 50, .shuffle = 85, .check = 30, .capture = 40};
        break;
    case STYLE_PALACE:
        h = (Habits){.warmup = rng_below(rng, 30), .mate = 30, .shuffle = 80, .palace = 90, .capture = 20};
        break;
    case STYLE_LIMIT: h = (Habits){.warmup = 0, .pass = 3, .avoid_captures = true}; break;
    case STYLE_CHECK: h = (Habits){.warmup = 0, .mate = 100, .pass = 5, .check = 95, .avoid_captures = true}; break;
    default: break;
    }
    return h;
}

/* ---- one rule set ---- */

typedef struct {
    const char *variant;
    int index;
} RuleSetCase;

static const RuleSetCase cases[4] = {{"janggi", 0}, {"janggitraditional", 1}, {"janggimodern", 2}, {"janggicasual", 3}};

typedef struct {
    int games, plies, mismatches;
    int ended[END_REASON_COUNT];                            /* by janggun's reason; [END_NONE]: stopped at the cap */
    int confirmed;                                          /* immediate ends whose result FSF claimed the same */
    int counted, counted_unequal, counted_cho, counted_han; /* ends by counting */
    int immediate_counted_cho, immediate_counted_han;       /* of them, immediate ends with unequal material */
    int by_style[STYLE_COUNT][END_REASON_COUNT];
} Tally;

static const char *expected_line(GameResult r)
{
    return r == GAME_CHO_WINS ? "1-0 {White wins}" : r == GAME_HAN_WINS ? "0-1 {Black wins}" : "1/2-1/2 {Draw}";
}

static void report(const RuleSetCase *c, int game, uint64_t seed, Style style, const Game *g, int plies,
                   GameStatus status, const char *what, const Reply *reply, Tally *t)
{
    if (++t->mismatches > MAX_REPORTED)
        return;
    char text[MOVE_TEXT_SIZE];
    fprintf(stderr, "MISMATCH %s: rule set %s, game %d (style %s), base seed 0x%016llx, game seed 0x%016llx\n", what,
            c->variant, game, style_names[style], (unsigned long long)base_seed, (unsigned long long)seed);
    fprintf(stderr, "  start FEN: %s\n  moves (UCI, %d plies):", g->start_fen, plies);
    for (int i = 0; i < plies; i++) {
        move_to_text(g->moves[i], RANKS_FROM_1, text);
        fprintf(stderr, " %s", text);
    }
    fprintf(stderr, "\n  janggun after %d plies: %s, reason %s%s%s, material cho %d han %d\n", plies,
            game_result_name(status.result), end_reason_name(status.reason), status.immediate ? " (immediate)" : "",
            status.by_counting ? " by counting" : "", status.material.cho, status.material.han);
    fprintf(stderr, "  fairy-stockfish: %s (expected %s)\n", reply->line,
            reply->kind == REPLY_REJECTED            ? "every move accepted"
            : status.immediate && plies == g->length ? expected_line(status.result)
                                                     : "a move, no claim");
}

static void test_rule_set(void **state)
{
    const RuleSetCase *c = *state;
    const RuleSet *rules = rules_by_name(c->variant);
    assert_non_null(rules);
    Fsf *fsf = malloc(sizeof *fsf);
    assert_non_null(fsf);
    if (!fsf_start(fsf, c->variant)) {
        char msg[1100];
        snprintf(msg, sizeof msg, "%s", fsf->proc.error);
        free(fsf);
        fail_msg("%s", msg);
    }
    Tally t;
    memset(&t, 0, sizeof t);
    char fsf_error[1100] = "";
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);

    for (int game = 0; game < games_per_rule_set && !fsf_error[0]; game++) {
        uint64_t seed = game_seed(c->index, game);
        Rng rng = {seed};
        Style style = (Style)(game % STYLE_COUNT);
        Habits h = habits_for(style, &rng);
        /* Limit and check games, and a quarter of the others, start from a sparse position. */
        bool sparse = style == STYLE_LIMIT || style == STYLE_CHECK || rng_percent(&rng, 25);
        char fen[128];
        if (sparse) {
            int halfmove = style == STYLE_LIMIT ? rules->nmove_plies - 2 - rng_below(&rng, 14) : rng_below(&rng, 20);
            snprintf(fen, sizeof fen, "%s %c - - %d %d", sparse_boards[rng_below(&rng, SPARSE_COUNT)],
                     rng_percent(&rng, 50) ? 'w' : 'b', halfmove, 40 + rng_below(&rng, 40));
        } else
            snprintf(fen, sizeof fen, "%s", START_FEN);

        Game g;
        char err[200] = "";
        if (!game_start(&g, fen, rules, FEN_STRICT, err, sizeof err))
            fail_msg("test bug: FEN %s rejected: %s", fen, err);
        GameStatus status = game_status(&g);
        if (status.result != GAME_ONGOING)
            fail_msg("test bug: game %d starts finished (%s) from %s", game, end_reason_name(status.reason), fen);
        while (g.length < PLY_CAP) {
            Move m = choose_move(&g, &rng, &h);
            if (!game_play(&g, m)) {
                char text[MOVE_TEXT_SIZE];
                move_to_text(m, RANKS_FROM_1, text);
                fail_msg("game_play refused %s, a move movegen_legal listed (game %d, %s)", text, game, c->variant);
            }
            status = game_status(&g);
            if (status.result != GAME_ONGOING)
                break;
        }
        t.games++;
        t.plies += g.length;
        if (dump && status.result != GAME_ONGOING && !status.immediate)
            dump_game(c->variant, &g, status);
        t.ended[status.reason]++;
        t.by_style[style][status.reason]++;
        if (status.by_counting) {
            t.counted++;
            t.counted_unequal += status.material.cho != status.material.han;
            t.counted_cho += status.result == GAME_CHO_WINS;
            t.counted_han += status.result == GAME_HAN_WINS;
            if (status.immediate && status.material.cho != status.material.han) {
                t.immediate_counted_cho += status.result == GAME_CHO_WINS;
                t.immediate_counted_han += status.result == GAME_HAN_WINS;
            }
        }

        /* FSF on the final position, then one ply earlier. */
        const char *setup = sparse ? g.start_fen : NULL;
        Reply reply;
        if (!fsf_ask(fsf, setup, g.moves, g.length, &reply)) {
            snprintf(fsf_error, sizeof fsf_error, "%s (game %d)", fsf->proc.error, game);
        } else if (reply.kind == REPLY_REJECTED) {
            report(c, game, seed, style, &g, g.length, status, "FSF rejected a move", &reply, &t);
        } else if (status.immediate) {
            if (reply.kind != REPLY_RESULT || strcmp(reply.line, expected_line(status.result)) != 0)
                report(c, game, seed, style, &g, g.length, status, "FSF does not claim the same immediate end", &reply,
                       &t);
            else
                t.confirmed++;
        } else if (reply.kind != REPLY_MOVE) {
            report(c, game, seed, style, &g, g.length, status, "FSF claims a result where janggun has no immediate end",
                   &reply, &t);
        }
        if (!fsf_error[0] && g.length > 0) {
            game_undo(&g);
            GameStatus before = game_status(&g);
            if (!fsf_ask(fsf, setup, g.moves, g.length, &reply))
                snprintf(fsf_error, sizeof fsf_error, "%s (game %d)", fsf->proc.error, game);
            else if (reply.kind != REPLY_MOVE)
                report(c, game, seed, style, &g, g.length, before, "FSF claims a result one ply before the end", &reply,
                       &t);
        }
        game_free(&g);
    }
    fsf_close(&fsf->proc);
    free(fsf);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (fsf_error[0])
        fail_msg("%s", fsf_error);

    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%s: %d games, %d plies, %.1f s; ended by checkmate %d, bikjang %d, double pass %d, repetition %d, "
           "perpetual check %d, kakao repetition %d, move limit %d; stopped at the cap %d\n",
           c->variant, t.games, t.plies, seconds, t.ended[END_CHECKMATE], t.ended[END_BIKJANG],
           t.ended[END_DOUBLE_PASS], t.ended[END_REPETITION], t.ended[END_PERPETUAL_CHECK],
           t.ended[END_KAKAO_REPETITION], t.ended[END_MOVE_LIMIT], t.ended[END_NONE]);
    printf("%s: %d immediate ends confirmed by FSF; %d ends by counting (Cho wins %d, Han wins %d, unequal "
           "material %d; immediate ends with unequal material: Cho wins %d, Han wins %d); optional ends, not "
           "checkable against 11.1 (counted only): %d\n",
           c->variant, t.confirmed, t.counted, t.counted_cho, t.counted_han, t.counted_unequal, t.immediate_counted_cho,
           t.immediate_counted_han,
           t.ended[END_REPETITION] + t.ended[END_PERPETUAL_CHECK] + t.ended[END_KAKAO_REPETITION]
               + t.ended[END_MOVE_LIMIT]);
    for (int s = 0; s < STYLE_COUNT; s++) {
        printf("  %-8s", style_names[s]);
        for (int r = 0; r < END_REASON_COUNT; r++)
            printf(" %s %d%s", r == END_NONE ? "cap" : end_reason_name((EndReason)r), t.by_style[s][r],
                   r + 1 < END_REASON_COUNT ? "," : "\n");
    }
    fflush(stdout);

    if (t.mismatches)
        fail_msg("%s: %d of %d games disagree with fairy-stockfish (first %d printed above; seed 0x%016llx)",
                 c->variant, t.mismatches, t.games, MAX_REPORTED, (unsigned long long)base_seed);

    /* Every way a game can end under these rules must have been reached. */
    char missing[256] = "";
    if (!t.ended[END_CHECKMATE])
        strcat(missing, " checkmate");
    if (!t.ended[END_DOUBLE_PASS])
        strcat(missing, " double-pass");
    if (rules->bikjang && !t.ended[END_BIKJANG])
        strcat(missing, " bikjang");
    if (!t.ended[END_REPETITION] && !t.ended[END_PERPETUAL_CHECK])
        strcat(missing, " repetition/perpetual-check");
    if (rules->kakao_repetition && !t.ended[END_KAKAO_REPETITION])
        strcat(missing, " kakao-repetition");
    if (!t.ended[END_MOVE_LIMIT])
        strcat(missing, " move-limit");
    if (rules->material_counting && (!t.immediate_counted_cho || !t.immediate_counted_han))
        strcat(missing, " immediate-end-by-counting-with-unequal-material-won-by-each-side");
    if (missing[0])
        fail_msg("%s: no game over %d games (seed 0x%016llx) ended by:%s", c->variant, t.games,
                 (unsigned long long)base_seed, missing);
}

int main(void)
{
    engine_init();
    signal(SIGPIPE, SIG_IGN);
    const char *env = getenv("JANGGUN_REFEREE_GAMES");
    if (env && *env) {
        games_per_rule_set = atoi(env);
        if (games_per_rule_set < 1) {
            fprintf(stderr, "test_referee_fsf: JANGGUN_REFEREE_GAMES must be a positive number, not '%s'\n", env);
            return 1;
        }
    }
    env = getenv("JANGGUN_REFEREE_SEED");
    if (env && *env) {
        char *end;
        errno = 0;
        base_seed = strtoull(env, &end, 0);
        if (errno || *end) {
            fprintf(stderr, "test_referee_fsf: JANGGUN_REFEREE_SEED must be a number, not '%s'\n", env);
            return 1;
        }
    }
    env = getenv("JANGGUN_REFEREE_DUMP");
    if (env && *env && !(dump = fopen(env, "a"))) {
        fprintf(stderr, "test_referee_fsf: cannot write JANGGUN_REFEREE_DUMP '%s'\n", env);
        return 1;
    }
    printf("test_referee_fsf: %d games per rule set, seed 0x%016llx (JANGGUN_REFEREE_GAMES, JANGGUN_REFEREE_SEED)\n",
           games_per_rule_set, (unsigned long long)base_seed);
    fflush(stdout);
    struct CMUnitTest tests[4];
    for (int i = 0; i < 4; i++)
        tests[i] = (struct CMUnitTest){cases[i].variant, test_rule_set, NULL, NULL, (void *)&cases[i]};
    int status = _cmocka_run_group_tests("referee_fsf", tests, 4, NULL, NULL);
    if (dump && fclose(dump) != 0) {
        fprintf(stderr, "test_referee_fsf: cannot write JANGGUN_REFEREE_DUMP\n");
        return 1;
    }
    return status;
}

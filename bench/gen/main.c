/* janggun-gen: training positions for janggun-train (bench/train/packed.h), from self-play at a fixed
 * node count starting at the real-game openings, or from the real games re-scored by a short search.
 * The work is cut into jobs (a game each); worker processes (each with its own one-thread search: the
 * search's pool is one per process) take jobs from the parent, which writes their records in job order,
 * so that the output depends only on the seed and the options, not on the number of workers. Ctrl-C
 * stops it; --continue goes on from the last job written. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../engine/base/base.h"
#include "../../engine/base/cli_options.h"
#include "../../engine/base/version.h"
#include "../../engine/game.h"
#include "../../engine/movegen.h"
#include "../../engine/records/epd.h"
#include "../../engine/records/jsonl.h"
#include "../../eval/eval.h"
#include "../../search/search.h"
#include "../train/packed.h"

enum { MAX_WORKERS = 64, MAX_GAME_PLIES = 600, MAX_LINES = MAX_MULTIPV };

__attribute__((format(printf, 1, 2))) static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_error_v("janggun-gen", fmt, ap);
    va_end(ap);
    exit(2);
}

typedef struct {
    const char *out, *openings, *rescore, *net;
    int eval; /* EVAL_CHOICE_* */
    int games, nodes, random_plies, multipv, margin, per_game, skip_plies, resign, max_plies, workers, hash;
    uint64_t seed;
    bool resume;
} GenOptions;

/* --eval: the evaluation the searches use. */
enum { EVAL_CHOICE_DEFAULT, EVAL_CHOICE_CLASSICAL, EVAL_CHOICE_NNUE };
static const char *const EVAL_CHOICES[] = {"default", "classical", "nnue", NULL};

/* A job's input: an opening (self-play) or a real game (re-scoring), as a start FEN and UCI moves. */
typedef struct {
    char fen[EPD_FEN_SIZE];
    char *moves; /* space-separated */
    int result;  /* re-scoring: PACKED_*; -1 unknown */
} JobInput;

static JobInput *inputs;
static int input_count;

/* ---- inputs ---- */

static void add_input(const char *fen, const char *moves, size_t moves_len, int result)
{
    static int cap;
    if (input_count == cap) {
        cap = cap ? cap * 2 : 1024;
        inputs = realloc(inputs, (size_t)cap * sizeof *inputs);
        if (!inputs)
            die("out of memory");
    }
    JobInput *in = &inputs[input_count++];
    snprintf(in->fen, sizeof in->fen, "%s", fen);
    in->moves = malloc(moves_len + 1);
    if (!in->moves)
        die("out of memory");
    memcpy(in->moves, moves, moves_len);
    in->moves[moves_len] = '\0';
    in->result = result;
}

static void read_openings(const char *path)
{
    size_t len;
    char err[300];
    char *text = read_whole_file(path, &len, err, sizeof err);
    if (!text)
        die("%s: %s", path, err);
    int line_no = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        line_no++;
        if (epd_is_blank(line))
            continue;
        EpdPosition epd;
        if (!epd_parse_line(line, &epd, err, sizeof err))
            die("%s:%d: %s", path, line_no, err);
        add_input(epd.fen, epd.has_moves ? line + epd.moves_at : "", epd.has_moves ? epd.moves_len : 0, -1);
    }
    free(text);
    if (input_count == 0)
        die("%s: no openings", path);
}

static void read_games(const char *path)
{
    JsonLines r;
    char err[600];
    if (!json_lines_open(&r, path, err, sizeof err))
        die("%s", err);
    StrBuf moves = {0};
    for (const char *line; (line = json_lines_next(&r, 1));) {
        JsonObject o = {0};
        const char *fen, *res;
        const JsonField *m;
        if (!json_parse_object(line, &o, NULL, 0) || !(fen = json_str(&o, "start_fen"))
            || !(res = json_str(&o, "result")) || !(m = json_get(&o, "moves")) || m->type != JSON_ARRAY) {
            json_free(&o);
            add_input("", "", 0, -1); /* keeps the job numbers equal to line numbers */
            continue;
        }
        int result = !strcmp(res, "cho")    ? PACKED_CHO_WINS
                     : !strcmp(res, "han")  ? PACKED_HAN_WINS
                     : !strcmp(res, "draw") ? PACKED_DRAW
                                            : -1;
        moves.len = 0;
        for (int i = 0; i < m->arr_len; i++) {
            strbuf_puts(&moves, i ? " " : "");
            strbuf_puts(&moves, m->arr[i]);
        }
        add_input(fen, moves.text ? moves.text : "", moves.len, result);
        json_free(&o);
    }
    strbuf_free(&moves);
    if (!json_lines_close(&r, err, sizeof err))
        die("%s", err);
}

/* ---- one search ---- */

typedef struct {
    Move best;
    int score[MAX_LINES]; /* evaluation centipawns, side to move's view, by multipv line */
    Move first[MAX_LINES];
    bool mate[MAX_LINES];
    int lines;
} Searched;

static void on_info(const SearchInfo *info, void *ctx)
{
    Searched *s = ctx;
    int k = info->multipv - 1;
    if (k < 0 || k >= MAX_LINES || info->pv_length == 0 || info->bound != BOUND_EXACT)
        return;
    s->score[k] = info->score * eval_soldier_value() / 100;
    s->mate[k] = info->is_mate;
    s->first[k] = info->pv[0];
    if (k + 1 > s->lines)
        s->lines = k + 1;
}

static void on_bestmove(Move best, Move ponder, void *ctx)
{
    (void)ponder;
    ((Searched *)ctx)->best = best;
}

static void search_position(const Game *g, int nodes, int multipv, Searched *out)
{
    memset(out, 0, sizeof *out);
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.nodes = (uint64_t)nodes;
    limits.multipv = multipv;
    SearchReport report = {on_info, on_bestmove, out};
    search_start(g, &limits, &report);
    search_wait();
}

/* ---- a job, in a worker ---- */

typedef struct {
    PackedRecord *r;
    int count, cap;
    int8_t *side; /* the side to move of each record, to set results at the end */
} Records;

static void add_record(Records *rs, const Position *pos, int score, int flags, int ply)
{
    if (rs->count == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 256;
        rs->r = realloc(rs->r, (size_t)rs->cap * sizeof *rs->r);
        if (!rs->r)
            die("out of memory");
    }
    if (packed_write(pos, score, PACKED_DRAW, flags, 0, ply, &rs->r[rs->count]))
        rs->count++;
}

static void set_results(Records *rs, int result)
{
    for (int i = 0; i < rs->count; i++)
        rs->r[i].bytes[29] = (uint8_t)result;
}

static int flags_of(const Position *pos, Move best)
{
    bool check = pos->st->checkers != 0;
    bool capture = best != MOVE_NONE && !move_is_pass(best) && pos->board[move_to(best)] != NO_PIECE;
    return (check ? PACKED_IN_CHECK : 0) | (capture ? PACKED_CAPTURE : 0) | (!check && !capture ? PACKED_QUIET : 0);
}

static bool start_job(Game *g, const JobInput *in)
{
    char err[200];
    if (!in->fen[0] || !game_start(g, in->fen, &RULES_JANGGI, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
        return false;
    char word[16];
    int used;
    for (const char *p = in->moves; sscanf(p, " %15s%n", word, &used) == 1; p += used)
        if (game_play_text(g, word, RANKS_FROM_1) != MOVE_PARSE_OK)
            return false;
    return true;
}

static int result_of(GameStatus st)
{
    return st.result == GAME_CHO_WINS ? PACKED_CHO_WINS : st.result == GAME_HAN_WINS ? PACKED_HAN_WINS : PACKED_DRAW;
}

/* Self-play from opening `job` (chosen by the seed): random choices among the multi-PV lines within
 * --margin of the best for --random-plies plies, then the best move at --nodes; every position with a
 * score that is not a mate is recorded; the game ends by the referee, by adjudication (both sides agree
 * on --resign or more for 4 plies each) or at --max-plies (a count, as the rules would end it). */
static void selfplay(const GenOptions *o, int job, Records *rs)
{
    uint64_t rng = o->seed * 0x9e3779b97f4a7c15ull ^ (uint64_t)job * 0xbf58476d1ce4e5b9ull;
    splitmix64(&rng);
    const JobInput *in = &inputs[splitmix64(&rng) % (uint64_t)input_count];
    Game g = {0};
    if (!start_job(&g, in)) {
        game_free(&g);
        return;
    }
    search_clear();
    int result = PACKED_DRAW, streak = 0, last_sign = 0;
    for (int ply = 0;; ply++) {
        GameStatus st = game_status(&g);
        if (st.result != GAME_ONGOING) {
            result = result_of(st);
            break;
        }
        if (ply >= o->max_plies) {
            MaterialCount c = referee_count_material(&g.pos);
            result = referee_counting_winner(c) == WHITE ? PACKED_CHO_WINS : PACKED_HAN_WINS;
            break;
        }
        bool random = ply < o->random_plies;
        Searched s;
        search_position(&g, o->nodes, random ? o->multipv : 1, &s);
        if (s.best == MOVE_NONE)
            break;
        Move play = s.best;
        if (random && s.lines > 1) {
            int near = 0;
            Move pick[MAX_LINES];
            for (int k = 0; k < s.lines; k++)
                if (s.first[k] != MOVE_NONE && s.score[k] >= s.score[0] - o->margin)
                    pick[near++] = s.first[k];
            if (near > 0)
                play = pick[splitmix64(&rng) % (uint64_t)near];
        }
        if (s.lines > 0 && !s.mate[0])
            add_record(rs, &g.pos, s.score[0], flags_of(&g.pos, s.best), g.length);
        /* Adjudication: the side to move's score, seen from Cho, beyond --resign for 8 plies running. */
        int cho = s.lines > 0 ? (g.pos.side == WHITE ? s.score[0] : -s.score[0]) : 0;
        bool decisive = s.lines > 0 && (s.mate[0] || (cho >= o->resign || cho <= -o->resign));
        int sign = cho > 0 ? 1 : -1;
        streak = decisive && sign == last_sign ? streak + 1 : decisive ? 1 : 0;
        last_sign = sign;
        if (o->resign > 0 && streak >= 8) {
            result = sign > 0 ? PACKED_CHO_WINS : PACKED_HAN_WINS;
            break;
        }
        if (!game_play(&g, play))
            break;
    }
    set_results(rs, result);
    game_free(&g);
}

/* Re-scoring real game `job`: --per-game positions after --skip-plies, chosen by the seed, each searched
 * at --nodes, with the game's own result. Games with an unknown result are skipped. */
static void rescore(const GenOptions *o, int job, Records *rs)
{
    const JobInput *in = &inputs[job];
    if (in->result < 0 || !in->fen[0])
        return;
    Game g = {0};
    char err[200];
    if (!game_start(&g, in->fen, &RULES_JANGGI, FEN_ALLOW_EXTRA_PIECES, err, sizeof err)) {
        game_free(&g);
        return;
    }
    /* The plies of the game, then a seeded choice of --per-game of them. */
    Move moves[MAX_GAME_PLIES];
    int n = 0;
    char word[16];
    int used;
    for (const char *p = in->moves; n < MAX_GAME_PLIES && sscanf(p, " %15s%n", word, &used) == 1; p += used) {
        if (game_play_text(&g, word, RANKS_FROM_1) != MOVE_PARSE_OK)
            break;
        moves[n++] = g.moves[g.length - 1];
    }
    uint64_t rng = o->seed * 0x9e3779b97f4a7c15ull ^ (uint64_t)job * 0x94d049bb133111ebull;
    bool chosen[MAX_GAME_PLIES + 1] = {false};
    int candidates = n + 1 - o->skip_plies;
    for (int k = 0; k < o->per_game && k < candidates; k++) {
        int at;
        do
            at = o->skip_plies + (int)(splitmix64(&rng) % (uint64_t)candidates);
        while (chosen[at]);
        chosen[at] = true;
    }
    while (g.length > 0)
        game_undo(&g);
    search_clear();
    for (int ply = 0; ply <= n; ply++) {
        if (chosen[ply] && game_status(&g).result == GAME_ONGOING) {
            Searched s;
            search_position(&g, o->nodes, 1, &s);
            if (s.lines > 0 && !s.mate[0] && s.best != MOVE_NONE)
                add_record(rs, &g.pos, s.score[0], flags_of(&g.pos, s.best), g.length);
        }
        if (ply < n && !game_play(&g, moves[ply]))
            break;
    }
    set_results(rs, in->result);
    game_free(&g);
}

static bool write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        size -= (size_t)w;
    }
    return true;
}

static bool read_all(int fd, void *data, size_t size)
{
    char *p = data;
    while (size > 0) {
        ssize_t r = read(fd, p, size);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        size -= (size_t)r;
    }
    return true;
}

/* A worker: reads job numbers, answers each with {job, count} and the records; ends at -1 or EOF. */
static void worker(const GenOptions *o, int in_fd, int out_fd)
{
    search_init();
    search_set_hash((size_t)o->hash);
    Records rs = {0};
    for (int32_t job; read_all(in_fd, &job, sizeof job) && job >= 0;) {
        rs.count = 0;
        if (o->rescore)
            rescore(o, job, &rs);
        else
            selfplay(o, job, &rs);
        int32_t head[2] = {job, rs.count};
        if (!write_all(out_fd, head, sizeof head) || !write_all(out_fd, rs.r, (size_t)rs.count * PACKED_SIZE))
            break;
    }
    search_shutdown();
    _exit(0);
}

/* ---- the parent ---- */

static volatile sig_atomic_t interrupted;
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct {
    pid_t pid;
    int to, from;
    int job; /* the job it works on, -1 when idle */
} Worker;

/* The progress file: what the run is, and how far it got (complete jobs, records written). */
static void write_progress(const char *path, const char *signature, int jobs_done, long records)
{
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f || fprintf(f, "%s\njobs %d records %ld\n", signature, jobs_done, records) < 0 || fclose(f) != 0
        || rename(tmp, path) != 0)
        die("cannot write %s", path);
}

int main(int argc, char **argv)
{
    GenOptions o = {.out = NULL,
                    .openings = "bench/data/openings.epd",
                    .games = 100,
                    .nodes = 5000,
                    .random_plies = 8,
                    .multipv = 4,
                    .margin = 100,
                    .per_game = 10,
                    .skip_plies = 8,
                    .resign = 2500,
                    .max_plies = 300,
                    .workers = 2,
                    .hash = 16};
    int seed = 1;
    bool version = false;
    const CliOption options[] = {
        {.name = "--out",
         .kind = CLI_STRING,
         .text = &o.out,
         .value_name = "PATH",
         .help = "the records (appended to with --continue)"},
        {.name = "--openings",
         .kind = CLI_STRING,
         .text = &o.openings,
         .value_name = "PATH",
         .help = "self-play openings, EPD with moves (bench/data/openings.epd)"},
        {.name = "--games",
         .kind = CLI_INT,
         .integer = &o.games,
         .min = 1,
         .max = 100000000,
         .value_name = "N",
         .help = "self-play games (100)"},
        {.name = "--rescore",
         .kind = CLI_STRING,
         .text = &o.rescore,
         .value_name = "PATH",
         .help = "re-score real games (JSON lines, plain or xz) instead of self-play"},
        {.name = "--per-game",
         .kind = CLI_INT,
         .integer = &o.per_game,
         .min = 1,
         .max = 1000,
         .value_name = "N",
         .help = "--rescore: positions a game (10)"},
        {.name = "--skip-plies",
         .kind = CLI_INT,
         .integer = &o.skip_plies,
         .min = 0,
         .max = 1000,
         .value_name = "N",
         .help = "--rescore: opening plies never taken (8)"},
        {.name = "--nodes",
         .kind = CLI_INT,
         .integer = &o.nodes,
         .min = 1,
         .max = 100000000,
         .value_name = "N",
         .help = "nodes a search (5000)"},
        {.name = "--random-plies",
         .kind = CLI_INT,
         .integer = &o.random_plies,
         .min = 0,
         .max = 1000,
         .value_name = "N",
         .help = "self-play: plies after the opening chosen among the multi-PV lines (8)"},
        {.name = "--multipv",
         .kind = CLI_INT,
         .integer = &o.multipv,
         .min = 1,
         .max = MAX_LINES,
         .value_name = "N",
         .help = "lines to choose from in those plies (4)"},
        {.name = "--margin",
         .kind = CLI_INT,
         .integer = &o.margin,
         .min = 0,
         .max = 100000,
         .value_name = "CP",
         .help = "how far below the best a line may be and still be chosen, evaluation centipawns (100)"},
        {.name = "--resign",
         .kind = CLI_INT,
         .integer = &o.resign,
         .min = 0,
         .max = 100000,
         .value_name = "CP",
         .help = "adjudicate when the score stays beyond CP for 8 plies (2500; 0: never)"},
        {.name = "--max-plies",
         .kind = CLI_INT,
         .integer = &o.max_plies,
         .min = 1,
         .max = MAX_GAME_PLIES,
         .value_name = "N",
         .help = "self-play: end a game by counting after N plies (300)"},
        {.name = "--eval",
         .kind = CLI_CHOICE,
         .choice = &o.eval,
         .choices = EVAL_CHOICES,
         .value_name = "default|classical|nnue",
         .help = "the searches' evaluation: the engine's default (Use NNUE), classical, or the net (default)"},
        {.name = "--net",
         .kind = CLI_STRING,
         .text = &o.net,
         .value_name = "PATH",
         .help = "evaluate with this net file instead of the embedded net (implies --eval nnue)"},
        {.name = "--threads",
         .kind = CLI_INT,
         .integer = &o.workers,
         .min = 1,
         .max = MAX_WORKERS,
         .value_name = "N",
         .help = "workers, one search thread each (2)"},
        {.name = "--hash",
         .kind = CLI_INT,
         .integer = &o.hash,
         .min = 1,
         .max = 65536,
         .value_name = "MB",
         .help = "hash table of each worker (16)"},
        {.name = "--seed",
         .kind = CLI_INT,
         .integer = &seed,
         .min = 0,
         .max = 1000000000,
         .value_name = "N",
         .help = "the openings and the random choices (1)"},
        {.name = "--continue",
         .kind = CLI_FLAG,
         .flag = &o.resume,
         .help = "go on from where an interrupted run with the same options stopped"},
        {.name = "--version", .kind = CLI_FLAG, .flag = &version, .help = "print the version"},
    };
    const CliCommand cli = {"janggun-gen", "usage: janggun-gen --out PATH [OPTIONS]\n",
                            "Writes training positions for janggun-train. The output depends only on the options "
                            "and the seed,\nnot on --threads. See README.md (Training data).\n",
                            options, CLI_COUNT(options)};
    int status = cli_read_options(&cli, argc - 1, argv + 1, NULL);
    if (status >= 0)
        return status;
    if (version) {
        printf("janggun-gen (Janggun %s)\n", janggun_version);
        return 0;
    }
    if (!o.out)
        die("--out is needed (see janggun-gen --help)");
    o.seed = (uint64_t)seed;
    engine_init();
    char err[600];
    if (!eval_init(err, sizeof err))
        die("%s", err);
    if (o.eval != EVAL_CHOICE_DEFAULT)
        eval_set_use_nnue(o.eval == EVAL_CHOICE_NNUE);
    if (o.net) {
        if (o.eval == EVAL_CHOICE_CLASSICAL)
            die("--net needs the net: --eval nnue, not classical");
        if (!eval_load_net(o.net, err, sizeof err))
            die("--net: %s", err);
        eval_set_use_nnue(true);
    }
    if (o.rescore)
        read_games(o.rescore);
    else
        read_openings(o.openings);
    int total = o.rescore ? input_count : o.games;

    /* What the run is: every option that changes the records. */
    char signature[1200];
    snprintf(signature, sizeof signature,
             "janggun-gen %s: %s %s nodes %d random-plies %d multipv %d margin %d per-game %d skip-plies %d resign %d "
             "max-plies %d seed %d eval %s",
             janggun_version, o.rescore ? "rescore" : "selfplay", o.rescore ? o.rescore : o.openings, o.nodes,
             o.random_plies, o.multipv, o.margin, o.per_game, o.skip_plies, o.resign, o.max_plies, seed,
             eval_use_nnue() ? eval_net_description() : "classical");
    char progress_path[4200];
    snprintf(progress_path, sizeof progress_path, "%s.progress", o.out);
    int next = 0;
    long written = 0;
    FILE *out;
    if (o.resume) {
        FILE *p = fopen(progress_path, "r");
        char line[1200];
        if (!p || !fgets(line, sizeof line, p))
            die("--continue: cannot read %s", progress_path);
        line[strcspn(line, "\n")] = '\0';
        bool same = !strcmp(line, signature);
        bool read = fscanf(p, "jobs %d records %ld", &next, &written) == 2;
        fclose(p);
        if (!same)
            die("--continue: %s was made by other options:\n  %s\nnot\n  %s", o.out, line, signature);
        if (!read)
            die("--continue: %s is malformed", progress_path);
        if (truncate(o.out, (off_t)written * PACKED_SIZE) != 0)
            die("--continue: cannot truncate %s to %ld records", o.out, written);
        out = fopen(o.out, "ab");
        fprintf(stderr, "continuing after job %d of %d (%ld records)\n", next, total, written);
    } else
        out = fopen(o.out, "wb");
    if (!out)
        die("cannot write %s", o.out);
    write_progress(progress_path, signature, next, written);

    /* The workers. */
    signal(SIGPIPE, SIG_IGN);
    Worker w[MAX_WORKERS];
    int nw = o.workers < total - next ? o.workers : total - next;
    for (int i = 0; i < nw; i++) {
        int down[2], up[2];
        if (pipe(down) != 0 || pipe(up) != 0)
            die("cannot create a pipe");
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0)
            die("cannot start a worker");
        if (pid == 0) {
            signal(SIGINT, SIG_IGN); /* the parent decides */
            close(down[1]);
            close(up[0]);
            for (int k = 0; k < i; k++) {
                close(w[k].to);
                close(w[k].from);
            }
            worker(&o, down[0], up[1]);
        }
        close(down[0]);
        close(up[1]);
        w[i] = (Worker){pid, down[1], up[0], -1};
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    /* Hand out jobs; keep finished ones until every earlier one is written, in a ring of WINDOW games
     * (a worker waits rather than run more than WINDOW games ahead of the first one not yet written). */
    enum { WINDOW = 1024 };
    static Records done[WINDOW];
    static bool ready[WINDOW];
    int handed = next, first_pending = next;
    double start = clock_seconds(), last_report = 0;
    long fresh = 0;
    while (first_pending < total && !interrupted) {
        for (int i = 0; i < nw; i++)
            if (w[i].job < 0 && handed < total && handed < first_pending + WINDOW) {
                int32_t job = handed++;
                if (!write_all(w[i].to, &job, sizeof job))
                    die("worker %d stopped unexpectedly", i + 1);
                w[i].job = job;
            }
        struct pollfd fds[MAX_WORKERS];
        for (int i = 0; i < nw; i++)
            fds[i] = (struct pollfd){w[i].job >= 0 ? w[i].from : -1, POLLIN, 0};
        if (poll(fds, (nfds_t)nw, 500) < 0 && errno != EINTR)
            die("poll: %s", strerror(errno));
        for (int i = 0; i < nw && !interrupted; i++) {
            if (w[i].job < 0 || !(fds[i].revents & (POLLIN | POLLHUP)))
                continue;
            int32_t head[2];
            if (!read_all(w[i].from, head, sizeof head) || head[0] != w[i].job || head[1] < 0)
                die("worker %d stopped unexpectedly", i + 1);
            Records *r = &done[head[0] % WINDOW];
            r->count = r->cap = head[1];
            r->r = malloc((size_t)(head[1] ? head[1] : 1) * PACKED_SIZE);
            if (!r->r || !read_all(w[i].from, r->r, (size_t)head[1] * PACKED_SIZE))
                die("worker %d stopped unexpectedly", i + 1);
            ready[head[0] % WINDOW] = true;
            w[i].job = -1;
        }
        bool wrote = false;
        while (first_pending < total && ready[first_pending % WINDOW]) {
            ready[first_pending % WINDOW] = false;
            Records *r = &done[first_pending % WINDOW];
            if (fwrite(r->r, PACKED_SIZE, (size_t)r->count, out) != (size_t)r->count)
                die("cannot write %s", o.out);
            written += r->count;
            fresh += r->count;
            free(r->r);
            r->r = NULL;
            first_pending++;
            wrote = true;
        }
        if (wrote) {
            if (fflush(out) != 0)
                die("cannot write %s", o.out);
            write_progress(progress_path, signature, first_pending, written);
        }
        double now = clock_seconds();
        if (now - last_report >= 1 || first_pending == total) {
            last_report = now;
            double rate = fresh / (now - start > 0 ? now - start : 1);
            int jobs_done = first_pending - next;
            double eta = jobs_done > 0 ? (now - start) / jobs_done * (total - first_pending) : 0;
            fprintf(stderr, "\rgames %d/%d, %ld positions, %.0f positions/s, ETA %d:%02d:%02d   ", first_pending, total,
                    written, rate, (int)eta / 3600, (int)eta / 60 % 60, (int)eta % 60);
        }
    }
    for (int i = 0; i < nw; i++) {
        if (interrupted)
            kill(w[i].pid, SIGTERM);
        int32_t stop = -1;
        write_all(w[i].to, &stop, sizeof stop);
        close(w[i].to);
        close(w[i].from);
    }
    for (int i = 0; i < nw; i++)
        waitpid(w[i].pid, NULL, 0);
    fclose(out);
    fprintf(stderr, "\n");
    if (interrupted) {
        fprintf(stderr,
                "stopped after %d of %d jobs (%ld positions in %s); go on with the same command and "
                "--continue\n",
                first_pending, total, written, o.out);
        return 1;
    }
    fprintf(stderr, "%d jobs, %ld positions in %s, %.1f s\n", total, written, o.out, clock_seconds() - start);
    return 0;
}

/* janggun-match: the command line. Reads the options (one table, engine/base/cli_options.h) into a
 * MatchConfig and runs the tournament (match.h), whose every result the referee of engine/game.h decides,
 * or, with --solve, into a SolveConfig for the positions test (solve.h). */
#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/position.h"
#include "../../engine/base/base.h"
#include "../../engine/base/cli_options.h"
#include "../../engine/base/version.h"
#include "match.h"
#include "solve.h"

enum { MAX_ENGINES = 64 };

/* The command line as read: the configuration and the words of each engine. */
typedef struct {
    MatchConfig cfg;
    CliWords engines[MAX_ENGINES], each;
    int engine_count;
    bool openings_given;
} MatchArgs;

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_error_v("janggun-match", fmt, ap);
    va_end(ap);
    return 2;
}

/* The value of `key=` in a word, or NULL. */
static const char *value_of(const char *word, const char *key)
{
    size_t n = strlen(key);
    return strncmp(word, key, n) == 0 && word[n] == '=' ? word + n + 1 : NULL;
}

/* An option action's refusal (engine/base/cli_options.h): the message in err, false. */
__attribute__((format(printf, 3, 4))) static bool refuse(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return false;
}

/* The option actions: each occurrence of --engine, --openings, --sprt, --resign and --draw, in order. */

static bool add_engine(const CliOption *option, char **words, int count, void *context, char *err, size_t err_size)
{
    (void)option;
    MatchArgs *a = context;
    if (a->engine_count == MAX_ENGINES)
        return refuse(err, err_size, "at most %d engines", MAX_ENGINES);
    a->engines[a->engine_count++] = (CliWords){words, count};
    return true;
}

static bool read_openings(const CliOption *option, char **words, int count, void *context, char *err, size_t err_size)
{
    (void)option;
    ((MatchArgs *)context)->openings_given = true;
    OpeningConfig *op = &((MatchArgs *)context)->cfg.openings;
    bool format_given = false;
    long long plies;
    for (int k = 0; k < count; k++) {
        const char *w = words[k], *x;
        if (strcmp(w, "setups") == 0)
            op->source = OPENINGS_SETUPS;
        else if (strcmp(w, "builtin") == 0)
            op->source = OPENINGS_BUILTIN;
        else if (strcmp(w, "startpos") == 0)
            op->source = OPENINGS_STARTPOS;
        else if ((x = value_of(w, "file"))) {
            op->path = x;
            if (!format_given) {
                size_t len = strlen(x);
                if (len > 3 && strcmp(x + len - 3, ".xz") == 0)
                    len -= 3; /* the format is the compressed file's */
                bool json = (len > 6 && strncmp(x + len - 6, ".jsonl", 6) == 0)
                            || (len > 5 && strncmp(x + len - 5, ".json", 5) == 0);
                op->source = json ? OPENINGS_JSONL : OPENINGS_EPD;
            }
        } else if ((x = value_of(w, "format"))) {
            format_given = true;
            if (strcmp(x, "epd") == 0)
                op->source = OPENINGS_EPD;
            else if (strcmp(x, "jsonl") == 0)
                op->source = OPENINGS_JSONL;
            else
                return refuse(err, err_size, "--openings format must be epd or jsonl, not '%s'", x);
        } else if ((x = value_of(w, "plies"))) {
            if (!cli_parse_int(x, 0, 2000, &plies))
                return refuse(err, err_size, "--openings plies must be a number from 0 to 2000, not '%s'", x);
            op->plies = (int)plies;
        } else if ((x = value_of(w, "order"))) {
            if (strcmp(x, "random") != 0 && strcmp(x, "sequential") != 0)
                return refuse(err, err_size, "--openings order must be random or sequential, not '%s'", x);
            op->random = x[0] == 'r';
        } else {
            return refuse(err, err_size,
                          "--openings takes file=, format=, plies=, order=, builtin, setups or startpos, not '%s'", w);
        }
    }
    if ((op->source == OPENINGS_EPD || op->source == OPENINGS_JSONL) && !op->path)
        return refuse(err, err_size, "--openings format=... needs file=PATH");
    return true;
}

static bool read_sprt(const CliOption *option, char **words, int count, void *context, char *err, size_t err_size)
{
    (void)option;
    MatchConfig *cfg = &((MatchArgs *)context)->cfg;
    cfg->sprt_enabled = true;
    for (int k = 0; k < count; k++) {
        const char *w = words[k], *x;
        double *target = (x = value_of(w, "elo0"))    ? &cfg->sprt.elo0
                         : (x = value_of(w, "elo1"))  ? &cfg->sprt.elo1
                         : (x = value_of(w, "alpha")) ? &cfg->sprt.alpha
                         : (x = value_of(w, "beta"))  ? &cfg->sprt.beta
                                                      : NULL;
        if (!target)
            return refuse(err, err_size, "--sprt takes elo0=, elo1=, alpha=, beta=, not '%s'", w);
        if (!cli_parse_real(x, -DBL_MAX, DBL_MAX, target))
            return refuse(err, err_size, "--sprt: '%s' is not a number", w);
    }
    if (!(cfg->sprt.elo1 > cfg->sprt.elo0))
        return refuse(err, err_size, "--sprt needs elo1 > elo0");
    if (!(cfg->sprt.alpha > 0 && cfg->sprt.alpha < 0.5 && cfg->sprt.beta > 0 && cfg->sprt.beta < 0.5))
        return refuse(err, err_size, "--sprt alpha and beta must be between 0 and 0.5");
    return true;
}

/* --resign and --draw. */
static bool read_adjudication(const CliOption *option, char **words, int count, void *context, char *err,
                              size_t err_size)
{
    MatchConfig *cfg = &((MatchArgs *)context)->cfg;
    const char *opt = option->name;
    bool resign = opt[2] == 'r';
    int *movenumber = resign ? NULL : &cfg->draw.movenumber;
    int *movecount = resign ? &cfg->resign.movecount : &cfg->draw.movecount;
    int *score = resign ? &cfg->resign.score : &cfg->draw.score;
    *movecount = -1, *score = -1;
    for (int k = 0; k < count; k++) {
        const char *w = words[k], *x;
        int *target = (x = value_of(w, "movecount"))                 ? movecount
                      : (x = value_of(w, "score"))                   ? score
                      : (!resign && (x = value_of(w, "movenumber"))) ? movenumber
                                                                     : NULL;
        long long v;
        if (!target)
            return refuse(err, err_size, "%s takes %s, not '%s'", opt,
                          resign ? "movecount= and score=" : "movenumber=, movecount= and score=", w);
        if (!cli_parse_int(x, 0, 1000000, &v))
            return refuse(err, err_size, "%s: '%s' must be a whole number from 0", opt, w);
        *target = (int)v;
    }
    if (*movecount < 1 || *score < 0)
        return refuse(err, err_size, "%s needs movecount=N (at least 1) and score=CP", opt);
    if (resign)
        cfg->resign.enabled = true;
    else
        cfg->draw.enabled = true;
    return true;
}

/* --save-openings: the book as EPD, with the command that made it at the top. */
static int write_openings(const MatchConfig *cfg, const char *path, int argc, char **argv)
{
    OpeningBook book;
    char err[400];
    if (!openings_load(&cfg->openings, cfg->rules, &book, err, sizeof err))
        return fail("%s", err);
    char header[2048];
    size_t used = (size_t)snprintf(header, sizeof header,
                                   "Openings for janggun-match: %d positions from %s under %s rules, %s.\n"
                                   "Left out: %d already over, %d too short, %d illegal under %s rules, %d reaching a "
                                   "position already in the list.\nMade by:",
                                   book.count, openings_source_text(&cfg->openings), cfg->rules->name,
                                   cfg->openings.random ? "shuffled" : "in file order", book.skipped_over,
                                   book.skipped_short, book.skipped_illegal, cfg->rules->name, book.duplicates);
    for (int i = 0; i < argc && used < sizeof header; i++)
        used += (size_t)snprintf(header + used, sizeof header - used, " %s", i ? argv[i] : "janggun-match");
    FILE *out = fopen(path, "w");
    bool ok = out && openings_write(&book, header, out);
    if (out && fclose(out) != 0)
        ok = false;
    int count = book.count;
    openings_free(&book);
    if (!ok)
        return fail("cannot write '%s': %s", path, strerror(errno));
    printf("%d openings written to %s\n", count, path);
    return 0;
}

int main(int argc, char **argv)
{
    engine_init();
    MatchArgs a = {.each = {NULL, 0}};
    MatchConfig *cfg = &a.cfg;
    cfg->format = FORMAT_ROUND_ROBIN;
    cfg->games = 2;
    cfg->concurrency = 1;
    cfg->rules = &RULES_JANGGI;
    cfg->tc.kind = TC_NONE;
    cfg->tc.margin_ms = 100;
    cfg->timeout_ms = 30000;
    cfg->openings.source = OPENINGS_BUILTIN;
    cfg->openings.random = true;
    cfg->openings.seed = 1;
    cfg->event = "janggun-match";
    cfg->sprt = (SprtConfig){0, 5, 0.05, 0.05};

    const char *tc = NULL, *st = NULL, *timeout = NULL, *save_openings = NULL, *solve = NULL, *failed = NULL;
    int64_t nodes = 0, seed = 1;
    int margin = 100, format = 0, variant = 0;
    bool version = false;
    static const char *const variants[] = {"janggi", "janggitraditional", "janggimodern", "janggicasual", NULL};
    const CliOption options[] = {
        {.name = "--engine",
         .kind = CLI_WORDS,
         .action = add_engine,
         .value_name = "cmd=CMD [name=NAME] [proto=uci|ucci] [dir=DIR] [stderr=FILE] [option.NAME=VALUE ...]",
         .help = "one engine (give two or more)"},
        {.name = "--each",
         .kind = CLI_WORDS,
         .words = &a.each,
         .value_name = "KEY=VALUE ...",
         .help = "words for every engine, before its own"},
        {.name = "--tc",
         .kind = CLI_STRING,
         .text = &tc,
         .value_name = "[MOVES/]BASE[+INC]",
         .help = "a clock per side, in seconds (10+0.1, 40/60)"},
        {.name = "--st", .kind = CLI_STRING, .text = &st, .value_name = "SECONDS", .help = "a fixed time per move"},
        {.name = "--nodes",
         .kind = CLI_INT64,
         .integer64 = &nodes,
         .min = 1,
         .max = 1000000000000LL,
         .value_name = "N",
         .help = "a fixed number of nodes per move"},
        {.name = "--depth",
         .kind = CLI_INT,
         .integer = &cfg->tc.depth,
         .min = 1,
         .max = 127,
         .value_name = "N",
         .help = "a fixed depth per move"},
        {.name = "--margin",
         .kind = CLI_INT,
         .integer = &margin,
         .min = 0,
         .max = 3600000,
         .value_name = "MS",
         .help = "how late past its time a move may come (default 100)"},
        {.name = "--timeout",
         .kind = CLI_STRING,
         .text = &timeout,
         .value_name = "SECONDS",
         .help = "for the handshake, isready and a move without a clock (default 30)"},
        {.name = "--games",
         .kind = CLI_INT,
         .integer = &cfg->games,
         .min = 1,
         .max = 10000000,
         .value_name = "N",
         .help = "games of each pairing of engines (default 2)"},
        {.name = "--format",
         .kind = CLI_CHOICE,
         .choice = &format,
         .choices = (const char *const[]){"roundrobin", "round-robin", "gauntlet", NULL},
         .value_name = "roundrobin|gauntlet",
         .help = "every pair, or the first engine against each other one"},
        {.name = "--concurrency",
         .kind = CLI_INT,
         .integer = &cfg->concurrency,
         .min = 1,
         .max = 256,
         .value_name = "N",
         .help = "games at once (default 1)"},
        {.name = "--variant",
         .kind = CLI_CHOICE,
         .choice = &variant,
         .choices = variants,
         .value_name = "NAME",
         .help = "janggi (default), janggitraditional, janggimodern or janggicasual"},
        {.name = "--openings",
         .kind = CLI_WORDS,
         .action = read_openings,
         .value_name = "file=PATH [format=epd|jsonl] [plies=N] [order=random|sequential] | builtin | setups | startpos",
         .help = "where the games start (default builtin)"},
        {.name = "--seed",
         .kind = CLI_INT64,
         .integer64 = &seed,
         .min = 0,
         .max = CLI_NO_MAX,
         .value_name = "N",
         .help = "the shuffle of the openings (default 1)"},
        {.name = "--save-openings",
         .kind = CLI_STRING,
         .text = &save_openings,
         .value_name = "FILE",
         .help = "write the openings as EPD and exit"},
        {.name = "--pgn",
         .kind = CLI_STRING,
         .text = &cfg->pgn_path,
         .value_name = "FILE",
         .help = "the games in PGN (appended to)"},
        {.name = "--log",
         .kind = CLI_STRING,
         .text = &cfg->log_path,
         .value_name = "FILE",
         .help = "every line to and from the engines (appended to)"},
        {.name = "--event",
         .kind = CLI_STRING,
         .text = &cfg->event,
         .value_name = "NAME",
         .help = "the PGN Event tag (default janggun-match)"},
        {.name = "--resign",
         .kind = CLI_WORDS,
         .action = read_adjudication,
         .value_name = "movecount=N score=CP",
         .help = "adjudicate a loss"},
        {.name = "--draw",
         .kind = CLI_WORDS,
         .action = read_adjudication,
         .value_name = "movenumber=N movecount=N score=CP",
         .help = "adjudicate a draw"},
        {.name = "--sprt",
         .kind = CLI_WORDS,
         .action = read_sprt,
         .value_name = "elo0=E elo1=E [alpha=A] [beta=B]",
         .help = "stop when a pentanomial SPRT decides (alpha, beta 0.05)"},
        {.name = "--solve",
         .kind = CLI_STRING,
         .text = &solve,
         .value_name = "FILE",
         .help = "count the EPD positions (bm) each engine solves, instead of playing games"},
        {.name = "--failed",
         .kind = CLI_STRING,
         .text = &failed,
         .value_name = "FILE",
         .help = "with --solve: write the positions not solved, a line per engine and position"},
        {.name = "--version", .kind = CLI_FLAG, .flag = &version, .help = "print the version"},
    };
    const CliCommand cmd = {
        "janggun-match",
        "usage: janggun-match --engine cmd=CMD [KEY=VALUE ...] --engine ... [--engine ...] [OPTIONS]\n"
        "       janggun-match --openings ... [--variant NAME] --save-openings FILE\n"
        "       janggun-match --solve FILE.epd --engine cmd=CMD [KEY=VALUE ...] [--engine ...] [OPTIONS]\n"
        "       janggun-match --version | --help\n",
        "Each move is limited by --tc or --st, --nodes or --depth (one at least). Times are in seconds (--margin\n"
        "in milliseconds). --games counts the games of each pairing of engines; each opening is played twice with\n"
        "colours reversed. Without --openings the games start from the built-in openings:\n"
        "bench/data/openings.epd, the first 8 plies of real games, shuffled with --seed. An openings file may be\n"
        "EPD (`FEN` or `FEN moves M1 M2 ...`) or JSON lines of games (the \"start_fen\" and \"moves\" of each, as\n"
        "bench/data/games.jsonl.xz), plain or xz-compressed; corpus games that are illegal under the --variant\n"
        "rules are left out and counted. --solve puts each position of an EPD file (`FEN bm M1 M2; id \"N\";`)\n"
        "to each engine in turn, one at a time, limited by --st, --nodes or --depth, and counts the bestmoves\n"
        "among the bm moves. See README.md.\n",
        options, CLI_COUNT(options)};
    int status = cli_read_options(&cmd, argc - 1, argv + 1, &a);
    if (status >= 0)
        return status;
    if (version) {
        printf("janggun-match (Janggun %s)\n", janggun_version);
        return 0;
    }
    char err[256];
    if (tc && !tc_parse_clock(tc, &cfg->tc, err, sizeof err))
        return fail("--tc: %s", err);
    if (st && !tc_parse_seconds(st, &cfg->tc.movetime_ms))
        return fail("--st must be a positive number of seconds, not '%s'", st);
    if (timeout && !tc_parse_seconds(timeout, &cfg->timeout_ms))
        return fail("--timeout must be a positive number of seconds, not '%s'", timeout);
    cfg->tc.nodes = nodes;
    cfg->tc.margin_ms = margin;
    cfg->format = format == 2 ? FORMAT_GAUNTLET : FORMAT_ROUND_ROBIN;
    cfg->rules = rules_by_name(variants[variant]);
    cfg->openings.seed = (uint64_t)seed;
    if (save_openings && !solve)
        return write_openings(cfg, save_openings, argc, argv);
    if (tc && st)
        return fail("give --tc or --st, not both");
    if (st)
        cfg->tc.kind = TC_MOVETIME;
    if (solve) {
        /* The options of games that a positions test would silently ignore are refused. */
        const char *unused = tc                                    ? "--tc"
                             : save_openings                       ? "--save-openings"
                             : a.openings_given                    ? "--openings"
                             : cfg->games != 2                     ? "--games"
                             : format != 0                         ? "--format"
                             : cfg->concurrency != 1               ? "--concurrency"
                             : seed != 1                           ? "--seed"
                             : cfg->pgn_path                       ? "--pgn"
                             : strcmp(cfg->event, "janggun-match") ? "--event"
                             : cfg->resign.enabled                 ? "--resign"
                             : cfg->draw.enabled                   ? "--draw"
                             : cfg->sprt_enabled                   ? "--sprt"
                                                                   : NULL;
        if (unused)
            return fail("--solve plays no games and runs one engine at a time: %s does not apply", unused);
        if (!st && !cfg->tc.nodes && !cfg->tc.depth)
            return fail("nothing limits a search: give --st, --nodes or --depth");
        if (a.engine_count < 1)
            return fail("give at least one engine (--engine cmd=... ...)");
    } else {
        if (failed)
            return fail("--failed needs --solve");
        if (!tc && !st && !cfg->tc.nodes && !cfg->tc.depth)
            return fail("nothing limits a move: give --tc, --st, --nodes or --depth");
        if (a.engine_count < 2)
            return fail("give at least two engines (--engine cmd=... ...)");
    }

    PlayerSpec specs[MAX_ENGINES];
    memset(specs, 0, sizeof specs);
    status = 2;
    for (int e = 0; e < a.engine_count; e++) {
        for (int k = 0; k < a.each.count + a.engines[e].count; k++) {
            const char *w = k < a.each.count ? a.each.words[k] : a.engines[e].words[k - a.each.count];
            if (!player_spec_set(&specs[e], w, err, sizeof err)) {
                fail("engine %d: %s", e + 1, err);
                goto out;
            }
        }
        if (!player_spec_finish(&specs[e], e, err, sizeof err)) {
            fail("%s", err);
            goto out;
        }
        for (int o = 0; o < e; o++)
            if (strcmp(specs[o].name, specs[e].name) == 0) {
                fail("engines %d and %d are both named '%s'; give them different name=...", o + 1, e + 1,
                     specs[e].name);
                goto out;
            }
    }
    if (solve) {
        SolveConfig sc = {.path = solve,
                          .failed_path = failed,
                          .log_path = cfg->log_path,
                          .players = specs,
                          .player_count = a.engine_count,
                          .rules = cfg->rules,
                          .tc = cfg->tc,
                          .timeout_ms = cfg->timeout_ms};
        status = solve_run(&sc);
        goto out;
    }
    cfg->players = specs;
    cfg->player_count = a.engine_count;
    if (cfg->sprt_enabled && (a.engine_count != 2))
        fail("--sprt needs exactly two engines");
    else
        status = match_run(cfg);
out:
    for (int e = 0; e < a.engine_count; e++)
        player_spec_free(&specs[e]);
    return status;
}

/* janggun-match: the command line. Reads the options into a MatchConfig and runs the tournament
 * (match.h); every result is decided by the referee of engine/game.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/position.h"
#include "../../engine/base/base.h"
#include "../../engine/base/version.h"
#include "match.h"

static void usage(FILE *out)
{
    fputs("usage: janggun-match --engine cmd=CMD [name=NAME] [proto=uci|ucci] [dir=DIR] [stderr=FILE]\n"
          "                              [option.NAME=VALUE ...]\n"
          "                     --engine ... [--engine ...] [--each KEY=VALUE ...]\n"
          "                     [--tc [MOVES/]BASE[+INC] | --st SECONDS] [--nodes N] [--depth N]\n"
          "                     [--margin MS] [--timeout SECONDS]\n"
          "                     [--games N] [--format roundrobin|gauntlet] [--concurrency N]\n"
          "                     [--variant janggi|janggitraditional|janggimodern|janggicasual]\n"
          "                     [--openings file=PATH [format=epd|jsonl] [plies=N] [order=random|sequential]\n"
          "                                 | builtin | setups | startpos] [--seed N]\n"
          "                     [--pgn FILE] [--log FILE] [--event NAME]\n"
          "                     [--resign movecount=N score=CP] [--draw movenumber=N movecount=N score=CP]\n"
          "                     [--sprt elo0=E elo1=E [alpha=A] [beta=B]]\n"
          "       janggun-match --openings ... [--variant NAME] --save-openings FILE\n"
          "       janggun-match --version | --help\n"
          "Times are in seconds (--margin in milliseconds). --games counts the games of each pairing of\n"
          "engines; each opening is played twice with colours reversed. Without --openings the games start\n"
          "from the built-in openings: bench/data/openings.epd, the first 8 plies of real games, shuffled\n"
          "with --seed. An openings file may be EPD (`FEN [moves ...]`) or JSON lines of games (the\n"
          "\"start_fen\" and \"moves\" of each, as bench/data/games.jsonl.xz), plain or xz-compressed; corpus\n"
          "games that are illegal under the --variant rules are left out and counted. --save-openings\n"
          "writes the openings as EPD and exits. See README.md.\n",
          out);
}

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_error_v("janggun-match", fmt, ap);
    va_end(ap);
    return 2;
}

/* A whole number in [lo, hi]. */
static bool parse_long(const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!*text || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (!*text || *end || errno || v != v)
        return false;
    *out = v;
    return true;
}

/* The KEY=VALUE words after an option, up to the next word that begins with "--". */
static int count_words(int argc, char **argv, int i)
{
    int n = 0;
    while (i + n < argc && strncmp(argv[i + n], "--", 2) != 0)
        n++;
    return n;
}

/* The value of `key=` in a word, or NULL. */
static const char *value_of(const char *word, const char *key)
{
    size_t n = strlen(key);
    return strncmp(word, key, n) == 0 && word[n] == '=' ? word + n + 1 : NULL;
}

typedef struct {
    char **words;
    int count;
} WordList;

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
    MatchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.format = FORMAT_ROUND_ROBIN;
    cfg.games = 2;
    cfg.concurrency = 1;
    cfg.rules = &RULES_JANGGI;
    cfg.tc.kind = TC_NONE;
    cfg.tc.margin_ms = 100;
    cfg.timeout_ms = 30000;
    cfg.openings.source = OPENINGS_BUILTIN;
    cfg.openings.random = true;
    cfg.openings.seed = 1;
    cfg.event = "janggun-match";
    cfg.sprt = (SprtConfig){0, 5, 0.05, 0.05};

    WordList engines[64], each = {NULL, 0};
    int engine_count = 0;
    bool have_tc = false, have_st = false;
    const char *save_openings = NULL;
    long v;
    char err[256];
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        int n = count_words(argc, argv, i + 1);
        char **words = argv + i + 1;
        const char *arg = n >= 1 ? words[0] : NULL;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(opt, "--version") == 0) {
            printf("janggun-match (Janggun %s)\n", janggun_version);
            return 0;
        }
        if (strcmp(opt, "--engine") == 0 || strcmp(opt, "--each") == 0) {
            if (n == 0)
                return fail("%s needs KEY=VALUE words (cmd=..., name=..., proto=..., option.NAME=...)", opt);
            if (opt[2] == 'e' && opt[3] == 'a') {
                each = (WordList){words, n};
            } else {
                if (engine_count == 64)
                    return fail("at most 64 engines");
                engines[engine_count++] = (WordList){words, n};
            }
            i += n;
            continue;
        }
        if (strcmp(opt, "--openings") == 0 || strcmp(opt, "--resign") == 0 || strcmp(opt, "--draw") == 0
            || strcmp(opt, "--sprt") == 0) {
            if (n == 0)
                return fail("%s needs KEY=VALUE words", opt);
            if (strcmp(opt, "--openings") == 0) {
                bool format_given = false;
                for (int k = 0; k < n; k++) {
                    const char *w = words[k], *x;
                    if (strcmp(w, "setups") == 0)
                        cfg.openings.source = OPENINGS_SETUPS;
                    else if (strcmp(w, "builtin") == 0)
                        cfg.openings.source = OPENINGS_BUILTIN;
                    else if (strcmp(w, "startpos") == 0)
                        cfg.openings.source = OPENINGS_STARTPOS;
                    else if ((x = value_of(w, "file"))) {
                        cfg.openings.path = x;
                        if (!format_given) {
                            size_t len = strlen(x);
                            if (len > 3 && strcmp(x + len - 3, ".xz") == 0)
                                len -= 3; /* the format is the compressed file's */
                            bool json = (len > 6 && strncmp(x + len - 6, ".jsonl", 6) == 0)
                                        || (len > 5 && strncmp(x + len - 5, ".json", 5) == 0);
                            cfg.openings.source = json ? OPENINGS_JSONL : OPENINGS_EPD;
                        }
                    } else if ((x = value_of(w, "format"))) {
                        format_given = true;
                        if (strcmp(x, "epd") == 0)
                            cfg.openings.source = OPENINGS_EPD;
                        else if (strcmp(x, "jsonl") == 0)
                            cfg.openings.source = OPENINGS_JSONL;
                        else
                            return fail("--openings format must be epd or jsonl, not '%s'", x);
                    } else if ((x = value_of(w, "plies"))) {
                        if (!parse_long(x, 0, 2000, &v))
                            return fail("--openings plies must be a number from 0 to 2000, not '%s'", x);
                        cfg.openings.plies = (int)v;
                    } else if ((x = value_of(w, "order"))) {
                        if (strcmp(x, "random") != 0 && strcmp(x, "sequential") != 0)
                            return fail("--openings order must be random or sequential, not '%s'", x);
                        cfg.openings.random = x[0] == 'r';
                    } else {
                        return fail("--openings takes file=, format=, plies=, order=, builtin, setups or startpos, not '%s'", w);
                    }
                }
                if ((cfg.openings.source == OPENINGS_EPD || cfg.openings.source == OPENINGS_JSONL) && !cfg.openings.path)
                    return fail("--openings format=... needs file=PATH");
            } else if (strcmp(opt, "--sprt") == 0) {
                cfg.sprt_enabled = true;
                for (int k = 0; k < n; k++) {
                    const char *w = words[k], *x;
                    double *target = (x = value_of(w, "elo0")) ? &cfg.sprt.elo0
                                     : (x = value_of(w, "elo1")) ? &cfg.sprt.elo1
                                     : (x = value_of(w, "alpha")) ? &cfg.sprt.alpha
                                     : (x = value_of(w, "beta")) ? &cfg.sprt.beta : NULL;
                    if (!target)
                        return fail("--sprt takes elo0=, elo1=, alpha=, beta=, not '%s'", w);
                    if (!parse_double(x, target))
                        return fail("--sprt: '%s' is not a number", w);
                }
                if (!(cfg.sprt.elo1 > cfg.sprt.elo0))
                    return fail("--sprt needs elo1 > elo0");
                if (!(cfg.sprt.alpha > 0 && cfg.sprt.alpha < 0.5 && cfg.sprt.beta > 0 && cfg.sprt.beta < 0.5))
                    return fail("--sprt alpha and beta must be between 0 and 0.5");
            } else {
                bool resign = opt[2] == 'r';
                int *movenumber = resign ? NULL : &cfg.draw.movenumber;
                int *movecount = resign ? &cfg.resign.movecount : &cfg.draw.movecount;
                int *score = resign ? &cfg.resign.score : &cfg.draw.score;
                *movecount = -1, *score = -1;
                for (int k = 0; k < n; k++) {
                    const char *w = words[k], *x;
                    int *target = (x = value_of(w, "movecount")) ? movecount
                                  : (x = value_of(w, "score")) ? score
                                  : (!resign && (x = value_of(w, "movenumber"))) ? movenumber : NULL;
                    if (!target)
                        return fail("%s takes %s, not '%s'", opt,
                                    resign ? "movecount= and score=" : "movenumber=, movecount= and score=", w);
                    if (!parse_long(x, 0, 1000000, &v))
                        return fail("%s: '%s' must be a whole number from 0", opt, w);
                    *target = (int)v;
                }
                if (*movecount < 1 || *score < 0)
                    return fail("%s needs movecount=N (at least 1) and score=CP", opt);
                if (resign)
                    cfg.resign.enabled = true;
                else
                    cfg.draw.enabled = true;
            }
            i += n;
            continue;
        }
        /* Options with exactly one value. */
        if (n != 1) {
            if (strncmp(opt, "--", 2) != 0)
                return fail("unexpected '%s' (options begin with --; see --help)", opt);
            return fail("%s needs one value", opt);
        }
        i++;
        if (strcmp(opt, "--tc") == 0) {
            if (!tc_parse_clock(arg, &cfg.tc, err, sizeof err))
                return fail("--tc: %s", err);
            have_tc = true;
        } else if (strcmp(opt, "--st") == 0) {
            if (!tc_parse_seconds(arg, &cfg.tc.movetime_ms))
                return fail("--st must be a positive number of seconds, not '%s'", arg);
            have_st = true;
        } else if (strcmp(opt, "--nodes") == 0) {
            if (!parse_long(arg, 1, 1000000000000L, &cfg.tc.nodes))
                return fail("--nodes must be a positive number, not '%s'", arg);
        } else if (strcmp(opt, "--depth") == 0) {
            if (!parse_long(arg, 1, 127, &v))
                return fail("--depth must be a number from 1 to 127, not '%s'", arg);
            cfg.tc.depth = (int)v;
        } else if (strcmp(opt, "--margin") == 0) {
            if (!parse_long(arg, 0, 3600000, &cfg.tc.margin_ms))
                return fail("--margin must be a number of milliseconds from 0, not '%s'", arg);
        } else if (strcmp(opt, "--timeout") == 0) {
            if (!tc_parse_seconds(arg, &cfg.timeout_ms))
                return fail("--timeout must be a positive number of seconds, not '%s'", arg);
        } else if (strcmp(opt, "--games") == 0) {
            if (!parse_long(arg, 1, 10000000, &v))
                return fail("--games must be a number from 1, not '%s'", arg);
            cfg.games = (int)v;
        } else if (strcmp(opt, "--concurrency") == 0) {
            if (!parse_long(arg, 1, 256, &v))
                return fail("--concurrency must be a number from 1 to 256, not '%s'", arg);
            cfg.concurrency = (int)v;
        } else if (strcmp(opt, "--format") == 0) {
            if (strcmp(arg, "roundrobin") == 0 || strcmp(arg, "round-robin") == 0)
                cfg.format = FORMAT_ROUND_ROBIN;
            else if (strcmp(arg, "gauntlet") == 0)
                cfg.format = FORMAT_GAUNTLET;
            else
                return fail("--format must be roundrobin or gauntlet, not '%s'", arg);
        } else if (strcmp(opt, "--variant") == 0) {
            if (!(cfg.rules = rules_by_name(arg)))
                return fail("--variant must be janggi, janggitraditional, janggimodern or janggicasual, not '%s'", arg);
        } else if (strcmp(opt, "--seed") == 0) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(arg, &end, 10);
            if (!*arg || *end || errno || *arg == '-')
                return fail("--seed must be a whole number, not '%s'", arg);
            cfg.openings.seed = s;
        } else if (strcmp(opt, "--pgn") == 0) {
            cfg.pgn_path = arg;
        } else if (strcmp(opt, "--log") == 0) {
            cfg.log_path = arg;
        } else if (strcmp(opt, "--event") == 0) {
            cfg.event = arg;
        } else if (strcmp(opt, "--save-openings") == 0) {
            save_openings = arg;
        } else {
            return fail("unknown option '%s' (see --help)", opt);
        }
    }
    if (save_openings)
        return write_openings(&cfg, save_openings, argc, argv);
    if (have_tc && have_st)
        return fail("give --tc or --st, not both");
    if (have_st)
        cfg.tc.kind = TC_MOVETIME;
    if (!have_tc && !have_st && !cfg.tc.nodes && !cfg.tc.depth)
        return fail("nothing limits a move: give --tc, --st, --nodes or --depth");
    if (engine_count < 2)
        return fail("give at least two engines (--engine cmd=... ...)");

    PlayerSpec specs[64];
    memset(specs, 0, sizeof specs);
    int status = 2;
    for (int e = 0; e < engine_count; e++) {
        for (int k = 0; k < each.count + engines[e].count; k++) {
            const char *w = k < each.count ? each.words[k] : engines[e].words[k - each.count];
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
                fail("engines %d and %d are both named '%s'; give them different name=...", o + 1, e + 1, specs[e].name);
                goto out;
            }
    }
    cfg.players = specs;
    cfg.player_count = engine_count;
    if (cfg.sprt_enabled && (engine_count != 2))
        fail("--sprt needs exactly two engines");
    else
        status = match_run(&cfg);
out:
    for (int e = 0; e < engine_count; e++)
        player_spec_free(&specs[e]);
    return status;
}

/* Runs every line of the perft reference file (tests/data/perft/janggi.epd) at every depth it lists
 * up to JANGGUN_PERFT_MAX_DEPTH (1 to 10, default 4), one cmocka test per line; a line must compare
 * at least one depth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/perft.h"
#include "support.h"

enum { MAX_LINES = 512, MAX_DEPTHS = 8 };

typedef struct {
    char fen[256];
    char variant[32];
    int depth_count;
    int depth[MAX_DEPTHS];
    uint64_t nodes[MAX_DEPTHS];
    char name[320];
} PerftCase;

static int max_depth = 4;

static void test_perft_line(void **state)
{
    const PerftCase *c = *state;
    const RuleSet *rules = rules_by_name(c->variant);
    assert_non_null(rules);
    Position pos;
    char err[160] = "";
    /* FSF's own test positions include one with three chariots. */
    if (!position_set_fen(&pos, c->fen, rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
        fail_msg("FEN rejected: %s", err);
    int compared = 0;
    for (int i = 0; i < c->depth_count; i++) {
        if (c->depth[i] > max_depth)
            continue;
        compared++;
        uint64_t got = perft(&pos, c->depth[i]);
        if (got != c->nodes[i])
            fail_msg("%s ;variant %s depth %d: expected %llu, got %llu", c->fen, c->variant, c->depth[i],
                     (unsigned long long)c->nodes[i], (unsigned long long)got);
    }
    if (compared == 0)
        fail_msg("%s ;variant %s: no listed depth is at most %d, nothing compared", c->fen, c->variant, max_depth);
}

static int parse_line(char *line, PerftCase *c)
{
    char *semi = strchr(line, ';');
    if (!semi)
        return 0;
    size_t len = (size_t)(semi - line);
    while (len && line[len - 1] == ' ')
        len--;
    if (len >= sizeof c->fen)
        return 0;
    memcpy(c->fen, line, len);
    c->fen[len] = '\0';
    strcpy(c->variant, "janggi");
    c->depth_count = 0;
    for (char *op = strtok(semi + 1, ";"); op; op = strtok(NULL, ";")) {
        int d;
        unsigned long long n;
        char name[32];
        if (sscanf(op, " variant %31s", name) == 1)
            strcpy(c->variant, name);
        else if (sscanf(op, " D%d %llu", &d, &n) == 2 && c->depth_count < MAX_DEPTHS) {
            c->depth[c->depth_count] = d;
            c->nodes[c->depth_count++] = n;
        }
    }
    return c->depth_count > 0;
}

int main(void)
{
    engine_init();
    const char *env = getenv("JANGGUN_PERFT_MAX_DEPTH");
    if (env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*env == '\0' || *end != '\0' || v < 1 || v > 10) {
            fprintf(stderr, "test_perft: JANGGUN_PERFT_MAX_DEPTH must be a number from 1 to 10, not '%s'\n", env);
            return 1;
        }
        max_depth = (int)v;
    }
    char path[1200];
    test_data_path(path, sizeof path, TEST_PERFT_FILE);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "test_perft: cannot open %s\n", path);
        return 1;
    }
    static PerftCase cases[MAX_LINES];
    static struct CMUnitTest tests[MAX_LINES];
    int n = 0;
    char line[1024];
    for (int lineno = 1; fgets(line, sizeof line, f) && n < MAX_LINES; lineno++) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (!parse_line(line, &cases[n]))
            continue;
        char name[sizeof cases[n].name];
        snprintf(name, sizeof name, "line %d %s: %s", lineno, cases[n].variant, cases[n].fen);
        memcpy(cases[n].name, name, sizeof name);
        tests[n] = (struct CMUnitTest){cases[n].name, test_perft_line, NULL, NULL, &cases[n]};
        n++;
    }
    fclose(f);
    if (n < 60) {
        fprintf(stderr, "test_perft: only %d reference lines read from %s\n", n, path);
        return 1;
    }
    return _cmocka_run_group_tests("perft", tests, (size_t)n, NULL, NULL);
}

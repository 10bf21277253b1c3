/* Every fuzz target's inputs through its harness, built by gcc with the other tests (and run under the
 * sanitizers by make test-asan and make test-tsan), so that no clang or libFuzzer is needed to keep them
 * passing: the seed corpus (tests/fuzz/corpus/TARGET/) and the inputs of past findings
 * (tests/fuzz/regressions/TARGET/, each fixed). A harness aborts on a broken invariant, which fails this
 * program. The harnesses are included here with their entry points renamed. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/base/base.h"
#include "support.h"

#define LLVMFuzzerInitialize fuzz_fen_init
#define LLVMFuzzerTestOneInput fuzz_fen_input
#include "fuzz/fuzz_fen.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerInitialize fuzz_moves_init
#define LLVMFuzzerTestOneInput fuzz_moves_input
#include "fuzz/fuzz_moves.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerInitialize fuzz_pgn_init
#define LLVMFuzzerTestOneInput fuzz_pgn_input
#include "fuzz/fuzz_pgn.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerInitialize fuzz_gib_init
#define LLVMFuzzerTestOneInput fuzz_gib_input
#include "fuzz/fuzz_gib.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerInitialize fuzz_epd_init
#define LLVMFuzzerTestOneInput fuzz_epd_input
#include "fuzz/fuzz_epd.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerInitialize fuzz_jsonl_init
#define LLVMFuzzerTestOneInput fuzz_jsonl_input
#include "fuzz/fuzz_jsonl.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerInitialize fuzz_net_init
#define LLVMFuzzerTestOneInput fuzz_net_input
#include "fuzz/fuzz_net.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerInitialize fuzz_weights_init
#define LLVMFuzzerTestOneInput fuzz_weights_input
#include "fuzz/fuzz_weights.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerInitialize fuzz_protocol_init
#define LLVMFuzzerTestOneInput fuzz_protocol_input
#include "fuzz/fuzz_protocol.c"
#undef LLVMFuzzerInitialize
#undef LLVMFuzzerTestOneInput

typedef struct {
    const char *name;
    int (*init)(int *argc, char ***argv);
    int (*input)(const uint8_t *data, size_t size);
    int min_seeds; /* the seed corpus has at least this many inputs */
} Harness;

/* Feeds every file of `dir` (relative to the source tree) to the harness; returns how many. A missing
 * folder gives 0. */
static int feed_folder(const Harness *h, const char *dir)
{
    char path[1024];
    DIR *d = opendir(test_data_path(path, sizeof path, dir));
    if (!d)
        return 0;
    int fed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char file[1400];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        size_t len;
        char *bytes = test_read_file(file, &len);
        h->input((const uint8_t *)bytes, len); /* a broken invariant aborts, failing the program */
        free(bytes);
        fed++;
    }
    closedir(d);
    return fed;
}

static void run_harness(void **state)
{
    const Harness *h = *state;
    h->init(NULL, NULL);
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", h->name);
    int seeds = feed_folder(h, dir);
    if (seeds < h->min_seeds)
        fail_msg("%s: %d seed inputs, expected at least %d", dir, seeds, h->min_seeds);
    snprintf(dir, sizeof dir, "tests/fuzz/regressions/%s", h->name);
    feed_folder(h, dir);
}

static const Harness HARNESSES[] = {
    {"fen", fuzz_fen_init, fuzz_fen_input, 20},
    {"moves", fuzz_moves_init, fuzz_moves_input, 10},
    {"pgn", fuzz_pgn_init, fuzz_pgn_input, 5},
    {"gib", fuzz_gib_init, fuzz_gib_input, 3},
    {"epd", fuzz_epd_init, fuzz_epd_input, 5},
    {"jsonl", fuzz_jsonl_init, fuzz_jsonl_input, 5},
    {"net", fuzz_net_init, fuzz_net_input, 2},
    {"weights", fuzz_weights_init, fuzz_weights_input, 1},
    {"protocol", fuzz_protocol_init, fuzz_protocol_input, 10},
};

int main(void)
{
    struct CMUnitTest tests[sizeof HARNESSES / sizeof HARNESSES[0]];
    for (size_t i = 0; i < sizeof HARNESSES / sizeof HARNESSES[0]; i++)
        tests[i] = (struct CMUnitTest){HARNESSES[i].name, run_harness, NULL, NULL, (void *)&HARNESSES[i]};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

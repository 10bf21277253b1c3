/* Fuzz target: the weight file parser (strict: names, counts, integers, ranges). Weights it accepts are
 * used to evaluate positions, which must stay free of undefined behaviour (overflow included) at the
 * extremes of every range; the shipped weights come back after. */
#include "../../eval/internal.h"
#include "fuzz.h"

static EvalWeights shipped_weights;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    engine_init();
    char err[300];
    FUZZ_CHECK(eval_init(err, sizeof err), "%s", err);
    shipped_weights = *eval_weights();
    eval_set_use_nnue(false);
    return 0;
}

static const char *const WEIGHT_FENS[] = {
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "4ka3/4a4/9/9/9/9/9/9/4A4/3AK3R b - - 0 60",
    "2b1kab2/4a4/4c4/p1p3p1p/2n1p4/4P4/P1P3P1P/4C4/4A4/2BK1AB2 w - - 0 30",
    "r1ba1abr1/4k4/1c2n2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2N2C1/4K4/R1BA1ABR1 w - - 0 190",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    static EvalWeights w;
    char err[400];
    if (!eval_parse_weights((const char *)data, size, &w, err, sizeof err)) {
        FUZZ_CHECK(err[0] != '\0', "refused weights without a message");
        return 0;
    }
    eval_use_weights(&w);
    for (size_t i = 0; i < sizeof WEIGHT_FENS / sizeof WEIGHT_FENS[0]; i++) {
        static Position pos;
        FUZZ_CHECK(position_set_fen(&pos, WEIGHT_FENS[i], &RULES_JANGGI, FEN_STRICT, err, sizeof err), "%s", err);
        eval_evaluate(&pos);
        MoveList legal;
        movegen_legal(&pos, &legal);
        for (int k = 0; k < legal.count; k++) {
            StateInfo st;
            position_make(&pos, legal.moves[k], &st);
            eval_evaluate(&pos);
            position_unmake(&pos);
        }
    }
    eval_use_weights(&shipped_weights);
    return 0;
}

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
    fuzz_init_engine_and_eval();
    shipped_weights = *eval_weights();
    eval_set_use_nnue(false);
    return 0;
}

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
    for (int i = 0; i < FUZZ_SAMPLE_COUNT; i++) {
        static Position pos;
        FUZZ_CHECK(position_set_fen(&pos, fuzz_sample_fen(i), &RULES_JANGGI, FEN_STRICT, err, sizeof err), "%s", err);
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

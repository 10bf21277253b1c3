/* Fuzz target: the FEN reader under every rule set, strict and with extra pieces. A FEN it accepts must
 * give a position that passes the invariants (its legal moves too), and be written back as a FEN that
 * reads again, strictly, to the same position and is written back identically. */
#include "fuzz.h"

FUZZ_INIT_ENGINE_ONLY

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *fen = fuzz_text(data, size);
    for (int r = 0; r < 4; r++)
        for (int flags = 0; flags < 2; flags++) {
            static Position pos, again;
            char err[200];
            if (!position_set_fen(&pos, fen, rules_all[r], (FenFlags)flags, err, sizeof err)) {
                FUZZ_CHECK(err[0] != '\0', "a refused FEN without a message");
                continue;
            }
            fuzz_check_position(&pos);
            char written[256], rewritten[256];
            position_to_fen(&pos, written, sizeof written);
            FUZZ_CHECK(position_set_fen(&again, written, rules_all[r], (FenFlags)flags, err, sizeof err),
                       "the written FEN '%s' does not read back: %s", written, err);
            position_to_fen(&again, rewritten, sizeof rewritten);
            FUZZ_CHECK(strcmp(written, rewritten) == 0, "FEN round trip: '%s' became '%s'", written, rewritten);
            FUZZ_CHECK(again.st->key == pos.st->key, "FEN round trip changed the key of '%s'", written);
        }
    free(fen);
    return 0;
}

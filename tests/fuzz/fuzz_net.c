/* Fuzz target: the net file reader. The checksum is set right before the bytes are read (otherwise
 * almost every mutation would stop there), and the bytes as given are read too. A net it accepts
 * evaluates positions without undefined behaviour and is written back byte for byte. */
#include "../../eval/nnue.h"
#include "fuzz.h"

FUZZ_INIT_ENGINE_ONLY

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    char err[400];
    NnueNet *as_given = nnue_net_read(data, size, "fuzz", err, sizeof err);
    nnue_net_free(as_given);
    unsigned char *bytes = malloc(size ? size : 1);
    FUZZ_CHECK(bytes != NULL, "out of memory");
    memcpy(bytes, data, size);
    if (size >= 20) {
        uint64_t sum = nnue_checksum(bytes, size);
        for (int i = 0; i < 8; i++)
            bytes[12 + i] = (unsigned char)(sum >> (8 * i));
    }
    NnueNet *net = nnue_net_read(bytes, size, "fuzz", err, sizeof err);
    if (net) {
        for (int i = 0; i < FUZZ_SAMPLE_COUNT; i++) {
            static Position pos;
            FUZZ_CHECK(position_set_fen(&pos, fuzz_sample_fen(i), &RULES_JANGGI, FEN_STRICT, err, sizeof err), "%s",
                       err);
            nnue_evaluate_full(net, &pos);
        }
        size_t written_size;
        unsigned char *written = nnue_net_write(net, &written_size);
        FUZZ_CHECK(written != NULL, "out of memory");
        FUZZ_CHECK(written_size == size && memcmp(written, bytes, size) == 0,
                   "a net read does not write back the same");
        free(written);
        nnue_net_free(net);
    } else {
        FUZZ_CHECK(err[0] != '\0', "a refused net without a message");
    }
    free(bytes);
    return 0;
}

/* Fuzz target: the net file reader. The checksum is set right before the bytes are read (otherwise
 * almost every mutation would stop there), and the bytes as given are read too. A net it accepts
 * evaluates positions without undefined behaviour and is written back byte for byte. */
#include "../../eval/nnue.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    engine_init();
    return 0;
}

static const char *const NET_FENS[] = {
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "4ka3/4a4/9/9/9/9/9/9/4A4/3AK3R b - - 0 60",
    "2b1kab2/4a4/4c4/p1p3p1p/2n1p4/4P4/P1P3P1P/4C4/4A4/2BK1AB2 w - - 0 30",
};

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
        for (size_t i = 0; i < sizeof NET_FENS / sizeof NET_FENS[0]; i++) {
            static Position pos;
            FUZZ_CHECK(position_set_fen(&pos, NET_FENS[i], &RULES_JANGGI, FEN_STRICT, err, sizeof err), "%s", err);
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

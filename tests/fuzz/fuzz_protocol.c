/* Fuzz target: command lines fed to the protocol loop, as a GUI would send them: UCI, UCCI after `ucci`
 * or XBoard after `xboard` (chosen by the first byte), with every search capped at a few thousand nodes,
 * perft and bench at depth 3, Hash at 4 MB and Threads at 2 (protocol_caps), so that no input waits on a
 * deep search. The loop must come back at the end of input, or at quit, from every input, without a
 * crash, a leak or undefined behaviour; the engine's settings are put back after each input. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "../../eval/eval.h"
#include "../../protocol/options.h"
#include "../../protocol/uci.h"
#include "../../search/search.h"
#include "fuzz.h"

static FILE *protocol_sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_engine_and_eval();
    search_init();
    protocol_caps = (ProtocolCaps){.nodes = 3000, .depth = 3, .hash_mb = 4, .threads = 2};
    protocol_sink = fopen("/dev/null", "w");
    FUZZ_CHECK(protocol_sink != NULL, "cannot open /dev/null");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 16384)
        return 0;
    static const char *const prefix[] = {"", "ucci\n", "xboard\nprotover 2\n"};
    const char *start = prefix[data[0] % 3];
    FILE *in = tmpfile();
    FUZZ_CHECK(in != NULL, "no temporary file");
    fputs(start, in);
    fwrite(data + 1, 1, size - 1, in);
    fflush(in);
    rewind(in);
    uci_loop(fileno(in), protocol_sink);
    fclose(in);

    char err[300];
    search_set_threads(1);
    search_set_hash(1);
    search_clear();
    eval_set_use_nnue(true);
    FUZZ_CHECK(eval_load_net(eval_embedded_net_name(), err, sizeof err), "%s", err);
    return 0;
}

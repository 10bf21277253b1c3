/* Fuzz target: the GIB reader (cp949 or UTF-8, many games, Korean move text, Kakao boards). Every game
 * it marks readable replays legally, and written back as GIB it reads again to the same moves. */
#include "../../engine/records/gib.h"
#include "fuzz.h"

FUZZ_INIT_ENGINE_ONLY

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    ParsedGameList games = {0};
    char err[300];
    if (gib_parse((const char *)data, size, &RULES_JANGGICASUAL, &games, err, sizeof err)) {
        for (int i = 0; i < games.count; i++) {
            const ParsedGame *g = &games.games[i];
            fuzz_check_record(g);
            if (!g->ok)
                continue;
            char *text = gib_game_text(g, &RULES_JANGGICASUAL);
            if (!text) /* a start GIB cannot name (not one of the four setups) */
                continue;
            ParsedGameList again = {0};
            FUZZ_CHECK(gib_parse(text, strlen(text), &RULES_JANGGICASUAL, &again, err, sizeof err),
                       "the written game cannot be decoded: %s", err);
            fuzz_check_same_record(&again, g, text);
            record_list_free(&again);
            free(text);
        }
    }
    record_list_free(&games);
    return 0;
}

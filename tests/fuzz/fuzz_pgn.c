/* Fuzz target: the PGN reader (tags, comments, variations, NAGs, SAN and coordinate moves, several games).
 * Every game it marks readable replays legally, and written back as PGN it reads again to the same start
 * and the same moves. */
#include "../../engine/records/pgn.h"
#include "fuzz.h"

FUZZ_INIT_ENGINE_ONLY

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    ParsedGameList games = {0};
    pgn_parse((const char *)data, size, &RULES_JANGGI, NULL, &games);
    for (int i = 0; i < games.count; i++) {
        const ParsedGame *g = &games.games[i];
        fuzz_check_record(g);
        if (!g->ok)
            continue;
        char *text = pgn_game_text(g, g->rules);
        FUZZ_CHECK(text != NULL, "a readable game cannot be written");
        ParsedGameList again = {0};
        pgn_parse(text, strlen(text), &RULES_JANGGI, NULL, &again);
        fuzz_check_same_record(&again, g, text);
        record_list_free(&again);
        free(text);
    }
    record_list_free(&games);
    return 0;
}

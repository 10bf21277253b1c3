/* Fuzz target: the JSON-lines reader of the real-game corpus, a line at a time, then what its users do
 * with an object it accepts: the members read, a game's `moves` array played from the start, and the
 * line read as a game record (janggun analyze --jsonl), which must replay legally when marked ok. */
#include "../../engine/records/jsonl.h"
#include "fuzz.h"

FUZZ_INIT_ENGINE_ONLY

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = fuzz_text(data, size), *cursor = text, *line;
    while ((line = record_next_line(&cursor)) != NULL) {
        JsonObject o = {0};
        char err[200];
        if (json_parse_object(line, &o, err, sizeof err)) {
            for (int i = 0; i < o.count; i++) {
                const JsonField *f = &o.fields[i];
                FUZZ_CHECK(f->key != NULL, "a member without a key");
                FUZZ_CHECK(json_get(&o, f->key) != NULL, "member '%s' cannot be found", f->key);
                if (f->type == JSON_STRING || f->type == JSON_NUMBER)
                    FUZZ_CHECK(f->str != NULL, "member '%s' has no text", f->key);
                for (int k = 0; f->type == JSON_ARRAY && k < f->arr_len; k++)
                    FUZZ_CHECK(f->arr[k] != NULL, "member '%s' has a NULL element", f->key);
            }
            json_str(&o, "result");
            const JsonField *moves = json_get(&o, "moves");
            Game game;
            if (moves && moves->type == JSON_ARRAY
                && game_start(&game, START_FEN, &RULES_JANGGI, FEN_STRICT, err, sizeof err)) {
                for (int k = 0; k < moves->arr_len; k++)
                    if (strlen(moves->arr[k]) >= 16
                        || game_play_text(&game, moves->arr[k], RANKS_FROM_1) != MOVE_PARSE_OK)
                        break;
                game_free(&game);
            }
        } else {
            FUZZ_CHECK(o.count == 0, "a refused object keeps members");
        }
        json_free(&o);
        ParsedGameList list = {0};
        ParsedGame *g = record_list_add(&list, 1);
        if (g) {
            jsonl_parse_game(line, 1, &RULES_JANGGI, NULL, g);
            fuzz_check_record(g);
        }
        record_list_free(&list);
    }
    free(text);
    return 0;
}

/* Fuzz target: the EPD reader, a line at a time, then what its users do with a line it accepts: the FEN
 * set up under janggi rules, the counters and the `moves` operation played. */
#define _POSIX_C_SOURCE 200809L /* strndup */
#include "../../engine/records/epd.h"
#include "fuzz.h"

FUZZ_INIT_ENGINE_ONLY

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = fuzz_text(data, size), *cursor = text, *line;
    static EpdPosition epd;
    while ((line = record_next_line(&cursor)) != NULL) {
        if (epd_is_blank(line))
            continue;
        char err[300];
        if (!epd_parse_line(line, &epd, err, sizeof err)) {
            FUZZ_CHECK(err[0] != '\0', "a refused line without a message");
            continue;
        }
        FUZZ_CHECK(memchr(epd.fen, '\0', sizeof epd.fen) != NULL, "an unterminated FEN");
        FUZZ_CHECK(epd.op_count >= 0 && epd.op_count <= EPD_MAX_OPS, "%d operations", epd.op_count);
        for (int i = 0; i < epd.op_count; i++)
            FUZZ_CHECK(memchr(epd.ops[i].opcode, '\0', sizeof epd.ops[i].opcode)
                           && memchr(epd.ops[i].operand, '\0', sizeof epd.ops[i].operand),
                       "an unterminated operation");
        epd_operation(&epd, "bm");
        Game game;
        if (!game_start(&game, epd.fen, &RULES_JANGGI, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
            continue;
        if (epd.has_moves) {
            FUZZ_CHECK(epd.moves_at + epd.moves_len <= strlen(line), "the moves lie outside the line");
            char *moves = strndup(line + epd.moves_at, epd.moves_len);
            FUZZ_CHECK(moves != NULL, "out of memory");
            for (char *tok = strtok(moves, " \t"); tok; tok = strtok(NULL, " \t"))
                if (strlen(tok) >= 16 || game_play_text(&game, tok, RANKS_FROM_1) != MOVE_PARSE_OK)
                    break;
            free(moves);
        }
        fuzz_check_position(&game.pos);
        game_free(&game);
    }
    free(text);
    return 0;
}

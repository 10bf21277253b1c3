/* Fuzz target: moves as a `position` line gives them. The first line is a FEN (or `startpos`), every
 * word after it a move in coordinate form (ranks from 1, or from 0 when the first byte is odd) or, when
 * that fails, in SAN; each one read is played on the game and the referee asked. The position after
 * every move passes the invariants, and a move read back from its own text is the same move. */
#include "../../engine/records/pgn.h"
#include "fuzz.h"

FUZZ_INIT_ENGINE_ONLY

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    RankBase base = data[0] & 1 ? RANKS_FROM_0 : RANKS_FROM_1;
    const RuleSet *rules = rules_all[(data[0] >> 1) & 3];
    char *text = fuzz_text(data + 1, size - 1);
    char *cursor = text, *first = record_next_line(&cursor);
    const char *fen = !first || strcmp(first, "startpos") == 0 ? START_FEN : first;
    Game game;
    char err[200];
    if (!game_start(&game, fen, rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err)) {
        free(text);
        return 0;
    }
    for (char *tok = cursor ? strtok(cursor, " \t\r\n") : NULL; tok; tok = strtok(NULL, " \t\r\n")) {
        Move m;
        MoveParseResult r = strlen(tok) < 16 ? move_parse(&game.pos, tok, base, &m) : MOVE_PARSE_SYNTAX;
        if (r != MOVE_PARSE_OK && pgn_parse_move(&game.pos, tok, &m) != PGN_MOVE_OK)
            continue;
        char coord[MOVE_TEXT_SIZE], san[PGN_SAN_SIZE];
        Move back;
        move_to_text(m, base, coord);
        FUZZ_CHECK(move_parse(&game.pos, coord, base, &back) == MOVE_PARSE_OK && back == m,
                   "'%s' does not read back as the same move", coord);
        pgn_move_to_san(&game.pos, m, san);
        FUZZ_CHECK(pgn_parse_move(&game.pos, san, &back) == PGN_MOVE_OK && back == m,
                   "SAN '%s' does not read back as the same move", san);
        FUZZ_CHECK(game_play(&game, m), "a legal move '%s' was refused", coord);
        char why[200];
        FUZZ_CHECK(position_is_ok(&game.pos, why, sizeof why), "after '%s': %s", coord, why);
        GameStatus st = game_status(&game);
        char words[300];
        if (st.result != GAME_ONGOING)
            game_end_text(&game, &st, words, sizeof words);
    }
    game_free(&game);
    free(text);
    return 0;
}

#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "movegen.h"

bool game_start(Game *game, const char *fen, const RuleSet *rules, FenFlags flags, char *err, size_t err_size)
{
    memset(game, 0, sizeof *game);
    if (!position_set_fen(&game->pos, fen, rules, flags, err, err_size))
        return false;
    position_to_fen(&game->pos, game->start_fen, sizeof game->start_fen);
    return true;
}

void game_free(Game *game)
{
    free(game->moves);
    free(game->states);
    game->moves = NULL;
    game->states = NULL;
    game->length = game->capacity = 0;
}

/* Grows the arrays; the state chain is relinked since the states may have moved. */
static bool reserve(Game *game)
{
    if (game->length < game->capacity)
        return true;
    int capacity = game->capacity ? 2 * game->capacity : 256;
    Move *moves = realloc(game->moves, (size_t)capacity * sizeof *moves);
    if (!moves)
        return false;
    game->moves = moves;
    StateInfo *states = realloc(game->states, (size_t)capacity * sizeof *states);
    if (!states)
        return false;
    game->states = states;
    game->capacity = capacity;
    for (int i = 0; i < game->length; i++)
        states[i].prev = i ? &states[i - 1] : &game->pos.root;
    game->pos.st = game->length ? &states[game->length - 1] : &game->pos.root;
    return true;
}

bool game_play(Game *game, Move m)
{
    if (!movegen_contains_legal(&game->pos, m) || !reserve(game))
        return false;
    game->moves[game->length] = m;
    position_make(&game->pos, m, &game->states[game->length]);
    game->length++;
    return true;
}

MoveParseResult game_play_text(Game *game, const char *text, RankBase base)
{
    Move m;
    MoveParseResult r = move_parse(&game->pos, text, base, &m);
    if (r == MOVE_PARSE_OK && !game_play(game, m))
        r = MOVE_PARSE_ILLEGAL;
    return r;
}

bool game_undo(Game *game)
{
    if (game->length == 0)
        return false;
    position_unmake(&game->pos);
    game->length--;
    return true;
}

GameStatus game_status(const Game *game)
{
    const Position *pos = &game->pos;
    GameStatus status = {GAME_ONGOING, END_NONE, false, false, referee_count_material(pos)};
    Verdict v;
    status.immediate = referee_immediate_end(pos, &v);
    if (!status.immediate && !referee_optional_end(pos, 0, &v))
        return status;
    status.reason = v.reason;
    status.by_counting = v.by_counting;
    if (v.outcome == OUTCOME_DRAW)
        status.result = GAME_DRAW;
    else
        status.result = (v.outcome == OUTCOME_WIN) == (pos->side == WHITE) ? GAME_CHO_WINS : GAME_HAN_WINS;
    return status;
}

const char *game_result_name(GameResult result)
{
    static const char *const names[] = {"ongoing", "1-0", "0-1", "1/2-1/2"};
    return names[result];
}

void game_end_text(const Game *game, const GameStatus *st, char *buf, size_t size)
{
    static const char *const side_names[2] = {"Cho", "Han"};
    const Position *pos = &game->pos;
    const char *winner = st->result == GAME_CHO_WINS ? "Cho" : "Han";
    const char *mover = side_names[color_flip(pos->side)]; /* who made the last move */
    char what[200];
    switch (st->reason) {
    case END_CHECKMATE: snprintf(what, sizeof what, "%s is checkmated", side_names[pos->side]); break;
    case END_BIKJANG: snprintf(what, sizeof what, "the generals faced each other for two plies"); break;
    case END_DOUBLE_PASS: snprintf(what, sizeof what, "both sides passed"); break;
    case END_REPETITION:
        snprintf(what, sizeof what, "the position occurred for the %s time",
                 pos->rules->nfold == 4 ? "fourth" : "third");
        break;
    case END_PERPETUAL_CHECK:
        if (st->result == GAME_DRAW)
            snprintf(what, sizeof what, "repetition with both sides giving check throughout");
        else
            snprintf(what, sizeof what, "%s gave perpetual check", st->result == GAME_CHO_WINS ? "Han" : "Cho");
        break;
    case END_KAKAO_REPETITION:
        snprintf(what, sizeof what, "%s moved the same piece back and forth (Kakao rule)", mover);
        break;
    default: snprintf(what, sizeof what, "%d plies without a capture", pos->rules->nmove_plies); break;
    }
    if (st->by_counting)
        snprintf(buf, size, "%s; %s wins by counting: Cho %d, Han %d.5 with the deom", what, winner, st->material.cho,
                 st->material.han + 1);
    else if (st->result == GAME_DRAW)
        snprintf(buf, size, "%s; draw", what);
    else
        snprintf(buf, size, "%s; %s wins", what, winner);
}

/* Pieces on files b, c, g, h for each named setup, read from file a to file i. */
static const struct {
    const char *korean, *roman;
    char pieces[5];
} setups[] = {
    {"마상상마", "inner", "NBBN"},
    {"상마마상", "outer", "BNNB"},
    {"상마상마", "left", "BNBN"},
    {"마상마상", "right", "NBNB"},
};

static const char *setup_pieces(const char *name)
{
    for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++) {
        size_t n = strlen(setups[i].roman);
        if (strcmp(name, setups[i].korean) == 0
            || (strncasecmp(name, setups[i].roman, n) == 0
                && (name[n] == '\0'
                    || ((name[n] == ' ' || name[n] == '-') && strcasecmp(name + n + 1, "elephant") == 0))))
            return setups[i].pieces;
    }
    return NULL;
}

bool setup_start_fen(const char *cho_setup, const char *han_setup, char *fen, size_t fen_size, char *err,
                     size_t err_size)
{
    const char *cho = setup_pieces(cho_setup), *han = setup_pieces(han_setup);
    if (!cho || !han) {
        snprintf(
            err, err_size,
            "unknown %s setup '%s' (마상상마, 상마마상, 상마상마, 마상마상, or inner, outer, left, right elephant)",
            cho ? "Han" : "Cho", cho ? han_setup : cho_setup);
        return false;
    }
    snprintf(fen, fen_size, "r%c%ca1a%c%cr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/R%c%cA1A%c%cR w - - 0 1",
             han[0] + 32, han[1] + 32, han[2] + 32, han[3] + 32, cho[0], cho[1], cho[2], cho[3]);
    return true;
}

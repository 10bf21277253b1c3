/* A live game: the start position and the moves played, with the state of every ply kept so the
 * referee can judge repetitions, passes and bikjang after each move. Also builds start positions
 * from the named horse/elephant setups. A Game must not be copied (its states point into it). */
#ifndef JANGGUN_GAME_H
#define JANGGUN_GAME_H

#include "move.h"
#include "referee.h"

typedef struct {
    Position pos;
    char start_fen[128];
    Move *moves;
    StateInfo *states; /* states[i] follows moves[i] */
    int length, capacity;
} Game;

typedef enum { GAME_ONGOING, GAME_CHO_WINS, GAME_HAN_WINS, GAME_DRAW } GameResult;

typedef struct {
    GameResult result;
    EndReason reason;
    bool immediate; /* no legal moves (otherwise a referee's claim, or ongoing) */
    bool by_counting;
    MaterialCount material;
} GameStatus;

/* Starts a record from a FEN (START_FEN for the usual start). false with a message on a bad FEN. */
bool game_start(Game *game, const char *fen, const RuleSet *rules, FenFlags flags, char *err, size_t err_size);
void game_free(Game *game);

/* Plays a move; false (and nothing changes) unless it is legal. */
bool game_play(Game *game, Move m);
MoveParseResult game_play_text(Game *game, const char *text, RankBase base);
/* Takes back the last move; false when there is none. */
bool game_undo(Game *game);

/* The state of the game now, as the referee sees it. */
GameStatus game_status(const Game *game);

const char *game_result_name(GameResult result); /* "ongoing", "1-0", "0-1", "1/2-1/2" */

/* How a finished game ended, in words, for `status` = game_status(game): what happened, then the
 * result ("both sides passed; Han wins by counting: Cho 72, Han 73.5 with the deom"). */
void game_end_text(const Game *game, const GameStatus *status, char *buf, size_t size);

/* The four setups of horses (마) and elephants (상) on the b, c, g and h files, named as game records
 * do, read along the board from file a to file i for either side: 마상상마 (inner elephant, the
 * usual start), 상마마상 (outer elephant), 상마상마 (left elephant), 마상마상 (right elephant).
 * Romanised names are accepted as "inner", "inner elephant" or "inner-elephant", in any case. */
bool setup_start_fen(const char *cho_setup, const char *han_setup, char *fen, size_t fen_size, char *err,
                     size_t err_size);

#endif

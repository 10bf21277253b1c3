/* The review of a game, the judgement behind `janggun analyze`: from the searches of its positions, the
 * rows a reader sees (the score before and after each move, the loss and its mark), the summary per
 * player and where the referee ends the game; for a single position, the score and the EPD bm/am
 * verdicts. No searching and no printing: the searches come in as data, so tests can make them up,
 * and review_output.h writes the result. README.md ("janggun analyze") gives the rules. */
#ifndef JANGGUN_REVIEW_H
#define JANGGUN_REVIEW_H

#include "../engine/game.h"
#include "../engine/records/record.h"
#include "../search/search.h"

/* Inaccuracy, mistake and blunder: a loss of at least this many centipawns, scores capped at
 * +-REVIEW_LOSS_CAP (mates count as the cap). */
enum { REVIEW_INACCURACY_LOSS = 50, REVIEW_MISTAKE_LOSS = 100, REVIEW_BLUNDER_LOSS = 300, REVIEW_LOSS_CAP = 1000 };

typedef enum { REVIEW_NO_MARK = -1, REVIEW_INACCURACY, REVIEW_MISTAKE, REVIEW_BLUNDER, REVIEW_MARK_COUNT } ReviewMark;

/* A score from Cho's view. */
typedef enum { SCORE_NONE, SCORE_CP, SCORE_MATE, SCORE_RESULT } ScoreKind;
typedef struct {
    ScoreKind kind;
    int value; /* centipawns; moves to mate (negative: Han mates); result +1 Cho wins, 0 draw, -1 Han wins */
} Score;

/* The search of one position, as data: its lines, best first, as the search reports them (from the
 * side to move's view), and its best move (MOVE_NONE when it gave none; the first move of the first
 * line when there is one). */
typedef struct {
    SearchInfo lines[MAX_MULTIPV];
    int count;
    Move best;
} ReviewSearch;

/* The first line of a search, or NULL when there is none (or no search). */
const SearchInfo *review_best_line(const ReviewSearch *search);

/* A line's score from Cho's view, `side` being the side to move (none for NULL). */
Score review_line_score(const SearchInfo *line, Color side);
/* A finished game's result as a score. */
Score review_result_score(GameResult result);
/* The score from `mover`'s view, capped at +-REVIEW_LOSS_CAP: a mate counts as the cap, a finished game
 * as the cap or 0. */
int review_capped(Score score, Color mover);
/* The loss of `mover`'s move: capped before minus capped after, never below 0, and 0 when the move
 * played was the best. -1 when either score is missing. */
int review_loss(Score before, Score after, Color mover, bool best_played);
/* The mark of a loss (REVIEW_NO_MARK under 50, and for -1). */
ReviewMark review_mark(int loss);
const char *review_mark_name(ReviewMark mark); /* "inaccuracy", "mistake", "blunder"; NULL for none */

/* One move of the game. */
typedef struct {
    int ply;             /* 1-based: the move that made ply `ply` */
    Color side;          /* who played it */
    Move move, best;     /* best: the search's move before it, MOVE_NONE when none */
    Score before, after; /* the scores of the positions before and after it */
    bool scored;         /* both scores known: loss and mark hold */
    int loss;            /* 0 when not scored */
    ReviewMark mark;
    MaterialCount material;   /* after the move */
    int depth;                /* of the search before it (0 when none) */
    const Position *position; /* before the move (the review's own; valid until the next review_add) */
    ReviewSearch search;      /* the search before it (empty when none): its pv and lines */
} ReviewRow;

typedef struct {
    int moves, scored, best_played, marks[REVIEW_MARK_COUNT];
    long loss_sum;
} ReviewSummary;

/* The average loss over the scored moves; false when none was scored. */
bool review_average_loss(const ReviewSummary *summary, double *average);

/* The first ply where the referee ends the game. */
typedef struct {
    bool over; /* false: the game is not over at any ply of the record */
    int ply;
    GameStatus status;     /* the end there: result, reason, immediate or optional, the material */
    bool record_continues; /* the record has moves past it (an optional end played on) */
} ReviewEnd;

/* A game under review. Fed one search per position, from the start to the position after the last
 * move; must not be copied (its games point into themselves). */
typedef struct {
    const Move *moves; /* the record's, not copied */
    int move_count;
    int ply;           /* the position to search next */
    bool done;         /* every position was given */
    Game game;         /* the position at `ply` */
    Game before;       /* one move behind: the position before the last move */
    GameStatus status; /* of the position at `ply`; at the end, of the final position */
    ReviewRow rows[2]; /* the row of the move that made ply p is rows[p % 2], filled in two calls */
    ReviewSummary summary[COLOR_COUNT];
    ReviewEnd end;
} Review;

/* Starts the review of the moves from `start_fen` under `rules` (extra pieces allowed, as the readers
 * allow them). false with a message on a bad FEN or an illegal move. */
bool review_start(Review *r, const char *start_fen, const RuleSet *rules, const Move *moves, int move_count, char *err,
                  size_t err_size);
/* The same for a game read from a file (ok: its moves replay). */
bool review_start_record(Review *r, const ParsedGame *game, char *err, size_t err_size);
void review_free(Review *r);

/* The position to search next (r->game.pos), and whether it needs a search: not when the game is over
 * there with no moves (r->status.immediate), nor once the review is done. */
static inline bool review_needs_search(const Review *r) { return !r->done && !r->status.immediate; }

/* Takes the search of the position at r->ply (NULL when there was none; ignored where the game is
 * over with no moves, whose score is the result), finishes the row of the move that led there and
 * plays the record's next move. Returns that row (NULL for the start position), valid until the next
 * call. After the last position r->done is set and r->summary, r->end and r->status are final. */
const ReviewRow *review_add(Review *r, const ReviewSearch *search);

/* A single position: its state, its score and the EPD bm/am verdicts. */
typedef struct {
    const Position *pos;
    GameStatus status;
    const ReviewSearch *search; /* NULL when not searched (the game is over there) */
    const SearchInfo *line;     /* the best line, or NULL */
    Score score;                /* the result when over with no moves, else the best line's */
    const char *bm, *am;        /* as given */
    int bm_found, am_avoided;   /* 1 or 0; -1 without a bm (am) operation or without a best move */
} PositionReview;

/* bm and am: moves in any form PGN accepts, separated by spaces or commas (NULL: none given). */
PositionReview review_position(const Position *pos, GameStatus status, const ReviewSearch *search, const char *bm,
                               const char *am);

#endif

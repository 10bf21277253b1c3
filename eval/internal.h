/* Internals of the evaluation, for its tests and for tuning tools: the weights as parsed from a weight
 * file, the strict parser, and the evaluation split into its terms. Product code uses eval.h only. */
#ifndef JANGGUN_EVAL_INTERNAL_H
#define JANGGUN_EVAL_INTERNAL_H

#include <stddef.h>

#include "eval.h"

/* Piece types that have a value, in the weight file's order: soldier guard elephant horse cannon
 * chariot. Index = PieceType - SOLDIER. */
enum { VALUED_TYPES = 6, PST_TYPES = 7, SAFETY_SCALE_STEPS = 5 };

/* Piece types a less valuable piece can threaten, in the weight file's order: guard elephant horse
 * cannon chariot (a soldier has nothing below it). Index = PieceType - GUARD. */
enum { THREAT_TYPES = 5 };

/* Every number of the evaluation, as the weight file gives it. PST entries are indexed by square
 * (9*rank + file) from Cho's side; the file lists them from rank 10 down to rank 1. */
typedef struct {
    int piece_value[VALUED_TYPES];
    int cannon_screen;                    /* per piece on the board other than cannons and generals */
    int pst[PST_TYPES][SQUARE_COUNT];     /* soldier guard elephant horse cannon chariot general */
    int mobility[VALUED_TYPES];           /* per reachable point */
    int safety_attacker[VALUED_TYPES];    /* per piece attacking the enemy palace */
    int safety_square;                    /* per attacked point of the enemy palace */
    int safety_scale[SAFETY_SCALE_STEPS]; /* percent, by number of attacking pieces (0..4+) */
    int safety_missing_guard;
    int threat_by_lesser[THREAT_TYPES]; /* per piece attacked by a less valuable enemy piece */
    int threat_hanging;                 /* per piece (not the general) attacked and not defended */
    int tempo;                          /* for the side to move */
    int deom;                           /* Han's deom, where the rule set counts */
    int counting_verdict;               /* a won count at the end of the game */
    int counting_window;                /* plies before the move limit where the blend starts */
    int counting_limit_blend;           /* percent, at the move limit */
    int counting_option_blend;          /* percent, when the side to move may end the game by passing */
} EvalWeights;

/* Parses weight-file text (`len` bytes, need not be NUL-terminated). Strict: an unknown, repeated or
 * missing name, a wrong number of values, a value that is not an integer or is out of its range are
 * errors, reported as e.g. "line 12: 'mobility' has 5 values, expected 6". On error `out` is
 * unspecified. */
bool eval_parse_weights(const char *text, size_t len, EvalWeights *out, char *err, size_t err_size);

/* The weight file's lexical rules, shared by the parser and tools that rewrite the file: blanks are
 * space, tab and CR; a token runs to the next blank or '#', and '#' starts a comment. */
bool weights_is_blank(char c);

/* The next token of the line that ends at `line_end`, searched from *p: true with its bounds in
 * [*start, *p); false at the end of the line or at a comment. */
bool weights_next_token(const char *text, size_t line_end, size_t *p, size_t *start);

/* A name of the weight file (`len` bytes, need not be NUL-terminated): how many values it takes, 0 when
 * there is no such weight. */
int eval_weight_count(const char *name, size_t len);

/* The i-th value (from 0, in the file's order) of weight `name` in `w`; false when there is no such
 * weight or it has fewer values. */
bool eval_weight_get(const EvalWeights *w, const char *name, size_t len, int i, int *value);

/* Makes `w` the weights of every later evaluation (eval_init does this with the embedded file). Not
 * safe while another thread evaluates; for tests and tuning. */
void eval_use_weights(const EvalWeights *w);

/* The weights in use. */
const EvalWeights *eval_weights(void);

/* The embedded weight file's text and its length. */
const char *eval_weights_text(size_t *len);

/* The evaluation split into its terms. Per-side terms are from that side's point of view (a bonus for
 * it is positive); `raw`, `counting` and `total` are from Cho's point of view, total = raw + counting + tempo,
 * and eval_evaluate returns total for Cho to move, -total for Han. */
typedef struct {
    int material[COLOR_COUNT];
    int pst[COLOR_COUNT];
    int mobility[COLOR_COUNT];
    int safety[COLOR_COUNT];  /* minus the danger to that side's own palace */
    int threats[COLOR_COUNT]; /* minus the threats against that side's pieces */
    int raw;                  /* the five terms above, Cho minus Han */
    int deom;                 /* Han's deom (0 where the rule set does not count) */
    int limit_blend;          /* percent blended towards the end-of-game verdict near the move limit */
    int option_blend;         /* percent blended because the side to move may end the game by passing */
    int verdict;              /* the end-of-game verdict, Cho's view: +-counting_verdict or 0 for a draw;
                                 computed only when a blend applies (0 otherwise) */
    int counting;             /* -deom plus the effect of both blends */
    int tempo;                /* the side to move's tempo, Cho's view (classical only; 0 once the game has ended) */
    int total;
} EvalTerms;

void eval_terms(const Position *pos, EvalTerms *t);

#endif

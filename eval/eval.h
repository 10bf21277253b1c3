/* Static evaluation: material with Janggi values and Han's 1.5-point deom, piece-square tables,
 * mobility that follows the cannon rules, palace safety, and awareness of counting where the game can
 * end by counting. Weights come from a weight file under nets/, embedded at build time. Depends on
 * engine/ only. */
#ifndef JANGGUN_EVAL_H
#define JANGGUN_EVAL_H

#include <stddef.h>

#include "../engine/position.h"

/* Evaluations are in centipawns on the weight file's scale (as tuned, a soldier is about 180) and stay
 * well inside +-EVAL_LIMIT, far from the search's mate scores. */
enum { EVAL_LIMIT = 20000 };

/* Loads the embedded weights; call once after engine_init(). false (with a message) if they are
 * malformed, which the build's checks make impossible for the shipped file. */
bool eval_init(char *err, size_t err_size);

/* The evaluation from the side to move's point of view. No allocation, locking or I/O. */
int eval_evaluate(const Position *pos);

/* A human-readable breakdown for the `eval` command: each term for Cho and Han, the total from Cho's
 * point of view, and the material count of both sides with the deom. Lines end with '\n'. */
void eval_trace(const Position *pos, char *buf, size_t size);

/* The value of a soldier on the evaluation's scale: reported scores are divided by it so that a
 * soldier shows as 100 centipawns, whatever the weights' scale. */
int eval_soldier_value(void);

/* The name of the weight file that was embedded, e.g. "janggun-0123456789ab.weights". */
const char *eval_weights_name(void);

#endif

/* Static evaluation: material with Janggi values and Han's 1.5-point deom, piece-square tables,
 * mobility that follows the cannon rules, palace safety, and awareness of counting where the game can
 * end by counting. Weights come from a weight file under nets/, embedded at build time. The network
 * (nnue.h) replaces the board terms or, for a net on the classical base, corrects them, the counting
 * terms applied on top as on the classical score ("Use NNUE", on by default). Depends on engine/ only. */
#ifndef JANGGUN_EVAL_H
#define JANGGUN_EVAL_H

#include <stddef.h>

#include "../engine/position.h"
#include "nnue.h"

/* Evaluations are in centipawns on the weight file's scale (as tuned, a soldier is about 180) and stay
 * well inside +-EVAL_LIMIT, far from the search's mate scores. */
enum { EVAL_LIMIT = 20000 };

/* Loads the embedded weights and the embedded net; call once after engine_init(). false (with a
 * message) if they are malformed, which the build's checks make impossible for the shipped files. */
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

/* ---- the network ---- */

/* "Use NNUE": whether searches evaluate with the net (true by default; false: the classical evaluation).
 * Safe to call while a search runs; a search reads it once, when it starts. */
void eval_set_use_nnue(bool on);
bool eval_use_nnue(void);

/* Loads a net file ("EvalFile") to be used from the next search on. On failure says why and keeps the
 * net it had. Not while a search runs. */
bool eval_load_net(const char *path, char *err, size_t err_size);

/* The name of the net in use (the embedded file's, e.g. "janggun-0123456789ab.nnue", or a loaded one);
 * the same with its architecture, for messages; the embedded file's name (which EvalFile also takes,
 * as it takes "<embedded>", to go back to the embedded net). */
const char *eval_net_name(void);
const char *eval_net_description(void);
const char *eval_embedded_net_name(void);

/* The classical evaluation's board terms alone (material, piece-square, mobility, palace safety,
 * threats; no counting term, no tempo), from the side to move's point of view: the base that a net on
 * the classical base (NNUE_BASE_CLASSICAL) corrects. Reads only the board, side to move and generals, so
 * the trainer can call it on its unpacked records. */
int eval_classical_raw(const Position *pos);

/* The evaluation with the net on the stack that follows the position (see nnue_push): the net's score
 * with the counting terms on top, from the side to move's point of view, within +-EVAL_LIMIT. */
int eval_evaluate_nnue(const Position *pos, NnueStack *stack);

#endif

/* Janggun's efficiently updated neural network (NNUE): the feature map (shared with the trainer), the
 * net in memory and its file format (reading, checking, writing), the per-ply accumulator stack that
 * the search pushes and pops beside make/unmake, and the integer inference with its scalar, AVX2 and
 * AVX-512 kernels. It does not decide when the net is used (eval.h, "Use NNUE") nor apply the counting
 * terms (eval.c applies them on top of the net's score, as on the classical score). */
#ifndef JANGGUN_NNUE_H
#define JANGGUN_NNUE_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/position.h"

/* Features, per perspective: piece type x colour (own, enemy) x point, the point seen from that side
 * (Han's ranks flipped, files never mirrored), optionally once per palace point of that side's own
 * general (9 king buckets). Inputs = buckets x 1260. */
enum {
    NNUE_PLANES = 14,                               /* (type - SOLDIER) * 2 + (enemy ? 1 : 0), general included */
    NNUE_PLANE_INPUTS = NNUE_PLANES * SQUARE_COUNT, /* 1260 */
    NNUE_MAX_KING_BUCKETS = 9,
    NNUE_MAX_INPUTS = NNUE_MAX_KING_BUCKETS * NNUE_PLANE_INPUTS,
    NNUE_MIN_HIDDEN = 32,
    NNUE_MAX_HIDDEN = 512, /* a multiple of 32: one AVX-512 register holds 32 int16 */
    NNUE_MAX_OUTPUT_BUCKETS = 8,
    NNUE_MAX_ACTIVE = SQUARE_COUNT, /* features active per perspective: one per piece */
};

/* Quantisation: accumulator units are float * NNUE_QA, output weights float * NNUE_QB, the output
 * bias float * NNUE_QA * NNUE_QB; the float net's output times NNUE_SCALE is the score in the
 * evaluation's centipawns. Output weights are kept within +-NNUE_MAX_OUTPUT_WEIGHT (the float net's
 * within +-0.5) so that a clamped unit times its weight fits an int16 (255 * 128 = 32640), and a SIMD
 * lane's int32 sum cannot overflow (at most 64 pairs a lane: 64 * 2 * 255 * 32640 < 2^31); lanes are
 * summed in int64. */
enum { NNUE_QA = 255, NNUE_QB = 256, NNUE_SCALE = 400, NNUE_MAX_OUTPUT_WEIGHT = 128 };

/* The net file's version and feature-set and activation codes (see README, "The net file"). */
/* Feature set 2 is feature set 1 with the classical evaluation's board terms as one more input, added to
 * the output (NNUE_BASE_CLASSICAL). */
enum {
    NNUE_FILE_VERSION = 1,
    NNUE_FEATURES_PIECE_POINT = 1,
    NNUE_FEATURES_PIECE_POINT_CLASSICAL = 2,
    NNUE_ACTIVATION_SCRELU = 1
};
enum { NNUE_HEADER_SIZE = 56, NNUE_MAX_DESCRIPTION = 4096 };
extern const char NNUE_MAGIC[8]; /* "JANGNNUE" */

/* What the net's output is added to: nothing (the net is the whole evaluation), or the classical
 * evaluation's board terms (eval.h, eval_classical_raw), so that the net learns a correction to them. */
enum { NNUE_BASE_NONE = 0, NNUE_BASE_CLASSICAL = 1 };

typedef struct {
    int king_buckets;   /* 1 or 9 */
    int hidden;         /* accumulator units per perspective: 32..512, a multiple of 32 */
    int output_buckets; /* 1..8, chosen by the number of pieces on the board */
    int base;           /* NNUE_BASE_*: applied by eval.c, not by the inference here */
} NnueArch;

/* A net in the engine's integer format. Arrays are 64-byte aligned and owned by the net. */
typedef struct {
    NnueArch arch;
    int inputs;           /* king_buckets * NNUE_PLANE_INPUTS */
    int16_t *ft_bias;     /* [hidden] */
    int16_t *ft_weights;  /* [inputs][hidden] */
    int16_t *out_weights; /* [output_buckets][2 * hidden]: side to move's units first */
    int32_t *out_bias;    /* [output_buckets] */
    char description[NNUE_MAX_DESCRIPTION + 1];
    char name[256]; /* the file name it came from, without the folder */
} NnueNet;

/* ---- features (the trainer uses these very functions) ---- */

/* The king bucket of perspective `persp` (0 when the net has one bucket): the palace point of its own
 * general, seen from its side, d1 e1 f1 d2 e2 f2 d3 e3 f3 -> 0..8. */
static inline int nnue_king_bucket(int king_buckets, Color persp, Square general)
{
    if (king_buckets == 1)
        return 0;
    int rank = square_rank(general), file = square_file(general);
    if (persp == BLACK)
        rank = RANK_COUNT - 1 - rank;
    return rank * 3 + file - 3;
}

/* The feature of piece `pc` on `s` for perspective `persp` in king bucket `bucket`. */
static inline int nnue_feature(Color persp, int bucket, Piece pc, Square s)
{
    int plane = (piece_type(pc) - SOLDIER) * 2 + (piece_color(pc) != persp);
    int sq = persp == WHITE ? s : make_square(square_file(s), RANK_COUNT - 1 - square_rank(s));
    return bucket * NNUE_PLANE_INPUTS + plane * SQUARE_COUNT + sq;
}

/* Every active feature of `pos` for `persp`, in board order; returns how many (one per piece). */
int nnue_features(const Position *pos, int king_buckets, Color persp, int out[NNUE_MAX_ACTIVE]);

/* The output bucket: by the number of pieces on the board (generals included), 32 at the start. */
static inline int nnue_output_bucket(int output_buckets, int pieces)
{
    int b = (pieces - 1) * output_buckets / 32;
    return b < 0 ? 0 : b >= output_buckets ? output_buckets - 1 : b;
}

/* ---- the net ---- */

/* A zeroed net of that architecture; NULL (with a message) when the architecture is not supported. */
NnueNet *nnue_net_new(NnueArch arch, char *err, size_t err_size);
void nnue_net_free(NnueNet *net);

/* Reads a net file's bytes. Refuses, with a message naming the problem, a file with another magic or
 * version, an unsupported architecture, a size that does not match it (truncated or too long), a wrong
 * checksum, or an output weight out of range. `name` is kept as the net's name. */
NnueNet *nnue_net_read(const void *data, size_t size, const char *name, char *err, size_t err_size);

/* Loads a net file from disk (nnue_net_read on its bytes). */
NnueNet *nnue_net_load(const char *path, char *err, size_t err_size);

/* The file's bytes for `net` (malloc'ed; *size set); NULL when out of memory. */
unsigned char *nnue_net_write(const NnueNet *net, size_t *size);

/* The checksum of a net file: FNV-1a 64 over every byte after the checksum field. */
uint64_t nnue_checksum(const unsigned char *data, size_t size);

/* The net in use, loaded from the embedded file by eval_init; NULL before. Replaced by eval_load_net. */
const NnueNet *nnue_current(void);
void nnue_set_current(NnueNet *net); /* takes ownership; frees the one it replaces; not during a search */

/* ---- the accumulator stack ---- */

typedef struct {
    _Alignas(64) int16_t v[COLOR_COUNT][NNUE_MAX_HIDDEN]; /* by perspective: Cho's, Han's */
    bool computed[COLOR_COUNT];
    /* The change from the entry below: `moved` went from `from` to `to`, taking `captured`; NO_PIECE
     * for a pass. */
    Piece moved, captured;
    uint8_t from, to;
} NnueAccumulator;

enum { NNUE_STACK_SIZE = 192 };

/* One per search thread: entry 0 is the root, one more per move made. No allocation after creation. */
typedef struct {
    const NnueNet *net;
    int top;
    NnueAccumulator acc[NNUE_STACK_SIZE];
} NnueStack;

/* A new root with `net` (nothing computed yet: the first evaluation refreshes). */
static inline void nnue_stack_reset(NnueStack *s, const NnueNet *net)
{
    s->net = net;
    s->top = 0;
    s->acc[0].computed[WHITE] = s->acc[0].computed[BLACK] = false;
}

/* After position_make(pos, m, ...): records the change, computing nothing. */
static inline void nnue_push(NnueStack *s, const Position *pos)
{
    NnueAccumulator *a = &s->acc[++s->top];
    const StateInfo *st = pos->st;
    a->computed[WHITE] = a->computed[BLACK] = false;
    Square from = move_from(st->move), to = move_to(st->move);
    a->moved = from == to ? NO_PIECE : pos->board[to];
    a->captured = st->captured;
    a->from = (uint8_t)from;
    a->to = (uint8_t)to;
}

/* After position_unmake. */
static inline void nnue_pop(NnueStack *s) { s->top--; }

/* The net's output for the position the stack's top stands for, from the side to move's view, in the
 * evaluation's centipawns. Brings the top accumulator up to date from the nearest computed entry below
 * (a full refresh of a perspective only when its general changed king bucket, or nothing below is
 * computed). No allocation, lock or I/O. */
int nnue_evaluate(NnueStack *s, const Position *pos);

/* The same from scratch, without a stack (for `eval`, tools and tests). */
int nnue_evaluate_full(const NnueNet *net, const Position *pos);

/* The full refresh of one perspective's accumulator (what nnue_evaluate's incremental updates must
 * equal), for tests. */
void nnue_refresh(const NnueNet *net, const Position *pos, Color persp, int16_t *acc);

/* ---- kernels ---- */

/* The two loops every path implements: dst = src + the weight columns `add` - the columns `sub`
 * (int16, wrapping), and the output sum: sum over units of SCReLU(us) * w[unit] + SCReLU(them) *
 * w[hidden + unit], SCReLU(x) = clamp(x, 0, QA)^2. */
typedef struct {
    const char *name;
    void (*update)(int16_t *dst, const int16_t *src, const int16_t *const *add, int adds, const int16_t *const *sub,
                   int subs, int hidden);
    int64_t (*output)(const int16_t *us, const int16_t *them, const int16_t *w, int hidden);
} NnueKernels;

/* The scalar reference, the AVX2 and the AVX-512 kernels (compiled into every build; the last two run
 * only where the processor has them), and the ones this build's ARCH uses. */
extern const NnueKernels nnue_kernels_scalar, nnue_kernels_avx2, nnue_kernels_avx512;
const NnueKernels *nnue_kernels_build(void);
bool nnue_kernels_supported(const NnueKernels *k);

#endif

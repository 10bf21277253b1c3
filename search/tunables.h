/* Search tunables, in one place so that tuning changes numbers, not code. */
#ifndef JANGGUN_TUNABLES_H
#define JANGGUN_TUNABLES_H

enum {
    ASPIRATION_WINDOW = 25, /* initial half-width around the previous score, centipawns */
    RFP_DEPTH = 6,          /* reverse futility pruning up to this depth */
    RFP_MARGIN = 90,        /* ... with this margin per ply */
    NULL_MIN_DEPTH = 3,     /* null move (a pass) from this depth on */
    NULL_BASE_REDUCTION = 3,
    NULL_DEPTH_DIVISOR = 3,
    NULL_EVAL_DIVISOR = 200,    /* one more ply of reduction per this much above beta, up to 3 */
    IIR_MIN_DEPTH = 4,          /* internal iterative reduction without a table move */
    LMP_DEPTH = 5,              /* late move pruning up to this depth ... */
    LMP_BASE = 3,               /* ... after LMP_BASE + depth^2 quiet moves (twice that in PV nodes) */
    SEE_PRUNE_DEPTH = 4,        /* losing captures pruned up to this depth */
    LMR_HISTORY_DIVISOR = 6000, /* history points per ply of less (or more) reduction */
    FUTILITY_DEPTH = 3,         /* late quiet moves pruned up to this depth */
    FUTILITY_MARGIN = 120,      /* ... when the static eval plus this per ply is below alpha */
    LMR_MIN_MOVES = 3,          /* moves searched before late-move reductions start */
    HISTORY_MAX = 16384,
    QS_FULL_WIDTH_PLIES = 6 /* quiescence plies in which check evasions are searched in full */
};

/* Late-move reduction: LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR plies. */
#define LMR_BASE 0.5
#define LMR_DIVISOR 2.25

#endif

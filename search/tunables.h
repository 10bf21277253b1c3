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
    LMR_HISTORY_DIVISOR = 8000, /* history (stat score) per ply of less (or more) reduction */
    FUTILITY_DEPTH = 3,         /* late quiet moves pruned up to this depth */
    FUTILITY_MARGIN = 120,      /* ... when the static eval plus this per ply is below alpha */
    LMR_MIN_MOVES = 1,          /* moves searched before late-move reductions start */
    QS_FULL_WIDTH_PLIES = 6,    /* quiescence plies in which check evasions are searched in full */
    QS_FUTILITY_MARGIN = 200,   /* a capture must be able to lift the stand-pat score this close to alpha */
    RAZOR_DEPTH = 3,            /* razoring up to this depth ... */
    RAZOR_BASE = 450,           /* ... when the eval is below alpha by RAZOR_BASE + RAZOR_MARGIN depth^2 */
    RAZOR_MARGIN = 250,
    PROBCUT_MIN_DEPTH = 5,  /* ProbCut from this depth on ... */
    PROBCUT_MARGIN = 180,   /* ... with a capture that beats beta by this much */
    PROBCUT_IMPROVING = 60, /* (less when improving) */
    PROBCUT_REDUCTION = 4,
    SE_MIN_DEPTH = 6,          /* singular extensions from this depth on */
    SE_TT_DEPTH_SLACK = 3,     /* ... when the table entry is at most this much shallower */
    SE_MARGIN = 2,             /* singular beta = table score - SE_MARGIN * depth */
    SE_DOUBLE_MARGIN = 40,     /* a second ply when the others fail by this much more */
    SE_DOUBLE_LIMIT = 6,       /* double extensions on one path */
    LMR_CUT_NODE = 1,          /* expected cut nodes reduce this much more */
    LMR_CUTOFF_COUNT = 3,      /* a ply more of reduction when the replies a ply down cut off more often */
    BAD_CAPTURE_LMR_DEPTH = 3, /* losing captures in non-PV nodes reduced a ply from this depth */
};

/* Move ordering and the histories (movepick.h). */
enum {
    HISTORY_MAX = 16384,              /* butterfly history entries stay within +-this */
    CAPTURE_HISTORY_MAX = 16384,      /* capture history entries */
    CONTINUATION_HISTORY_MAX = 16384, /* continuation history entries */
    HISTORY_BONUS_SLOPE = 300,        /* a cutoff's history bonus: SLOPE * depth - OFFSET, at most MAX */
    HISTORY_BONUS_OFFSET = 200,
    HISTORY_BONUS_MAX = 2400,
    CAPTURE_MVV_WEIGHT = 16,     /* capture order: victim value times this plus capture history */
    GOOD_CAPTURE_SEE = 0,        /* captures whose exchange gains at least this come before the quiet moves */
    QUIET_SORT_LIMIT = 3000,     /* quiet moves scoring below -this per ply are left unsorted */
    HISTORY_PRUNE_DEPTH = 3,     /* late quiet moves pruned up to this depth when their continuation ... */
    HISTORY_PRUNE_MARGIN = 1500, /* ... histories 1 and 2 plies back sum below -this per ply */
    /* Quiet order: a piece attacked by a less valuable enemy piece that moves to a point no such piece
     * attacks gains this much; a piece that moves from safety onto such a point loses it. */
    THREAT_ESCAPE_CHARIOT = 50000,
    THREAT_ESCAPE_CANNON = 25000,
    THREAT_ESCAPE_MINOR = 15000 /* horses and elephants */
};

/* Late-move reduction: LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR plies. */
#define LMR_BASE 0.5
#define LMR_DIVISOR 2.25

/* Strength levels (skill.c; README, Strength levels). A level's search of strength S (below 20) chooses
 * among SKILL_CANDIDATES best root moves, each pushed by a random amount up to SKILL_ERROR_MAX_CP
 * centipawns at strength -20, halved every SKILL_ERROR_HALVING above (doubled below, to 1200 at the
 * weakest, -27); it searches 1 + (S + 20) / 4 plies (1 at least) below strength 0 and
 * SKILL_DEPTH_LEVEL0 + S from 0 on, within SKILL_NODES_LEVEL0 nodes at strength 0 and below, doubled
 * every SKILL_LEVELS_PER_DOUBLING above. */
enum {
    SKILL_NODES_LEVEL0 = 12000,
    SKILL_DEPTH_LEVEL0 = 6,
    SKILL_CANDIDATES = 4,
    SKILL_ERROR_MAX_CP = 600, /* at level -20: about a chariot */
};
#define SKILL_LEVELS_PER_DOUBLING 3.75
#define SKILL_ERROR_HALVING 7.0

#endif

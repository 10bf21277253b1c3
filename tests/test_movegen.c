/* Move generation, make/unmake and move text, rule by rule. Every expected move list below was
 * produced by the reference engine (Debian's fairy-stockfish 11.1, `go perft 1`, UCI notation) and
 * is compared as a set, so a failure names the missing and the extra moves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/perft.h"
#include "support.h"

#define START "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

/* ---- Exact legal move lists ---- */

typedef struct {
    const char *name;
    const char *rules;
    const char *fen;
    const char *moves;    /* played from `fen` first, or NULL */
    const char *expected; /* FSF's legal moves, space separated */
} MoveListCase;

/* clang-format off: one case per block, name, rules and position on their own lines */
static const MoveListCase move_list_cases[] = {
    /* Section 2.4 of the spec: FSF's own vectors. */
    {"spec 2.4: cannon a1 screened by its soldier; no cannon screen, no cannon capture", "janggi",
     "9/4k4/9/9/c8/9/9/P8/3K4c/C7C w - - 0 1", NULL, "a1a4 a1a5 a3a4 a3b3 d2d1 d2d2 d2d3 d2e2"},
    {"spec 2.4: cannon d1 hops the guard on e2 to take f3", "janggi", "3k5/9/9/9/9/9/9/5p3/4A4/3C1K3 w - - 0 1", NULL,
     "d1f3 d1g1 d1h1 d1i1 e2d2 e2d3 e2e1 e2e3 e2f2 e2f3 f1e1 f1f1"},
    {"spec 2.4: an enemy cannon on e2 is no diagonal screen", "janggi", "3k5/9/9/9/9/9/9/5p3/4c4/3C1K3 w - - 0 1", NULL,
     "d1g1 d1h1 d1i1 f1e1 f1f1"},
    {"spec 2.4: horse leg and elephant eye b3 blocked", "janggi", "3k5/9/9/9/9/9/9/1P7/1N2K4/2B6 w - - 0 1", NULL,
     "b2d1 b2d3 b3a3 b3b4 b3c3 c1e4 e2d1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"},
    {"spec 2.4: horse b2 and elephant c1 free", "janggi", "3k5/9/9/9/9/9/9/9/1N2K4/2B6 w - - 0 1", NULL,
     "b2a4 b2c4 b2d1 b2d3 c1a4 c1e4 e2d1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"},
    {"spec 2.4: chariot d3 slides d3-e2-f1", "janggi", "5k3/9/9/9/9/9/9/3R5/9/4K4 w - - 0 1", NULL,
     "d3a3 d3b3 d3c3 d3d1 d3d10 d3d2 d3d4 d3d5 d3d6 d3d7 d3d8 d3d9 d3e2 d3e3 d3f1 d3f3 d3g3 d3h3 d3i3 "
     "e1d1 e1e1 e1e2 e1f1"},
    {"spec 2.4: soldier d8 in the enemy palace", "janggi", "5k3/9/3P5/9/9/9/9/9/3K5/9 w - - 0 1", NULL,
     "d2d1 d2d2 d2d3 d2e2 d8c8 d8d9 d8e8 d8e9"},
    {"spec 2.4: Han has only the pass e10e10", "janggi", "4k4/c7R/9/3R1R3/9/9/9/9/9/3K5 b - - 0 1", NULL, "e10e10"},

    /* Horse legs: the leg is the orthogonal neighbour towards the long side of the leap. */
    {"horse: a1 corner, both legs free", "janggi", "5k3/9/9/9/9/9/9/9/9/N2K5 w - - 0 1", NULL,
     "a1b3 a1c2 d1d1 d1d2 d1e1 d1e2"},
    {"horse: a1 corner, legs a2 (own) and b1 (enemy) blocked", "janggi", "5k3/9/9/9/9/9/9/9/P8/Np1K5 w - - 0 1", NULL,
     "a2a3 a2b2 d1d1 d1d2 d1e1 d1e2"},
    {"horse: e5, all eight leaps", "janggi", "5k3/9/9/9/9/4N4/9/9/9/3K5 w - - 0 1", NULL,
     "d1d1 d1d2 d1e1 d1e2 e5c4 e5c6 e5d3 e5d7 e5f3 e5f7 e5g4 e5g6"},
    {"horse: e5, north leg (own) and west leg (enemy) blocked", "janggi", "5k3/9/9/9/4P4/3pN4/9/9/9/3K5 w - - 0 1",
     NULL, "d1d1 d1d2 d1e1 d1e2 e5d3 e5f3 e5g4 e5g6 e6d6 e6e7 e6f6"},
    {"horse: i5 edge, leg h5 blocked, takes h7", "janggi", "5k3/9/9/7p1/9/7pN/9/9/9/3K5 w - - 0 1", NULL,
     "d1d1 d1d2 d1e1 d1e2 i5h3 i5h7"},
    {"horse: b10 on Han's back rank", "janggi", "1N3k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", NULL,
     "b10a8 b10c8 b10d9 d1d1 d1d2 d1e1 d1e2"},
    {"horse check: block the leg e2 or move the general", "janggi", "5k3/9/9/9/9/9/9/4n4/9/3K1A3 w - - 0 1", NULL,
     "d1d2 d1e1 d1e2 f1e2"},

    /* Elephant eyes: first the orthogonal point, then the diagonal point; both must be empty. */
    {"elephant: e5, all eight leaps", "janggi", "5k3/9/9/9/9/4B4/9/9/9/3K5 w - - 0 1", NULL,
     "d1d1 d1d2 d1e1 d1e2 e5b3 e5b7 e5c2 e5c8 e5g2 e5g8 e5h3 e5h7"},
    {"elephant: first eyes north e6 (own) and east f5 (enemy) blocked", "janggi",
     "5k3/9/9/9/4P4/4Bp3/9/9/9/3K5 w - - 0 1", NULL, "d1d1 d1d2 d1e1 d1e2 e5b3 e5b7 e5c2 e5g2 e6d6 e6e7 e6f6"},
    {"elephant: first eyes south e4 and west d5 blocked", "janggi", "5k3/9/9/9/9/3pB4/4p4/9/9/3K5 w - - 0 1", NULL,
     "d1d1 d1d2 d1e1 d1e2 e5c8 e5g8 e5h3 e5h7"},
    {"elephant: second eyes d7 g4 f3 c4 blocked", "janggi", "5k3/9/9/3p5/9/4B4/2p3p2/5p3/9/3K5 w - - 0 1", NULL,
     "d1d1 d1d2 d1e1 e5b7 e5c2 e5g8 e5h7"},
    {"elephant: second eyes f7 g6 d3 c6 blocked", "janggi", "5k3/9/9/5p3/2p3p2/4B4/9/3p5/9/3K5 w - - 0 1", NULL,
     "d1d1 d1e1 e5b3 e5c8 e5g2 e5h3"},
    {"elephant: a1 corner", "janggi", "5k3/9/9/9/9/9/9/9/9/B2K5 w - - 0 1", NULL, "a1c4 a1d3 d1d1 d1d2 d1e1 d1e2"},
    {"elephant check: block the first eye f3 or the second eye e2", "janggi", "5k3/9/9/9/9/9/5b3/9/5A3/3KA4 w - - 0 1",
     NULL, "d1d2 d1e2 e1e2 f2e2 f2f3"},

    /* Cannon screens: exactly one non-cannon screen; cannons are never taken. */
    {"cannon: one screen, lands up to and on the next piece; no screen, no move", "janggi",
     "r8/5k3/p8/9/9/C1P2p1r1/9/9/9/3K5 w - - 0 1", NULL,
     "a5a10 a5a9 a5d5 a5e5 a5f5 c5b5 c5c6 c5d5 d1d1 d1d2 d1e1 d1e2"},
    {"cannon: cannons are never screens and never captured", "janggi", "5k3/9/9/4c4/9/2C1CP1c1/9/4p4/9/3K5 w - - 0 1",
     NULL, "d1d1 d1d2 d1e1 e5e1 e5e2 e5g5 f5f6 f5g5"},
    {"cannon: palace diagonal d8-e9-f10 in the enemy palace", "janggi", "3k5/4a4/3C5/9/9/9/9/9/9/5K3 w - - 0 1", NULL,
     "d8f10 f1e1 f1e2 f1f1 f1f2"},
    {"cannon: no diagonal hop from the palace centre", "janggi", "5k3/4C4/3p5/9/9/9/9/9/9/3K5 w - - 0 1", NULL,
     "d1d1 d1d2 d1e1 d1e2"},
    {"cannon: no diagonal hop over an empty centre", "janggi", "3k5/9/9/9/9/9/9/5p3/9/3C1K3 w - - 0 1", NULL,
     "d1g1 d1h1 d1i1 f1e1 f1f1"},
    {"cannon: its own cannon on the centre is no diagonal screen", "janggi", "3k5/9/9/9/9/9/9/5p3/4C4/3C1K3 w - - 0 1",
     NULL, "d1g1 d1h1 d1i1 f1e1 f1f1"},
    {"cannon: the enemy general on e9 is a diagonal screen", "janggi", "9/4k4/3C5/9/9/9/9/9/9/5K3 w - - 0 1", NULL,
     "d8f10 f1e1 f1e2 f1f1 f1f2"},
    {"cannon: generals are screens, its own (d1f3) and Han's (d1d10)", "janggi", "9/3k5/9/9/9/9/9/9/4K4/3C5 w - - 0 1",
     NULL, "d1d10 d1f3 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"},

    /* Cannon checks and pins. */
    {"cannon check: interpose a chariot or a cannon, no pass", "janggi", "3k5/9/4c4/9/9/4p4/R8/6P1C/4K4/9 w - - 0 1",
     NULL, "a4e4 e2d1 e2d2 e2d3 e2f1 e2f2 e2f3 i3e3"},
    {"cannon check: the only screen, a horse, must leave", "janggi", "3k5/9/4c4/9/9/9/4N4/9/4K4/9 w - - 0 1", NULL,
     "e2d1 e2d2 e2d3 e2f1 e2f2 e2f3 e4c3 e4c5 e4d2 e4d6 e4f2 e4f6 e4g3 e4g5"},
    {"cannon check: the only screen, a chariot, leaves the file or takes", "janggi",
     "3k5/9/4c4/9/9/4R4/9/9/4K4/9 w - - 0 1", NULL,
     "e2d1 e2d2 e2d3 e2f1 e2f2 e2f3 e5a5 e5b5 e5c5 e5d5 e5e8 e5f5 e5g5 e5h5 e5i5"},
    {"cannon pin: of two screens neither may leave the file", "janggi", "3k5/9/4c4/9/9/4N4/4R4/9/4K4/9 w - - 0 1", NULL,
     "e2d1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3 e4e3"},
    {"cannon pin: behind a cannon screen the chariot is free", "janggi", "3k5/9/4c4/9/9/4C4/4R4/9/4K4/9 w - - 0 1",
     NULL, "e2d1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3 e4a4 e4b4 e4c4 e4d4 e4e3 e4f4 e4g4 e4h4 e4i4 e5e3"},
    {"cannon: stepping between an unscreened cannon and the general is illegal", "janggi",
     "3k5/9/4c4/9/9/R8/2N6/3A5/4K4/9 w - - 0 1", NULL,
     "a5a1 a5a10 a5a2 a5a3 a5a4 a5a6 a5a7 a5a8 a5a9 a5b5 a5c5 a5d5 a5f5 a5g5 a5h5 a5i5 c4a3 c4b2 c4b6 "
     "c4d2 c4d6 d3d2 e2d1 e2d2 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"},
    {"cannon: taking the cannon that sat alone in front of a cannon is illegal", "janggi",
     "3k5/9/4c4/9/9/R3c4/2N6/9/4K4/9 w - - 0 1", NULL,
     "a5a1 a5a10 a5a2 a5a3 a5a4 a5a6 a5a7 a5a8 a5a9 a5b5 a5c5 a5d5 c4a3 c4b2 c4b6 c4d2 c4d6 e2d1 e2d2 "
     "e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"},
    {"cannon check along the palace diagonal d3-e2-f1", "janggi", "3k5/9/9/9/9/9/9/3c5/4A4/5K3 w - - 0 1", NULL,
     "e2d1 e2d2 e2d3 e2e1 e2e3 e2f2 e2f3 f1e1 f1f2"},

    /* Palace diagonals: only from a corner or the centre, and only to a corner or the centre. */
    {"general: corner d1 steps to e2", "janggi", "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", NULL, "d1d1 d1d2 d1e1 d1e2"},
    {"general: centre e2 has eight steps", "janggi", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", NULL,
     "e2d1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"},
    {"general: edge midpoint e1 has no diagonal", "janggi", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", NULL,
     "e1d1 e1e1 e1e2 e1f1"},
    {"general: edge midpoint d2 has no diagonal", "janggi", "5k3/9/9/9/9/9/9/9/3K5/9 w - - 0 1", NULL,
     "d2d1 d2d2 d2d3 d2e2"},
    {"general: edge midpoint e3 has no diagonal", "janggi", "3k5/9/9/9/9/9/9/4K4/9/9 w - - 0 1", NULL,
     "e3d3 e3e2 e3e3 e3f3"},
    {"guard: corner d3 steps to e2, edge midpoint f2 does not", "janggi", "3k5/9/9/9/9/9/9/3A5/5A3/4K4 w - - 0 1", NULL,
     "d3d2 d3e2 d3e3 e1d1 e1e1 e1e2 e1f1 f2e2 f2f1 f2f3"},
    {"guard (Han): corner f8 steps to e9, edge midpoint d9 does not", "janggi", "4k4/3a5/5a3/9/9/9/9/9/9/3K5 b - - 0 1",
     NULL, "d9d10 d9d8 d9e9 e10d10 e10e10 e10e9 e10f10 f8e8 f8e9 f8f9"},
    {"chariot: d1 slides d1-e2-f3", "janggi", "9/4k4/9/9/9/9/9/9/9/3R1K3 w - - 0 1", NULL,
     "d1a1 d1b1 d1c1 d1d10 d1d2 d1d3 d1d4 d1d5 d1d6 d1d7 d1d8 d1d9 d1e1 d1e2 d1f3 f1e1 f1e2 f1f1 f1f2"},
    {"chariot: from the centre e2 to the free corners", "janggi", "5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1", NULL,
     "d1d1 d1d2 d1e1 e2a2 e2b2 e2c2 e2d2 e2d3 e2e1 e2e10 e2e3 e2e4 e2e5 e2e6 e2e7 e2e8 e2e9 e2f1 e2f2 "
     "e2f3 e2g2 e2h2 e2i2"},
    {"chariot: d1 takes on e2 and stops there", "janggi", "5k3/9/9/9/9/9/9/3K5/4p4/3R5 w - - 0 1", NULL,
     "d1a1 d1b1 d1c1 d1d2 d1e1 d1e2 d1f1 d1g1 d1h1 d1i1 d3d3 d3e2 d3e3"},
    {"chariot: d1 stopped by its own guard on e2", "janggi", "5k3/9/9/9/9/9/9/3K5/4A4/3R5 w - - 0 1", NULL,
     "d1a1 d1b1 d1c1 d1d2 d1e1 d1f1 d1g1 d1h1 d1i1 d3d2 d3d3 d3e3 e2d2 e2e1 e2e3 e2f1 e2f2 e2f3"},
    {"soldier: centre e9 steps forward-diagonally to d10 and f10", "janggi", "9/4P4/4k4/9/9/9/9/9/9/3K5 w - - 0 1",
     NULL, "d1d1 d1d2 d1e1 d1e2 e9d10 e9d9 e9e10 e9f10 e9f9"},
    {"soldier: last rank d10 and f10 move sideways only", "janggi", "3P1P3/5k3/9/9/9/9/9/9/9/3K5 w - - 0 1", NULL,
     "d10c10 d10e10 d1d1 d1d2 d1e1 d1e2 f10e10 f10g10"},
    {"soldier: edge midpoint e8 has no diagonal", "janggi", "5k3/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1", NULL,
     "d1d1 d1d2 d1e1 d1e2 e8d8 e8e9 e8f8"},
    {"soldier (Han): in Cho's palace, forward diagonals only", "janggi", "9/4k4/9/9/9/9/9/3p1K3/4p4/9 b - - 0 1", NULL,
     "d3c3 d3d2 d3e3 e2d1 e2d2 e2e1 e2f1 e2f2 e9d10 e9d8 e9d9 e9e10 e9e8 e9e9 e9f10 e9f8 e9f9"},
    {"soldier: in its own palace d1 and e2, forward diagonals only", "janggi", "3k5/9/9/9/9/9/9/9/4P4/3P1K3 w - - 0 1",
     NULL, "d1c1 d1d2 d1e1 e2d2 e2d3 e2e3 e2f2 e2f3 f1e1 f1f1 f1f2"},

    /* The pass, bikjang and immediate ends. */
    {"start position: 32 moves, the pass included", "janggi", START, NULL,
     "a1a2 a1a3 a4a5 a4b4 b1a3 b1c3 c4b4 c4c5 c4d4 d1d2 d1e1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f2 e2f3 e4d4 "
     "e4e5 e4f4 f1e1 f1f2 g4f4 g4g5 g4h4 h1g3 h1i3 i1i2 i1i3 i4h4 i4i5"},
    {"bikjang (janggi): break the facing or pass", "janggi", START, "e4d4 e7d7",
     "c1e4 d4e4 e2d2 e2d3 e2e2 e2f2 e2f3 g1e4"},
    {"bikjang (janggitraditional): break the facing or pass", "janggitraditional", START, "e4d4 e7d7",
     "c1e4 d4e4 e2d2 e2d3 e2e2 e2f2 e2f3 g1e4"},
    {"no bikjang (janggimodern): the same position has 32 moves", "janggimodern", START, "e4d4 e7d7",
     "a1a2 a1a3 a4a5 a4b4 b1a3 b1c3 c1e4 c4b4 c4c5 d1d2 d1e1 d4d5 d4e4 e2d2 e2d3 e2e1 e2e2 e2e3 e2f2 "
     "e2f3 f1e1 f1f2 g1e4 g4f4 g4g5 g4h4 h1g3 h1i3 i1i2 i1i3 i4h4 i4i5"},
    {"no bikjang (janggicasual): the same position has 32 moves", "janggicasual", START, "e4d4 e7d7",
     "a1a2 a1a3 a4a5 a4b4 b1a3 b1c3 c1e4 c4b4 c4c5 d1d2 d1e1 d4d5 d4e4 e2d2 e2d3 e2e1 e2e2 e2e3 e2f2 "
     "e2f3 f1e1 f1f2 g1e4 g4f4 g4g5 g4h4 h1g3 h1i3 i1i2 i1i3 i4h4 i4i5"},
    {"bikjang and check (janggi): the pass stays legal", "janggi", "9/4k4/9/9/9/9/9/9/r3K4/9 w - - 0 1", NULL,
     "e2d1 e2d3 e2e2 e2f1 e2f3"},
    {"check without bikjang (janggimodern): no pass", "janggimodern", "9/4k4/9/9/9/9/9/9/r3K4/9 w - - 0 1", NULL,
     "e2d1 e2d3 e2e1 e2e3 e2f1 e2f3"},
    {"bikjang confirmed (janggi): no moves", "janggi", START, "e4d4 e7d7 e2e2", ""},
    {"bikjang confirmed (janggitraditional): no moves", "janggitraditional", START, "e4d4 e7d7 e2e2", ""},
    {"facing after a pass (janggimodern): Han moves on", "janggimodern", START, "e4d4 e7d7 e2e2",
     "a10a8 a10a9 a7a6 a7b7 b10a8 b10c8 c10e7 c7b7 c7c6 d10d9 d10e10 d7d6 d7e7 e9d8 e9d9 e9e10 e9e8 "
     "e9e9 e9f8 e9f9 f10e10 f10f9 g10e7 g7f7 g7g6 g7h7 h10g8 h10i8 i10i8 i10i9 i7h7 i7i6"},
    {"facing after a pass (janggicasual): Han moves on", "janggicasual", START, "e4d4 e7d7 e2e2",
     "a10a8 a10a9 a7a6 a7b7 b10a8 b10c8 c10e7 c7b7 c7c6 d10d9 d10e10 d7d6 d7e7 e9d8 e9d9 e9e10 e9e8 "
     "e9e9 e9f8 e9f9 f10e10 f10f9 g10e7 g7f7 g7g6 g7h7 h10g8 h10i8 i10i8 i10i9 i7h7 i7i6"},
    {"double pass (janggi): no moves", "janggi", START, "e2e2 e9e9", ""},
    {"double pass (janggitraditional): no moves", "janggitraditional", START, "e2e2 e9e9", ""},
    {"double pass (janggimodern): no moves", "janggimodern", START, "e2e2 e9e9", ""},
    {"double pass (janggicasual): no moves", "janggicasual", START, "e2e2 e9e9", ""},
    {"facing generals set up (janggi): break the facing or pass", "janggi", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", NULL,
     "e2d1 e2d2 e2d3 e2e2 e2f1 e2f2 e2f3"},
    {"facing generals set up (janggimodern): any move", "janggimodern", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", NULL,
     "e2d1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"},
};
/* clang-format on */

enum { MOVE_LIST_CASES = sizeof move_list_cases / sizeof move_list_cases[0] };

typedef char MoveText[MOVE_TEXT_SIZE];

static int compare_text(const void *a, const void *b) { return strcmp(a, b); }

/* The legal moves of `pos` as sorted UCI text; returns how many. */
static int legal_texts(const Position *pos, MoveText out[MAX_MOVES])
{
    MoveList list;
    movegen_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        move_to_text(list.moves[i], RANKS_FROM_1, out[i]);
    qsort(out, (size_t)list.count, sizeof out[0], compare_text);
    return list.count;
}

/* Splits a space-separated list into sorted texts; returns how many. */
static int split_texts(const char *text, MoveText out[MAX_MOVES])
{
    int n = 0, used;
    for (const char *p = text; n < MAX_MOVES && sscanf(p, " %7s%n", out[n], &used) == 1; p += used)
        n++;
    qsort(out, (size_t)n, sizeof out[0], compare_text);
    return n;
}

/* Appends "label: m1 m2 ...\n" to buf. */
static void append_list(char *buf, size_t size, const char *label, MoveText *moves, int n)
{
    size_t len = strlen(buf);
    len += (size_t)snprintf(buf + len, size - len, "%s (%d):", label, n);
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, " %s", moves[i]);
    if (len < size)
        snprintf(buf + len, size - len, "\n");
}

/* Fails with both lists and their differences unless got == want (both sorted). */
static void assert_same_moves(MoveText *got, int ngot, MoveText *want, int nwant)
{
    MoveText missing[MAX_MOVES], extra[MAX_MOVES];
    int nmissing = 0, nextra = 0, i = 0, j = 0;
    while (i < ngot || j < nwant) {
        int c = i == ngot ? 1 : j == nwant ? -1 : strcmp(got[i], want[j]);
        if (c < 0)
            strcpy(extra[nextra++], got[i++]);
        else if (c > 0)
            strcpy(missing[nmissing++], want[j++]);
        else
            i++, j++;
    }
    if (nmissing == 0 && nextra == 0)
        return;
    char msg[4096] = "";
    append_list(msg, sizeof msg, "expected", want, nwant);
    append_list(msg, sizeof msg, "actual  ", got, ngot);
    append_list(msg, sizeof msg, "missing ", missing, nmissing);
    append_list(msg, sizeof msg, "extra   ", extra, nextra);
    fail_msg("move lists differ\n%s", msg);
}

/* The legal list equals FSF's; the bulk count and the single-move test agree with it. */
static void test_move_list(void **state)
{
    const MoveListCase *c = *state;
    TestGame g;
    test_game_setup(&g, c->rules, c->fen, c->moves);
    MoveText got[MAX_MOVES], want[MAX_MOVES];
    int ngot = legal_texts(&g.pos, got);
    int nwant = split_texts(c->expected, want);
    assert_same_moves(got, ngot, want, nwant);
    assert_int_equal(movegen_count_legal(&g.pos), ngot);
    for (int i = 0; i < ngot; i++) {
        Move m;
        assert_int_equal(move_parse(&g.pos, got[i], RANKS_FROM_1, &m), MOVE_PARSE_OK);
        assert_true(movegen_contains_legal(&g.pos, m));
    }
}

/* ---- Perft where bikjang or an immediate end changes the count (FSF figures) ---- */

typedef struct {
    const char *rules;
    const char *fen;
    int depth;
    uint64_t nodes;
} PerftCase;

static const PerftCase perft_cases[] = {
    /* Spec 2.4: Han can only pass; Cho then has 46 replies. */
    {"janggi", "4k4/c7R/9/3R1R3/9/9/9/9/9/3K5 b - - 0 1", 2, 46},
    {"janggi", "4k4/c7R/9/3R1R3/9/9/9/9/9/3K5 b - - 0 1", 3, 97},
    /* Spec 3.3: generals facing from the set-up; with bikjang the pass ends the game at once. */
    {"janggi", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", 2, 24},
    {"janggitraditional", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", 2, 24},
    {"janggimodern", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", 2, 36},
    {"janggicasual", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", 2, 36},
};

static void test_perft_small(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof perft_cases / sizeof perft_cases[0]; i++) {
        const PerftCase *c = &perft_cases[i];
        TestGame g;
        test_game_setup(&g, c->rules, c->fen, NULL);
        uint64_t got = perft(&g.pos, c->depth);
        if (got != c->nodes)
            fail_msg("%s ;variant %s perft %d: expected %llu, got %llu", c->fen, c->rules, c->depth,
                     (unsigned long long)c->nodes, (unsigned long long)got);
    }
}

/* The bikjang flag is set from a FEN in the rule sets that have bikjang, and by the move that opens
 * the file; a pass in reply confirms it (an immediate end) only in those rule sets. */
static void test_bikjang_state(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        const RuleSet *rs = rules_all[i];
        TestGame g;
        test_game_setup(&g, rs->name, "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", NULL);
        assert_int_equal(g.pos.st->bikjang, rs->bikjang);
        assert_true(position_generals_facing(&g.pos));
        test_game_setup(&g, rs->name, START, "e4d4");
        assert_false(g.pos.st->bikjang);
        test_game_play(&g, "e7d7");
        assert_int_equal(g.pos.st->bikjang, rs->bikjang);
        assert_false(position_is_immediate_end(&g.pos));
        test_game_play(&g, "e2e2");
        assert_int_equal(position_is_immediate_end(&g.pos), rs->bikjang);
        position_unmake(&g.pos);
        assert_false(position_is_immediate_end(&g.pos));
    }
}

/* ---- make/unmake ---- */

/* Positions with many kinds of moves: the start, FSF's two test positions, and positions from
 * seeded games with checks, palace play and a nearly bare board. */
static const char *const walk_fens[] = {
    START,
    "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1",
    "1Pbcka3/3nNn1c1/N2CaC3/1pB6/9/9/5P3/9/4K4/9 w - - 0 23",
    "3a3b1/4kaR2/3ncn2r/1p2p2pp/9/9/1b2BPP1P/2r1CN3/1C2A4/3AK2BR b - - 3 18",
    "4kC3/7r1/1cn2a3/4bp2p/3r3P1/pb1P3P1/N4pRP1/9/1C1ARK3/1B2A1N2 b - - 1 47",
    "4a4/5k3/2b2C3/9/9/9/1p7/3p5/9/4K4 b - - 0 81",
};

enum { WALKS = 12, WALK_PLIES = 12 };

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The position reached by moves must equal the same position set up from its FEN: same FEN back,
 * same key, checkers and bikjang flag. */
static void assert_matches_fresh(const Position *pos, const char *fen)
{
    Position fresh;
    char err[160] = "", again[FEN_SIZE];
    if (!position_set_fen(&fresh, fen, pos->rules, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
        fail_msg("FEN of a reached position rejected: %s (%s)", err, fen);
    position_to_fen(&fresh, again, sizeof again);
    assert_string_equal(again, fen);
    if (fresh.st->key != pos->st->key)
        fail_msg("%s: incremental key %016llx, fresh key %016llx", fen, (unsigned long long)pos->st->key,
                 (unsigned long long)fresh.st->key);
    assert_true(fresh.st->checkers == pos->st->checkers);
    assert_int_equal(fresh.st->bikjang, pos->st->bikjang);
}

/* Random walks: each make is checked against a fresh set-up, then every unmake must give back the
 * exact FEN and key of the position before the move. Both a bikjang and a non-bikjang rule set. */
static void test_make_unmake_random(void **state)
{
    (void)state;
    static const char *const rule_names[] = {"janggi", "janggicasual"};
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    int made = 0;
    for (size_t f = 0; f < sizeof walk_fens / sizeof walk_fens[0]; f++)
        for (int r = 0; r < 2; r++)
            for (int w = 0; w < WALKS; w++) {
                TestGame g;
                test_game_setup(&g, rule_names[r], walk_fens[f], NULL);
                char fens[WALK_PLIES + 1][FEN_SIZE];
                uint64_t keys[WALK_PLIES + 1];
                int ply = 0;
                position_to_fen(&g.pos, fens[0], FEN_SIZE);
                keys[0] = g.pos.st->key;
                for (; ply < WALK_PLIES; ply++) {
                    MoveList list;
                    movegen_legal(&g.pos, &list);
                    if (list.count == 0)
                        break;
                    position_make(&g.pos, list.moves[rng_next(&seed) % (uint64_t)list.count], &g.states[ply]);
                    made++;
                    position_to_fen(&g.pos, fens[ply + 1], FEN_SIZE);
                    keys[ply + 1] = g.pos.st->key;
                    assert_matches_fresh(&g.pos, fens[ply + 1]);
                }
                for (; ply > 0; ply--) {
                    char fen[FEN_SIZE];
                    position_unmake(&g.pos);
                    position_to_fen(&g.pos, fen, sizeof fen);
                    assert_string_equal(fen, fens[ply - 1]);
                    assert_true(g.pos.st->key == keys[ply - 1]);
                }
                assert_ptr_equal(g.pos.st, &g.pos.root);
            }
    assert_true(made >= 500);
}

/* A pass changes only the side to move: its key differs from the position before by the same
 * amount wherever it is played. */
static void test_pass_key(void **state)
{
    (void)state;
    TestGame a, b;
    test_game_setup(&a, "janggi", START, NULL);
    test_game_setup(&b, "janggi", START, "b1c3 b10c8");
    uint64_t before_a = a.pos.st->key, before_b = b.pos.st->key;
    test_game_play(&a, "e2e2");
    test_game_play(&b, "e2e2");
    assert_true((a.pos.st->key ^ before_a) == (b.pos.st->key ^ before_b));
    assert_true(a.pos.st->key != before_a);
    assert_true(a.pos.st->halfmove == 1 && a.pos.st->pass);
}

/* ---- Move text ---- */

/* UCI moves of 4, 5 and 6 characters (rank 10 takes two digits) and their UCCI forms. */
typedef struct {
    const char *fen;
    const char *moves;
    const char *uci;
    const char *ucci;
} TextCase;

static const TextCase text_cases[] = {
    {START, "e2e2", "a10a9", "a9a8"},
    {START, "e2e2", "b10c8", "b9c7"},
    {START, NULL, "b1c3", "b0c2"},
    {"9/3k5/5R3/9/9/9/9/9/9/4K4 w - - 0 1", NULL, "f8f10", "f7f9"},
    {"9/3k5/5R3/9/9/9/9/9/9/4K4 w - - 0 1", NULL, "f8d10", "f7d9"},
    {"9/3k5/5R3/9/9/9/9/9/9/4K4 w - - 0 1", NULL, "f8f1", "f7f0"},
    {START, "e2e2 b10c8 e2e2", "a10b10", "a9b9"},
    {"4k4/c7R/9/3R1R3/9/9/9/9/9/3K5 b - - 0 1", NULL, "e10e10", "e9e9"},
};

static void test_move_text_lengths(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++) {
        const TextCase *c = &text_cases[i];
        TestGame g;
        test_game_setup(&g, "janggi", c->fen, c->moves);
        Move uci = MOVE_NONE, ucci = MOVE_NONE;
        assert_int_equal(move_parse(&g.pos, c->uci, RANKS_FROM_1, &uci), MOVE_PARSE_OK);
        assert_int_equal(move_parse(&g.pos, c->ucci, RANKS_FROM_0, &ucci), MOVE_PARSE_OK);
        assert_int_equal(uci, ucci);
        char text[MOVE_TEXT_SIZE];
        move_to_text(uci, RANKS_FROM_1, text);
        assert_string_equal(text, c->uci);
        move_to_text(uci, RANKS_FROM_0, text);
        assert_string_equal(text, c->ucci);
    }
}

/* Cho's pass at the start is e2e2 in UCI and e1e1 in UCCI; 0000, @@@@ and pass read as the pass. */
static void test_pass_text(void **state)
{
    (void)state;
    TestGame g;
    test_game_setup(&g, "janggi", START, NULL);
    const Move pass = make_move(make_square(4, 1), make_square(4, 1));
    char text[MOVE_TEXT_SIZE];
    move_to_text(pass, RANKS_FROM_1, text);
    assert_string_equal(text, "e2e2");
    move_to_text(pass, RANKS_FROM_0, text);
    assert_string_equal(text, "e1e1");
    static const char *const uci_forms[] = {"e2e2", "0000", "@@@@", "pass"};
    for (int i = 0; i < 4; i++) {
        Move m = MOVE_NONE;
        assert_int_equal(move_parse(&g.pos, uci_forms[i], RANKS_FROM_1, &m), MOVE_PARSE_OK);
        assert_int_equal(m, pass);
    }
    Move m = MOVE_NONE;
    assert_int_equal(move_parse(&g.pos, "e1e1", RANKS_FROM_0, &m), MOVE_PARSE_OK);
    assert_int_equal(m, pass);
    /* Han's pass after Cho's first move. */
    test_game_play(&g, "b1c3");
    assert_int_equal(move_parse(&g.pos, "pass", RANKS_FROM_1, &m), MOVE_PARSE_OK);
    move_to_text(m, RANKS_FROM_1, text);
    assert_string_equal(text, "e9e9");
    move_to_text(m, RANKS_FROM_0, text);
    assert_string_equal(text, "e8e8");
}

static void test_square_text(void **state)
{
    (void)state;
    char text[4];
    square_to_text(make_square(0, 0), RANKS_FROM_1, text);
    assert_string_equal(text, "a1");
    square_to_text(make_square(0, 0), RANKS_FROM_0, text);
    assert_string_equal(text, "a0");
    square_to_text(make_square(8, 9), RANKS_FROM_1, text);
    assert_string_equal(text, "i10");
    square_to_text(make_square(8, 9), RANKS_FROM_0, text);
    assert_string_equal(text, "i9");
}

/* Not a move in the notation at all, whatever the position. */
static void test_move_parse_syntax(void **state)
{
    (void)state;
    static const char *const uci_bad[] = {
        "j1j2",  "a11a10", "a0a1",  "e2",     "e2e2e", "",     "e2e", "E2E2",      "e2-e3", " e2e2",
        "e2e2 ", "a10a",   "e22e3", "i11i10", "00000", "PASS", "@@@", "e10e10e10", "a1a0",
    };
    static const char *const ucci_bad[] = {"a10a9", "a9a10", "j0j1", "e1e1x", "e1", "a-1a0"};
    TestGame g;
    test_game_setup(&g, "janggi", START, NULL);
    Move m;
    for (size_t i = 0; i < sizeof uci_bad / sizeof uci_bad[0]; i++)
        if (move_parse(&g.pos, uci_bad[i], RANKS_FROM_1, &m) != MOVE_PARSE_SYNTAX)
            fail_msg("UCI '%s' should be a syntax error", uci_bad[i]);
    for (size_t i = 0; i < sizeof ucci_bad / sizeof ucci_bad[0]; i++)
        if (move_parse(&g.pos, ucci_bad[i], RANKS_FROM_0, &m) != MOVE_PARSE_SYNTAX)
            fail_msg("UCCI '%s' should be a syntax error", ucci_bad[i]);
}

/* Well-formed moves that are not legal where they are tried. */
typedef struct {
    const char *rules;
    const char *fen;
    const char *moves;
    const char *text;
} IllegalCase;

static const IllegalCase illegal_cases[] = {
    {"janggi", START, NULL, "a1a5"},                                 /* chariot through its own soldier */
    {"janggi", START, NULL, "b1b3"},                                 /* not a horse leap */
    {"janggi", START, NULL, "c1e4"},                                 /* elephant onto its own soldier */
    {"janggi", START, NULL, "a4a3"},                                 /* soldier backwards */
    {"janggi", START, NULL, "e2e4"},                                 /* general two steps */
    {"janggi", START, NULL, "a1a1"},                                 /* a "pass" by a chariot */
    {"janggi", START, NULL, "e9e9"},                                 /* Han's pass on Cho's turn */
    {"janggi", START, NULL, "a10a9"},                                /* a Han piece on Cho's turn */
    {"janggi", START, NULL, "e5e6"},                                 /* from an empty point */
    {"janggi", START, NULL, "b3b10"},                                /* cannon using the cannon on b8 as a screen */
    {"janggi", "3k5/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", NULL, "d3c3"}, /* guard out of its palace */
    {"janggi", "3k5/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", NULL, "d3d4"},
    {"janggi", "3k5/9/9/9/9/9/9/4K4/9/9 w - - 0 1", NULL, "e3d4"}, /* general out of its palace */
    /* In check from the cannon on e8 (screen e5): no pass in any spelling, no stay on the file. */
    {"janggi", "3k5/9/4c4/9/9/4p4/R8/6P1C/4K4/9 w - - 0 1", NULL, "e2e2"},
    {"janggi", "3k5/9/4c4/9/9/4p4/R8/6P1C/4K4/9 w - - 0 1", NULL, "0000"},
    {"janggi", "3k5/9/4c4/9/9/4p4/R8/6P1C/4K4/9 w - - 0 1", NULL, "pass"},
    {"janggi", "3k5/9/4c4/9/9/4p4/R8/6P1C/4K4/9 w - - 0 1", NULL, "e2e1"},
    /* After a double pass nothing is legal. */
    {"janggi", START, "e2e2 e9e9", "a1a2"},
    {"janggicasual", START, "e2e2 e9e9", "@@@@"},
    /* In the bikjang state a move that keeps the facing is illegal. */
    {"janggi", START, "e4d4 e7d7", "a1a2"},
    {"janggi", START, "e4d4 e7d7", "e2e3"},
};

static void test_move_parse_illegal(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof illegal_cases / sizeof illegal_cases[0]; i++) {
        const IllegalCase *c = &illegal_cases[i];
        TestGame g;
        test_game_setup(&g, c->rules, c->fen, c->moves);
        Move m;
        if (move_parse(&g.pos, c->text, RANKS_FROM_1, &m) != MOVE_PARSE_ILLEGAL)
            fail_msg("'%s' should be illegal in %s%s%s", c->text, c->fen, c->moves ? " moves " : "",
                     c->moves ? c->moves : "");
    }
}

/* Every legal move of several positions survives text and back, in both rank bases. */
static void test_move_text_round_trip(void **state)
{
    (void)state;
    for (size_t f = 0; f < sizeof walk_fens / sizeof walk_fens[0]; f++) {
        TestGame g;
        test_game_setup(&g, "janggi", walk_fens[f], NULL);
        MoveList list;
        movegen_legal(&g.pos, &list);
        assert_true(list.count > 0);
        for (int i = 0; i < list.count; i++)
            for (int base = RANKS_FROM_0; base <= RANKS_FROM_1; base++) {
                char text[MOVE_TEXT_SIZE];
                Move m = MOVE_NONE;
                move_to_text(list.moves[i], (RankBase)base, text);
                size_t len = strlen(text);
                assert_true(len >= 4 && len <= 6);
                assert_int_equal(move_parse(&g.pos, text, (RankBase)base, &m), MOVE_PARSE_OK);
                assert_int_equal(m, list.moves[i]);
            }
    }
}

int main(void)
{
    engine_init();
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_perft_small),        cmocka_unit_test(test_bikjang_state),
        cmocka_unit_test(test_make_unmake_random), cmocka_unit_test(test_pass_key),
        cmocka_unit_test(test_move_text_lengths),  cmocka_unit_test(test_pass_text),
        cmocka_unit_test(test_square_text),        cmocka_unit_test(test_move_parse_syntax),
        cmocka_unit_test(test_move_parse_illegal), cmocka_unit_test(test_move_text_round_trip),
    };
    enum { FIXED = sizeof fixed / sizeof fixed[0] };
    static struct CMUnitTest tests[MOVE_LIST_CASES + FIXED];
    for (size_t i = 0; i < MOVE_LIST_CASES; i++)
        tests[i] =
            (struct CMUnitTest){move_list_cases[i].name, test_move_list, NULL, NULL, (void *)&move_list_cases[i]};
    memcpy(tests + MOVE_LIST_CASES, fixed, sizeof fixed);
    return _cmocka_run_group_tests("movegen", tests, MOVE_LIST_CASES + FIXED, NULL, NULL);
}

/* The hand-crafted evaluation. Every number comes from the weight file (eval/weights.c parses it):
 * material (a cannon's value grows with the screens left on the board), piece-square tables mirrored
 * by rank for Han, mobility by the real move rules (cannon screens and restrictions, horse legs,
 * elephant eyes, palace diagonals), palace safety (pieces reaching the enemy palace, missing guards),
 * threats (pieces attacked by less valuable ones, or attacked and undefended), a tempo for the side to
 * move, and the counting term: Han's deom where the rule set counts, and a blend towards the
 * end-of-game verdict near the move limit, after a pass and in bikjang. The network's score (nnue.h)
 * takes the counting term too. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "../engine/movegen.h"
#include "../engine/referee.h"
#include "internal.h"

extern const char eval_weights_path[];
extern const char eval_net_path[];
extern const unsigned char eval_net_blob[], eval_net_blob_end[];

static EvalWeights weights;
static int psq[PIECE_COUNT][SQUARE_COUNT]; /* pst by piece, mirrored for Han */

static Square mirror_rank(Square s) { return make_square(square_file(s), RANK_COUNT - 1 - square_rank(s)); }

void eval_use_weights(const EvalWeights *w)
{
    weights = *w;
    memset(psq, 0, sizeof psq);
    for (PieceType pt = SOLDIER; pt <= GENERAL; pt++)
        for (Square s = 0; s < SQUARE_COUNT; s++) {
            psq[make_piece(WHITE, pt)][s] = w->pst[pt - SOLDIER][s];
            psq[make_piece(BLACK, pt)][s] = w->pst[pt - SOLDIER][mirror_rank(s)];
        }
}

const EvalWeights *eval_weights(void) { return &weights; }

int eval_soldier_value(void) { return weights.piece_value[0] > 0 ? weights.piece_value[0] : 100; }

bool eval_init(char *err, size_t err_size)
{
    size_t len;
    const char *text = eval_weights_text(&len);
    EvalWeights w;
    char why[320];
    if (!eval_parse_weights(text, len, &w, why, sizeof why)) {
        if (err_size > 0)
            snprintf(err, err_size, "weight file %s: %s", eval_weights_name(), why);
        return false;
    }
    eval_use_weights(&w);
    NnueNet *net =
        nnue_net_read(eval_net_blob, (size_t)(eval_net_blob_end - eval_net_blob), eval_net_path, why, sizeof why);
    if (!net) {
        if (err_size > 0)
            snprintf(err, err_size, "net file %s: %s", eval_net_path, why);
        return false;
    }
    nnue_set_current(net);
    return true;
}

static atomic_bool use_nnue = true; /* "Use NNUE"'s default */

void eval_set_use_nnue(bool on) { atomic_store_explicit(&use_nnue, on, memory_order_relaxed); }

bool eval_use_nnue(void) { return atomic_load_explicit(&use_nnue, memory_order_relaxed); }

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

const char *eval_embedded_net_name(void) { return base_name(eval_net_path); }

bool eval_load_net(const char *path, char *err, size_t err_size)
{
    char why[320];
    NnueNet *net = NULL;
    if (strcmp(path, eval_embedded_net_name()) == 0 || strcmp(path, "<embedded>") == 0) {
        net = nnue_net_read(eval_net_blob, (size_t)(eval_net_blob_end - eval_net_blob), eval_net_path, why, sizeof why);
        if (!net)
            snprintf(err, err_size, "%s: %s", eval_net_path, why);
    } else
        net = nnue_net_load(path, err, err_size);
    if (!net)
        return false;
    nnue_set_current(net);
    return true;
}

const char *eval_net_name(void) { return nnue_current() ? nnue_current()->name : "(none)"; }

const char *eval_net_description(void)
{
    static char text[NNUE_MAX_DESCRIPTION + 400];
    const NnueNet *net = nnue_current();
    if (!net)
        return "(none)";
    snprintf(text, sizeof text, "%s (%d king bucket%s, %d hidden, %d output bucket%s%s)", net->name,
             net->arch.king_buckets, net->arch.king_buckets > 1 ? "s" : "", net->arch.hidden, net->arch.output_buckets,
             net->arch.output_buckets > 1 ? "s" : "",
             net->arch.base == NNUE_BASE_CLASSICAL ? ", on the classical terms" : "");
    return text;
}

const char *eval_weights_name(void)
{
    const char *slash = strrchr(eval_weights_path, '/');
    return slash ? slash + 1 : eval_weights_path;
}

/* What one side's pieces do: piece-square sum, mobility, and their attack on the enemy palace. */
typedef struct {
    int pst, mobility;
    int attackers, attack_weight, attack_squares;
    Bitboard attacks_by[PIECE_TYPE_COUNT]; /* points each type attacks or defends */
} SideScan;

static inline __attribute__((always_inline)) void scan_piece(const Position *pos, Color us, PieceType pt, Square s,
                                                             Bitboard area, Bitboard enemy_palace, SideScan *sc,
                                                             int *moves)
{
    Bitboard reach = movegen_piece_reach(pos, pt, s, us);
    sc->pst += psq[make_piece(us, pt)][s];
    *moves += bb_popcount(reach & area);
    sc->attacks_by[pt] |= reach;
    if (pt != GUARD) { /* guards never leave their palace */
        Bitboard hit = reach & enemy_palace;
        int hits = hit != 0;
        sc->attackers += hits;
        sc->attack_weight += hits * weights.safety_attacker[pt - SOLDIER];
        sc->attack_squares += bb_popcount(hit);
    }
}

/* Each piece of one type; the two 64-bit halves of the board are walked separately, which is cheaper
 * than popping bits off the 128-bit set. */
static inline __attribute__((always_inline)) void scan_type(const Position *pos, Color us, PieceType pt, Bitboard area,
                                                            Bitboard enemy_palace, SideScan *sc)
{
    Bitboard pieces = position_pieces(pos, us, pt);
    int moves = 0;
    for (uint64_t lo = (uint64_t)pieces; lo; lo &= lo - 1)
        scan_piece(pos, us, pt, __builtin_ctzll(lo), area, enemy_palace, sc, &moves);
    for (uint64_t hi = (uint64_t)(pieces >> 64); hi; hi &= hi - 1)
        scan_piece(pos, us, pt, 64 + __builtin_ctzll(hi), area, enemy_palace, sc, &moves);
    sc->mobility += weights.mobility[pt - SOLDIER] * moves;
}

static inline Bitboard soldier_attacks(const Position *pos, Color c)
{
    Bitboard result = 0, soldiers = position_pieces(pos, c, SOLDIER);
    for (uint64_t lo = (uint64_t)soldiers; lo; lo &= lo - 1)
        result |= soldier_moves_table[c][__builtin_ctzll(lo)];
    for (uint64_t hi = (uint64_t)(soldiers >> 64); hi; hi &= hi - 1)
        result |= soldier_moves_table[c][64 + __builtin_ctzll(hi)];
    return result;
}

static inline void scan_side(const Position *pos, Color us, Bitboard enemy_soldier_attacks, SideScan *sc)
{
    Bitboard area = ~pos->by_color[us] & ~enemy_soldier_attacks;
    Bitboard enemy_palace = palace_bb[color_flip(us)];
    *sc = (SideScan){0};
    scan_type(pos, us, SOLDIER, area, enemy_palace, sc);
    scan_type(pos, us, GUARD, area, enemy_palace, sc);
    scan_type(pos, us, ELEPHANT, area, enemy_palace, sc);
    scan_type(pos, us, HORSE, area, enemy_palace, sc);
    scan_type(pos, us, CANNON, area, enemy_palace, sc);
    scan_type(pos, us, CHARIOT, area, enemy_palace, sc);
    sc->pst += psq[make_piece(us, GENERAL)][pos->general[us]];
    sc->attacks_by[GENERAL] = palace_step_table[pos->general[us]];
}

/* Threats against one side's pieces: each attacked by a less valuable enemy piece (the values of the
 * exchange: soldier, then guard and elephant, then horse and cannon, then chariot), and each attacked
 * and not defended. Quiescence only sees the side to move's captures; these see both sides'. */
static inline int threats(const Position *pos, Color us, const SideScan *own, const SideScan *enemy)
{
    const Bitboard *by = enemy->attacks_by;
    Bitboard below_guard = by[SOLDIER];
    Bitboard below_horse = below_guard | by[GUARD] | by[ELEPHANT];
    Bitboard below_chariot = below_horse | by[HORSE] | by[CANNON];
    const Bitboard lesser[THREAT_TYPES] = {below_guard, below_guard, below_horse, below_horse, below_chariot};
    int score = 0;
    for (PieceType pt = GUARD; pt <= CHARIOT; pt++)
        score += weights.threat_by_lesser[pt - GUARD] * bb_popcount(position_pieces(pos, us, pt) & lesser[pt - GUARD]);
    Bitboard enemy_attacks = 0, defended = 0;
    for (PieceType pt = SOLDIER; pt <= GENERAL; pt++) {
        enemy_attacks |= by[pt];
        defended |= own->attacks_by[pt];
    }
    Bitboard hanging = pos->by_color[us] & ~pos->by_type[GENERAL] & enemy_attacks & ~defended;
    return score + weights.threat_hanging * bb_popcount(hanging);
}

static inline int material(const Position *pos, Color c, int screens)
{
    int sum = 0;
    for (PieceType pt = SOLDIER; pt <= CHARIOT; pt++)
        sum += weights.piece_value[pt - SOLDIER] * bb_popcount(position_pieces(pos, c, pt));
    return sum + weights.cannon_screen * screens * bb_popcount(position_pieces(pos, c, CANNON));
}

/* Danger to a palace from the enemy's scan, and from missing guards. */
static inline int palace_danger(const SideScan *enemy, int guards)
{
    int steps = enemy->attackers < SAFETY_SCALE_STEPS ? enemy->attackers : SAFETY_SCALE_STEPS - 1;
    int danger =
        (enemy->attack_weight + weights.safety_square * enemy->attack_squares) * weights.safety_scale[steps] / 100;
    return danger + (guards < 2 ? 2 - guards : 0) * weights.safety_missing_guard;
}

/* The end-of-game verdict from Cho's side: a count where the rule set counts, otherwise a draw. */
static inline int end_verdict(const Position *pos)
{
    if (!pos->rules->material_counting)
        return 0;
    return referee_counting_winner(referee_count_material(pos)) == WHITE ? weights.counting_verdict
                                                                         : -weights.counting_verdict;
}

static inline int max_int(int a, int b) { return a > b ? a : b; }
static inline int min_int(int a, int b) { return a < b ? a : b; }

/* The counting term: Han's deom, then the blends (see EvalTerms). Scores are Cho's view. */
static inline void counting_term(const Position *pos, EvalTerms *t)
{
    const StateInfo *st = pos->st;
    t->deom = pos->rules->material_counting ? weights.deom : 0;
    t->limit_blend = t->option_blend = 0;
    t->verdict = 0;
    int s = t->raw - t->deom;
    int to_limit = max_int(pos->rules->nmove_plies - st->halfmove, 0);
    bool may_end = st->bikjang || (st->pass && !st->checkers);
    if (st->ended) {
        t->verdict = end_verdict(pos);
        s = t->verdict;
    } else if (to_limit < weights.counting_window || may_end) {
        int v = t->verdict = end_verdict(pos);
        if (to_limit < weights.counting_window) {
            /* Both sides are carried to the limit: towards the verdict, never against it. */
            t->limit_blend =
                weights.counting_limit_blend * (weights.counting_window - to_limit) / weights.counting_window;
            int target = v > 0 ? max_int(s, v) : v < 0 ? min_int(s, v) : 0;
            s += (target - s) * t->limit_blend / 100;
        }
        if (may_end) {
            /* The side to move may pass and end the game: it does so only if the verdict is better. */
            int sign = pos->side == WHITE ? 1 : -1;
            int ours = sign * s, verdict = sign * v;
            if (verdict > ours) {
                t->option_blend = weights.counting_option_blend;
                s = sign * (ours + (verdict - ours) * t->option_blend / 100);
            }
        }
    }
    s = max_int(min_int(s, EVAL_LIMIT - 1), -(EVAL_LIMIT - 1));
    t->counting = s - t->raw;
    t->tempo = 0;
    t->total = s;
}

/* The classical evaluation's tempo for the side to move, on top of everything but a finished game's
 * verdict: its static scores of quiet positions otherwise undervalue having the move. (A network
 * learns the side to move's worth itself.) */
static inline void tempo_term(const Position *pos, EvalTerms *t)
{
    t->tempo = pos->st->ended ? 0 : pos->side == WHITE ? weights.tempo : -weights.tempo;
    t->total = max_int(min_int(t->total + t->tempo, EVAL_LIMIT - 1), -(EVAL_LIMIT - 1));
}

/* The board terms (material, piece-square, mobility, palace safety, threats) into t, and their sum as
 * t->raw (Cho's view). They read the board only, not the game state. */
static inline __attribute__((always_inline)) void board_terms(const Position *pos, EvalTerms *t)
{
    Bitboard soldiers[COLOR_COUNT] = {soldier_attacks(pos, WHITE), soldier_attacks(pos, BLACK)};
    SideScan scan[COLOR_COUNT];
    scan_side(pos, WHITE, soldiers[BLACK], &scan[WHITE]);
    scan_side(pos, BLACK, soldiers[WHITE], &scan[BLACK]);
    int screens = bb_popcount(pos->occupied & ~pos->by_type[CANNON] & ~pos->by_type[GENERAL]);
    for (Color c = WHITE; c <= BLACK; c++) {
        t->material[c] = material(pos, c, screens);
        t->pst[c] = scan[c].pst;
        t->mobility[c] = scan[c].mobility;
        t->safety[c] = -palace_danger(&scan[color_flip(c)], bb_popcount(position_pieces(pos, c, GUARD)));
        t->threats[c] = -threats(pos, c, &scan[c], &scan[color_flip(c)]);
    }
    t->raw = t->material[WHITE] - t->material[BLACK] + t->pst[WHITE] - t->pst[BLACK] + t->mobility[WHITE]
             - t->mobility[BLACK] + t->safety[WHITE] - t->safety[BLACK] + t->threats[WHITE] - t->threats[BLACK];
}

static inline __attribute__((always_inline)) void compute(const Position *pos, EvalTerms *t)
{
    board_terms(pos, t);
    counting_term(pos, t);
    tempo_term(pos, t);
}

int eval_classical_raw(const Position *pos)
{
    EvalTerms t;
    board_terms(pos, &t);
    return pos->side == WHITE ? t.raw : -t.raw;
}

void eval_terms(const Position *pos, EvalTerms *t) { compute(pos, t); }

int eval_evaluate(const Position *pos)
{
    EvalTerms t;
    compute(pos, &t);
    return pos->side == WHITE ? t.total : -t.total;
}

/* The net's score (side to move) as the raw term, then the counting terms as on the classical score. */
static inline int with_counting(const Position *pos, int net_stm, EvalTerms *t)
{
    t->raw = pos->side == WHITE ? net_stm : -net_stm;
    counting_term(pos, t);
    return pos->side == WHITE ? t->total : -t->total;
}

/* The net's output plus, for a net on the classical base, the board terms it corrects (side to move). */
static inline int net_raw(const NnueNet *net, const Position *pos, int net_output)
{
    return net->arch.base == NNUE_BASE_CLASSICAL ? net_output + eval_classical_raw(pos) : net_output;
}

int eval_evaluate_nnue(const Position *pos, NnueStack *stack)
{
    EvalTerms t;
    return with_counting(pos, net_raw(stack->net, pos, nnue_evaluate(stack, pos)), &t);
}

/* ---- eval_trace ---- */

typedef struct {
    char *buf;
    size_t size, used;
} Text;

static void put(Text *out, const char *fmt, ...)
{
    if (out->used >= out->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out->buf + out->used, out->size - out->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        out->used = out->used + (size_t)n < out->size ? out->used + (size_t)n : out->size;
}

/* Centipawns as pawns with two decimals: "-0.15". */
static const char *pawns(int cp, char out[16])
{
    int a = cp < 0 ? -cp : cp;
    snprintf(out, 16, "%s%d.%02d", cp < 0 ? "-" : "", a / 100, a % 100);
    return out;
}

static void row(Text *out, const char *term, const int side[COLOR_COUNT], int total)
{
    char a[16], b[16], c[16];
    put(out, "%14s | %7s %7s | %7s\n", term, pawns(side[WHITE], a), pawns(side[BLACK], b), pawns(total, c));
}

void eval_trace(const Position *pos, char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    Text out = {buf, size, 0};
    EvalTerms t;
    compute(pos, &t);
    MaterialCount count = referee_count_material(pos);
    Color count_winner = referee_counting_winner(count);
    const char *side_name[COLOR_COUNT] = {"Cho", "Han"};
    char a[16], b[16];

    put(&out, "Janggun evaluation (weights %s, rules %s, %s to move)\n\n", eval_weights_name(), pos->rules->name,
        side_name[pos->side]);
    put(&out, "          Term |     Cho     Han |   Total\n");
    put(&out, "---------------+-----------------+--------\n");
    row(&out, "Material", t.material, t.material[WHITE] - t.material[BLACK]);
    row(&out, "Piece-square", t.pst, t.pst[WHITE] - t.pst[BLACK]);
    row(&out, "Mobility", t.mobility, t.mobility[WHITE] - t.mobility[BLACK]);
    row(&out, "Palace safety", t.safety, t.safety[WHITE] - t.safety[BLACK]);
    row(&out, "Threats", t.threats, t.threats[WHITE] - t.threats[BLACK]);
    put(&out, "%14s | %7s %7s | %7s\n", "Counting", "--", t.deom ? pawns(t.deom, a) : "--", pawns(t.counting, b));
    put(&out, "%14s | %15s | %7s\n", "Tempo", pos->side == WHITE ? "Cho to move" : "Han to move", pawns(t.tempo, a));
    put(&out, "---------------+-----------------+--------\n");
    put(&out, "%14s | %15s | %7s\n\n", "Total", "", pawns(t.total, a));

    int plies = pos->st->halfmove, limit = pos->rules->nmove_plies;
    if (pos->rules->material_counting)
        put(&out, "Counting: Han's deom %s; a count now: %s wins", pawns(t.deom, a), side_name[count_winner]);
    else
        put(&out, "Counting: not used under %s (drawn endings stay drawn)", pos->rules->name);
    put(&out, "; move limit %d of %d plies, blend %d%%; pass or bikjang blend %d%%\n", plies, limit, t.limit_blend,
        t.option_blend);
    int stm = pos->side == WHITE ? t.total : -t.total;
    put(&out, "Final evaluation: %s (Cho's point of view); %d cp for the side to move (%s)\n", pawns(t.total, a), stm,
        side_name[pos->side]);
    const NnueNet *net = nnue_current();
    if (net) {
        EvalTerms n;
        int raw = net_raw(net, pos, nnue_evaluate_full(net, pos)), with = with_counting(pos, raw, &n);
        put(&out, "Network (%s, %s): %s raw, %s with counting (Cho's point of view); %d cp for the side to move\n",
            net->name, eval_use_nnue() ? "in use" : "not in use: Use NNUE is false",
            pawns(pos->side == WHITE ? raw : -raw, a), pawns(n.total, b), with);
    }
    int han_halves = 2 * count.han + DEOM_HALF_POINTS;
    put(&out, "Material count: Cho %d, Han %d + %d.%d deom = %d.%d (%s ahead)\n", count.cho, count.han,
        DEOM_HALF_POINTS / 2, DEOM_HALF_POINTS % 2 * 5, han_halves / 2, han_halves % 2 * 5, side_name[count_winner]);
}

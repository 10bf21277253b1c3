/* Position set-up, FEN, make/unmake and attack queries. */
#define _POSIX_C_SOURCE 200809L
#include "position.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

const char START_FEN[] = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

static uint64_t zobrist_piece[PIECE_COUNT][SQUARE_COUNT];
static uint64_t zobrist_side;

static const char piece_letters[] = " PABNCRK"; /* indexed by PieceType */
static const char *const piece_names[PIECE_TYPE_COUNT] = {"",       "soldiers", "guards",   "elephants",
                                                          "horses", "cannons",  "chariots", "generals"};
static const int piece_limit[PIECE_TYPE_COUNT] = {0, 5, 2, 2, 2, 2, 2, 1};
static const char *const side_names[COLOR_COUNT] = {"Cho", "Han"};

void engine_init(void)
{
    bitboard_init();
    uint64_t seed = 0x4a616e6767756eULL;
    for (int p = 0; p < PIECE_COUNT; p++)
        for (Square s = 0; s < SQUARE_COUNT; s++)
            zobrist_piece[p][s] = splitmix64(&seed);
    zobrist_side = splitmix64(&seed);
}

static void put_piece(Position *pos, Piece pc, Square s)
{
    pos->board[s] = pc;
    pos->by_color[piece_color(pc)] |= bb_square(s);
    pos->by_type[piece_type(pc)] |= bb_square(s);
    pos->occupied |= bb_square(s);
    pos->occupied_t |= bb_tsquare(s);
    if (piece_type(pc) == CANNON)
        pos->cannons_t |= bb_tsquare(s);
    if (piece_type(pc) == GENERAL)
        pos->general[piece_color(pc)] = s;
}

void position_clear_board(Position *pos)
{
    memset(pos->board, 0, sizeof pos->board);
    memset(pos->by_color, 0, sizeof pos->by_color);
    memset(pos->by_type, 0, sizeof pos->by_type);
    pos->occupied = pos->occupied_t = pos->cannons_t = 0;
}

void position_put_piece(Position *pos, Piece pc, Square s) { put_piece(pos, pc, s); }

static void remove_piece(Position *pos, Square s)
{
    Piece pc = pos->board[s];
    pos->board[s] = NO_PIECE;
    pos->by_color[piece_color(pc)] ^= bb_square(s);
    pos->by_type[piece_type(pc)] ^= bb_square(s);
    pos->occupied ^= bb_square(s);
    pos->occupied_t ^= bb_tsquare(s);
    if (piece_type(pc) == CANNON)
        pos->cannons_t ^= bb_tsquare(s);
}

static void move_piece(Position *pos, Square from, Square to)
{
    Piece pc = pos->board[from];
    Bitboard change = bb_square(from) | bb_square(to);
    Bitboard change_t = bb_tsquare(from) | bb_tsquare(to);
    pos->board[from] = NO_PIECE;
    pos->board[to] = pc;
    pos->by_color[piece_color(pc)] ^= change;
    pos->by_type[piece_type(pc)] ^= change;
    pos->occupied ^= change;
    pos->occupied_t ^= change_t;
    if (piece_type(pc) == CANNON)
        pos->cannons_t ^= change_t;
    else if (piece_type(pc) == GENERAL)
        pos->general[piece_color(pc)] = to;
}

Bitboard position_attackers(const Position *pos, Square s, Color by, Bitboard occ, Bitboard occ_t, Bitboard cannons,
                            Bitboard cannons_t, Bitboard by_mask)
{
    /* Each piece kind is looked up only when one of them stands where it could reach s. */
    Bitboard lines = line_reach_bb[s];
    Bitboard chariots = pos->by_type[CHARIOT] & by_mask & lines;
    Bitboard their_cannons = cannons & by_mask & lines;
    Bitboard horses = pos->by_type[HORSE] & by_mask & horse_attackers_table[s][0];
    Bitboard elephants = pos->by_type[ELEPHANT] & by_mask & elephant_reach_bb[s];
    Bitboard attackers = soldier_attackers_table[by][s] & pos->by_type[SOLDIER] & by_mask;
    if (chariots) {
        attackers |= chariot_line_attacks(s, occ, occ_t) & chariots;
        if (bb_test(palace_diagonal_points, s))
            attackers |= chariot_diagonal_attacks(s, occ) & chariots;
    }
    if (their_cannons) {
        attackers |=
            cannon_line_hops(s, occ, occ_t) & cannon_line_hops(s, occ & ~cannons, occ_t & ~cannons_t) & their_cannons;
        if (bb_test(palace_diagonal_points, s))
            attackers |= cannon_diagonal_hops(s, occ, cannons) & their_cannons;
    }
    if (horses)
        attackers |= horse_attackers(s, occ) & horses;
    if (elephants)
        attackers |= elephant_attackers(s, occ) & elephants;
    return attackers;
}

bool position_generals_facing(const Position *pos)
{
    Square w = pos->general[WHITE], b = pos->general[BLACK];
    return square_file(w) == square_file(b) && (chariot_line_attacks(w, pos->occupied, pos->occupied_t) & bb_square(b));
}

static void compute_state(Position *pos, StateInfo *st)
{
    Color us = pos->side;
    st->checkers = position_attackers_now(pos, pos->general[us], color_flip(us));
    st->bikjang = pos->rules->bikjang && position_generals_facing(pos);
}

#ifndef NDEBUG
/* The sanitizer builds check the whole position after every make and unmake, and say what is wrong
 * before the assertion stops the program. Every make and unmake, not a sample: the check is a loop
 * over the board and two attack queries, and `make test-asan` runs about ten seconds longer with it
 * (test_perft 5 s instead of 1 s). Release builds (NDEBUG) compile none of this. */
static bool position_ok_here(const Position *pos, const char *where)
{
    char why[160];
    if (position_is_ok(pos, why, sizeof why))
        return true;
    char fen[128];
    position_to_fen(pos, fen, sizeof fen);
    fprintf(stderr, "%s: %s (%s)\n", where, why, fen);
    return false;
}
#endif

void position_make(Position *pos, Move m, StateInfo *ns)
{
    StateInfo *st = pos->st;
    ns->prev = st;
    ns->move = m;
    ns->key = position_key_after(pos, m); /* read before the board changes */
    ns->halfmove = st->halfmove + 1;
    ns->plies = st->plies + 1;
    ns->captured = NO_PIECE;
    ns->pass = move_is_pass(m);
    if (!ns->pass) {
        Square from = move_from(m), to = move_to(m);
        Piece captured = pos->board[to];
        if (captured) {
            remove_piece(pos, to);
            ns->captured = captured;
            ns->halfmove = 0;
        }
        move_piece(pos, from, to);
    }
    if (pos->side == BLACK)
        pos->fullmove++;
    pos->side = color_flip(pos->side);
    pos->st = ns;
    compute_state(pos, ns);
    ns->ended = (ns->pass && st->pass) || (ns->bikjang && st->bikjang);
    assert(position_ok_here(pos, "position_make"));
}

bool position_gives_check(Position *pos, Move m)
{
    if (move_is_pass(m))
        return false;
    Square from = move_from(m), to = move_to(m);
    Color us = piece_color(pos->board[from]);
    Piece captured = pos->board[to];
    if (captured)
        remove_piece(pos, to);
    move_piece(pos, from, to);
    bool check = position_attackers_now(pos, pos->general[color_flip(us)], us) != 0;
    move_piece(pos, to, from);
    if (captured)
        put_piece(pos, captured, to);
    return check;
}

uint64_t position_key_after(const Position *pos, Move m)
{
    uint64_t key = pos->st->key ^ zobrist_side;
    if (move_is_pass(m))
        return key;
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from], captured = pos->board[to];
    if (captured)
        key ^= zobrist_piece[captured][to];
    return key ^ zobrist_piece[pc][from] ^ zobrist_piece[pc][to];
}

void position_unmake(Position *pos)
{
    StateInfo *st = pos->st;
    pos->side = color_flip(pos->side);
    if (pos->side == BLACK)
        pos->fullmove--;
    if (!st->pass) {
        Square from = move_from(st->move), to = move_to(st->move);
        move_piece(pos, to, from);
        if (st->captured)
            put_piece(pos, st->captured, to);
    }
    pos->st = st->prev;
    assert(position_ok_here(pos, "position_unmake"));
}

/* ---- FEN ---- */

static bool set_error(char *err, size_t size, const char *fmt, ...)
{
    if (size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return false;
}

static void square_name(Square s, char out[8])
{
    if (s < 0 || s >= SQUARE_COUNT)
        snprintf(out, 8, "off");
    else
        snprintf(out, 8, "%c%d", 'a' + square_file(s), square_rank(s) + 1);
}

static bool parse_counter(const char *tok, long min, long max, long *out)
{
    if (!isdigit((unsigned char)tok[0]))
        return false;
    errno = 0;
    char *end;
    long v = strtol(tok, &end, 10);
    if (*end || errno || v < min || v > max)
        return false;
    *out = v;
    return true;
}

static PieceType piece_type_of_letter(char upper)
{
    switch (upper) {
    case 'K': return GENERAL;
    case 'A': return GUARD;
    case 'B':
    case 'E': return ELEPHANT;
    case 'N':
    case 'H': return HORSE;
    case 'R': return CHARIOT;
    case 'C': return CANNON;
    case 'P': return SOLDIER;
    default: return NO_PIECE_TYPE;
    }
}

static bool parse_board(Position *p, const char *board, char *err, size_t size)
{
    int rank = RANK_COUNT - 1, file = 0;
    for (const char *c = board;; c++) {
        if (*c == '/' || *c == '\0') {
            if (file != FILE_COUNT)
                return set_error(err, size, "rank %d has %d files, expected 9", rank + 1, file);
            if (*c == '\0')
                break;
            if (--rank < 0)
                return set_error(err, size, "more than 10 ranks");
            file = 0;
        } else if (isdigit((unsigned char)*c)) {
            /* A run of empty points; FSF also reads two-digit runs, which never fit in 9 files. */
            int run = *c - '0';
            if (run == 1 && isdigit((unsigned char)c[1]))
                run = 10 * run + *++c - '0';
            if (run == 0)
                return set_error(err, size, "empty-point count 0 in rank %d", rank + 1);
            file += run;
            if (file > FILE_COUNT)
                return set_error(err, size, "rank %d has more than 9 files", rank + 1);
        } else {
            PieceType pt = piece_type_of_letter((char)toupper((unsigned char)*c));
            if (pt == NO_PIECE_TYPE || !isalpha((unsigned char)*c))
                return set_error(err, size,
                                 isprint((unsigned char)*c) ? "unknown piece letter '%c' in rank %d"
                                                            : "unknown character 0x%02x in rank %d",
                                 isprint((unsigned char)*c) ? *c : (unsigned char)*c, rank + 1);
            if (file >= FILE_COUNT)
                return set_error(err, size, "rank %d has more than 9 files", rank + 1);
            Color c_ = isupper((unsigned char)*c) ? WHITE : BLACK;
            Square s = make_square(file++, rank);
            p->board[s] = make_piece(c_, pt);
        }
    }
    if (rank != 0)
        return set_error(err, size, "%d ranks, expected 10", RANK_COUNT - rank);
    return true;
}

static bool validate_pieces(const Position *p, FenFlags flags, char *err, size_t size)
{
    int count[COLOR_COUNT][PIECE_TYPE_COUNT] = {{0}};
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        Piece pc = p->board[s];
        if (!pc)
            continue;
        Color c = piece_color(pc);
        PieceType pt = piece_type(pc);
        count[c][pt]++;
        if ((pt == GENERAL || pt == GUARD) && !bb_test(palace_bb[c], s)) {
            char name[8];
            square_name(s, name);
            return set_error(err, size, "%s %s on %s is outside its palace", side_names[c],
                             pt == GENERAL ? "general" : "guard", name);
        }
    }
    for (Color c = WHITE; c <= BLACK; c++) {
        if (count[c][GENERAL] == 0)
            return set_error(err, size, "%s has no general", side_names[c]);
        if (count[c][GENERAL] > 1)
            return set_error(err, size, "%s has %d generals, exactly 1 allowed", side_names[c], count[c][GENERAL]);
        for (PieceType pt = SOLDIER; pt < GENERAL && !(flags & FEN_ALLOW_EXTRA_PIECES); pt++)
            if (count[c][pt] > piece_limit[pt])
                return set_error(err, size, "%s has %d %s, at most %d allowed", side_names[c], count[c][pt],
                                 piece_names[pt], piece_limit[pt]);
    }
    return true;
}

bool position_set_fen(Position *pos, const char *fen, const RuleSet *rules, FenFlags flags, char *err, size_t size)
{
    enum { MAX_FIELDS = 7, MAX_FEN = 256 };
    if (!fen)
        return set_error(err, size, "empty FEN");
    if (strlen(fen) >= MAX_FEN)
        return set_error(err, size, "FEN longer than %d characters", MAX_FEN - 1);
    char buf[MAX_FEN];
    strcpy(buf, fen);
    char *fields[MAX_FIELDS];
    int n = 0;
    char *save = NULL; /* strtok_r: search threads set up positions concurrently */
    for (char *tok = strtok_r(buf, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == MAX_FIELDS - 1)
            return set_error(err, size, "unexpected text after the move number: '%s'", tok);
        fields[n++] = tok;
    }
    if (n == 0)
        return set_error(err, size, "empty FEN");

    Position p;
    memset(&p, 0, sizeof p);
    p.rules = rules;
    if (!parse_board(&p, fields[0], err, size) || !validate_pieces(&p, flags, err, size))
        return false;

    int i = 1;
    p.side = WHITE;
    if (i < n) {
        if (strcmp(fields[i], "w") == 0)
            p.side = WHITE;
        else if (strcmp(fields[i], "b") == 0)
            p.side = BLACK;
        else
            return set_error(err, size, "side to move must be 'w' or 'b', not '%s'", fields[i]);
        i++;
    }
    /* Castling and en-passant fields are always '-' in Janggi; FSF also accepts them left out. */
    for (int k = 0; k < 2 && i < n && !isdigit((unsigned char)fields[i][0]); k++, i++)
        if (strcmp(fields[i], "-") != 0)
            return set_error(err, size, "field %d must be '-' in Janggi, not '%s'", i + 1, fields[i]);
    long halfmove = 0, fullmove = 1;
    if (i < n && !parse_counter(fields[i++], 0, 100000, &halfmove))
        return set_error(err, size, "half-move counter must be a number from 0 to 100000, not '%s'", fields[i - 1]);
    if (i < n && !parse_counter(fields[i++], 1, 100000, &fullmove))
        return set_error(err, size, "move number must be a number from 1 to 100000, not '%s'", fields[i - 1]);
    if (i < n)
        return set_error(err, size, "unexpected text after the move number: '%s'", fields[i]);

    Piece placed[SQUARE_COUNT];
    memcpy(placed, p.board, sizeof placed);
    memset(p.board, 0, sizeof p.board);
    for (Square s = 0; s < SQUARE_COUNT; s++)
        if (placed[s]) {
            put_piece(&p, placed[s], s);
            p.root.key ^= zobrist_piece[placed[s]][s];
        }
    if (p.side == BLACK)
        p.root.key ^= zobrist_side;
    p.fullmove = (int)fullmove;
    p.root.halfmove = (int)halfmove;
    if (position_attackers_now(&p, p.general[color_flip(p.side)], p.side))
        return set_error(err, size, "the side not to move (%s) is in check", side_names[color_flip(p.side)]);
    p.st = &p.root;
    compute_state(&p, &p.root);

    *pos = p;
    pos->st = &pos->root;
    return true;
}

void position_to_fen(const Position *pos, char *buf, size_t size)
{
    char out[128];
    size_t len = 0;
    for (int r = RANK_COUNT - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < FILE_COUNT; f++) {
            Piece pc = pos->board[make_square(f, r)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                out[len++] = (char)('0' + empty);
            empty = 0;
            char letter = piece_letters[piece_type(pc)];
            out[len++] = piece_color(pc) == WHITE ? letter : (char)tolower((unsigned char)letter);
        }
        if (empty)
            out[len++] = (char)('0' + empty);
        if (r)
            out[len++] = '/';
    }
    out[len] = '\0';
    snprintf(buf, size, "%s %c - - %d %d", out, pos->side == WHITE ? 'w' : 'b', pos->st->halfmove, pos->fullmove);
}

/* ---- Consistency ---- */

/* The first point set in `diff` (rank-major, or file-major when `file_major`); SQ_NONE when only bits
 * off the board are set. */
static Square first_point(Bitboard diff, bool file_major)
{
    for (Square s = 0; s < SQUARE_COUNT; s++)
        if (diff & (file_major ? bb_tsquare(s) : bb_square(s)))
            return s;
    return SQ_NONE;
}

static const char *move_name(Move m, char out[16])
{
    char from[8], to[8];
    square_name(move_from(m), from);
    square_name(move_to(m), to);
    snprintf(out, 16, "%s%s", from, to);
    return out;
}

/* One bitboard against what the mailbox says it must be. */
static bool bitboard_agrees(Bitboard have, Bitboard want, bool file_major, const char *name, char *why, size_t size)
{
    if (have == want)
        return true;
    Square s = first_point(have ^ want, file_major);
    if (s == SQ_NONE)
        return set_error(why, size, "%s has a bit off the board", name);
    char at[8];
    square_name(s, at);
    bool set = (have & (file_major ? bb_tsquare(s) : bb_square(s))) != 0;
    return set_error(why, size, set ? "%s has %s, the board does not" : "%s misses %s", name, at);
}

bool position_is_ok(const Position *pos, char *why, size_t size)
{
    if (pos->side != WHITE && pos->side != BLACK)
        return set_error(why, size, "side to move is %d", (int)pos->side);
    if (!pos->rules || !pos->st)
        return set_error(why, size, pos->rules ? "no state" : "no rule set");

    /* The bitboards, the general squares and the key, recomputed from the mailbox. */
    Bitboard color_bb[COLOR_COUNT] = {0}, type_bb[PIECE_TYPE_COUNT] = {0}, occ = 0, occ_t = 0, cannons_t = 0;
    Square general[COLOR_COUNT] = {SQ_NONE, SQ_NONE};
    int generals[COLOR_COUNT] = {0};
    uint64_t key = pos->side == BLACK ? zobrist_side : 0;
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        Piece pc = pos->board[s];
        if (!pc)
            continue;
        PieceType pt = piece_type(pc);
        Color c = piece_color(pc);
        bool bad_code = pt == NO_PIECE_TYPE || pc >= PIECE_COUNT;
        if (bad_code || ((pt == GENERAL || pt == GUARD) && !bb_test(palace_bb[c], s))) {
            char at[8];
            square_name(s, at);
            return bad_code ? set_error(why, size, "bad piece code %d on %s", (int)pc, at)
                            : set_error(why, size, "%s %s on %s is outside its palace", side_names[c],
                                        pt == GENERAL ? "general" : "guard", at);
        }
        color_bb[c] |= bb_square(s);
        type_bb[pt] |= bb_square(s);
        occ |= bb_square(s);
        occ_t |= bb_tsquare(s);
        if (pt == CANNON)
            cannons_t |= bb_tsquare(s);
        if (pt == GENERAL) {
            general[c] = s;
            generals[c]++;
        }
        key ^= zobrist_piece[pc][s];
    }
    static const char *const color_names[COLOR_COUNT] = {"by_color[Cho]", "by_color[Han]"};
    static const char *const type_names[PIECE_TYPE_COUNT] = {
        "by_type[none]",   "by_type[soldiers]", "by_type[guards]",   "by_type[elephants]",
        "by_type[horses]", "by_type[cannons]",  "by_type[chariots]", "by_type[generals]"};
    for (Color c = WHITE; c <= BLACK; c++)
        if (!bitboard_agrees(pos->by_color[c], color_bb[c], false, color_names[c], why, size))
            return false;
    for (PieceType pt = NO_PIECE_TYPE; pt < PIECE_TYPE_COUNT; pt++)
        if (!bitboard_agrees(pos->by_type[pt], type_bb[pt], false, type_names[pt], why, size))
            return false;
    if (!bitboard_agrees(pos->occupied, occ, false, "occupied", why, size)
        || !bitboard_agrees(pos->occupied_t, occ_t, true, "occupied_t", why, size)
        || !bitboard_agrees(pos->cannons_t, cannons_t, true, "cannons_t", why, size))
        return false;
    for (Color c = WHITE; c <= BLACK; c++) {
        if (generals[c] != 1)
            return set_error(why, size, "%s has %d generals, exactly 1 allowed", side_names[c], generals[c]);
        if (pos->general[c] != general[c]) {
            char have[8], want[8];
            square_name(pos->general[c], have);
            square_name(general[c], want);
            return set_error(why, size, "general[%s] is %s, the general stands on %s", side_names[c], have, want);
        }
    }
    const StateInfo *st = pos->st;
    if (st->key != key)
        return set_error(why, size, "key is %016llx, a fresh computation gives %016llx", (unsigned long long)st->key,
                         (unsigned long long)key);

    /* The state of this ply against the board. */
    Color us = pos->side, them = color_flip(us);
    if (st->checkers != position_attackers_now(pos, general[us], them))
        return set_error(why, size, "checkers disagree with the board");
    if (st->bikjang != (pos->rules->bikjang && position_generals_facing(pos)))
        return set_error(why, size,
                         st->bikjang ? "bikjang set, the generals do not face each other under %s"
                                     : "bikjang not set, the generals face each other under %s",
                         pos->rules->name);
    /* In bikjang the pass is legal even in check; it ends the game, and the check stays. */
    if (!st->ended && position_attackers_now(pos, general[them], us))
        return set_error(why, size, "the side not to move (%s) is in check", side_names[them]);
    if (st->halfmove < 0 || st->plies < 0 || pos->fullmove < 1)
        return set_error(why, size, "counters out of range: half-move %d, plies %d, move number %d", st->halfmove,
                         st->plies, pos->fullmove);

    /* The state against the one before it and the move between them. */
    const StateInfo *prev = st->prev;
    if (!prev) {
        if (st->move != MOVE_NONE || st->plies != 0 || st->captured || st->pass || st->ended)
            return set_error(why, size, "the set-up state has a move, plies, a capture, a pass or an end");
        return true;
    }
    char move[16]; /* written only for a message */
    if (st->plies != prev->plies + 1)
        return set_error(why, size, "plies %d after %d", st->plies, prev->plies);
    if (st->move == MOVE_NONE)
        return set_error(why, size, "no move leads to this state");
    if (st->pass != move_is_pass(st->move))
        return set_error(why, size, "pass flag %s after %s", st->pass ? "set" : "not set", move_name(st->move, move));
    if (st->ended != ((st->pass && prev->pass) || (st->bikjang && prev->bikjang)))
        return set_error(why, size, "immediate end %s after %s", st->ended ? "set" : "not set",
                         move_name(st->move, move));
    if (st->halfmove != (st->captured ? 0 : prev->halfmove + 1))
        return set_error(why, size, "half-move counter %d after %d%s", st->halfmove, prev->halfmove,
                         st->captured ? " and a capture" : "");
    if (st->captured
        && (st->pass || st->captured >= PIECE_COUNT || piece_color(st->captured) != us
            || piece_type(st->captured) == NO_PIECE_TYPE || piece_type(st->captured) == GENERAL))
        return set_error(why, size, "%s cannot have taken piece code %d", move_name(st->move, move), (int)st->captured);
    Piece moved = pos->board[move_to(st->move)];
    if (st->pass ? move_from(st->move) != general[them]
                 : !moved || piece_color(moved) != them || pos->board[move_from(st->move)])
        return set_error(why, size, "the board does not show the last move %s", move_name(st->move, move));
    return true;
}

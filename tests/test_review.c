/* The review behind `janggun analyze` (protocol/review.h) on small games with made-up searches, no
 * engine search run: the loss rule (clamping, mates, finished games, the best move played, a gain,
 * missing scores), every mark threshold, the summary per player, the referee's end inside the record
 * (a double pass, a repetition played on), the EPD bm/am verdicts; and the exact bytes of the text and
 * JSON writers (protocol/review_output.h) for one game. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../protocol/review.h"
#include "../protocol/review_output.h"
#include "support.h"

enum { MAX_TEST_MOVES = 32 };

/* Parses space-separated UCI moves played from `fen`; every one must be legal. */
static int parse_moves(const char *fen, const char *text, Move *moves)
{
    Game g;
    char err[160];
    if (!game_start(&g, fen, &RULES_JANGGI, FEN_ALLOW_EXTRA_PIECES, err, sizeof err))
        fail_msg("bad FEN %s: %s", fen, err);
    int n = 0;
    char tok[16];
    int used;
    for (const char *p = text; sscanf(p, " %15s%n", tok, &used) == 1; p += used) {
        assert_true(n < MAX_TEST_MOVES);
        if (move_parse(&g.pos, tok, RANKS_FROM_1, &moves[n]) != MOVE_PARSE_OK || !game_play(&g, moves[n]))
            fail_msg("move '%s' refused", tok);
        n++;
    }
    game_free(&g);
    return n;
}

/* A search of `pos` with one line: `value` centipawns, or a mate in `value` moves when `mate`, from the
 * side to move's view as the search reports it; its pv (UCI text, legal from pos) gives the best move. */
static const ReviewSearch *fake_search(ReviewSearch *s, const Position *pos, bool mate, int value, int depth,
                                       const char *pv)
{
    memset(s, 0, sizeof *s);
    SearchInfo *line = &s->lines[0];
    line->depth = line->seldepth = depth;
    line->multipv = 1;
    line->is_mate = mate;
    if (mate)
        line->mate_moves = value;
    else
        line->score = value;
    line->bound = BOUND_EXACT;
    Position copy = *pos;
    if (pos->st == &pos->root)
        copy.st = &copy.root;
    StateInfo states[8];
    char tok[16];
    int used;
    for (const char *p = pv; sscanf(p, " %15s%n", tok, &used) == 1; p += used) {
        assert_true(line->pv_length < 8);
        Move m;
        if (move_parse(&copy, tok, RANKS_FROM_1, &m) != MOVE_PARSE_OK)
            fail_msg("pv move '%s' refused", tok);
        position_make(&copy, m, &states[line->pv_length]);
        line->pv[line->pv_length++] = m;
    }
    s->count = 1;
    s->best = line->pv_length ? line->pv[0] : MOVE_NONE;
    return s;
}

static Score cp(int v) { return (Score){SCORE_CP, v}; }
static Score mate(int v) { return (Score){SCORE_MATE, v}; }
static Score result(int v) { return (Score){SCORE_RESULT, v}; }
static const Score NO_SCORE = {SCORE_NONE, 0};

static void test_loss_rule(void **state)
{
    (void)state;
    /* clamping: +1500 counts as +1000 */
    assert_int_equal(review_capped(cp(1500), WHITE), 1000);
    assert_int_equal(review_capped(cp(-1500), WHITE), -1000);
    assert_int_equal(review_capped(cp(1500), BLACK), -1000);
    assert_int_equal(review_capped(cp(-200), BLACK), 200);
    assert_int_equal(review_loss(cp(1500), cp(-200), WHITE, false), 1200);
    assert_int_equal(review_loss(cp(-1500), cp(200), BLACK, false), 1200); /* Han's view, mirrored */
    assert_int_equal(review_loss(cp(999), cp(-999), WHITE, false), 1998);
    /* a mate counts as the cap, whoever is mated and however far */
    assert_int_equal(review_capped(mate(7), WHITE), 1000);
    assert_int_equal(review_capped(mate(-1), WHITE), -1000);
    assert_int_equal(review_capped(mate(-3), BLACK), 1000);
    assert_int_equal(review_loss(cp(100), mate(-2), WHITE, false), 1100);
    assert_int_equal(review_loss(mate(3), mate(-2), WHITE, false), 2000);
    assert_int_equal(review_loss(mate(-4), cp(300), BLACK, false), 1300); /* Han mates: +1000 for Han */
    /* a finished game: the cap for the winner, 0 for a draw */
    assert_int_equal(review_capped(result(1), BLACK), -1000);
    assert_int_equal(review_capped(result(0), WHITE), 0);
    assert_int_equal(review_loss(cp(0), result(-1), WHITE, false), 1000);
    assert_int_equal(review_loss(cp(500), result(0), WHITE, false), 500);
    assert_int_equal(review_loss(cp(-500), result(0), BLACK, false), 500);
    assert_int_equal(review_loss(cp(-500), result(0), WHITE, false), 0);
    /* the best move played loses nothing, whatever the two searches say */
    assert_int_equal(review_loss(cp(300), cp(-300), WHITE, true), 0);
    /* a gain is no loss */
    assert_int_equal(review_loss(cp(-100), cp(300), WHITE, false), 0);
    assert_int_equal(review_loss(cp(100), cp(-300), BLACK, false), 0);
    /* a missing score: no loss at all */
    assert_int_equal(review_loss(NO_SCORE, cp(0), WHITE, false), -1);
    assert_int_equal(review_loss(cp(0), NO_SCORE, BLACK, true), -1);
    assert_int_equal(review_mark(-1), REVIEW_NO_MARK);
    /* scores from a search line: the side to move's view turned to Cho's */
    SearchInfo line = {.score = 40};
    assert_int_equal(review_line_score(&line, WHITE).value, 40);
    assert_int_equal(review_line_score(&line, BLACK).value, -40);
    line.is_mate = true;
    line.mate_moves = 2;
    Score s = review_line_score(&line, BLACK);
    assert_int_equal(s.kind, SCORE_MATE);
    assert_int_equal(s.value, -2);
    assert_int_equal(review_line_score(NULL, WHITE).kind, SCORE_NONE);
    assert_int_equal(review_result_score(GAME_HAN_WINS).value, -1);
    assert_int_equal(review_result_score(GAME_DRAW).value, 0);
    assert_null(review_best_line(NULL));
}

static void test_marks(void **state)
{
    (void)state;
    assert_int_equal(review_mark(0), REVIEW_NO_MARK);
    assert_int_equal(review_mark(49), REVIEW_NO_MARK);
    assert_int_equal(review_mark(50), REVIEW_INACCURACY);
    assert_int_equal(review_mark(99), REVIEW_INACCURACY);
    assert_int_equal(review_mark(100), REVIEW_MISTAKE);
    assert_int_equal(review_mark(299), REVIEW_MISTAKE);
    assert_int_equal(review_mark(300), REVIEW_BLUNDER);
    assert_int_equal(review_mark(2000), REVIEW_BLUNDER);
    assert_string_equal(review_mark_name(REVIEW_INACCURACY), "inaccuracy");
    assert_string_equal(review_mark_name(REVIEW_MISTAKE), "mistake");
    assert_string_equal(review_mark_name(REVIEW_BLUNDER), "blunder");
    assert_null(review_mark_name(REVIEW_NO_MARK));

    ReviewSummary sum = {.scored = 3, .loss_sum = 1150};
    double average;
    assert_true(review_average_loss(&sum, &average));
    char text[32];
    snprintf(text, sizeof text, "%.1f", average);
    assert_string_equal(text, "383.3");
    sum.scored = 0;
    assert_false(review_average_loss(&sum, &average));
}

/* Six moves losing 49, 50, 99, 100, 299 and 300 by turns: every threshold inside a game, and the
 * summary's counts and averages. */
static void test_thresholds_in_a_game(void **state)
{
    (void)state;
    Move moves[MAX_TEST_MOVES];
    int n = parse_moves(START_FEN, "b1c3 b10c8 h1g3 h10g8 a4b4 a7b7", moves);
    /* Cho's view before each ply: each move loses its amount for its mover */
    static const int cho_view[7] = {0, -49, 1, -98, 2, -297, 3};
    static const int want_loss[6] = {49, 50, 99, 100, 299, 300};
    static const ReviewMark want_mark[6] = {REVIEW_NO_MARK, REVIEW_INACCURACY, REVIEW_INACCURACY,
                                            REVIEW_MISTAKE, REVIEW_MISTAKE,    REVIEW_BLUNDER};
    Review r;
    ReviewSearch s;
    char err[100];
    assert_true(review_start(&r, START_FEN, &RULES_JANGGI, moves, n, err, sizeof err));
    for (int ply = 0; ply <= n; ply++) {
        assert_false(r.done);
        assert_true(review_needs_search(&r));
        Color side = r.game.pos.side;
        const char *best = side == WHITE ? "i1i2" : "i10i9"; /* never the move played */
        fake_search(&s, &r.game.pos, false, side == WHITE ? cho_view[ply] : -cho_view[ply], 5, best);
        const ReviewRow *row = review_add(&r, &s);
        if (ply == 0) {
            assert_null(row);
            continue;
        }
        assert_non_null(row);
        assert_int_equal(row->ply, ply);
        assert_int_equal(row->side, ply % 2 ? WHITE : BLACK);
        assert_int_equal(row->move, moves[ply - 1]);
        assert_int_equal(row->before.value, cho_view[ply - 1]);
        assert_int_equal(row->after.value, cho_view[ply]);
        assert_true(row->scored);
        assert_int_equal(row->loss, want_loss[ply - 1]);
        assert_int_equal(row->mark, want_mark[ply - 1]);
        assert_int_equal(row->depth, 5);
    }
    assert_true(r.done);
    assert_false(review_needs_search(&r));
    assert_null(review_add(&r, NULL));
    const ReviewSummary *cho = &r.summary[WHITE], *han = &r.summary[BLACK];
    assert_int_equal(cho->moves, 3);
    assert_int_equal(cho->scored, 3);
    assert_int_equal(cho->loss_sum, 49 + 99 + 299);
    assert_int_equal(cho->best_played, 0);
    assert_int_equal(cho->marks[REVIEW_INACCURACY], 1);
    assert_int_equal(cho->marks[REVIEW_MISTAKE], 1);
    assert_int_equal(cho->marks[REVIEW_BLUNDER], 0);
    assert_int_equal(han->loss_sum, 50 + 100 + 300);
    assert_int_equal(han->marks[REVIEW_INACCURACY], 1);
    assert_int_equal(han->marks[REVIEW_MISTAKE], 1);
    assert_int_equal(han->marks[REVIEW_BLUNDER], 1);
    assert_false(r.end.over);

    StrBuf b = {0};
    review_text_game_end(&b, &r);
    assert_string_equal(
        b.text, "Summary:\n"
                "  Cho: 3 moves, average loss 149.0, best move played 0, 1 inaccuracies, 1 mistakes, 0 blunders\n"
                "  Han: 3 moves, average loss 150.0, best move played 0, 1 inaccuracies, 1 mistakes, 1 blunders\n"
                "End: not over after 6 plies, by the referee; material 72-73.5\n\n");
    strbuf_free(&b);
    review_free(&r);
}

/* Clamping, the best move played, a missing search and a gain inside a game. */
static void test_rows_and_summary(void **state)
{
    (void)state;
    Move moves[MAX_TEST_MOVES];
    int n = parse_moves(START_FEN, "b1c3 b10c8 h1g3 h10g8 i1i2", moves);
    Review r;
    ReviewSearch s;
    char err[100];
    assert_true(review_start(&r, START_FEN, &RULES_JANGGI, moves, n, err, sizeof err));
    const ReviewRow *row;
    assert_null(review_add(&r, fake_search(&s, &r.game.pos, false, 20, 4, "b1c3 b10c8")));
    /* 1. Cho plays the best move: no loss, though the score drops by 50 */
    row = review_add(&r, fake_search(&s, &r.game.pos, false, 30, 4, "h10g8")); /* Han's +30: Cho's -30 */
    assert_int_equal(row->best, moves[0]);
    assert_int_equal(row->after.value, -30);
    assert_true(row->scored);
    assert_int_equal(row->loss, 0);
    /* 2. Han: from +30 to -1000 (a Cho's +1500, clamped) */
    row = review_add(&r, fake_search(&s, &r.game.pos, false, 1500, 4, "i1i2"));
    assert_int_equal(row->loss, 1030);
    assert_int_equal(row->mark, REVIEW_BLUNDER);
    assert_int_equal(row->material.cho, 72);
    assert_int_equal(row->material.han, 72);
    /* 3. Cho: from +1500 (+1000) to -200: 1200 */
    row = review_add(&r, fake_search(&s, &r.game.pos, false, 200, 4, "h10g8"));
    assert_int_equal(row->before.value, 1500);
    assert_int_equal(row->after.value, -200);
    assert_int_equal(row->loss, 1200);
    /* 4. Han plays the best move but the next search found nothing: no score, no loss */
    row = review_add(&r, NULL);
    assert_true(row->best == moves[3]);
    assert_int_equal(row->after.kind, SCORE_NONE);
    assert_false(row->scored);
    assert_int_equal(row->loss, 0);
    assert_int_equal(row->mark, REVIEW_NO_MARK);
    /* 5. Cho, after no search: no best move, no score before */
    row = review_add(&r, fake_search(&s, &r.game.pos, false, -40, 4, "a7a6"));
    assert_int_equal(row->best, MOVE_NONE);
    assert_int_equal(row->before.kind, SCORE_NONE);
    assert_int_equal(row->depth, 0);
    assert_int_equal(row->search.count, 0);
    assert_false(row->scored);
    assert_true(r.done);
    assert_int_equal(r.summary[WHITE].moves, 3);
    assert_int_equal(r.summary[WHITE].scored, 2);
    assert_int_equal(r.summary[WHITE].best_played, 1);
    assert_int_equal(r.summary[WHITE].loss_sum, 1200);
    assert_int_equal(r.summary[BLACK].moves, 2);
    assert_int_equal(r.summary[BLACK].scored, 1);
    assert_int_equal(r.summary[BLACK].best_played, 1); /* counted though not scored */
    assert_int_equal(r.summary[BLACK].marks[REVIEW_BLUNDER], 1);

    /* the JSON of a row without a search: null scores, no loss, an empty pv */
    StrBuf b = {0};
    const ReviewFormat f = {.depth = 4, .multipv = 1, .threads = 1};
    review_json_row(&b, row, &f);
    assert_string_equal(b.text, ",{\"ply\":5,\"side\":\"cho\",\"move\":\"i1i2\",\"best\":null,\"score_before\":null,"
                                "\"score_after\":{\"cp\":40},\"loss\":null,\"mark\":null,"
                                "\"material\":{\"cho\":72,\"han\":73.5},\"depth\":0,\"pv\":[]}");
    strbuf_free(&b);
    review_free(&r);

    /* an illegal move is refused at the start */
    Move bad[2] = {moves[0], moves[0]};
    assert_false(review_start(&r, START_FEN, &RULES_JANGGI, bad, 2, err, sizeof err));
    assert_string_equal(err, "illegal move at ply 2");
}

/* A repetition at ply 8 (an optional end under janggi rules) that the record plays on past. */
static void test_end_inside_the_record(void **state)
{
    (void)state;
    Move moves[MAX_TEST_MOVES];
    int n = parse_moves(START_FEN, "b1c3 b10c8 c3b1 c8b10 b1c3 b10c8 c3b1 c8b10 b1c3 b10c8", moves);
    Review r;
    char err[100];
    assert_true(review_start(&r, START_FEN, &RULES_JANGGI, moves, n, err, sizeof err));
    for (int ply = 0; ply <= n; ply++) {
        assert_true(review_needs_search(&r)); /* an optional end is still searched */
        const ReviewRow *row = review_add(&r, NULL);
        if (row)
            assert_false(row->scored);
        assert_int_equal(r.end.over, ply >= 8);
    }
    assert_true(r.end.over);
    assert_int_equal(r.end.ply, 8);
    assert_int_equal(r.end.status.result, GAME_HAN_WINS);
    assert_int_equal(r.end.status.reason, END_REPETITION);
    assert_false(r.end.status.immediate);
    assert_true(r.end.status.by_counting);
    assert_true(r.end.record_continues);
    assert_int_equal(r.summary[WHITE].scored, 0);

    StrBuf b = {0};
    review_text_game_end(&b, &r);
    assert_string_equal(b.text,
                        "Summary:\n"
                        "  Cho: 5 moves, average loss ?, best move played 0, 0 inaccuracies, 0 mistakes, 0 blunders\n"
                        "  Han: 5 moves, average loss ?, best move played 0, 0 inaccuracies, 0 mistakes, 0 blunders\n"
                        "End: after ply 8, Han wins by repetition, decided by counting (a referee's claim); "
                        "material 72-73.5 (the record goes on past it)\n\n");
    b.len = 0;
    review_json_game_end(&b, &r);
    assert_string_equal(b.text,
                        "],\"summary\":{\"cho\":{\"moves\":5,\"average_loss\":null,\"best_moves\":0,\"inaccuracies\":0,"
                        "\"mistakes\":0,\"blunders\":0},\"han\":{\"moves\":5,\"average_loss\":null,\"best_moves\":0,"
                        "\"inaccuracies\":0,\"mistakes\":0,\"blunders\":0}},\"end\":{\"result\":\"0-1\",\"winner\":"
                        "\"han\",\"reason\":\"repetition\",\"immediate\":false,\"by_counting\":true,\"ply\":8,"
                        "\"material\":{\"cho\":72,\"han\":73.5},\"record_continues\":true},\"final\":{\"fen\":"
                        "\"r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR w - - 10 6\",\"material\":"
                        "{\"cho\":72,\"han\":73.5}}}\n");
    strbuf_free(&b);
    review_free(&r);
}

/* The small game both writers are checked on: a double pass at ply 4 ends it, Han winning on count. */
static const char WRITER_MOVES[] = "b1c3 b10c8 e2e2 e9e9";

static void review_writer_game(Review *r, ParsedGameList *list, const ReviewFormat *f, StrBuf *text, StrBuf *json)
{
    ParsedGame *game = record_list_add(list, 1);
    assert_non_null(game);
    game->rules = &RULES_JANGGI;
    snprintf(game->start_fen, sizeof game->start_fen, "%s", START_FEN);
    assert_true(record_add_tag(game, "Event", "test"));
    assert_true(record_add_tag(game, "Result", "0-1"));
    assert_true(record_add_tag(game, "Event", "repeated"));
    Move moves[MAX_TEST_MOVES];
    int n = parse_moves(START_FEN, WRITER_MOVES, moves);
    for (int i = 0; i < n; i++)
        assert_true(record_add_move(game, moves[i]));
    const ReviewSource src = {.input = INPUT_PGN, .file = "t.pgn", .number = 1, .line = 1};
    char err[100];
    assert_true(review_start_record(r, game, err, sizeof err));
    review_text_game_start(text, &src, game, f);
    review_json_game_start(json, &src, game, f);
    ReviewSearch s;
    for (int ply = 0; !r->done; ply++) {
        const ReviewSearch *search = NULL;
        switch (ply) {
        case 0: search = fake_search(&s, &r->game.pos, false, 23, 3, "b1c3 a10a9"); break;
        case 1: search = fake_search(&s, &r->game.pos, false, -7, 3, "e7f7"); break;
        case 2: search = fake_search(&s, &r->game.pos, false, 60, 3, "a4b4"); break;
        case 3: search = fake_search(&s, &r->game.pos, true, 1, 1, "e9e9"); break;
        default: assert_false(review_needs_search(r)); break; /* over: the result is the score */
        }
        const ReviewRow *row = review_add(r, search);
        if (row) {
            review_text_row(text, row, f);
            review_json_row(json, row, f);
        }
    }
    review_text_game_end(text, r);
    review_json_game_end(json, r);
}

static void test_writers(void **state)
{
    (void)state;
    Review r;
    ParsedGameList list = {0};
    StrBuf text = {0}, json = {0};
    const ReviewFormat f = {.depth = 3, .multipv = 1, .threads = 1};
    review_writer_game(&r, &list, &f, &text, &json);
    assert_true(r.end.over);
    assert_int_equal(r.end.ply, 4);
    assert_true(r.end.status.immediate);
    assert_int_equal(r.end.status.reason, END_DOUBLE_PASS);
    assert_false(r.end.record_continues);
    assert_string_equal(
        text.text,
        "== Game 1 (t.pgn:1: game 1) ==\n"
        "Event: test | Result: 0-1\n"
        "Start: rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1 (Cho 마상상마, Han "
        "마상상마)\n"
        "Rules: janggi; search per position: depth 3; scores in centipawns from Cho's view, loss from the mover's\n"
        " ply side move       best        before   after  loss mark        material\n"
        "   1 Cho  b1c3       b1c3           +23      +7     0             72-73.5\n"
        "   2 Han  b10c8      e7f7            +7     +60    53 inaccuracy  72-73.5\n"
        "   3 Cho  e2e2       a4b4           +60     -M1  1060 blunder     72-73.5\n"
        "   4 Han  e9e9       e9e9           -M1     0-1     0             72-73.5\n"
        "Summary:\n"
        "  Cho: 2 moves, average loss 530.0, best move played 1, 0 inaccuracies, 0 mistakes, 1 blunders\n"
        "  Han: 2 moves, average loss 26.5, best move played 1, 1 inaccuracies, 0 mistakes, 0 blunders\n"
        "End: after ply 4, Han wins by double pass, decided by counting; material 72-73.5\n"
        "\n");
    assert_string_equal(
        json.text,
        "{\"type\":\"game\",\"input\":\"pgn\",\"file\":\"t.pgn\",\"line\":1,\"number\":1,\"tags\":{\"Event\":\"test\","
        "\"Result\":\"0-1\"},\"record_result\":\"han\",\"record_termination\":null,\"start_fen\":"
        "\"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\",\"variant\":\"janggi\","
        "\"plies\":4,\"limits\":{\"depth\":3,\"nodes\":0,\"movetime_ms\":0,\"multipv\":1,\"threads\":1},\"moves\":["
        "{\"ply\":1,\"side\":\"cho\",\"move\":\"b1c3\",\"best\":\"b1c3\",\"score_before\":{\"cp\":23},"
        "\"score_after\":{\"cp\":7},\"loss\":0,\"mark\":null,\"material\":{\"cho\":72,\"han\":73.5},\"depth\":3,"
        "\"pv\":[\"b1c3\",\"a10a9\"]},"
        "{\"ply\":2,\"side\":\"han\",\"move\":\"b10c8\",\"best\":\"e7f7\",\"score_before\":{\"cp\":7},"
        "\"score_after\":{\"cp\":60},\"loss\":53,\"mark\":\"inaccuracy\",\"material\":{\"cho\":72,\"han\":73.5},"
        "\"depth\":3,\"pv\":[\"e7f7\"]},"
        "{\"ply\":3,\"side\":\"cho\",\"move\":\"e2e2\",\"best\":\"a4b4\",\"score_before\":{\"cp\":60},"
        "\"score_after\":{\"mate\":-1},\"loss\":1060,\"mark\":\"blunder\",\"material\":{\"cho\":72,\"han\":73.5},"
        "\"depth\":3,\"pv\":[\"a4b4\"]},"
        "{\"ply\":4,\"side\":\"han\",\"move\":\"e9e9\",\"best\":\"e9e9\",\"score_before\":{\"mate\":-1},"
        "\"score_after\":{\"result\":\"0-1\"},\"loss\":0,\"mark\":null,\"material\":{\"cho\":72,\"han\":73.5},"
        "\"depth\":1,\"pv\":[\"e9e9\"]}"
        "],\"summary\":{\"cho\":{\"moves\":2,\"average_loss\":530.0,\"best_moves\":1,\"inaccuracies\":0,"
        "\"mistakes\":0,\"blunders\":1},\"han\":{\"moves\":2,\"average_loss\":26.5,\"best_moves\":1,"
        "\"inaccuracies\":1,\"mistakes\":0,\"blunders\":0}},\"end\":{\"result\":\"0-1\",\"winner\":\"han\","
        "\"reason\":\"double pass\",\"immediate\":true,\"by_counting\":true,\"ply\":4,\"material\":{\"cho\":72,"
        "\"han\":73.5},\"record_continues\":false},\"final\":{\"fen\":"
        "\"r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR w - - 4 3\",\"material\":"
        "{\"cho\":72,\"han\":73.5}}}\n");
    review_free(&r);
    record_list_free(&list);
    strbuf_free(&text);
    strbuf_free(&json);

    /* Korean notation (two columns a syllable) and the multipv lines of each row */
    const ReviewFormat korean = {.depth = 3, .multipv = 2, .threads = 1, .korean = true};
    review_writer_game(&r, &list, &korean, &text, &json);
    const char *row1 = strstr(text.text, "   1 Cho");
    assert_non_null(row1);
    const char *want_row1 = "   1 Cho  02마83     02마83         +23      +7     0             72-73.5\n";
    assert_memory_equal(row1, want_row1, strlen(want_row1));
    assert_non_null(strstr(json.text,
                           "\"depth\":3,\"pv\":[\"02마83\",\"11차21\"],\"lines\":[{\"rank\":1,\"move\":"
                           "\"02마83\",\"score\":{\"cp\":23},\"depth\":3,\"pv\":[\"02마83\",\"11차21\"]}]}"));
    assert_non_null(strstr(json.text, "\"move\":\"한수쉼\",\"best\":\"한수쉼\""));
    assert_non_null(strstr(json.text, "\"limits\":{\"depth\":3,\"nodes\":0,\"movetime_ms\":0,\"multipv\":2,"));
    review_free(&r);
    record_list_free(&list);
    strbuf_free(&text);
    strbuf_free(&json);
}

static void test_error_object(void **state)
{
    (void)state;
    StrBuf b = {0};
    const ReviewSource src = {.input = INPUT_GIB, .file = "x\xff.gib", .line = 12, .number = 3};
    review_json_error(&b, &src, "bad \"move\"\n");
    assert_string_equal(b.text, "{\"type\":\"error\",\"input\":\"gib\",\"file\":\"x\xEF\xBF\xBD.gib\",\"line\":12,"
                                "\"number\":3,\"message\":\"bad \\\"move\\\"\\u000a\"}\n");
    strbuf_free(&b);
    char place[200];
    review_place(&src, place, sizeof place);
    assert_string_equal(place, "x\xff.gib:12: game 3");
    const ReviewSource epd = {.input = INPUT_EPD, .file = "p.epd", .line = 4, .number = 2};
    review_place(&epd, place, sizeof place);
    assert_string_equal(place, "p.epd:4: position 2");
    const ReviewSource moves = {.input = INPUT_FEN, .label = "--moves"};
    review_place(&moves, place, sizeof place);
    assert_string_equal(place, "--moves");
}

/* A single position: the score and the EPD bm/am verdicts. */
static void test_position(void **state)
{
    (void)state;
    Game g;
    char err[100];
    assert_true(game_start(&g, START_FEN, &RULES_JANGGI, FEN_STRICT, err, sizeof err));
    ReviewSearch s;
    fake_search(&s, &g.pos, false, 25, 6, "b1c3 b10c8");
    PositionReview pr = review_position(&g.pos, game_status(&g), &s, "Hc3 Hg3", "b1c3");
    assert_int_equal(pr.score.kind, SCORE_CP);
    assert_int_equal(pr.score.value, 25);
    assert_int_equal(pr.bm_found, 1);
    assert_int_equal(pr.am_avoided, 0);
    pr = review_position(&g.pos, game_status(&g), &s, "Hg3,h1g3", NULL);
    assert_int_equal(pr.bm_found, 0);
    assert_int_equal(pr.am_avoided, -1);
    pr = review_position(&g.pos, game_status(&g), NULL, "Hc3", "Hg3");
    assert_int_equal(pr.score.kind, SCORE_NONE);
    assert_int_equal(pr.bm_found, -1); /* no best move: no verdict */
    game_free(&g);

    /* over with no moves: the result is the score and the search is ignored */
    assert_true(game_start(&g, START_FEN, &RULES_JANGGI, FEN_STRICT, err, sizeof err));
    Move moves[2];
    parse_moves(START_FEN, "e2e2 e9e9", moves);
    assert_true(game_play(&g, moves[0]) && game_play(&g, moves[1]));
    GameStatus st = game_status(&g);
    assert_true(st.immediate);
    pr = review_position(&g.pos, st, &s, "Hc3", NULL);
    assert_int_equal(pr.score.kind, SCORE_RESULT);
    assert_int_equal(pr.score.value, -1);
    assert_null(pr.search);
    assert_null(pr.line);
    assert_int_equal(pr.bm_found, -1);
    game_free(&g);
}

int main(void)
{
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loss_rule),
        cmocka_unit_test(test_marks),
        cmocka_unit_test(test_thresholds_in_a_game),
        cmocka_unit_test(test_rows_and_summary),
        cmocka_unit_test(test_end_inside_the_record),
        cmocka_unit_test(test_writers),
        cmocka_unit_test(test_error_object),
        cmocka_unit_test(test_position),
    };
    return cmocka_run_group_tests_name("review", tests, NULL, NULL);
}

/* The protocol layer's pure parts: parsing lines into commands (UCI and UCCI), the bounded line
 * reader and its wake, option names and values, the text of info, bestmove and WDL, XBoard's
 * thinking lines, moves, `level` and clocks. The running loops are tested through the binary by
 * cli_uci.sh, cli_ucci.sh and cli_xboard.sh. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../protocol/command.h"
#include "../protocol/input.h"
#include "../protocol/options.h"
#include "../protocol/report.h"
#include "../protocol/xboard.h"

static Command cmd;

static void parse(const char *line, Protocol proto) { command_parse(line, proto, &cmd); }

static bool span_is(Span s, const char *text) { return span_equals(s, text); }

static void test_simple_commands(void **state)
{
    (void)state;
    const struct {
        const char *line;
        CommandKind kind;
    } cases[] = {
        {"uci", CMD_UCI},
        {"ucci", CMD_UCCI},
        {"  isready  ", CMD_ISREADY},
        {"ucinewgame", CMD_NEWGAME},
        {"uccinewgame", CMD_NEWGAME},
        {"stop", CMD_STOP},
        {"ponderhit", CMD_PONDERHIT},
        {"ponderhit draw", CMD_PONDERHIT},
        {"quit", CMD_QUIT},
        {"d", CMD_DISPLAY},
        {"eval", CMD_EVAL},
        {"bench", CMD_BENCH},
        {"", CMD_NONE},
        {"   \t ", CMD_NONE},
        {"# comment", CMD_NONE},
        {"UCI", CMD_ERROR},
        {"xyz", CMD_ERROR},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parse(cases[i].line, PROTO_UCI);
        if (cmd.kind != cases[i].kind)
            fail_msg("'%s': kind %d, expected %d", cases[i].line, cmd.kind, cases[i].kind);
    }
    parse("isready now", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_ISREADY);
    assert_string_equal(cmd.message, "'isready' takes no arguments; ignored 'now'");
    parse("xyz\x01", PROTO_UCI);
    assert_string_equal(cmd.message, "unknown command 'xyz\\x01'");
}

static void test_position(void **state)
{
    (void)state;
    parse("position startpos", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_POSITION);
    assert_true(cmd.u.position.startpos);
    assert_int_equal(cmd.u.position.moves.count, 0);

    parse("position startpos moves b1c3  b10c8\te2e2", PROTO_UCI);
    assert_int_equal(cmd.u.position.moves.count, 3);
    assert_true(span_is(cmd.u.position.moves.all, "b1c3  b10c8\te2e2"));

    parse("position fen 4k4/9/9/9/9/9/9/9/4A4/R2K5 w - - 0 1 moves a1a9", PROTO_UCI);
    assert_false(cmd.u.position.startpos);
    assert_true(span_is(cmd.u.position.fen, "4k4/9/9/9/9/9/9/9/4A4/R2K5 w - - 0 1"));
    assert_int_equal(cmd.u.position.moves.count, 1);

    const char *bad[] = {"position", "position foo", "position fen", "position fen moves a1a2",
                         "position startpos a1a2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        parse(bad[i], PROTO_UCI);
        if (cmd.kind != CMD_ERROR)
            fail_msg("'%s' was accepted", bad[i]);
    }
}

static void test_setoption(void **state)
{
    (void)state;
    parse("setoption name Move   Overhead value 100", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_SETOPTION);
    assert_true(span_is(cmd.u.setoption.name, "Move   Overhead"));
    assert_true(cmd.u.setoption.has_value);
    assert_true(span_is(cmd.u.setoption.value, "100"));
    assert_int_equal(options_find(cmd.u.setoption.name), OPTION_MOVE_OVERHEAD);

    parse("setoption name Clear Hash", PROTO_UCI);
    assert_false(cmd.u.setoption.has_value);
    assert_int_equal(options_find(cmd.u.setoption.name), OPTION_CLEAR_HASH);

    parse("setoption Hash 32", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_ERROR);
    parse("setoption hashsize 32", PROTO_UCCI);
    assert_int_equal(cmd.kind, CMD_SETOPTION);
    assert_int_equal(options_find(cmd.u.setoption.name), OPTION_HASH);
    assert_true(span_is(cmd.u.setoption.value, "32"));
    parse("setoption name MultiPV value 2", PROTO_UCCI);
    assert_int_equal(options_find(cmd.u.setoption.name), OPTION_MULTIPV);
    assert_true(span_is(cmd.u.setoption.value, "2"));

    const char *names[] = {"threads",       "HASH",        "hashsize",    "clear_hash",        "move overhead",
                           "MOVE_OVERHEAD", "uci_variant", "skill level", "Skill_Level",       "UCI_Elo",
                           "uci_elo",       "skill_seed",  "Skill Seed",  "uci_limitstrength", "UCI_LimitStrength"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (options_find((Span){names[i], strlen(names[i])}) < 0)
            fail_msg("option name '%s' not found", names[i]);
    const char *unknown[] = {"Move", "Overhead", "Hash2", "Threadsx", ""};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        if (options_find((Span){unknown[i], strlen(unknown[i])}) >= 0)
            fail_msg("'%s' matched an option", unknown[i]);
}

static void test_option_values(void **state)
{
    (void)state;
    long long v;
    char err[200];
#define VALUE(id, text) options_parse_value((id), (Span){(text), strlen(text)}, true, &v, err, sizeof err)
    assert_true(VALUE(OPTION_HASH, "65536"));
    assert_int_equal(v, 65536);
    assert_false(VALUE(OPTION_HASH, "65537"));
    assert_string_equal(err, "option Hash must be a number from 1 to 65536, not '65537'");
    assert_false(VALUE(OPTION_HASH, "+5"));
    assert_false(VALUE(OPTION_HASH, " 5"));
    assert_false(VALUE(OPTION_HASH, "99999999999999999999"));
    assert_true(VALUE(OPTION_MOVE_OVERHEAD, "0"));
    assert_true(VALUE(OPTION_PONDER, "true"));
    assert_int_equal(v, 1);
    assert_false(VALUE(OPTION_PONDER, "TRUE"));
    assert_true(VALUE(OPTION_VARIANT, "janggimodern"));
    assert_int_equal(v, 2);
    assert_false(VALUE(OPTION_VARIANT, "Janggi"));
    assert_false(options_parse_value(OPTION_HASH, (Span){"", 0}, false, &v, err, sizeof err));
    assert_string_equal(err, "option Hash needs a value");
    assert_true(options_parse_value(OPTION_CLEAR_HASH, (Span){"", 0}, false, &v, err, sizeof err));
    /* The network's options: a check, and EvalFile's text (a path with spaces kept whole). */
    assert_int_equal(options_find((Span){"use nnue", 8}), OPTION_USE_NNUE);
    assert_int_equal(options_find((Span){"Use_NNUE", 8}), OPTION_USE_NNUE);
    assert_int_equal(options_find((Span){"evalfile", 8}), OPTION_EVAL_FILE);
    assert_true(VALUE(OPTION_USE_NNUE, "false"));
    assert_int_equal(v, 0);
    assert_false(VALUE(OPTION_USE_NNUE, "1"));
    assert_string_equal(err, "option Use NNUE must be true or false, not '1'");
    char text[OPTION_TEXT_SIZE];
    const char *path = "/tmp/my nets/x.nnue";
    assert_true(options_parse_text(OPTION_EVAL_FILE, (Span){path, strlen(path)}, true, text, err, sizeof err));
    assert_string_equal(text, path);
    assert_false(options_parse_text(OPTION_EVAL_FILE, (Span){"", 0}, false, text, err, sizeof err));
    assert_string_equal(err, "option EvalFile needs a value");
    static char long_path[OPTION_TEXT_SIZE + 10];
    memset(long_path, 'a', sizeof long_path - 1);
    assert_false(
        options_parse_text(OPTION_EVAL_FILE, (Span){long_path, strlen(long_path)}, true, text, err, sizeof err));
    assert_string_equal(err, "option EvalFile: a value of 1033 bytes is longer than 1023");

    /* The strength options: FSF's names, defaults and ranges (Skill Seed is Janggun's own). */
    assert_int_equal(options_find((Span){"Skill Level", 11}), OPTION_SKILL_LEVEL);
    assert_int_equal(options_find((Span){"skill_level", 11}), OPTION_SKILL_LEVEL);
    assert_int_equal(options_find((Span){"UCI_LimitStrength", 17}), OPTION_LIMIT_STRENGTH);
    assert_int_equal(options_find((Span){"uci_elo", 7}), OPTION_ELO);
    assert_int_equal(options_find((Span){"Skill_Seed", 10}), OPTION_SKILL_SEED);
    assert_int_equal(option_defs[OPTION_SKILL_LEVEL].def, 20);
    assert_int_equal(option_defs[OPTION_LIMIT_STRENGTH].def, 0);
    assert_int_equal(option_defs[OPTION_ELO].def, 1350);
    assert_int_equal(option_defs[OPTION_SKILL_SEED].def, 0);
    assert_true(VALUE(OPTION_SKILL_LEVEL, "-20"));
    assert_int_equal(v, -20);
    assert_true(VALUE(OPTION_SKILL_LEVEL, "20"));
    assert_int_equal(v, 20);
    assert_true(VALUE(OPTION_SKILL_LEVEL, "0"));
    assert_int_equal(v, 0);
    assert_false(VALUE(OPTION_SKILL_LEVEL, "21"));
    assert_string_equal(err, "option Skill Level must be a number from -20 to 20, not '21'");
    assert_false(VALUE(OPTION_SKILL_LEVEL, "-21"));
    assert_string_equal(err, "option Skill Level must be a number from -20 to 20, not '-21'");
    assert_false(VALUE(OPTION_SKILL_LEVEL, "1.5"));
    assert_true(VALUE(OPTION_LIMIT_STRENGTH, "true"));
    assert_int_equal(v, 1);
    assert_false(VALUE(OPTION_LIMIT_STRENGTH, "1"));
    assert_string_equal(err, "option UCI_LimitStrength must be true or false, not '1'");
    assert_true(VALUE(OPTION_ELO, "500"));
    assert_int_equal(v, 500);
    assert_true(VALUE(OPTION_ELO, "2850"));
    assert_int_equal(v, 2850);
    assert_false(VALUE(OPTION_ELO, "499"));
    assert_string_equal(err, "option UCI_Elo must be a number from 500 to 2850, not '499'");
    assert_false(VALUE(OPTION_ELO, "2851"));
    assert_string_equal(err, "option UCI_Elo must be a number from 500 to 2850, not '2851'");
    assert_true(VALUE(OPTION_SKILL_SEED, "2147483647"));
    assert_int_equal(v, 2147483647);
    assert_false(VALUE(OPTION_SKILL_SEED, "-1"));
    assert_string_equal(err, "option Skill Seed must be a number from 0 to 2147483647, not '-1'");
    assert_false(VALUE(OPTION_SKILL_SEED, "2147483648"));
#undef VALUE
}

static void test_go(void **state)
{
    (void)state;
    parse("go wtime 1000 btime -50 winc 10 binc 20 movestogo 30 depth 7 nodes 5000 movetime 300 mate 3", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_GO);
    assert_string_equal(cmd.message, "");
    GoCommand *go = &cmd.u.go;
    assert_true(go->has_clock[CLOCK_WTIME] && go->has_clock[CLOCK_BTIME]);
    assert_int_equal(go->clock[CLOCK_WTIME], 1000);
    assert_int_equal(go->clock[CLOCK_BTIME], -50);
    assert_int_equal(go->clock[CLOCK_WINC], 10);
    assert_int_equal(go->clock[CLOCK_BINC], 20);
    assert_int_equal(go->movestogo, 30);
    assert_int_equal(go->depth, 7);
    assert_int_equal(go->nodes, 5000);
    assert_int_equal(go->movetime, 300);
    assert_int_equal(go->mate, 3);
    assert_false(go->infinite || go->ponder || go->has_searchmoves);

    parse("go time 5000 opptime 4000 increment 100 oppincrement 200 draw", PROTO_UCCI);
    assert_int_equal(cmd.kind, CMD_GO);
    assert_int_equal(cmd.u.go.clock[CLOCK_TIME], 5000);
    assert_int_equal(cmd.u.go.clock[CLOCK_OPPTIME], 4000);
    assert_int_equal(cmd.u.go.clock[CLOCK_INC], 100);
    assert_int_equal(cmd.u.go.clock[CLOCK_OPPINC], 200);

    parse("go ponder depth 3 searchmoves a1a2 i1i2", PROTO_UCI);
    assert_true(cmd.u.go.ponder);
    assert_int_equal(cmd.u.go.searchmoves.count, 2);
    assert_true(span_is(cmd.u.go.searchmoves.all, "a1a2 i1i2"));

    parse("go infinite wtime 100 movetime 50", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_GO);
    assert_true(cmd.u.go.infinite);
    assert_false(cmd.u.go.has_clock[CLOCK_WTIME]);
    assert_int_equal(cmd.u.go.movetime, 0);
    assert_string_equal(cmd.message, "go infinite searches until stopped; ignored wtime movetime");

    parse("go perft 3", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_PERFT);
    assert_int_equal(cmd.u.perft_depth, 3);

    parse("go depth 2 foo", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_GO);
    assert_string_equal(cmd.message, "unknown go parameter 'foo' ignored");

    const char *bad[] = {"go depth",   "go depth 0", "go depth 128", "go depth 3x",     "go nodes 0", "go movetime -1",
                         "go winc -1", "go mate 64", "go perft 21",  "go movestogo -1", "go wtime",   "go time x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        parse(bad[i], PROTO_UCI);
        if (cmd.kind != CMD_ERROR)
            fail_msg("'%s' was accepted", bad[i]);
    }
}

static void test_banmoves_and_bench(void **state)
{
    (void)state;
    parse("banmoves h0g2 b2e2", PROTO_UCCI);
    assert_int_equal(cmd.kind, CMD_BANMOVES);
    assert_int_equal(cmd.u.banmoves.count, 2);
    parse("bench 5", PROTO_UCI);
    assert_int_equal(cmd.u.bench_depth, 5);
    parse("bench 0", PROTO_UCI);
    assert_int_equal(cmd.kind, CMD_ERROR);
}

static void test_span_quote(void **state)
{
    (void)state;
    char buf[64];
    span_quote((Span){"ab\xff", 3}, buf, sizeof buf, 40);
    assert_string_equal(buf, "ab\\xFF");
    span_quote((Span){"abcdefgh", 8}, buf, sizeof buf, 4);
    assert_string_equal(buf, "abcd...");
}

/* Writes `data` to a pipe and reads it back through a LineReader. */
static void read_lines(const char *data, size_t len, LineStatus *status, char lines[][32], int max, int *count)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    LineReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(input_open(r, fds[0]));
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fds[1], data + done, len - done > 4096 ? 4096 : len - done);
        assert_true(n > 0);
        done += (size_t)n;
        if (done >= 60000)
            break; /* the pipe is full enough for this test */
    }
    close(fds[1]);
    *count = 0;
    for (;;) {
        char *line;
        size_t n;
        LineStatus st = input_read_line(r, &line, &n);
        if (*count < max) {
            status[*count] = st;
            snprintf(lines[*count], 32, "%s", st == LINE_OK ? line : "");
        }
        (*count)++;
        if (st == LINE_EOF)
            break;
    }
    input_close(r);
    free(r);
    close(fds[0]);
}

static void test_line_reader(void **state)
{
    (void)state;
    LineStatus st[8];
    char lines[8][32];
    int count;
    const char data[] = "uci\r\n\nisready\nlast";
    read_lines(data, sizeof data - 1, st, lines, 8, &count);
    assert_int_equal(count, 5);
    assert_string_equal(lines[0], "uci");
    assert_string_equal(lines[1], "");
    assert_string_equal(lines[2], "isready");
    assert_string_equal(lines[3], "last");
    assert_int_equal(st[4], LINE_EOF);

    assert_null(input_line_problem("position startpos", 17));
    assert_null(input_line_problem("\xed\x95\x9c", 3)); /* 한 */
    assert_non_null(input_line_problem("a\0b", 3));
    assert_non_null(input_line_problem("\xc3\x28", 2));
    assert_non_null(input_line_problem("\xed\xa0\x80", 3)); /* a surrogate */
    assert_non_null(input_line_problem("\xe2\x82", 2));     /* cut short */
    assert_non_null(input_line_problem("\xc0\xaf", 2));     /* overlong */
}

static void test_long_line(void **state)
{
    (void)state;
    /* More than INPUT_LINE_MAX bytes on one line, through a pipe written by a child. */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        static char chunk[65536];
        memset(chunk, 'x', sizeof chunk);
        for (int i = 0; i < (INPUT_LINE_MAX / (int)sizeof chunk) + 2; i++)
            if (write(fds[1], chunk, sizeof chunk) < 0)
                _exit(1);
        if (write(fds[1], "\nisready\n", 9) < 0)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    LineReader *r = malloc(sizeof *r);
    assert_true(input_open(r, fds[0]));
    char *line;
    size_t n;
    assert_int_equal(input_read_line(r, &line, &n), LINE_TOO_LONG);
    assert_int_equal(input_read_line(r, &line, &n), LINE_OK);
    assert_string_equal(line, "isready");
    assert_int_equal(input_read_line(r, &line, &n), LINE_EOF);
    input_close(r);
    free(r);
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
}

static void test_report_lines(void **state)
{
    (void)state;
    SearchInfo info;
    memset(&info, 0, sizeof info);
    info.depth = 5;
    info.seldepth = 7;
    info.multipv = 1;
    info.score = -42;
    info.bound = BOUND_UPPER;
    info.nodes = 1413;
    info.nps = 353250;
    info.hashfull = 3;
    info.time_ms = 4;
    info.pv_length = 2;
    info.pv[0] = make_move(make_square(8, 3), make_square(7, 3)); /* i4h4 */
    info.pv[1] = make_move(make_square(4, 8), make_square(4, 8)); /* e9e9, a pass */
    char buf[REPORT_LINE_SIZE];
    ReportStyle uci = {PROTO_UCI, false, 0}, ucci = {PROTO_UCCI, false, 0}, wdl = {PROTO_UCI, true, 0};
    report_info_line(&info, &uci, buf, sizeof buf);
    assert_string_equal(buf, "info depth 5 seldepth 7 multipv 1 score cp -42 upperbound nodes 1413 nps 353250 hashfull "
                             "3 time 4 pv i4h4 e9e9");
    report_info_line(&info, &ucci, buf, sizeof buf);
    assert_string_equal(
        buf,
        "info depth 5 seldepth 7 multipv 1 score -42 upperbound nodes 1413 nps 353250 hashfull 3 time 4 pv i3h3 e8e8");
    info.is_mate = true;
    info.mate_moves = -2;
    info.bound = BOUND_EXACT;
    report_info_line(&info, &wdl, buf, sizeof buf);
    assert_string_equal(buf, "info depth 5 seldepth 7 multipv 1 score mate -2 wdl 0 0 1000 nodes 1413 nps 353250 "
                             "hashfull 3 time 4 pv i4h4 e9e9");

    report_bestmove_line(info.pv[0], info.pv[1], PROTO_UCI, buf, sizeof buf);
    assert_string_equal(buf, "bestmove i4h4 ponder e9e9");
    report_bestmove_line(make_move(make_square(1, 9), make_square(2, 7)), MOVE_NONE, PROTO_UCI, buf, sizeof buf);
    assert_string_equal(buf, "bestmove b10c8");
    report_bestmove_line(make_move(make_square(1, 9), make_square(2, 7)), MOVE_NONE, PROTO_UCCI, buf, sizeof buf);
    assert_string_equal(buf, "bestmove b9c7");
    report_bestmove_line(MOVE_NONE, MOVE_NONE, PROTO_UCCI, buf, sizeof buf);
    assert_string_equal(buf, "bestmove (none)");
}

static void test_wdl(void **state)
{
    (void)state;
    int w[3], prev_win = -1;
    for (int cp = -3000; cp <= 3000; cp += 50) {
        report_wdl(cp, 40, w);
        assert_int_equal(w[0] + w[1] + w[2], 1000);
        assert_true(w[0] >= 0 && w[1] >= 0 && w[2] >= 0);
        assert_true(w[0] >= prev_win);
        prev_win = w[0];
        int m[3];
        report_wdl(-cp, 40, m);
        assert_int_equal(w[0], m[2]); /* symmetric */
    }
    report_wdl(0, 40, w);
    assert_int_equal(w[0], w[2]);
    assert_true(w[1] > 400);
    report_wdl(5000, 40, w);
    assert_true(w[0] > 990);
}

static void test_xboard_text(void **state)
{
    (void)state;
    SearchInfo info;
    memset(&info, 0, sizeof info);
    info.depth = 5;
    info.seldepth = 7;
    info.multipv = 1;
    info.score = -42;
    info.nodes = 1413;
    info.nps = 353250;
    info.time_ms = 1234;
    info.pv_length = 2;
    info.pv[0] = make_move(make_square(8, 3), make_square(7, 3)); /* i4h4, XBoard i3h3 */
    info.pv[1] = make_move(make_square(4, 8), make_square(4, 8)); /* a pass */
    char buf[REPORT_LINE_SIZE];
    report_xboard_thinking(&info, buf, sizeof buf);
    assert_string_equal(buf, "5 -42 123 1413 7 353250 0\t i3h3 @@@@");
    info.is_mate = true;
    info.mate_moves = 3;
    info.pv_length = 0;
    report_xboard_thinking(&info, buf, sizeof buf);
    assert_string_equal(buf, "5 100003 123 1413 7 353250 0\t");
    info.mate_moves = -2;
    report_xboard_thinking(&info, buf, sizeof buf);
    assert_string_equal(buf, "5 -100002 123 1413 7 353250 0\t");
    char text[MOVE_TEXT_SIZE];
    report_xboard_move(make_move(make_square(1, 9), make_square(2, 7)), text);
    assert_string_equal(text, "b9c7");
    report_xboard_move(make_move(make_square(4, 1), make_square(4, 1)), text);
    assert_string_equal(text, "@@@@");
}

static void test_xboard_clock(void **state)
{
    (void)state;
    XBoardClock c = {0, 0, 0, 777, 0};
    assert_true(xboard_parse_level("40 5 0", &c));
    assert_int_equal(c.moves_per_session, 40);
    assert_int_equal(c.base_ms, 300000);
    assert_int_equal(c.clock_ms, 300000);
    assert_int_equal(c.increment_ms, 0);
    assert_int_equal(c.move_time_ms, 0); /* a level replaces st */
    assert_true(xboard_parse_level("0 2:30 1", &c));
    assert_int_equal(c.moves_per_session, 0);
    assert_int_equal(c.base_ms, 150000);
    assert_int_equal(c.increment_ms, 1000);
    assert_true(xboard_parse_level(" 0  0:05 0.1 ", &c));
    assert_int_equal(c.base_ms, 5000);
    assert_int_equal(c.increment_ms, 100);
    assert_true(xboard_parse_level("0 0.5 0", &c)); /* half a minute */
    assert_int_equal(c.base_ms, 30000);
    static const char *const bad[] = {"",        "40",      "40 5",  "40 5 0 1", "x 5 0",    "40 5:60 0",
                                      "40 -5 0", "40 5 -1", "0 0 0", "40 5: 0",  "40 :30 0", "40 5 0.1.2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        XBoardClock before = c;
        assert_false(xboard_parse_level(bad[i], &c));
        assert_memory_equal(&before, &c, sizeof c);
    }
    int64_t ms;
    assert_true(xboard_parse_seconds("30", 2, &ms));
    assert_int_equal(ms, 30000);
    assert_true(xboard_parse_seconds("0.25", 4, &ms));
    assert_int_equal(ms, 250);
    assert_false(xboard_parse_seconds("1s", 2, &ms));
    assert_false(xboard_parse_seconds("", 0, &ms));

    /* 40 moves a session: at move 1 all 40 are left, at move 40 one, at move 41 a new session. */
    XBoardClock level = {40, 300000, 2000, 0, 123450};
    TimeControl tc = xboard_time_control(&level, 1);
    assert_int_equal(tc.time_left_ms, 123450);
    assert_int_equal(tc.increment_ms, 2000);
    assert_int_equal(tc.moves_to_go, 40);
    assert_int_equal(tc.movetime_ms, 0);
    assert_int_equal(xboard_time_control(&level, 40).moves_to_go, 1);
    assert_int_equal(xboard_time_control(&level, 41).moves_to_go, 40);
    assert_int_equal(xboard_time_control(&level, 55).moves_to_go, 26);
    level.moves_per_session = 0; /* the whole game: no moves to go */
    assert_int_equal(xboard_time_control(&level, 55).moves_to_go, 0);
    level.move_time_ms = 1500; /* st */
    tc = xboard_time_control(&level, 55);
    assert_int_equal(tc.movetime_ms, 1500);
    assert_int_equal(tc.time_left_ms, -1);
}

/* The wake descriptor: a byte written to it makes the reader answer LINE_WAKE, before a line already
 * waiting and while blocked waiting for one; the line still comes afterwards. */
static void test_line_reader_wake(void **state)
{
    (void)state;
    int in[2], wake[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(wake), 0);
    static LineReader r;
    assert_true(input_open(&r, in[0]));
    input_set_wake(&r, wake[0]);
    char *line;
    size_t len;
    assert_int_equal(write(in[1], "go\n", 3), 3);
    assert_int_equal(write(wake[1], "xx", 2), 2);
    assert_int_equal(input_read_line(&r, &line, &len), LINE_WAKE);
    assert_int_equal(input_read_line(&r, &line, &len), LINE_OK);
    assert_string_equal(line, "go");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct timespec pause = {0, 100000000};
        nanosleep(&pause, NULL);
        _exit(write(wake[1], "x", 1) == 1 ? 0 : 1);
    }
    assert_int_equal(input_read_line(&r, &line, &len), LINE_WAKE); /* blocked until the child wrote */
    int status;
    waitpid(pid, &status, 0);
    input_set_wake(&r, -1);
    assert_int_equal(write(wake[1], "x", 1), 1); /* no longer watched */
    close(in[1]);
    assert_int_equal(input_read_line(&r, &line, &len), LINE_EOF);
    input_close(&r);
    close(in[0]);
    close(wake[0]);
    close(wake[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simple_commands),
        cmocka_unit_test(test_position),
        cmocka_unit_test(test_setoption),
        cmocka_unit_test(test_option_values),
        cmocka_unit_test(test_go),
        cmocka_unit_test(test_banmoves_and_bench),
        cmocka_unit_test(test_span_quote),
        cmocka_unit_test(test_line_reader),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_report_lines),
        cmocka_unit_test(test_wdl),
        cmocka_unit_test(test_xboard_text),
        cmocka_unit_test(test_xboard_clock),
        cmocka_unit_test(test_line_reader_wake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

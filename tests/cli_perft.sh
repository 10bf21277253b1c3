#!/usr/bin/env bash
# Command-line transcript tests for `janggun perft`: stdout, stderr and exit status, byte for byte.
# usage: bash tests/cli_perft.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_perft.sh "$@"
need_executable "$bin"

START_FEN='rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1'
COMPOSED_FEN='4k4/c7R/9/3R1R3/9/9/9/9/9/3K5 b - - 0 1'
USAGE='usage: janggun        (the UCI/UCCI/XBoard protocol loop on standard input and output)
       janggun perft --depth N [--fen "FEN"] [--moves "M1 M2 ..."] [--variant NAME] [--divide]
                     [--composed]   (accept more pieces of a kind than a set has)
       janggun bench [depth]
       janggun analyze (--fen "FEN" [--moves "..."] | --epd FILE | --gib FILE | --pgn FILE) ...
                       (janggun analyze --help lists its options)
       janggun --version | --help'
HELP="Janggun, a Janggi (Korean chess) engine.

$USAGE

With no arguments janggun reads engine commands on standard input, as a GUI sends them: UCI by
default, UCCI after \`ucci\`, XBoard (CECP) after \`xboard\`. Type \`uci\`, then \`position startpos\`
and \`go depth 12\`; \`quit\` ends. perft counts the moves to a depth; bench searches fixed
positions (its node count is the search's signature); analyze reviews positions and games (GIB,
PGN, EPD). See README.md."
DEPTH_RANGE='--depth must be a number from 1 to 20'
PERFT_HELP='usage: janggun perft --depth N [OPTIONS]

  --depth N            count the moves to depth N (1 to 20)
  --fen "FEN"          the position (default: the start position)
  --moves "M1 M2 ..."  moves played from it first
  --variant NAME       janggi (default), janggicasual, janggimodern or janggitraditional
  --divide             one `move: count` line per legal move first
  --composed           accept more pieces of a kind than a set has
  --help, -h           print this help

Prints `Nodes searched: N` last. Passes are counted; repetitions and the move limit are ignored, as in
Fairy-Stockfish.'

# `perft --depth 1 --divide` at the start position, exactly as janggun prints it.
START_DIVIDE_1='a1a2: 1
a1a3: 1
i1i2: 1
i1i3: 1
b1a3: 1
b1c3: 1
h1g3: 1
h1i3: 1
a4b4: 1
a4a5: 1
c4b4: 1
c4d4: 1
c4c5: 1
e4d4: 1
e4f4: 1
e4e5: 1
g4f4: 1
g4h4: 1
g4g5: 1
i4h4: 1
i4i5: 1
d1e1: 1
d1d2: 1
f1e1: 1
f1f2: 1
e2e1: 1
e2d2: 1
e2f2: 1
e2d3: 1
e2e3: 1
e2f3: 1
e2e2: 1

Nodes searched: 32'

# Fairy-Stockfish's `go perft 1` list at the start position (fsf-reference.md section 4.4), in its order.
FSF_START_MOVES='a1a2 a1a3 i1i2 i1i3 a4b4 a4a5 c4b4 c4d4 c4c5 e4d4 e4f4 e4e5 g4f4 g4h4 g4g5 i4h4 i4i5
b1a3 b1c3 h1g3 h1i3 d1e1 d1d2 f1e1 f1f2 e2e1 e2d2 e2f2 e2d3 e2e3 e2f3 e2e2'

# check NAME STATUS STDOUT STDERR -- ARGS...: runs BINARY ARGS and compares the exit status and both output
# streams byte for byte. STDOUT and STDERR are the expected texts without their final newline, which is
# added unless the text is empty (an empty stream is expected to be empty).
check() {
  local name=$1 want_rc=$2 want_out=$3 want_err=$4; shift 5
  local rc
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
  if [ -n "$want_out" ]; then printf '%s\n' "$want_out" >"$tmp/want_out"; else : >"$tmp/want_out"; fi
  if [ -n "$want_err" ]; then printf '%s\n' "$want_err" >"$tmp/want_err"; else : >"$tmp/want_err"; fi
  if [ "$rc" = "$want_rc" ] && cmp -s "$tmp/out" "$tmp/want_out" && cmp -s "$tmp/err" "$tmp/want_err"; then
    pass "$name"
    return
  fi
  echo "FAIL $name"
  fails=$((fails + 1))
  printf '  command: %s' "$bin"; printf ' %q' "$@"; echo
  [ "$rc" = "$want_rc" ] || echo "  exit status: expected $want_rc, actual $rc"
  if ! cmp -s "$tmp/out" "$tmp/want_out"; then
    echo "  stdout expected:"; show "$tmp/want_out"; echo "  stdout actual:"; show "$tmp/out"
  fi
  if ! cmp -s "$tmp/err" "$tmp/want_err"; then
    echo "  stderr expected:"; show "$tmp/want_err"; echo "  stderr actual:"; show "$tmp/err"
  fi
}

# check_nodes NAME N ARGS...: a successful perft without --divide prints a blank line and the node count.
check_nodes() {
  local name=$1 nodes=$2; shift 2
  check "$name" 0 "
Nodes searched: $nodes" "" -- perft "$@"
}

# check_error NAME MESSAGE ARGS...: exit status 2, nothing on stdout, exactly `janggun: error: MESSAGE`.
check_error() {
  local name=$1 msg=$2; shift 2
  check "$name" 2 "" "janggun: error: $msg" -- "$@"
}

# --- Successful runs -------------------------------------------------------------------------------

check "start position: --depth 1 --divide transcript" 0 "$START_DIVIDE_1" "" -- perft --depth 1 --divide
check "start position: --divide before --depth gives the same transcript" 0 "$START_DIVIDE_1" "" \
  -- perft --divide --depth 1
check "start position: explicit --fen and --variant janggi give the same transcript" 0 "$START_DIVIDE_1" "" \
  -- perft --variant janggi --fen "$START_FEN" --depth 1 --divide

# The divided root moves are Fairy-Stockfish's list (in any order), each once.
"$bin" perft --depth 1 --divide >"$tmp/out" 2>/dev/null
sed -n 's/^\([a-i][0-9]*[a-i][0-9]*\): 1$/\1/p' "$tmp/out" | sort >"$tmp/ours"
# shellcheck disable=SC2086  # split the list into one move a line
printf '%s\n' $FSF_START_MOVES | sort >"$tmp/fsf"
if [ "$(wc -l <"$tmp/fsf")" -eq 32 ] && [ "$(sort -u "$tmp/ours" | wc -l)" -eq 32 ] && cmp -s "$tmp/ours" "$tmp/fsf"; then
  pass "start position: divided root moves = FSF go perft 1 list (fsf-reference.md 4.4)"
else
  fail "start position: divided root moves = FSF go perft 1 list (fsf-reference.md 4.4)" \
    "only in janggun: $(comm -23 "$tmp/ours" "$tmp/fsf" | tr '\n' ' ')" \
    "only in FSF:     $(comm -13 "$tmp/ours" "$tmp/fsf" | tr '\n' ' ')" \
    "janggun moves:   $(wc -l <"$tmp/ours") lines, $(sort -u "$tmp/ours" | wc -l) distinct"
fi

check_nodes "start position: --depth 2 = 1024" 1024 --depth 2
"$bin" perft --depth 2 --divide >"$tmp/out" 2>/dev/null
last=$(tail -n 1 "$tmp/out")
if [ "$last" = "Nodes searched: 1024" ] && [ "$(grep -c ': 32$' "$tmp/out")" -eq 32 ]; then
  pass "start position: --depth 2 --divide ends with 'Nodes searched: 1024', 32 moves of 32"
else
  fail "start position: --depth 2 --divide ends with 'Nodes searched: 1024', 32 moves of 32" \
    "expected last line: Nodes searched: 1024" "actual last line:   $last" \
    "lines ': 32': $(grep -c ': 32$' "$tmp/out") (expected 32)"
fi
check_nodes "start position: --depth 3 = 33000" 33000 --depth 3
check_nodes "--variant janggimodern --depth 4 = 1083563" 1083563 --variant janggimodern --depth 4
check_nodes "--variant janggicasual --depth 4 = 1083563" 1083563 --variant janggicasual --depth 4
check_nodes "--variant janggitraditional --depth 4 = 1065277" 1065277 --variant janggitraditional --depth 4
check_nodes "--variant janggi --depth 4 = 1065277" 1065277 --variant janggi --depth 4

# After e4d4 e7d7 the generals face each other on the open e-file (bikjang): under janggi Cho has only the
# 8 moves FSF lists (general moves, blocks and the pass); janggimodern has no bikjang, so 32 remain.
check_nodes "--moves \"e4d4 e7d7\" --depth 1 = 8 (janggi)" 8 --moves "e4d4 e7d7" --depth 1
check_nodes "--moves \"e4d4 e7d7\" --depth 1 = 32 (janggimodern)" 32 --moves "e4d4 e7d7" --depth 1 --variant janggimodern
check_nodes "--moves with a pass: \"e2e2 e9e9\" --depth 1 = 0 (double pass ends the game)" 0 \
  --moves "e2e2 e9e9" --depth 1
check_nodes "--moves \"\" (empty list) --depth 1 = 32" 32 --moves "" --depth 1
check_nodes "--moves pass spellings \"0000 @@@@\" (engine/move.h) --depth 1 = 0" 0 --moves "0000 @@@@" --depth 1

# FEN input accepts H (horse) and E (elephant).
check "--fen with H/E letters: start position written RHEA1AEHR, same transcript" 0 "$START_DIVIDE_1" "" \
  -- perft --depth 1 --divide --fen "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1"
check_nodes "--fen with H/E letters: REHA1AHER setup --depth 3 = 33336" 33336 --depth 3 \
  --fen "rhea1aher/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/REHA1AHER w - - 0 1"
check_nodes "--fen reference position (b to move) --depth 3 = 2644" 2644 --depth 3 \
  --fen "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1"

check_nodes "--composed accepts three chariots: --depth 2 = 46" 46 --composed --depth 2 --fen "$COMPOSED_FEN"
check "--composed --divide --depth 1: the only move is the pass (FSF: e10e10)" 0 "e10e10: 1

Nodes searched: 1" "" -- perft --composed --divide --depth 1 --fen "$COMPOSED_FEN"
check_error "without --composed, three chariots are refused" "bad FEN: Cho has 3 chariots, at most 2 allowed" \
  perft --depth 2 --fen "$COMPOSED_FEN"

# --- Errors: exit status 2, stdout empty, exact message on stderr ----------------------------------

check_error "missing --depth" "perft needs --depth N" perft
check_error "missing --depth (other options given)" "perft needs --depth N" perft --divide --variant janggi
check_error "--depth 0" "$DEPTH_RANGE, not '0'" perft --depth 0
check_error "--depth abc" "$DEPTH_RANGE, not 'abc'" perft --depth abc
check_error "--depth 21" "$DEPTH_RANGE, not '21'" perft --depth 21
check_error "--depth -1" "$DEPTH_RANGE, not '-1'" perft --depth -1
check_error "--depth 3x (trailing garbage)" "$DEPTH_RANGE, not '3x'" perft --depth 3x
check_error "--depth '' (empty)" "$DEPTH_RANGE, not ''" perft --depth ""
check_error "--depth 99999999999999999999 (overflow)" "$DEPTH_RANGE, not '99999999999999999999'" \
  perft --depth 99999999999999999999
check_error "unknown option" "unknown option '--bogus' (see janggun perft --help)" perft --depth 1 --bogus
check_error "positional argument" "unexpected '3' (see janggun perft --help)" perft 3
check_error "--depth=N is not a form options take" "unknown option '--depth=2' (see janggun perft --help)" \
  perft --depth=2
check_error "--depth without a value" "option --depth needs a value" perft --depth
check_error "--fen without a value" "option --fen needs a value" perft --depth 1 --fen
check_error "--variant without a value" "option --variant needs a value" perft --depth 1 --variant
check_error "--moves without a value" "option --moves needs a value" perft --depth 1 --moves
check_error "unknown variant" \
  "unknown variant 'xiangqi' (janggi, janggicasual, janggimodern, janggitraditional)" \
  perft --depth 1 --variant xiangqi
check_error "malformed FEN: unknown piece letter" "bad FEN: unknown piece letter 'x' in rank 10" \
  perft --depth 1 --fen "xyz"
check_error "malformed FEN: short rank" "bad FEN: rank 1 has 8 files, expected 9" \
  perft --depth 1 --fen "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABN w - - 0 1"
check_error "illegal move in --moves (ply 2)" "illegal move 'e7e5' at ply 2" \
  perft --depth 1 --moves "e4d4 e7e5 e2e2"
check_error "illegal move in --moves (ply 3)" "illegal move 'a1a9' at ply 3" \
  perft --depth 1 --moves "e4d4 e7d7 a1a9"
check_error "unparsable move in --moves (ply 2)" "unparsable move 'zz9' at ply 2" \
  perft --depth 1 --moves "e4d4 zz9"
check_error "unparsable move in --moves (ply 1, file j)" "unparsable move 'j1j2' at ply 1" \
  perft --depth 1 --moves "j1j2"
check "unknown subcommand" 2 "" "janggun: error: unknown command 'frobnicate'
$USAGE" -- frobnicate --depth 1
check "perft --help prints the options on stdout" 0 "$PERFT_HELP" "" -- perft --help
check "perft -h is perft --help, wherever it comes" 0 "$PERFT_HELP" "" -- perft --depth 1 -h --bogus
check "--help prints the help on stdout" 0 "$HELP" "" -- --help
check "-h is --help" 0 "$HELP" "" -- -h
version=$("$bin" --version); rc=$?
if [ "$rc" = 0 ] && [[ "$version" =~ ^Janggun\ [0-9]+\.[0-9]+(-[0-9]+)?(-g[0-9a-f]+)?(-dirty)?$ ]]; then
  pass "--version: one line 'Janggun <version>', exit 0"
else fail "--version: one line 'Janggun <version>', exit 0" "exit $rc, got: $version"; fi
idname=$(printf 'uci\nquit\n' | "$bin" | grep '^id name ')
if [ "$idname" = "id name Janggun ${version#Janggun }" ]; then pass "id name carries the same version"
else fail "id name carries the same version" "got: $idname"; fi

echo "cli_perft: $fails failed"
[ "$fails" -eq 0 ]

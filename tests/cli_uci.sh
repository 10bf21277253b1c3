#!/usr/bin/env bash
# Protocol transcript tests for `janggun` under UCI (fsf-reference.md 5.1, 5.2, 5.7, 7): the handshake and
# option block, setoption, position, go and its output, go perft, d, the terminal root, bad input of every
# kind, searches that must run while commands arrive, determinism and mates, strength levels.
# usage: bash tests/cli_uci.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_uci.sh "$@"
need_executable "$bin"
# shellcheck source=tests/protocol_lib.bash
. "$(dirname "$0")/protocol_lib.bash"

START_FEN='rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1'

# --- Start-up and handshake -------------------------------------------------------------------------

session ""
first=$(head -n 1 "$tmp/out")
version=$(printf '%s\n' "$first" | sed -n 's/^Janggun \([^ ]*\) by the Janggun developers$/\1/p')
if [ -n "$version" ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && [ "$session_rc" = 0 ]; then
  pass "no arguments: the protocol loop prints 'Janggun <version> by the Janggun developers', exits 0 at end of input"
else
  fail "no arguments: the protocol loop prints 'Janggun <version> by the Janggun developers', exits 0 at end of input" \
    "exit status $session_rc, output:"; show "$tmp/out"
  version=0
fi

NET_NAME=$(cd "$(dirname "$0")/.." && ls nets/janggun-*.nnue | sed "s|^nets/||")
UCI_BLOCK="id name Janggun $version
id author the Janggun developers

option name Threads type spin default 1 min 1 max 256
option name Hash type spin default 16 min 1 max 65536
option name Clear Hash type button
option name Ponder type check default false
option name MultiPV type spin default 1 min 1 max 64
option name Skill Level type spin default 20 min -20 max 20
option name Move Overhead type spin default 30 min 0 max 5000
option name UCI_Variant type combo default janggi var janggi var janggicasual var janggimodern var janggitraditional
option name UCI_AnalyseMode type check default false
option name UCI_LimitStrength type check default false
option name UCI_Elo type spin default 1350 min 500 max 2850
option name UCI_ShowWDL type check default false
option name usemillisec type check default true
option name Use NNUE type check default true
option name EvalFile type string default $NET_NAME
option name Skill Seed type spin default 0 min 0 max 2147483647
uciok"
session "uci
isready
quit"
expect_body "uci: id lines, blank line, option block in FSF's format, uciok; isready: readyok" "$UCI_BLOCK
readyok"

variant_line() {
  echo "info string variant $1 files 9 ranks 10 pocket 0 template janggi startpos $START_FEN"
}
session "uci
setoption name UCI_Variant value janggi
setoption name UCI_Variant value janggicasual
setoption name UCI_Variant value janggimodern
setoption name UCI_Variant value janggitraditional
quit"
expect_body "setoption UCI_Variant: FSF's 'info string variant ...' line for each of the four rule sets" "$UCI_BLOCK
$(variant_line janggi)
$(variant_line janggicasual)
$(variant_line janggimodern)
$(variant_line janggitraditional)"

# --- setoption: names in any case, values checked, nothing changed on an error -----------------------

session "setoption name hash value 32
setoption name THREADS value 2
setoption name move overhead value 100
setoption name Move   Overhead value 50
setoption name clear hash
setoption name Threads value 1
setoption name Ponder value true
setoption name UCI_AnalyseMode value false
setoption name Frobnicate value 3
setoption name Hash value 0
setoption name Hash value 65537
setoption name Hash value 12abc
setoption name Hash value
setoption name Hash
setoption name Threads value 257
setoption name MultiPV value 0
setoption name Move Overhead value -1
setoption name Ponder value yes
setoption name UCI_Variant value Janggi
setoption name UCI_Variant value xiangqi
setoption
setoption Hash 32
setoption name
setoption name value 3
isready"
expect_body "setoption: case-insensitive names accepted silently; unknown names, bad values and missing parts get one error each" \
"info string error: unknown option 'Frobnicate'
info string error: option Hash must be a number from 1 to 65536, not '0'
info string error: option Hash must be a number from 1 to 65536, not '65537'
info string error: option Hash must be a number from 1 to 65536, not '12abc'
info string error: option Hash needs a value
info string error: option Hash needs a value
info string error: option Threads must be a number from 1 to 256, not '257'
info string error: option MultiPV must be a number from 1 to 64, not '0'
info string error: option Move Overhead must be a number from 0 to 5000, not '-1'
info string error: option Ponder must be true or false, not 'yes'
info string error: option UCI_Variant must be one of janggi, janggicasual, janggimodern, janggitraditional (exactly), not 'Janggi'
info string error: option UCI_Variant must be one of janggi, janggicasual, janggimodern, janggitraditional (exactly), not 'xiangqi'
info string error: setoption needs 'name <option>'
info string error: setoption: expected 'name', not 'Hash'
info string error: setoption: missing option name after 'name'
info string error: setoption: missing option name after 'name'
readyok"

session "setoption name MultiPV value 3
setoption name MultiPV value 65
setoption name multipv value abc
go depth 2
@wait 1 ^bestmove
quit"
session_ok "MultiPV: a refused value changes nothing" &&
  expect_value "MultiPV: a refused value changes nothing (3 lines at depth 2)" 3 \
    "$(grep -cE '^info depth 2 .*multipv [123] ' "$tmp/body")"

# The network's options: Use NNUE (true by default) and EvalFile. A file that is refused leaves the net
# as it was, and says why; the embedded net's name loads the embedded net again.
printf 'JANGNNUE\001\000\000\000' >"$tmp/short.nnue"
session "setoption name Use NNUE value maybe
setoption name EvalFile
setoption name EvalFile value $tmp/none.nnue
setoption name EvalFile value $tmp/short.nnue
setoption name EvalFile value $NET_NAME
setoption name use nnue value true
isready"
expect_body "Use NNUE and EvalFile: bad values refused, a bad net file keeps the net, the embedded name loads it" \
"info string error: option Use NNUE must be true or false, not 'maybe'
info string error: option EvalFile needs a value
info string error: option EvalFile: cannot open $tmp/none.nnue: No such file or directory; the net stays $NET_NAME
info string error: option EvalFile: $tmp/short.nnue: truncated: 12 bytes, shorter than the 56-byte header; the net stays $NET_NAME
info string EvalFile: using the net $NET_NAME (1 king bucket, 256 hidden, 1 output bucket)
readyok"

session "setoption name Use NNUE value true
position startpos moves b1c3
go depth 6
@wait 1 ^bestmove
eval
quit"
expect_lines "Use NNUE true: a search with the net, and eval shows the network beside the classical terms" \
  '^info depth 6 .* pv ' '^bestmove ' '^ *Material \|' "^Network \($NET_NAME, in use\): "

# A refused variant keeps the rule set: after e4d4 e7d7 (generals facing) janggi allows 8 moves, janggimodern 32.
session "setoption name UCI_Variant value janggimodern
setoption name UCI_Variant value JANGGI
position startpos moves e4d4 e7d7
go perft 1
quit"
expect_lines "UCI_Variant: a refused value keeps the rule set (janggimodern: no bikjang, 32 moves)" \
  "^info string variant janggimodern " "^info string error: option UCI_Variant" "^Nodes searched: 32$"

# --- d ------------------------------------------------------------------------------------------------

session "position startpos moves b1c3 b10c8
d
position fen 3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 3 20
d
quit"
sed -i 's/^Key: [0-9A-F]\{16\}$/Key: <16 hex digits>/' "$tmp/body"
expect_body "d: FSF's board (rank labels 1-10, side to move marked), Fen, Sfen, Key, Checkers (UCI squares), Chased" "
 +---+---+---+---+---+---+---+---+---+
 | r |   | b | a |   | a | b | n | r |10  
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   | k |   |   |   |   |9
 +---+---+---+---+---+---+---+---+---+
 |   | c | n |   |   |   |   | c |   |8
 +---+---+---+---+---+---+---+---+---+
 | p |   | p |   | p |   | p |   | p |7
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |6
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |5
 +---+---+---+---+---+---+---+---+---+
 | P |   | P |   | P |   | P |   | P |4
 +---+---+---+---+---+---+---+---+---+
 |   | C | N |   |   |   |   | C |   |3
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   | K |   |   |   |   |2
 +---+---+---+---+---+---+---+---+---+
 | R |   | B | A |   | A | B | N | R |1 *
 +---+---+---+---+---+---+---+---+---+
   a   b   c   d   e   f   g   h   i

Fen: r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR w - - 2 2
Sfen: r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR b - 3
Key: <16 hex digits>
Checkers: 
Chased: 

 +---+---+---+---+---+---+---+---+---+
 |   |   |   | k |   |   |   |   |   |10  
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |9
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |8
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |7
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |6
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |5
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |4
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   |   |3
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   | K |   |   |   |   |2
 +---+---+---+---+---+---+---+---+---+
 |   |   |   |   | r |   |   |   |   |1 *
 +---+---+---+---+---+---+---+---+---+
   a   b   c   d   e   f   g   h   i

Fen: 3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 3 20
Sfen: 3k5/9/9/9/9/9/9/9/4K4/4r4 b - 39
Key: <16 hex digits>
Checkers: e1 
Chased: "

# --- go perft -----------------------------------------------------------------------------------------

session "go perft 1
position startpos moves e2e2 e9e9
go perft 1
position startpos
go perft 3
quit"
{ "$bin" perft --depth 1 --divide; echo; echo; echo "Nodes searched: 0"; echo; "$bin" perft --depth 3 --divide; } >"$tmp/want_perft"
expect_body "go perft: 'move: count' lines, blank line, 'Nodes searched: N', blank line (as FSF); 0 after a double pass" \
"$(cat "$tmp/want_perft")
"

# --- Terminal roots: info depth 0 and bestmove (none) at once -------------------------------------------

session "position startpos moves e2e2 e9e9
go depth 5
@wait 1 ^bestmove
setoption name UCI_Variant value janggicasual
position startpos moves e2e2 e9e9
go depth 5
@wait 2 ^bestmove
position fen R3k4/7R1/9/9/9/9/9/9/9/3K5 b - - 1 1
go depth 3
@wait 3 ^bestmove
quit"
expect_body "terminal root: 'info depth 0 score mate 0' / 'bestmove (none)'; a drawn end (janggicasual double pass) scores cp 0" \
"info depth 0 score mate 0
bestmove (none)
$(variant_line janggicasual)
info depth 0 score cp 0
bestmove (none)
info depth 0 score mate 0
bestmove (none)"

# --- position errors ---------------------------------------------------------------------------------

session "position startpos moves b1c3 b10c8 e2e5 h1g3
d
position startpos moves b1c3 xyz h10g8
d
position startpos moves e2e2 e9e9 b1c3
position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABN w - - 0 1
position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR x - - 0 1
position fen xyz moves b1c3
position fen 9/9/9/9/9/9/9/9/9/9 w - - 0 1
d
position
position foo
position fen
position fen moves b1c3
position startpos b1c3
position startpos moves
d
position startpos moves 0000 @@@@ pass
quit"
grep -a '^Fen: \|^info string' "$tmp/body" >"$tmp/body2"; mv "$tmp/body2" "$tmp/body"
expect_body "position: bad FENs keep the position; a bad move is named with its ply and the moves before it stay" \
"info string error: illegal move 'e2e5' at ply 3; the moves from there on are ignored
Fen: r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR w - - 2 2
info string error: unparsable move 'xyz' at ply 2; the moves from there on are ignored
Fen: rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR b - - 1 1
info string error: illegal move 'b1c3' at ply 3: the game is over (double pass); the moves from there on are ignored
info string error: bad FEN: rank 1 has 8 files, expected 9; position unchanged
info string error: bad FEN: side to move must be 'w' or 'b', not 'x'; position unchanged
info string error: bad FEN: unknown piece letter 'x' in rank 10; position unchanged
info string error: bad FEN: Cho has no general; position unchanged
Fen: rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 2 2
info string error: position needs 'startpos' or 'fen <FEN>'
info string error: position needs 'startpos' or 'fen <FEN>', not 'foo'
info string error: position fen needs a FEN
info string error: position fen needs a FEN
info string error: position: expected 'moves' after startpos, not 'b1c3'
Fen: $START_FEN
info string error: illegal move 'pass' at ply 3: the game is over (double pass); the moves from there on are ignored"

# --- Bad input of every kind: one error line each, and the engine keeps serving -----------------------

head -c 2000000 /dev/zero | tr '\0' 'a' >"$tmp/long"
printf '\n' >>"$tmp/long"
session "xyz
@raw isready\\000junk\\n
@raw \\377\\376 uci\\n
@raw position startpos moves \\303\\050\\n
@file $tmp/long
isready
ponderhit
stop
isready now
# a comment line is ignored

UCI
go depth
go depth x
go depth 0
go depth 1000
go nodes -5
go nodes 99999999999999999999
go movetime
go movetime 0
go wtime 1000 winc -5
go mate 0
go perft 0
go perft 21
go perft
bench 0
bench x
isready
quit"
expect_body "bad input: unknown commands, NULs, invalid UTF-8, a 2 MB line, missing and out-of-range values: one error each" \
"info string error: unknown command 'xyz'
info string error: the line holds a NUL byte; ignored
info string error: the line is not valid UTF-8; ignored
info string error: the line is not valid UTF-8; ignored
info string error: input line longer than 1048576 bytes; ignored
readyok
info string error: ponderhit without a ponder search; ignored
info string error: 'isready' takes no arguments; ignored 'now'
readyok
info string error: unknown command 'UCI'
info string error: go: 'depth' needs a number from 1 to 127
info string error: go: 'depth' needs a number from 1 to 127, not 'x'
info string error: go: 'depth' needs a number from 1 to 127, not '0'
info string error: go: 'depth' needs a number from 1 to 127, not '1000'
info string error: go: 'nodes' needs a number from 1 to 9223372036854775807, not '-5'
info string error: go: 'nodes' needs a number from 1 to 9223372036854775807, not '99999999999999999999'
info string error: go: 'movetime' needs a number of milliseconds from 1 to 1099511627776
info string error: go: 'movetime' needs a number of milliseconds from 1 to 1099511627776, not '0'
info string error: go: 'winc' needs a number of milliseconds from 0 to 1099511627776, not '-5'
info string error: go: 'mate' needs a number of moves from 1 to 63, not '0'
info string error: go: 'perft' needs a depth from 1 to 20, not '0'
info string error: go: 'perft' needs a depth from 1 to 20, not '21'
info string error: go: 'perft' needs a depth from 1 to 20
info string error: bench: the depth must be a number from 1 to 64, not '0'
info string error: bench: the depth must be a number from 1 to 64, not 'x'
readyok"

# A line without an end of line at the end of input still counts; a CR before the end of line is dropped.
session "@raw isready\\r\\nposition startpos moves b1c3\\r\\nd\\nisready"
grep -a '^Fen:\|readyok' "$tmp/body" >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"
expect_body "CRLF line ends are accepted; a last line without an end of line is read" \
"readyok
Fen: rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR b - - 1 1
readyok"

# go with contradictory or unknown parts: said, and the rest still runs.
session "go depth 1 frobnicate 7
@wait 1 ^bestmove
go perft 1 depth 3 wtime 100 searchmoves a1a2
go infinite movetime 100 wtime 1000 btime 1000
@sleep 0.3
isready
@wait 1 ^readyok
stop
@wait 2 ^bestmove
go depth 1 depth 2
@wait 3 ^bestmove
go btime 1000 depth 1
@wait 4 ^bestmove
quit"
expect_lines "go: unknown parameters, perft with limits, clocks under infinite, repeats: each said, the search still runs" \
  "^info string error: unknown go parameter 'frobnicate' ignored; unknown go parameter '7' ignored$" \
  "^bestmove [a-i][0-9]+[a-i][0-9]+" \
  "^info string error: go perft ignores wtime depth searchmoves$" "^Nodes searched: 32$" \
  "^info string error: go infinite searches until stopped; ignored wtime btime movetime$" \
  "^info depth" "^readyok$" "^bestmove " \
  "^info string error: 'depth' given twice; the last one counts$" "^info depth 2 " "^bestmove " \
  "^info string error: go: a clock was given only for Han, not for Cho to move; searching without a clock$" \
  "^bestmove "

# --- Search output -------------------------------------------------------------------------------------

INFO_RE='^info depth [0-9]+ seldepth [0-9]+ multipv 1 score (cp -?[0-9]+|mate -?[0-9]+)( lowerbound| upperbound)? nodes [0-9]+ nps [0-9]+ hashfull [0-9]+ time [0-9]+ pv( [a-i]([1-9]|10)[a-i]([1-9]|10))+$'
session "position startpos moves b1c3 b10c8
go depth 4
@wait 1 ^bestmove
quit"
if session_ok "info lines: FSF's field order, UCI moves"; then
  bad=$(grep -a '^info' "$tmp/body" | grep -avE -- "$INFO_RE" | head -3)
  if [ -z "$bad" ] && grep -aqE '^bestmove [a-i]([1-9]|10)[a-i]([1-9]|10)( ponder [a-i]([1-9]|10)[a-i]([1-9]|10))?$' "$tmp/body" \
     && [ "$(grep -ac '^info depth' "$tmp/body")" -ge 4 ]; then
    pass "info lines: 'info depth D seldepth S multipv 1 score cp X nodes N nps N hashfull N time T pv ...', then bestmove M ponder P"
  else
    fail "info lines: 'info depth D seldepth S multipv 1 score cp X nodes N nps N hashfull N time T pv ...', then bestmove M ponder P" \
      "lines not in the expected form: $bad"; show "$tmp/body"
  fi
fi

session "setoption name UCI_ShowWDL value true
setoption name MultiPV value 3
go depth 3
@wait 1 ^bestmove
quit"
if session_ok "UCI_ShowWDL and MultiPV"; then
  wdl_bad=$(grep -a '^info depth' "$tmp/body" | awk '{ for (i = 1; i <= NF; i++) if ($i == "wdl") { s = $(i+1) + $(i+2) + $(i+3); if (s != 1000) print } ; if ($0 !~ / wdl /) print }')
  per_depth=$(grep -a '^info depth 3 ' "$tmp/body" | sed 's/.* multipv \([0-9]*\) .*/\1/' | tr '\n' ' ')
  if [ -z "$wdl_bad" ] && [ "$per_depth" = "1 2 3 " ]; then
    pass "UCI_ShowWDL: 'wdl W D L' summing to 1000 after the score; MultiPV 3: multipv 1 2 3 at each depth"
  else
    fail "UCI_ShowWDL: 'wdl W D L' summing to 1000 after the score; MultiPV 3: multipv 1 2 3 at each depth" \
      "bad wdl lines: $wdl_bad" "multipv numbers at depth 3: $per_depth"
  fi
fi

# Determinism: the same search after ucinewgame prints the same lines but for nps and time.
session "ucinewgame
position startpos moves h1g3 h10g8
go nodes 5000
@wait 1 ^bestmove
ucinewgame
position startpos moves h1g3 h10g8
go nodes 5000
@wait 2 ^bestmove
quit"
if session_ok "determinism"; then
  sed 's/ nps [0-9]*//; s/ time [0-9]*//' "$tmp/body" >"$tmp/norm"
  n=$(grep -c '' "$tmp/norm")
  head -n $((n / 2)) "$tmp/norm" >"$tmp/first"; tail -n $((n / 2)) "$tmp/norm" >"$tmp/second"
  if [ $((n % 2)) -eq 0 ] && [ "$n" -ge 2 ] && cmp -s "$tmp/first" "$tmp/second" && grep -q '^bestmove' "$tmp/first"; then
    pass "determinism: ucinewgame + go nodes 5000 twice gives the same output apart from nps and time"
  else
    fail "determinism: ucinewgame + go nodes 5000 twice gives the same output apart from nps and time" "first:"
    show "$tmp/first"; echo "  second:"; show "$tmp/second"
  fi
fi

# --- Strength levels ----------------------------------------------------------------------------------

session "setoption name Skill Level value 21
setoption name Skill Level value -21
setoption name skill level value x
setoption name UCI_Elo value 499
setoption name UCI_Elo value 2851
setoption name UCI_LimitStrength value yes
setoption name Skill Seed value -1
setoption name Skill Seed value 2147483648
setoption name Skill Level value -20
setoption name UCI_Elo value 500
setoption name UCI_LimitStrength value true
setoption name Skill Seed value 2147483647
isready
quit"
expect_body "strength options: out-of-range and malformed values refused, one error each; valid ones silent" \
"info string error: option Skill Level must be a number from -20 to 20, not '21'
info string error: option Skill Level must be a number from -20 to 20, not '-21'
info string error: option Skill Level must be a number from -20 to 20, not 'x'
info string error: option UCI_Elo must be a number from 500 to 2850, not '499'
info string error: option UCI_Elo must be a number from 500 to 2850, not '2851'
info string error: option UCI_LimitStrength must be true or false, not 'yes'
info string error: option Skill Seed must be a number from 0 to 2147483647, not '-1'
info string error: option Skill Seed must be a number from 0 to 2147483647, not '2147483648'
readyok"

# Full strength restored: after a limited search, UCI_LimitStrength false and Skill Level 20 give the same
# lines (nodes, scores, PVs, bestmove) as a session that never touched the options.
search_lines() { sed 's/ nps [0-9]*//; s/ time [0-9]*//' "$tmp/body" | grep -aE '^(info depth|bestmove)'; }
session "ucinewgame
position startpos moves h1g3 h10g8
go depth 9
@wait 1 ^bestmove
quit"
session_ok "strength: the default search" && search_lines >"$tmp/plain"
session "setoption name Skill Level value 3
setoption name UCI_LimitStrength value true
setoption name UCI_Elo value 1500
position startpos moves h1g3 h10g8
go depth 9
@wait 1 ^bestmove
setoption name UCI_LimitStrength value false
go depth 9
@wait 2 ^bestmove
setoption name Skill Level value 20
ucinewgame
go depth 9
@wait 3 ^bestmove
quit"
if session_ok "strength: limit off"; then
  search_lines | awk '/^bestmove/ { n++; next } n == 2' >"$tmp/restored"
  limited=$(search_lines | awk '/^bestmove/ { n++; next } n == 0' | grep -c '^info depth')
  if [ -s "$tmp/plain" ] && cmp -s <(grep -v '^bestmove' "$tmp/plain") "$tmp/restored" \
     && [ "$(grep -a '^bestmove' "$tmp/body" | tail -n 1)" = "$(grep '^bestmove' "$tmp/plain")" ] \
     && [ "$limited" -ge 1 ] && [ "$limited" -le 7 ]; then
    pass "UCI_LimitStrength false + Skill Level 20: the same lines and bestmove as the default (limited: depth <= 7)"
  else
    fail "UCI_LimitStrength false + Skill Level 20: the same lines and bestmove as the default (limited: depth <= 7)" \
      "limited info lines: $limited" "default:"; show "$tmp/plain"; echo "  restored:"; show "$tmp/restored"
  fi
fi

# A level: quick (its own budget under 'go wtime'), line 1 only (the hidden candidates are not printed),
# and the same move for the same seed. UCI_Elo 500 is level -20: depth 1 only (two lines, MultiPV 2).
session "setoption name Skill Level value 8
setoption name Skill Seed value 4
position startpos moves h1g3 h10g8
go wtime 600000 btime 600000
@wait 1 ^bestmove
ucinewgame
go wtime 600000 btime 600000
@wait 2 ^bestmove
setoption name MultiPV value 2
go depth 3
@wait 3 ^bestmove
setoption name UCI_LimitStrength value true
setoption name UCI_Elo value 500
go depth 10
@wait 4 ^bestmove
quit"
if session_ok "strength: level 8"; then
  moves=$(grep -a '^bestmove' "$tmp/body" | cut -d' ' -f2 | tr '\n' ' ')
  first=$(awk '/^bestmove/ { n++; next } n == 0' "$tmp/body")
  time_ms=$(printf '%s\n' "$first" | grep -a '^info depth' | tail -n 1 | sed -n 's/.* time \([0-9]*\) .*/\1/p')
  multipv=$(awk '/^bestmove/ { n++; next } n == 0 || n == 1' "$tmp/body" | grep -ac ' multipv [2-9]')
  pv2=$(awk '/^bestmove/ { n++; next } n == 2' "$tmp/body" | grep -ac '^info depth [123] .* multipv 2 ')
  elo500=$(awk '/^bestmove/ { n++; next } n == 3' "$tmp/body" | grep -a '^info depth' | cut -d' ' -f3 | tr '\n' ' ')
  m1=$(echo "$moves" | cut -d' ' -f1); m2=$(echo "$moves" | cut -d' ' -f2)
  if [ -n "$m1" ] && [ "$m1" = "$m2" ] && [ "$multipv" = 0 ] && [ "$pv2" = 3 ] && [ "$elo500" = "1 1 " ] \
     && [ -n "$time_ms" ] && [ "$time_ms" -lt 5000 ]; then
    pass "Skill Level 8 with a 10-minute clock: its own budget (${time_ms} ms), line 1 only, the same move for the same seed; MultiPV 2: two lines; UCI_Elo 500: depth 1 (two lines)"
  else
    fail "Skill Level 8 with a 10-minute clock: its own budget, line 1 only, the same move for the same seed; MultiPV 2: two lines; UCI_Elo 500: depth 1 (two lines)" \
      "bestmoves: $moves" "time: $time_ms ms" "hidden lines printed: $multipv" "multipv 2 lines at depths 1-3: $pv2" "UCI_Elo 500 depths: $elo500"
  fi
fi

# The pass: after Cho passes, Han's pass ends the game by double pass and Han wins the count.
session "position startpos moves e2e2
go depth 4
@wait 1 ^bestmove
quit"
if session_ok "double pass"; then
  expect_value "position startpos moves e2e2, go depth 4: bestmove e9e9 (double pass, Han wins by counting)" "e9e9" "$(last_bestmove)"
  expect_value "position startpos moves e2e2, go depth 4: score mate 1" "mate 1" "$(last_score)"
fi

# Mates. The first moves allowed are FSF's (MultiPV analysis under the same rules).
mate_check() { # NAME VARIANT FEN DEPTH WANT_SCORE ALLOWED_MOVES...
  local name=$1 variant=$2 fen=$3 depth=$4 want=$5; shift 5
  session "setoption name UCI_Variant value $variant
position fen $fen
go depth $depth
@wait 1 ^bestmove
quit"
  session_ok "$name" || return
  local best score ok=no m
  best=$(last_bestmove); score=$(last_score)
  for m in "$@"; do [ "$m" = "$best" ] && ok=yes; done
  if [ "$ok" = yes ] && [ "$score" = "$want" ]; then pass "$name"; else
    fail "$name" "expected: bestmove in {$*}, score $want" "actual:   bestmove $best, score $score"; fi
}
mate_check "mate in 1 (Cho): a1a10, score mate 1" janggicasual '4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - 0 1' 6 "mate 1" a1a10
mate_check "mate in 1 (Han): a10a1, score mate 1" janggicasual 'r2k5/9/9/9/9/9/9/9/7r1/4K4 b - - 0 1' 6 "mate 1" a10a1
mate_check "mate in 1 under janggi too" janggi '4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - 0 1' 6 "mate 1" a1a10
mate_check "mate in 2: a1a9 or i1i9, score mate 2" janggicasual '4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1' 10 "mate 2" a1a9 i1i9
mate_check "mate in 3: a1a10 or i1i10, score mate 3" janggicasual '4k4/9/4a4/9/9/9/9/9/9/R2K4R w - - 0 1' 10 "mate 3" a1a10 i1i10
# Being mated: after Cho's a1a9 (mate in 2), Han is mated in 1 whatever it plays.
session "setoption name UCI_Variant value janggicasual
position fen 4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1 moves a1a9
go depth 6
@wait 1 ^bestmove
quit"
session_ok "being mated" && expect_value "being mated in 1: score mate -1" "mate -1" "$(last_score)"

# --- Commands while a search runs ----------------------------------------------------------------------

session "go infinite
@wait 1 ^info depth
isready
@wait 1 ^readyok
@sleep 0.2
stop
@wait 1 ^bestmove
quit"
expect_lines "go infinite: isready answered at once during the search; stop ends it with a bestmove" \
  "^info depth" "^readyok$" "^bestmove [a-i]"
grep -aq '^bestmove' <(sed -n '1,/^readyok$/p' "$tmp/body") && fail "go infinite: no bestmove before stop" "$(cat "$tmp/body")"

session "go infinite
@wait 1 ^info depth
quit"
expect_lines "quit during go infinite: the search stops, bestmove is printed, exit 0" "^info depth" "^bestmove [a-i]"

session "position startpos moves b1c3
go infinite
@wait 1 ^info depth"
expect_lines "end of input during go infinite: the search stops, bestmove is printed, exit 0" "^info depth" "^bestmove [a-i]"

session "position startpos moves b1c3
go depth 60
@wait 1 ^info depth"
expect_lines "end of input during go depth 60: stops at once with a bestmove, exit 0" "^info depth" "^bestmove [a-i]"

session "go ponder movetime 200
@wait 1 ^info depth
isready
@wait 1 ^readyok
ponderhit
@wait 1 ^bestmove
quit"
expect_lines "go ponder: no bestmove before ponderhit, then the clock runs and bestmove comes" "^info depth" "^readyok$" "^bestmove [a-i]"
grep -aq '^bestmove' <(sed -n '1,/^readyok$/p' "$tmp/body") && fail "go ponder: no bestmove before ponderhit" "$(cat "$tmp/body")"

session "go ponder depth 1
@wait 1 ^info depth 1 
isready
@wait 1 ^readyok
stop
@wait 1 ^bestmove
quit"
expect_lines "go ponder depth 1: the finished search holds its bestmove until stop" "^info depth 1 " "^readyok$" "^bestmove [a-i]"

session "go infinite
@wait 1 ^info depth
setoption name Hash value 32
setoption name Threads value 2
setoption name Clear Hash
ucinewgame
go perft 1
bench 1
setoption name MultiPV value 2
setoption name UCI_Variant value janggicasual
position startpos moves h1g3
d
stop
@wait 1 ^bestmove
go depth 1
@wait 2 ^bestmove
quit"
expect_lines "during a search: Hash, Threads, Clear Hash, ucinewgame, go perft, bench are refused; position, d, setoption MultiPV/UCI_Variant work" \
  "^info string error: setting Hash needs the engine idle but a search is running; send stop first$" \
  "^info string error: setting Threads needs the engine idle but a search is running; send stop first$" \
  "^info string error: setting Clear Hash needs the engine idle but a search is running; send stop first$" \
  "^info string error: ucinewgame needs the engine idle but a search is running; send stop first$" \
  "^info string error: go perft needs the engine idle but a search is running; send stop first$" \
  "^info string error: bench needs the engine idle but a search is running; send stop first$" \
  "^info string variant janggicasual " \
  "^Fen: rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4K4/RNBA1AB1R b - - 1 1$" \
  "^bestmove " "^info depth 1 seldepth [0-9]+ multipv 1 " "^info depth 1 seldepth [0-9]+ multipv 2 " "^bestmove [a-i]"

# stop, position, go back to back (a GUI does not wait for the bestmove of a stopped search).
session "go infinite
@sleep 0.2
stop
position startpos moves h1g3
go depth 2
@wait 2 ^bestmove
quit"
expect_lines "stop, position, go sent at once: the stopped search ends first, then the new one runs" \
  "^bestmove [a-i]" "^info depth 1 " "^info depth 2 " "^bestmove [a-i]"

# go while a go runs: the running search is stopped and answers first (one bestmove per go, in order).
session "go infinite
@wait 1 ^info depth 2
position startpos moves h1g3
go depth 2
@wait 2 ^bestmove
quit"
expect_lines "go while go infinite runs: a note, the first search's bestmove (Cho's), then the new search (Han's)" \
  "^info string go while a search runs: that search is stopped and answers first$" \
  "^bestmove [a-i][1-4][a-i]" "^info depth 1 " "^info depth 2 " "^bestmove [a-i](7|8|9|10)[a-i]"

session "stop
isready
quit"
expect_body "stop with no search: nothing to say" "readyok"

# A Threads change after a search: one bestmove per go, nothing from the restarted threads.
session "go depth 2
@wait 1 ^bestmove
setoption name Threads value 3
isready
@wait 1 ^readyok
@sleep 0.3
setoption name Threads value 1
go depth 1
@wait 2 ^bestmove
@sleep 0.3
quit"
session_ok "Threads change after a search" &&
  expect_value "Threads changed after searches: exactly one bestmove per go" 2 "$(grep -c '^bestmove' "$tmp/body")"

# --- searchmoves ---------------------------------------------------------------------------------------

session "go depth 3 searchmoves a1a2 i1i2
@wait 1 ^bestmove
go depth 2 searchmoves a1a2 e2e5 zz
@wait 2 ^bestmove
go depth 1 searchmoves e2e5
@wait 3 ^bestmove
quit"
if session_ok "searchmoves"; then
  moves=$(grep -a '^bestmove' "$tmp/body" | cut -d' ' -f2 | tr '\n' ' ')
  case $moves in
    "a1a2 a1a2 "[a-i]*) ok=yes ;;
    "i1i2 a1a2 "[a-i]*) ok=yes ;;
    *) ok=no ;;
  esac
  errors=$(grep -a '^info string' "$tmp/body" | tr '\n' '|')
  if [ $ok = yes ] && [ "$errors" = "info string error: go searchmoves: illegal move 'e2e5' ignored|info string error: go searchmoves: unparsable move 'zz' ignored|info string error: go searchmoves: illegal move 'e2e5' ignored|info string error: go: no legal move among searchmoves; searching all moves|" ]; then
    pass "go searchmoves: the search keeps to the moves; bad ones are named and dropped; none legal: all moves"
  else
    fail "go searchmoves: the search keeps to the moves; bad ones are named and dropped; none legal: all moves" \
      "bestmoves: $moves" "errors: $errors"
  fi
fi

# --- bench ---------------------------------------------------------------------------------------------

"$bin" bench 3 >"$tmp/out" 2>"$tmp/err"; rc=$?
n1=$(sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p' "$tmp/out"); n2=$(sed -n 's/^\([0-9]*\) nodes [0-9]* nps$/\1/p' "$tmp/out")
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ -n "$n1" ] && [ "$n1" = "$n2" ] && [ "$n1" -gt 0 ] \
   && tail -n 2 "$tmp/out" | head -n 1 | grep -qE '^Nodes searched: [0-9]+$' \
   && tail -n 1 "$tmp/out" | grep -qE '^Nodes/second: [0-9]+$'; then
  pass "janggun bench 3: '<N> nodes <M> nps' line, then 'Nodes searched: N' and 'Nodes/second: M' last"
else
  fail "janggun bench 3: '<N> nodes <M> nps' line, then 'Nodes searched: N' and 'Nodes/second: M' last" "exit status $rc"
  show "$tmp/out"; show "$tmp/err"
fi
"$bin" bench 3 >"$tmp/out2" 2>&1
expect_value "janggun bench 3 is deterministic (same node count twice)" "$n1" "$(sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p' "$tmp/out2")"
session "bench 3
quit"
expect_lines "bench in the protocol loop: the same node count" "^$n1 nodes [0-9]+ nps$" "^Nodes searched: $n1$" "^Nodes/second: [0-9]+$"
for args in "0" "x" "3 4"; do
  # shellcheck disable=SC2086
  "$bin" bench $args >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q '^janggun: error: ' "$tmp/err"; then
    pass "janggun bench $args: error on stderr, exit status 2"
  else
    fail "janggun bench $args: error on stderr, exit status 2" "exit status $rc"; show "$tmp/out"; show "$tmp/err"
  fi
done

# --- eval ----------------------------------------------------------------------------------------------

# The start position's breakdown exactly: both sides alike, so every total but the deom's is 0.
weights=$(cd "$(dirname "$0")/.." && ls nets/janggun-*.weights | xargs -n1 basename)
session "eval
isready"
# The network's line (its numbers depend on the shipped net) is checked on its own, then left out.
if grep -qE "^Network \($NET_NAME, in use\): -?[0-9]+\.[0-9]{2} raw, -?[0-9]+\.[0-9]{2} with counting \(Cho's point of view\); -?[0-9]+ cp for the side to move$" "$tmp/body"; then
  pass "eval: the network's output beside the classical terms"
else
  fail "eval: the network's output beside the classical terms"; show "$tmp/body"
fi
sed -i '/^Network /d' "$tmp/body"
expect_body "eval: the start position's breakdown exactly, then keeps serving" "Janggun evaluation (weights $weights, rules janggi, Cho to move)

          Term |     Cho     Han |   Total
---------------+-----------------+--------
      Material |   63.04   63.04 |    0.00
  Piece-square |   -0.77   -0.77 |    0.00
      Mobility |    0.45    0.45 |    0.00
 Palace safety |    0.00    0.00 |    0.00
       Threats |    0.00    0.00 |    0.00
      Counting |      --    0.15 |   -0.15
         Tempo |     Cho to move |    0.70
---------------+-----------------+--------
         Total |                 |    0.55

Counting: Han's deom 0.15; a count now: Han wins; move limit 0 of 100 plies, blend 0%; pass or bikjang blend 0%
Final evaluation: 0.55 (Cho's point of view); 55 cp for the side to move (Cho)
Material count: Cho 72, Han 72 + 1.5 deom = 73.5 (Han ahead)
readyok"
# After a capture (a chariot takes the last soldier): Cho ahead in material and in the final evaluation.
session "position fen 3k5/9/9/9/9/9/p8/R8/4K4/9 w - - 0 1 moves a3a4
eval
isready"
expect_lines "eval: after Cho takes the last Han soldier, Cho's material and a positive final evaluation" \
  "^      Material \|  +[0-9.]+  +0\.00 \|  +[0-9.]+$" "^Final evaluation: [0-9]" "^Material count: Cho 13, Han 0 \+ 1\.5 deom = 1\.5 \(Cho ahead\)$" "^readyok$"

echo "cli_uci: $fails failed"
[ "$fails" -eq 0 ]

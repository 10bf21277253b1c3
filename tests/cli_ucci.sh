#!/usr/bin/env bash
# Protocol transcript tests for `janggun` under UCCI (fsf-reference.md 5.1, 5.3): the `ucci` handshake and
# option block, UCCI-style setoption, ranks 0-9 in every move and square, banmoves, go with time/opptime/
# increment, scores without `cp`, the terminal root, the strength options, errors, and `quit` answered with `bye`.
# usage: bash tests/cli_ucci.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_ucci.sh "$@"
need_executable "$bin"
# shellcheck source=tests/protocol_lib.bash
. "$(dirname "$0")/protocol_lib.bash"

START_FEN='rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1'
variant_line() {
  echo "info string variant $1 files 9 ranks 10 pocket 0 template janggi startpos $START_FEN"
}
# The start position's divided perft in UCCI notation: janggun's UCI list with every rank one lower.
"$bin" perft --depth 1 --divide | grep -E '^[a-i][0-9]+[a-i][0-9]+: ' | perl -pe 's/([a-i])(10|[1-9])/$1.($2-1)/ge' >"$tmp/perft1_ucci"
# The legal moves after b0c2 b9c7, in UCCI notation.
"$bin" perft --depth 1 --divide --moves "b1c3 b10c8" | grep -E '^[a-i][0-9]+[a-i][0-9]+: ' \
  | perl -pe 's/([a-i])(10|[1-9])/$1.($2-1)/ge' >"$tmp/perft2_ucci"

session ""
version=$(head -n 1 "$tmp/out" | sed -n 's/^Janggun \([^ ]*\) by the Janggun developers$/\1/p')
NET_NAME=$(cd "$(dirname "$0")/.." && ls nets/janggun-*.nnue | sed "s|^nets/||")
UCCI_BLOCK="id name Janggun ${version:-?}
id author the Janggun developers

option Threads type spin default 1 min 1 max 256
option hashsize type spin default 16 min 1 max 65536
option Clear_Hash type button
option Ponder type check default false
option MultiPV type spin default 1 min 1 max 64
option Skill_Level type spin default 20 min -20 max 20
option Move_Overhead type spin default 30 min 0 max 5000
option UCI_Variant type combo default janggi var janggi var janggicasual var janggimodern var janggitraditional
option UCI_AnalyseMode type check default false
option UCI_LimitStrength type check default false
option UCI_Elo type spin default 1350 min 500 max 2850
option UCI_ShowWDL type check default false
option usemillisec type check default true
option Use_NNUE type check default true
option EvalFile type string default $NET_NAME
option Skill_Seed type spin default 0 min 0 max 2147483647
ucciok"

session "ucci
setoption UCI_Variant janggi
isready
quit"
expect_body "ucci: id lines, UCCI option lines (no 'name', underscores, hashsize), ucciok; setoption UCI_Variant janggi; quit: bye" \
"$UCCI_BLOCK
$(variant_line janggi)
readyok
bye"

# UCCI option names are one word: 'setoption move overhead 50' names an option 'move'.
session "ucci
setoption hashsize 32
setoption HASHSIZE 8
setoption Move_Overhead 100
setoption move overhead 50
setoption Clear_Hash
setoption name MultiPV value 2
setoption UCI_ShowWDL false
setoption nosuch 1
setoption hashsize 0
setoption hashsize
setoption Ponder maybe
setoption UCI_Variant xiangqi
setoption
isready
quit"
expect_body "UCCI setoption: '<name> <value>' (any case, UCI names too, or the UCI form); each bad one gets one error" \
"$UCCI_BLOCK
info string error: unknown option 'move'
info string error: unknown option 'nosuch'
info string error: option Hash must be a number from 1 to 65536, not '0'
info string error: option Hash needs a value
info string error: option Ponder must be true or false, not 'maybe'
info string error: option UCI_Variant must be one of janggi, janggicasual, janggimodern, janggitraditional (exactly), not 'xiangqi'
info string error: setoption needs an option name
readyok
bye"

session "ucci
position startpos moves b0c2 b9c7 e3e4
d
position fen 3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 0 1
d
quit"
sed -i 's/^Key: [0-9A-F]\{16\}$/Key: <16 hex digits>/' "$tmp/body"
grep -av '^id \|^option \|^ucciok\|^$' "$tmp/body" | grep -a '|[0-9]\|^Fen\|^Checkers' >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"
expect_body "UCCI d: ranks labelled 9..0, moves read with ranks 0-9, Checkers in UCCI squares" \
" | r |   | b | a |   | a | b | n | r |9 *
 |   |   |   |   | k |   |   |   |   |8
 |   | c | n |   |   |   |   | c |   |7
 | p |   | p |   | p |   | p |   | p |6
 |   |   |   |   |   |   |   |   |   |5
 |   |   |   |   | P |   |   |   |   |4
 | P |   | P |   |   |   | P |   | P |3
 |   | C | N |   |   |   |   | C |   |2
 |   |   |   |   | K |   |   |   |   |1
 | R |   | B | A |   | A | B | N | R |0  
Fen: r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/4P4/P1P3P1P/1CN4C1/4K4/R1BA1ABNR b - - 3 2
Checkers: 
 |   |   |   | k |   |   |   |   |   |9  
 |   |   |   |   |   |   |   |   |   |8
 |   |   |   |   |   |   |   |   |   |7
 |   |   |   |   |   |   |   |   |   |6
 |   |   |   |   |   |   |   |   |   |5
 |   |   |   |   |   |   |   |   |   |4
 |   |   |   |   |   |   |   |   |   |3
 |   |   |   |   |   |   |   |   |   |2
 |   |   |   |   | K |   |   |   |   |1
 |   |   |   |   | r |   |   |   |   |0 *
Fen: 3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 0 1
Checkers: e0 "

# Strength options under UCCI names: errors for values out of range; a level plays a legal move in UCCI
# notation, reports depth 1 only at UCI_Elo 500 (level -20), and 'Skill_Level 20' with the limit off is
# the plain search again.
session "ucci
setoption Skill_Level 21
setoption skill_level -21
setoption UCI_Elo 499
setoption UCI_Elo 2851
setoption UCI_LimitStrength 1
setoption Skill_Seed -1
setoption Skill_Level -20
setoption Skill_Seed 9
position startpos moves b0c2 b9c7
go depth 8
@wait 1 ^bestmove
setoption UCI_LimitStrength true
setoption UCI_Elo 500
go depth 8
@wait 2 ^bestmove
setoption UCI_LimitStrength false
setoption Skill_Level 20
go depth 3
@wait 3 ^bestmove
quit"
if session_ok "UCCI strength options"; then
  errors=$(grep -a '^info string' "$tmp/body" | tr '\n' '|')
  depths=$(grep -a '^info depth' "$tmp/body" | cut -d' ' -f3 | tr '\n' ' ')
  moves=$(grep -a '^bestmove' "$tmp/body" | cut -d' ' -f2 | tr '\n' ' ')
  legal=yes
  for m in $(echo "$moves" | cut -d' ' -f1-2); do grep -q "^$m: " "$tmp/perft2_ucci" || legal="no ($m)"; done
  want_errors="info string error: option Skill Level must be a number from -20 to 20, not '21'|info string error: option Skill Level must be a number from -20 to 20, not '-21'|info string error: option UCI_Elo must be a number from 500 to 2850, not '499'|info string error: option UCI_Elo must be a number from 500 to 2850, not '2851'|info string error: option UCI_LimitStrength must be true or false, not '1'|info string error: option Skill Seed must be a number from 0 to 2147483647, not '-1'|"
  if [ "$errors" = "$want_errors" ] && [ "$depths" = "1 1 1 2 3 " ] && [ "$legal" = yes ]; then
    pass "UCCI Skill_Level, UCI_LimitStrength, UCI_Elo, Skill_Seed: range errors; level -20 and UCI_Elo 500 at depth 1, legal UCCI moves; full strength back"
  else
    fail "UCCI Skill_Level, UCI_LimitStrength, UCI_Elo, Skill_Seed: range errors; level -20 and UCI_Elo 500 at depth 1, legal UCCI moves; full strength back" \
      "errors: $errors" "depths: $depths (expected 1 1 1 2 3)" "bestmoves: $moves" "legal: $legal"
  fi
fi

# --- go perft, search output, bestmove in UCCI notation --------------------------------------------------

session "ucci
go perft 1
quit"
grep -av '^id \|^option \|^ucciok\|^$\|^bye$\|^Nodes searched' "$tmp/body" >"$tmp/got"
if session_ok "UCCI go perft" && cmp -s "$tmp/got" "$tmp/perft1_ucci"; then
  pass "UCCI go perft 1: the start position's moves with ranks 0-9 (a0a1 ... e1e1)"
else
  fail "UCCI go perft 1: the start position's moves with ranks 0-9 (a0a1 ... e1e1)"; diff "$tmp/perft1_ucci" "$tmp/got" | head
fi

INFO_RE='^info depth [0-9]+ seldepth [0-9]+ multipv 1 score (-?[0-9]+|mate -?[0-9]+)( lowerbound| upperbound)? nodes [0-9]+ nps [0-9]+ hashfull [0-9]+ time [0-9]+ pv( [a-i][0-9][a-i][0-9])+$'
session "ucci
position startpos moves b0c2 b9c7
go depth 4
@wait 1 ^bestmove
quit"
if session_ok "UCCI info lines"; then
  bad=$(grep -a '^info' "$tmp/body" | grep -avE -- "$INFO_RE" | head -3)
  best=$(last_bestmove)
  if [ -z "$bad" ] && [ "$(grep -ac '^info depth' "$tmp/body")" -ge 4 ] \
     && grep -aqE '^bestmove [a-i][0-9][a-i][0-9]( ponder [a-i][0-9][a-i][0-9])?$' "$tmp/body" && [ "$(tail -n 1 "$tmp/body")" = bye ]; then
    pass "UCCI info lines: 'score N' without cp, moves with ranks 0-9; bestmove in UCCI notation; quit: bye"
  else
    fail "UCCI info lines: 'score N' without cp, moves with ranks 0-9; bestmove in UCCI notation; quit: bye" \
      "lines not in the expected form: $bad"; show "$tmp/body"
  fi
fi

# --- banmoves ------------------------------------------------------------------------------------------

search_best() { # SETUP: the bestmove of uccinewgame, SETUP, go depth 3
  session "ucci
uccinewgame
$1
go depth 3
@wait 1 ^bestmove
quit"
  last_bestmove
}
free_best=$(search_best "position startpos")
banned_best=$(search_best "position startpos
banmoves $free_best")
if [ -n "$free_best" ] && [ -n "$banned_best" ] && [ "$free_best" != "$banned_best" ] && grep -qx "$banned_best: 1" "$tmp/perft1_ucci"; then
  pass "banmoves: the banned bestmove ($free_best) is not chosen again (got $banned_best)"
else
  fail "banmoves: the banned bestmove is not chosen again" "without banmoves: $free_best" "with banmoves $free_best: $banned_best"
fi
all_but_one=$(cut -d: -f1 "$tmp/perft1_ucci" | grep -v '^h0i2$' | tr '\n' ' ')
only=$(search_best "position startpos
banmoves $all_but_one")
expect_value "banmoves of every move but h0i2: bestmove h0i2" "h0i2" "$only"
again=$(search_best "position startpos
banmoves $all_but_one
position startpos")
expect_value "banmoves are cleared by position: the free bestmove again" "$free_best" "$again"
session "ucci
banmoves b1c3 zz a0a1
banmoves $(cut -d: -f1 "$tmp/perft1_ucci" | tr '\n' ' ')
go depth 1
@wait 1 ^bestmove
quit"
expect_lines "banmoves: bad moves named; every move banned: said, all moves searched" \
  "^info string error: banmoves: illegal move 'b1c3' ignored$" "^info string error: banmoves: unparsable move 'zz' ignored$" \
  "^info string error: go: every move is banned; banmoves ignored$" "^bestmove [a-i][0-9][a-i][0-9]"

# --- Passes and terminal roots ----------------------------------------------------------------------------

session "ucci
position startpos moves e1e1
go depth 4
@wait 1 ^bestmove
quit"
if session_ok "UCCI pass"; then
  expect_value "UCCI: after the pass e1e1, bestmove e8e8 (double pass wins the count for Han)" e8e8 "$(last_bestmove)"
  expect_value "UCCI: ... with score mate 1" "mate 1" "$(last_score)"
fi

session "ucci
position startpos moves e1e1 e8e8
go depth 3
@wait 1 ^bestmove
setoption UCI_Variant janggicasual
position startpos moves e1e1 e8e8
go depth 3
@wait 2 ^bestmove
quit"
grep -av '^id \|^option \|^ucciok\|^$' "$tmp/body" >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"
expect_body "UCCI terminal root: 'info depth 0 score mate 0' / 'bestmove (none)'; a drawn end: 'score 0'" \
"info depth 0 score mate 0
bestmove (none)
$(variant_line janggicasual)
info depth 0 score 0
bestmove (none)
bye"

session "ucci
setoption UCI_Variant janggicasual
position fen 4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - 0 1
go depth 6
@wait 1 ^bestmove
quit"
if session_ok "UCCI mate"; then
  expect_value "UCCI mate in 1: bestmove a0a9 (a1a10 in UCI)" a0a9 "$(last_bestmove)"
  expect_value "UCCI mate in 1: score mate 1" "mate 1" "$(last_score)"
fi

# --- Clocks ----------------------------------------------------------------------------------------------

# The engine's own account of its time (the last info line's `time`), not the wall clock of the
# session, which a loaded machine or a sanitizer build stretches.
last_time() { grep -a '^info depth' "$tmp/body" | tail -n 1 | sed -n 's/.* time \([0-9]*\) .*/\1/p'; }
session "ucci
go time 1000 opptime 1000 increment 0 oppincrement 0
@wait 1 ^bestmove
quit"
t=$(last_time)
if session_ok "UCCI go time" && [ -n "$t" ] && [ "$t" -lt 500 ]; then
  pass "UCCI go time 1000 opptime 1000 increment 0 (milliseconds): bestmove well within the clock (searched $t ms)"
else
  fail "UCCI go time 1000 opptime 1000 increment 0 (milliseconds): bestmove well within the clock" "searched '${t}' ms"
fi
# usemillisec false: `go time 20` is 20 seconds, so the engine searches for a good part of a second
# (20 milliseconds would end the search in a few). A search this long also shows the unit was read.
session "ucci
setoption usemillisec false
go time 20 opptime 20 increment 0
@wait 1 ^bestmove
quit"
t=$(last_time)
if session_ok "UCCI usemillisec false" && [ -n "$t" ] && [ "$t" -ge 200 ] && [ "$t" -lt 20000 ]; then
  pass "UCCI usemillisec false: go time 20 means 20 seconds (searched $t ms)"
else
  fail "UCCI usemillisec false: go time 20 means 20 seconds" "searched '${t}' ms"; show "$tmp/body"
fi

# --- Errors, quit and the end of input ----------------------------------------------------------------------

session "ucci
probe
position startpos moves b1c3
position startpos moves a9a8 a10a9
position startpos moves b0c2 e5e6
go depth x
isready
quit"
grep -av '^id \|^option \|^ucciok\|^$' "$tmp/body" >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"
expect_body "UCCI errors: unknown command, moves in UCI notation refused and named with their ply" \
"info string error: unknown command 'probe'
info string error: illegal move 'b1c3' at ply 1; the moves from there on are ignored
info string error: illegal move 'a9a8' at ply 1; the moves from there on are ignored
info string error: illegal move 'e5e6' at ply 2; the moves from there on are ignored
info string error: go: 'depth' needs a number from 1 to 127, not 'x'
readyok
bye"

session "ucci
position startpos moves a10a9"
grep -av '^id \|^option \|^ucciok\|^$' "$tmp/body" >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"
expect_body "UCCI: a rank written 10 is unparsable; the end of input (no quit) exits without bye" \
"info string error: unparsable move 'a10a9' at ply 1; the moves from there on are ignored"

session "ucci
go infinite
@wait 1 ^info depth
quit"
if session_ok "UCCI quit during a search"; then
  tail -n 2 "$tmp/body" >"$tmp/last2"
  if grep -qE '^bestmove [a-i][0-9][a-i][0-9]' <(head -n 1 "$tmp/last2") && [ "$(tail -n 1 "$tmp/last2")" = bye ]; then
    pass "UCCI quit during go infinite: the search stops, bestmove, then bye, exit 0"
  else
    fail "UCCI quit during go infinite: the search stops, bestmove, then bye, exit 0"; show "$tmp/last2"
  fi
fi

session "ucci
uci
quit"
if session_ok "uci after ucci" && grep -q '^uciok$' "$tmp/body" && [ "$(tail -n 1 "$tmp/body")" = "uciok" ]; then
  pass "uci after ucci switches back to UCI (no bye on quit)"
else
  fail "uci after ucci switches back to UCI (no bye on quit)"; show "$tmp/body"
fi

echo "cli_ucci: $fails failed"
[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# Protocol transcript tests for `janggun` under XBoard/CECP (fsf-reference.md 5.6, 3.8): the handshake
# and features, `setup` in both forms, moves with ranks 0-9 and both pass notations, setboard (a pass
# sent as setboard keeps the game), undo/remove, every result claim in every rule set (checked
# against Debian's Fairy-Stockfish 11.1 for the ends it claims), time controls, analysis, pondering,
# options and errors.
# usage: bash tests/cli_xboard.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_xboard.sh "$@"
need_executable "$bin"
# shellcheck source=tests/protocol_lib.bash
. "$(dirname "$0")/protocol_lib.bash"
FSF=/usr/games/fairy-stockfish

session ""
version=$(head -n 1 "$tmp/out" | sed -n 's/^Janggun \([^ ]*\) by the Janggun developers$/\1/p')

XIANGQI_SETUP='setup (.N.R.AB.P..C.........K.n.r.ab.p..c.........k) 9x10+0_xiangqi rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1
piece R& RB
piece C& pRpB
piece P& fsWfF
piece N& nN
piece B& mafsmafW
piece A& WF
piece K& WF'
JANGGI_SETUP='setup (PH.R.AE..K.C.ph.r.ae..k.c.) 9x10+0_janggi rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1'

# The body without the setup lines and the board drawing of `d` (its Fen line stays).
strip_board() { grep -av '^setup \|^piece \|^ +---\|^ |\|^   a   b\|^Sfen: \|^Key: \|^Checkers: \|^Chased: \|^$' "$tmp/body" >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"; }

# --- Handshake, features, setup, ping -----------------------------------------------------------------

net=$(cd "$(dirname "$0")/.." && ls nets/janggun-*.nnue | xargs -n1 basename)
session "xboard
protover 2
accepted setboard
rejected sigterm
variant janggi
option XBoard Setup=janggi
variant janggimodern
ping 17
quit"
expect_body "protover 2: the feature line, one feature option per option (CECP syntax), done=1; variant: FSF 11.1's xiangqi-parent setup with piece commands, or the janggi form after option XBoard Setup=janggi; ping/pong" \
"feature setboard=1 usermove=1 time=1 memory=1 smp=1 ping=1 colors=0 sigint=0 sigterm=0 myname=\"Janggun ${version:-?}\" variants=\"janggi,janggicasual,janggimodern,janggitraditional\"
feature option=\"Clear Hash -button\"
feature option=\"Ponder -check 0\"
feature option=\"MultiPV -spin 1 1 64\"
feature option=\"Skill Level -spin 20 -20 20\"
feature option=\"Move Overhead -spin 30 0 5000\"
feature option=\"UCI_AnalyseMode -check 0\"
feature option=\"UCI_LimitStrength -check 0\"
feature option=\"UCI_Elo -spin 1350 500 2850\"
feature option=\"UCI_ShowWDL -check 0\"
feature option=\"usemillisec -check 1\"
feature option=\"Use NNUE -check 1\"
feature option=\"EvalFile -string $net\"
feature option=\"Skill Seed -spin 0 0 2147483647\"
feature option=\"XBoard Setup -combo *xiangqi /// janggi\"
feature done=1
$XIANGQI_SETUP
$JANGGI_SETUP
pong 17"

# --- Moves, passes, bad input --------------------------------------------------------------------------

session "xboard
new
variant janggi
force
usermove b0c2
b9c7
usermove @@@@
e8e8
d
usermove e1e1
@@@@
usermove b2b9
usermove e2e5
usermove zz
usermove
usermove b2e2 b7e7
foo
foo bar
d
quit"
strip_board
expect_body "moves with ranks 0-9 (usermove and bare), a pass as @@@@ and as the general's point twice (e1e1, e8e8); a double pass ends the game (no more moves); Illegal move / Error lines leave the position as it was" \
"Fen: r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR w - - 4 3
Illegal move: e1e1
Illegal move: @@@@
Illegal move: b2b9
Illegal move: e2e5
Illegal move: zz
Error (usermove needs one move): usermove
Error (usermove needs one move): usermove b2e2 b7e7
Error (unknown command): foo
Error (unknown command): foo bar
Fen: r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR w - - 4 3"

session "xboard
new
force
setboard 4k4/9/9/9/9/9/9/9/4K4/9 w 5 30
d
setboard rnba1abnr/4k4 w
setboard 4k4/9/9/9/9/9/9/9/4K4/9 x 0 1
setboard
setboard 4k4/9/9/9/9/9/9/9/4K4/9 b 0 1
undo
undo
d
setboard 3k5/9/9/9/9/9/9/9/4K4/9 b - - 0 1
undo
b2b3
remove
quit"
strip_board
expect_body "setboard: XBoard's FEN without the castling and en-passant fields; bad FENs refused (position unchanged); a setboard that is a pass keeps the game (undo takes the pass back), any other starts a new one" \
"Fen: 4k4/9/9/9/9/9/9/9/4K4/9 w - - 5 30
Error (bad FEN: 2 ranks, expected 10; position unchanged): setboard rnba1abnr/4k4 w
Error (bad FEN: side to move must be 'w' or 'b', not 'x'; position unchanged): setboard 4k4/9/9/9/9/9/9/9/4K4/9 x 0 1
Error (setboard needs a FEN): setboard
Error (no move to take back): undo
Fen: 4k4/9/9/9/9/9/9/9/4K4/9 w - - 5 30
Error (no move to take back): undo
Illegal move: b2b3
Error (fewer than two moves to take back): remove"

session "xboard
new
force
b0c2
b9c7
h0g2
remove
d
undo
d
remove
quit"
strip_board
expect_body "undo takes back one move, remove two" \
"Fen: rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR b - - 1 1
Fen: rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1
Error (fewer than two moves to take back): remove"

# --- Result claims: every end the referee knows, in every rule set -------------------------------------

START='rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1'
MATE_FEN='3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1'
CHECK_FEN='3k5/9/R8/9/4P4/9/9/9/4K4/9 w - - 0 1'
LIMIT_FEN='5k3/9/9/9/9/9/9/9/4K4/9 w - - 99 60'
LIMIT_FEN200='5k3/9/9/9/9/9/9/9/4K4/9 w - - 199 60'
SHUFFLE8='b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9'
CHECKS='a7a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9'
HAN_COUNT='Han wins by counting: Cho 72, Han 73.5 with the deom'
LIMIT_COUNT='Han wins by counting: Cho 0, Han 1.5 with the deom'
KAKAO='0-1 {Cho moved the same piece back and forth (Kakao rule); Han wins}'

# claim_case VARIANT FEN MOVES EXPECTED: the game set with setboard and played in force mode, then
# `go`: EXPECTED is the claim, or "none" (the engine moves instead: the first line is `move ...`; a
# claim may follow when that move ends the game).
claim_case() {
  local variant=$1 fen=$2 moves=$3 want=$4 script
  script="xboard
new
variant $variant
force
setboard $fen
$(tr ' ' '\n' <<<"$moves")
sd 3
go
@wait 1 ^(move |1-0|0-1|1/2-1/2)
quit"
  session "$script"
  grep -aE '^(move |1-0|0-1|1/2-1/2|Illegal|Error)' "$tmp/body" >"$tmp/got"
  if [ "$want" = none ]; then
    if session_ok "$variant $moves" && head -n 1 "$tmp/got" | grep -qa '^move '; then
      pass "$variant: no claim after ${moves:-the FEN} ($fen): the engine moves"
    else
      fail "$variant: no claim after ${moves:-the FEN} ($fen)" "expected a 'move' line first, got:"; show "$tmp/got"
    fi
  else
    printf '%s\n' "$want" >"$tmp/want"
    if session_ok "$variant $moves" && cmp -s "$tmp/got" "$tmp/want"; then
      pass "$variant: $want after ${moves:-the FEN}"
    else
      fail "$variant: claim after ${moves:-the FEN} ($fen)" "expected: $want" "actual:"; show "$tmp/got"
    fi
  fi
}

for v in janggi janggitraditional janggimodern janggicasual; do
  counts=no; [ $v = janggi ] || [ $v = janggimodern ] && counts=yes
  bikjang=no; [ $v = janggi ] || [ $v = janggitraditional ] && bikjang=yes
  claim_case $v "$START" "@@@@ @@@@" \
    "$([ $counts = yes ] && echo "0-1 {both sides passed; $HAN_COUNT}" || echo "1/2-1/2 {both sides passed; draw}")"
  claim_case $v "$START" "e1e1 e8e8" \
    "$([ $counts = yes ] && echo "0-1 {both sides passed; $HAN_COUNT}" || echo "1/2-1/2 {both sides passed; draw}")"
  case $v in
    janggi) want="0-1 {the generals faced each other for two plies; $HAN_COUNT}" ;;
    janggitraditional) want="1/2-1/2 {the generals faced each other for two plies; draw}" ;;
    *) want=none ;;
  esac
  claim_case $v "$START" "e3d3 e6d6 @@@@" "$want"
  claim_case $v "$MATE_FEN" "b0b9" "1-0 {Han is checkmated; Cho wins}"
  if [ $v = janggimodern ]; then
    claim_case $v "$START" "$SHUFFLE8" none
    claim_case $v "$START" "$SHUFFLE8 b0c2" "$KAKAO"
    claim_case $v "$CHECK_FEN" "$CHECKS" "$KAKAO"
    claim_case $v "$LIMIT_FEN" "e1e0" none
    claim_case $v "$LIMIT_FEN200" "e1e0" "0-1 {200 plies without a capture; $LIMIT_COUNT}"
  else
    claim_case $v "$START" "$SHUFFLE8" \
      "$([ $counts = yes ] && echo "0-1 {the position occurred for the third time; $HAN_COUNT}" || echo "1/2-1/2 {the position occurred for the third time; draw}")"
    claim_case $v "$CHECK_FEN" "$CHECKS" "0-1 {Cho gave perpetual check; Han wins}"
    claim_case $v "$LIMIT_FEN" "e1e0" \
      "$([ $counts = yes ] && echo "0-1 {100 plies without a capture; $LIMIT_COUNT}" || echo "1/2-1/2 {100 plies without a capture; draw}")"
  fi
done
claim_case janggi "4k4/9/9/9/9/9/P8/9/4K4/9 w - - 0 1" "@@@@" \
  "1-0 {the generals faced each other for two plies; Cho wins by counting: Cho 2, Han 1.5 with the deom}"
claim_case janggi "3k5/9/9/9/9/9/P8/9/4K4/9 b - - 0 1" "@@@@ @@@@" \
  "1-0 {both sides passed; Cho wins by counting: Cho 2, Han 1.5 with the deom}"

# Strength levels apply to the engine's own moves: level -20 thinks one ply (whatever sd allows); a value
# out of range is refused with an Error line and changes nothing.
session "xboard
protover 2
new
variant janggi
option Skill Level=21
option Skill Level=-20
post
sd 10
go
@wait 1 ^move
quit"
if session_ok "xboard: Skill Level"; then
  depths=$(grep -aE '^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ ' "$tmp/body" | cut -d' ' -f1 | tr '\n' ' ')
  errors=$(grep -ac '^Error' "$tmp/body")
  if [ "$depths" = "1 " ] && [ "$errors" = 1 ] && grep -qa '^move ' "$tmp/body"; then
    pass "option Skill Level=-20: one thinking line at depth 1, then the move; Skill Level=21 refused with an Error line"
  else
    fail "option Skill Level=-20: one thinking line at depth 1, then the move; Skill Level=21 refused with an Error line" \
      "depths: $depths" "errors: $errors"; show "$tmp/body" | tail -5
  fi
fi

# The claim right after the engine's own move: the mate it plays, and Han's pass after Cho's pass.
session "xboard
new
variant janggitraditional
force
setboard $MATE_FEN
sd 3
go
@wait 1 ^1-0
quit"
expect_lines "after its own mating move the engine claims: move b0b9, then 1-0 {Han is checkmated; Cho wins}" \
  '^move b0b9$' '^1-0 \{Han is checkmated; Cho wins\}$'
for v in janggi janggimodern; do
  session "xboard
new
variant $v
sd 4
nopost
usermove @@@@
@wait 1 ^0-1
quit"
  expect_body "$v: new (the engine plays Han), Cho passes: Han passes back and claims the count at once" \
"$XIANGQI_SETUP
move @@@@
0-1 {both sides passed; $HAN_COUNT}"
done

# The same immediate ends as Debian's Fairy-Stockfish 11.1 claims them in XBoard mode (11.1 writes
# the pass as 'pass' and claims no optional ends): the same result for the side that wins.
if [ -x "$FSF" ]; then
  for v in janggi janggitraditional janggimodern janggicasual; do
    for game in "$START|@@@@ @@@@" "$START|e3d3 e6d6 @@@@" "$MATE_FEN|b0b9" \
                "3k5/9/9/9/9/9/P8/9/4K4/9 w - - 0 1|@@@@ @@@@"; do
      fen=${game%%|*}; moves=${game#*|}
      [ "$v" = janggimodern ] || [ "$v" = janggicasual ] && [ "$moves" = "e3d3 e6d6 @@@@" ] && continue
      ours=$(printf 'xboard\nnew\nvariant %s\nforce\nsetboard %s\n%s\ngo\nquit\n' "$v" "$fen" "$(tr ' ' '\n' <<<"$moves")" \
             | "$bin" 2>&1 | grep -aE '^(1-0|0-1|1/2-1/2)' | cut -d' ' -f1)
      theirs=$(printf 'xboard\nnew\nvariant %s\nforce\nsetboard %s\n%s\ngo\n' "$v" "$fen" "$(tr ' ' '\n' <<<"${moves//@@@@/pass}")" \
               | timeout 10 "$FSF" 2>&1 | grep -aE '^(1-0|0-1|1/2-1/2)' | cut -d' ' -f1)
      expect_value "$v: after '$moves' from $fen the claim's result is FSF 11.1's ($theirs)" "$theirs" "$ours"
    done
  done
else
  fail "Fairy-Stockfish 11.1 ($FSF) is missing; it is in the Makefile's DEB_PACKAGES"
fi

# --- perft, d, eval ------------------------------------------------------------------------------------

session "xboard
new
force
perft 2
perft 0
perft
quit"
grep -aE '^[a-i@]' "$tmp/body" | grep -av '^Error' | sort >"$tmp/ours"
if [ -x "$FSF" ]; then
  printf 'xboard\nnew\nvariant janggi\nforce\nperft 2\n' | timeout 20 "$FSF" | grep -aE '^[a-i]|^pass' | sed 's/^pass:/@@@@:/' | sort >"$tmp/fsf"
  if cmp -s "$tmp/ours" "$tmp/fsf" && [ "$(wc -l <"$tmp/ours")" = 32 ]; then
    pass "perft 2: the same 32 root moves and counts as FSF 11.1's perft 2 in XBoard mode (the pass as @@@@)"
  else
    fail "perft 2 differs from FSF 11.1's"; diff "$tmp/fsf" "$tmp/ours" | head -10 | sed 's/^/  diff: /'
  fi
fi
expect_lines "perft 2: Nodes searched: 1024; perft without a depth or out of range is refused" \
  '^Nodes searched: 1024$' '^Error \(perft needs a depth from 1 to 20\): perft 0$' '^Error \(perft needs a depth from 1 to 20\): perft$'

session "xboard
new
force
b0c2
d
eval
quit"
expect_lines "d: the board with ranks 9..0 and the side to move marked; eval: the evaluation breakdown" \
  '^ \| r \| n \| b \| a \|   \| a \| b \| n \| r \|9 \*$' '^ \| R \|   \| B \| A \|   \| A \| B \| N \| R \|0  $' \
  '^Fen: rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/4K4/R1BA1ABNR b - - 1 1$' 'Material'

# --- Playing: go, new, playother, force, result, time controls ------------------------------------------

session "xboard
new
variant janggi
sd 2
go
@wait 1 ^move
force
playother
b9c7
@wait 2 ^move
result 1-0 {Cho resigns}
b7e7
ping 3
@wait 1 ^pong
quit"
grep -a '^move \|^pong\|^Illegal\|^Error' "$tmp/body" | sed 's/^move .*/move M/' >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"
expect_body "go: the engine plays Cho; playother in force mode: it plays the side not to move, and answers the next move; result: force mode (no reply to b7e7)" \
"move M
move M
pong 3"

# The time a move takes under `st`, `level` and `time`: within generous bounds (the machine may be busy).
time_case() {  # NAME MIN MAX SETUP...: the move after `go` comes between MIN and MAX seconds
  local name=$1 min=$2 max=$3 setup=$4 secs
  rm -f "$tmp/mark.go" "$tmp/mark.move"
  session "xboard
new
variant janggi
nopost
$setup
ping 1
@wait 1 ^pong
@mark go
go
@wait 1 ^move
@mark move
quit"
  secs=$(awk -v a="$(cat "$tmp/mark.go")" -v b="$(cat "$tmp/mark.move")" 'BEGIN { printf "%.2f", b - a }')
  if session_ok "$name" && grep -qa '^move ' "$tmp/body" && awk -v s="$secs" -v lo="$min" -v hi="$max" 'BEGIN { exit !(s >= lo && s <= hi) }'; then
    pass "$name (took ${secs}s)"
  else
    fail "$name" "took ${secs}s, expected $min to $max"; show "$tmp/body"
  fi
}
time_case "st 1: a fixed second per move" 0.9 4 "st 1"
time_case "st 0.3 (decimals): under a second" 0.25 2.5 "st 0.3"
time_case "level 40 0:03 0 (40 moves a session): a small part of 3 s" 0 1.8 "level 40 0:03 0"
time_case "level 1 0:03 0 (1 move a session): most of the 3 s on this move (sanitizer builds overshoot)" 0.5 6 "level 1 0:03 0"
time_case "level 0 0:30 0 with time 50 (0.5 s left, centiseconds): well under half a second of thinking" 0 1.5 "level 0 0:30 0
time 50
otim 9000"
time_case "level 0 1 2 with time 10: 0.1 s left moves at once (the 2 s increment comes after the move)" 0 1.2 "level 0 1 2
time 10"
time_case "sd 1 with level 40 5 0: the depth limit" 0 1.5 "level 40 5 0
sd 1"

session "xboard
new
level 40
level 40 5:60 0
level 0 0 0
level a b c
st 0
st x
sd 0
sd 200
time x
otim
memory 0
cores 999
ping
new now
quit"
expect_body "bad level, st, sd, time, otim, memory, cores, ping and extra words: one Error line each, nothing done" \
"Error (level needs moves per session, base time (minutes or minutes:seconds) and increment (seconds), not all zero): level 40
Error (level needs moves per session, base time (minutes or minutes:seconds) and increment (seconds), not all zero): level 40 5:60 0
Error (level needs moves per session, base time (minutes or minutes:seconds) and increment (seconds), not all zero): level 0 0 0
Error (level needs moves per session, base time (minutes or minutes:seconds) and increment (seconds), not all zero): level a b c
Error (st needs a number of seconds above 0): st 0
Error (st needs a number of seconds above 0): st x
Error (sd needs a depth from 1 to 127): sd 0
Error (sd needs a depth from 1 to 127): sd 200
Error (time needs centiseconds from -2147483648 to 2147483647): time x
Error (otim needs centiseconds from -2147483648 to 2147483647): otim
Error (memory needs a number of megabytes from 1 to 65536): memory 0
Error (cores needs a number of threads from 1 to 256): cores 999
Error (ping needs a number from -2147483648 to 2147483647): ping
Error (new takes no arguments): new now"

# `?` moves at once: st 60 would take a minute.
session "xboard
new
st 60
nopost
go
@sleep 0.3
?
@wait 1 ^move
quit"
expect_lines "'?' makes the engine move now (st 60 otherwise)" '^move [a-i][0-9][a-i][0-9]$'

# --- Analysis ----------------------------------------------------------------------------------------------

# After b0c2 it is Han's turn: a thinking line whose first move starts on Han's side (ranks 6-9) shows
# that the analysis restarted in the new position (the count of lines would depend on the search's speed).
session "xboard
new
force
post
analyze
@wait 3 ^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ 0	
.
usermove b0c2
@wait 1 ^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ 0	 [a-i][6-9]
exit
@sleep 0.3
ping 9
@wait 1 ^pong
@sleep 0.3
exit
.
quit"
awk '/^pong 9$/ {seen = 1; next} seen' "$tmp/body" >"$tmp/after"
expect_lines "analyze: thinking lines (depth score cs nodes seldepth nps 0<TAB> pv); '.': stat01; a move restarts the analysis; exit stops it" \
  '^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ 0	( [a-i][0-9][a-i][0-9]| @@@@)+$' \
  '^stat01: [0-9]+ [0-9]+ [0-9]+ 0 32( [a-i][0-9][a-i][0-9])?$' \
  '^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ 0	 [a-i][6-9][a-i][0-9]' '^pong 9$' \
  '^Error \(not analysing\): exit$' '^Error \(not analysing\): \.$'
if grep -qaE '^[0-9]+ -?[0-9]+ [0-9]+ ' "$tmp/after" || grep -qa '^move ' "$tmp/body"; then
  fail "analysis: a thinking line after exit, or a move" "$(head -3 "$tmp/after")"
else
  pass "analysis: nothing after exit, and never a move"
fi

session "xboard
new
variant janggi
force
setboard $MATE_FEN
b0b9
post
analyze
@sleep 0.3
exit
quit"
expect_body "analyze in a finished game: one line with the verdict for the side to move (mated: -100000), no claim" \
"$XIANGQI_SETUP
0 -100000 0 0 0 0 0	"

# --- Pondering, hint, draw ------------------------------------------------------------------------------

# After its move the engine ponders on the reply it expects (given by hint); that reply is a ponder
# hit (the engine answers), another move a miss (it answers too). A depth limit makes the first move
# and its hint the same in both sessions (a time limit would not on a busy machine).
first_move_and_hint="xboard
new
variant janggi
hard
nopost
sd 4
go
@wait 1 ^move
hint
@wait 1 ^Hint:"
session "$first_move_and_hint
quit"
hint=$(sed -n 's/^Hint: //p' "$tmp/body" | head -1)
if [ -n "$hint" ]; then
  session "$first_move_and_hint
usermove $hint
@wait 2 ^move
hint
@wait 2 ^Hint:
usermove a6a5
@wait 3 ^move
easy
quit"
  grep -a '^move \|^Hint\|^Illegal\|^Error' "$tmp/body" | sed 's/ [a-i@][0-9@][a-i@][0-9@]$/ M/' >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"
  expect_body "hard: pondering on the hinted reply; the hinted move (a ponder hit) and another (a miss) are both answered" \
"move M
Hint: M
move M
Hint: M
move M"
else
  fail "hint after the engine's move: no Hint line" "$(head -5 "$tmp/body")"
fi

session "xboard
new
variant janggi
force
setboard 4k4/9/9/9/9/9/9/9/3K5/R1R6 b - - 0 1
sd 3
nopost
go
@wait 1 ^move
draw
ping 1
@wait 1 ^pong
new
force
sd 2
go
@wait 1 ^move
draw
ping 2
@wait 1 ^pong
quit"
grep -a '^offer draw\|^pong' "$tmp/body" >"$tmp/b2"; mv "$tmp/b2" "$tmp/body"
expect_body "draw: accepted (offer draw) when the engine's last move was scored at -2.00 or worse (Han against two chariots), declined silently at the start" \
"offer draw
pong 1
pong 2"

# --- Options ------------------------------------------------------------------------------------------

session "xboard
option Ponder=1
option MultiPV=2
option Move Overhead=50
option Clear Hash
option UCI_ShowWDL=0
option XBoard Setup=janggi
variant janggicasual
option XBoard Setup=xiangqi
variant janggi
option Frobnicate=1
option MultiPV=0
option Ponder=maybe
option XBoard Setup=Janggi
option
memory 32
cores 2
cores 1
ping 4
quit"
expect_body "option NAME=VALUE (checks as 1/0, buttons without a value), memory, cores; bad ones get one Error each" \
"$JANGGI_SETUP
$XIANGQI_SETUP
Error (unknown option): option Frobnicate=1
Error (option MultiPV must be a number from 1 to 64, not '0'): option MultiPV=0
Error (option Ponder must be true or false, not 'maybe'): option Ponder=maybe
Error (option XBoard Setup must be xiangqi or janggi): option XBoard Setup=Janggi
Error (option needs NAME=VALUE): option
pong 4"

# --- Robustness, switching protocols ------------------------------------------------------------------

head -c 1100000 /dev/zero | tr '\0' 'a' >"$tmp/long"
session "xboard
new
@file $tmp/long
@raw \n
@raw usermove b0\\x00c2\n
@raw usermove \\xff\\xfe\n
# a comment
ping 5
@wait 1 ^pong
uci
quit"
expect_lines "an overlong line, NUL bytes and invalid UTF-8 get an Error line each; # comments are ignored; uci switches back to UCI" \
  '^Error \(input line longer than 1048576 bytes\): ignored$' '^Error \(the line holds a NUL byte\): usermove b0\\x00c2$' \
  '^Error \(the line is not valid UTF-8\): usermove \\xFF\\xFE$' '^pong 5$' '^id name Janggun' '^uciok$'

session "xboard
new
sd 30
go
@sleep 0.2
quit"
expect_no_line "quit while thinking: exits at once without a move" '^move '

session "xboard
new
variant janggi
force
b0c2"
expect_body "the end of input ends the session (status 0)" "$XIANGQI_SETUP"

[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# Tests of janggun-match with scripted engines (tests/fake_engine.sh): every way a game ends, decided
# by the runner's referee (mate, counting after a double pass, bikjang, repetition, perpetual check,
# the Kakao rule, the move limit), every way an engine loses (illegal and unparsable moves, bestmove
# (none), a crash, a hang, a loss on time), engine restarts, the go commands each time control sends,
# UCI and UCCI, openings, colours reversed, PGN field by field, adjudication, SPRT stops, schedules,
# a few real games between janggun and Fairy-Stockfish, pondering (the traffic checked), and a run
# interrupted, killed and restarted (the PGN file keeps whole games only).
# usage: bash tests/cli_match.sh BINARY   (BINARY is ./janggun; janggun-match is found beside it)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_match.sh "$@"
match=$(match_binary)
root="$(cd "$(dirname "$0")/.." && pwd)"
fake="$root/tests/fake_engine.sh"
need_executable "$match"

START_FEN='rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1'
MATE_FEN='3k5/3aa4/9/9/9/9/9/9/4K4/R8 w - - 0 1'
CHECKER_FEN='3k5/9/R8/9/4P4/9/9/9/4K4/9 w - - 0 1'
LIMIT_FEN='5k3/9/9/9/9/9/9/9/4K4/9 w - - 99 60'
echo "$MATE_FEN" >"$tmp/mate.epd"
echo "$CHECKER_FEN" >"$tmp/checker.epd"
echo "$LIMIT_FEN" >"$tmp/limit.epd"

# run NAME ARGS...: janggun-match ARGS with its output in $tmp/NAME.out (stdout and stderr), the PGN in
# $tmp/NAME.pgn and the engine traffic in $tmp/NAME.log; the exit status in $rc.
run() {
  local name=$1; shift
  "$match" --openings startpos --pgn "$tmp/$name.pgn" --log "$tmp/$name.log" "$@" >"$tmp/$name.out" 2>&1
  rc=$?
}

# duel NAME "SCRIPT A" "SCRIPT B" ARGS...: two scripted engines A and B (UCI).
duel() {
  local name=$1 a=$2 b=$3; shift 3
  run "$name" --engine "cmd=$fake $a" name=A --engine "cmd=$fake $b" name=B "$@"
}

# expect NAME TEST GAME RESULT TERMINATION [DETAIL]: game GAME (its "Finished game" line) ended with
# RESULT and TERMINATION, and its comment contains DETAIL.
expect() {
  local name=$1 test=$2 game=$3 result=$4 term=$5 detail=${6:-}
  local line
  line=$(grep "^Finished game $game " "$tmp/$name.out")
  if [ "$rc" -ne 0 ]; then
    fail "$test" "exit status $rc" "$(cat "$tmp/$name.out")"
  elif [[ "$line" != *": $result {$term: "* ]]; then
    fail "$test" "expected $result {$term: ...}" "got: ${line:-nothing}" "$(tail -5 "$tmp/$name.out")"
  elif [ -n "$detail" ] && [[ "$line" != *"$detail"* ]]; then
    fail "$test" "expected the comment to contain: $detail" "got: $line"
  else
    pass "$test"
  fi
}

# tag FILE GAME NAME: the value of tag NAME in game GAME (1-based) of a PGN file.
tag() {
  awk -v g="$2" -v t="$3" '/^\[Event /{n++} n==g && index($0, "[" t " \"")==1 {
    v=substr($0, length(t) + 4); sub(/"\]$/, "", v); print v; exit }' "$1"
}

# movetext FILE GAME: the movetext of game GAME, joined into one line.
movetext() {
  awk -v g="$2" '/^\[Event /{n++; next} n==g && !/^\[/ && NF {printf "%s%s", sep, $0; sep=" "} END {print ""}' "$1"
}

# ---- how games end, as the referee decides ----

duel mate "a1a10" "a1a10" --nodes 1000 --games 1 --openings file="$tmp/mate.epd"
expect mate "checkmate: Cho mates in one and wins 1-0" 1 1-0 checkmate "Han is checkmated"

duel dpass "e2e2 e9e9" "e2e2 e9e9" --nodes 1000 --games 1
expect dpass "double pass under janggi: counting with the deom, Han wins 72 to 73.5" 1 0-1 "double pass" \
  "Han wins by counting: Cho 72, Han 73.5 with the deom"
goes=$(grep -c '> go ' "$tmp/dpass.log")
if [ "$goes" -eq 2 ]; then pass "double pass: the runner asks for exactly two moves, never in the finished position"
else fail "double pass: the runner asks for exactly two moves, never in the finished position" "go sent $goes times"; fi

duel dpass_trad "e2e2 e9e9" "e2e2 e9e9" --nodes 1000 --games 1 --variant janggitraditional
expect dpass_trad "double pass under janggitraditional is a draw" 1 1/2-1/2 "double pass" "both sides passed; draw"

duel bikjang "e4d4 e7d7 e2e2" "e4d4 e7d7 e2e2" --nodes 1000 --games 1
expect bikjang "bikjang under janggi: counting, Han wins" 1 0-1 bikjang "Han wins by counting: Cho 72, Han 73.5"

duel bikjang_modern "e4d4 e7d7 e2e2 e9e9" "e4d4 e7d7 e2e2 e9e9" --nodes 1000 --games 1 --variant janggimodern
expect bikjang_modern "no bikjang under janggimodern: the game goes on to the double pass" 1 0-1 "double pass"

SHUFFLE="b1c3 b10c8 c3b1 c8b10 b1c3 b10c8 c3b1 c8b10"
duel rep "$SHUFFLE" "$SHUFFLE" --nodes 1000 --games 1
expect rep "threefold repetition under janggi: counting, Han wins" 1 0-1 repetition \
  "the position occurred for the third time; Han wins by counting"
duel rep_casual "$SHUFFLE" "$SHUFFLE" --nodes 1000 --games 1 --variant janggicasual
expect rep_casual "threefold repetition under janggicasual is a draw" 1 1/2-1/2 repetition "draw"

duel kakao "$SHUFFLE b1c3 b10c8" "$SHUFFLE b1c3 b10c8" --nodes 1000 --games 1 --variant janggimodern
expect kakao "Kakao rule under janggimodern: Cho's fifth shuffle move loses" 1 0-1 "Kakao repetition" \
  "Cho moved the same piece back and forth"

CHECKS="a8a10 d10d9 a10a9 d9d10 a9a10 d10d9 a10a9 d9d10 a9a10 d10d9"
duel perpetual "$CHECKS" "$CHECKS" --nodes 1000 --games 1 --openings file="$tmp/checker.epd"
expect perpetual "perpetual check: the checking side (Cho) loses" 1 0-1 "perpetual check" "Cho gave perpetual check"
duel perpetual_modern "$CHECKS" "$CHECKS" --nodes 1000 --games 1 --openings file="$tmp/checker.epd" \
  --variant janggimodern
expect perpetual_modern "the same checks under janggimodern lose by the Kakao rule first" 1 0-1 "Kakao repetition"

duel limit "e2e1 f10e10" "e2e1 f10e10" --nodes 1000 --games 1 --openings file="$tmp/limit.epd"
expect limit "move limit under janggi: counting after 100 plies without a capture" 1 0-1 "move limit" \
  "100 plies without a capture; Han wins by counting: Cho 0, Han 1.5"

# ---- how engines lose ----

duel illegal "b1c3 a1a5" "b1c3 a1a5" --nodes 1000 --games 1
expect illegal "illegal move: Han moving Cho's chariot loses" 1 1-0 "illegal move" "Han (B) played an illegal move 'a1a5'"
duel unparsable "b1c3 xyz" "b1c3 xyz" --nodes 1000 --games 1
expect unparsable "unparsable move loses" 1 1-0 "illegal move" "an unparsable move 'xyz'"
duel none "b1c3 none" "b1c3 none" --nodes 1000 --games 1
expect none "bestmove (none) in an unfinished game loses" 1 1-0 "illegal move" "answered bestmove (none)"
duel nobest "b1c3 nobest" "b1c3 nobest" --nodes 1000 --games 1
expect nobest "nobestmove loses" 1 1-0 "illegal move" "answered nobestmove"

duel crash "b1c3 crash" "b1c3 crash" --nodes 1000 --games 2
expect crash "crash: Han killed by SIGSEGV loses" 1 1-0 crash "Han (B) crashed: killed by signal 11"
expect crash "after a crash the engine is restarted: game 2 is played and B (restarted) wins it as Cho" 2 1-0 crash \
  "Han (A) crashed"
starts=$(grep -c ' B ! started' "$tmp/crash.log")
if [ "$starts" -eq 3 ]; then pass "crash: B started three times (check, game 1, restart for game 2)"
else fail "crash: B started three times (check, game 1, restart for game 2)" "started $starts times"; fi

duel exit "b1c3 exit" "b1c3 exit" --nodes 1000 --games 1
expect exit "an engine that exits mid-game loses as a crash" 1 1-0 crash "exited with status 3"

# The clocks and margins below leave Cho's scripted first move (instant, but a loaded machine or a
# sanitizer build of the runner can delay it by a few hundred milliseconds) far from any limit.
duel timeout "b1c3 hang" "b1c3 hang" --tc 1 --margin 500 --games 1
expect timeout "no answer on a 1 s clock: loss on time" 1 1-0 "time forfeit" \
  "Han (B) lost on time: no move within 1.500 s (1.000 s left, 0.500 s margin)"

duel late "b1c3 sleep:1800:b10c8 c3b1" "b1c3 sleep:1800:b10c8 c3b1" --tc 1 --margin 500 --games 2
expect late "a move after the clock ran out loses on time" 1 1-0 "time forfeit" "Han (B) lost on time"
expect late "the late engine is not killed: its bestmove after stop is read, game 2 goes the same way" 2 1-0 \
  "time forfeit" "Han (A) lost on time"
if grep -q ' A ! killed\| B ! killed' "$tmp/late.log"; then fail "late: no engine killed" "$(grep '!' "$tmp/late.log")"
else pass "late: no engine killed (the bestmove after stop arrives within the grace)"; fi

duel st_late "b1c3 sleep:2000:b10c8" "b1c3 sleep:2000:b10c8" --st 0.5 --margin 500 --games 1
expect st_late "fixed time per move: a move over the time plus margin loses on time" 1 1-0 "time forfeit"

duel hang "b1c3 hang" "b1c3 hang" --nodes 1000 --timeout 1.5 --games 1
expect hang "no clock: an engine that does not move within --timeout loses by hang" 1 1-0 hang \
  "Han (B) did not move within 1.500 s"

duel bad_variant "e2e2" "e2e2" --nodes 10 --variant janggimodern
run bad_variant --engine "cmd=$fake --variants janggi e2e2" name=A --engine "cmd=$fake e2e2" name=B \
  --nodes 10 --variant janggimodern
if [ "$rc" -eq 2 ] && grep -q "engine A: A does not list the variant 'janggimodern'" "$tmp/bad_variant.out"; then
  pass "an engine that does not list the variant is refused before any game (exit status 2)"
else fail "an engine that does not list the variant is refused before any game (exit status 2)" "rc $rc" \
  "$(cat "$tmp/bad_variant.out")"; fi

run missing --engine "cmd=$tmp/no-such-engine" name=A --engine "cmd=$fake e2e2" name=B --nodes 10
if [ "$rc" -eq 2 ] && grep -q "engine A: exited with status 127" "$tmp/missing.out"; then
  pass "a command that cannot run is reported before any game (exit status 2)"
else fail "a command that cannot run is reported before any game (exit status 2)" "rc $rc" "$(cat "$tmp/missing.out")"; fi

# ---- time controls: what go says ----

duel clock "b1c3 b10c8 c3b1 c8b10 e2e2 e9e9" "b1c3 b10c8 c3b1 c8b10 e2e2 e9e9" --tc 2+0.5 --games 1
first=$(grep -m1 '> go ' "$tmp/clock.log" | sed 's/.*> //')
third=$(grep '> go ' "$tmp/clock.log" | sed -n 3p | sed 's/.*> //')
if [ "$first" = "go wtime 2000 btime 2000 winc 500 binc 500" ]; then pass "--tc 2+0.5: the first go"
else fail "--tc 2+0.5: the first go" "got: $first"; fi
if [[ "$third" =~ ^go\ wtime\ (2[0-9]{3})\ btime\ 2[0-9]{3}\ winc\ 500\ binc\ 500$ ]] && [ "${BASH_REMATCH[1]}" -gt 2000 ]; then
  pass "--tc 2+0.5: Cho's clock at the third go is charged for the time used and credited with the increment"
else fail "--tc 2+0.5: Cho's clock at the third go is charged for the time used and credited with the increment" \
  "got: $third"; fi
if [ "$(tag "$tmp/clock.pgn" 1 TimeControl)" = "2+0.5" ]; then pass "--tc 2+0.5: TimeControl tag"
else fail "--tc 2+0.5: TimeControl tag" "got: $(tag "$tmp/clock.pgn" 1 TimeControl)"; fi

duel period "e2e2 e9e9" "e2e2 e9e9" --tc 40/60 --games 1
first=$(grep -m1 '> go ' "$tmp/period.log" | sed 's/.*> //')
if [ "$first" = "go wtime 60000 btime 60000 winc 0 binc 0 movestogo 40" ]; then pass "--tc 40/60: movestogo"
else fail "--tc 40/60: movestogo" "got: $first"; fi

duel st "e2e2 e9e9" "e2e2 e9e9" --st 0.25 --games 1
first=$(grep -m1 '> go ' "$tmp/st.log" | sed 's/.*> //')
if [ "$first" = "go movetime 250" ] && [ "$(tag "$tmp/st.pgn" 1 TimeControl)" = "st=0.25" ]; then
  pass "--st 0.25: go movetime 250, TimeControl st=0.25"
else fail "--st 0.25: go movetime 250, TimeControl st=0.25" "got: $first / $(tag "$tmp/st.pgn" 1 TimeControl)"; fi

duel nodes "e2e2 e9e9" "e2e2 e9e9" --nodes 20000 --depth 7 --games 1
first=$(grep -m1 '> go ' "$tmp/nodes.log" | sed 's/.*> //')
if [ "$first" = "go nodes 20000 depth 7" ] && [ "$(tag "$tmp/nodes.pgn" 1 TimeControl)" = "nodes=20000 depth=7" ]; then
  pass "--nodes 20000 --depth 7: go nodes 20000 depth 7"
else fail "--nodes 20000 --depth 7: go nodes 20000 depth 7" "got: $first"; fi

# ---- UCCI ----

run ucci --engine "cmd=$fake --ucci e1e1 e8e8" name=A proto=ucci option.hashsize=32 \
  --engine "cmd=$fake --ucci e1e1 e8e8" name=B proto=ucci --tc 3+0.1 --games 1
expect ucci "UCCI engines: moves with ranks 0-9, the double pass e1e1 e8e8" 1 0-1 "double pass"
sent=$(grep ' 1 A > ' "$tmp/ucci.log" | sed 's/.*> //' | head -8 | tr '\n' '|')
want='ucci|setoption hashsize 32|setoption UCI_Variant janggi|setoption usemillisec true|isready|uccinewgame|isready|'
if [[ "$sent" == "$want"* ]]; then pass "UCCI: handshake, setoption without name/value, usemillisec"
else fail "UCCI: handshake, setoption without name/value, usemillisec" "got:  $sent" "want: $want"; fi
pos=$(grep ' 1 B > position' "$tmp/ucci.log" | head -1 | sed 's/.*> //')
go=$(grep ' 1 B > go' "$tmp/ucci.log" | head -1 | sed 's/.*> //')
if [ "$pos" = "position fen $START_FEN moves e1e1" ] && [[ "$go" =~ ^go\ time\ 3000\ increment\ 100\ opptime\ [0-9]+\ oppincrement\ 100$ ]]; then
  pass "UCCI: position with a 0-9 pass, go time/increment/opptime/oppincrement in ms"
else fail "UCCI: position with a 0-9 pass, go time/increment/opptime/oppincrement in ms" "$pos" "$go"; fi
if [ "$(movetext "$tmp/ucci.pgn" 1)" = "1. e2e2 {+0.00/1 0.000s} 1... e9e9 {+0.00/1 0.000s} {both sides passed; Han wins by counting: Cho 72, Han 73.5 with the deom} 0-1" ] \
   || [[ "$(movetext "$tmp/ucci.pgn" 1)" == "1. e2e2 {+0.00/1 0."*"s} 1... e9e9 {+0.00/1 0."*"s} {both sides passed; Han wins by counting: Cho 72, Han 73.5 with the deom} 0-1" ]]; then
  pass "UCCI: the PGN writes the moves in UCI notation (ranks 1-10)"
else fail "UCCI: the PGN writes the moves in UCI notation (ranks 1-10)" "$(movetext "$tmp/ucci.pgn" 1)"; fi
sent=$(grep ' 1 A > ' "$tmp/dpass.log" | sed 's/.*> //' | head -5 | tr '\n' '|')
if [ "$sent" = "uci|setoption name UCI_Variant value janggi|isready|ucinewgame|isready|" ]; then pass "UCI: handshake, variant, isready, ucinewgame"
else fail "UCI: handshake, variant, isready, ucinewgame" "got: $sent"; fi

# ---- PGN, field by field, and colours reversed ----

cat >"$tmp/book.epd" <<EOT
# two openings: the start position after two moves, and a position with Han to move
$START_FEN moves b1c3 b10c8
3k5/9/9/9/9/9/P8/9/4K4/9 b - - 0 30 ; id "bare"
EOT
duel pgn "b1c3 b10c8 h1g3@35 h10g8@-20 e2e2 e9e9 e2e2" "b1c3 b10c8 h1g3@35 h10g8@-20 e2e2 e9e9 e2e2" \
  --nodes 1000 --games 2 --openings file="$tmp/book.epd" order=sequential --event "Test Cup" --variant janggi
p="$tmp/pgn.pgn"
ok=1; msgs=()
want_tags=("Event|Test Cup" "Round|1" "White|A" "Black|B" "Result|0-1" "Variant|Janggi" "Rules|janggi" "SetUp|1"
  "FEN|$START_FEN" "TimeControl|nodes=1000" "Termination|double pass" "PlyCount|6")
for wt in "${want_tags[@]}"; do
  got=$(tag "$p" 1 "${wt%%|*}")
  if [ "$got" != "${wt#*|}" ]; then ok=0; msgs+=("${wt%%|*}: got '$got', want '${wt#*|}'"); fi
done
[[ "$(tag "$p" 1 Date)" =~ ^[0-9]{4}\.[0-9]{2}\.[0-9]{2}$ ]] || { ok=0; msgs+=("Date: $(tag "$p" 1 Date)"); }
[ -n "$(tag "$p" 1 Site)" ] || { ok=0; msgs+=("Site missing"); }
order=$(grep -o '^\[[A-Za-z]*' "$p" | head -14 | tr -d '[' | tr '\n' ' ')
[ "$order" = "Event Site Date Round White Black Result Variant Rules SetUp FEN TimeControl Termination PlyCount " ] \
  || { ok=0; msgs+=("tag order: $order"); }
[ $ok = 1 ] && pass "PGN: every tag of game 1, in order" || fail "PGN: every tag of game 1, in order" "${msgs[@]}"
mt=$(movetext "$p" 1 | sed 's/ [0-9]\.[0-9]*s}/ Ts}/g; s/{[0-9]\.[0-9]*s}/{Ts}/g')
want='1. b1c3 {book} 1... b10c8 {book} 2. h1g3 {+0.35/1 Ts} 2... h10g8 {-0.20/1 Ts} 3. e2e2 {+0.00/1 Ts} 3... e9e9 {+0.00/1 Ts} {both sides passed; Han wins by counting: Cho 72, Han 73.5 with the deom} 0-1'
[ "$mt" = "$want" ] && pass "PGN: movetext with book moves, scores, depths, times and the ending" \
  || fail "PGN: movetext with book moves, scores, depths, times and the ending" "got:  $mt" "want: $want"
if [ "$(tag "$p" 2 White)" = B ] && [ "$(tag "$p" 2 Black)" = A ] && [ "$(tag "$p" 2 FEN)" = "$START_FEN" ] \
   && [[ "$(movetext "$p" 2)" == "1. b1c3 {book} 1... b10c8 {book} 2. h1g3"* ]]; then
  pass "PGN: game 2 is the same opening with colours reversed"
else fail "PGN: game 2 is the same opening with colours reversed" "$(tag "$p" 2 White) $(tag "$p" 2 Black)"; fi
lines=$(grep -v '^\[' "$p" | awk 'length($0) > 79' | wc -l)
[ "$lines" -eq 0 ] && pass "PGN: no movetext line over 79 characters" || fail "PGN: no movetext line over 79 characters" "$lines lines"

run han_first --engine "cmd=$fake d10d10 e2e2 e2e2 e9e9" name=A --engine "cmd=$fake d10d10 e2e2 e2e2 e9e9" name=B \
  --nodes 1000 --games 3 --openings file="$tmp/book.epd" order=sequential
p="$tmp/han_first.pgn"
if [ "$(tag "$p" 3 FEN)" = "3k5/9/9/9/9/9/P8/9/4K4/9 b - - 0 30" ] && [ "$(tag "$p" 3 Round)" = 3 ] \
   && [[ "$(movetext "$p" 3)" == "30... d10d10 {+0.00/1 "*"} 31. e2e2 {+0.00/1 "*"} {both sides passed; Cho wins by counting: Cho 2, Han 1.5 with the deom} 1-0" ]]; then
  pass "PGN: the second opening (game 3) starts with Han to move at move 30 (EPD operations ignored)"
else fail "PGN: the second opening (game 3) starts with Han to move at move 30 (EPD operations ignored)" \
  "$(tag "$p" 3 FEN)" "$(movetext "$p" 3)"; fi

# ---- adjudication (off by default) ----

S="b1c3@-500 b10c8@500 c3b1@-500 c8b10@500 b1c3@-500 b10c8@500 e2e2 e9e9"
duel resign "$S" "$S" --nodes 1000 --games 1 --resign movecount=2 score=400
expect resign "resign adjudication: both engines agree Cho is lost for 2 moves each" 1 0-1 "adjudication: resign" \
  "Cho resigns"
[ "$(tag "$tmp/resign.pgn" 1 PlyCount)" = 4 ] && pass "resign adjudication happens at ply 4" \
  || fail "resign adjudication happens at ply 4" "PlyCount $(tag "$tmp/resign.pgn" 1 PlyCount)"
duel no_adj "$S" "$S" --nodes 1000 --games 1
expect no_adj "without --resign the same game is played out" 1 0-1 "double pass"
S="b1c3@5 b10c8@-5 c3b1@0 c8b10@0 b1c3@3 b10c8@0 e2e2 e9e9"
duel draw "$S" "$S" --nodes 1000 --games 1 --draw movenumber=2 movecount=2 score=10
expect draw "draw adjudication: both scores within 10 cp for 2 moves each from move 2" 1 1/2-1/2 "adjudication: draw"

# ---- openings ----

printf '%s\n' '{"id": "a", "start_fen": "'"$START_FEN"'", "moves": ["b1c3", "b10c8", "h1g3"], "event": "x \"moves\" y"}' \
  '{"start_fen": "'"$START_FEN"'", "plies": 2, "moves": ["b1c3", "b10c8"]}' \
  '{"moves": ["i4h4", "a7b7", "c4d4"], "start_fen": "'"$START_FEN"'", "nested": {"a": [1, 2, {"b": null}]}}' \
  '{"start_fen": "'"$START_FEN"'", "moves": ["e2e2"]}' >"$tmp/games.jsonl"
duel jsonl "- - e2e2 e9e9" "- - e2e2 e9e9" --nodes 1000 --games 4 --openings file="$tmp/games.jsonl" plies=2 order=sequential
if [ "$rc" -eq 0 ] && grep -q "2 openings" "$tmp/jsonl.out" && grep -q "openings left out: 0 already over, 1 too short, 0 illegal under janggi rules, 1 duplicates" "$tmp/jsonl.out" \
   && [[ "$(movetext "$tmp/jsonl.pgn" 1)" == "1. b1c3 {book} 1... b10c8 {book} 2. e2e2 "* ]] \
   && [[ "$(movetext "$tmp/jsonl.pgn" 3)" == "1. i4h4 {book} 1... a7b7 {book} 2. e2e2 "* ]]; then
  pass "JSONL openings: the first 2 plies of each game, duplicates and short games left out"
else fail "JSONL openings: the first 2 plies of each game, duplicates and short games left out" "$(head -3 "$tmp/jsonl.out")" \
  "$(movetext "$tmp/jsonl.pgn" 1)"; fi

# A corpus game played on through a bikjang (b1c3 does not break the facing) is illegal under janggi
# rules and is left out and counted; janggicasual has no bikjang and keeps it. A game reaching a
# position already in the book by another move order is a duplicate.
printf '%s\n' '{"start_fen": "'"$START_FEN"'", "moves": ["e4d4", "e7d7", "b1c3", "b10c8"]}' \
  '{"start_fen": "'"$START_FEN"'", "moves": ["b1c3", "b10c8", "h1g3", "h10g8"]}' \
  '{"start_fen": "'"$START_FEN"'", "moves": ["h1g3", "b10c8", "b1c3", "h10g8"]}' >"$tmp/bik.jsonl"
duel bik "- - - e9e9 e2e2" "- - - e9e9 e2e2" --nodes 1000 --games 2 --openings file="$tmp/bik.jsonl" plies=3 order=sequential
if [ "$rc" -eq 0 ] && grep -q "janggi rules, time control nodes=1000, 1 openings" "$tmp/bik.out" \
   && grep -q "openings left out: 0 already over, 0 too short, 1 illegal under janggi rules, 1 duplicates" "$tmp/bik.out" \
   && [[ "$(movetext "$tmp/bik.pgn" 1)" == "1. b1c3 {book} 1... b10c8 {book} 2. h1g3 {book} 2... e9e9 "* ]]; then
  pass "JSONL openings: a game illegal under janggi rules is left out and counted; transpositions are duplicates"
else fail "JSONL openings: a game illegal under janggi rules is left out and counted; transpositions are duplicates" \
  "$(head -3 "$tmp/bik.out")" "$(movetext "$tmp/bik.pgn" 1)"; fi
duel bik_casual "- - - e9e9 e2e2" "- - - e9e9 e2e2" --nodes 1000 --games 4 --openings file="$tmp/bik.jsonl" plies=3 \
  order=sequential --variant janggicasual
if [ "$rc" -eq 0 ] && grep -q "janggicasual rules, time control nodes=1000, 2 openings" "$tmp/bik_casual.out" \
   && [[ "$(movetext "$tmp/bik_casual.pgn" 1)" == "1. e4d4 {book} 1... e7d7 {book} 2. b1c3 {book} "* ]]; then
  pass "JSONL openings: the same game is kept under janggicasual rules"
else fail "JSONL openings: the same game is kept under janggicasual rules" "$(head -3 "$tmp/bik_casual.out")"; fi
printf '%s\n' '{"start_fen": "'"$START_FEN"'", "moves": ["b1c3", "b10c8"]}' | xz -c >"$tmp/games.jsonl.xz"
duel xz "- - e2e2 e9e9" "- - e2e2 e9e9" --nodes 1000 --games 2 --openings file="$tmp/games.jsonl.xz" plies=2
if [ "$rc" -eq 0 ] && [[ "$(movetext "$tmp/xz.pgn" 1)" == "1. b1c3 {book} 1... b10c8 {book} 2. e2e2 "* ]]; then
  pass "JSONL openings read from an xz-compressed file"
else fail "JSONL openings read from an xz-compressed file" "$(head -3 "$tmp/xz.out")"; fi
head -c 300000 "$root/bench/data/games.jsonl.xz" >"$tmp/cut.jsonl.xz"
run cut --engine "cmd=$fake e2e2" name=A --engine "cmd=$fake e2e2" name=B --nodes 10 --openings file="$tmp/cut.jsonl.xz"
if [ "$rc" -eq 2 ] && grep -q "janggun-match: error: .*cut.jsonl.xz: truncated xz data" "$tmp/cut.out"; then
  pass "a truncated compressed openings file is an error that names it"
else fail "a truncated compressed openings file is an error that names it" "$(cat "$tmp/cut.out")"; fi

printf '%s moves b1c3 a1a5\n' "$START_FEN" >"$tmp/bad.epd"
run bad_epd --engine "cmd=$fake e2e2" name=A --engine "cmd=$fake e2e2" name=B --nodes 10 --openings file="$tmp/bad.epd"
if [ "$rc" -eq 2 ] && grep -q "bad.epd:1: illegal move 'a1a5' at ply 2" "$tmp/bad_epd.out"; then
  pass "an illegal opening is an error with its file and line"
else fail "an illegal opening is an error with its file and line" "$(cat "$tmp/bad_epd.out")"; fi
printf '%s b1c3\n' "$START_FEN" >"$tmp/bare.epd"  # the move without the word moves: not silently dropped
run bare_epd --engine "cmd=$fake e2e2" name=A --engine "cmd=$fake e2e2" name=B --nodes 10 --openings file="$tmp/bare.epd"
if [ "$rc" -eq 2 ] && [ "$(cat "$tmp/bare_epd.out")" = "janggun-match: error: $tmp/bare.epd:1: 'b1c3' is a move, not an operation: moves follow the word moves (\`moves b1c3\`)" ]; then
  pass "an opening's move without the word moves is an error, not a game from the position before it"
else fail "an opening's move without the word moves is an error, not a game from the position before it" \
  "$(cat "$tmp/bare_epd.out")"; fi

orders() { grep -h '^\[FEN' "$tmp/$1.pgn" | tr '\n' ' '; }
for s in 1 1 2; do
  run "seed$s$RANDOM" --engine "cmd=$fake e2e2 e9e9" name=A --engine "cmd=$fake e2e2 e9e9" name=B --nodes 10 \
    --games 8 --openings setups --seed $s
done
a=$(ls "$tmp"/seed1*.pgn | head -1); b=$(ls "$tmp"/seed1*.pgn | tail -1); c=$(ls "$tmp"/seed2*.pgn)
fa=$(grep '^\[FEN' "$a" | tr '\n' ' '); fb=$(grep '^\[FEN' "$b" | tr '\n' ' '); fc=$(grep '^\[FEN' "$c" | tr '\n' ' ')
if [ "$a" != "$b" ] && [ "$fa" = "$fb" ] && [ "$fa" != "$fc" ] && [ "$(grep -c '^\[FEN' "$a")" -eq 8 ] \
   && [ "$(grep '^\[FEN' "$a" | sort -u | wc -l)" -eq 4 ]; then
  pass "openings: the same seed gives the same order, another seed another; 4 setups, each played twice"
else fail "openings: the same seed gives the same order, another seed another; 4 setups, each played twice" "$fa" "$fc"; fi

# ---- schedules, concurrency, SPRT ----

run rr --engine "cmd=$fake e2e2 e9e9" name=A --engine "cmd=$fake e2e2 e9e9" name=B --engine "cmd=$fake e2e2 e9e9" name=C \
  --nodes 10 --games 2 --concurrency 3
pairs=$(grep '^Finished' "$tmp/rr.out" | sed 's/Finished game [0-9]* (\(.*\)):.*/\1/' | sort | tr '\n' ',')
if [ "$rc" -eq 0 ] && [ "$pairs" = "A vs B,A vs C,B vs A,B vs C,C vs A,C vs B," ]; then
  pass "round robin of 3 engines: 3 pairings, 2 games each with colours reversed, 3 at once"
else fail "round robin of 3 engines: 3 pairings, 2 games each with colours reversed, 3 at once" "$pairs"; fi
run gauntlet --engine "cmd=$fake e2e2 e9e9" name=A --engine "cmd=$fake e2e2 e9e9" name=B --engine "cmd=$fake e2e2 e9e9" name=C \
  --nodes 10 --games 2 --format gauntlet --concurrency 2
pairs=$(grep '^Finished' "$tmp/gauntlet.out" | sed 's/Finished game [0-9]* (\(.*\)):.*/\1/' | sort | tr '\n' ',')
if [ "$rc" -eq 0 ] && [ "$pairs" = "A vs B,A vs C,B vs A,C vs A," ]; then pass "gauntlet: the first engine against each other one"
else fail "gauntlet: the first engine against each other one" "$pairs"; fi

run sprt_h1 --engine "cmd=$fake a1a10" name=A --engine "cmd=$fake none" name=B --nodes 10 --games 400 \
  --openings file="$tmp/mate.epd" --sprt elo0=0 elo1=200 alpha=0.05 beta=0.05
# Reference (python, fishtest's LLR_logistic with 0.001 for empty counts): 7 pairs of 2-0 give LLR 2.929,
# 8 pairs 3.348 > log(0.95/0.05) = 2.944.
if grep -q "^SPRT decided: H1 accepted after 16 games" "$tmp/sprt_h1.out" \
   && grep -q "LLR 3.35 (-2.94, 2.94): H1 accepted" "$tmp/sprt_h1.out" && grep -q "^Game pairs by A's points (0, 0.5, 1, 1.5, 2): 0 0 0 0 8" "$tmp/sprt_h1.out"; then
  pass "SPRT stops at H1 after 8 won pairs (LLR 3.35)"
else fail "SPRT stops at H1 after 8 won pairs (LLR 3.35)" "$(tail -12 "$tmp/sprt_h1.out")"; fi
run sprt_h0 --engine "cmd=$fake none" name=A --engine "cmd=$fake a1a10" name=B --nodes 10 --games 400 \
  --openings file="$tmp/mate.epd" --sprt elo0=0 elo1=200 --concurrency 2
# 5 lost pairs: LLR -3.666 < -2.944 (4 pairs: -2.933). With two games at once a third pair may finish.
if grep -q "^SPRT decided: H0 accepted after 1[0-2] games" "$tmp/sprt_h0.out"; then pass "SPRT stops at H0 after 5 lost pairs"
else fail "SPRT stops at H0 after 5 lost pairs" "$(tail -12 "$tmp/sprt_h0.out")"; fi

# ---- the command line ----

run noengine --engine "cmd=$fake" --nodes 10
grep -q "give at least two engines" "$tmp/noengine.out" && [ "$rc" -eq 2 ] && pass "one engine is an error" \
  || fail "one engine is an error" "$(cat "$tmp/noengine.out")"
run nolimit --engine "cmd=$fake" name=A --engine "cmd=$fake" name=B
grep -q "nothing limits a move" "$tmp/nolimit.out" && [ "$rc" -eq 2 ] && pass "no time control is an error" \
  || fail "no time control is an error" "$(cat "$tmp/nolimit.out")"
run badtc --engine "cmd=$fake" name=A --engine "cmd=$fake" name=B --tc 10+x
grep -q -- "--tc: time control must be" "$tmp/badtc.out" && [ "$rc" -eq 2 ] && pass "a bad --tc is an error" \
  || fail "a bad --tc is an error" "$(cat "$tmp/badtc.out")"
run samename --engine "cmd=$fake" --engine "cmd=$fake" --nodes 10
grep -q "both named 'fake_engine.sh'" "$tmp/samename.out" && [ "$rc" -eq 2 ] && pass "two engines with one name is an error" \
  || fail "two engines with one name is an error" "$(cat "$tmp/samename.out")"
run badopt --engine "cmd=$fake" name=A --engine "cmd=$fake" name=B --nodes 10 --frobnicate 3
[ "$(cat "$tmp/badopt.out")" = "janggun-match: error: unknown option '--frobnicate' (see janggun-match --help)" ] \
  && [ "$rc" -eq 2 ] && pass "an unknown option is refused with its exact message" \
  || fail "an unknown option is refused with its exact message" "$(cat "$tmp/badopt.out")"
run badnodes --engine "cmd=$fake" name=A --engine "cmd=$fake" name=B --nodes 0
[ "$(cat "$tmp/badnodes.out")" = "janggun-match: error: --nodes must be a number from 1 to 1000000000000, not '0'" ] \
  && [ "$rc" -eq 2 ] && pass "--nodes 0 is refused with its exact message" \
  || fail "--nodes 0 is refused with its exact message" "$(cat "$tmp/badnodes.out")"
run noword --engine "cmd=$fake" name=A --engine "cmd=$fake" name=B --nodes 10 --sprt --games 2
[ "$(cat "$tmp/noword.out")" = "janggun-match: error: option --sprt needs elo0=E elo1=E [alpha=A] [beta=B]" ] \
  && [ "$rc" -eq 2 ] && pass "--sprt without its words is refused with its exact message" \
  || fail "--sprt without its words is refused with its exact message" "$(cat "$tmp/noword.out")"
run badkey --engine "cmd=$fake" nmae=A --engine "cmd=$fake" name=B --nodes 10
grep -q "unknown engine setting 'nmae'" "$tmp/badkey.out" && [ "$rc" -eq 2 ] && pass "an unknown engine setting is an error" \
  || fail "an unknown engine setting is an error" "$(cat "$tmp/badkey.out")"

# ---- the statistics' reference values ----

if out=$(python3 "$root/tests/match_reference.py" --check 2>&1); then
  pass "tests/match_reference.py reproduces every Elo, LOS and SPRT reference value of test_match.c"
else fail "tests/match_reference.py reproduces every Elo, LOS and SPRT reference value of test_match.c" "$(tail -3 <<<"$out")"; fi

# ---- real engines ----

# Without --openings the games start from the built-in openings file, shuffled by the seed.
"$match" --engine "cmd=$bin" name=J1 --engine "cmd=$bin" name=J2 --nodes 100 --games 2 --pgn "$tmp/default.pgn" \
  >"$tmp/default.out" 2>&1; rc=$?
book=$(movetext "$tmp/default.pgn" 1 | grep -o '[a-i][0-9]*[a-i][0-9]* {book}' | sed 's/ {book}//' | tr '\n' ' ')
fen=$(tag "$tmp/default.pgn" 1 FEN)
lines=$(grep -vc '^#' "$root/bench/data/openings.epd")
if [ "$rc" -eq 0 ] && grep -q "$lines openings shuffled (the built-in bench/data/openings.epd)" "$tmp/default.out" \
   && [ "$(echo "$book" | wc -w)" -eq 8 ] && grep -qxF "$fen moves ${book% }" "$root/bench/data/openings.epd"; then
  pass "the default openings: the built-in bench/data/openings.epd, 8 book plies of a line of that file"
else fail "the default openings: the built-in bench/data/openings.epd, 8 book plies of a line of that file" \
  "$(head -3 "$tmp/default.out")" "fen: $fen" "book: $book"; fi
for v in janggi janggitraditional janggimodern janggicasual; do
  "$match" --openings builtin order=sequential --variant $v --save-openings "$tmp/saved.epd" >"$tmp/saved.out" 2>&1; rc=$?
  if [ "$rc" -eq 0 ] && grep -q "^# Left out: 0 already over, 0 too short, 0 illegal under $v rules, 0 reaching" "$tmp/saved.epd" \
     && diff <(grep -v '^#' "$tmp/saved.epd") <(grep -v '^#' "$root/bench/data/openings.epd") >/dev/null; then
    pass "the shipped openings replay under $v rules, none left out (--save-openings writes them back unchanged)"
  else fail "the shipped openings replay under $v rules, none left out (--save-openings writes them back unchanged)" \
    "$(cat "$tmp/saved.out")" "$(head -3 "$tmp/saved.epd")"; fi
done

fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}

run real --engine "cmd=$bin" name=Janggun --engine "cmd=$fsf" name=FSF --each option.Hash=16 option.Threads=1 \
  --nodes 300 --games 2 --openings setups --concurrency 2
n=$(grep -c '^Finished game' "$tmp/real.out")
bad=$(grep '^Finished game' "$tmp/real.out" | grep -c 'time forfeit\|illegal move\|crash\|hang')
if [ "$rc" -eq 0 ] && [ "$n" -eq 2 ] && [ "$bad" -eq 0 ]; then
  pass "janggun against fairy-stockfish at 300 nodes: 2 games, both ended by the rules"
else fail "janggun against fairy-stockfish at 300 nodes: 2 games, both ended by the rules" "$(cat "$tmp/real.out")"; fi
run realucci --engine "cmd=$bin" name=J1 proto=ucci --engine "cmd=$bin" name=J2 --nodes 200 --games 2 --variant janggimodern
n=$(grep -c '^Finished game' "$tmp/realucci.out")
bad=$(grep '^Finished game' "$tmp/realucci.out" | grep -c 'time forfeit\|illegal move\|crash\|hang')
if [ "$rc" -eq 0 ] && [ "$n" -eq 2 ] && [ "$bad" -eq 0 ]; then
  pass "janggun under UCCI against janggun under UCI (janggimodern): 2 games ended by the rules"
else fail "janggun under UCCI against janggun under UCI (janggimodern): 2 games ended by the rules" "$(cat "$tmp/realucci.out")"; fi

# ---- pondering ----

run ponder --engine "cmd=$bin" name=Janggun ponder=on option.Threads=2 --engine "cmd=$fsf" name=FSF \
  --each option.Hash=16 --nodes 300 --games 2 --openings setups
n=$(grep -c '^Finished game' "$tmp/ponder.out")
bad=$(grep '^Finished game' "$tmp/ponder.out" | grep -c 'time forfeit\|illegal move\|crash\|hang')
if [ "$rc" -eq 0 ] && [ "$n" -eq 2 ] && [ "$bad" -eq 0 ] && grep -q '^Ponder: [0-9]* hits, [0-9]* misses' "$tmp/ponder.out"
then pass "ponder=on: janggun with 2 threads pondering against fairy-stockfish, 2 games ended by the rules"
else fail "ponder=on: janggun with 2 threads pondering against fairy-stockfish, 2 games ended by the rules" \
  "$(tail -20 "$tmp/ponder.out")"; fi
# Every go ponder is ended by ponderhit exactly when the opponent played the move pondered on, by stop
# otherwise; a hit's bestmove is the engine's move, a stale one after stop never is.
if python3 - "$tmp/ponder.log" "$tmp/ponder.out" <<'EOP'
import re, sys
lines = [m.groups() for m in (re.match(r'^ *[0-9.]+ [0-9]+ (\S+) ([<>!]) (.*)$', l) for l in open(sys.argv[1])) if m]
ponder_pos = None    # Janggun's moves while it ponders
last_fsf_move = None
hits = misses = 0
expect_stale = False
for who, d, text in lines:
    if who == 'FSF' and d == '<' and text.startswith('bestmove '):
        last_fsf_move = text.split()[1]
    if who != 'Janggun':
        continue
    if d == '>' and text.startswith('position '):
        assert ponder_pos is None or expect_stale, 'position while pondering: ' + text
        cur = text.split(' moves ')[1].split() if ' moves ' in text else []
    elif d == '>' and text.startswith('go ponder'):
        ponder_pos = cur
    elif d == '>' and text == 'ponderhit':
        assert ponder_pos is not None, 'ponderhit without go ponder'
        assert ponder_pos[-1] == last_fsf_move, 'ponderhit on %s, but FSF played %s' % (ponder_pos[-1], last_fsf_move)
        ponder_pos = None; hits += 1
    elif d == '>' and text == 'stop' and ponder_pos is not None:
        expect_stale = True; ponder_pos = None; misses += 1
    elif d == '<' and text.startswith('bestmove') and expect_stale:
        expect_stale = False
assert hits > 0 and misses > 0, (hits, misses)
m = re.search(r'^Ponder: (\d+) hits, (\d+) misses', open(sys.argv[2]).read(), re.M)
# A stop at a game's end is no miss: the runner's misses are those stopped by another move.
assert int(m.group(1)) == hits and int(m.group(2)) <= misses, (m.groups(), hits, misses)
EOP
then pass "ponder=on: ponderhit exactly when the move pondered on was played, stop otherwise (the traffic checked)"
else fail "ponder=on: ponderhit exactly when the move pondered on was played, stop otherwise (the traffic checked)" \
  "$(grep -m 40 'Janggun >' "$tmp/ponder.log")"; fi
run badponder --engine "cmd=$bin" ponder=yes --engine "cmd=$bin" --nodes 300
if [ "$rc" -eq 2 ] && grep -q "ponder must be on or off, not 'yes'" "$tmp/badponder.out"
then pass "ponder=yes is refused with a message"; else fail "ponder=yes is refused with a message" "$(cat "$tmp/badponder.out")"; fi

# ---- interrupted and restarted: the PGN file holds whole games only ----

# started NAME SIGNAL GAMES SEED: a janggun-match run (concurrency 2, openings shuffled by SEED, appending
# to $tmp/restart.pgn) sent SIGNAL once GAMES games have finished; its output in $tmp/NAME.out, exit
# status in $rc.
started() {
  local name=$1 sig=$2 games=$3 seed=$4 pid waited=0
  : >"$tmp/$name.out" # before the runner opens it, so that the count below reads 0, not nothing
  "$match" --engine "cmd=$bin" name=J1 --engine "cmd=$bin" name=J2 --each option.Hash=4 --nodes 200 --games 40 \
    --concurrency 2 --seed "$seed" --pgn "$tmp/restart.pgn" >"$tmp/$name.out" 2>&1 &
  pid=$!
  while [ "$(grep -c '^Finished game' "$tmp/$name.out")" -lt "$games" ] && [ $waited -lt 600 ]; do
    sleep 0.1; waited=$((waited + 1))
  done
  kill -s "$sig" $pid
  { wait $pid; } 2>/dev/null
  rc=$?
}
rm -f "$tmp/restart.pgn"
started int INT 3 5
int_games=$(grep -c '^Finished game' "$tmp/int.out")
if [ "$rc" -eq 1 ] && grep -q '^Interrupted after' "$tmp/int.out" && [ "$int_games" -ge 3 ] && [ "$int_games" -lt 40 ]
then pass "janggun-match --concurrency 2 interrupted by SIGINT: exit status 1, the standings of the games played"
else fail "janggun-match --concurrency 2 interrupted by SIGINT: exit status 1, the standings of the games played" \
  "rc $rc" "$(tail -5 "$tmp/int.out")"; fi
started killed KILL 2 6
killed_games=$(grep -c '^Finished game' "$tmp/killed.out")
run restarted --engine "cmd=$bin" name=J1 --engine "cmd=$bin" name=J2 --each option.Hash=4 --nodes 200 --games 2 \
  --concurrency 2
cp "$tmp/restarted.pgn" "$tmp/restarted-own.pgn"; cat "$tmp/restarted.pgn" >>"$tmp/restart.pgn"
in_file=$(grep -c '^\[Event ' "$tmp/restart.pgn")
analyzed=$("$bin" analyze --pgn "$tmp/restart.pgn" --depth 1 --json --no-progress 2>"$tmp/restart.err" | grep -c '"type":"game"')
results=$(grep -cE '(1-0|0-1|1/2-1/2) *$' "$tmp/restart.pgn")
printed=$((int_games + killed_games + 2))
if [ "$rc" -eq 0 ] && [ "$analyzed" -eq "$in_file" ] && [ "$results" -eq "$in_file" ] && [ ! -s "$tmp/restart.err" ] \
  && [ "$in_file" -ge "$printed" ] && [ "$in_file" -le $((printed + 1)) ]; then
  pass "interrupted (SIGINT), killed (SIGKILL) and restarted: $in_file whole games in the PGN, each read back by janggun analyze"
else fail "interrupted (SIGINT), killed (SIGKILL) and restarted: whole games in the PGN, each read back by janggun analyze" \
  "rc $rc; $in_file in the file, $analyzed read, $results results, $printed finished" "$(head -5 "$tmp/restart.err")"; fi

out=$("$bin" bench 4 2>&1)
if python3 - "$out" <<'EOP'
import re, sys
# OpenBench's client (bench.py parse_stream_output): the last lines first, non-alphanumerics as spaces.
nps = bench = None
for line in sys.argv[1].strip().split('\n')[::-1]:
    line = re.sub(r'[^a-zA-Z0-9 ]+', ' ', line)
    n = re.search(r'([0-9]+ NPS)|(NPS[ ]+[0-9]+)', line.upper())
    b = re.search(r'([0-9]+ NODES)|(NODES[ ]+[0-9]+)', line.upper())
    if not nps and n: nps = n.group()
    if not bench and b: bench = b.group()
want = re.search(r'^Nodes searched: (\d+)$', sys.argv[1], re.M).group(1)
sys.exit(0 if bench and nps and re.sub(r'[^0-9]', '', bench) == want else 1)
EOP
then pass "janggun bench: OpenBench's patterns find the node count and the speed"
else fail "janggun bench: OpenBench's patterns find the node count and the speed" "$out"; fi

[ "$fails" -eq 0 ]

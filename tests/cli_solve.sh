#!/usr/bin/env bash
# Tests of janggun-match --solve, the positions test: a tiny EPD put to janggun and Debian's
# fairy-stockfish at a fixed depth (so the counts are exact whatever the machine's load) and to
# scripted engines (tests/fake_engine.sh) that play a fixed move, crash or hang; the per-position lines,
# the counts, the pairwise comparison, the --failed file, what is sent to the engines, a position given
# with moves, the shipped sets (bench/data/positions.epd, janggun-positions.epd, agreed-positions.epd),
# and the errors of the EPD file and of the command line.
# usage: bash tests/cli_solve.sh BINARY   (BINARY is ./janggun; janggun-match is found beside it)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_solve.sh "$@"
match=$(match_binary)
root="$(cd "$(dirname "$0")/.." && pwd)"
fake="$root/tests/fake_engine.sh"
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
need_executable "$match"

MATE_FEN='3k5/3aa4/9/9/9/9/9/9/4K4/R8 w - - 0 1'
MOVES_FEN='3k5/3aa4/9/8p/9/9/9/9/4K4/1R7 w - - 0 1'
cat >"$tmp/tiny.epd" <<EOT
# a mate in one; the same with a wrong best move; two best moves, one in SAN; the mate after two moves
$MATE_FEN bm a1a10; id "mate";
$MATE_FEN bm e2e1; id "wrong";

$MATE_FEN bm Ra10 e2e1; ce 30000; id "two";
$MOVES_FEN moves b1a1 i7i6; bm a1a10; id "moves";
EOT

# run NAME ARGS...: janggun-match ARGS, its output in $tmp/NAME.out (stdout and stderr), the exit status in $rc.
run() {
  local name=$1; shift
  "$match" "$@" >"$tmp/$name.out" 2>&1
  rc=$?
}

# check TEST NAME WANT: the output of run NAME, from its first line that starts with "Positions solved",
# is exactly WANT.
check() {
  local got
  got=$(sed -n '/^Positions solved/,$p' "$tmp/$2.out")
  if [ "$rc" -eq 0 ] && [ "$got" = "$3" ]; then pass "$1"
  else fail "$1" "exit status $rc" "got:" "$(cat "$tmp/$2.out")" "want:" "$3"; fi
}

# ---- real engines at a fixed depth ----

run real --solve "$tmp/tiny.epd" --engine "cmd=$bin" name=Janggun --engine "cmd=$fsf" name=FSF \
  --each option.Hash=16 option.Threads=1 --depth 4 --failed "$tmp/failed.tsv" --log "$tmp/real.log"
check "janggun and fairy-stockfish at depth 4: the counts, the comparison and the positions missed" real \
"Positions solved (4 from $tmp/tiny.epd, janggi rules, depth=4):
Janggun: 3 of 4 (75.0%)
FSF: 3 of 4 (75.0%)
Janggun and FSF: 0 solved by Janggun only, 0 by FSF only, 3 by both, 1 by neither
Not solved by Janggun (1): wrong
Not solved by FSF (1): wrong"
got=$(grep -v '^Positions\|^Not\|^Janggun and\|^$' "$tmp/real.out" | sed 's/ ([^)]*s)//')
want="janggun-match: 4 positions from $tmp/tiny.epd, 2 engines one after the other, janggi rules, depth=4 a position
Janggun 1/4 \"mate\": a1a10: solved
Janggun 2/4 \"wrong\": a1a10: not solved (bm e2e1)
Janggun 3/4 \"two\": a1a10: solved
Janggun 4/4 \"moves\": a1a10: solved
FSF 1/4 \"mate\": a1a10: solved
FSF 2/4 \"wrong\": a1a10: not solved (bm e2e1)
FSF 3/4 \"two\": a1a10: solved
FSF 4/4 \"moves\": a1a10: solved
Janggun: 3 of 4 (75.0%)
FSF: 3 of 4 (75.0%)"
[ "$got" = "$want" ] && pass "a line per engine and position, janggun first, then fairy-stockfish" \
  || fail "a line per engine and position, janggun first, then fairy-stockfish" "got:" "$got" "want:" "$want"
if grep -q '^Janggun 1/4 "mate": a1a10 (+M1/4, [0-9.]* s): solved$' "$tmp/real.out"; then
  pass "each line gives the engine's score and depth (+M1/4) and its time"
else fail "each line gives the engine's score and depth (+M1/4) and its time" "$(grep '1/4' "$tmp/real.out")"; fi
want=$(printf '# engine\tid\tplayed\tbm\nJanggun\twrong\ta1a10\te2e1\nFSF\twrong\ta1a10\te2e1')
[ "$(cat "$tmp/failed.tsv")" = "$want" ] && pass "--failed: one line per engine and position not solved" \
  || fail "--failed: one line per engine and position not solved" "$(cat "$tmp/failed.tsv")"

sent=$(grep ' Janggun > ' "$tmp/real.log" | sed 's/.*> //' | tr '\n' '|')
want="uci|setoption name Hash value 16|setoption name Threads value 1|setoption name UCI_Variant value janggi|isready|"
want+="ucinewgame|isready|position fen $MATE_FEN|go depth 4|"
want+="ucinewgame|isready|position fen $MATE_FEN|go depth 4|"
want+="ucinewgame|isready|position fen $MATE_FEN|go depth 4|"
want+="ucinewgame|isready|position fen $MOVES_FEN moves b1a1 i7i6|go depth 4|quit|"
[ "$sent" = "$want" ] && pass "what janggun is sent: the handshake once, then ucinewgame, position and go for each position" \
  || fail "what janggun is sent: the handshake once, then ucinewgame, position and go for each position" \
    "got:  $sent" "want: $want"
first_fsf=$(grep -n ' FSF ! started' "$tmp/real.log" | cut -d: -f1)
last_janggun=$(grep -n ' Janggun ' "$tmp/real.log" | tail -1 | cut -d: -f1)
[ "$(grep -c ' ! started' "$tmp/real.log")" -eq 2 ] && [ "$first_fsf" -gt "$last_janggun" ] \
  && pass "the engines run one after the other: each started once, fairy-stockfish after janggun has quit" \
  || fail "the engines run one after the other: each started once, fairy-stockfish after janggun has quit" \
    "$(grep ' ! ' "$tmp/real.log")"

run one --solve "$tmp/tiny.epd" --engine "cmd=$bin" name=Janggun --nodes 2000 --log "$tmp/one.log"
check "one engine at 2,000 nodes" one \
"Positions solved (4 from $tmp/tiny.epd, janggi rules, nodes=2000):
Janggun: 3 of 4 (75.0%)
Not solved by Janggun (1): wrong"
[ "$(grep -c '> go nodes 2000$' "$tmp/one.log")" -eq 4 ] && pass "--nodes 2000: go nodes 2000" \
  || fail "--nodes 2000: go nodes 2000" "$(grep '> go' "$tmp/one.log")"

# ---- scripted engines: a fixed move, illegal moves, crashes, a hang ----

run fakes --solve "$tmp/tiny.epd" --engine "cmd=$fake a1a10 - e2e1" name=A --engine "cmd=$fake crash - crash" name=B \
  --engine "cmd=$fake a1b2 - a1b2" name=C --nodes 100 --log "$tmp/fakes.log"
check "scripted engines: a fixed move, a crash every time, an illegal move" fakes \
"Positions solved (4 from $tmp/tiny.epd, janggi rules, nodes=100):
A: 2 of 4 (50.0%)
B: 0 of 4 (0.0%); 0 illegal moves, 0 without a move, 0 out of time, 4 crashes
C: 0 of 4 (0.0%); 4 illegal moves, 0 without a move, 0 out of time, 0 crashes
A and B: 2 solved by A only, 0 by B only, 0 by both, 2 by neither
A and C: 2 solved by A only, 0 by C only, 0 by both, 2 by neither
B and C: 0 solved by B only, 0 by C only, 0 by both, 4 by neither
Not solved by A (2): wrong, moves
Not solved by B (4): mate, wrong, two, moves
Not solved by C (4): mate, wrong, two, moves"
if grep -q '^A 4/4 "moves": e2e1 (+0.00/1, [0-9.]* s): not solved (bm a1a10)$' "$tmp/fakes.out" \
   && grep -q '^B 1/4 "mate": crashed: killed by signal 11 (Segmentation fault) while waiting for a move: not solved (bm a1a10)$' "$tmp/fakes.out" \
   && grep -q '^C 1/4 "mate": a1b2, an illegal move (+0.00/1, [0-9.]* s): not solved (bm a1a10)$' "$tmp/fakes.out"; then
  pass "the lines of a position given with moves (the engine sees them), a crash and an illegal move"
else fail "the lines of a position given with moves (the engine sees them), a crash and an illegal move" "$(cat "$tmp/fakes.out")"; fi
[ "$(grep -c ' B ! started' "$tmp/fakes.log")" -eq 4 ] && pass "a crashed engine is started again for the next position" \
  || fail "a crashed engine is started again for the next position" "$(grep ' B ! ' "$tmp/fakes.log")"

head -2 "$tmp/tiny.epd" >"$tmp/one.epd"
run hang --solve "$tmp/one.epd" --engine "cmd=$fake hang" name=H --st 0.2 --margin 100 --log "$tmp/hang.log"
check "a fixed time a position: an engine that does not answer within the time and margin misses it" hang \
"Positions solved (1 from $tmp/one.epd, janggi rules, st=0.2):
H: 0 of 1 (0.0%); 0 illegal moves, 0 without a move, 1 out of time, 0 crashes
Not solved by H (1): mate"
grep -q '^H 1/1 "mate": no move within 0.300 s: not solved (bm a1a10)$' "$tmp/hang.out" \
  && grep -q '> go movetime 200$' "$tmp/hang.log" && grep -q '> stop$' "$tmp/hang.log" \
  && pass "--st 0.2: go movetime 200, stop after 0.3 s" || fail "--st 0.2: go movetime 200, stop after 0.3 s" \
    "$(cat "$tmp/hang.out")" "$(cat "$tmp/hang.log")"

# ---- the shipped positions ----

# Every line of each shipped set reads (a legal bm, the game not over), in its form; the count in its
# header is its number of positions.
shipped_set() {  # NAME HEADER LINE-PATTERN FIELDS
  local name=$1 header=$2 pattern=$3 fields=$4 file n
  file="$root/bench/data/$name"
  n=$(grep -vc '^#' "$file")
  run "$name" --solve "$file" --engine "cmd=$fake none" name=N --nodes 1
  if [ "$rc" -eq 0 ] && grep -q "^N: 0 of $n (0.0%); 0 illegal moves, $n without a move" "$tmp/$name.out" \
     && grep -q "^# $header: $n positions " "$file" \
     && [ "$(grep -v '^#' "$file" | grep -c "$pattern")" -eq "$n" ]; then
    pass "bench/data/$name: all $n positions read, each line with $fields"
  else fail "bench/data/$name: all $n positions read, each line with $fields" \
    "$(head -3 "$tmp/$name.out")" "$(tail -3 "$tmp/$name.out")"; fi
}
labelled=' bm [a-i][0-9]*[a-i][0-9]*; ce -\?[0-9]*; acd [0-9]*; c0 "[^"]*"; c1 "played [a-i0-9]*"; id "game [0-9]* ply [0-9]*";$'
shipped_set positions.epd 'Tournament positions for janggun-match --solve' "$labelled" 'bm, ce, acd, c0, c1 and id'
shipped_set janggun-positions.epd 'Tournament positions for janggun-match --solve' "$labelled" \
  'bm, ce, acd, c0, c1 and id'
shipped_set agreed-positions.epd 'Agreed tournament positions for janggun-match --solve' \
  ' bm [a-i][0-9]*[a-i][0-9]*; c0 "Fairy-Stockfish [^"]* / Janggun [^"]*"; c1 "played [a-i0-9]*"; c2 "labelled by [^"]*"; id "game [0-9]* ply [0-9]*";$' \
  'bm, both engines in c0, c1, c2 and id'

# ---- the labeller's engines (bench/label_positions.py) ----

# FSF is set to its classical evaluation; Janggun, which offers an option of the same name, keeps its
# net; each engine's evaluation is named for the files the labeller writes.
cat >"$tmp/fake_fsf.sh" <<'EOT'
#!/usr/bin/env bash
while read -r line; do
  case $line in
    uci) printf '%s\n' 'id name Fairy-Stockfish 0 test' 'option name Use NNUE type check default true' \
           'option name Threads type spin default 1 min 1 max 512' uciok ;;
    isready) echo readyok ;;
    quit) exit 0 ;;
  esac
done
EOT
chmod +x "$tmp/fake_fsf.sh"
net=$(cd "$root/nets" && ls janggun-*.nnue)
labeller_options=$(python3 - "$root/bench/label_positions.py" "$root/janggun" "$tmp/fake_fsf.sh" 2>&1 <<'EOP'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('label_positions', sys.argv[1])
lp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lp)
send, sent = lp.Engine.send, []
def record(self, line):
    if line.startswith('setoption'):
        sent.append('%s: %s' % (self.name.split()[0], line))
    send(self, line)
lp.Engine.send = record
engines = [lp.Engine(path, 16) for path in sys.argv[2:]]
print('\n'.join(sent))
for engine in engines:
    print('%s: %s' % (engine.name.split()[0], engine.evaluation))
    engine.quit()
EOP
)
want="Janggun: setoption name Threads value 1
Janggun: setoption name Hash value 16
Janggun: setoption name MultiPV value 2
Janggun: setoption name UCI_Variant value janggi
Fairy-Stockfish: setoption name Threads value 1
Fairy-Stockfish: setoption name Use NNUE value false
Janggun: net $net
Fairy-Stockfish: classical evaluation"
[ "$labeller_options" = "$want" ] \
  && pass "label_positions.py: Use NNUE false for FSF only, each engine's evaluation named" \
  || fail "label_positions.py: Use NNUE false for FSF only, each engine's evaluation named" \
    "got:  $labeller_options" "want: $want"

# ---- errors ----

# bad NAME TEST MESSAGE ARGS...: janggun-match ARGS fails with exit status 2 and exactly MESSAGE.
bad() {
  local name=$1 test=$2 message=$3; shift 3
  run "$name" "$@"
  if [ "$rc" -eq 2 ] && [ "$(cat "$tmp/$name.out")" = "$message" ]; then pass "$test"
  else fail "$test" "exit status $rc" "got:  $(cat "$tmp/$name.out")" "want: $message"; fi
}

printf '%s id "x";\n' "$MATE_FEN" >"$tmp/nobm.epd"
bad nobm "a position without bm is an error with its file and line" \
  "janggun-match: error: $tmp/nobm.epd:1: no bm operation (the best moves)" \
  --solve "$tmp/nobm.epd" --engine "cmd=$fake" --depth 1
printf '\n%s bm a1a10;\n%s bm a1a9 b1b2;\n' "$MATE_FEN" "$MATE_FEN" >"$tmp/badbm.epd"
bad badbm "an illegal bm move is an error with its file and line" \
  "janggun-match: error: $tmp/badbm.epd:3: bm: illegal move 'b1b2'" \
  --solve "$tmp/badbm.epd" --engine "cmd=$fake" --depth 1
printf '%s moves e2e2 d10d10; bm a1a10;\n' "$MATE_FEN" >"$tmp/over.epd"
bad over "a position where the game is over is an error" \
  "janggun-match: error: $tmp/over.epd:1: the game is already over in this position" \
  --solve "$tmp/over.epd" --engine "cmd=$fake" --depth 1
printf '# nothing\n' >"$tmp/empty.epd"
bad empty "a file without positions is an error" "janggun-match: error: $tmp/empty.epd: no positions" \
  --solve "$tmp/empty.epd" --engine "cmd=$fake" --depth 1
bad missing "a missing file is an error" \
  "janggun-match: error: cannot open '$tmp/none.epd': No such file or directory" \
  --solve "$tmp/none.epd" --engine "cmd=$fake" --depth 1
bad tc "--tc does not apply to --solve" \
  "janggun-match: error: --solve plays no games and runs one engine at a time: --tc does not apply" \
  --solve "$tmp/tiny.epd" --engine "cmd=$fake" --tc 10+0.1
bad concurrency "--concurrency does not apply to --solve" \
  "janggun-match: error: --solve plays no games and runs one engine at a time: --concurrency does not apply" \
  --solve "$tmp/tiny.epd" --engine "cmd=$fake" --depth 1 --concurrency 2
bad nolimit "--solve needs --st, --nodes or --depth" \
  "janggun-match: error: nothing limits a search: give --st, --nodes or --depth" \
  --solve "$tmp/tiny.epd" --engine "cmd=$fake"
bad noengine "--solve needs an engine" "janggun-match: error: give at least one engine (--engine cmd=... ...)" \
  --solve "$tmp/tiny.epd" --depth 1
bad failed "--failed needs --solve" "janggun-match: error: --failed needs --solve" \
  --engine "cmd=$fake" name=A --engine "cmd=$fake" name=B --depth 1 --failed "$tmp/f.tsv"
bad badfailed "a --failed file that cannot be written stops the test before any engine starts" \
  "janggun-match: error: cannot write '$tmp/no/f.tsv': No such file or directory" \
  --solve "$tmp/tiny.epd" --engine "cmd=$fake" --depth 1 --failed "$tmp/no/f.tsv"

[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# Faults a GUI causes, for `janggun`'s protocol loop: the GUI dies (standard output broken or closed,
# standard input closed during a search), SIGTERM, SIGINT and SIGHUP during a search and while the reading
# thread is busy, and commands in bursts (10,000 isready; position/go/stop cycles without waiting; go
# while a go runs), where every go must get exactly one bestmove, in order, and Hash changes up to a size
# the machine cannot give. The sanitizer builds run these too (make test-asan, make test-tsan).
# usage: bash tests/cli_faults.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_faults.sh "$@"
need_executable "$bin"

# start_engine: janggun reading the fifo $tmp/in (held open on descriptor 3, so that its input stays
# open until close_input) and writing $tmp/out and $tmp/err; its process in $pid.
start_engine() {
  rm -f "$tmp/in" "$tmp/out" "$tmp/err"
  mkfifo "$tmp/in"
  "$bin" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  exec 3>"$tmp/in"
}
# Written from a subshell that ignores SIGPIPE: once the engine has gone (as several checks intend), a
# write to the fifo fails instead of killing this script.
send() { (trap '' PIPE; printf '%s\n' "$@" >&3) 2>/dev/null; }
close_input() { exec 3>&- 2>/dev/null; }

# wait_for N REGEX [TENTHS]: until N lines of $tmp/out match REGEX (false after TENTHS tenths of a second, 300 by default).
# (The engine's shell opens $tmp/out only once the fifo has a writer, so the file may not exist yet: 0.)
wait_for() {
  local n=$1 re=$2 limit=${3:-300} i=0 got
  while got=$(grep -acE -- "$re" "$tmp/out" 2>/dev/null); [ "${got:-0}" -lt "$n" ]; do
    sleep 0.1
    i=$((i + 1))
    [ $i -lt "$limit" ] || return 1
  done
}

# wait_exit TENTHS: the engine's exit status in $rc ("hang" when it is still running after TENTHS tenths of
# a second; it is killed then) and the seconds it took in $took.
wait_exit() {
  local limit=$1 i=0 start
  start=$(date +%s.%N)
  while kill -0 "$pid" 2>/dev/null && [ $i -lt "$limit" ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rc=hang
  else
    wait "$pid"; rc=$?
  fi
  took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  close_input
}

# check NAME CONDITION...: PASS when every CONDITION (a test expression) holds, else FAIL with the output.
check() {
  local name=$1; shift
  if "$@"; then pass "$name"; else
    fail "$name" "exit status: $rc, after ${took}s" "stdout (last lines):"; tail -n 8 "$tmp/out" | sed 's/^/    | /'
    echo "  stderr:"; show "$tmp/err" | head -10
  fi
}
below() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x < y) }'; }
bestmoves() { grep -ac '^bestmove' "$tmp/out"; }
# "yes" when the bestmoves alternate Cho's, Han's, Cho's...: each move's origin on ranks 1-4 (Cho's at the
# start) or 7-10 (Han's).
bestmoves_alternate() {
  # The rank from the move's digits only: as a number, "2e1" of e2e1 would read as 20.
  grep -a '^bestmove' "$tmp/out" | awk '{ r = match($2, /^[a-i][0-9]+/) ? substr($2, 2, RLENGTH - 1) + 0 : 0;
    want = (NR % 2 == 1) ? "cho" : "han";
    side = (r >= 1 && r <= 4) ? "cho" : (r >= 7 && r <= 10) ? "han" : "?"; if (side != want) bad++ }
    END { print (NR > 0 && bad == 0) ? "yes" : "no" }'
}
no_stderr() { [ ! -s "$tmp/err" ]; }

# --- The GUI sends a signal -------------------------------------------------------------------------------

for sig in TERM INT HUP; do
  start_engine
  send uci "go infinite"
  wait_for 1 '^info depth 3 '
  kill -s "$sig" "$pid"
  wait_exit 100
  check "SIG$sig during go infinite: the search stops, its bestmove is written, exit status 0 (at once, not after the grace)" \
    eval '[ "$rc" = 0 ] && [ "$(bestmoves)" = 1 ] && [ "$(tail -n 1 "$tmp/out" | cut -c1-9)" = "bestmove " ] && no_stderr'
done

start_engine
send xboard "protover 2" analyze
wait_for 1 '^3 -?[0-9]+ ' 300
kill -s TERM "$pid"
wait_exit 100
check "SIGTERM during XBoard analysis: exit status 0 at once" eval '[ "$rc" = 0 ] && no_stderr'

# The reading thread is busy (go perft runs on it): the grace of HANGUP_GRACE_S (5) seconds ends it.
# ThreadSanitizer delivers a signal only when the thread it lands on next calls into the C library,
# which a thread deep in perft never does: there the grace cannot start, so the check is left out.
if [ "${bin%-tsan}" != "$bin" ]; then
  echo "SKIP SIGTERM while the reading thread is busy in go perft (not under ThreadSanitizer)"
else
start_engine
send "go perft 9"
sleep 0.3
kill -s TERM "$pid"
wait_exit 150
check "SIGTERM while the reading thread is busy in go perft: ended after the grace, status 143 (128 + SIGTERM)" \
  eval '[ "$rc" = 143 ] && below "$took" 10 && no_stderr'
fi

start_engine
send "go perft 9"
sleep 0.3
kill -s TERM "$pid"
sleep 0.3
kill -s TERM "$pid"
wait_exit 30
check "a second SIGTERM ends the engine at once (its default action: status 143)" \
  eval '[ "$rc" = 143 ] && below "$took" 2'

# --- The GUI dies ---------------------------------------------------------------------------------------

# Standard input closed during a search: the end of input stops it.
start_engine
send uci "go infinite"
wait_for 1 '^info depth 3 '
close_input
wait_exit 100
check "standard input closed during go infinite: bestmove written, exit status 0" \
  eval '[ "$rc" = 0 ] && [ "$(bestmoves)" = 1 ] && no_stderr'

# Standard output a pipe whose reader goes away during a search, standard input still open: the first
# failed write ends the session.
rm -f "$tmp/in"; mkfifo "$tmp/in"
("$bin" <"$tmp/in" 2>"$tmp/err"; echo $? >"$tmp/rc") | head -n 3 >"$tmp/out" &
exec 3>"$tmp/in"
send uci "go infinite"
i=0
while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do
  sleep 0.1; i=$((i + 1))
  ((i % 5 == 0)) && send isready # something to write even when the search is slow to print
done
rc=$(cat "$tmp/rc" 2>/dev/null || echo hang); took="$i tenths"
[ "$rc" != hang ] || pkill -9 -f "^$bin\$" 2>/dev/null
close_input
wait
check "standard output a broken pipe during go infinite (the reader gone, input still open): exit status 0 within 10 s" \
  eval '[ "$rc" = 0 ] && no_stderr'

# Standard output closed from the start: the identification line fails, the session ends.
rm -f "$tmp/in"; mkfifo "$tmp/in"
"$bin" <"$tmp/in" >&- 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/in"
send uci "go infinite"
wait_exit 100
check "standard output closed: exit status 0 without waiting for the end of input" eval '[ "$rc" = 0 ] && no_stderr'

# --- Bursts ----------------------------------------------------------------------------------------------

start_engine
yes isready | head -n 10000 >&3
send "go depth 2"
wait_for 1 '^bestmove' 600
n=$(grep -ac '^readyok$' "$tmp/out")
close_input
wait_exit 100
check "10,000 isready at once: 10,000 readyok, then the search of the go after them" \
  eval '[ "$n" = 10000 ] && [ "$rc" = 0 ] && [ "$(bestmoves)" = 1 ] && [ "$(tail -n 1 "$tmp/out" | cut -c1-9)" = "bestmove " ]'

# position/go/stop cycles sent without waiting: Cho to move in the even cycles, Han in the odd ones, so
# each bestmove's origin (ranks 1-4 Cho's, 7-10 Han's at the start) says which go it answers.
cycles=300
{
  for ((c = 0; c < cycles; c++)); do
    if ((c % 2 == 0)); then echo "position startpos"; else echo "position startpos moves h1g3"; fi
    if ((c % 3 == 0)); then echo "go infinite"; elif ((c % 3 == 1)); then echo "go depth 4"; else echo "go nodes 300"; fi
    echo stop
  done
} >"$tmp/cycles"
start_engine
cat "$tmp/cycles" >&3
wait_for $cycles '^bestmove' 1200
close_input
wait_exit 100
order_ok=$(bestmoves_alternate)
check "$cycles position/go/stop cycles without waiting (go infinite, depth 4, nodes 300): $cycles bestmoves, each for its own position" \
  eval '[ "$rc" = 0 ] && [ "$(bestmoves)" = $cycles ] && [ "$order_ok" = yes ] && no_stderr'

# go while a go runs: the running search stops and answers first, then the new one runs.
{
  for ((c = 0; c < 100; c++)); do
    if ((c % 2 == 0)); then echo "position startpos"; else echo "position startpos moves h1g3"; fi
    if ((c % 2 == 0)); then echo "go infinite"; else echo "go depth 3"; fi
  done
  echo stop
} >"$tmp/gogo"
start_engine
cat "$tmp/gogo" >&3
wait_for 100 '^bestmove' 1200
close_input
wait_exit 100
order_ok=$(bestmoves_alternate)
notes=$(grep -ac '^info string go while a search runs: that search is stopped and answers first$' "$tmp/out")
check "100 go sent while a go runs: 100 bestmoves in order, each stopped search noted" \
  eval '[ "$rc" = 0 ] && [ "$(bestmoves)" = 100 ] && [ "$order_ok" = yes ] && [ "$notes" -ge 50 ] && no_stderr'

# Hash changes in a session: every size the machine can give is taken (a search after each); one it cannot
# give is refused with a clear error and the old table kept (the sanitizer builds too).
mem_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo)
start_engine
send uci
sizes="1 64 512 2 1024 16"
n=0
for s in $sizes; do
  send "setoption name Hash value $s" isready "go depth 6"
  n=$((n + 1))
  wait_for $n '^bestmove' 600 || break
done
if [ "$mem_mb" -lt 60000 ]; then
  send "setoption name Hash value 65536" isready "go depth 6"
  wait_for $((n + 1)) '^bestmove' 600
  send "setoption name Hash value 32" isready "go depth 6"
  wait_for $((n + 2)) '^bestmove' 600
fi
close_input
wait_exit 100
errors=$(grep -ac '^info string error' "$tmp/out")
if [ "$mem_mb" -lt 60000 ]; then
  refused=$(grep -axc 'info string error: could not allocate 65536 MB for the hash table; it keeps 16 MB' "$tmp/out")
  check "Hash 1, 64, 512, 2, 1024, 16 MB in one session, a search after each; 65536 MB (more than this machine's $mem_mb MB) refused, 16 MB kept, then 32 MB taken" \
    eval '[ "$rc" = 0 ] && [ "$(bestmoves)" = 8 ] && [ "$refused" = 1 ] && [ "$errors" = 1 ] && [ "$(grep -ac "^readyok" "$tmp/out")" = 8 ] && no_stderr'
else
  check "Hash 1, 64, 512, 2, 1024, 16 MB in one session, a search after each (the refusal of a table larger than memory is not checked: this machine has $mem_mb MB)" \
    eval '[ "$rc" = 0 ] && [ "$(bestmoves)" = 6 ] && [ "$errors" = 0 ] && no_stderr'
fi

[ "$fails" -eq 0 ]

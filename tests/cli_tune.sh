#!/usr/bin/env bash
# janggun-tune on a small fixture (the first 300 games of the corpus): --passes 0 rewrites the weight
# file with every value and comment kept; one pass gives the same file with 1 and 2 threads; the
# comments of the start file survive the rewrite; bad input is refused with a message.
# usage: bash tests/cli_tune.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_tune.sh "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
tune="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin" | sed 's/^janggun/janggun-tune/')"
need_executable "$tune"
weights=$(ls "$root"/nets/janggun-*.weights)
games="$root/bench/data/games.jsonl.xz"
cd "$tmp" || exit 1

# tune NAME ARGS...: output in $tmp/NAME.out, the status in $rc.
tune() { local name=$1; shift; "$tune" --games "$games" --weights "$weights" --max-games 300 "$@" >"$tmp/$name.out" 2>&1; rc=$?; }
# The lines the tuner writes about its own run ("# Tuned: ..."), which name the command, left out.
body() { grep -v '^# Tuned:' "$1"; }

tune p0 --passes 0 --out p0.weights
if [ "$rc" = 0 ] && diff <(body "$weights") <(body p0.weights) >/dev/null \
   && grep -q "^# Tuned:   .*janggun-tune.* --passes 0 --out p0.weights$" p0.weights; then
  pass "--passes 0: the weight file written back unchanged but for its '# Tuned:' lines, which name the command"
else fail "--passes 0: the weight file written back unchanged but for its '# Tuned:' lines" "exit $rc" \
  "$(diff <(body "$weights") <(body p0.weights) | head -5)" "$(tail -3 p0.out)"; fi

tune t1 --passes 1 --threads 1 --out t1.weights; rc1=$rc
tune t2 --passes 1 --threads 2 --out t2.weights; rc2=$rc
if [ "$rc1" = 0 ] && [ "$rc2" = 0 ] && diff <(body t1.weights) <(body t2.weights) >/dev/null; then
  pass "one pass: the same weights with 1 and 2 threads"
else fail "one pass: the same weights with 1 and 2 threads" "exit $rc1, $rc2" "$(diff <(body t1.weights) <(body t2.weights) | head -6)"; fi
changed=$(diff <(grep -v '^#' "$weights") <(grep -v '^#' t1.weights) | grep -c '^>')
if [ "$changed" -gt 0 ] && diff <(body "$weights" | grep '^#') <(body t1.weights | grep '^#') >/dev/null \
   && [ "$(grep -c '^[a-z]' "$weights")" = "$(grep -c '^[a-z]' t1.weights)" ]; then
  pass "one pass: $changed value lines changed, every comment and every name kept in place"
else fail "one pass: values changed, every comment and every name kept in place" "changed $changed" \
  "$(diff <(body "$weights" | grep '^#') <(body t1.weights | grep '^#') | head -5)"; fi
if grep -q '^pass  1: train ' t1.out && grep -q '^K = ' t1.out; then pass "one pass: the report names K and the pass"
else fail "one pass: the report names K and the pass" "$(head -8 t1.out)"; fi

head -c 200000 "$games" >cut.jsonl.xz
"$tune" --games cut.jsonl.xz --weights "$weights" --passes 0 >cut.out 2>&1; rc=$?
if [ "$rc" != 0 ] && grep -q "^janggun-tune: error: cut.jsonl.xz: truncated xz data" cut.out; then
  pass "a truncated corpus: an error that names the file"
else fail "a truncated corpus: an error that names the file" "exit $rc" "$(tail -3 cut.out)"; fi
tune badopt --frobnicate 3
if [ "$rc" = 2 ] && [ "$(cat "$tmp/badopt.out")" = "janggun-tune: error: unknown option '--frobnicate' (see janggun-tune --help)" ]; then
  pass "an unknown option is refused"
else fail "an unknown option is refused" "exit $rc" "$(tail -3 "$tmp/badopt.out")"; fi

[ "$fails" -eq 0 ]

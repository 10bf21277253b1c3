#!/usr/bin/env bash
# Runs every test program in DIR and the command-line tests against BINARY, then prints one
# summary line. The expected tests are derived from the sources (tests/test_*.c, tests/cli_*.sh): a
# test program that is missing or not executable counts as a failure, never as a skip. Works from
# any folder (DIR and BINARY may be relative to the current one).
# usage: tests/run.sh DIR BINARY
set -u
if [ $# -ne 2 ]; then echo "usage: tests/run.sh DIR BINARY" >&2; exit 2; fi
abspath() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac; }
dir=$(abspath "$1"); bin=$(abspath "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
passed=0; failed=0; failures=()
log=$(mktemp); trap 'rm -f "$log"' EXIT

for src in tests/test_*.c; do
  name=$(basename "$src" .c)
  t="$dir/$name"
  if [ ! -x "$t" ]; then
    echo "$name: 0 passed, 1 failed (missing or not executable: $t)"
    failed=$((failed + 1)); failures+=("$name"); continue
  fi
  start=$(date +%s)
  "$t" >"$log" 2>&1; rc=$?
  ok=$(grep -c '^\[       OK \]' "$log"); ran=$(grep -c '^\[ RUN      \]' "$log")
  bad=$((ran - ok))
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
  if [ "$ran" -eq 0 ] && [ "$bad" -eq 0 ]; then bad=1; echo "$name ran no test"; fi
  passed=$((passed + ok)); failed=$((failed + bad))
  echo "$name: $ok passed, $bad failed ($(( $(date +%s) - start ))s)"
  if [ "$bad" -gt 0 ]; then failures+=("$name"); grep -v '^\[ *\(RUN\|OK\) ' "$log" | tail -40; fi
done

for t in tests/cli_*.sh; do
  name=$(basename "$t" .sh)
  bash "$t" "$bin" >"$log" 2>&1; rc=$?
  ok=$(grep -c '^PASS ' "$log"); bad=$(grep -c '^FAIL ' "$log")
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
  if [ "$ok" -eq 0 ] && [ "$bad" -eq 0 ]; then bad=1; echo "$name ran no check"; fi
  passed=$((passed + ok)); failed=$((failed + bad))
  echo "$name: $ok passed, $bad failed"
  if [ "$bad" -gt 0 ]; then failures+=("$name"); grep -v '^PASS ' "$log" | tail -40; fi
done

[ ${#failures[@]} -gt 0 ] && echo "failing: ${failures[*]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

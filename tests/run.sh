#!/usr/bin/env bash
# Runs every test program in DIR and the command-line tests against BINARY, then prints one
# summary line. usage: tests/run.sh DIR BINARY
set -u
dir=$1; bin=$2
passed=0; failed=0; failures=()
log=$(mktemp); trap 'rm -f "$log"' EXIT

for t in "$dir"/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  start=$(date +%s)
  "$t" >"$log" 2>&1; rc=$?
  ok=$(grep -c '^\[       OK \]' "$log"); ran=$(grep -c '^\[ RUN      \]' "$log")
  bad=$((ran - ok))
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
  passed=$((passed + ok)); failed=$((failed + bad))
  echo "$name: $ok passed, $bad failed ($(( $(date +%s) - start ))s)"
  if [ "$bad" -gt 0 ]; then failures+=("$name"); grep -v '^\[ *\(RUN\|OK\) ' "$log" | tail -40; fi
done

for t in tests/cli_*.sh; do
  [ -f "$t" ] || continue
  name=$(basename "$t" .sh)
  bash "$t" "$bin" >"$log" 2>&1; rc=$?
  ok=$(grep -c '^PASS ' "$log"); bad=$(grep -c '^FAIL ' "$log")
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
  passed=$((passed + ok)); failed=$((failed + bad))
  echo "$name: $ok passed, $bad failed"
  if [ "$bad" -gt 0 ]; then failures+=("$name"); grep -v '^PASS ' "$log" | tail -40; fi
done

[ ${#failures[@]} -gt 0 ] && echo "failing: ${failures[*]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

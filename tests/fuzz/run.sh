#!/usr/bin/env bash
# Runs one fuzz target for a time: its seed corpus (tests/fuzz/corpus/TARGET/, read only) and the inputs
# it found before (build/fuzz/corpus/TARGET/, where new ones go), with AddressSanitizer, UBSan and leak
# detection on. A finding stops it; libFuzzer's report names the input, kept in build/fuzz/findings/TARGET/.
# Ends with one line: the target, the CPU seconds, the executions, the coverage and the corpus size.
# usage: tests/fuzz/run.sh BINDIR TARGET SECONDS
set -u
if [ $# -ne 3 ]; then echo "usage: tests/fuzz/run.sh BINDIR TARGET SECONDS" >&2; exit 2; fi
bindir=$1; target=$2; seconds=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$bindir/fuzz_$target"
[ -x "$bin" ] || { echo "fuzz: no target binary $bin" >&2; exit 2; }
work="$root/build/fuzz/corpus/$target"; findings="$root/build/fuzz/findings/$target"
mkdir -p "$work" "$findings"
log=$(mktemp); trap 'rm -f "$log"' EXIT
start=$(date +%s)
# Timeouts: an input that takes 20 s is a hang. Memory: 2 GB (the protocol target caps Hash at 4 MB).
TIMEFORMAT='%U %S'
{ time "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$work" "$root/tests/fuzz/corpus/$target" >"$log" 2>&1; } 2>"$log.time"
rc=$?
cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$log.time" 2>/dev/null); rm -f "$log.time"
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
[ -n "$runs" ] || runs=$(grep -aoE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#') # no final stats when interrupted
cov=$(grep -aoE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
corp=$(grep -aoE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -n 1 | cut -d' ' -f2)
if [ "$rc" -eq 72 ] && grep -aq 'libFuzzer: run interrupted' "$log"; then # Ctrl-C or SIGTERM: no finding
  echo "fuzz $target: interrupted after $(( $(date +%s) - start )) s: ${cpu:-?} s of CPU, ${runs:-?} executions, coverage ${cov:-?} edges, corpus ${corp:-?} (no findings)"
  exit 130
fi
if [ "$rc" -ne 0 ]; then
  grep -av '^#[0-9]' "$log" | tail -n 60
  echo "fuzz $target: FINDING after $(( $(date +%s) - start )) s (exit status $rc); input in $findings/"
  exit 1
fi
echo "fuzz $target: ${cpu:-?} s of CPU, ${runs:-?} executions, coverage ${cov:-?} edges, corpus ${corp:-?} (no findings)"

#!/usr/bin/env bash
# Minimises one target's seed corpus (tests/fuzz/corpus/TARGET/) in place: libFuzzer's -merge=1 finds the
# smallest subset of the seeds that reaches the coverage of them all, and the seeds outside it are
# deleted (the kept ones keep their names). The inputs a run found (build/fuzz/corpus/TARGET/) are not
# touched. Ends with one line: the target, the seeds before and after, and the coverage.
# usage: tests/fuzz/minimise.sh BINDIR TARGET
set -u
if [ $# -ne 2 ]; then echo "usage: tests/fuzz/minimise.sh BINDIR TARGET" >&2; exit 2; fi
bindir=$1; target=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$bindir/fuzz_$target"; seeds="$root/tests/fuzz/corpus/$target"
[ -x "$bin" ] || { echo "fuzz: no target binary $bin" >&2; exit 2; }
[ -d "$seeds" ] || { echo "fuzz: no seed corpus $seeds" >&2; exit 2; }
kept=$(mktemp -d); log=$(mktemp); trap 'rm -rf "$kept" "$log"' EXIT
if ! "$bin" -merge=1 -timeout=20 -rss_limit_mb=2048 "$kept" "$seeds" >"$log" 2>&1; then
  tail -n 30 "$log"; echo "minimise $target: the merge failed; nothing deleted"; exit 1
fi
before=0; after=0
for f in "$seeds"/*; do
  [ -f "$f" ] || continue
  before=$((before + 1))
  if [ -e "$kept/$(sha1sum <"$f" | cut -c1-40)" ]; then after=$((after + 1)); else rm -f "$f"; fi
done
cov=$(grep -aoE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
echo "minimise $target: $before seeds, $after kept, coverage ${cov:-?} edges"

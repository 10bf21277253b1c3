#!/usr/bin/env bash
# Perft speed benchmark: janggun against the reference engine Fairy-Stockfish on the same positions.
#
# usage: bench/perft_bench.sh [-r RUNS] [JANGGUN_BINARY]        (default binary ./janggun)
#   -r RUNS / PERFT_BENCH_RUNS=RUNS   timed runs per engine and position (default 3); the median is used
#   FAIRY_STOCKFISH=PATH              reference binary (default /usr/games/fairy-stockfish)
#
# Each measurement is one whole process (janggun: `perft --depth D --fen FEN`; FSF: a UCI script ending in
# `go perft D` and `quit`), timed by wall clock with nanosecond resolution, so FSF's start-up (about 0.1 s
# here) is included. Both engines are single-threaded (FSF gets `Threads 1`). Runs alternate
# janggun, FSF, janggun, FSF, ... so that drift on a noisy machine affects both alike.
# Exit status: 0 if every node count agrees (between the engines, between runs and with the reference
# figure), 1 on a mismatch, 2 on a usage error or an engine that fails to run.
set -u

runs=${PERFT_BENCH_RUNS:-3}
while [ $# -gt 0 ]; do
  case $1 in
    -r|--runs) [ $# -ge 2 ] || { echo "perft_bench: $1 needs a value" >&2; exit 2; }; runs=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "perft_bench: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -le 1 ] || { echo "usage: bench/perft_bench.sh [-r RUNS] [JANGGUN_BINARY]" >&2; exit 2; }
jg=${1:-./janggun}
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
case $runs in ''|*[!0-9]*|0) echo "perft_bench: runs must be a positive integer, not '$runs'" >&2; exit 2 ;; esac
[ -x "$jg" ] || { echo "perft_bench: janggun binary '$jg' is not executable (run make)" >&2; exit 2; }
[ -x "$fsf" ] || { echo "perft_bench: fairy-stockfish binary '$fsf' is not executable (set FAIRY_STOCKFISH)" >&2; exit 2; }

# name | variant | depth | expected nodes (Fairy-Stockfish's figure; janggi.epd lists all but the last) | FEN
positions=(
  "start|janggi|5|35243995|rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
  "middle-1|janggi|4|4444921|3a3b1/4kaR2/3ncn2r/1p2p2pp/9/9/1b2BPP1P/2r1CN3/1C2A4/3AK2BR b - - 3 18"
  "middle-2|janggi|4|3724215|1bnkaa3/9/1cc2n2r/rpp1pb1C1/6p1R/P1P3P2/4P2P1/1C3K3/3A5/RBN2ANB1 b - - 0 11"
  "end-1|janggi|5|3538103|1Pbcka3/3nNn1c1/N2CaC3/1pB6/9/9/5P3/9/4K4/9 w - - 0 23"
  "end-2|janggi|5|2467320|B3k4/3a5/5a2b/9/P5cpN/4P3p/9/4A4/1C7/3K3N1 w - - 5 94"
)

out=$(mktemp); trap 'rm -f "$out"' EXIT
status=0

# run_one ENGINE VARIANT DEPTH FEN: runs one timed measurement; sets $nodes and $ns (elapsed nanoseconds).
run_one() {
  local engine=$1 variant=$2 depth=$3 fen=$4 start end rc
  if [ "$engine" = janggun ]; then
    start=$(date +%s%N)
    "$jg" perft --depth "$depth" --fen "$fen" --variant "$variant" >"$out" 2>&1; rc=$?
    end=$(date +%s%N)
  else
    start=$(date +%s%N)
    printf 'setoption name Threads value 1\nsetoption name UCI_Variant value %s\nposition fen %s\ngo perft %s\nquit\n' \
      "$variant" "$fen" "$depth" | "$fsf" >"$out" 2>&1; rc=$?
    end=$(date +%s%N)
  fi
  ns=$((end - start))
  nodes=$(sed -n 's/^Nodes searched: \([0-9][0-9]*\)$/\1/p' "$out" | tail -1)
  if [ "$rc" -ne 0 ] || [ -z "$nodes" ]; then
    [ "$engine" = fsf ] && engine=fairy-stockfish; echo "perft_bench: $engine failed (exit status $rc) on '$fen' depth $depth:" >&2
    tail -5 "$out" >&2
    exit 2
  fi
}

median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

# line NAME NODES JG_NS FSF_NS: one result line (also used for the total).
line() {
  awk -v name="$1" -v n="$2" -v a="$3" -v b="$4" 'BEGIN {
    sa = a / 1e9; sb = b / 1e9
    printf "%-22s %10d nodes  janggun %7.3f s %11.0f nps  fairy-stockfish %7.3f s %10.0f nps  ratio %5.1fx\n",
           name, n, sa, n / sa, sb, n / sb, sb / sa }'
}

echo "perft bench: $jg vs $fsf, single-threaded, wall clock per process (FSF start-up included), median of $runs"
tot_nodes=0; tot_jg=0; tot_fsf=0
for p in "${positions[@]}"; do
  IFS='|' read -r name variant depth expected fen <<<"$p"
  jg_times=(); fsf_times=(); jg_counts=(); fsf_counts=()
  for ((i = 0; i < runs; i++)); do
    run_one janggun "$variant" "$depth" "$fen"; jg_times+=("$ns"); jg_counts+=("$nodes")
    run_one fsf "$variant" "$depth" "$fen"; fsf_times+=("$ns"); fsf_counts+=("$nodes")
  done
  bad=""
  for c in "${jg_counts[@]}" "${fsf_counts[@]}"; do [ "$c" = "${jg_counts[0]}" ] || bad=1; done
  [ "${jg_counts[0]}" = "$expected" ] || bad=1
  if [ -n "$bad" ]; then
    status=1
    echo "!!! MISMATCH $name ($variant, depth $depth, $fen): janggun ${jg_counts[*]}, fairy-stockfish ${fsf_counts[*]}, expected $expected" >&2
    echo "!!! MISMATCH $name: janggun ${jg_counts[*]}, fairy-stockfish ${fsf_counts[*]}, expected $expected"
  fi
  jg_ns=$(median "${jg_times[@]}"); fsf_ns=$(median "${fsf_times[@]}")
  line "$name ($variant) d$depth" "${fsf_counts[0]}" "$jg_ns" "$fsf_ns"
  tot_nodes=$((tot_nodes + fsf_counts[0])); tot_jg=$((tot_jg + jg_ns)); tot_fsf=$((tot_fsf + fsf_ns))
done
awk -v n="$tot_nodes" -v a="$tot_jg" -v b="$tot_fsf" 'BEGIN {
  printf "total: janggun %.0f nps, fairy-stockfish %.0f nps, ratio %.1fx  (%d nodes, %.3f s vs %.3f s)\n",
         n / (a / 1e9), n / (b / 1e9), b / a, n, a / 1e9, b / 1e9 }'
if [ "$status" -ne 0 ]; then echo "perft_bench: NODE COUNT MISMATCH (see the !!! lines above)" >&2; fi
exit "$status"

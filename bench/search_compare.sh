#!/usr/bin/env bash
# Search speed of janggun against Fairy-Stockfish, side by side in the same run, one thread and 64 MB
# of hash each: nodes per second over a fixed think time on several positions, and the time each needs
# to finish depth 12 from the start position (both as the engines report them in their info lines).
#
# usage: bench/search_compare.sh [-t MOVETIME_MS] [-r ROUNDS] [-c] [JANGGUN_BINARY]   (default 3000 ms, ./janggun)
#   -r ROUNDS              repeat the positions ROUNDS times, the engines alternating, and report each
#                          round's ratio and their median (both engines' rates drift with the machine)
#   -c                     janggun with its classical evaluation (Use NNUE false) instead of the net
#   FAIRY_STOCKFISH=PATH   reference binary (default /usr/games/fairy-stockfish)
set -u
movetime=3000
rounds=1
use_nnue=true
while [ $# -gt 0 ]; do
  case $1 in
    -t) movetime=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    -c) use_nnue=false; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
jg=${1:-./janggun}
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
[ -x "$jg" ] || { echo "search_compare: '$jg' is not executable (run make)" >&2; exit 2; }
[ -x "$fsf" ] || { echo "search_compare: '$fsf' is not executable" >&2; exit 2; }

positions=(
  "start|rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
  "opening|rbn1kabnr/3a5/1c5c1/4p1C1p/p1p6/9/P1P1P1P1P/3N3C1/4K4/RB1A1ANBR b - - 0 5"
  "middle|rb1a1a3/4k2n1/3nr4/8p/1pp6/2b1P4/Pc1P2PP1/1C1A2R2/R3AN3/1B1K2CB1 w - - 1 21"
  "end|4k1bn1/4aa3/Rc1n2r2/1pp6/4pN2p/1P3Pb2/8P/2C1K4/5A3/2Br2B2 w - - 2 28"
)

# Runs one UCI session until bestmove and prints the engine's info lines that carry a node count.
run_uci() { # engine fen go-arguments
  local engine=$1 fen=$2 go=$3 line
  coproc ENGINE { exec "$engine" 2>/dev/null; }
  printf 'uci\nsetoption name UCI_Variant value janggi\nsetoption name Threads value 1\n' >&"${ENGINE[1]}"
  [ "$engine" = "$jg" ] && printf 'setoption name Use NNUE value %s\n' "$use_nnue" >&"${ENGINE[1]}"
  printf 'setoption name Hash value 64\nisready\nucinewgame\nposition fen %s\ngo %s\n' "$fen" "$go" >&"${ENGINE[1]}"
  while IFS= read -r line <&"${ENGINE[0]}"; do
    case $line in
      "info depth"*" nodes "*) echo "$line" ;;
      bestmove*) break ;;
    esac
  done
  printf 'quit\n' >&"${ENGINE[1]}"
  wait "$ENGINE_PID" 2>/dev/null
}

field() { # line name
  echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'
}

case $rounds in ''|*[!0-9]*|0) echo "search_compare: -r wants a positive number of rounds" >&2; exit 2 ;; esac
ratios=()
for round in $(seq "$rounds"); do
  [ "$rounds" -gt 1 ] && echo "round $round of $rounds"
  printf '%-8s %14s %14s %7s\n' position "janggun nps" "fsf nps" ratio
  total_j=0; total_f=0
  for entry in "${positions[@]}"; do
    name=${entry%%|*}; fen=${entry#*|}
    j=$(run_uci "$jg" "$fen" "movetime $movetime" | tail -1)
    f=$(run_uci "$fsf" "$fen" "movetime $movetime" | tail -1)
    jn=$(field "$j" nps); fn=$(field "$f" nps)
    total_j=$((total_j + jn)); total_f=$((total_f + fn))
    printf '%-8s %14s %14s %7s\n' "$name" "$jn" "$fn" "$(awk -v a="$jn" -v b="$fn" 'BEGIN { printf "%.2fx", a / b }')"
  done
  ratio=$(awk -v a="$total_j" -v b="$total_f" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$ratio")
  printf '%-8s %14s %14s %7s\n' mean $((total_j / ${#positions[@]})) $((total_f / ${#positions[@]})) "${ratio}x"
done
if [ "$rounds" -gt 1 ]; then
  printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END {
    m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
    printf "median of %d rounds: %.2fx (lowest %.2fx, highest %.2fx)\n", NR, m, r[1], r[NR] }'
fi

start=${positions[0]#*|}
for engine in "$jg" "$fsf"; do
  line=$(run_uci "$engine" "$start" "depth 12" | awk '$3 == 12' | tail -1)
  printf 'depth 12 from the start: %-28s %6s ms, %9s nodes\n' "$(basename "$engine")" "$(field "$line" time)" \
    "$(field "$line" nodes)"
done

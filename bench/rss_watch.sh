#!/usr/bin/env bash
# The resident memory of the engine processes a command starts (a janggun-match run), sampled while it
# runs: every INTERVAL seconds the VmRSS of each descendant process whose command name starts with NAME
# (the kernel keeps 15 characters of it) goes to the log as `SECONDS PID RSS_KB`, and at the end one line
# per process gives its first, largest and last sample.
# The command's own output goes to standard output as usual.
#
# usage: bench/rss_watch.sh [-i INTERVAL] [-n NAME] [-o LOG] -- COMMAND ARGS...
#   -i INTERVAL  seconds between samples (default 10)
#   -n NAME      the process names to watch, by their start (default janggun)
#   -o LOG       the samples (default rss.log)
set -u
interval=10
name=janggun
log=rss.log
while [ $# -gt 0 ]; do
  case $1 in
    -i) interval=$2; shift 2 ;;
    -n) name=$2; shift 2 ;;
    -o) log=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -eq 0 ]; then echo "usage: bench/rss_watch.sh [-i INTERVAL] [-n NAME] [-o LOG] -- COMMAND ARGS..." >&2; exit 2; fi

# descendants PID: every process below PID.
descendants() {
  local child
  for child in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

: >"$log"
"$@" &
top=$!
start=$(date +%s)
while kill -0 "$top" 2>/dev/null; do
  now=$(($(date +%s) - start))
  for pid in $(descendants "$top"); do
    comm=$(cat /proc/"$pid"/comm 2>/dev/null)
    [[ "$comm" == "${name:0:15}"* ]] || continue
    rss=$(awk '/^VmRSS:/ { print $2 }' /proc/"$pid"/status 2>/dev/null)
    [ -n "$rss" ] && echo "$now $pid $rss" >>"$log"
  done
  sleep "$interval"
done
wait "$top"
rc=$?
awk -v name="$name" '
  { if (!($2 in first)) { first[$2] = $3; t0[$2] = $1; order[++n] = $2 }
    last[$2] = $3; t1[$2] = $1; if ($3 > max[$2]) max[$2] = $3 }
  END { for (i = 1; i <= n; i++) { p = order[i]
          printf "rss %s pid %s: first %.1f MB (at %d s), largest %.1f MB, last %.1f MB (at %d s)\n",
                 name, p, first[p] / 1024, t0[p], max[p] / 1024, last[p] / 1024, t1[p] } }' "$log"
exit $rc

#!/usr/bin/env bash
# A scripted engine for the janggun-match tests (tests/cli_match.sh). It speaks UCI, or UCCI with
# --ucci, and when asked to move plays the action its script holds for the current ply: the number of
# moves in the last `position` command. The same script can be given to both engines of a game.
# usage: fake_engine.sh [--ucci] [--variants "janggi janggicasual ..."] SCRIPT
# SCRIPT: space-separated actions, one per ply counted from the start position, both sides' plies:
#   MOVE           `bestmove MOVE`, after `info depth 1 score cp 0`
#   MOVE@CP        the same with `score cp CP`
#   sleep:MS:MOVE  waits MS milliseconds (reading nothing), then plays MOVE
#   hang           never answers again (reads nothing)
#   crash          kills itself with SIGSEGV
#   exit           exits with status 3
#   none           `bestmove (none)`
#   nobest         `nobestmove`
#   -              a ply this engine is never asked for
# A ply beyond the script answers `bestmove (none)`.
set -u
proto=uci
variants="janggi janggicasual janggimodern janggitraditional"
while [ $# -gt 0 ]; do
  case $1 in
    --ucci) proto=ucci; shift ;;
    --variants) variants=$2; shift 2 ;;
    *) break ;;
  esac
done
read -r -a script <<<"$*"
ply=0
echo "Fake engine (janggun-match tests)"

combo() { local v out=""; for v in $variants; do out+=" var $v"; done; echo "$out"; }

act() {
  local a=${script[$ply]:-none} move score=0
  case $a in
    hang) while :; do sleep 60; done ;;
    crash) kill -SEGV $$ ;;
    exit) exit 3 ;;
    none) echo "info depth 0 score mate 0"; echo "bestmove (none)"; return ;;
    nobest) echo "nobestmove"; return ;;
    sleep:*) local rest=${a#sleep:}; sleep "$(awk "BEGIN{print ${rest%%:*}/1000}")"; a=${rest#*:} ;;
  esac
  move=${a%@*}
  [ "$move" != "$a" ] && score=${a#*@}
  echo "info depth 1 score cp $score nodes 1 pv $move"
  echo "bestmove $move"
}

while IFS= read -r line; do
  line=${line%$'\r'}
  read -r -a w <<<"$line"
  case ${w[0]:-} in
    uci)
      echo "id name Fake"; echo "id author nobody"; echo
      echo "option name Hash type spin default 16 min 1 max 1024"
      echo "option name UCI_Variant type combo default janggi$(combo)"
      echo "uciok" ;;
    ucci)
      echo "id name Fake"; echo "option hashsize type spin default 16 min 1 max 1024"
      echo "option UCI_Variant type combo default xiangqi$(combo)"
      echo "option usemillisec type check default true"
      echo "ucciok" ;;
    isready) echo "readyok" ;;
    position)
      ply=0; seen=0
      for t in "${w[@]}"; do
        if [ $seen = 1 ]; then ply=$((ply + 1)); fi
        [ "$t" = moves ] && seen=1
      done ;;
    go) act ;;
    quit) exit 0 ;;
  esac
done

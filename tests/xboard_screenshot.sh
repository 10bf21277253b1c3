#!/usr/bin/env bash
# Makes tests/data/xboard/screenshot.png, the board shown in README: the game of cli_xboard_gui.sh
# (Janggun against Fairy-Stockfish 11.1 in Debian's XBoard, depth 3), photographed when it has ended.
# Not a test (tests/run.sh runs tests/cli_*.sh only). Needs xboard, xvfb, x11-apps (xwd) and netpbm.
# usage: bash tests/xboard_screenshot.sh BINARY [OUT.png]
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=${2:-$(dirname "$0")/data/xboard/screenshot.png}
tmp=$(mktemp -d)
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 760x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xboard" "$xvfb" 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 1
DISPLAY=$display /usr/games/xboard -fcp "$bin" -fd "$tmp" -scp /usr/games/fairy-stockfish -sd "$tmp" -variant janggi \
  -matchGames 1 -tc 5 -depth 3 -ponderNextMove false -testClaims false -saveGameFile "$tmp/game.pgn" \
  -popupExitMessage false -popupMoveErrors false -boardSize medium >"$tmp/xboard.out" 2>&1 &
xboard=$!
# XBoard leaves when the match ends, so the screen is photographed every half second while it plays
# and the next-to-last photograph (the final position, before the window closed) is kept.
while kill -0 "$xboard" 2>/dev/null; do
  xwd -root -display "$display" >"$tmp/new.xwd" 2>/dev/null && { [ -s "$tmp/last.xwd" ] && mv "$tmp/last.xwd" "$tmp/keep.xwd"; mv "$tmp/new.xwd" "$tmp/last.xwd"; }
  sleep 0.5
done
grep -qs '^\[Result "[01]' "$tmp/game.pgn" || { echo "no game saved:"; tail -5 "$tmp/xboard.out"; exit 1; }
mkdir -p "$(dirname "$out")"
xwdtopnm "$tmp/keep.xwd" 2>/dev/null | pnmcrop -black -right -bottom 2>/dev/null | pnmtopng >"$out"
echo "$out: $(grep "^\[Result" "$tmp/game.pgn")"

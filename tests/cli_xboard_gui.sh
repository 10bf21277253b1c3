#!/usr/bin/env bash
# A real GUI: Debian's XBoard 4.9.1 under Xvfb plays one game between Janggun (first engine, Cho) and
# Debian's Fairy-Stockfish 11.1 (second engine, Han) to its end, and saves it. Both engines search to
# depth 3 with a 5-minute clock and no pondering, so the game is the same every time and nobody runs
# out of time; XBoard's own check of result claims is off (it knows no Janggi rules). The checks:
# the saved PGN (players, variant, a result), the game ended by Janggun's claim with the referee's
# reason, and the moves XBoard sent Janggun, replayed in a fresh Janggun, give the same claim.
# usage: bash tests/cli_xboard_gui.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_xboard_gui.sh "$@"
need_executable "$bin"
# shellcheck source=tests/protocol_lib.bash
. "$(dirname "$0")/protocol_lib.bash"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
XBOARD=/usr/games/xboard FSF=/usr/games/fairy-stockfish
for tool in "$XBOARD" "$FSF" "$(command -v xvfb-run)"; do
  if [ ! -x "$tool" ]; then
    echo "FAIL missing '$tool' (xboard, xvfb and fairy-stockfish are in the Makefile's DEB_PACKAGES)"; exit 1
  fi
done

version=$("$bin" --version | sed 's/^Janggun //')
mkdir -p "$tmp/run"
start=$(date +%s)
timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" "$XBOARD" \
  -fcp "$bin" -fd "$tmp/run" -scp "$FSF" -sd "$tmp/run" -variant janggi \
  -matchGames 1 -tc 5 -depth 3 -ponderNextMove false -testClaims false -autoCallFlag true \
  -saveGameFile "$tmp/game.pgn" -debug -nameOfDebugFile "$tmp/xboard.log" \
  -xexit -popupExitMessage false -popupMoveErrors false >"$tmp/stdout" 2>&1
rc=$?
secs=$(($(date +%s) - start))
if [ $rc -ne 0 ] || [ ! -s "$tmp/game.pgn" ]; then
  fail "XBoard played and saved the game" "exit status $rc after ${secs}s; its output:"
  grep -v 'ALSA\|aplay' "$tmp/stdout" | tail -5 | sed 's/^/    | /'
  exit 1
fi
pass "XBoard under Xvfb played Janggun against Fairy-Stockfish 11.1 to the end and saved the game (${secs}s)"

tag() { sed -n "s/^\[$1 \"\(.*\)\"\]\$/\1/p" "$tmp/game.pgn"; }
result=$(tag Result)
expect_value "PGN tags: White, Black, Variant" "Janggun $version|fairy-stockfish|janggi" \
  "$(tag White)|$(tag Black)|$(tag Variant)"
case $result in 1-0|0-1|1/2-1/2) pass "PGN result tag: $result" ;; *) fail "PGN result tag" "got '$result'" ;; esac

# Janggun's claim: the last line it wrote of the form RESULT {REASON}; the PGN ends with that reason
# and result.
claim=$(grep -a '<first : \(1-0\|0-1\|1/2-1/2\) {' "$tmp/xboard.log" | tail -n 1 | sed 's/^[0-9]* <first : //')
last=$(tail -n 3 "$tmp/game.pgn" | tr '\n' ' ' | sed 's/ *$//' | grep -o '{[^{}]*} [^ ]*$')
if [ -n "$claim" ] && [ "$last" = "{${claim#* \{} ${claim%% *}" ]; then
  pass "the game ended by Janggun's claim, recorded in the PGN: $claim"
else
  fail "the game ended by Janggun's claim" "claim: '$claim'" "PGN ends: '$last'"
fi

# The moves as Janggun saw them (the opponent's usermoves and setboards, its own moves), replayed in
# force mode: every move legal, and the same claim at the end.
awk '
  />first : usermove / { sub(/.*>first : /, ""); print "usermove " $0; next }
  />first : setboard / { sub(/.*>first : /, ""); print; next }
  /<first : move /     { sub(/.*<first : move /, ""); print "usermove " $0 }
' "$tmp/xboard.log" >"$tmp/moves"
plies=$(grep -c '^usermove' "$tmp/moves")
{ printf 'xboard\nnew\nvariant janggi\nforce\n'; cat "$tmp/moves"; printf 'go\nquit\n'; } | "$bin" >"$tmp/replay" 2>&1
again=$(grep -aE '^(1-0|0-1|1/2-1/2) \{' "$tmp/replay")
bad=$(grep -aE '^(Illegal move|Error)' "$tmp/replay" | head -3)
if [ -z "$bad" ] && [ "$plies" -ge 12 ] && [ -n "$claim" ] && [ "$again" = "$claim" ]; then
  pass "the $plies plies replayed in a fresh Janggun are legal and end in the same claim"
else
  fail "replay of the game's $plies plies" "errors: ${bad:-none}" "claim in the game: '$claim'" "after the replay: '$again'"
fi

[ "$fails" -eq 0 ]

# Shared by the protocol transcript tests (cli_uci.sh, cli_ucci.sh): runs a janggun session from a
# script, waiting for output where the script says so, and compares what it printed.
# Not a test itself (tests/run.sh runs tests/cli_*.sh only). Source it after tests/cli_lib.bash and
# cli_start (it uses $bin, $tmp, pass, fail and show).
#
# A session script is one line per command, sent as is, plus directives:
#   @wait N REGEX    wait (up to 30 s) until N output lines match the extended REGEX
#   @sleep S         wait S seconds
#   @raw FORMAT      send printf FORMAT (for NUL bytes, invalid UTF-8, lines without an end of line)
#   @file PATH       send the file's bytes
#   @mark NAME       write the time (seconds since the epoch, with decimals) to $tmp/mark.NAME
# Standard input is closed at the end of the script; the engine must then exit within 15 s.
# Results: $tmp/out (stdout), $tmp/err (stderr), $tmp/body (stdout without the identification line),
# $session_rc (the exit status; "hang" when it had to be killed), $session_problems (waits that timed out).

# The engine's shell opens $tmp/out only once the fifo has a writer: until then the count is 0.
wait_lines() {
  local n=$1 re=$2 i=0 got
  while got=$(grep -acE -- "$re" "$tmp/out" 2>/dev/null); [ "${got:-0}" -lt "$n" ]; do
    sleep 0.02
    i=$((i + 1))
    if [ $i -ge 1500 ]; then session_problems+="timed out waiting for $n line(s) matching /$re/; "; return 1; fi
  done
}

# to_engine COMMAND...: COMMAND's output to the engine, from a subshell that ignores SIGPIPE, so that a
# write after the engine has ended (a script that goes on after quit) fails instead of killing the test.
to_engine() { (trap '' PIPE; "$@" >&3) 2>/dev/null; }

session() {
  local script=$1 line pid i
  session_problems=""
  rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
  "$bin" <"$tmp/fifo" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  exec 3>"$tmp/fifo"
  while IFS= read -r line; do
    case $line in
      "@wait "*) line=${line#@wait }; wait_lines "${line%% *}" "${line#* }" ;;
      "@sleep "*) sleep "${line#@sleep }" ;;
      "@raw "*) to_engine printf "${line#@raw }" ;;
      "@file "*) to_engine cat "${line#@file }" ;;
      "@mark "*) date +%s.%N >"$tmp/mark.${line#@mark }" ;;
      *) to_engine printf '%s\n' "$line" ;;
    esac
  done <<<"$script"
  exec 3>&-
  for ((i = 0; i < 750; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.02; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; session_rc=hang
  else
    wait "$pid"; session_rc=$?
  fi
  tail -n +2 "$tmp/out" >"$tmp/body"
}

# session_ok NAME: FAIL (and false) when the last session hung, timed out, wrote to stderr or failed.
session_ok() {
  local why=()
  [ "$session_rc" = 0 ] || why+=("exit status: expected 0, actual $session_rc")
  [ -z "$session_problems" ] || why+=("$session_problems")
  [ ! -s "$tmp/err" ] || why+=("stderr: $(head -c 300 "$tmp/err")")
  if [ ${#why[@]} -gt 0 ]; then
    fail "$1" "${why[@]}" "stdout:"; show "$tmp/out" | head -60; return 1
  fi
  return 0
}

# expect_body NAME EXPECTED: the session's output after the identification line is exactly EXPECTED
# (plus a final newline).
expect_body() {
  local name=$1
  printf '%s\n' "$2" >"$tmp/want"
  session_ok "$name" || return
  if cmp -s "$tmp/body" "$tmp/want"; then pass "$name"; return; fi
  fail "$name" "expected:"; show "$tmp/want"; echo "  actual:"; show "$tmp/body"
  diff "$tmp/want" "$tmp/body" | head -20 | sed 's/^/  diff: /'
}

# expect_lines NAME REGEX...: each extended REGEX matches some output line, in this order.
expect_lines() {
  local name=$1 re n=0 from=1 found; shift
  session_ok "$name" || return
  for re in "$@"; do
    n=$((n + 1))
    found=$(tail -n "+$from" "$tmp/body" | grep -naE -m1 -- "$re" | cut -d: -f1)
    if [ -z "$found" ]; then
      fail "$name" "no line matching /$re/ (pattern $n) after line $((from - 1)) of the output:"
      show "$tmp/body" | head -80
      return
    fi
    from=$((from + found))
  done
  pass "$name"
}

# expect_no_line NAME REGEX: no output line matches.
expect_no_line() {
  session_ok "$1" || return
  if grep -qaE -- "$2" "$tmp/body"; then
    fail "$1" "unexpected line matching /$2/:" "$(grep -aE -- "$2" "$tmp/body" | head -3)"
  else
    pass "$1"
  fi
}

# The last bestmove's move, and the last info line's score ("cp N", "mate N", or "N" under UCCI).
last_bestmove() { grep -a '^bestmove' "$tmp/body" | tail -n 1 | cut -d' ' -f2; }
last_score() { grep -a '^info depth' "$tmp/body" | tail -n 1 | sed -n 's/.* score \(mate -\{0,1\}[0-9]*\|cp -\{0,1\}[0-9]*\|-\{0,1\}[0-9]*\) .*/\1/p'; }

# expect_value NAME WANT ACTUAL [CONTEXT]
expect_value() {
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected: $2" "actual:   $3" "${@:4}"; fi
}

# Shared by the command-line tests (tests/cli_*.sh): the BINARY argument, a temporary folder, and the
# PASS/FAIL lines with their count in $fails. Not a test itself (tests/run.sh runs tests/cli_*.sh only).
# Source it first, then call cli_start.

fails=0

# cli_start SCRIPT "$@": exactly one argument, BINARY, kept in $bin (otherwise the usage line for
# SCRIPT and exit status 2); then an empty folder in $tmp, removed when the test exits.
cli_start() {
  local script=$1; shift
  if [ $# -ne 1 ]; then echo "usage: bash $script BINARY" >&2; exit 2; fi
  bin=$1
  tmp=$(mktemp -d) || exit 1
  trap 'rm -rf "$tmp"' EXIT
}

# need_executable PATH: FAIL and exit status 1 unless PATH is an executable file.
need_executable() {
  if [ ! -x "$1" ]; then echo "FAIL binary: '$1' is not an executable file"; exit 1; fi
}

# match_binary: the janggun-match beside $bin (janggun-match-asan for janggun-asan, and so on).
match_binary() {
  echo "$(dirname "$bin")/$(basename "$bin" | sed 's/^janggun/janggun-match/')"
}

pass() { echo "PASS $1"; }
fail() {
  echo "FAIL $1"; shift
  fails=$((fails + 1))
  for msg in "$@"; do printf '  %s\n' "$msg"; done
}

# expect_output NAME STATUS STDOUT STDERR COMMAND...: PASS when COMMAND exits with STATUS and writes
# exactly STDOUT and STDERR (run twice, once for each stream), FAIL with what it gave otherwise.
expect_output() {
  local name=$1 status=$2 out=$3 err=$4; shift 4
  local got_out got_err rc
  got_out=$("$@" 2>/dev/null); rc=$?
  got_err=$("$@" 2>&1 >/dev/null)
  if [ "$rc" = "$status" ] && [ "$got_out" = "$out" ] && [ "$got_err" = "$err" ]; then pass "$name"
  else fail "$name" "exit $rc (want $status)" "stdout: ${got_out:0:400}" "stderr: $got_err"; fi
}

# show FILE: the file's bytes, one indented line each, with a marker when the last newline is missing.
show() {
  if [ ! -s "$1" ]; then echo "    (empty)"; return; fi
  sed 's/^/    | /' "$1"
  [ -z "$(tail -c 1 "$1")" ] || echo "    (no newline at end)"
}

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

# show FILE: the file's bytes, one indented line each, with a marker when the last newline is missing.
show() {
  if [ ! -s "$1" ]; then echo "    (empty)"; return; fi
  sed 's/^/    | /' "$1"
  [ -z "$(tail -c 1 "$1")" ] || echo "    (no newline at end)"
}

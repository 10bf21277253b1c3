#!/usr/bin/env bash
# The layers of README's Layout, checked on the includes: engine/base/ includes nothing of the engine;
# the rules core (engine/*.[ch]) includes base/ but never records/; engine/ never includes eval/,
# search/ or protocol/; eval/ never search/ or protocol/; search/ never protocol/; and nothing in the
# engine, eval, search or protocol includes bench/ or tests/.
# usage: bash tests/cli_layers.sh BINARY        (run by tests/run.sh; the binary is not used)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_layers.sh "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 1

# forbid NAME FILES PATTERN: FAIL with the offending lines when an include in FILES matches PATTERN.
forbid() {
  local name=$1 files=$2 pattern=$3 hits
  # shellcheck disable=SC2086
  hits=$(grep -nE "^#include \"($pattern)" $files 2>/dev/null)
  if [ -z "$hits" ]; then pass "$name"; else fail "$name" "$hits"; fi
}

base=$(ls engine/base/*.[ch]); core=$(ls engine/*.[ch]); records=$(ls engine/records/*.[ch])
forbid "engine/base/ includes nothing of the engine" "$base" '\.\./'
forbid "the rules core never includes the records layer" "$core" 'records/|\.\./'
forbid "engine/records/ includes only the core and the ground floor" "$records" '\.\./\.\.|\.\./(eval|search|protocol)'
forbid "eval/ never includes search/ or protocol/" "$(ls eval/*.[ch])" '\.\./(search|protocol|bench|tests)/'
forbid "search/ never includes protocol/" "$(ls search/*.[ch])" '\.\./(protocol|bench|tests)/'
forbid "protocol/ never includes bench/ or tests/" "$(ls protocol/*.[ch])" '\.\./(bench|tests)/'
[ -n "$base" ] && [ -n "$core" ] && [ -n "$records" ] || fail "the layers' folders are found" "engine/base, engine, engine/records"

[ "$fails" -eq 0 ]

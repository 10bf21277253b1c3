#!/usr/bin/env bash
# `janggun bench` must search exactly the node count recorded in bench/signature: any change to search
# behaviour shows here, and its commit records the new count (`Bench: N`).
# usage: bash tests/cli_bench.sh BINARY
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_bench.sh "$@"
here=$(cd "$(dirname "$0")/.." && pwd)
want=$(tr -d '[:space:]' <"$here/bench/signature")
got=$("$bin" bench 2>/dev/null | sed -n 's/^Nodes searched: //p')
if [ -n "$got" ] && [ "$got" = "$want" ]; then pass "bench signature $want"
else fail "bench signature: bench/signature says '$want', janggun bench searched '$got' nodes"; fi

# The command line: one error line and exit status 2 for a bad depth or an extra word, the options with --help.
expect() { expect_output "$1" "$2" "$3" "$4" "$bin" bench "${@:5}"; } # NAME STATUS STDOUT STDERR ARGS...
expect "bench x refused" 2 "" "janggun: error: the bench depth must be a number from 1 to 64, not 'x'" x
expect "bench 65 refused" 2 "" "janggun: error: the bench depth must be a number from 1 to 64, not '65'" 65
expect "bench 1 2 refused" 2 "" "janggun: error: unexpected '2' (see janggun bench --help)" 1 2
expect "bench --depth 3 refused" 2 "" "janggun: error: unknown option '--depth' (see janggun bench --help)" --depth 3
expect "bench --help" 0 "usage: janggun bench [depth]

  depth       search to this depth (1 to 64; default 10)
  --help, -h  print this help

Searches the fixed bench positions with one thread and prints the total time, \`N nodes M nps\`, then
\`Nodes searched: N\` (the search's signature) and \`Nodes/second: M\`." "" --help

[ "$fails" -eq 0 ]

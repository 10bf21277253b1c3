#!/usr/bin/env bash
# `janggun bench` must search exactly the node count recorded in bench/signature: any change to search
# behaviour shows here, and its commit records the new count (`Bench: N`).
# usage: bash tests/cli_bench.sh BINARY
set -u
bin=$1
here=$(cd "$(dirname "$0")/.." && pwd)
want=$(tr -d '[:space:]' <"$here/bench/signature")
got=$("$bin" bench 2>/dev/null | sed -n 's/^Nodes searched: //p')
if [ -n "$got" ] && [ "$got" = "$want" ]; then
  echo "PASS bench signature $want"
else
  echo "FAIL bench signature: bench/signature says '$want', janggun bench searched '$got' nodes"
fi

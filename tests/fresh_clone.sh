#!/usr/bin/env bash
# Clones the committed tree (HEAD) into an empty temporary folder, with nothing beside it, and runs
# `make test` there as a new user would: proves that the repository builds and passes its tests on its
# own. Uncommitted changes are not part of the clone. Run by .ci/run.
# usage: bash tests/fresh_clone.sh
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "fresh clone: $(git -C "$root" rev-parse --short HEAD) into $tmp/janggun (nothing else in $tmp)"
git clone -q --no-local "$root" "$tmp/janggun" || { echo "FAIL fresh clone: git clone failed"; exit 1; }
ls -A "$tmp"
cd "$tmp/janggun" || exit 1
make test 2>&1 | tee "$tmp/test.log" | grep -E '^(tests|[a-z_]+): [0-9]+ passed|^failing|^FAIL' 
status=${PIPESTATUS[0]}
last=$(grep '^tests: ' "$tmp/test.log" | tail -1)
if [ "$status" = 0 ] && [[ "$last" =~ ^tests:\ [1-9][0-9]*\ passed,\ 0\ failed$ ]]; then
  echo "fresh clone: $last"
  exit 0
fi
echo "FAIL fresh clone: make test exited $status ($last)"
tail -40 "$tmp/test.log"
exit 1

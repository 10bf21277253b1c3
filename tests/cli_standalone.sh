#!/usr/bin/env bash
# The project stands alone and installs as users expect: no file refers to a folder outside the
# repository; every program answers --help and --version; `make install PREFIX=...` and `make
# uninstall` work; the portable build (ARCH=x86-64) gives the same perft counts and bench signature
# as this build.
# usage: bash tests/cli_standalone.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_standalone.sh "$@"
need_executable "$bin"
root="$(cd "$(dirname "$0")/.." && pwd)"
bindir=$(dirname "$bin"); suffix=$(basename "$bin" | sed 's/^janggun//')
case $suffix in "") mode=release ;; -asan) mode=asan ;; -tsan) mode=tsan ;; *) mode=unknown ;; esac

# ---- nothing reads a folder beside the repository ----
# The pattern is written in two pieces so that this file does not match itself.
outside='\.\./'"shared"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  files=$(git -C "$root" ls-files)
else
  files=$(cd "$root" && find . -path ./build -prune -o -type f -print | sed 's|^\./||')
fi
hits=$(cd "$root" && printf '%s\n' "$files" | grep -v -e '\.xz$' -e '\.gib$' | tr '\n' '\0' | xargs -0 grep -l -- "$outside" 2>/dev/null)
if [ -n "$files" ] && [ -z "$hits" ]; then pass "no file in the repository names the folder beside it"
else fail "no file in the repository names the folder beside it" "in: $hits"; fi

# ---- --help and --version ----
version=$("$bin" --version)
for prog in janggun-match janggun-tune janggun-train janggun-gen; do
  p="$bindir/$prog$suffix"
  out=$("$p" --help); rc=$?
  if [ "$rc" = 0 ] && [[ "$out" == "usage: $prog "* ]]; then pass "$prog --help: the usage on stdout, exit 0"
  else fail "$prog --help: the usage on stdout, exit 0" "exit $rc" "${out:0:300}"; fi
  out=$("$p" --version); rc=$?
  if [ "$rc" = 0 ] && [ "$out" = "$prog ($version)" ]; then pass "$prog --version: '$prog ($version)', exit 0"
  else fail "$prog --version: '$prog ($version)', exit 0" "exit $rc, got: $out"; fi
done

# ---- make install and uninstall ----
if [ "$mode" = unknown ]; then
  fail "make install" "cannot tell the build mode from the binary name '$bin'"
else
  prefix="$tmp/prefix with space"
  make -C "$root" -s --no-print-directory MODE=$mode install PREFIX="$prefix" >"$tmp/install.out" 2>&1; rc=$?
  installed=$(cd "$prefix/bin" 2>/dev/null && ls | LC_ALL=C sort | tr '\n' ' ')
  want=$(printf '%s\n' "janggun$suffix" "janggun-match$suffix" "janggun-tune$suffix" "janggun-train$suffix" "janggun-gen$suffix" | LC_ALL=C sort | tr '\n' ' ')
  if [ "$rc" = 0 ] && [ "$installed" = "$want" ] \
     && [ "$("$prefix/bin/janggun$suffix" --version)" = "$version" ] \
     && [ "$(printf 'uci\nquit\n' | "$prefix/bin/janggun$suffix" | grep -c '^uciok$')" = 1 ]; then
    pass "make install PREFIX=...: the five programs in PREFIX/bin, the engine runs from there"
  else fail "make install PREFIX=...: the five programs in PREFIX/bin, the engine runs from there" "exit $rc" \
    "installed: $installed" "$(tail -5 "$tmp/install.out")"; fi
  make -C "$root" -s --no-print-directory MODE=$mode uninstall PREFIX="$prefix" >"$tmp/uninstall.out" 2>&1; rc=$?
  if [ "$rc" = 0 ] && [ -d "$prefix/bin" ] && [ -z "$(ls -A "$prefix/bin")" ]; then
    pass "make uninstall PREFIX=...: the five programs removed"
  else fail "make uninstall PREFIX=...: the five programs removed" "exit $rc" "left: $(ls "$prefix/bin")"; fi
fi

# ---- the portable build ----
portable="$tmp/portable"
if make -C "$root" -s --no-print-directory -j2 MODE=release ARCH=x86-64 OUT="$portable" all >"$tmp/portable.out" 2>&1; then
  pass "make ARCH=x86-64 builds"
  # Every line of the perft reference file at its smallest listed depth.
  bad=0; n=0
  while IFS= read -r line; do
    fen=${line%% ;*}
    variant=$(grep -o ';variant [a-z]*' <<<"$line" | cut -d' ' -f2)
    read -r depth nodes < <(grep -o ';D[0-9]* [0-9]*' <<<"$line" | head -1 | tr -d ';D')
    got=$("$portable/janggun" perft --depth "$depth" --fen "$fen" --variant "${variant:-janggi}" --composed | tail -1)
    n=$((n + 1))
    if [ "$got" != "Nodes searched: $nodes" ]; then
      bad=$((bad + 1)); [ $bad -le 3 ] && echo "  $fen ;variant $variant depth $depth: $got, expected $nodes"
    fi
  done < <(grep -v '^#' "$root/tests/data/perft/janggi.epd" | grep ';D')
  if [ "$bad" = 0 ] && [ "$n" -gt 60 ]; then pass "ARCH=x86-64: all $n perft reference lines at their first depth"
  else fail "ARCH=x86-64: all $n perft reference lines at their first depth" "$bad differ"; fi
  want=$("$bin" bench 2>/dev/null | grep '^Nodes searched')
  got=$("$portable/janggun" bench 2>/dev/null | grep '^Nodes searched')
  if [ -n "$want" ] && [ "$got" = "$want" ]; then pass "ARCH=x86-64: the same bench signature ($want)"
  else fail "ARCH=x86-64: the same bench signature" "got '$got', this build '$want'"; fi
  idname=$(printf 'uci\nquit\n' | "$portable/janggun" | grep '^id name ')
  if [ "$idname" = "id name Janggun ${version#Janggun }" ]; then pass "ARCH=x86-64: id name Janggun <version>"
  else fail "ARCH=x86-64: id name Janggun <version>" "got: $idname"; fi
else
  fail "make ARCH=x86-64 builds" "$(tail -20 "$tmp/portable.out")"
fi
out=$(make -C "$root" -s --no-print-directory ARCH=armv9 OUT="$tmp/none" all 2>&1); rc=$?
if [ "$rc" != 0 ] && [[ "$out" == *"ARCH must be native, x86-64, x86-64-v2, x86-64-v3 or x86-64-v4"* ]]; then
  pass "an unknown ARCH is refused with the list"
else fail "an unknown ARCH is refused with the list" "exit $rc" "$out"; fi

[ "$fails" -eq 0 ]

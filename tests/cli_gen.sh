#!/usr/bin/env bash
# janggun-gen and janggun-train together, on tiny runs (seconds): the generator's records are the same
# with one and two workers, a run continued with --continue equals one run, continuing with other options
# is refused, re-scoring real games labels positions with the game's result; the trainer trains on them
# and writes a net the engine loads with EvalFile and searches with; bad input is refused.
# usage: bash tests/cli_gen.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_gen.sh "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
bindir="$(cd "$(dirname "$bin")" && pwd)"
suffix=$(basename "$bin" | sed 's/^janggun//')
gen="$bindir/janggun-gen$suffix"; train="$bindir/janggun-train$suffix"; engine="$bindir/$(basename "$bin")"
need_executable "$gen"; need_executable "$train"
openings="$root/bench/data/openings.epd"
cd "$tmp" || exit 1

# gen ARGS...: self-play from the shipped openings at 300 nodes; stderr in gen.err, the status in $rc.
gen() { "$gen" --openings "$openings" --nodes 300 "$@" 2>gen.err; rc=$?; }

gen --out one.bin --games 6 --threads 1; rc1=$rc
gen --out two.bin --games 6 --threads 2; rc2=$rc
size=$(wc -c <one.bin)
if [ "$rc1" = 0 ] && [ "$rc2" = 0 ] && cmp -s one.bin two.bin && [ "$size" -gt 4000 ] && [ $((size % 40)) = 0 ]; then
  pass "self-play: the same $((size / 40)) records with 1 and 2 workers"
else fail "self-play: the same records with 1 and 2 workers" "exit $rc1, $rc2, $size bytes" "$(tail -2 gen.err)"; fi
if grep -q "^jobs 6 records $((size / 40))$" one.bin.progress && grep -qE '[0-9]+ positions/s, ETA [0-9]+:[0-9]{2}:[0-9]{2}' gen.err; then
  pass "the progress file counts jobs and records; the progress line shows positions/s and an ETA"
else fail "the progress file counts jobs and records; the progress line shows positions/s and an ETA" "$(cat one.bin.progress)" "$(tail -c 300 gen.err)"; fi

gen --out part.bin --games 3 --threads 2; rc1=$rc
printf 'xyz' >>part.bin # a partial record, as an interrupted write leaves
gen --out part.bin --games 6 --threads 2 --continue; rc2=$rc
if [ "$rc1" = 0 ] && [ "$rc2" = 0 ] && cmp -s one.bin part.bin && grep -q '^continuing after job 3 of 6' gen.err; then
  pass "--continue: 3 games, then 6 with --continue, equal 6 in one run (a partial record cut off)"
else fail "--continue: 3 games, then 6 with --continue, equal 6 in one run" "exit $rc1, $rc2" "$(tail -2 gen.err)"; fi
gen --out part.bin --games 6 --continue --seed 2
if [ "$rc" = 2 ] && grep -q "^janggun-gen: error: --continue: part.bin was made by other options:" gen.err; then
  pass "--continue with another seed: refused, both runs named"
else fail "--continue with another seed: refused, both runs named" "exit $rc" "$(head -3 gen.err)"; fi
gen --games 2
if [ "$rc" = 2 ] && [ "$(cat gen.err)" = "janggun-gen: error: --out is needed (see janggun-gen --help)" ]; then
  pass "janggun-gen without --out: refused"
else fail "janggun-gen without --out: refused" "exit $rc" "$(cat gen.err)"; fi

# Re-scoring: 12 real games, 4 positions each; every record carries its game's result (byte 29).
xz -dc "$root/bench/data/games.jsonl.xz" | head -n 12 >games.jsonl
"$gen" --out real.bin --rescore games.jsonl --nodes 300 --per-game 4 2>gen.err; rc=$?
n=$(( $(wc -c <real.bin) / 40 ))
results=$(od -An -v -tu1 -w40 real.bin | awk '{print $30}' | sort -u | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$n" -gt 20 ] && [ "$n" -le 48 ] && [[ "$results" =~ ^[012\ ]+$ ]]; then
  pass "--rescore: $n positions of 12 real games, results ${results% }"
else fail "--rescore: positions of real games with their results" "exit $rc, $n records, results '$results'" "$(tail -2 gen.err)"; fi

# The trainer on those records, then the engine with the net.
"$train" --data one.bin real.bin --out net.nnue --hidden 32 --epochs 3 --batch 128 >train.out 2>&1; rc=$?
cp train.out net.out
if [ "$rc" = 0 ] && grep -q '^epoch 3/3: training loss [0-9.]*, validation loss [0-9.]*, [0-9]* positions/s' train.out \
   && grep -q '^wrote net.nnue after' train.out && [ -s net.nnue ]; then
  pass "janggun-train: three epochs with their losses, the net written"
else fail "janggun-train: three epochs with their losses, the net written" "exit $rc" "$(tail -4 train.out)"; fi
out=$(printf 'setoption name EvalFile value %s\nsetoption name Use NNUE value true\ngo nodes 3000\n' "$tmp/net.nnue" | "$engine")
if grep -q '^info string EvalFile: using the net net.nnue (1 king bucket, 32 hidden, 1 output bucket)$' <<<"$out" \
   && grep -q '^bestmove ' <<<"$out"; then
  pass "the engine loads the trained net with EvalFile and searches with it"
else fail "the engine loads the trained net with EvalFile and searches with it" "${out:0:400}"; fi
# --split-games: whole games held out; a game starts with each file and wherever the ply (bytes 34-35)
# is not above the record before's. The same positions are used, split otherwise.
games_of() { od -An -v -tu1 -w40 "$1" | awk 'NR > 1 && $35 + 256 * $36 > prev { prev = $35 + 256 * $36; next } { g++; prev = $35 + 256 * $36 } END { print g }'; }
expected_games=$(( $(games_of one.bin) + $(games_of real.bin) ))
"$train" --data one.bin real.bin --out split.nnue --hidden 32 --epochs 1 --batch 128 --split-games --validation 30 >split.out 2>&1; rc=$?
"$train" --data one.bin real.bin --out nosplit.nnue --hidden 32 --epochs 1 --batch 128 --validation 30 >nosplit.out 2>&1
sizes() { sed -n 's/^[0-9]* records: \([0-9]*\) training, \([0-9]*\) validation positions.*/\1 \2/p' "$1"; }
read -r st sv <<<"$(sizes split.out)"; read -r nt nv <<<"$(sizes nosplit.out)"
if [ "$rc" = 0 ] && grep -qx "$expected_games games: whole games held out" split.out && [ -n "$st" ] && [ -n "$nt" ] \
   && [ $((st + sv)) = $((nt + nv)) ] && [ "$sv" != "$nv" ] && ! grep -q "games: whole" nosplit.out; then
  pass "janggun-train --split-games: $expected_games games, $sv of $((st + sv)) positions held out ($nv position by position)"
else fail "janggun-train --split-games: whole games held out" "exit $rc, expected $expected_games games, $st/$sv against $nt/$nv" "$(head -3 split.out)"; fi
# A net on the classical base: it starts as the classical terms, and training lowers the loss on the
# positions it is fitted to (the validation loss of some thirty held-out positions may go either way);
# the engine names the base when it loads it.
"$train" --data one.bin real.bin --out base.nnue --base classical --hidden 32 --epochs 2 --batch 128 >train.out 2>&1; rc=$?
before=$(sed -n 's/^before training: training loss \([0-9.]*\),.*/\1/p' train.out); after=$(sed -n 's/^epoch 2\/2: training loss \([0-9.]*\),.*/\1/p' train.out)
out=$(printf 'setoption name EvalFile value %s\nsetoption name Use NNUE value true\ngo nodes 2000\n' "$tmp/base.nnue" | "$engine")
if [ "$rc" = 0 ] && grep -q '^net: 1 king bucket x 1260 inputs -> 32 x 2 -> 1 output bucket, added to the classical terms;' train.out \
   && [ -n "$before" ] && [ -n "$after" ] && awk -v a="$after" -v b="$before" 'BEGIN { exit !(a < b) }' \
   && grep -q '^info string EvalFile: using the net base.nnue (1 king bucket, 32 hidden, 1 output bucket, on the classical terms)$' <<<"$out" \
   && grep -q '^bestmove ' <<<"$out"; then
  pass "janggun-train --base classical: training loss $before -> $after; the engine loads the net and searches"
else fail "janggun-train --base classical: trained, loaded and searched" "exit $rc, loss '$before' -> '$after'" "$(tail -3 train.out)" "${out:0:300}"; fi
"$train" --data one.bin --base full >err.out 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^janggun-train: error: --base must be none or classical, not 'full'" err.out; then
  pass "janggun-train: --base full refused"
else fail "janggun-train: --base full refused" "exit $rc" "$(cat err.out)"; fi

# --init: training starts from a net's weights: before the first epoch, the validation loss is the one
# the net ended its own training with (the same data and split; the weights differ by the rounding of
# quantisation), far below a random start's, grown or not; a net of another shape, a missing net, or --init with
# --resume, is refused before the data are read (the error is the only line).
valid_loss() { sed -n "s/^$2: training loss [0-9.]*, validation loss \([0-9.]*\).*/\1/p" "$1"; }
"$train" --data one.bin real.bin --out init.nnue --hidden 32 --epochs 1 --batch 128 --init net.nnue >init.out 2>&1; rc=$?
"$train" --data one.bin real.bin --out rand.nnue --hidden 32 --epochs 1 --batch 128 >rand.out 2>&1
from_net=$(valid_loss init.out "before training"); trained=$(valid_loss net.out "epoch 3\/3")
from_random=$(valid_loss rand.out "before training")
if [ "$rc" = 0 ] && [ -s init.nnue ] && [ -n "$from_net" ] && [ -n "$trained" ] && [ -n "$from_random" ] \
   && awk -v a="$from_net" -v t="$trained" -v r="$from_random" 'BEGIN { d = a - t; if (d < 0) d = -d; exit !(d < 0.03 * t && a < r) }'; then
  pass "janggun-train --init: validation loss before training $from_net (the net's own $trained; random weights $from_random)"
else fail "janggun-train --init: starts from the net" "exit $rc, '$from_net' against '$trained' and '$from_random'" "$(tail -3 init.out)"; fi
# train_refused NAME MESSAGE ARGS...: janggun-train with ARGS exits 2 and MESSAGE is its only output line.
train_refused() {
  local name=$1 message=$2; shift 2
  "$train" "$@" >err.out 2>&1; local status=$?
  if [ "$status" = 2 ] && [ "$(cat err.out)" = "$message" ]; then pass "$name"
  else fail "$name" "exit $status" "$(cat err.out)"; fi
}
# Grown (more units, nine king buckets, four output buckets), it starts with exactly the net's loss.
"$train" --data one.bin real.bin --out grown.nnue --hidden 64 --king-buckets 9 --output-buckets 4 --epochs 1 \
  --batch 128 --init net.nnue >grown.out 2>&1; rc=$?
grown_loss=$(valid_loss grown.out "before training")
if [ "$rc" = 0 ] && [ -s grown.nnue ] && [ -n "$grown_loss" ] && [ "$grown_loss" = "$from_net" ]; then
  pass "janggun-train --init: a grown net's validation loss before training is the net's ($grown_loss)"
else fail "janggun-train --init: a grown net starts as the net" "exit $rc, '$grown_loss' against '$from_net'" "$(tail -3 grown.out)"; fi
train_refused "janggun-train --init: a net of another shape refused" \
  "janggun-train: error: --init net.nnue: the net has 1 king bucket(s), 32 hidden units, 1 output bucket(s) and base none; the options ask for 1, 32, 1 and classical (a net can only grow: more hidden units, one king bucket to nine, one output bucket to several, the same base)" \
  --data one.bin --hidden 32 --base classical --init net.nnue
train_refused "janggun-train: --init with --resume refused" \
  "janggun-train: error: --init and --resume cannot be used together (a checkpoint holds its own weights)" \
  --data one.bin --hidden 32 --init net.nnue --resume ck.bin
train_refused "janggun-train --init: a missing net named" \
  "janggun-train: error: --init: cannot open missing.nnue: No such file or directory" \
  --data one.bin --init missing.nnue

# The generator with a net: its searches use it (other records than the classical evaluation's), the
# progress file names it, and a run with another evaluation cannot be continued.
gen --out cl.bin --games 3 --threads 2 --eval classical; rc1=$rc
gen --out nn.bin --games 3 --threads 2 --net net.nnue; rc2=$rc
if [ "$rc1" = 0 ] && [ "$rc2" = 0 ] && [ -s nn.bin ] && ! cmp -s cl.bin nn.bin \
   && grep -q ' eval classical$' cl.bin.progress \
   && grep -q ' eval net.nnue (1 king bucket, 32 hidden, 1 output bucket)$' nn.bin.progress; then
  pass "--net: self-play searched with the trained net, named in the progress file"
else fail "--net: self-play searched with the trained net, named in the progress file" "exit $rc1, $rc2" "$(head -1 nn.bin.progress)"; fi
gen --out cl.bin --games 4 --threads 2 --net net.nnue --continue
if [ "$rc" = 2 ] && grep -q "^janggun-gen: error: --continue: cl.bin was made by other options:" gen.err; then
  pass "--continue with another evaluation: refused"
else fail "--continue with another evaluation: refused" "exit $rc" "$(head -3 gen.err)"; fi
gen --out bad.bin --games 1 --eval classical --net net.nnue
if [ "$rc" = 2 ] && [ "$(cat gen.err)" = "janggun-gen: error: --net needs the net: --eval nnue, not classical" ]; then
  pass "--eval classical with --net: refused"
else fail "--eval classical with --net: refused" "exit $rc" "$(cat gen.err)"; fi
gen --out bad.bin --games 1 --net missing.nnue
if [ "$rc" = 2 ] && [ "$(cat gen.err)" = "janggun-gen: error: --net: cannot open missing.nnue: No such file or directory" ]; then
  pass "--net with a missing file: refused, named"
else fail "--net with a missing file: refused, named" "exit $rc" "$(cat gen.err)"; fi
gen --out bad.bin --games 1 --eval fast
if [ "$rc" = 2 ] && grep -q "^janggun-gen: error: --eval must be " gen.err; then
  pass "--eval fast: refused"
else fail "--eval fast: refused" "exit $rc" "$(cat gen.err)"; fi

# epoch LOG: the epoch 2 line without its speed and time.
epoch2() { grep '^epoch 2/2' "$1" | sed 's/, [0-9]* positions\/s.*//'; }
"$train" --data one.bin --out x.nnue --epochs 2 --stop-after 1 --batch 64 --checkpoint ck.bin >a.out 2>&1 \
  && "$train" --data one.bin --out y.nnue --epochs 2 --batch 64 --resume ck.bin >b.out 2>&1 \
  && "$train" --data one.bin --out z.nnue --epochs 2 --batch 64 >c.out 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '^resuming after epoch 1' b.out && [ -n "$(epoch2 b.out)" ] && [ "$(epoch2 b.out)" = "$(epoch2 c.out)" ]; then
  pass "--stop-after, --checkpoint and --resume: epoch 2 after a resume has the losses of an uninterrupted run"
else fail "--stop-after, --checkpoint and --resume: epoch 2 after a resume has the losses of an uninterrupted run" "exit $rc" "$(grep '^epoch 2' b.out c.out)"; fi

"$train" --data missing.bin >err.out 2>&1; rc=$?
if [ "$rc" = 2 ] && [ "$(cat err.out)" = "janggun-train: error: cannot open 'missing.bin': No such file or directory" ]; then
  pass "janggun-train: a missing file named"
else fail "janggun-train: a missing file named" "exit $rc" "$(cat err.out)"; fi

# Records kept xz-compressed train as the plain file does; a cut-off compressed file is refused.
# (The same names in another folder, since the net's description holds the command line.)
mkdir xz && xz -c one.bin >xz/one.bin && (cd xz && "$train" --data one.bin --out z.nnue --epochs 2 --batch 64 >xz.out 2>&1); rc=$?
if [ "$rc" = 0 ] && [ -n "$(epoch2 c.out)" ] && [ "$(epoch2 xz/xz.out)" = "$(epoch2 c.out)" ] && cmp -s xz/z.nnue z.nnue; then
  pass "janggun-train: xz-compressed records give the plain file's losses and net"
else fail "janggun-train: xz-compressed records give the plain file's losses and net" "exit $rc" "$(cat xz/xz.out)"; fi
head -c $(( $(stat -c %s xz/one.bin) / 2 )) xz/one.bin >cut.bin.xz
"$train" --data cut.bin.xz --out cut.nnue >err.out 2>&1; rc=$?
if [ "$rc" = 2 ] && [ "$(cat err.out)" = "janggun-train: error: cut.bin.xz: truncated xz data (the file ends inside the compressed stream)" ] \
  && [ ! -e cut.nnue ]; then
  pass "janggun-train: a truncated compressed file refused, named"
else fail "janggun-train: a truncated compressed file refused, named" "exit $rc" "$(cat err.out)"; fi
# The self-play records kept in the repository (bench/data/selfplay/, README there): each generation's
# parts, numbered from 01 without a gap, hold exactly the records its progress file counts, and
# janggun-train reads all of them, none malformed.
for progress in "$root"/bench/data/selfplay/*.bin.progress; do
  prefix=${progress%.bin.progress}; name=$(basename "$prefix")
  want=$(sed -n 's/^jobs [0-9]* records \([0-9]*\)$/\1/p' "$progress")
  parts=("$prefix"-*.bin.xz)
  numbered=yes # 01, 02, ... with none missing, so that the glob joins them in game order
  for i in "${!parts[@]}"; do [ "${parts[$i]}" = "$(printf '%s-%02d.bin.xz' "$prefix" $((i + 1)))" ] || numbered=no; done
  bytes=$(cat "${parts[@]}" | xz -dc | wc -c)
  "$train" --data "${parts[@]}" --out kept.nnue --epochs 1 --hidden 32 >kept.out 2>&1; rc=$?
  if [ "$rc" = 0 ] && [ "$numbered" = yes ] && [ -n "$want" ] && [ "$bytes" = $((want * 40)) ] \
    && grep -q "^$want records: .* (.* not quiet left out, 0 malformed)" kept.out; then
    pass "kept self-play records $name (parts: ${#parts[@]}): the $want records of its progress file, none malformed"
  else fail "kept self-play records $name: the records of its progress file, none malformed" \
    "exit $rc, parts numbered in order: $numbered, $bytes bytes, want $want records" "$(head -3 kept.out)"; fi
done
train_refused "janggun-train: --hidden 100 refused" \
  "janggun-train: error: --hidden must be a multiple of 32, not 100" --data one.bin --hidden 100

[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# Tests of bench/pgn_stats.py, which gives the time and depth a move of janggun-match's PGN files in the
# strength log and README: a hand-made PGN in janggun-match's form (book moves, scores with depth, a
# mate score, a Han-first FEN, the final comment) read to exact figures; a broken game counted and exit
# status 1; the command line's errors (exit status 2, one line on stderr) and --help.
# usage: bash tests/cli_pgn_stats.sh BINARY   (BINARY is not used: the script is Python)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_pgn_stats.sh "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
stats="$root/bench/pgn_stats.py"

cat >"$tmp/two.pgn" <<'EOT'
[Event "janggun-match"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]
[FEN "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1"]
[Termination "checkmate"]
[PlyCount "5"]

1. a4b4 {book} 1... h10g8 {book} 2. b3e3 {+0.05/4 0.100s} 2... e9d9 {-0.07/12
1.500s} 3. f1e1 {+M1/6 0.300s} {Han is checkmated; Cho wins} 1-0

[Event "janggun-match"]
[Round "2"]
[White "B"]
[Black "A"]
[Result "0-1"]
[FEN "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR b - - 0 1"]
[Termination "adjudication: resign"]
[PlyCount "2"]

1... a7b7 {-1.00/10 0.500s} 2. e2e3 {+2.00/8 0.200s} {Han resigns} 0-1
EOT
cp "$tmp/two.pgn" "$tmp/broken.pgn"
printf '[Event "janggun-match"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. a4b4 {+0.10/3 0.010s}\n' >>"$tmp/broken.pgn"

# expect NAME STATUS STDOUT STDERR ARGS...: pgn_stats.py ARGS, run in $tmp, gives exactly that.
cd "$tmp" || exit 1
expect() { expect_output "$1" "$2" "$3" "$4" python3 "$stats" "${@:5}"; }

# A's moves: 0.100 s at 4 and 0.300 s at 6 (game 1, Cho), 0.500 s at 10 (game 2: A is Han, who moves
# first from that FEN); B's: 1.500 s at 12 and 0.200 s at 8; book moves left out.
whole="2 games, 2 whole, 0 broken
A: 3 moves, 0.300 s a move (largest 0.500 s), depth 6.7
B: 2 moves, 0.850 s a move (largest 1.500 s), depth 10.0
terminations: checkmate 1, adjudication: resign 1"
expect "two games" 0 "$whole" "" two.pgn
expect "a game without its result in the movetext or PlyCount is broken" 1 "3 games, 2 whole, 1 broken
A: 3 moves, 0.300 s a move (largest 0.500 s), depth 6.7
B: 2 moves, 0.850 s a move (largest 1.500 s), depth 10.0
terminations: checkmate 1, adjudication: resign 1" "" broken.pgn
expect "two files add up" 0 "4 games, 4 whole, 0 broken
A: 6 moves, 0.300 s a move (largest 0.500 s), depth 6.7
B: 4 moves, 0.850 s a move (largest 1.500 s), depth 10.0
terminations: checkmate 2, adjudication: resign 2" "" two.pgn two.pgn

usage="usage: bench/pgn_stats.py FILE.pgn [FILE.pgn ...]"
expect "--help" 0 "$usage" "" --help
expect "-h" 0 "$usage" "" -h
expect "no file" 2 "" "pgn_stats.py: error: no PGN file given ($usage)"
expect "unknown option" 2 "" "pgn_stats.py: error: unknown option '--depth' ($usage)" two.pgn --depth
expect "missing file, nothing printed" 2 "" "pgn_stats.py: error: cannot read nofile.pgn: No such file or directory" two.pgn nofile.pgn
expect "a folder" 2 "" "pgn_stats.py: error: cannot read .: Is a directory" .
printf '\xff\xfe\x00' >"$tmp/binary.pgn"
expect "not UTF-8" 2 "" "pgn_stats.py: error: binary.pgn is not UTF-8 text" binary.pgn

exit $((fails > 0))

#!/usr/bin/env bash
# Command-line tests for `janggun analyze`: usage errors, JSON output checked against the schema of
# README.md (with python3), text output, Korean notation, determinism of a fixed-depth analysis, the
# documented messages for malformed GIB, PGN and EPD input (the rest still analysed, exit status 1),
# terminal positions and the progress bar.
# usage: bash tests/cli_analyze.sh BINARY        (run by tests/run.sh; each check prints PASS or FAIL and a name)
set -u

# shellcheck source=tests/cli_lib.bash
. "$(dirname "$0")/cli_lib.bash"
cli_start tests/cli_analyze.sh "$@"
need_executable "$bin"
command -v python3 >/dev/null || { echo "FAIL python3: needed to check the JSON output"; exit 1; }
samples="$(cd "$(dirname "$0")" && pwd)/data/gib_samples"

# run ARGS...: runs `janggun analyze ARGS`, stdout to $tmp/out, stderr to $tmp/err, status in $rc.
run() { "$bin" analyze "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }

# expect NAME WANT_RC: the exit status.
expect_rc() {
  if [ "$rc" = "$2" ]; then pass "$1"; else fail "$1" "exit status $rc, expected $2" "stderr: $(head -c 600 "$tmp/err")"; fi
}

# The JSON checker: every line of $tmp/out is one object following the README schema; extra checks
# are Python expressions over `objs` (the list of objects) given as arguments.
cat >"$tmp/check.py" <<'EOF'
import json, re, sys

MOVE = re.compile(r'^[a-i](10|[1-9])[a-i](10|[1-9])$')
KOREAN = re.compile(r'^(\d\d[차마상사장포졸병]\d\d[차마상사장포졸병]?|한수쉼)$')

def fail(msg):
    print(msg)
    sys.exit(1)

def check_move(m, notation):
    pattern = KOREAN if notation == 'korean' else MOVE
    if not isinstance(m, str) or not pattern.match(m):
        fail('bad move %r' % (m,))

def check_score(s, allow_null=True):
    if s is None and allow_null:
        return
    if not isinstance(s, dict) or len(s) != 1:
        fail('bad score %r' % (s,))
    (k, v), = s.items()
    if k in ('cp', 'mate'):
        if not isinstance(v, int) or isinstance(v, bool):
            fail('bad score %r' % (s,))
    elif k == 'result':
        if v not in ('1-0', '0-1', '1/2-1/2'):
            fail('bad score %r' % (s,))
    else:
        fail('bad score %r' % (s,))

def check_material(m):
    if set(m) != {'cho', 'han'} or not isinstance(m['cho'], int) or not isinstance(m['han'], float) \
            or m['han'] * 2 % 2 != 1:
        fail('bad material %r' % (m,))

def check_end(e, game):
    if e is None:
        return
    keys = {'result', 'winner', 'reason', 'immediate', 'by_counting'} | ({'ply', 'material', 'record_continues'} if game else set())
    if set(e) != keys:
        fail('end keys %r' % sorted(e))
    if e['result'] not in ('1-0', '0-1', '1/2-1/2') or e['winner'] not in ('cho', 'han', 'draw'):
        fail('bad end %r' % (e,))
    if e['reason'] not in ('checkmate', 'bikjang', 'double pass', 'repetition', 'perpetual check', 'kakao repetition', 'move limit'):
        fail('bad reason %r' % (e,))

def capped(score, side):
    """README's loss rule: the score from the mover's side, clamped to +-1000; a mate is +-1000 and a
    finished game +-1000 or 0."""
    (k, v), = score.items()
    x = max(-1000, min(1000, v)) if k == 'cp' else (1000 if v >= 0 else -1000) if k == 'mate' \
        else {'1-0': 1000, '0-1': -1000, '1/2-1/2': 0}[v]
    return x if side == 'cho' else -x

def expected_loss(m):
    if m['score_before'] is None or m['score_after'] is None:
        return None
    if m['best'] == m['move']:
        return 0
    return max(0, capped(m['score_before'], m['side']) - capped(m['score_after'], m['side']))

def check_limits(l):
    if set(l) != {'depth', 'nodes', 'movetime_ms', 'multipv', 'threads'}:
        fail('limits keys %r' % sorted(l))

def check_lines(lines, notation, multipv):
    if not isinstance(lines, list) or len(lines) > multipv:
        fail('bad lines %r' % (lines,))
    for i, l in enumerate(lines):
        if set(l) != {'rank', 'move', 'score', 'depth', 'pv'} or l['rank'] != i + 1:
            fail('bad line %r' % (l,))
        check_move(l['move'], notation)
        check_score(l['score'], False)
        for m in l['pv']:
            check_move(m, notation)

def check(o, notation):
    t = o.get('type')
    common = {'type', 'input', 'file', 'line', 'number'}
    if o.get('input') not in ('fen', 'epd', 'gib', 'pgn', 'jsonl'):
        fail('bad input %r' % (o,))
    if t == 'error':
        if set(o) != common | {'message'} or not o['message']:
            fail('error keys %r' % sorted(o))
    elif t == 'position':
        keys = common | {'fen', 'variant', 'to_move', 'material', 'end', 'limits', 'search', 'best', 'score', 'pv', 'lines'}
        opt = {'operations', 'bm_found', 'am_avoided'}
        if not keys <= set(o) <= keys | opt:
            fail('position keys %r' % sorted(o))
        if o['to_move'] not in ('cho', 'han'):
            fail('bad to_move')
        check_material(o['material'])
        check_end(o['end'], False)
        check_limits(o['limits'])
        if o['best'] is not None:
            check_move(o['best'], notation)
            if set(o['search']) != {'depth', 'seldepth', 'nodes', 'time_ms'}:
                fail('search keys')
            if o['pv'][0] != o['best']:
                fail('pv does not start with the best move')
        check_score(o['score'])
        check_lines(o['lines'], notation, o['limits']['multipv'])
    elif t == 'game':
        keys = common | {'tags', 'record_result', 'record_termination', 'start_fen', 'variant', 'plies', 'limits', 'moves', 'summary', 'end', 'final'}
        if set(o) != keys:
            fail('game keys %r' % sorted(o))
        if len(o['moves']) != o['plies']:
            fail('plies %d but %d moves' % (o['plies'], len(o['moves'])))
        check_limits(o['limits'])
        for i, m in enumerate(o['moves']):
            mk = {'ply', 'side', 'move', 'best', 'score_before', 'score_after', 'loss', 'mark', 'material', 'depth', 'pv'}
            if not mk <= set(m) <= mk | {'lines'}:
                fail('move keys %r' % sorted(m))
            if m['ply'] != i + 1 or m['side'] not in ('cho', 'han'):
                fail('bad ply %r' % (m,))
            check_move(m['move'], notation)
            if m['best'] is not None:
                check_move(m['best'], notation)
            check_score(m['score_before'])
            check_score(m['score_after'])
            if m['loss'] is not None and (not isinstance(m['loss'], int) or m['loss'] < 0):
                fail('bad loss %r' % (m,))
            if m['loss'] != expected_loss(m):
                fail('ply %d: loss %r, README\'s rule gives %r (%r)' % (m['ply'], m['loss'], expected_loss(m), m))
            want = None if m['loss'] is None or m['loss'] < 50 else 'inaccuracy' if m['loss'] < 100 else 'mistake' if m['loss'] < 300 else 'blunder'
            if m['mark'] != want:
                fail('mark %r for loss %r' % (m['mark'], m['loss']))
            if m['best'] == m['move'] and m['loss'] not in (0, None):
                fail('the best move played lost %r' % m['loss'])
            check_material(m['material'])
            if 'lines' in m:
                check_lines(m['lines'], notation, o['limits']['multipv'])
        for side in ('cho', 'han'):
            s = o['summary'][side]
            if set(s) != {'moves', 'average_loss', 'best_moves', 'inaccuracies', 'mistakes', 'blunders'}:
                fail('summary keys')
            mine = [m for m in o['moves'] if m['side'] == side]
            if s['moves'] != len(mine) or s['blunders'] != sum(m['mark'] == 'blunder' for m in mine) \
                    or s['mistakes'] != sum(m['mark'] == 'mistake' for m in mine) \
                    or s['inaccuracies'] != sum(m['mark'] == 'inaccuracy' for m in mine) \
                    or s['best_moves'] != sum(m['move'] == m['best'] for m in mine):
                fail('summary does not add up: %r' % (s,))
            losses = [m['loss'] for m in mine if m['loss'] is not None]
            if losses and abs(s['average_loss'] - sum(losses) / len(losses)) > 0.051:
                fail('average loss %r' % s['average_loss'])
        check_end(o['end'], True)
        check_material(o['final']['material'])
    else:
        fail('unknown type %r' % (t,))

notation = sys.argv[2]
objs = []
for n, line in enumerate(open(sys.argv[1], encoding='utf-8'), 1):
    try:
        o = json.loads(line)
    except ValueError as e:
        fail('line %d is not JSON: %s' % (n, e))
    check(o, notation)
    objs.append(o)
for expr in sys.argv[3:]:
    if not eval(expr):
        fail('failed: %s\n%s' % (expr, json.dumps(objs, ensure_ascii=False)[:1500]))
EOF

# json_ok NAME NOTATION [EXPR...]: the output is valid JSON following the schema, and each EXPR holds.
json_ok() {
  local name=$1 notation=$2; shift 2
  local why
  if why=$(python3 "$tmp/check.py" "$tmp/out" "$notation" "$@" 2>&1); then pass "$name"; else fail "$name" "$why"; fi
}

# stderr_is NAME TEXT: standard error is exactly TEXT.
stderr_is() {
  printf '%s\n' "$2" >"$tmp/want"
  if cmp -s "$tmp/err" "$tmp/want"; then pass "$1"; else fail "$1" "expected: $2" "actual:   $(cat "$tmp/err")"; fi
}

START='rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1'
MIDGAME='rb1a2bnr/4ka3/3n1c1c1/p1p3p1p/4p4/P8/2PPB1P1P/1C2K2C1/9/RNBA1A1NR w - - 12 7'

# --- usage errors: exit status 2 -------------------------------------------------------------------

run
expect_rc "no input: exit status 2" 2
[ "$(head -n 1 "$tmp/err")" = "janggun: error: analyze needs an input: --fen, --moves, --epd, --gib, --pgn or --jsonl" ] \
  && pass "no input: message" || fail "no input: message" "$(head -n 1 "$tmp/err")"
run --fen "$START" --depth 0
[ $rc = 2 ] && [ "$(head -n 1 "$tmp/err")" = "janggun: error: --depth must be a number from 1 to 100, not '0'" ] \
  && pass "--depth 0 refused" || fail "--depth 0 refused" "rc $rc" "$(head -n 1 "$tmp/err")"
run --fen "$START" --notation wxf
[ $rc = 2 ] && [ "$(head -n 1 "$tmp/err")" = "janggun: error: --notation must be uci or korean, not 'wxf'" ] \
  && pass "--notation wxf refused" || fail "--notation wxf refused" "$(head -n 1 "$tmp/err")"
run --fen "$START" --variant chess
[ $rc = 2 ] && [ "$(head -n 1 "$tmp/err")" = "janggun: error: unknown variant 'chess' (janggi, janggicasual, janggimodern, janggitraditional)" ] \
  && pass "--variant chess refused" || fail "--variant chess refused" "$(head -n 1 "$tmp/err")"
run --fen "$START" --frobnicate 3
[ $rc = 2 ] && [ "$(cat "$tmp/err")" = "janggun: error: unknown option '--frobnicate' (see janggun analyze --help)" ] \
  && pass "unknown option refused" || fail "unknown option refused" "$(head -n 1 "$tmp/err")"
"$bin" analyze --help >"$tmp/out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^usage: janggun analyze' "$tmp/out" && pass "--help" || fail "--help" "rc $rc"

# --- positions -------------------------------------------------------------------------------------

run --fen "$MIDGAME" --depth 6 --multipv 3 --json
expect_rc "--fen --json: exit status 0" 0
json_ok "--fen --json follows the schema, 3 lines" uci "len(objs) == 1" "objs[0]['type'] == 'position'" \
  "len(objs[0]['lines']) == 3" "objs[0]['search']['depth'] == 6" "objs[0]['to_move'] == 'cho'" \
  "objs[0]['end'] is None" "objs[0]['file'] is None and objs[0]['line'] is None"
[ -s "$tmp/err" ] && fail "--fen: nothing on standard error (no progress bar off a terminal)" "$(cat "$tmp/err")" \
  || pass "--fen: nothing on standard error (no progress bar off a terminal)"

# determinism: the same position at a fixed depth gives the same best move, score and line twice
run --fen "$MIDGAME" --depth 7 --json
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(o["best"], o["score"], o["pv"], o["search"]["nodes"])' "$tmp/out" >"$tmp/first"
run --fen "$MIDGAME" --depth 7 --json
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(o["best"], o["score"], o["pv"], o["search"]["nodes"])' "$tmp/out" >"$tmp/second"
if cmp -s "$tmp/first" "$tmp/second" && [ -s "$tmp/first" ]; then pass "fixed depth 7 twice: same best move, score, line and nodes"
else fail "fixed depth 7 twice: same best move, score, line and nodes" "$(cat "$tmp/first")" "$(cat "$tmp/second")"; fi

# a mate in 1 is found, and a mated position is not searched
run --fen '4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - 0 1' --depth 4 --json
json_ok "mate in 1: a1a10, score mate 1" uci "objs[0]['best'] == 'a1a10'" "objs[0]['score'] == {'mate': 1}"
run --fen 'R3k4/7R1/9/9/9/9/9/9/9/3K5 b - - 1 1' --json
json_ok "checkmated root: no search, the referee's end" uci "objs[0]['best'] is None and objs[0]['search'] is None" \
  "objs[0]['score'] == {'result': '1-0'}" "objs[0]['end']['reason'] == 'checkmate' and objs[0]['end']['immediate']"

run --fen "$START" --depth 2
expect_rc "--fen text: exit status 0" 0
grep -q '^Best move: [a-i][0-9]*[a-i][0-9]*, score ' "$tmp/out" && grep -q '^Rules: janggi; Cho to move; material 72-73.5' "$tmp/out" \
  && pass "--fen text output" || fail "--fen text output" "$(cat "$tmp/out")"

# EPD: operations kept, bm checked, a malformed line reported with its line, the rest analysed
{
  echo "# test positions"
  echo "4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - bm Ra10; id \"mate in 1\";"
  echo "rnba1abnr/4k4/1c5c1 w"
  echo ""
  echo "$START ;variant janggicasual ;D1 32"
  echo "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABN w - -"
} >"$tmp/t.epd"
run --epd "$tmp/t.epd" --depth 3 --json
expect_rc "EPD with bad lines: exit status 1" 1
stderr_is "EPD: messages with file, line and position" \
"janggun: error: $tmp/t.epd:3: position 2: the EPD line has no third field (expected \`<board> <side> - -\` then operations)
janggun: error: $tmp/t.epd:6: position 4: bad FEN: rank 1 has 8 files, expected 9"
json_ok "EPD --json: positions, errors, operations, bm" uci "[o['type'] for o in objs] == ['position', 'error', 'position', 'error']" \
  "objs[0]['operations'] == {'bm': 'Ra10', 'id': 'mate in 1'} and objs[0]['bm_found'] is True" \
  "objs[0]['line'] == 2 and objs[1]['line'] == 3 and objs[3]['number'] == 4" "objs[2]['variant'] == 'janggicasual'"

# --- games -----------------------------------------------------------------------------------------

run --moves "b1c3 b10c8 e2e2 e9e9" --depth 3 --json
expect_rc "--moves game: exit status 0" 0
json_ok "--moves game: double pass ends it, counted for Han" uci "objs[0]['plies'] == 4" \
  "objs[0]['end']['reason'] == 'double pass' and objs[0]['end']['result'] == '0-1' and objs[0]['end']['by_counting']" \
  "objs[0]['end']['ply'] == 4 and not objs[0]['end']['record_continues']" \
  "objs[0]['moves'][3]['score_after'] == {'result': '0-1'}" "objs[0]['moves'][0]['material'] == {'cho': 72, 'han': 73.5}"

run --fen "$START" --moves "b1c3 b10c8 Hg3 pass" --depth 2 --multipv 2 --json --notation korean
json_ok "--fen --moves SAN, --multipv 2, Korean notation" korean "objs[0]['moves'][0]['move'] == '02마83'" \
  "objs[0]['moves'][3]['move'] == '한수쉼'" "all(len(m['lines']) == 2 for m in objs[0]['moves'])"

run --fen "$START" --moves "b1c3 b10c8 b1c3" --depth 2
expect_rc "--moves with an illegal move: exit status 1" 1
stderr_is "--moves: the illegal move reported" "janggun: error: --moves: illegal move 'b1c3' at ply 3"

gib="$samples/s05.gib"
plies=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["plies"])' "$samples/expected/s05.jsonl")
run --gib "$gib" --depth 2 --json --variant janggicasual
expect_rc "GIB sample: exit status 0" 0
json_ok "GIB sample --json: the expected moves, tags, record result" uci "len(objs) == 1 and objs[0]['plies'] == $plies" \
  "objs[0]['tags']['초차림'] in ('마상상마', '상마마상', '상마상마', '마상마상')" \
  "objs[0]['record_result'] in ('cho', 'han', 'draw', 'unknown')" "objs[0]['line'] == 1 and objs[0]['number'] == 1" \
  "objs[0]['variant'] == 'janggicasual'"
python3 - "$tmp/out" "$samples/expected/s05.jsonl" <<'EOF' && pass "GIB sample --json: moves equal the expected parse" || fail "GIB sample --json: moves equal the expected parse"
import json, sys
got = [m['move'] for m in json.loads(open(sys.argv[1]).readline())['moves']]
want = json.loads(open(sys.argv[2]).readline())['moves']
sys.exit(0 if got == want else 1)
EOF

run --gib "$gib" --depth 2 --notation korean
grep -q '^ply side move' <(sed 's/^ *//' "$tmp/out") && grep -q '^Summary:' "$tmp/out" && grep -q '^End: ' "$tmp/out" \
  && grep -Eq '^ +1 Cho  [0-9]{2}[차마상사장포졸병][0-9]{2}' "$tmp/out" \
  && pass "GIB text output, Korean notation" || fail "GIB text output, Korean notation" "$(head -8 "$tmp/out")"

# a GIB file with bad games: each reported with file, game and line; the good game still analysed
printf '%s\n' '[대회명 "bad move"]' '[초차림 "마상상마"]' '[한차림 "마상상마"]' '' '1. 79졸78 2. 41병42 3. 08말87' '' \
  '[대회명 "good"]' '[초차림 "마상상마"]' '[한차림 "마상상마"]' '[대국결과 "한 기권승"]' '' '1. 79졸78 2. 41병42' '' \
  '[대회명 "broken"]' '[초차림 "마상상마' '[한차림 "마상상마"]' '' '1. 79졸78' '' \
  '[대회명 "wrong piece"]' '[초차림 "마상상마"]' '[한차림 "마상상마"]' '' '1. 08상87' >"$tmp/t.gib"
run --gib "$tmp/t.gib" --depth 2 --json
expect_rc "GIB with bad games: exit status 1" 1
stderr_is "GIB: messages with file, game and line" \
"janggun: error: $tmp/t.gib:5: game 1: ply 3: unreadable move '08말87'
janggun: error: $tmp/t.gib:15: game 3: broken header (no closing \"]): [초차림 \"마상상마
janggun: error: $tmp/t.gib:24: game 4: ply 1: '08상87' moves an elephant, but the piece on h1 is a horse"
json_ok "GIB with bad games --json: error objects in file order, the good game analysed" uci \
  "[o['type'] for o in objs] == ['error', 'game', 'error', 'error']" "objs[1]['plies'] == 2 and objs[1]['number'] == 2" \
  "objs[1]['record_result'] == 'han' and objs[1]['record_termination'] == 'resign'" "objs[0]['line'] == 5"

# PGN as pychess-variants writes it, and bad games
cat >"$tmp/t.pgn" <<'EOF'
[Event "PyChess rated game"]
[Site "https://www.pychess.org/abc"]
[White "alice"]
[Black "bob"]
[Result "1-0"]
[Variant "Janggi"]
[FEN "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"]
[SetUp "1"]

1. Hc3 Hc8 {good} 2. Hg3 Hg8 3. Pab4 $2 Pab7 1-0

[Event "bad"]
[Variant "Janggi"]

1. Hc3 Hc8 2. Hc4 *

[Event "other variant"]
[Variant "Xiangqi"]

1. h2e2 *
EOF
run --pgn "$tmp/t.pgn" --depth 2 --json
expect_rc "PGN with bad games: exit status 1" 1
stderr_is "PGN: messages with file, game and line" \
"janggun: error: $tmp/t.pgn:15: game 2: ply 3: illegal move 'Hc4'
janggun: error: $tmp/t.pgn:17: game 3: variant 'Xiangqi' is not Janggi (janggi, janggicasual, janggimodern, janggitraditional)"
json_ok "PGN --json: the game analysed, errors reported" uci "[o['type'] for o in objs] == ['game', 'error', 'error']" \
  "objs[0]['plies'] == 6 and objs[0]['tags']['White'] == 'alice' and objs[0]['record_result'] == 'cho'" \
  "[m['move'] for m in objs[0]['moves']][:3] == ['b1c3', 'b10c8', 'h1g3']"

# JSON lines as the corpus holds them, plain and xz-compressed, and bad lines
cat >"$tmp/t.jsonl" <<'EOF'
{"id": "a#1", "event": "Cup", "cho": "kim", "han": "lee", "result": "han", "termination": "resign", "start_fen": "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", "moves": ["b1c3", "b10c8", "h1g3"], "plies": 3}

{"id": "a#2", "moves": ["b1c3", "b1c3"]}
[1, 2]
{"id": "a#4", "moves": ["e2e2", "e9e9", "a4a5"], "variant": "janggitraditional"}
{"id": "a#5", "start_fen": 7, "moves": []}
{"id": "a#6", "moves": ["b1c3"], "result": "draw"}
EOF
run --jsonl "$tmp/t.jsonl" --depth 2 --json
expect_rc "JSON lines with bad games: exit status 1" 1
stderr_is "JSON lines: messages with file, line and game (blank lines not counted)" \
"janggun: error: $tmp/t.jsonl:3: game 2: ply 2: illegal move 'b1c3'
janggun: error: $tmp/t.jsonl:4: game 3: bad JSON: not a JSON object at byte 0
janggun: error: $tmp/t.jsonl:5: game 4: ply 3: move 'a4a5' after the end of the game (double pass)
janggun: error: $tmp/t.jsonl:6: game 5: \"start_fen\" is not a string"
json_ok "JSON lines --json: the good games analysed, members as tags, the record's result and termination" uci \
  "[o['type'] for o in objs] == ['game', 'error', 'error', 'error', 'error', 'game']" \
  "objs[0]['input'] == 'jsonl' and objs[0]['plies'] == 3 and objs[0]['line'] == 1 and objs[0]['number'] == 1" \
  "objs[0]['tags'] == {'id': 'a#1', 'event': 'Cup', 'cho': 'kim', 'han': 'lee', 'result': 'han', 'termination': 'resign', 'plies': '3'}" \
  "objs[0]['record_result'] == 'han' and objs[0]['record_termination'] == 'resign'" \
  "objs[5]['record_result'] == 'draw' and objs[5]['record_termination'] is None and objs[5]['number'] == 6" \
  "[m['move'] for m in objs[0]['moves']] == ['b1c3', 'b10c8', 'h1g3']"
head -n 1 "$tmp/t.jsonl" | xz -c >"$tmp/t.jsonl.xz"
run --jsonl "$tmp/t.jsonl.xz" --depth 2
expect_rc "JSON lines, xz-compressed: exit status 0" 0
grep -qx 'Id: a#1 | Event: Cup | Cho: kim | Han: lee | Result: han' "$tmp/out" \
  && pass "JSON lines, xz-compressed: read, the members shown in the text header" \
  || fail "JSON lines, xz-compressed: read, the members shown in the text header" "$(head -3 "$tmp/out")"
run --jsonl /nonexistent/x.jsonl
stderr_is "JSON lines, missing file: message" \
  "janggun: error: --jsonl: cannot open '/nonexistent/x.jsonl': No such file or directory"

run --gib /nonexistent/x.gib
expect_rc "missing file: exit status 1" 1
stderr_is "missing file: message" "janggun: error: /nonexistent/x.gib: cannot open: No such file or directory"

# several inputs in one run, in order; --progress draws on standard error even off a terminal
run --fen "$START" --moves "b1c3" --gib "$gib" --depth 1 --json --progress --variant janggicasual
json_ok "several inputs: in order" uci "[o['type'] for o in objs] == ['game', 'game']"
grep -q 'positions, .* left' "$tmp/err" && pass "--progress: a bar with the time left on standard error" \
  || fail "--progress: a bar with the time left on standard error" "$(head -c 300 "$tmp/err")"

if [ "$fails" -eq 0 ]; then exit 0; else exit 1; fi

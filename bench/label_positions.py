#!/usr/bin/env python3
"""Makes the tournament positions (bench/data/positions.epd): positions from the real games of
bench/data/games.jsonl.xz where a deep search of the latest Fairy-Stockfish (FSF), with its classical
evaluation, finds one clearly best move. `janggun-match --solve` counts how many of them an engine solves
at a fixed time per position (README.md, janggun-match). Python 3 only (no pyffish): it drives FSF over
UCI, one search at a time. Nothing in the build runs it; tests/cli_solve.sh checks how it sets up its
engines.

  label_positions.py label --fsf FSF [--corpus FILE] [--candidates N] [--seed S] [--first-ply A]
                           [--last-ply B] [--screen-depth D1] [--screen-gap CP] [--depth D] [--hash MB]
                           [--progress] --out LABELS.jsonl
      Samples at most one position a game: the games in a seeded random order, the ply drawn at random
      from A to B (16 to 120), the game going on after it. Left out before any search: a position right
      after a capture (the recapture would be the answer) or a pass, in check, with the generals facing,
      and a game that does not replay under janggi rules (FSF's FEN must equal the one replayed here).
      Each of the N candidates (4000) is searched by FSF (UCI_Variant janggi, Use NNUE false, Threads 1,
      Hash MB (64), MultiPV 2, the FEN alone after `ucinewgame`): first a screening search, `go depth D1`
      (10); when its first line is at least CP (80) better than its second, then `go depth D` (14) from a
      fresh table. Writes a JSON line with the options and FSF's name, one per candidate (its game, ply,
      FEN, the move played in the game, the positions left out so far, the two lines of every depth,
      `screened` when only the screening search ran), and a summary line (FSF's processor time). A file
      cut short after K candidates is the file `--candidates K` makes, and select reads it as such.

  label_positions.py confirm LABELS.jsonl --fsf FSF [--depth D2] [--min-gap CP] [--max-score CP]
                             [--stable N] [--progress] --out CONFIRMED.jsonl
      Searches the candidates that pass (as select judges them) again, deeper: `go depth D2` (16), MultiPV
      2, from a fresh table; their lines become those of that search. Writes the label file again, with
      the thresholds in its options line.

  label_positions.py crosscheck LABELS.jsonl --engine CMD (--depth D | --nodes N) --check-min-gap CP
                                [--check-max-score CP] [--check-stable N] [--min-gap CP] [--max-score CP]
                                [--stable N] [--progress] --out CHECKED.jsonl
      Searches the candidates that pass (as select judges them) with a second engine, MultiPV 2, from a
      fresh table, and keeps its lines beside the labeller's, with the second engine's thresholds (in its
      own centipawns) in the options line, for agree. Given a file it checked before with the same engine
      and limit, it keeps those searches and makes only the missing ones (other thresholds).

  label_positions.py verify CHECKED.jsonl --engine CMD (--depth D | --nodes N) [--progress] --out FILE
      Searches the candidates that the check confirms once more with one line (MultiPV 1), from a fresh
      table: a search with two lines can miss a move that a one-line search of the same size finds. Run
      once for each engine; agree then leaves out a candidate whose one-line search by either engine
      plays another move ("one line: another move").

  label_positions.py agree CHECKED.jsonl... --out FILE.epd
      The agreed positions: those where the second engine's deepest search plays the labeller's move at
      least --check-min-gap above its second line, with the same first move at its last --check-stable
      (3) depths (and within --check-max-score when given). From several files (the same candidates
      labelled by each engine and checked by the other), each position once. Writes them as EPD: `FEN bm
      MOVE; c0 "each engine's score, depth and gap"; c1 "played MOVE"; c2 "labelled by ENGINE"; id "game G
      ply P";`.

  label always needs FSF (--fsf) to replay the games; --engine CMD searches in its place (Janggun, say,
  whose classical evaluation's centipawns measured about 2/3 of FSF's on the same positions, its net's
  about 0.82: thresholds scaled alike). FSF searches with its classical evaluation (Use NNUE false),
  any other engine with its default one; each file records which;
  --screen-nodes and --nodes give node limits in place of the depths, and --part I/N searches every Nth
  candidate from the Ith, so that N processes share the work on the same candidates (select reads
  their files together). confirm takes --engine and --nodes likewise.

  label_positions.py select LABELS.jsonl... [--min-gap CP] [--max-score CP] [--stable N] --out FILE.epd
      Keeps the candidates whose first line at their deepest search is clearly better than the second:
      not a mate, at most --max-score (1000) from either side, at least --min-gap (120) above the second
      line (a second line that is mated counts as far below), with the same first move at the last
      --stable (3) depths; after confirm, with confirm's thresholds (and to the deeper search). Writes them
      as EPD, in game order: `FEN bm MOVE; ce SCORE; acd DEPTH; c0 "second MOVE SCORE, gap GAP"; c1
      "played MOVE"; id "game G ply P";` after `#` lines that say how the file was made. G is the game's
      line in the corpus (1-based), P the plies played before the position. Several files: the parts of
      one labelling (`label --part`), read as one.

With the defaults, `label`, `confirm` and `select` make bench/data/positions.epd (its first lines give the
commands). Scores are FSF's centipawns for the side to move (a soldier is worth about 190 of them in
Janggi).
"""
import argparse
import json
import lzma
import os
import random
import re
import shlex
import subprocess
import sys
import textwrap
import time

MATE = 100000  # a mate score, as compared here: MATE - plies, far beyond any centipawn score
FSF_EVALUATION = 'classical evaluation'  # what FSF always searches with here (Use NNUE false)


# ---- the board, replayed from the corpus's moves ----

SQUARE = re.compile(r'^([a-i])(10|[1-9])([a-i])(10|[1-9])$')


def parse_fen(fen):
    """{(file 0-8, rank 1-10): letter}, side ('w' or 'b'), halfmove counter, move number."""
    fields = fen.split()
    board = {}
    for row, text in enumerate(fields[0].split('/')):
        rank, file = 10 - row, 0
        for ch in re.findall(r'\d+|.', text):
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, rank)] = ch
                file += 1
    return board, fields[1], int(fields[4]), int(fields[5])


def board_fen(board, side, halfmove, fullmove):
    rows = []
    for rank in range(10, 0, -1):
        text, empty = '', 0
        for file in range(9):
            piece = board.get((file, rank))
            if piece is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += piece
        rows.append(text + (str(empty) if empty else ''))
    return '/'.join(rows) + ' %s - - %d %d' % (side, halfmove, fullmove)


def generals_face(board):
    general = {piece: square for square, piece in board.items() if piece in 'Kk'}
    (cf, cr), (hf, hr) = general['K'], general['k']
    return cf == hf and not any((cf, r) in board for r in range(cr + 1, hr))


def replay(start_fen, moves):
    """The position after `moves` as (FEN, whether the last move captured, whether it was a pass,
    whether the generals face). Moves are not checked here: FSF's FEN of the same moves must agree."""
    board, side, halfmove, fullmove = parse_fen(start_fen)
    captured = passed = False
    for move in moves:
        m = SQUARE.match(move)
        origin = ('abcdefghi'.index(m.group(1)), int(m.group(2)))
        target = ('abcdefghi'.index(m.group(3)), int(m.group(4)))
        passed = origin == target
        captured = not passed and target in board
        if not passed:
            board[target] = board.pop(origin)
        halfmove = 0 if captured else halfmove + 1
        if side == 'b':
            fullmove += 1
        side = 'b' if side == 'w' else 'w'
    return board_fen(board, side, halfmove, fullmove), captured, passed, generals_face(board)


# ---- scores ----

def comparable(score):
    """A score ({"cp": N} or {"mate": N}) as a number, mates beyond every centipawn score."""
    if 'cp' in score:
        return score['cp']
    mate = score['mate']
    return MATE - mate if mate > 0 else -MATE - mate


def gap(lines):
    """How much better the first of one depth's lines ({"1": line, "2": line}) is than the second; MATE when
    there is no second (one legal move)."""
    if '2' not in lines:
        return MATE
    return comparable(lines['1']['score']) - comparable(lines['2']['score'])


# ---- FSF over UCI ----

class Engine:
    def __init__(self, command, hash_mb, multipv=2):
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send('uci')
        self.name = '?'
        offered, defaults = set(), {}
        for line in self.read_until('uciok'):
            if line.startswith('id name '):
                self.name = line[8:]
            elif line.startswith('option name ') and ' type ' in line:
                option = line[12:line.index(' type ')]
                offered.add(option)
                if ' default ' in line:
                    defaults[option] = line[line.index(' default ') + 9:]
        # FSF searches with its classical evaluation; any other engine (Janggun) with its own default
        # evaluation, even where it offers an option of that name. self.evaluation names it for the files.
        fsf = is_fsf(self.name)
        if fsf:
            self.evaluation = FSF_EVALUATION
        elif defaults.get('Use NNUE') == 'true' and defaults.get('EvalFile'):
            self.evaluation = 'net ' + defaults['EvalFile']
        else:
            self.evaluation = 'own evaluation'
        settings = (('Threads', 1), ('Hash', hash_mb), ('Use NNUE', 'false') if fsf else None,
                    ('MultiPV', multipv), ('UCI_Variant', 'janggi'))
        for name, value in filter(None, settings):
            if name in offered:
                self.send('setoption name %s value %s' % (name, value))
        self.ready()

    def send(self, line):
        self.proc.stdin.write(line + '\n')
        self.proc.stdin.flush()

    def read_until(self, word):
        """The lines up to and including the first whose first word is `word`."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError('the engine exited while we waited for ' + word)
            line = line.strip()
            lines.append(line)
            if line.split(' ', 1)[0] == word:
                return lines

    def ready(self):
        self.send('isready')
        self.read_until('readyok')

    def fen_and_checkers(self, start_fen, moves):
        self.send('position fen %s moves %s' % (start_fen, ' '.join(moves)))
        self.send('d')
        fen = checkers = None
        while checkers is None:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError('the engine exited during d')
            if line.startswith('Fen: '):
                fen = line[5:].strip()
            elif line.startswith('Checkers:'):
                checkers = line[9:].strip()
        return fen, checkers

    def search(self, fen, limit):
        """{"depth": {"multipv": {"score": {"cp"|"mate": N}, "pv": [...]}}} of the complete iterations (bound
        lines skipped; the first line also has the "nodes" searched so far), and the bestmove. `limit` is
        `go`'s: "depth D" or "nodes N"."""
        self.send('ucinewgame')
        self.ready()
        self.send('position fen ' + fen)
        self.send('go ' + limit)
        lines = {}
        for text in self.read_until('bestmove'):
            words = text.split()
            if not words or words[0] != 'info' or 'multipv' not in words or 'pv' not in words:
                continue
            if 'lowerbound' in words or 'upperbound' in words:
                continue
            d, k = words[words.index('depth') + 1], words[words.index('multipv') + 1]
            at = words.index('score')
            line = {'score': {words[at + 1]: int(words[at + 2])}, 'pv': words[words.index('pv') + 1:]}
            if k == '1':
                line['nodes'] = int(words[words.index('nodes') + 1])
            lines.setdefault(d, {})[k] = line
        if any('2' in one for one in lines.values()):
            # An iteration cut short by a node limit may have its first line only: not a complete depth.
            lines = {d: one for d, one in lines.items() if '2' in one}
        return lines, text.split()[1]

    def cpu_seconds(self):
        """The engine's processor time so far (user and system), from /proc."""
        with open('/proc/%d/stat' % self.proc.pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')

    def quit(self):
        self.send('quit')
        self.proc.wait(timeout=10)


def label(args):
    games = []
    with lzma.open(args.corpus, 'rt', encoding='utf-8') as f:
        for line in f:
            g = json.loads(line)
            games.append((g['start_fen'], g['moves']))
    rng = random.Random(args.seed)
    order = list(range(len(games)))
    rng.shuffle(order)
    engine = Engine(args.fsf, args.hash)  # replays the games and searches, unless --engine searches
    searcher = Engine(args.engine, args.hash) if args.engine else engine
    screen_limit = limit_of(args.screen_depth, args.screen_nodes)
    deep_limit = limit_of(args.depth, args.nodes)
    options = {'seed': args.seed, 'candidates': args.candidates, 'first_ply': args.first_ply,
               'last_ply': args.last_ply, 'screen_depth': args.screen_depth, 'screen_gap': args.screen_gap,
               'depth': args.depth, 'hash': args.hash, 'screen_limit': screen_limit, 'limit': deep_limit}
    part, part_count = (int(n) for n in args.part.split('/'))
    if part_count > 1:
        options['part'] = args.part
    skipped = {'short': 0, 'capture': 0, 'pass': 0, 'bikjang': 0, 'check': 0, 'replay': 0}
    done, started = 0, time.time()
    with open(args.out, 'w') as out:
        out.write(json.dumps({'label': options, 'engine': searcher.name, 'evaluation': searcher.evaluation}) + '\n')
        for index in order:
            if done == args.candidates:
                break
            start_fen, moves = games[index]
            last = min(args.last_ply, len(moves) - 1)  # the game goes on after the position
            if last < args.first_ply:
                skipped['short'] += 1
                continue
            ply = rng.randint(args.first_ply, last)
            fen, captured, passed, facing = replay(start_fen, moves[:ply])
            reason = 'capture' if captured else 'pass' if passed else 'bikjang' if facing else None
            if reason is None:
                fsf_fen, checkers = engine.fen_and_checkers(start_fen, moves[:ply])
                reason = 'replay' if fsf_fen != fen else 'check' if checkers else None
            if reason:
                skipped[reason] += 1
                continue
            done += 1
            if (done - 1) % part_count != part - 1:
                continue  # another part's candidate
            # With the positions left out so far, so that the first K lines are the file of --candidates K.
            record = {'game': index + 1, 'ply': ply, 'fen': fen, 'played': moves[ply], 'skipped': dict(skipped)}
            lines, best = searcher.search(fen, screen_limit)
            if gap(lines[max(lines, key=int)]) < args.screen_gap:
                record['screened'] = True  # not searched deeper
            else:
                lines, best = searcher.search(fen, deep_limit)
            record.update({'best': best, 'lines': lines})
            out.write(json.dumps(record) + '\n')
            out.flush()
            if args.progress:
                print('%d/%d candidates, %.0f s of processor time so far'
                      % (done, args.candidates, searcher.cpu_seconds()), file=sys.stderr)
        cpu = searcher.cpu_seconds()
        if searcher is not engine:
            searcher.quit()
        engine.quit()
        summary = {'candidates': done, 'skipped': skipped, 'engine_cpu_seconds': round(cpu),
                   'seconds': round(time.time() - started)}
        out.write(json.dumps({'summary': summary}) + '\n')
    print(json.dumps(summary))


def part_of(text):
    m = re.match(r'^([1-9][0-9]*)/([1-9][0-9]*)$', text)
    if not m or int(m.group(1)) > int(m.group(2)):
        raise argparse.ArgumentTypeError('expected I/N with 1 <= I <= N, got %r' % text)
    return text


def limit_of(depth, nodes):
    """`go`'s limit: nodes when given, otherwise the depth."""
    return 'nodes %d' % nodes if nodes else 'depth %d' % depth


def limit_flag(limit, prefix=''):
    """A `go` limit as this script's option: "depth 14" -> "--depth 14", "nodes N" -> "--nodes N"."""
    return '--%s%s' % (prefix, limit)


def limit_text(limit):
    kind, n = limit.split()
    return 'depth %s' % n if kind == 'depth' else '{:,} nodes'.format(int(n))


# ---- choosing the positions ----

CRITERIA = (('min_gap', 120), ('max_score', 1000), ('stable', 3))


def read_labels(path):
    """The options line and the candidates of a label file."""
    meta, candidates = None, []
    with open(path) as f:
        for text in f:
            c = json.loads(text)
            if 'label' in c:
                meta = c
            elif 'summary' not in c:
                candidates.append(c)
    if meta is None or not candidates:
        sys.exit('%s: not a label file (no options line or no candidate)' % path)
    return meta, candidates


def rejection(c, criteria):
    """Why a candidate is not a tournament position, judged on its deepest search; None when it is one."""
    if c.get('screened'):
        return 'screened out'
    depths = sorted(c['lines'], key=int)
    last = c['lines'][depths[-1]]
    reason = None
    if '2' not in last:
        reason = 'one legal move'
    elif 'mate' in last['1']['score']:
        reason = 'mate'
    elif abs(last['1']['score']['cp']) > criteria['max_score']:
        reason = 'decided'
    elif gap(last) < criteria['min_gap']:
        reason = 'small gap'
    elif len({c['lines'][d]['1']['pv'][0] for d in depths[-criteria['stable']:]}) != 1:
        reason = 'unstable'
    return 'at depth %s: %s' % (depths[-1], reason) if reason and c.get('confirmed') else reason


def criteria_of(args, meta):
    """The thresholds: those of the confirm step when the file had one (the command line may only repeat
    them), otherwise the command line's or the defaults."""
    given = {name: getattr(args, name) for name, _ in CRITERIA}
    if 'confirm' not in meta:
        return {name: default if given[name] is None else given[name] for name, default in CRITERIA}
    used = meta['confirm']
    for name, _ in CRITERIA:
        if given[name] is not None and given[name] != used[name]:
            sys.exit('%s: confirmed with --%s %d; select with the same' % (args.labels, name.replace('_', '-'),
                                                                          used[name]))
    return {name: used[name] for name, _ in CRITERIA}


def confirm(args):
    meta, candidates = read_labels(args.labels)
    criteria = {name: default if getattr(args, name) is None else getattr(args, name) for name, default in CRITERIA}
    engine = Engine(args.engine or args.fsf, meta['label']['hash'])
    limit = limit_of(args.depth, args.nodes)
    meta['confirm'] = dict(criteria, depth=args.depth, limit=limit, engine=engine.name,
                           evaluation=engine.evaluation)

    def step(c):
        if rejection(c, criteria) is not None:
            return None
        c['lines'], c['best'] = engine.search(c['fen'], limit)
        c['confirmed'] = True
        return 'searched'
    search_and_rewrite(args, meta, candidates, engine, step, 'confirmed')


def search_and_rewrite(args, meta, candidates, engine, step, counted, report_kept=False):
    """Writes the label file again to args.out: the options line, every candidate after step(c), and a
    summary line, also printed. step searches a candidate or not, and returns 'searched', 'kept' (a
    search of an earlier run kept) or None; the summary counts the searches as `counted`. The engine quits
    at the end."""
    started, done = time.time(), {'searched': 0, 'kept': 0}
    with open(args.out, 'w') as out:
        out.write(json.dumps(meta) + '\n')
        for c in candidates:
            what = step(c)
            if what:
                done[what] += 1
            if what == 'searched' and args.progress:
                print('%d searched, %.1f s of processor time each'
                      % (done['searched'], engine.cpu_seconds() / done['searched']), file=sys.stderr)
            out.write(json.dumps(c) + '\n')
        cpu = engine.cpu_seconds()
        engine.quit()
        summary = {counted: done['searched']}
        if report_kept:
            summary['kept from before'] = done['kept']
        summary.update(engine_cpu_seconds=round(cpu), seconds=round(time.time() - started))
        out.write(json.dumps({'summary': summary}) + '\n')
    print(json.dumps(summary))


def read_parts(paths):
    """The options line and candidates of label files made by `label --part I/N` with the same options
    (one file is its own part)."""
    meta, candidates = read_labels(paths[0])
    options = {k: v for k, v in meta['label'].items() if k != 'part'}
    for path in paths[1:]:
        other, more = read_labels(path)
        if {k: v for k, v in other['label'].items() if k != 'part'} != options or other['engine'] != meta['engine']:
            sys.exit('%s: not a part of the labelling of %s (other options or engine)' % (path, paths[0]))
        candidates += more
    return meta, candidates


def select(args):
    meta, candidates = read_parts(args.labels)
    args.labels = args.labels[0]  # for criteria_of's messages
    criteria = criteria_of(args, meta)
    kept, reasons = [], {}
    for c in candidates:
        reason = rejection(c, criteria)
        if reason:
            reasons[reason] = reasons.get(reason, 0) + 1
        else:
            kept.append(c)
    kept.sort(key=lambda c: (c['game'], c['ply']))
    o, deep = meta['label'], meta.get('confirm')
    first = o.get('limit', 'depth %d' % o['depth'])
    searcher = '' if is_fsf(meta['engine']) else ' --engine ENGINE'
    parts = ' --part I/%s' % o['part'].split('/')[1] if 'part' in o else ''
    steps = ('#   label --fsf FSF%s --seed %d --candidates %d --first-ply %d --last-ply %d %s\n'
             '#     --screen-gap %d %s --hash %d%s --out LABELS.jsonl\n'
             % (searcher, o['seed'], o['candidates'] if parts else len(candidates), o['first_ply'], o['last_ply'],
                limit_flag(o.get('screen_limit', 'depth %d' % o['screen_depth']), 'screen-'), o['screen_gap'],
                limit_flag(first), o['hash'], parts))
    thresholds = '--min-gap %d --max-score %d --stable %d' % (criteria['min_gap'], criteria['max_score'],
                                                             criteria['stable'])
    if deep:
        second = deep.get('limit', 'depth %d' % deep['depth'])
        steps += ('#   confirm LABELS.jsonl --fsf FSF %s %s --out CONFIRMED.jsonl\n'
                  '#   select CONFIRMED.jsonl --out FILE\n' % (limit_flag(second), thresholds))
        depth_text = 'at %s and again at %s (acd: the depth)' % (limit_text(first), limit_text(second))
    else:
        steps += '#   select LABELS.jsonl %s --out FILE\n' % thresholds
        depth_text = 'at %s (acd: the depth)' % limit_text(first)
    with open(args.out, 'w') as out:
        fsf = is_fsf(meta['engine'])
        evaluation = evaluation_of(meta)
        prose = ('Tournament positions for janggun-match --solve: %d positions from the real games of '
                 'bench/data/games.jsonl.xz, each with one clearly best move (bm) by %s (%sone thread, Hash %d, '
                 'MultiPV 2): %s, its first line is at least %d centipawns better than the second, within +-%d, '
                 'and the same at the last %d depths. ce: the score in %s centipawns for the side to move (a '
                 'soldier is about %d); c0: the second line and the gap; c1: the move played in the game; id: the '
                 'game (its line in the corpus) and the plies played before the position. Made by '
                 'bench/label_positions.py:'
                 % (len(kept), meta['engine'], evaluation + ', ' if evaluation else '', o['hash'], depth_text,
                    criteria['min_gap'], criteria['max_score'], criteria['stable'], 'FSF' if fsf else "the engine's",
                    190 if fsf else 100))
        out.write(textwrap.fill(prose, 100, initial_indent='# ', subsequent_indent='# ') + '\n' + steps)
        # Each candidate carries the counts left out before it, and each part counts its own: the largest
        # counts of all the parts' candidates are the whole labelling's.
        skipped = max((c['skipped'] for c in candidates), key=lambda counts: sum(counts.values()))
        out.write(textwrap.fill('Left out before any search: %s. Of %d candidates, left out after the searches: '
                                '%s.' % (', '.join('%d %s' % (n, r) for r, n in skipped.items()),
                                         len(candidates),
                                         ', '.join('%d %s' % (n, r) for r, n in sorted(reasons.items())) or 'none'),
                                100, initial_indent='# ', subsequent_indent='# ') + '\n')
        for c in kept:
            depth = max(c['lines'], key=int)
            first, second = c['lines'][depth]['1'], c['lines'][depth]['2']
            if 'cp' in second['score']:
                second_text = '%s %+d, gap %d' % (second['pv'][0], second['score']['cp'], gap(c['lines'][depth]))
            else:
                second_text = '%s mate %d' % (second['pv'][0], second['score']['mate'])
            out.write('%s bm %s; ce %d; acd %s; c0 "second %s"; c1 "played %s"; id "game %d ply %d";\n'
                      % (c['fen'], first['pv'][0], first['score']['cp'], depth, second_text, c['played'], c['game'],
                         c['ply']))
    print('%d of %d candidates kept; left out: %s' % (len(kept), len(candidates), reasons))


def evaluation_of(record):
    """The evaluation of a labelling's, check's or verify's engine as its file records it ('' where a file
    from before the record does not say, but for FSF, which always searched with its classical one)."""
    return record.get('evaluation', FSF_EVALUATION if is_fsf(record['engine']) else '')


def with_evaluation(name, evaluation):
    return '%s (%s)' % (name, evaluation) if evaluation else name


def is_fsf(name):
    """Whether an engine's `id name` is Fairy-Stockfish's (its centipawns: a soldier about 190)."""
    return 'Stockfish' in name


def crosscheck(args):
    meta, candidates = read_labels(args.labels)
    criteria = criteria_of(args, meta)
    engine = Engine(args.engine, meta['label']['hash'])
    limit = limit_of(args.depth, args.nodes)
    # A file checked before by the same engine, evaluation and limit keeps those searches: only the
    # thresholds change.
    previous = meta.get('check', {})
    reuse = (previous.get('engine') == engine.name and previous.get('evaluation') == engine.evaluation
             and previous.get('limit') == limit)
    meta['check'] = {'engine': engine.name, 'evaluation': engine.evaluation, 'limit': limit, 'labels': criteria,
                     'min_gap': args.check_min_gap, 'max_score': args.check_max_score, 'stable': args.check_stable}

    def step(c):
        if rejection(c, criteria) is not None:
            c.pop('check', None)
            return None
        if reuse and 'check' in c:
            return 'kept'
        lines, best = engine.search(c['fen'], limit)
        c['check'] = {'lines': lines, 'best': best}
        return 'searched'
    search_and_rewrite(args, meta, candidates, engine, step, 'checked', report_kept=True)


def verify(args):
    meta, candidates = read_labels(args.labels)
    if 'check' not in meta:
        sys.exit('%s: not checked by a second engine (run crosscheck first)' % args.labels)
    engine = Engine(args.engine, meta['label']['hash'], multipv=1)
    limit = limit_of(args.depth, args.nodes)
    meta['verify'] = [v for v in meta.get('verify', []) if v['engine'] != engine.name]
    meta['verify'].append({'engine': engine.name, 'evaluation': engine.evaluation, 'limit': limit})

    def step(c):
        if 'check' not in c or disagreement(c, meta['check']) is not None:
            return None
        lines, best = engine.search(c['fen'], limit)
        c.setdefault('verify', {})[engine.name] = {'lines': lines, 'best': best}
        return 'searched'
    search_and_rewrite(args, meta, candidates, engine, step, 'verified')


def label_move(c):
    """The labeller's move: the first move of its deepest search."""
    return c['lines'][max(c['lines'], key=int)]['1']['pv'][0]


def one_line_miss(c, meta):
    """The engine whose one-line search (verify) plays another move than the label, or None."""
    move = label_move(c)
    for v in meta.get('verify', []):
        found = c.get('verify', {}).get(v['engine'])
        if found is not None and found['best'] != move:
            return v['engine']
    return None


def disagreement(c, check):
    """Why the second engine's search (c["check"]) does not confirm a labelled candidate; None when its
    deepest first line plays the same move, at least its minimum gap above the second line, with the same
    first move at its last --check-stable depths. The labeller has judged the position undecided; a score
    limit for the second engine applies only when it was given one."""
    lines = c['check']['lines']
    depths = sorted(lines, key=int)
    if not depths:
        return 'no complete depth'
    last = lines[depths[-1]]
    move = label_move(c)
    if last['1']['pv'][0] != move:
        return 'another move'
    if gap(last) < check['min_gap']:
        return 'small gap'
    limit = check.get('max_score')
    if limit is not None and ('mate' in last['1']['score'] or abs(last['1']['score']['cp']) > limit):
        return 'decided'
    if len({lines[d]['1']['pv'][0] for d in depths[-check['stable']:]}) != 1:
        return 'unstable'
    return None


def line_text(name, lines):
    depth = max(lines, key=int)
    first, second = lines[depth]['1'], lines[depth].get('2')
    score = ('%+d' % first['score']['cp']) if 'cp' in first['score'] else 'mate %d' % first['score']['mate']
    if second is None:
        return '%s %s depth %s, one legal move' % (name, score, depth)
    return '%s %s depth %s, gap %d to %s' % (name, score, depth, min(gap(lines[depth]), 9999), second['pv'][0])


def agree(args):
    """The positions that each engine's deep search finds clearly best (by its own thresholds) with the same
    move, from label files checked by the other engine."""
    kept, counts, sources = {}, [], []
    for path in args.labels:
        meta, candidates = read_labels(path)
        check = meta.get('check')
        if check is None:
            sys.exit('%s: not checked by a second engine (run crosscheck first)' % path)
        labeller, checker = meta['engine'], check['engine']
        reasons, agreed = {}, 0
        for c in candidates:
            if 'check' not in c:
                continue
            reason = disagreement(c, check)
            if reason is None and one_line_miss(c, meta):
                reason = 'one line: another move'
            if reason:
                reasons[reason] = reasons.get(reason, 0) + 1
                continue
            agreed += 1
            key = (c['game'], c['ply'])
            entry = kept.setdefault(key, {'c': c, 'found': [], 'lines': {}})
            entry['found'].append(labeller)
            # One search per engine, the labeller's first: two builds of one engine count as one.
            for name, lines in ((labeller, c['lines']), (checker, c['check']['lines'])):
                entry['lines'].setdefault(name.split()[0], (name, lines))
        counts.append('%s: %d labelled by %s, %d of them confirmed by %s (left out: %s)'
                      % (os.path.basename(path), sum(1 for c in candidates if 'check' in c),
                         with_evaluation(labeller, evaluation_of(meta)), agreed,
                         with_evaluation(checker, evaluation_of(check)),
                         ', '.join('%d %s' % (n, r) for r, n in sorted(reasons.items())) or 'none'))
        sources.append((labeller, checker, meta))
    names = sorted({name for labeller, checker, _ in sources for name in (labeller, checker)})
    families = {}
    for name in names:  # "Fairy-Stockfish 011226 LB" and "Fairy-Stockfish 051226 LB": one engine, two builds
        families.setdefault(name.split()[0], []).append(' '.join(name.split()[1:]))
    with open(args.out, 'w') as out:
        prose = ('Agreed tournament positions for janggun-match --solve: %d positions from the real games of '
                 'bench/data/games.jsonl.xz where the deep searches of both %s find the same clearly best move (bm), '
                 'each by its own thresholds: one engine labelled the position (bench/label_positions.py label and '
                 'confirm), the other searched it again (crosscheck) and found the same move at least its own '
                 'minimum gap better than its second line. c0: each engine\'s score for the side to move in its own '
                 'centipawns, its depth and its gap; c1: the move played in the game; c2: which engine labelled it; '
                 'id: the game (its line in the corpus) and the plies played before the position. Made by '
                 'bench/label_positions.py agree from (and, where named, the one-line searches of verify):'
                 % (len(kept), ' and '.join('%s (%s)' % (f, ', '.join(v)) for f, v in sorted(families.items()))))
        out.write(textwrap.fill(prose, 100, initial_indent='# ', subsequent_indent='# ') + '\n')
        for (labeller, checker, meta), text in zip(sources, counts):
            o, check = meta['label'], meta['check']
            deep = meta.get('confirm', {}).get('limit') or o.get('limit', 'depth %d' % o['depth'])
            verified = ''.join('; one line by %s at %s' % (with_evaluation(v['engine'], evaluation_of(v)),
                                                            limit_text(v['limit']))
                               for v in meta.get('verify', []))
            out.write(textwrap.fill('%s; labels at %s (gap %d, within +-%d), checks at %s (gap %d%s, the same move '
                                    'at the last %d depths)%s.'
                                    % (text, limit_text(deep), check['labels']['min_gap'],
                                       check['labels']['max_score'], limit_text(check['limit']), check['min_gap'],
                                       '' if check.get('max_score') is None else ', within +-%d' % check['max_score'],
                                       check['stable'], verified),
                                    100, initial_indent='#   ', subsequent_indent='#     ') + '\n')
        for key in sorted(kept):
            entry = kept[key]
            c = entry['c']
            move = label_move(c)
            scores = ' / '.join(line_text(*entry['lines'][family]) for family in sorted(entry['lines']))
            out.write('%s bm %s; c0 "%s"; c1 "played %s"; c2 "labelled by %s"; id "game %d ply %d";\n'
                      % (c['fen'], move, scores, c['played'], ' and '.join(entry['found']), c['game'], c['ply']))
    print('%d agreed positions; %s' % (len(kept), '; '.join(counts)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('label', help='sample positions from the corpus and search them with FSF')
    p.add_argument('--fsf', required=True, help="the latest Fairy-Stockfish's command")
    p.add_argument('--corpus', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data',
                                                    'games.jsonl.xz'), help='bench/data/games.jsonl.xz')
    p.add_argument('--candidates', type=int, default=4000, help='positions to search (4000)')
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--first-ply', type=int, default=16)
    p.add_argument('--last-ply', type=int, default=120)
    p.add_argument('--screen-depth', type=int, default=10)
    p.add_argument('--screen-gap', type=int, default=80)
    p.add_argument('--depth', type=int, default=14)
    p.add_argument('--hash', type=int, default=64)
    p.add_argument('--progress', action='store_true', help='a line on standard error after each search')
    p.add_argument('--out', required=True)
    p.add_argument('--engine', help='the engine that searches, when not FSF (FSF still replays the games)')
    p.add_argument('--screen-nodes', type=int, help='a node limit for the screening search, in place of its depth')
    p.add_argument('--nodes', type=int, help='a node limit for the deep search, in place of its depth')
    p.add_argument('--part', default='1/1', type=part_of,
                   help='I/N: search only candidates I, I+N, I+2N... (1/1), to share the work between processes')
    for name, text in (('confirm', 'search the positions that pass again, deeper'),
                       ('crosscheck', 'search the positions that pass with a second engine'),
                       ('select', 'keep the positions with one clearly best move, as EPD')):
        p = sub.add_parser(name, help=text)
        p.add_argument('labels', nargs='+' if name == 'select' else None)
        if name == 'confirm':
            p.add_argument('--fsf', help="the latest Fairy-Stockfish's command")
            p.add_argument('--engine', help='the engine that searches, when not FSF')
        if name == 'crosscheck':
            p.add_argument('--engine', required=True, help='the second engine')
            p.add_argument('--check-min-gap', type=int, required=True, help="in the second engine's centipawns")
            p.add_argument('--check-max-score', type=int, help='none: the labeller judged the score')
            p.add_argument('--check-stable', type=int, default=3)
        if name in ('confirm', 'crosscheck'):
            p.add_argument('--depth', type=int, default=16)
            p.add_argument('--nodes', type=int, help='a node limit in place of the depth')
            p.add_argument('--progress', action='store_true', help='a line on standard error after each search')
        p.add_argument('--min-gap', type=int, help='120')
        p.add_argument('--max-score', type=int, help='1000')
        p.add_argument('--stable', type=int, help='3')
        p.add_argument('--out', required=True)
    p = sub.add_parser('verify', help='search the agreed candidates again with one line (MultiPV 1)')
    p.add_argument('labels')
    p.add_argument('--engine', required=True)
    p.add_argument('--depth', type=int, default=16)
    p.add_argument('--nodes', type=int, help='a node limit in place of the depth')
    p.add_argument('--progress', action='store_true', help='a line on standard error after each search')
    p.add_argument('--out', required=True)
    p = sub.add_parser('agree', help='the positions both engines find clearly best, from crosschecked files')
    p.add_argument('labels', nargs='+')
    p.add_argument('--out', required=True)
    args = parser.parse_args()
    if args.command == 'confirm' and not (args.fsf or args.engine):
        parser.error('confirm: --fsf or --engine is required')
    {'label': label, 'confirm': confirm, 'crosscheck': crosscheck, 'verify': verify, 'select': select,
     'agree': agree}[args.command](args)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Makes the tournament positions (bench/data/positions.epd): positions from the real games of
bench/data/games.jsonl.xz where a deep search of the latest Fairy-Stockfish (FSF), with its classical
evaluation, finds one clearly best move. `janggun-match --solve` counts how many of them an engine solves
at a fixed time per position (README.md, janggun-match). Python 3 only (no pyffish): it drives FSF over
UCI, one search at a time. Nothing in the build or the tests runs it.

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

  label_positions.py select LABELS.jsonl [--min-gap CP] [--max-score CP] [--stable N] --out FILE.epd
      Keeps the candidates whose first line at their deepest search is clearly better than the second:
      not a mate, at most --max-score (1000) from either side, at least --min-gap (120) above the second
      line (a second line that is mated counts as far below), with the same first move at the last
      --stable (3) depths; after confirm, with confirm's thresholds (and to the deeper search). Writes them
      as EPD, in game order: `FEN bm MOVE; ce SCORE; acd DEPTH; c0 "second MOVE SCORE, gap GAP"; c1
      "played MOVE"; id "game G ply P";` after `#` lines that say how the file was made. G is the game's
      line in the corpus (1-based), P the plies played before the position.

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
    def __init__(self, command, hash_mb):
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send('uci')
        self.name = '?'
        for line in self.read_until('uciok'):
            if line.startswith('id name '):
                self.name = line[8:]
        for name, value in (('Threads', 1), ('Hash', hash_mb), ('Use NNUE', 'false'), ('MultiPV', 2),
                            ('UCI_Variant', 'janggi')):
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

    def search(self, fen, depth):
        """{"depth": {"multipv": {"score": {"cp"|"mate": N}, "pv": [...]}}} of the complete iterations (bound
        lines skipped; the first line also has the "nodes" searched so far), and the bestmove."""
        self.send('ucinewgame')
        self.ready()
        self.send('position fen ' + fen)
        self.send('go depth %d' % depth)
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
    engine = Engine(args.fsf, args.hash)
    options = {'seed': args.seed, 'candidates': args.candidates, 'first_ply': args.first_ply,
               'last_ply': args.last_ply, 'screen_depth': args.screen_depth, 'screen_gap': args.screen_gap,
               'depth': args.depth, 'hash': args.hash}
    skipped = {'short': 0, 'capture': 0, 'pass': 0, 'bikjang': 0, 'check': 0, 'replay': 0}
    done, started = 0, time.time()
    with open(args.out, 'w') as out:
        out.write(json.dumps({'label': options, 'engine': engine.name}) + '\n')
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
            # With the positions left out so far, so that the first K lines are the file of --candidates K.
            record = {'game': index + 1, 'ply': ply, 'fen': fen, 'played': moves[ply], 'skipped': dict(skipped)}
            lines, best = engine.search(fen, args.screen_depth)
            if gap(lines[max(lines, key=int)]) < args.screen_gap:
                record['screened'] = True  # not searched deeper
            else:
                lines, best = engine.search(fen, args.depth)
            record.update({'best': best, 'lines': lines})
            out.write(json.dumps(record) + '\n')
            out.flush()
            done += 1
            if args.progress:
                print('%d/%d candidates, %.1f s of processor time each'
                      % (done, args.candidates, engine.cpu_seconds() / done), file=sys.stderr)
        cpu = engine.cpu_seconds()
        engine.quit()
        summary = {'candidates': done, 'skipped': skipped, 'engine_cpu_seconds': round(cpu),
                   'seconds': round(time.time() - started)}
        out.write(json.dumps({'summary': summary}) + '\n')
    print(json.dumps(summary))


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
    engine = Engine(args.fsf, meta['label']['hash'])
    meta['confirm'] = dict(criteria, depth=args.depth, engine=engine.name)
    started, searched = time.time(), 0
    with open(args.out, 'w') as out:
        out.write(json.dumps(meta) + '\n')
        for c in candidates:
            if rejection(c, criteria) is None:
                c['lines'], c['best'] = engine.search(c['fen'], args.depth)
                c['confirmed'] = True
                searched += 1
                if args.progress:
                    print('%d searched, %.1f s of processor time each' % (searched, engine.cpu_seconds() / searched),
                          file=sys.stderr)
            out.write(json.dumps(c) + '\n')
        cpu = engine.cpu_seconds()
        engine.quit()
        summary = {'confirmed': searched, 'engine_cpu_seconds': round(cpu), 'seconds': round(time.time() - started)}
        out.write(json.dumps({'summary': summary}) + '\n')
    print(json.dumps(summary))


def select(args):
    meta, candidates = read_labels(args.labels)
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
    steps = ('#   label --fsf FSF --seed %d --candidates %d --first-ply %d --last-ply %d --screen-depth %d\n'
             '#     --screen-gap %d --depth %d --hash %d --out LABELS.jsonl\n'
             % (o['seed'], len(candidates), o['first_ply'], o['last_ply'], o['screen_depth'], o['screen_gap'],
                o['depth'], o['hash']))
    thresholds = '--min-gap %d --max-score %d --stable %d' % (criteria['min_gap'], criteria['max_score'],
                                                             criteria['stable'])
    if deep:
        steps += ('#   confirm LABELS.jsonl --fsf FSF --depth %d %s --out CONFIRMED.jsonl\n'
                  '#   select CONFIRMED.jsonl --out FILE\n' % (deep['depth'], thresholds))
        depth_text = 'at depth %d and again at depth %d (acd)' % (o['depth'], deep['depth'])
    else:
        steps += '#   select LABELS.jsonl %s --out FILE\n' % thresholds
        depth_text = 'at depth %d (acd)' % o['depth']
    with open(args.out, 'w') as out:
        prose = ('Tournament positions for janggun-match --solve: %d positions from the real games of '
                 'bench/data/games.jsonl.xz, each with one clearly best move (bm) by %s (classical evaluation, '
                 'one thread, Hash %d, MultiPV 2): %s, its first line is at least %d centipawns better than the '
                 'second, within +-%d, and the same at the last %d depths. ce: the score in FSF centipawns for the '
                 'side to move (a soldier is about 190); c0: the second line and the gap; c1: the move played in '
                 'the game; id: the game (its line in the corpus) and the plies played before the position. Made '
                 'by bench/label_positions.py:'
                 % (len(kept), meta['engine'], o['hash'], depth_text, criteria['min_gap'], criteria['max_score'],
                    criteria['stable']))
        out.write(textwrap.fill(prose, 100, initial_indent='# ', subsequent_indent='# ') + '\n' + steps)
        out.write(textwrap.fill('Left out before any search: %s. Of %d candidates, left out after the searches: '
                                '%s.' % (', '.join('%d %s' % (n, r) for r, n in candidates[-1]['skipped'].items()),
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
    for name, text in (('confirm', 'search the positions that pass again, deeper'),
                       ('select', 'keep the positions with one clearly best move, as EPD')):
        p = sub.add_parser(name, help=text)
        p.add_argument('labels')
        if name == 'confirm':
            p.add_argument('--fsf', required=True, help="the latest Fairy-Stockfish's command")
            p.add_argument('--depth', type=int, default=16)
            p.add_argument('--progress', action='store_true', help='a line on standard error after each search')
        p.add_argument('--min-gap', type=int, help='120')
        p.add_argument('--max-score', type=int, help='1000')
        p.add_argument('--stable', type=int, help='3')
        p.add_argument('--out', required=True)
    args = parser.parse_args()
    {'label': label, 'confirm': confirm, 'select': select}[args.command](args)


if __name__ == '__main__':
    main()

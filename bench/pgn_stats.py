#!/usr/bin/env python3
"""Figures from janggun-match PGN files: per engine the moves played (book moves left out), the mean and
largest time per move and the mean depth, read from the move comments ({+0.35/12 0.512s}); the games'
terminations (the Termination tag); and a check that every game is whole (its tags, then movetext that
ends with the result its Result tag gives).

Exit status 0 when every game is whole, 1 when one is broken, 2 for a bad command line or an unreadable
file (one line on stderr).

usage: bench/pgn_stats.py FILE.pgn [FILE.pgn ...]
"""
import collections
import re
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
COMMENT = re.compile(r'\{([^}]*)\}')
MOVE_COMMENT = re.compile(r'^(?:[+-](?:M\d+|\d+\.\d+)/(\d+) )?(\d+\.\d+)s$')


def games(path):
    """Yields (tags, movetext) for each game of the file."""
    tags, text = {}, []
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        m = TAG.match(line)
        if m and text:
            yield tags, ' '.join(text)
            tags, text = {}, []
        if m:
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            text.append(line)
    if tags or text:
        yield tags, ' '.join(text)


def main(paths):
    per_engine = collections.defaultdict(lambda: {'moves': 0, 'time': 0.0, 'max': 0.0, 'depth': 0, 'depths': 0})
    terminations = collections.Counter()
    count = broken = 0
    for path in paths:
        for tags, text in games(path):
            count += 1
            result = tags.get('Result')
            body = COMMENT.sub('', text).split()
            if result not in ('1-0', '0-1', '1/2-1/2') or not body or body[-1] != result or 'PlyCount' not in tags:
                broken += 1
                continue
            terminations[tags.get('Termination', '?')] += 1
            names = (tags.get('White', '?'), tags.get('Black', '?'))
            comments = COMMENT.findall(text)
            fen = tags.get('FEN', '').split()
            ply = 1 if len(fen) > 1 and fen[1] == 'b' else 0  # Han to move first
            for c in comments:
                m = MOVE_COMMENT.match(c.strip())
                if c.strip() == 'book':
                    ply += 1
                    continue
                if not m:
                    continue  # the final comment on the ending
                e = per_engine[names[ply % 2]]
                ply += 1
                t = float(m.group(2))
                e['moves'] += 1
                e['time'] += t
                e['max'] = max(e['max'], t)
                if m.group(1):
                    e['depth'] += int(m.group(1))
                    e['depths'] += 1
    print('%d games, %d whole, %d broken' % (count, count - broken, broken))
    for name, e in sorted(per_engine.items()):
        print('%s: %d moves, %.3f s a move (largest %.3f s), depth %.1f' %
              (name, e['moves'], e['time'] / max(1, e['moves']), e['max'], e['depth'] / max(1, e['depths'])))
    print('terminations: ' + ', '.join('%s %d' % kv for kv in terminations.most_common()))
    return 1 if broken else 0


def usage():
    return __doc__.strip().split('\n\n')[-1]


def error(message):
    """A command-line or file error: one line on stderr and exit status 2 (1 means broken games)."""
    print('pgn_stats.py: error: ' + message, file=sys.stderr)
    sys.exit(2)


if __name__ == '__main__':
    args = sys.argv[1:]
    if args in (['-h'], ['--help']):
        print(usage())
        sys.exit(0)
    if not args:
        error('no PGN file given (%s)' % usage())
    for arg in args:
        if arg.startswith('-'):
            error("unknown option '%s' (%s)" % (arg, usage()))
    for arg in args:
        try:
            with open(arg, 'rb') as f:
                f.read().decode('utf-8')
        except OSError as e:
            error('cannot read %s: %s' % (arg, e.strerror or e))
        except UnicodeDecodeError:
            error('%s is not UTF-8 text' % arg)
    sys.exit(main(args))

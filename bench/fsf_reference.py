#!/usr/bin/env python3
"""Records facts from the latest Fairy-Stockfish as test data, so that the tests can check Janggun against
it without it. Needs FSF's Python module, pyffish, built from FSF's public source (its setup.py), on
PYTHONPATH; nothing in the build or the tests runs this script.

  fsf_reference.py game-ends DUMP OUT.tsv
      DUMP: the games that tests/test_referee_fsf.c writes with JANGGUN_REFEREE_DUMP=FILE (games that
      Janggun's referee ends optionally: repetition, perpetual check, the Kakao rule, the move limit).
      Each game is played on for up to 8 random legal plies past that end (seeded by its line number),
      then FSF's claim is recorded: the first ply at which FSF in XBoard mode would answer with a result
      instead of a move (no legal move, or Position::is_optional_game_end), and that result, worked out
      as FSF's XBoard code does (search.cpp, Thread::search at the root). Output lines:
      variant<TAB>start FEN<TAB>moves<TAB>ply of FSF's claim (-1: none)<TAB>result (1-0, 0-1, 1/2-1/2, -)

  fsf_reference.py san CORPUS DUMP OUT.tsv
      FSF's SAN (pyffish.get_san, NOTATION_SAN, as pychess-variants writes PGN) for every legal move of a
      few thousand positions: every 12th ply of every 40th corpus game, and every 7th ply of the dumped
      games (sparse positions with few pieces), under janggi rules (janggicasual where a game went
      through a bikjang). Output lines: variant<TAB>FEN<TAB>uci=san uci=san ...
"""
import json
import lzma
import random
import re
import sys

import pyffish as sf


def side_to_move(variant, fen, moves):
    return sf.get_fen(variant, fen, moves).split()[1]


def claim(variant, fen, moves):
    """FSF's XBoard answer at this position: None (it would move) or the result it prints."""
    legal = sf.legal_moves(variant, fen, moves)
    optional, optional_value = sf.is_optional_game_end(variant, fen, moves)
    if legal and not optional:
        return None
    immediate, immediate_value = sf.is_immediate_game_end(variant, fen, moves)
    if immediate:
        value = immediate_value
    elif optional:
        value = optional_value
    else:
        value = sf.game_result(variant, fen, moves)
    if value == sf.VALUE_DRAW:
        return '1/2-1/2'
    white_view = -value if side_to_move(variant, fen, moves) == 'b' else value
    return '1-0' if white_view == sf.VALUE_MATE else '0-1'


def game_ends(dump_path, out_path):
    out = open(out_path, 'w')
    counts = {}
    with open(dump_path) as f:
        for number, line in enumerate(f):
            variant, fen, moves, _result, reason = line.rstrip('\n').split('\t')
            moves = moves.split()
            rng = random.Random(number)
            for _ in range(rng.randint(0, 8)):
                legal = sf.legal_moves(variant, fen, moves)
                if not legal:
                    break
                moves.append(rng.choice(sorted(legal)))
            ply, result = -1, '-'
            for k in range(len(moves) + 1):
                r = claim(variant, fen, moves[:k])
                if r:
                    ply, result = k, r
                    break
            key = (variant, reason)
            counts[key] = counts.get(key, 0) + 1
            out.write('%s\t%s\t%s\t%d\t%s\n' % (variant, fen, ' '.join(moves), ply, result))
    out.close()
    for (variant, reason), n in sorted(counts.items()):
        print('%s, ended by Janggun as %s: %d games' % (variant, reason, n))


def san_positions(corpus_path, dump_path):
    with lzma.open(corpus_path, 'rt', encoding='utf-8') as f:
        for number, line in enumerate(f):
            if number % 40:
                continue
            game = json.loads(line)
            for ply in range(0, len(game['moves']), 12):
                yield game['start_fen'], game['moves'][:ply]
    with open(dump_path) as f:
        for number, line in enumerate(f):
            if number % 3:
                continue
            variant, fen, moves = line.split('\t')[:3]
            moves = moves.split()
            for ply in range(0, len(moves), 7):
                yield fen, moves[:ply]


def san(corpus_path, dump_path, out_path):
    out = open(out_path, 'w')
    positions = moves_written = disambiguated = 0
    seen = set()
    for start, moves in san_positions(corpus_path, dump_path):
        variant = 'janggi'
        try:
            fen = sf.get_fen(variant, start, moves)
            legal = sf.legal_moves(variant, start, moves)
        except Exception:
            continue
        if len(legal) != len(sf.legal_moves('janggicasual', start, moves)):
            variant = 'janggicasual'  # a corpus game that went through a bikjang
            fen = sf.get_fen(variant, start, moves)
            legal = sf.legal_moves(variant, start, moves)
        if not legal or fen in seen:
            continue
        seen.add(fen)
        pairs = []
        for m in sorted(legal):
            s = sf.get_san(variant, fen, m, False, sf.NOTATION_SAN)
            pairs.append('%s=%s' % (m, s))
        positions += 1
        moves_written += len(pairs)
        disambiguated += sum(1 for p in pairs if is_disambiguated(p))
        out.write('%s\t%s\t%s\n' % (variant, fen, ' '.join(pairs)))
    out.close()
    print('%d positions, %d moves, %d with a disambiguating file, rank or square' % (positions, moves_written,
                                                                                   disambiguated))


SAN = re.compile(r'^[KAEHRCP]([a-i]?(?:10|[1-9])?)x?[a-i](?:10|[1-9])[+#]?$')


def is_disambiguated(pair):
    """Whether a SAN names part of the origin (a file, a rank or the square) besides the piece."""
    m = SAN.match(pair.split('=')[1])
    return bool(m and m.group(1))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'game-ends':
        game_ends(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == 'san':
        san(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())

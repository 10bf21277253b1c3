#!/usr/bin/env python3
"""The reference values of tests/test_match.c (Elo, error bars, LOS, the pentanomial SPRT), computed
independently of bench/match/stats.c: the formulas of README.md written out again in Python, the normal
quantile from the standard library, and the SPRT's constrained maximum likelihood found by Newton's
method instead of stats.c's bisection.

    python3 tests/match_reference.py           prints every value
    python3 tests/match_reference.py --check   also checks that every long reference number in
                                               tests/test_match.c is one of them (exit status 1 if not)
"""
import math
import os
import re
import sys
from statistics import NormalDist

Z = NormalDist().inv_cdf(0.975)


def elo(score):
    return -400 * math.log10(1 / score - 1)


def score_of(elo_diff):
    return 1 / (1 + 10 ** (-elo_diff / 400))


def interval(mu, sd, n):
    """Half the width of the Elo interval of mu +- Z sd / sqrt(n)."""
    se = sd / math.sqrt(n)
    return (elo(mu + Z * se) - elo(mu - Z * se)) / 2


def trinomial(w, d, l):
    n = w + d + l
    mu = (w + d / 2) / n
    var = (w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + l * mu ** 2) / n
    return mu, elo(mu), interval(mu, math.sqrt(var), n)


def pentanomial(counts):
    n = sum(counts)
    xs = [i / 4 for i in range(5)]
    mu = sum(c * x for c, x in zip(counts, xs)) / n
    var = sum(c * (x - mu) ** 2 for c, x in zip(counts, xs)) / n
    return mu, elo(mu), interval(mu, math.sqrt(var), n)


def los(w, l):
    return 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l))))


def mle(freqs, xs, s):
    """The distribution closest to freqs (maximum likelihood) with mean s: p_i = f_i / (1 + t (x_i - s)),
    t the root of sum f_i (x_i - s) / (1 + t (x_i - s)) = 0, by Newton's method from t = 0."""
    t = 0.0
    for _ in range(100):
        g = sum(f * (x - s) / (1 + t * (x - s)) for f, x in zip(freqs, xs))
        dg = -sum(f * (x - s) ** 2 / (1 + t * (x - s)) ** 2 for f, x in zip(freqs, xs))
        step = g / dg
        # keep every denominator positive
        while any(1 + (t - step) * (x - s) <= 0 for x in xs):
            step /= 2
        t -= step
        if abs(step) < 1e-15:
            break
    p = [f / (1 + t * (x - s)) for f, x in zip(freqs, xs)]
    total = sum(p)
    return [v / total for v in p]


def llr(counts, elo0, elo1):
    """fishtest's LLR_logistic on game pairs; an empty count is taken as 0.001 pairs."""
    counts = [c if c > 0 else 1e-3 for c in counts]
    n = sum(counts)
    freqs = [c / n for c in counts]
    xs = [i / 4 for i in range(5)]
    p0 = mle(freqs, xs, score_of(elo0))
    p1 = mle(freqs, xs, score_of(elo1))
    return sum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0))


def values():
    out = {}
    out['elo(0.75)'] = elo(0.75)
    out['score(100 Elo)'] = score_of(100)
    out['+120 =100 -80: score, Elo, error'] = trinomial(120, 100, 80)
    out['+30 =40 -30: error'] = trinomial(30, 40, 30)[2]
    out['pairs 10 40 80 50 20: score, Elo, error'] = pentanomial([10, 40, 80, 50, 20])
    out['pairs 5 20 50 20 5: error'] = pentanomial([5, 20, 50, 20, 5])[2]
    for w, l in [(120, 80), (7, 12)]:
        out['LOS %d-%d' % (w, l)] = los(w, l)
    sprt_cases = [([10, 40, 80, 50, 20], 0, 5), ([5, 20, 50, 20, 5], 0, 5), ([100, 400, 900, 520, 110], 0, 5),
                  ([0, 3, 10, 2, 0], -5, 0), ([400, 1100, 1900, 1200, 420], 0, 2), ([0, 0, 0, 0, 200], 0, 5),
                  ([0, 0, 0, 0, 7], 0, 200), ([0, 0, 0, 0, 8], 0, 200), ([5, 0, 0, 0, 0], 0, 200)]
    for counts, e0, e1 in sprt_cases:
        out['LLR %s elo0=%g elo1=%g' % (counts, e0, e1)] = llr(counts, e0, e1)
    for alpha, beta in [(0.05, 0.05), (0.05, 0.1)]:
        out['SPRT bounds alpha=%g beta=%g' % (alpha, beta)] = (math.log(beta / (1 - alpha)),
                                                             math.log((1 - beta) / alpha))
    return out


def flat(vals):
    for v in vals.values():
        yield from (v if isinstance(v, tuple) else (v,))


def main():
    vals = values()
    for name, v in vals.items():
        print('%s: %s' % (name, ', '.join(repr(x) for x in (v if isinstance(v, tuple) else (v,)))))
    if '--check' not in sys.argv[1:]:
        return 0
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'test_match.c')
    text = open(path, encoding='utf-8').read()
    start, end = text.index('static void test_elo'), text.index('static void test_time_control')
    # Every number with 4 or more digits after the point in the statistics tests is a reference value.
    refs = [float(m) for m in re.findall(r'-?\d+\.\d{4,}', text[start:end])]
    computed = list(flat(vals))
    missing = [r for r in refs if not any(abs(r - c) <= 1e-8 * max(1, abs(r)) for c in computed)]
    unused = [c for c in computed if not any(abs(r - c) <= 1e-8 * max(1, abs(r)) for r in refs)]
    print('%d reference values in test_match.c, %d computed here' % (len(refs), len(computed)))
    if missing or unused or len(refs) < 25:
        print('not reproduced: %r; computed but not in the test: %r' % (missing, unused))
        return 1
    print('every reference value reproduced')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Fit the WDL model of engine/search/wdl.c to self-play games.

usage: bench/wdl_fit.py GAMES.pgn [...]

Reads build/match --pgnout records: every move's comment {+1.23/5 27ms}
is the mover's score in pawns (mate scores {M5/...} are left out: they
are exact), the game's result gives that mover's outcome.  Fits
    W(s) = 1 / (1 + exp(-(s - m) / k)),  L(s) = W(-s),  D = 1 - W - L
(s in centipawns, m >= 0 the draw margin, k the scale) by maximum
likelihood over a coarse-to-fine grid, and prints "m k positions games
log-likelihood" and the outcome counts.  docs/search.md, "WDL", gives
the commands that produced the table in wdl.c.
"""
import math
import re
import sys


def samples(paths):
    out, games = [], 0
    for path in paths:
        text = open(path).read()
        for g in re.split(r'\n(?=\[Event )', text):
            res = re.search(r'\[Result "([^"]*)"\]', g)
            if not res or res.group(1) not in ("1-0", "0-1", "1/2-1/2"):
                continue
            white_score = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[res.group(1)]
            body = g.split('\n\n', 1)[-1]
            games += 1
            side = None  # 'w' or 'b': the side of the next move
            for tok in re.findall(r'\{[^}]*\}|\S+', body):
                if re.fullmatch(r'\d+\.', tok):
                    side = 'w'
                elif re.fullmatch(r'\d+\.\.\.', tok):
                    side = 'b'
                elif tok.startswith('{'):
                    m = re.match(r'\{([+-]\d+\.\d+)/', tok)
                    if m and last is not None:
                        cp = round(float(m.group(1)) * 100)
                        out.append((cp, white_score if last == 'w' else -white_score))
                elif tok in ("1-0", "0-1", "1/2-1/2", "*"):
                    break
                else:  # a move
                    if side is None:
                        side = 'w'
                    last = side
                    side = 'b' if side == 'w' else 'w'
                    continue
                if not tok.startswith('{'):
                    last = None
    return out, games


def loglik(data, m, k):
    total = 0.0
    for s, o in data:
        w = 1 / (1 + math.exp(max(-50, min(50, -(s - m) / k))))
        l = 1 / (1 + math.exp(max(-50, min(50, (s + m) / k))))
        p = w if o > 0 else l if o < 0 else 1 - w - l
        total += math.log(max(p, 1e-9))
    return total


def main():
    data, games = samples(sys.argv[1:])
    if not data:
        sys.exit("no scored moves")
    # Scores beyond 20 pawns add nothing but rounding: clipped.
    data = [(max(-2000, min(2000, s)), o) for s, o in data]
    best = None
    ms, ks = range(0, 401, 25), range(25, 1001, 25)
    for step in (25, 5, 1):
        for m in ms:
            for k in ks:
                v = loglik(data, m, k)
                if best is None or v > best[0]:
                    best = (v, m, k)
        _, bm, bk = best
        ms = range(max(0, bm - step), bm + step + 1, max(1, step // 5))
        ks = range(max(1, bk - step), bk + step + 1, max(1, step // 5))
    v, m, k = best
    wins = sum(1 for _, o in data if o > 0)
    draws = sum(1 for _, o in data if o == 0)
    print("m %d k %d positions %d games %d loglik %.1f" % (m, k, len(data), games, v))
    print("outcomes: win %d draw %d loss %d" % (wins, draws, len(data) - wins - draws))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Morris endings played by a freshly started engine, checked by the tables.

For each of --count random positions of 3 to --most pieces a side (none in
hand, the option sets chosen), a new engine process is started with
MORELLI_TABLES=--tables, given the position and `go movetime --movetime`;
then `solve` in the same process gives the exact value of the position and
of every move.  A move is right when it keeps the value (a win stays a win,
a draw a draw; from a lost position any move is right) and optimal when it
also has the best distance (the shortest win, the longest loss).  Prints one line per option set and a total;
exit status 1 if any move was wrong or any value unknown.

    python3 bench/endings.py --tables ~/.cache/morelli --count 60
"""
import argparse
import os
import random
import subprocess
import sys

ROWS = [3, 3, 3, 6, 3, 3, 3]  # points of ranks 7 down to 1


def fen_of(cells, side):
    rows, k = [], 0
    for n in ROWS:
        row, run = "", 0
        for c in cells[k : k + n]:
            if c == ".":
                run += 1
            else:
                row += (str(run) if run else "") + c
                run = 0
        rows.append(row + (str(run) if run else ""))
        k += n
    return "/".join(rows) + " %s 0 0 0" % side


def random_position(rng, most):
    m, o = rng.randint(3, most), rng.randint(3, most)
    side = rng.choice("wb")
    me, other = ("W", "B") if side == "w" else ("B", "W")
    pts = rng.sample(range(24), m + o)
    cells = ["."] * 24
    for p in pts[:m]:
        cells[p] = me
    for p in pts[m:]:
        cells[p] = other
    return fen_of(cells, side), m, o


def value_of(text):
    """'win in 5 plies' -> (1, 5); 'draw' -> (0, 0); 'loss in 4 plies' -> (-1, 4)."""
    t = text.strip()
    if t == "draw":
        return (0, 0)
    w = t.split()
    if len(w) >= 3 and w[0] in ("win", "loss"):
        return (1 if w[0] == "win" else -1, int(w[2]))
    return None


def play(engine, tables, opts, fen, movetime):
    cmds = ["setoption name UCI_Variant value morris"]
    cmds += ["setoption name %s value %s" % kv for kv in opts]
    cmds += ["position fen " + fen, "go movetime %d" % movetime]
    env = dict(os.environ, MORELLI_TABLES=tables)
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    p.stdin.write("\n".join(cmds) + "\n")
    p.stdin.flush()
    best = None
    for line in p.stdout:
        if line.startswith("bestmove"):
            best = line.split()[1]
            break
    p.stdin.write("solve\nquit\n")
    p.stdin.flush()
    out = p.communicate(timeout=60)[0]
    value, moves = None, {}
    for line in out.splitlines():
        if line.startswith("Value:"):
            value = value_of(line[6:])
        elif ": " in line and not line.startswith(("info", "Best", "Result")):
            mv, v = line.split(": ", 1)
            moves[mv] = value_of(v)
    return best, value, moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="build/morelli")
    ap.add_argument("--tables", required=True, help="the directory of the table files")
    ap.add_argument("--count", type=int, default=60, help="positions per option set")
    ap.add_argument("--most", type=int, default=5, help="most pieces a side")
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--diagonals", default="both", choices=["true", "false", "both"])
    ap.add_argument("--flying", default="true", choices=["true", "false", "both"])
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pick = lambda v: ["false", "true"] if v == "both" else [v]
    bad = 0
    total = [0, 0, 0, 0]  # positions, right, optimal, unknown
    for d in pick(a.diagonals):
        for f in pick(a.flying):
            opts = [("Diagonals", d), ("Flying", f)]
            n = right = optimal = unknown = 0
            while n < a.count:
                fen, m, o = random_position(rng, a.most)
                best, value, moves = play(a.engine, a.tables, opts, fen, a.movetime)
                if best in (None, "0000", "(none)") and value is None:
                    continue  # the game is over there
                n += 1
                got = moves.get(best)
                if value is None or got is None:
                    unknown += 1
                    print("unknown: %s (%s)" % (fen, best))
                    continue
                ok = value[0] < 0 or got[0] == value[0]
                right += ok
                optimal += ok and got == value
                if not ok:
                    print("wrong: %s plays %s (%s), the position is %s" % (fen, best, got, value))
            print("Diagonals=%s Flying=%s: %d positions, %d right, %d optimal, %d unknown"
                  % (d, f, n, right, optimal, unknown))
            for i, x in enumerate((n, right, optimal, unknown)):
                total[i] += x
            bad += (n - right - unknown) + unknown
    print("all: %d positions, %d right, %d optimal, %d unknown" % tuple(total))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

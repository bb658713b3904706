#!/usr/bin/env python3
"""Where `go` plays the placement of Nine Men's Morris exactly.

One engine process (MORELLI_TABLES=--tables) plays both sides of the
placement from --count random openings of four placements (seeds 1, 2,
...), `go movetime --movetime` a move.  For each placement after the
opening it prints the pieces left in hand before the move and whether
the answer was the exact solver's (S: a proven score at depth 1 after one
node; -: the normal search), with the seconds it took:

    python3 bench/place_go.py --tables ~/.cache/morelli --movetime 1000 --count 3

With the standard set up to 9 a side the solver answers every move from
the first one whose position it solves in a third of the move's time.
"""
import argparse
import os
import random
import subprocess
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", required=True, help="the table files' directory")
    ap.add_argument("--movetime", type=int, default=1000, help="ms a move (1000)")
    ap.add_argument("--count", type=int, default=3, help="openings (3)")
    ap.add_argument("--engine", default="build/morelli", help="the engine (build/morelli)")
    a = ap.parse_args()
    env = dict(os.environ, MORELLI_TABLES=a.tables)
    for seed in range(1, a.count + 1):
        rnd = random.Random(seed)
        p = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, env=env)

        def send(line):
            p.stdin.write(line + "\n")
            p.stdin.flush()

        def until(prefix):
            out = []
            for line in p.stdout:
                out.append(line.rstrip())
                if line.startswith(prefix):
                    break
            return out

        def position(moves):
            send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

        send("setoption name UCI_Variant value morris")
        send("isready")
        until("readyok")
        moves, row = [], []
        for _ in range(4):
            position(moves)
            send("perft 1")
            legal = [l.split(":")[0] for l in until("Nodes searched") if ":" in l
                     and not l.startswith("Nodes")]
            moves.append(rnd.choice(legal))
        for ply in range(4, 18):
            position(moves)
            t0 = time.time()
            send(f"go movetime {a.movetime}")
            out = until("bestmove")
            secs = time.time() - t0
            info = [l for l in out if l.startswith("info depth")]
            exact = bool(info) and info[-1].startswith("info depth 1 ") and " nodes 1 " in info[-1]
            row.append(f"{18 - ply}:{'S' if exact else '-'}{secs:.1f}")
            moves.append(out[-1].split()[1])
        send("quit")
        p.wait()
        print(seed, " ".join(moves[:4]), " ".join(row), flush=True)


if __name__ == "__main__":
    main()

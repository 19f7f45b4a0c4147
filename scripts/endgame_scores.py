#!/usr/bin/env python3
"""How far from 0 an engine scores endgames the tables call drawn (and how
high the won ones): the measure of docs/strength.md's endgame rows.

Usage:

    python3 scripts/endgame_scores.py ENGINE EPD [--nodes N] [--option NAME=VALUE ...]

EPD is a file of `shears tb-gen` (each line's `c0 "<material> <win|draw>"`
labels it for the side to move). Each position is searched with `go nodes
N` (default 20,000) in a fresh game (`ucinewgame`); the last `score cp` (from
the side to move's view; a mate counts as ±10,000) is kept. Printed per label
and per material: the count, the mean and median of |score| for draws, the
mean and lowest score for wins.
"""

import argparse
import re
import statistics
import subprocess
import sys

SCORE = re.compile(r"\bscore (cp|mate) (-?\d+)")
LABEL = re.compile(r'c0 "(\S+) (win|draw)"')


def read_epd(path):
    """(fen, material, label) for each labelled line of a tb-gen file."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = LABEL.search(line)
            if not m:
                continue
            fen = " ".join(line.split()[:4]) + " 0 1"
            out.append((fen, m.group(1), m.group(2)))
    return out


class Engine:
    """A UCI engine over pipes."""

    def __init__(self, path, options):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        for line in self.p.stdout:
            lines.append(line)
            if line.startswith(token):
                return lines
        raise RuntimeError(f"engine ended before {token}")

    def score(self, fen, nodes):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        last = None
        for line in self.wait("bestmove"):
            m = SCORE.search(line)
            if m:
                value = int(m.group(2))
                if m.group(1) == "mate":
                    value = 10_000 if value > 0 else -10_000
                last = value
        return last

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("epd")
    ap.add_argument("--nodes", type=int, default=20_000)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    options = [tuple(o.split("=", 1)) for o in args.option]
    positions = read_epd(args.epd)
    if not positions:
        sys.exit(f"{args.epd}: no labelled positions")
    engine = Engine(args.engine, options)
    rows = {}
    for fen, material, label in positions:
        score = engine.score(fen, args.nodes)
        if score is None:
            sys.exit(f"no score for {fen}")
        rows.setdefault((label, material), []).append(score)
        rows.setdefault((label, "all"), []).append(score)
    engine.close()
    for (label, material), scores in sorted(rows.items()):
        if label == "draw":
            mags = [abs(s) for s in scores]
            print(f"draw {material:8} n={len(scores):3}  mean |cp| {statistics.mean(mags):7.1f}"
                  f"  median |cp| {statistics.median(mags):7.1f}")
        else:
            print(f"win  {material:8} n={len(scores):3}  mean cp {statistics.mean(scores):8.1f}"
                  f"  lowest {min(scores):6}")


if __name__ == "__main__":
    main()

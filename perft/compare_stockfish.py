#!/usr/bin/env python3
"""Side-by-side perft speed: Shears against Stockfish's `go perft`, in one run.

Usage: perft/compare_stockfish.py [--rounds 5] [--shears target/release/shears] [--stockfish stockfish]

For each position (start position depth 6, Kiwipete depth 5) the two engines
take turns, `rounds` times each, so machine noise hits both alike. Stockfish
is timed from sending `go perft N` to its `Nodes searched` line; Shears runs
`shears perft N --threads T` and reports its own time (process start-up is
excluded for both). Prints medians and the ratios Stockfish/Shears (above 1
means Shears is faster) and Shears 2 threads / 1 thread.
"""
import argparse
import shutil
import statistics
import subprocess
import time

POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
]


def stockfish_time(sf, fen, depth, expected):
    sf.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
    sf.stdin.flush()
    start = time.perf_counter()
    while True:
        line = sf.stdout.readline()
        if line.startswith("Nodes searched"):
            elapsed = time.perf_counter() - start
            assert int(line.split(":")[1]) == expected, line
            return elapsed


def shears_time(exe, fen, depth, threads, expected):
    out = subprocess.run([exe, "perft", str(depth), "--fen", fen, "--threads", str(threads)],
                         capture_output=True, text=True, check=True).stdout.split()
    # "nodes N time T ms nps X"
    assert int(out[1]) == expected, out
    return int(out[3]) / 1000.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--shears", default="target/release/shears")
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = ap.parse_args()
    sf = subprocess.Popen([args.stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    sf.stdin.write("uci\nsetoption name Threads value 1\nisready\n")
    sf.stdin.flush()
    while sf.stdout.readline().strip() != "readyok":
        pass
    for name, fen, depth, expected in POSITIONS:
        times = {"stockfish": [], "shears-1": [], "shears-2": []}
        for _ in range(args.rounds):
            times["stockfish"].append(stockfish_time(sf, fen, depth, expected))
            times["shears-1"].append(shears_time(args.shears, fen, depth, 1, expected))
            times["shears-2"].append(shears_time(args.shears, fen, depth, 2, expected))
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"{name} depth {depth} ({expected} nodes), median of {args.rounds}:")
        for k, v in med.items():
            print(f"  {k:10s} {v * 1000:8.0f} ms  {expected / v / 1e6:7.1f} Mnps")
        print(f"  ratio stockfish/shears-1 = {med['stockfish'] / med['shears-1']:.2f} (above 1: Shears faster)")
        print(f"  ratio shears-1/shears-2  = {med['shears-1'] / med['shears-2']:.2f} (2-thread speed-up)")
    sf.stdin.write("quit\n")
    sf.stdin.flush()
    sf.wait()


if __name__ == "__main__":
    main()

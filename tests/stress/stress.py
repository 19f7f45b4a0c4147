#!/usr/bin/env python3
"""Stress run of the shears binary over UCI; measures and reports, asserts
nothing about time. Python standard library only.

    python3 tests/stress/stress.py [PATH-TO-SHEARS] [--cycles N] [--seed S]

What it does (each step prints what it measured):

1. `go infinite` / `stop` cycles (default 1000), `stop` at a random moment
   0-50 ms after `go`: latency from `stop` to `bestmove` (target < 50 ms).
2. `go` then `quit` in fresh processes: latency from `quit` to process exit
   (target < 100 ms); the exit code must be 0.
3. A 600-ply legal game (random moves, generated through the engine's own
   `go perft 2`, never into a position without moves), replayed as a GUI
   does: `position startpos moves <whole history>` before every move, then
   `go nodes 2000`; latency from `position` to `readyok`, and the bestmove
   must be one of the legal moves.
4. Games separated by `ucinewgame` with `Hash` resized between them and
   `Threads` 1 -> 8 -> 1: latency of each setting to `readyok`.
5. Resident memory (VmRSS, VmHWM from /proc/PID/status, Linux) against
   Hash = 1, 16, 64, 256, 1024 MB, after a search that fills the table.

Latencies are printed as median and p99 (and max). Exit code 1 if the engine
misbehaves (no bestmove, an illegal move, a non-zero exit, a timeout), not
for slowness.
"""

import argparse
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

TIMEOUT = 30.0  # liveness bound for any single expected line, seconds


class EngineError(Exception):
    pass


class Engine:
    """A shears process with a reader thread; every read has a timeout."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def until(self, pred, what):
        """Lines up to the first one satisfying pred; returns (lines, time)."""
        out = []
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            try:
                t, line = self.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise EngineError(f"no {what} within {TIMEOUT} s; last lines {out[-5:]}")
            if line is None:
                raise EngineError(f"engine closed stdout while waiting for {what}")
            out.append(line)
            if pred(line):
                return out, t

    def sync(self):
        return self.timed("isready")

    def timed(self, command):
        """Sends command then isready; ms from command to readyok."""
        sent = self.send(command)
        if command != "isready":
            self.send("isready")
        lines, t = self.until(lambda l: l == "readyok", "readyok")
        errors = [l for l in lines if l.startswith("info string error")]
        if errors:
            raise EngineError(f"{command!r} was refused: {errors}")
        return (t - sent) * 1000.0

    def bestmove(self):
        lines, t = self.until(lambda l: l.startswith("bestmove"), "bestmove")
        return lines[-1].split()[1], t

    def status(self):
        fields = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for row in f:
                key, _, value = row.partition(":")
                fields[key] = value.strip()
        return fields

    def quit(self):
        self.send("quit")
        try:
            code = self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise EngineError("the engine did not exit after quit")
        if code != 0:
            raise EngineError(f"exit code {code}: {self.proc.stderr.read()[-2000:]}")


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


RESULTS = []


def report(name, ms, target=None):
    row = (name, len(ms), statistics.median(ms), percentile(ms, 99), max(ms), target)
    RESULTS.append(row)
    t = f"  (target < {target} ms)" if target else ""
    print(f"  {name}: n={row[1]} median {row[2]:.2f} ms, p99 {row[3]:.2f} ms, max {row[4]:.2f} ms{t}",
          flush=True)


def go_stop_cycles(path, cycles, rng):
    print(f"1. {cycles} go infinite / stop cycles", flush=True)
    e = Engine(path)
    e.sync()
    latencies = []
    for i in range(cycles):
        if i % 100 == 0:
            e.send("ucinewgame")
            e.send("position startpos moves e2e4 e7e5 g1f3")
        e.send("go infinite")
        time.sleep(rng.uniform(0.0, 0.05))
        sent = e.send("stop")
        _, t = e.bestmove()
        latencies.append((t - sent) * 1000.0)
    report("stop -> bestmove", latencies, 50)
    e.quit()


def go_quit_exits(path, runs, rng):
    print(f"2. go then quit, {runs} processes", flush=True)
    latencies = []
    for _ in range(runs):
        e = Engine(path)
        e.sync()
        e.send(rng.choice(["go infinite", "go depth 60", "go wtime 100000 btime 100000"]))
        time.sleep(rng.uniform(0.0, 0.1))
        sent = time.perf_counter()
        e.quit()
        latencies.append((time.perf_counter() - sent) * 1000.0)
    report("quit -> exit (during go)", latencies, 100)


def divide(e, moves, depth):
    cmd = "position startpos" + (" moves " + " ".join(moves) if moves else "")
    e.send(cmd)
    e.send(f"go perft {depth}")
    lines, _ = e.until(lambda l: l.startswith("Nodes searched:"), "perft total")
    counts = {}
    for line in lines:
        if ": " in line and not line.startswith("Nodes"):
            m, n = line.split(": ")
            counts[m] = int(n)
    return counts


def long_game(e, plies, rng):
    """A random legal game of `plies` plies that never enters a position
    without legal moves (perft 2 counts the replies of each move). Returns
    the moves and, for each ply, the set of legal moves there."""
    moves, legal = [], []
    while len(moves) < plies:
        counts = divide(e, moves, 2)
        alive = [m for m, n in counts.items() if n > 0]
        if not alive:  # every move mates or stalemates: step back
            moves.pop()
            legal.pop()
            continue
        legal.append(set(counts))
        moves.append(rng.choice(alive))
    return moves, legal


def replay_long_game(path, plies, rng):
    print(f"3. a {plies}-ply game, the whole history sent before every move", flush=True)
    e = Engine(path)
    moves, legal = long_game(e, plies, rng)
    e.send("ucinewgame")
    e.sync()
    position_ms, search_ms = [], []
    for k in range(plies):
        history = " moves " + " ".join(moves[:k]) if k else ""
        position_ms.append(e.timed("position startpos" + history))
        sent = e.send("go nodes 2000")
        best, t = e.bestmove()
        search_ms.append((t - sent) * 1000.0)
        if best not in legal[k]:
            raise EngineError(f"bestmove {best} is not legal after {k} plies")
    report(f"position (up to {plies} plies) -> readyok", position_ms)
    report("go nodes 2000 -> bestmove", search_ms)
    e.quit()


def games_with_settings(path, games, rng):
    print(f"4. {games} games: Hash resized and Threads 1 -> 8 -> 1 between them", flush=True)
    e = Engine(path)
    e.sync()
    hash_ms, threads_ms, newgame_ms, search_ms = [], [], [], []
    for g in range(games):
        mb = rng.choice([1, 4, 16, 32, 64, 128, 256])
        hash_ms.append(e.timed(f"setoption name Hash value {mb}"))
        threads = [1, 8, 1][g % 3]
        threads_ms.append(e.timed(f"setoption name Threads value {threads}"))
        newgame_ms.append(e.timed("ucinewgame"))
        moves = []
        for _ in range(8):
            e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            sent = e.send("go movetime 20")
            best, t = e.bestmove()
            search_ms.append((t - sent) * 1000.0)
            if best in ("(none)", "0000"):
                break
            moves.append(best)
    report("setoption Hash -> readyok", hash_ms)
    report("setoption Threads -> readyok", threads_ms)
    report("ucinewgame -> readyok", newgame_ms)
    report("go movetime 20 -> bestmove", search_ms)
    e.quit()


def memory(path, sizes):
    print("5. resident memory against Hash (after go depth 30, 3 s, 1 thread)", flush=True)
    rows = []
    for mb in sizes:
        e = Engine(path)
        e.sync()
        base = e.status()
        e.send(f"setoption name Hash value {mb}")
        e.sync()
        e.send("position startpos moves e2e4 c7c5 g1f3")
        e.send("go depth 30 movetime 3000")
        e.bestmove()
        s = e.status()
        rss = int(s["VmRSS"].split()[0]) / 1024.0
        hwm = int(s["VmHWM"].split()[0]) / 1024.0
        rows.append((mb, int(base["VmRSS"].split()[0]) / 1024.0, rss, hwm))
        e.quit()
    print("  Hash MB | RSS at start MB | RSS after search MB | RSS - Hash MB | peak (VmHWM) MB")
    for mb, start, rss, hwm in rows:
        print(f"  {mb:7d} | {start:15.1f} | {rss:19.1f} | {rss - mb:13.1f} | {hwm:15.1f}")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shears", nargs="?", default=os.environ.get("SHEARS", "target/release/shears"))
    ap.add_argument("--cycles", type=int, default=1000)
    ap.add_argument("--quit-runs", type=int, default=50)
    ap.add_argument("--plies", type=int, default=600)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"shears: {args.shears}; cores {os.cpu_count()}; load average {load}", flush=True)
    start = time.monotonic()
    try:
        go_stop_cycles(args.shears, args.cycles, rng)
        go_quit_exits(args.shears, args.quit_runs, rng)
        replay_long_game(args.shears, args.plies, rng)
        games_with_settings(args.shears, args.games, rng)
        if sys.platform.startswith("linux"):
            memory(args.shears, [1, 16, 64, 256, 1024])
    except EngineError as err:
        print(f"FAILED: {err}")
        return 1
    print(f"\nlatency | n | median ms | p99 ms | max ms | target")
    for name, n, med, p99, mx, target in RESULTS:
        print(f"{name} | {n} | {med:.2f} | {p99:.2f} | {mx:.2f} | {'< %d ms' % target if target else '-'}")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"done in {time.monotonic() - start:.0f} s; load average now {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

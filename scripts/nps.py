#!/usr/bin/env python3
"""Speed of builds against a reference: `shears bench` nps, round by round,
and the median of the per-round ratios (the speed rows of docs/strength.md).

Usage:

    python3 scripts/nps.py [OPTIONS] ROUNDS DEPTH BUILD ... REFERENCE
    python3 scripts/nps.py --pinned [OPTIONS] ROUNDS DEPTH BUILD REFERENCE

`--nnue` benches with the built-in net (`bench --nnue`; the default bench
of builds since the net became the default, the hand-crafted evaluation's
before), `--hce` with the hand-crafted evaluation (`bench --hce`, builds
since then).

Each round runs `BUILD bench --depth DEPTH` for every build and the
reference and divides each build's nps by the reference's of the same
round: a machine that is slower in one round is slower for both, so the
ratio of a round is steadier than the nps. Printed at the end: each
build's node count (the same in every round, or the script says so), its
median nps, and for each build its median ratio to the reference with the
lowest and highest round in parentheses, `0.989 (0.948–1.020)`.

By default the builds run one at a time, the order rotated every round
(nothing else should run meanwhile). With `--pinned` (two builds) each
round runs both at once, each pinned to one core with `taskset` (`--cores`,
default 0,1), the cores swapped every round: both see the same machine
state, at the price of sharing caches and memory bandwidth.

A build that is a bare name (no `/`) and not a file here is looked up in
`--bin-dir` (default `../bin` beside the repository), as in scripts/match.py:

    python3 scripts/nps.py 21 11 shears-new shears-1d28540
    python3 scripts/nps.py --pinned 30 11 shears-new shears-7a6901b
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_BIN_DIR = (REPO / ".." / "bin").resolve()


def engine_path(name: str, bin_dir: str) -> str:
    if "/" in name or Path(name).exists():
        return name
    return str(Path(bin_dir) / name)


def parse_bench(output: str, build: str) -> tuple[int, int]:
    """Nodes and nps from bench's last line, `<nodes> nodes <nps> nps`."""
    lines = [line for line in output.splitlines() if line.strip()]
    fields = lines[-1].split() if lines else []
    if len(fields) != 4 or fields[1] != "nodes" or fields[3] != "nps":
        sys.exit(f"{build}: bench's last line is not `<nodes> nodes <nps> nps`: "
                 f"{lines[-1] if lines else '(no output)'}")
    return int(fields[0]), int(fields[2])


def bench_command(build: str, depth: int, core: int | None,
                  flags: tuple[str, ...] = ()) -> list[str]:
    command = [build, "bench", "--depth", str(depth), *flags]
    return command if core is None else ["taskset", "-c", str(core), *command]


def run_bench(build: str, depth: int, core: int | None = None,
              flags: tuple[str, ...] = ()) -> subprocess.Popen:
    try:
        return subprocess.Popen(bench_command(build, depth, core, flags), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    except OSError as e:
        sys.exit(f"cannot run {build}: {e}")


def finish(process: subprocess.Popen, build: str) -> tuple[int, int]:
    output, _ = process.communicate()
    if process.returncode != 0:
        sys.exit(f"{build}: bench exited with {process.returncode}")
    return parse_bench(output, build)


def one_round(builds: list[str], depth: int, round_index: int, pinned: bool,
              cores: list[int], flags: tuple[str, ...] = ()) -> dict[str, tuple[int, int]]:
    """Nodes and nps of every build in one round."""
    if pinned:
        swap = round_index % 2 == 1
        placed = list(zip(builds, reversed(cores) if swap else cores))
        running = [(build, run_bench(build, depth, core, flags)) for build, core in placed]
        return {build: finish(process, build) for build, process in running}
    shift = round_index % len(builds)
    order = builds[shift:] + builds[:shift]
    return {build: finish(run_bench(build, depth, None, flags), build) for build in order}


def millions(nps: float) -> str:
    return f"{nps / 1e6:.3f}M"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="bench nps of builds against the last one, medians of per-round ratios")
    parser.add_argument("--pinned", action="store_true",
                        help="two builds at once, pinned to --cores, swapped every round")
    parser.add_argument("--cores", default="0,1", help="the two cores of --pinned (default 0,1)")
    evaluation = parser.add_mutually_exclusive_group()
    evaluation.add_argument("--nnue", action="store_true",
                            help="bench with the built-in net (`bench --nnue`)")
    evaluation.add_argument("--hce", action="store_true",
                            help="bench with the hand-crafted evaluation (`bench --hce`)")
    parser.add_argument("--bin-dir", default=str(DEFAULT_BIN_DIR),
                        help="where bare build names are looked up (default: ../bin)")
    parser.add_argument("rounds", metavar="ROUNDS", type=int, help="rounds")
    parser.add_argument("depth", metavar="DEPTH", type=int, help="bench depth")
    parser.add_argument("builds", metavar="BUILD", nargs="+",
                        help="the builds; the last is the reference")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.depth < 1:
        parser.error("ROUNDS and DEPTH must be at least 1")
    builds = [engine_path(b, args.bin_dir) for b in args.builds]
    if len(builds) < 2:
        parser.error("give at least one build and the reference")
    if len(set(builds)) != len(builds):
        parser.error("a build is given twice")
    cores = [int(c) for c in args.cores.split(",")]
    if args.pinned and (len(builds) != 2 or len(cores) != 2):
        parser.error("--pinned takes two builds and two cores")
    reference = builds[-1]
    nodes: dict[str, set[int]] = {b: set() for b in builds}
    nps: dict[str, list[int]] = {b: [] for b in builds}
    ratios: dict[str, list[float]] = {b: [] for b in builds[:-1]}
    for r in range(args.rounds):
        flags = ("--nnue",) if args.nnue else ("--hce",) if args.hce else ()
        results = one_round(builds, args.depth, r, args.pinned, cores, flags)
        for build, (n, speed) in results.items():
            nodes[build].add(n)
            nps[build].append(speed)
        line = [f"round {r + 1}/{args.rounds}:"]
        for build in builds[:-1]:
            ratio = results[build][1] / results[reference][1]
            ratios[build].append(ratio)
            line.append(f"{Path(build).name} {ratio:.3f}")
        print(" ".join(line), flush=True)
    mode = "pinned pairs" if args.pinned else "one at a time, order rotated"
    print(f"\nbench --depth {args.depth}, {args.rounds} rounds, {mode}; "
          f"reference {Path(reference).name}")
    for build in builds:
        counts = ", ".join(str(n) for n in sorted(nodes[build]))
        note = "" if len(nodes[build]) == 1 else " (node counts differ between rounds!)"
        text = f"{Path(build).name}: {counts} nodes{note}, median nps {millions(statistics.median(nps[build]))}"
        if build != reference:
            rs = ratios[build]
            text += f", median ratio {statistics.median(rs):.3f} ({min(rs):.3f}–{max(rs):.3f})"
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks that `scripts/sts_uci.py` scores a point suite exactly as
`shears epd` does, so that another engine run through the script is
compared with Shears by the same rules:

- on `tests/data/points/small.epd` (known points: Mates 20/20, Material
  14/20, total 34/40) and on 20 STS positions (every 75th of
  `tests/data/suites/sts1-15.epd`, one or two of each theme), Shears over
  UCI through the script at a fixed node count prints the same failures,
  per-theme lines, total and `solved X/Y` as `shears epd` with the same
  node count (both searches are deterministic on one thread with a fresh
  table per position);
- a file of bad lines (unresolvable SAN in `c0`, an illegal `c9` move,
  `c8`/`c9` of different lengths, negative points, no bm/am/points, an
  ambiguous `bm`) gives the same `FILE: line N: reason` messages in both,
  exit status 2, and the good lines still scored (among them a move
  listed twice, which scores its first value);
- with two engines the script adds a side-by-side table whose totals are
  those of each engine's own table.

Usage: python3 tests/client/sts_tools.py [PATH-TO-SHEARS] (else $SHEARS,
else target/release/shears). Needs python-chess. A few seconds; `.ci/run`
runs it.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "sts_uci.py"
NODES = "5000"
FEN = "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - -"
BAD_LINES = f"""\
{FEN} bm f5; id "T.1"; c0 "f5=10, Nf3=2";
{FEN} bm f5; id "T.2"; c0 "f5=10, Be5+=2";
{FEN} bm f5; id "T.3"; c8 "10 2"; c9 "f4f5 d4d8";
{FEN} bm f5; id "T.4"; c8 "10 2"; c9 "f4f5";
{FEN} id "T.5"; c0 "just a comment";
{FEN} id "U.6"; c8 "2 10 10"; c9 "d4e5 f4f5 d4f2";
{FEN} bm f5; id "T.7"; c0 "f5=10, Rb9=2";
{FEN} bm f5; id "T.8"; c8 "10 -2"; c9 "f4f5 d4e5"; c0 "a comment";
4k3/8/8/8/8/8/8/4KN1N w - - bm Ng3; c0 "Ng3=10";
6k1/5ppp/8/8/8/8/8/R5K1 w - - id "D.1"; c8 "10 3 5"; c9 "a1a7 a1a8 a1a8";
"""

FAILURES = []


def check(condition, message):
    """Records a failed check (all checks run; the exit code says)."""
    if not condition:
        FAILURES.append(message)
        print(f"FAIL: {message}")


def run(command):
    out = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return out.returncode, out.stdout.splitlines()


def shears_epd(shears, suite):
    return run([shears, "epd", str(suite), "--nodes", NODES, "--threads", "1"])


def script(engines, suite, *extra):
    command = [sys.executable, str(SCRIPT), str(suite), "--nodes", NODES, "--failures"]
    for engine in engines:
        command += ["--engine", engine]
    return run(command + list(extra))


def same_as_epd(shears, suite, name):
    """The script's report for `suite` is that of `shears epd`."""
    code, epd = shears_epd(shears, suite)
    script_code, lines = script([shears], suite)
    engine_lines = [line for line in lines if line.startswith("engine: ")]
    check(len(engine_lines) == 1, f"{name}: one engine header, got {engine_lines}")
    report = [line for line in lines if not line.startswith("engine: ")]
    check(report == epd, f"{name}: script printed {report}, shears epd {epd}")
    check(code == script_code, f"{name}: exit {script_code}, shears epd {code}")
    return epd


def main():
    shears = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SHEARS", str(REPO / "target" / "release" / "shears"))
    small = REPO / "tests" / "data" / "points" / "small.epd"
    epd = same_as_epd(shears, small, "small.epd")
    check(epd[-3:] == ["Material  14/20   70.0%  2 positions", "total: 34/40 (85.0%)",
                       "solved 4/5"], f"small.epd: known points, got {epd}")

    with tempfile.TemporaryDirectory() as tmp:
        sts = (REPO / "tests" / "data" / "suites" / "sts1-15.epd").read_text().splitlines()
        sample = Path(tmp) / "sts20.epd"
        sample.write_text("\n".join(sts[::75]) + "\n")
        epd = same_as_epd(shears, sample, "20 STS positions")
        themes = [line for line in epd if re.search(r"  \d+ positions?$", line)]
        check(len(themes) == 15, f"20 STS positions: 15 themes expected, got {themes}")
        check(epd[-1].startswith("solved ") and epd[-1].endswith("/20"),
              f"20 STS positions: last line {epd[-1]!r}")

        bad = Path(tmp) / "bad.epd"
        bad.write_text(BAD_LINES)
        epd = same_as_epd(shears, bad, "bad lines")
        errors = [line for line in epd if line.startswith(f"{bad}: line ")]
        check([e.split(": ", 2)[1] for e in errors]
              == ["line 1", "line 3", "line 4", "line 5", "line 7", "line 8", "line 9"],
              f"bad lines: reported {errors}")
        check(epd[-1].startswith("solved ") and epd[-1].endswith("/3"),
              f"bad lines: the three good lines still run, got {epd}")
        # The mate Ra8# is listed twice: its first value counts.
        check("fail D.1: expected most points Ra7 found Ra8# (3/10)" in epd,
              f"a move listed twice: {epd}")

        code, lines = script([shears, shears], small)
        totals = [line for line in lines if line.startswith("total")]
        check(code == 0 and len(totals) == 3, f"two engines: {lines}")
        check(totals[-1].split()[1:] == ["34/40", "85.0%", "34/40", "85.0%"],
              f"two engines: side-by-side total {totals[-1:]}")

    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("sts_uci.py scores as shears epd does")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The strength log's match and speed scripts, run for real on a small scale.

Usage:

    python3 tests/client/match_scripts.py [PATH-TO-SHEARS]

The engine is PATH-TO-SHEARS, else $SHEARS, else target/release/shears in
this repository. About 15 s; `.ci/run` runs it. What it checks:

1. `scripts/nps.py`, two rounds of `bench --depth 3` of the engine against
   a copy of itself, one at a time and `--pinned` (when `taskset` is there):
   a line per round, the same node count for both, a median ratio;
2. the fastchess commands of `scripts/match.py`, `scripts/ethereal.py` and
   `scripts/fixed_nodes.py` (`--dry-run`): the time control, hash, rounds,
   nodes, per-side options, bare names looked up in `--bin-dir`, and the
   arguments after the positionals passed on unchanged;
3. `scripts/learning_curve.py --dry-run`: for each size the `shears train
   --positions SIZE` of the data files as given (the script cuts no file)
   and the match of the net against the hand-crafted evaluation (`Use
   NNUE`, `EvalFile`) of the same binary;
   with `--report`, the table and the trend from given fastchess logs;
4. with fastchess ($FASTCHESS, else `../shared/tools/bin/fastchess` beside
   this repository or the one it was cloned from, else on the PATH; skipped
   with a message when there is none), `scripts/fixed_nodes.py` plays one round
   (2 games at 2,000 nodes a move) of the engine against its copy: both
   games in `NAME.pgn` with a result, fastchess's output in `NAME.log`.
"""

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "scripts"


class Failure(Exception):
    """A check failed; the message says which and why."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def script(name, *args, cwd=None, timeout=120):
    done = subprocess.run([sys.executable, str(SCRIPTS / name), *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)
    check(done.returncode == 0,
          f"{name} {' '.join(map(str, args))}: exit {done.returncode}\n{done.stdout}{done.stderr}")
    return done.stdout


def find_fastchess():
    """$FASTCHESS, else ../shared/tools/bin/fastchess beside this repository
    or beside the one it was cloned from (CI clones a worktree), else the
    PATH's."""
    if os.environ.get("FASTCHESS"):
        return Path(os.environ["FASTCHESS"])
    roots = [REPO]
    origin = subprocess.run(["git", "-C", str(REPO), "remote", "get-url", "origin"],
                            capture_output=True, text=True).stdout.strip()
    origin = origin.removeprefix("file://")
    if origin and Path(origin).is_dir():
        roots.append(Path(origin))
    for root in roots:
        candidate = root / ".." / "shared" / "tools" / "bin" / "fastchess"
        if candidate.exists():
            return candidate.resolve()
    found = shutil.which("fastchess")
    return Path(found) if found else None


def check_nps(shears, copy):
    modes = [[]]
    if shutil.which("taskset") and (os.cpu_count() or 1) >= 2:
        modes.append(["--pinned"])
    else:
        print("  (no taskset or one core: --pinned skipped)")
    for mode in modes:
        out = script("nps.py", *mode, 2, 3, copy, shears)
        rounds = [l for l in out.splitlines() if l.startswith("round ")]
        check(len(rounds) == 2, f"nps.py {mode}: {len(rounds)} round lines\n{out}")
        summary = [l for l in out.splitlines() if "median nps" in l]
        check(len(summary) == 2, f"nps.py {mode}: no summary line per build\n{out}")
        nodes = {l.split(":")[1].split()[0] for l in summary}
        check(len(nodes) == 1, f"nps.py {mode}: node counts differ: {nodes}\n{out}")
        check("median ratio" in summary[0] and "differ" not in out,
              f"nps.py {mode}: no median ratio\n{out}")
        print(f"  nps.py {' '.join(mode) or '(rotated)'}: {summary[0].split(', ', 1)[1]}")


def dry_run(name, *args):
    lines = script(name, "--dry-run", "--fastchess", "fastchess", "--openings", "book.pgn",
                   "--bin-dir", "bins", *args).splitlines()
    check(len(lines) == 1, f"{name} --dry-run printed {len(lines)} lines")
    return shlex.split(lines[0])


def check_commands():
    cmd = dry_run("match.py", "--new-option", "SyzygyPath=tb", "m1", "shears-a", "./b",
                  "10+0.1", "200", "64", "-srand", "3838", "-sprt", "elo0=0", "elo1=10")
    text = " ".join(cmd)
    for part in ["-engine cmd=bins/shears-a name=shears-a option.SyzygyPath=tb",
                 "-engine cmd=./b name=b -each", "tc=10+0.1 option.Hash=64 option.Threads=1",
                 "-openings file=book.pgn format=pgn order=random", "-repeat -games 2 -rounds 200",
                 "-concurrency 2 -recover", "-pgnout file=matches/m1.pgn",
                 "-srand 3838 -sprt elo0=0 elo1=10"]:
        check(part in text, f"match.py: {part!r} not in {text}")
    cmd = dry_run("ethereal.py", "e1", "shears-x", "50", "10+0.1", "-srand", "4002")
    text = " ".join(cmd)
    for part in ["cmd=bins/shears-x name=Shears", "cmd=/usr/games/ethereal-chess name=Ethereal",
                 "tc=10+0.1 option.Hash=64", "-rounds 50", "-srand 4002"]:
        check(part in text, f"ethereal.py: {part!r} not in {text}")
    text = " ".join(dry_run("ethereal.py", "e2", "shears-x", "30"))
    check("tc=10+0.1" in text and "-rounds 30" in text, f"ethereal.py without TC: {text}")
    cmd = dry_run("fixed_nodes.py", "f1", "shears-a", "shears-b", "600", "20000",
                  "-sprt", "elo0=-5", "elo1=5")
    text = " ".join(cmd)
    for part in ["tc=60+1 nodes=20000 option.Hash=16 option.Threads=1", "-rounds 600",
                 "name=shears-a", "name=shears-b", "-sprt elo0=-5 elo1=5"]:
        check(part in text, f"fixed_nodes.py: {part!r} not in {text}")
    text = " ".join(dry_run("fixed_nodes.py", "--clock", "600+5", "--new-option", "Use NNUE=true",
                            "--base-option", "EvalFile=b.nnue", "f2", "shears-a", "shears-b", "10",
                            "25000"))
    for part in ["tc=600+5 nodes=25000", "name=shears-a option.Use NNUE=true",
                 "name=shears-b option.EvalFile=b.nnue"]:
        check(part in text, f"fixed_nodes.py --clock/--new-option: {part!r} not in {text}")
    print("  match.py, ethereal.py, fixed_nodes.py: the commands are the strength log's")
    lines = script("learning_curve.py", "--dry-run", "--out", "curve", "--epochs", "4",
                   "--tc", "5+0.05", "--rounds", "100", "c", "./shears-x", "500k", "2.4M",
                   "--data", "a.bin", "--data", "b.games").splitlines()
    text = "\n".join(lines)
    check(" data " not in text and ".quiet.bin" not in text,
          f"learning_curve.py converts or cuts data itself:\n{text}")
    for part in ["shears-x train a.bin b.games --positions 500000 --epochs 4 --out ",
                 "curve/c-500k.nnue", "shears-x train a.bin b.games --positions 2400000 ",
                 "curve/c-2.4M.nnue",
                 "--new-option 'Use NNUE=true' --new-option EvalFile=",
                 "curve/c-500k.nnue --base-option 'Use NNUE=false' --dry-run c-500k ",
                 "shears-x 5+0.05 100 16 -srand 6500", "-srand 6501", "| 2.4M | — | — |"]:
        check(part in text, f"learning_curve.py: {part!r} not in\n{text}")
    lines = script("learning_curve.py", "--dry-run", "--out", "curve", "--nodes", "25000",
                   "--rounds", "100", "c", "./shears-x", "1M", "--data", "a.bin").splitlines()
    text = "\n".join(lines)
    for part in ["fixed_nodes.py --out ", "--base-option 'Use NNUE=false' --clock 600+6 --dry-run",
                 "c-1M ", "shears-x 100 25000 -srand 6500",
                 "(net against the hand-crafted evaluation, 25000 nodes)",
                 "shears-x train a.bin --positions 1000000 --out "]:
        check(part in text, f"learning_curve.py --nodes: {part!r} not in\n{text}")
    # The recipe is shears train's default: the script repeats none of it.
    for recipe in ["--epochs", "--scale", "--wd"]:
        check(recipe not in text, f"learning_curve.py passes {recipe} unasked:\n{text}")
    print("  learning_curve.py: a net of the first SIZE positions and a match for each size")


def check_curve_report(work):
    """`learning_curve.py --report` reads the last report of each size's
    fastchess log (Elo, not nElo) and fits the line in log2(positions):
    -100 at 1M and -20 at 4M (equal errors) is +40 a doubling, 0 Elo at
    4M * 2^0.5 and +60 at 16M."""
    out = work / "report"
    out.mkdir()
    for tag, elo, w, l in [("1M", -100, 30, 80), ("4M", -20, 50, 60)]:
        (out / f"r-{tag}.log").write_text(
            "Elo: -300.00 +/- 90.00, nElo: -400.00 +/- 80.00\n"
            f"Games: 200, Wins: {w}, Losses: {l}, Draws: {200 - w - l}, Points: 0\n"
            f"Elo: {elo}.00 +/- 40.00, nElo: {elo - 50}.00 +/- 30.00\nFinished match\n")
    text = script("learning_curve.py", "--report", "--out", out, "r", "./none", "1M", "4M",
                  "16M", "--data", "none.bin")
    for part in ["| 1M | 30 / 90 / 80 | -100.0 ± 40.0 |", "| 4M | 50 / 90 / 60 | -20.0 ± 40.0 |",
                 "| 16M | — | — |", "Elo = -60.0 +40.0 * log2(positions / 2M)",
                 "+40.0 +/- 14.4 Elo a doubling", "+0 Elo at about 5.66M positions",
                 "+60 Elo at about 16M positions"]:
        check(part in text, f"learning_curve.py --report: {part!r} not in\n{text}")
    print("  learning_curve.py --report: the table and the trend from the logs")


def check_fixed_nodes_games(shears, copy, work):
    fastchess = find_fastchess()
    if fastchess is None:
        print("  (no fastchess: the games of fixed_nodes.py are skipped)")
        return
    book = work / "openings.epd"
    book.write_text("rnbqkb1r/pp3ppp/5n2/3p4/3QP3/2N2N2/PP3PPP/R1B1KB1R b KQkq - 0 7\n")
    script("fixed_nodes.py", "--fastchess", fastchess, "--openings", book, "--out", work / "m",
           "g1", copy, shears, 1, 2000, cwd=work, timeout=300)
    pgn = (work / "m" / "g1.pgn").read_text()
    results = [l for l in pgn.splitlines() if l.startswith("[Result ")]
    check(len(results) == 2, f"fixed_nodes.py: {len(results)} games in the PGN")
    check(all(r != '[Result "*"]' for r in results), f"fixed_nodes.py: unfinished games {results}")
    log = (work / "m" / "g1.log").read_text()
    check("Finished match" in log or "Games: 2" in log, "fixed_nodes.py: the log has no result")
    print(f"  fixed_nodes.py: 2 games at 2,000 nodes ({', '.join(r[9:-2] for r in results)})")


def main():
    shears = Path(sys.argv[1] if len(sys.argv) > 1 else
                  os.environ.get("SHEARS", REPO / "target" / "release" / "shears")).resolve()
    if not shears.exists():
        sys.exit(f"no engine at {shears}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        copy = work / "shears-copy"
        shutil.copy2(shears, copy)
        try:
            check_nps(shears, copy)
            check_commands()
            check_curve_report(work)
            check_fixed_nodes_games(shears, copy, work)
        except (Failure, subprocess.TimeoutExpired) as e:
            print(f"FAIL: {e}")
            return 1
    print("match scripts: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

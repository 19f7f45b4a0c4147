#!/usr/bin/env python3
"""The learning curve of issue 65: nets trained on growing amounts of
Shears' own data, each played against the hand-crafted evaluation.

Usage:

    python3 scripts/learning_curve.py [OPTIONS] NAME ENGINE SIZE [SIZE ...] --data FILE [--data FILE ...]

For each SIZE (positions: `500k`, `2.4M`, `20000000`):

1. `shears train --positions SIZE` of the `--data` files (any format the
   trainer reads: game files through their quiet filter, packed `.bin`,
   text), taken in the order given: the trainer reads the first SIZE
   positions of them (the held-out games among them; a game the limit cuts
   is read as far as it goes, as a file whose writer stopped), into
   `OUT/NAME-SIZE.nnue`, its output in `OUT/NAME-SIZE.train.log`. Every
   other setting is `shears train`'s default, the built-in net's recipe;
   `--epochs` and `--train-arg` pass what differs from it. The script never reads a data file
   itself: `shears data stats` counts each file's positions (its `kept`
   line), and a set too small for SIZE stops the script before anything
   is trained;
2. `scripts/match.py NAME-SIZE ENGINE ENGINE TC ROUNDS HASH` with
   `--new-option "Use NNUE=true" --new-option EvalFile=OUT/NAME-SIZE.nnue
   --base-option "Use NNUE=false"`: the same binary with the net against
   itself with the hand-crafted evaluation (fastchess, one thread each,
   concurrency 2), the games in `OUT/NAME-SIZE.pgn`. With `--nodes N` the
   match is `scripts/fixed_nodes.py NAME-SIZE ENGINE ENGINE ROUNDS N`
   instead (N nodes a move for both, a `--clock` behind the limit, Hash
   16): the net's speed left out, and minutes where a clock takes an hour.

Then a table of the sizes with each match's W/D/L and Elo ± 95% as
fastchess last reported them, and the trend: a straight line of Elo in
log2(positions), fitted by least squares with each size weighted by its
error, the Elo it gains a doubling of the data, and where the line reaches
0 and +60 Elo (`--target` for others). The line is an assumption (curves
bend as a net fills up), so the crossings are estimates to plan the data
with, not measurements. `--report` trains and plays nothing: the table and
the trend of the logs already in OUT. A step whose output is already there (the
net, a finished match log) is not done again, so an interrupted curve
resumes where it stopped. `--dry-run` prints the commands and runs nothing.

Until issue 70 the script cut SIZE packed records (end-of-game records
included) into a prefix file and trained on it; the nets of issue 65 came
from those prefixes. `--positions` with the number of positions such a
prefix held (SIZE less the end-of-game records among its records: what
the train log's first line counts) reads the same positions and games and
trains the same net.

    python3 scripts/learning_curve.py curve ../bin/shears-main 500k 1M 2.4M \\
        --data data/sp31.bin --data data/s64.games --nodes 25000 --rounds 100

ENGINE is also the `shears` that counts and trains (it is one binary).
OUT is `--out`, default `../nets/curve` beside the repository (nets and data
stay out of git).
"""

from __future__ import annotations

import argparse
import math
import re
import shlex
import subprocess
import sys
from pathlib import Path

from match_logs import last_elo, last_games


REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = (REPO / ".." / "nets" / "curve").resolve()


def size(text: str) -> int:
    """`500k`, `2.4M`, `20000000`: a number of positions."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmM]?)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"{text}: a number of positions (500k, 2.4M, 20000000)")
    scale = {"": 1, "k": 1_000, "m": 1_000_000}[m.group(2).lower()]
    value = int(float(m.group(1)) * scale)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: at least one position")
    return value


def label(n: int) -> str:
    """A size as a short name: 500k, 2.4M."""
    if n >= 1_000_000 and n % 100_000 == 0:
        return f"{n / 1_000_000:g}M"
    if n >= 1_000 and n % 1_000 == 0:
        return f"{n // 1_000}k"
    return str(n)


def step(args, command: list[str], log: Path | None = None) -> None:
    """Prints a command and, unless a dry run, runs it (its output into
    `log` when given); a failure stops the script."""
    print("$ " + shlex.join(command), flush=True)
    if args.dry_run:
        return
    if log is None:
        done = subprocess.run(command)
    else:
        with open(log, "w", encoding="utf-8") as f:
            done = subprocess.run(command, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        where = f" (see {log})" if log else ""
        sys.exit(f"exit {done.returncode}: {shlex.join(command)}{where}")


def available(engine: str, data: list[str]) -> int:
    """The positions the trainer reads from `data`: the `kept` line of
    `shears data stats` of each file (the one reader counts them)."""
    total = 0
    for path in data:
        done = subprocess.run([engine, "data", "stats", path], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{path}: {done.stderr.strip() or 'shears data stats failed'}")
        kept = re.search(r"^kept: (\d+)", done.stdout, re.MULTILINE)
        if kept is None:
            sys.exit(f"{path}: no `kept:` line in the output of shears data stats")
        total += int(kept.group(1))
    return total


def last_report(log: Path) -> tuple[str, str]:
    """W/D/L and Elo ± from the last report of a fastchess log."""
    if not log.exists():
        return "—", "—"
    games = last_games(log.read_text(encoding="utf-8", errors="replace"))
    wdl = f"{games[1]} / {games[3]} / {games[2]}" if games else "—"
    elo = elo_of(log)
    return wdl, (f"{elo[0]:+.1f} ± {elo[1]:.1f}" if elo else "—")


def elo_of(log: Path) -> tuple[float, float] | None:
    """Elo and its 95% half-width from the last report of a fastchess log."""
    if not log.exists():
        return None
    return last_elo(log.read_text(encoding="utf-8", errors="replace"))


def trend(points: list[tuple[int, float, float]], targets: list[float]) -> list[str]:
    """The curve as a straight line in log2(positions): a least-squares
    fit of Elo on log2(n), each size weighted by 1 / sigma^2 (sigma = its
    95% half-width / 1.96); then where the line reaches each target Elo,
    also with the slope one standard error lower and higher (a range, not
    a confidence interval: the line itself is an assumption). `points`:
    (positions, Elo, 95% half-width)."""
    pts = [(math.log2(n), e, (h / 1.96) ** -2) for n, e, h in points if h > 0]
    if len({x for x, _, _ in pts}) < 2:
        return ["(the trend needs measured matches at two sizes at least)"]
    total = sum(w for _, _, w in pts)
    mx = sum(w * x for x, _, w in pts) / total
    my = sum(w * y for _, y, w in pts) / total
    sxx = sum(w * (x - mx) ** 2 for x, _, w in pts)
    slope = sum(w * (x - mx) * (y - my) for x, y, w in pts) / sxx
    se = sxx ** -0.5
    lines = [f"trend: Elo = {my:+.1f} {slope:+.1f} * log2(positions / {label_float(2 ** mx)}), "
             f"that is {slope:+.1f} +/- {se:.1f} Elo a doubling of the data"]
    for target in targets:
        def reach(b: float) -> str:
            if b <= 0:
                return "never"
            return label_float(2 ** (mx + (target - my) / b))
        lines.append(f"{target:+g} Elo at about {reach(slope)} positions "
                     f"(slope one standard error higher: {reach(slope + se)}, lower: {reach(slope - se)})")
    return lines


def label_float(n: float) -> str:
    """A large count, rounded: 3.1M, 420k, 1.2G."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= scale:
            return f"{n / scale:.3g}{suffix}"
    return f"{n:.0f}"


def finished(log: Path) -> bool:
    return log.exists() and "Finished match" in log.read_text(encoding="utf-8", errors="replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="nets on growing data against the "
                                     "hand-crafted evaluation (issue 65's learning curve)")
    parser.add_argument("name", metavar="NAME", help="the curve's name (its files in OUT)")
    parser.add_argument("engine", metavar="ENGINE", help="the shears binary (train and play)")
    parser.add_argument("sizes", metavar="SIZE", type=size, nargs="+",
                        help="training positions of each net (500k, 2.4M, ...)")
    parser.add_argument("--data", action="append", required=True,
                        help="a data file shears train reads (.games, .bin, text); repeatable, in order")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="where nets, logs and games go")
    parser.add_argument("--epochs", type=int,
                        help="shears train --epochs (default: shears train's, the recipe's)")
    parser.add_argument("--train-arg", action="append", default=[],
                        help="one more argument to shears train (repeatable: --train-arg=--lr=0.005)")
    parser.add_argument("--tc", default="5+0.05", help="the matches' time control (default 5+0.05)")
    parser.add_argument("--nodes", type=int,
                        help="play at this many nodes a move (scripts/fixed_nodes.py) instead of --tc")
    parser.add_argument("--clock", default="600+6",
                        help="with --nodes: the clock behind the node limit (default 600+6)")
    parser.add_argument("--rounds", type=int, default=100,
                        help="rounds of two games a net (default 100: 200 games)")
    parser.add_argument("--hash", type=int, default=16, help="Hash of both sides, MB (default 16)")
    parser.add_argument("--srand", type=int, default=6500, help="fastchess -srand (default 6500)")
    parser.add_argument("--fastchess", help="as scripts/match.py")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    parser.add_argument("--report", action="store_true",
                        help="train and play nothing: the table and the trend of the matches in OUT")
    parser.add_argument("--target", type=float, action="append",
                        help="an Elo the trend is asked to reach (repeatable; default 0 and 60)")
    args = parser.parse_args(argv)
    targets = args.target or [0.0, 60.0]

    engine = str(Path(args.engine).resolve()) if "/" in args.engine else args.engine
    out = Path(args.out).resolve()
    args.out = str(out)
    if not args.dry_run:
        out.mkdir(parents=True, exist_ok=True)
    if args.report:
        return report(args, out, targets)
    if not args.dry_run:
        held = available(engine, args.data)
        too_big = [n for n in args.sizes if n > held]
        if too_big:
            sys.exit(f"the data holds {held} positions; asked for {', '.join(map(label, too_big))}")

    for n in sorted(set(args.sizes)):
        tag = f"{args.name}-{label(n)}"
        net = out / f"{tag}.nnue"
        if not net.exists():
            epochs = [] if args.epochs is None else ["--epochs", str(args.epochs)]
            step(args, [engine, "train", *args.data, "--positions", str(n), *epochs,
                        "--out", str(net), "--checkpoint-dir", str(out / f"{tag}.checkpoints"),
                        *args.train_arg], log=None if args.dry_run else out / f"{tag}.train.log")
        log = out / f"{tag}.log"
        if not finished(log):
            script = "fixed_nodes.py" if args.nodes else "match.py"
            command = [sys.executable, str(Path(__file__).with_name(script)),
                       "--out", str(out),
                       "--new-option", "Use NNUE=true", "--new-option", f"EvalFile={net}",
                       "--base-option", "Use NNUE=false"]
            if args.nodes:
                command += ["--clock", args.clock]
            if args.fastchess:
                command += ["--fastchess", args.fastchess]
            if args.dry_run:
                command.append("--dry-run")
            if args.nodes:
                command += [tag, engine, engine, str(args.rounds), str(args.nodes)]
            else:
                command += [tag, engine, engine, args.tc, str(args.rounds), str(args.hash)]
            command += ["-srand", str(args.srand + sorted(set(args.sizes)).index(n))]
            step(args, command)
    return report(args, out, targets)


def report(args, out: Path, targets: list[float]) -> int:
    """The table of the sizes' matches as their logs in `out` last
    reported them, and the trend of those that have an Elo."""
    played = f"{args.nodes} nodes" if args.nodes else args.tc
    print(f"\n| positions | W / D / L (net) | Elo ± 95% (net against the hand-crafted evaluation, {played}) |")
    print("|---|---|---|")
    points = []
    for n in sorted(set(args.sizes)):
        log = out / f"{args.name}-{label(n)}.log"
        print(f"| {label(n)} | {' | '.join(last_report(log))} |")
        measured = elo_of(log)
        if measured is not None:
            points.append((n, *measured))
    print()
    for line in trend(points, targets):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A match with pondering on between two builds, and what it shows: the
score of the first build, and the time each engine took per move.

    python3 scripts/ponder_match.py --new target/release/shears --old ../shears-old \\
        [--tc 5+0.05] [--games 200] [--no-ponder] [--pgn ponder.pgn]
    python3 scripts/ponder_match.py --report ponder.pgn [more.pgn ...]

Runs cutechess-cli (`--cutechess`, default ../shared/tools/bin/cutechess-cli
from the repository root; it links Qt 6: `apt-get install libqt6core6`)
with `ponder` for both engines: each thinks on the other's time, gets
`go ponder`, then `ponderhit` or `stop`. fastchess cannot ponder (its
options have no `ponder`), hence cutechess-cli. Pondering engines use a
core each while both think, so the default is one game at a time (on a
2-core machine two would share the cores four ways). Each opening of
`--openings` is played twice, sides swapped; one thread and `--hash` MB
each.

Then, from the PGN (`--report` reads PGNs only): wins, draws and losses of
`--new`, its Elo difference with a 95% interval (from the game pairs of
each opening, pentanomial, when every pair is whole; else from the games),
time forfeits by engine, and per engine the mean and median seconds per
move from the move comments cutechess-cli writes (`{+0.31/12 0.234s}`;
book moves, `{book}`, count for nothing). cutechess-cli writes no comment
for a move that came in under 0.5 s with no evaluation of its own, which
is how a ponder hit answered at once looks: those moves are counted apart,
and the mean and median are given again with them at 0 s.
"""

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

from match_logs import RESULTS, elo, move_time, tag

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CUTECHESS = os.path.join(REPO, "..", "shared", "tools", "bin", "cutechess-cli")
DEFAULT_OPENINGS = os.path.join(REPO, "..", "shared", "openings", "8moves_v3_min.pgn")

TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\S+")


def read_games(path):
    """The games of a PGN file: (headers, movetext) pairs."""
    games, headers, moves = [], {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            found = tag(line)
            if found:
                if moves:
                    games.append((headers, " ".join(moves)))
                    headers, moves = {}, []
                headers[found[0]] = found[1]
            elif line.strip():
                moves.append(line.strip())
    if headers or moves:
        games.append((headers, " ".join(moves)))
    return games


def move_times(headers, movetext):
    """Per side (True: White): the seconds of each move whose comment
    gives its time, and how many moves had no comment at all."""
    times = {True: [], False: []}
    silent = {True: 0, False: 0}
    fen = headers.get("FEN", "")
    white = not (len(fen.split()) > 1 and fen.split()[1] == "b")
    pending = None  # the side of the last move, until its comment
    for token in TOKEN.findall(movetext):
        if token.startswith("{"):
            seconds = move_time(token)
            if seconds is not None and pending is not None:
                times[pending].append(seconds)
            pending = None
            continue
        if token.startswith(";") or token in RESULTS or token == "*":
            continue
        if re.fullmatch(r"\d+\.\.\.", token):
            white = False
        elif re.fullmatch(r"\d+\.", token):
            white = True
        else:
            # A move (possibly written with its number, "12.e4").
            if pending is not None:
                silent[pending] += 1
            pending = white
            white = not white
    if pending is not None:
        silent[pending] += 1
    return times, silent


def forfeiter(headers, movetext):
    """The side ("White"/"Black") that lost on time, if one did."""
    termination = headers.get("Termination", "").lower()
    ending = movetext.rsplit("{", 1)[-1].lower() if "{" in movetext else ""
    if "time forfeit" not in termination and "on time" not in ending:
        return None
    return {"1-0": "Black", "0-1": "White"}.get(headers.get("Result"))


def elo_interval(outcomes):
    """Elo and the half-width of its 95% interval from per-unit scores
    (games, or pairs scored 0, 1/4, ..., 1)."""
    n = len(outcomes)
    mean = sum(outcomes) / n
    var = sum((x - mean) ** 2 for x in outcomes) / n
    se = math.sqrt(var / n)
    low, high = elo(mean - 1.96 * se), elo(mean + 1.96 * se)
    return elo(mean), (high - low) / 2


def report(paths, new_name):
    games = [g for p in paths for g in read_games(p)]
    games = [(h, t) for h, t in games if h.get("Result") in RESULTS]
    if not games:
        sys.exit("no finished games found")
    names = sorted({h.get("White", "?") for h, _ in games} | {h.get("Black", "?") for h, _ in games})
    if new_name is None:
        new_name = names[0]
    if new_name not in names:
        sys.exit(f"no engine named {new_name!r} in the games (found {', '.join(names)})")
    wdl = [0, 0, 0]
    scores = []
    by_round = defaultdict(list)
    times = defaultdict(list)
    silent = defaultdict(int)
    forfeits = defaultdict(int)
    for headers, text in games:
        white_score = RESULTS[headers["Result"]]
        new_white = headers.get("White") == new_name
        score = white_score if new_white else 1 - white_score
        wdl[{1.0: 0, 0.5: 1, 0.0: 2}[score]] += 1
        scores.append(score)
        by_round[headers.get("Round", "?")].append(score)
        side_times, side_silent = move_times(headers, text)
        for side, colour in ((True, "White"), (False, "Black")):
            times[headers.get(colour, "?")].extend(side_times[side])
            silent[headers.get(colour, "?")] += side_silent[side]
        loser = forfeiter(headers, text)
        if loser:
            forfeits[headers.get(loser, "?")] += 1
    n = len(games)
    print(f"{n} games, {new_name} against {', '.join(x for x in names if x != new_name)}")
    print(f"W/D/L for {new_name}: {wdl[0]} / {wdl[1]} / {wdl[2]} (score {sum(scores) / n:.3f})")
    pairs = list(by_round.values())
    if n >= 2 and all(len(p) == 2 for p in pairs) and "?" not in by_round:
        pair_scores = [sum(p) / 2 for p in pairs]
        penta = [sum(1 for s in pair_scores if s == k / 4) for k in range(5)]
        e, half = elo_interval(pair_scores)
        print(f"Elo {e:+.1f} ± {half:.1f} (95%, pentanomial {penta})")
    elif n >= 2:
        e, half = elo_interval(scores)
        print(f"Elo {e:+.1f} ± {half:.1f} (95%, from the games: the pairs are not whole)")
    total_forfeits = sum(forfeits.values())
    detail = ", ".join(f"{k} {v}" for k, v in sorted(forfeits.items()))
    print(f"time forfeits: {total_forfeits}" + (f" ({detail})" if detail else ""))
    print()
    print("| engine | moves timed | mean s/move | median s/move | moves without a time | mean, median with those at 0 s |")
    print("|---|---|---|---|---|---|")
    for name in names:
        ts = times[name]
        quick = ts + [0.0] * silent[name]
        cells = [str(len(ts))]
        cells += [f"{statistics.mean(ts):.3f}", f"{statistics.median(ts):.3f}"] if ts else ["—", "—"]
        cells.append(str(silent[name]))
        cells.append(f"{statistics.mean(quick):.3f}, {statistics.median(quick):.3f}" if quick else "—")
        print(f"| {name} | {' | '.join(cells)} |")


def run_match(args):
    for path, what in ((args.cutechess, "--cutechess"), (args.new, "--new"), (args.old, "--old")):
        if not os.path.isfile(path):
            sys.exit(f"{what}: no file {path}")
    if args.games < 2 or args.games % 2:
        sys.exit("--games: an even number, at least 2 (each opening is played twice)")
    if args.new_name == args.old_name:
        sys.exit("--new-name and --old-name must differ")
    each = [
        "proto=uci",
        f"tc={args.tc}",
        f"option.Hash={args.hash}",
        "option.Threads=1",
    ]
    if not args.no_ponder:
        each += ["ponder", "option.Ponder=true"]
    command = [
        args.cutechess,
        "-engine", f"cmd={os.path.abspath(args.new)}", f"name={args.new_name}",
        "-engine", f"cmd={os.path.abspath(args.old)}", f"name={args.old_name}",
        "-each", *each,
        "-games", "2", "-rounds", str(args.games // 2), "-repeat",
        "-openings", f"file={args.openings}", "format=pgn", "order=random",
        "-concurrency", str(args.concurrency),
        "-pgnout", args.pgn,
    ]
    print(" ".join(command), flush=True)
    result = subprocess.run(command, check=False)
    if result.returncode != 0:
        sys.exit(f"cutechess-cli exited with {result.returncode}")
    print()
    report([args.pgn], args.new_name)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--new", help="the build to measure")
    parser.add_argument("--old", help="the build to measure it against")
    parser.add_argument("--new-name", default="new")
    parser.add_argument("--old-name", default="old")
    parser.add_argument("--cutechess", default=DEFAULT_CUTECHESS)
    parser.add_argument("--openings", default=DEFAULT_OPENINGS)
    parser.add_argument("--tc", default="5+0.05", help="cutechess-cli time control (default 5+0.05)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--pgn", help="where the games go (default: ponder-NEW-OLD.pgn)")
    parser.add_argument("--no-ponder", action="store_true", help="the same match without pondering")
    parser.add_argument("--report", nargs="+", metavar="PGN", help="only report on these games")
    parser.add_argument("--name", help="with --report: the engine whose score is given")
    args = parser.parse_args()
    if args.report:
        report(args.report, args.name)
        return
    if not (args.new and args.old):
        parser.error("--new and --old are needed (or --report PGN)")
    if args.pgn is None:
        args.pgn = f"ponder-{args.new_name}-{args.old_name}.pgn"
    run_match(args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Shears under the match runners testers use: fastchess (OpenBench's) and
cutechess-cli (issue 18).

Usage:

    python3 tests/client/match_tools.py [PATH-TO-SHEARS]

The engine is PATH-TO-SHEARS, else $SHEARS, else target/release/shears in
this repository. The tools are $FASTCHESS and $CUTECHESS, else
`fastchess` and `cutechess-cli` in `../shared/tools/bin/` beside this
repository (or beside the repository it was cloned from, when that is a
directory on this machine), else on the PATH. A tool that is not found, or
that cannot start (cutechess-cli needs Qt 6: `apt-get install
libqt6core6`), is skipped with a message; the script fails only on what
it sees go wrong. Needs python-chess (`python3 -m pip install chess`) to
replay the games. About 20 s; `.ci/run` runs it.

What it checks:

1. `fastchess --compliance SHEARS`: fastchess's own UCI compliance steps;
2. fastchess, 4 games of Shears against Shears (two openings, colours
   swapped, `-check-mate-pvs`), 20,000 and 16,000 nodes a move under a
   60 s + 1 s clock (so that a loaded machine cannot lose a game on time);
3. cutechess-cli, the same 4 games.

Every game must end by the rules (mate, stalemate, repetition, the 50-move
rule, insufficient material), never by an illegal move, a time loss, a
stall, a crash or a disconnection; fastchess must print none of its PV
warnings ("Illegal PV move", "PV continues after …", "Bestmove does not
match beginning of last PV"); the mate-PV warnings of `-check-mate-pvs`
are counted and reported, not failed. Each tool's PGN is replayed with
python-chess: every move legal, the result the one the rules give.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: python3 -m pip install chess")

REPO = Path(__file__).resolve().parents[2]
OPENINGS = [
    # Mamedyarov-Duda and Karpov-Kasparov (src/engine/bench.fens).
    "rnbqkb1r/pp3ppp/5n2/3p4/3QP3/2N2N2/PP3PPP/R1B1KB1R b KQkq - 0 7",
    "r1bqkb1r/1p3ppp/p1n2n2/3P4/8/N1N5/PP3PPP/R1BQKB1R b KQkq - 0 10",
]
NODES = 20_000
TC = "60+1"
TOOL_TIMEOUT = 300  # seconds for a whole 4-game match
ANSI = re.compile(r"\x1b\[[0-9;]*m")
FATAL_PV = re.compile(
    r"Warning; (Illegal PV move|PV continues after|Bestmove does not match)"
)
MATE_PV = re.compile(r"Warning; (Incomplete mating PV|Too long mating PV|Mating PV does not end)")
BAD_ENDINGS = ("illegal", "time", "stall", "disconnect", "crash", "connection", "abort")


class Failure(Exception):
    """A check failed; the message says which and why."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def origin_dir():
    """The repository this one was cloned from, when it is a local
    directory (CI runs on a fresh clone of a worktree beside ../shared)."""
    try:
        url = subprocess.run(
            ["git", "-C", str(REPO), "remote", "get-url", "origin"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    url = url.removeprefix("file://")
    return Path(url) if url and Path(url).is_dir() else None


def find_tool(env, name):
    if os.environ.get(env):
        path = Path(os.environ[env])
        return path if path.exists() else None
    roots = [REPO]
    origin = origin_dir()
    if origin is not None:
        roots.append(origin)
    for root in roots:
        candidate = (root / ".." / "shared" / "tools" / "bin" / name).resolve()
        if candidate.exists():
            return candidate
    found = shutil.which(name)
    return Path(found) if found else None


def run(command, what, cwd):
    try:
        done = subprocess.run(
            [str(c) for c in command],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=TOOL_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: did not finish within {TOOL_TIMEOUT} s") from None
    return done.returncode, ANSI.sub("", done.stdout + done.stderr)


def results_by_rule(pgn_path, what):
    """Replays every game of the PGN: legal moves, and a decisive or drawn
    result that the final position (or a repetition, or the 50-move rule)
    gives. Returns the number of games."""
    games = 0
    with open(pgn_path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games += 1
            label = f"{what}, game {games}"
            check(not game.errors, f"{label}: {game.errors}")
            board = game.board()
            for move in game.mainline_moves():
                check(move in board.legal_moves, f"{label}: illegal {move} in {board.fen()}")
                board.push(move)
            outcome = board.outcome(claim_draw=True)
            check(outcome is not None, f"{label}: ended before the rules end it: {board.fen()}")
            check(
                game.headers.get("Result") == outcome.result(),
                f"{label}: result {game.headers.get('Result')}, the rules say {outcome.result()}",
            )
    return games


def check_endings(output, what):
    """The `Finished game N (...): RESULT {reason}` lines: 4, none for a bad
    reason."""
    finished = re.findall(r"Finished game \d+ \(.*?\): (\S+) \{(.*?)\}", output)
    check(len(finished) == 4, f"{what}: {len(finished)} finished games, not 4:\n{output[-2000:]}")
    for result, reason in finished:
        lowered = reason.lower()
        check(
            not any(bad in lowered for bad in BAD_ENDINGS),
            f"{what}: a game ended {result} {{{reason}}}",
        )
    return [reason for _, reason in finished]


def write_openings(workdir):
    path = workdir / "openings.epd"
    path.write_text("".join(f"{fen}\n" for fen in OPENINGS))
    return path


def fastchess(tool, shears, workdir):
    code, out = run([tool, "--compliance", shears], "fastchess --compliance", workdir)
    check(
        code == 0 and "passed all compliance checks" in out,
        f"fastchess --compliance (exit {code}):\n{out[-2000:]}",
    )
    pgn = workdir / "fastchess.pgn"
    command = [
        tool,
        "-engine", f"cmd={shears}", "name=Shears-A", f"nodes={NODES}",
        "-engine", f"cmd={shears}", "name=Shears-B", f"nodes={NODES * 4 // 5}",
        "-each", "proto=uci", f"tc={TC}", "option.Hash=16",
        "-openings", f"file={write_openings(workdir)}", "format=epd", "order=sequential",
        "-rounds", "2", "-games", "2", "-concurrency", "1",
        "-check-mate-pvs",
        "-pgnout", f"file={pgn}",
    ]  # fmt: skip
    code, out = run(command, "fastchess", workdir)
    check(code == 0, f"fastchess exited with code {code}:\n{out[-2000:]}")
    fatal = [line for line in out.splitlines() if FATAL_PV.search(line)]
    check(not fatal, "fastchess PV warnings:\n" + "\n".join(fatal[:10]))
    other = [
        line
        for line in out.splitlines()
        if line.startswith("Warning;") and not MATE_PV.search(line)
    ]
    check(not other, "fastchess warnings:\n" + "\n".join(other[:10]))
    mate_warnings = sum(1 for line in out.splitlines() if MATE_PV.search(line))
    reasons = check_endings(out, "fastchess")
    games = results_by_rule(pgn, "fastchess")
    check(games == 4, f"fastchess: {games} games in the PGN, not 4")
    return reasons, mate_warnings


def cutechess(tool, shears, workdir):
    code, out = run([tool, "--version"], "cutechess-cli --version", workdir)
    if code != 0:
        return None, out.strip().splitlines()[-1] if out.strip() else f"exit {code}"
    pgn = workdir / "cutechess.pgn"
    command = [
        tool,
        "-engine", f"cmd={shears}", "name=Shears-A", f"nodes={NODES}",
        "-engine", f"cmd={shears}", "name=Shears-B", f"nodes={NODES * 4 // 5}",
        "-each", "proto=uci", f"tc={TC}", "option.Hash=16",
        "-openings", f"file={write_openings(workdir)}", "format=epd", "order=sequential",
        "-games", "2", "-rounds", "2", "-repeat", "-concurrency", "1",
        "-pgnout", pgn,
    ]  # fmt: skip
    code, out = run(command, "cutechess-cli", workdir)
    check(code == 0, f"cutechess-cli exited with code {code}:\n{out[-2000:]}")
    warnings = [line for line in out.splitlines() if "warning" in line.lower()]
    check(not warnings, "cutechess-cli warnings:\n" + "\n".join(warnings[:10]))
    reasons = check_endings(out, "cutechess-cli")
    games = results_by_rule(pgn, "cutechess-cli")
    check(games == 4, f"cutechess-cli: {games} games in the PGN, not 4")
    return reasons, None


def main():
    shears = Path(
        sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SHEARS") or REPO / "target/release/shears"
    ).resolve()
    if not shears.exists():
        sys.exit(f"no engine at {shears}: build it with cargo build --release")
    workdir = Path(tempfile.mkdtemp(prefix="shears-match-"))
    started = time.monotonic()
    try:
        tool = find_tool("FASTCHESS", "fastchess")
        if tool is None:
            print("match_tools: fastchess skipped: not found ($FASTCHESS, ../shared/tools/bin, PATH)")
        else:
            reasons, mate_warnings = fastchess(tool, shears, workdir)
            print(
                f"match_tools: fastchess ok ({tool}): compliance passed; 4 games: "
                f"{'; '.join(reasons)}; {mate_warnings} mate-PV warnings"
            )
        tool = find_tool("CUTECHESS", "cutechess-cli")
        if tool is None:
            print(
                "match_tools: cutechess-cli skipped: not found ($CUTECHESS, ../shared/tools/bin, PATH)"
            )
        else:
            reasons, why = cutechess(tool, shears, workdir)
            if reasons is None:
                print(f"match_tools: cutechess-cli skipped: it cannot start ({why})")
            else:
                print(f"match_tools: cutechess-cli ok ({tool}): 4 games: {'; '.join(reasons)}")
    except Failure as e:
        print(f"match_tools: FAILED: {e}")
        sys.exit(1)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"match_tools: done in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks `scripts/uci_label.py`, which labels the positions of a packed
`datagen` file with a UCI engine's search score:

- one `shears datagen` run converted (`shears data convert`) to text and to packed records
  holds the same games; the script's FEN of every packed record (`--keep 1`)
  is the FEN of the text file's line, game by game, with the same result,
  and every game ends with its `# game` line;
- each score is the labelling engine's own: Shears at `go depth 2` on
  that FEN after the game's earlier positions (one `ucinewgame` a game, as
  the script searches), from White's side, times `--score-scale`, and the
  positions it scores as a mate are left out;
- `--keep 0.5` keeps the same positions on a rerun with the same seed and
  a different share with another seed;
- a run stopped after some games (`--games`) and run again resumes: the
  file is the same as one run over all the games;
- `--fit-k` prints a K in the range the fit searches.

Usage: python3 tests/client/label_tools.py [PATH-TO-SHEARS] (else $SHEARS,
else target/release/shears). A few seconds; `.ci/run` runs it.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "uci_label.py"


def run(*args):
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return out.stdout


def games_of(path):
    """[(result, [(fen, result, score)])] of a text data file, game by game."""
    games, lines = [], []
    for line in Path(path).read_text().splitlines():
        if line.startswith("# game"):
            games.append((line.split()[3], lines))
            lines = []
        elif not line.startswith("#"):
            fen, result, score = line.split(" | ")
            lines.append((fen, result, int(score)))
    assert not lines, "positions after the last # game line"
    return games


def game_scores(shears, fens, depth):
    """Shears' scores (cp, side to move; None for a mate) of FENS searched in
    turn at DEPTH after one `ucinewgame`, as the script searches a game."""
    proc = subprocess.Popen(
        [shears], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(token):
        lines = []
        while not (line := proc.stdout.readline()).startswith(token):
            assert line, "the engine closed its output"
            lines.append(line)
        return lines

    send("uci")
    until("uciok")
    for command in ("setoption name Hash value 16", "ucinewgame"):
        send(command)
    send("isready")
    until("readyok")
    scores = []
    # Each search is awaited (its bestmove) before the next position is
    # sent, as the script does.
    for fen in fens:
        send(f"position fen {fen}")
        send(f"go depth {depth}")
        last = None
        for line in until("bestmove"):
            words = line.split()
            if words[:1] == ["info"] and "score" in words and not (
                "lowerbound" in words or "upperbound" in words
            ):
                i = words.index("score")
                last = int(words[i + 2]) if words[i + 1] == "cp" else None
        scores.append(last)
    send("quit")
    proc.wait(timeout=10)
    assert len(scores) == len(fens)
    return scores


def main():
    shears = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SHEARS", str(REPO / "target" / "release" / "shears")
    )
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        run(shears, "datagen", str(tmp / "g.games"), "--games", "4", "--nodes", "300",
            "--seed", "7", "--threads", "1")
        for name in ("g.txt", "g.bin"):
            run(shears, "data", "convert", str(tmp / "g.games"), str(tmp / name))
        text = games_of(tmp / "g.txt")
        label = [sys.executable, str(SCRIPT), str(tmp / "g.bin")]

        out = tmp / "all.txt"
        run(*label, str(out), "--engine", shears, "--depth", "2", "--keep", "1",
            "--workers", "2", "--block", "3", "--score-scale", "0.5")
        labelled = games_of(out)
        assert len(labelled) == len(text) == 4, (len(labelled), len(text))
        checked = 0
        for (res_t, lines_t), (res_l, lines_l) in zip(text, labelled):
            assert res_t == {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}[res_l], (res_t, res_l)
            fens_t = [f for f, _, _ in lines_t]
            # Positions the engine scores as a mate are left out; the others
            # are the text file's, in its order, with its result.
            own = game_scores(shears, fens_t, 2)
            expected = [
                (fen, result, round((cp if " w " in fen else -cp) * 0.5))
                for (fen, result, _), cp in zip(lines_t, own)
                if cp is not None
            ]
            assert lines_l == expected, (lines_l, expected)
            checked += len(lines_l)
        assert checked >= 100, checked

        def half(seed, name):
            path = tmp / name
            run(*label, str(path), "--engine", shears, "--depth", "1", "--keep", "0.5",
                "--seed", str(seed))
            return path.read_text()

        a, b, c = half(1, "a.txt"), half(1, "b.txt"), half(2, "c.txt")
        assert a == b, "the same seed kept other positions"
        assert a != c, "another seed kept the same positions"
        kept = sum(1 for line in a.splitlines() if not line.startswith("#"))
        total = sum(len(lines) for _, lines in text)
        assert total * 0.3 < kept < total * 0.7, (kept, total)

        resumed = tmp / "resumed.txt"
        run(*label, str(resumed), "--engine", shears, "--depth", "1", "--keep", "0.5",
            "--seed", "1", "--games", "2", "--block", "1")
        assert len(games_of(resumed)) == 2
        run(*label, str(resumed), "--engine", shears, "--depth", "1", "--keep", "0.5",
            "--seed", "1")
        assert resumed.read_text() == a, "a resumed run differs from one run"

        k = run(*label, str(out), "--fit-k")
        m = re.fullmatch(r"K = (\d\.\d+) per cp over (\d+) scores\n", k)
        assert m and 0.0005 < float(m.group(1)) < 0.05 and int(m.group(2)) > 0, k
    print(f"uci_label.py: packed records decode to datagen's FENs, {checked} scores "
          "are the engine's own, --keep is seeded, a stopped run resumes, --fit-k fits")


if __name__ == "__main__":
    main()

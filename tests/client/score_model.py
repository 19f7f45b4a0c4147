#!/usr/bin/env python3
"""Checks `scripts/wdl_fit.py`, the fit that made the built-in net's score
model (in its file, `shears net set-model`), on games made up here from a
model that is known:

1. Shears-against-Shears games from positions of 10, 30, 58 and 78 points
   of material (quiet moves only, so the material stays), each with one
   score for White throughout its moves (the mover's view in the comments,
   as fastchess writes them) and a result drawn from a known a(m) and b(m):
   the fitted material model gives back a and b at those four materials
   (a cubic through four points: nothing to smooth), within what 400 games
   a material can tell, and its held-out log-loss beats the no-score
   baseline's;
2. what the script skips is counted as it says: book moves and the first
   --min-ply plies are not scored, a mate score is counted apart, a game
   of another engine and an unfinished game are skipped;
3. `--shown-pawn CP` prints a(t) and b(t), the coefficients times CP /
   100, `a(t = 1)` of them and the `shears net set-model` command with
   them; `--test-pgn` files are scored.

Usage: python3 tests/client/score_model.py [PATH-TO-SHEARS] (the engine
is not needed: the argument is taken as every client check takes it).
Needs python-chess, numpy and scipy (`python3 -m pip install chess numpy
scipy`). About 5 s of CPU; `.ci/run` runs it.
"""

import math
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import chess
import chess.pgn

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "wdl_fit.py"

# The start of each game by its material (pawn 1, knight and bishop 3,
# rook 5, queen 9, both sides), and the model's a and b (cp) there.
STARTS = {
    78: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    58: "rnb1kbnr/ppp1pppp/8/8/8/8/PPP1PPPP/RNB1KBNR w KQkq - 0 1",
    30: "r1b1k3/pppp4/2n5/8/8/2N5/PPPP4/R1B1K3 w Q - 0 1",
    10: "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1",
}
TRUE_A = {78: 90.0, 58: 110.0, 30: 180.0, 10: 300.0}
TRUE_B = {78: 55.0, 58: 60.0, 30: 80.0, 10: 120.0}
GAMES_EACH = 400
PLIES = 10          # two book moves, then scored ones
MIN_PLY = 4         # the script's --min-ply: plies 2 and 3 are not scored
MATES = 3           # games whose last move has a mate score
SEED = 8201


class Failure(Exception):
    """A check failed; the message says which and why."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def material(board):
    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    return sum(v * len(board.pieces(r, c)) for r, v in values.items() for c in chess.COLORS)


def outcome(rng, x, m):
    """White's result for White's score x at material m, drawn from the
    model (Stockfish's form, as wdl_fit.py fits it)."""
    a, b = TRUE_A[m], TRUE_B[m]
    win = 1 / (1 + math.exp((a - x) / b))
    loss = 1 / (1 + math.exp((a + x) / b))
    u = rng.random()
    return "1-0" if u < win else "0-1" if u < win + loss else "1/2-1/2"


def quiet_line(rng, fen):
    """PLIES random moves from `fen` that capture and promote nothing (a
    line that runs into a mate or has no quiet move is drawn again)."""
    while True:
        board = chess.Board(fen)
        line = []
        for _ in range(PLIES):
            quiet = [mv for mv in board.legal_moves
                     if not board.is_capture(mv) and mv.promotion is None]
            if not quiet:
                break
            line.append(rng.choice(quiet))
            board.push(line[-1])
        if len(line) == PLIES:
            return line


def game(rng, fen, white, black, result=None, mate=False):
    """A game of quiet random moves from `fen`; every move's comment gives
    the mover's view of one score for White (`{+1.23/12 0.100s}`), the first
    two `{book}`."""
    board = chess.Board(fen)
    m = material(board)
    x = rng.randint(-500, 500)
    g = chess.pgn.Game()
    g.setup(board)
    g.headers["White"], g.headers["Black"] = white, black
    g.headers["Result"] = result or outcome(rng, x, m)
    node = g
    for ply, move in enumerate(quiet_line(rng, fen)):
        mover = x if board.turn == chess.WHITE else -x
        board.push(move)
        node = node.add_variation(move)
        if ply < 2:
            node.comment = "book"
        elif mate and ply == PLIES - 1:
            node.comment = "+M3/20 0.050s"
        else:
            node.comment = f"{mover / 100:+.2f}/12 0.100s"
    check(material(board) == m, f"a game from {fen} changed its material")
    return g


def write_games(path, rng):
    """The fit's games, and the numbers the script must report for them."""
    expected = {"games": 0, "skipped": 0, "positions": 0, "mates": 0}
    with open(path, "w", encoding="utf-8") as f:
        for m, fen in STARTS.items():
            for i in range(GAMES_EACH):
                mate = m == 78 and i < MATES
                g = game(rng, fen, "Shears-a", "Shears-b", mate=mate)
                print(g, file=f, end="\n\n")
                plies = len(list(g.mainline_moves()))
                check(plies == PLIES, f"a game of {plies} plies from {fen}")
                expected["games"] += 1
                expected["positions"] += PLIES - MIN_PLY - (1 if mate else 0)
                expected["mates"] += 1 if mate else 0
        # Skipped: a game against another engine, and an unfinished one.
        print(game(rng, STARTS[78], "Shears-a", "Ethereal"), file=f, end="\n\n")
        print(game(rng, STARTS[78], "Shears-a", "Shears-b", result="*"), file=f, end="\n\n")
        expected["skipped"] = 2
    return expected


def run(*args):
    done = subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True, timeout=300)
    check(done.returncode == 0, f"wdl_fit.py {' '.join(map(str, args))}: exit {done.returncode}\n"
          f"{done.stdout}{done.stderr}")
    return done.stdout


def coefficients(out, name):
    m = re.search(rf"^\s*{re.escape(name)} = \[([^\]]*)\]", out, re.MULTILINE)
    check(m is not None, f"no {name} line in\n{out}")
    return [float(c) for c in m.group(1).split(",")]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        rng = random.Random(SEED)
        pgn = Path(tmp) / "games.pgn"
        expected = write_games(pgn, rng)
        test_pgn = Path(tmp) / "test.pgn"
        with open(test_pgn, "w", encoding="utf-8") as f:
            for m, fen in STARTS.items():
                for _ in range(25):
                    print(game(rng, fen, "Shears-a", "Shears-b"), file=f, end="\n\n")
        out = run(pgn, "--min-ply", MIN_PLY, "--engine-prefix", "Shears",
                  "--shown-pawn", "104.343", "--test-pgn", test_pgn)

        # 2. What was read and skipped.
        read = re.search(r"read (\d+) games \((\d+) skipped.*?\), (\d+) positions \((\d+) mate", out)
        check(read is not None, f"no 'read' line in\n{out}")
        got = tuple(int(g) for g in read.groups())
        want = (expected["games"], expected["skipped"], expected["positions"], expected["mates"])
        check(got == want, f"read games, skipped, positions, mates: {got}, expected {want}")
        tested = re.search(r"--test-pgn .*: (\d+) games, (\d+) positions", out)
        check(tested is not None and int(tested.group(1)) == 100,
              f"the --test-pgn games are not read:\n{out}")

        # 1. The model comes back. With 400 games a material, a and b are
        # known to some 10-15 cp (one standard error); 45 and 35 cp are
        # three of them, far below the differences between materials.
        fitted = {int(m): (float(a), float(b)) for m, a, b in re.findall(
            r"material\s+(\d+): a =\s*(-?[\d.]+) cp, b =\s*(-?[\d.]+) cp", out)}
        for m in STARTS:
            check(m in fitted, f"no fitted a, b at material {m}:\n{out}")
            a, b = fitted[m]
            check(abs(a - TRUE_A[m]) < 45 and abs(b - TRUE_B[m]) < 35,
                  f"material {m}: fitted a {a}, b {b}; the games' model a {TRUE_A[m]}, b {TRUE_B[m]}")
            print(f"  material {m}: a {a:6.1f} (true {TRUE_A[m]:.0f}), b {b:5.1f} (true {TRUE_B[m]:.0f})")
        losses = dict(re.findall(r"^\s*(by material|constant W/D/L).*?held out (\d\.\d+)", out,
                                 re.MULTILINE))
        check(set(losses) == {"by material", "constant W/D/L"}, f"no held-out log-losses in\n{out}")
        check(float(losses["by material"]) < float(losses["constant W/D/L"]) - 0.1,
              f"the material model's held-out log-loss {losses['by material']} does not beat "
              f"the no-score baseline's {losses['constant W/D/L']}")
        check("calibration of the material model on the --test-pgn games" in out,
              "no calibration on the --test-pgn games")

        # 3. --shown-pawn: the same model in the evaluation's own centipawns.
        a_s, b_s = coefficients(out, "AS"), coefficients(out, "BS")
        a_net, b_net = coefficients(out, "a(t)"), coefficients(out, "b(t)")
        for shown, own in zip(a_s + b_s, a_net + b_net):
            check(abs(shown * 1.04343 - own) < 0.002,
                  f"the net's a(t)/b(t) {own} is not {shown} x 104.343 / 100")
        pawn = re.search(r"a\(t = 1\) = (-?[\d.]+) cp", out)
        check(pawn is not None and abs(float(pawn.group(1)) - sum(a_net)) < 0.003,
              f"a(t = 1) is not the sum of a(t) {a_net}:\n{out}")
        command = re.search(r"shears net set-model NET --a=(\S+) --b=(\S+)", out)
        check(command is not None, f"no set-model command in\n{out}")
        written = [float(c) for c in command.group(1).split(",") + command.group(2).split(",")]
        check(written == a_net + b_net,
              f"the set-model command's {written} are not a(t), b(t) {a_net + b_net}")
        print(f"  held-out log-loss {losses['by material']} against {losses['constant W/D/L']} "
              f"without the score; a(t = 1) = {pawn.group(1)} cp in the net's own")


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print(f"score model: FAIL: {e}")
        sys.exit(1)
    print("score model: all checks passed")

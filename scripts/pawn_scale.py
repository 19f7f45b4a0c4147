#!/usr/bin/env python3
"""What one pawn is worth to the evaluation, by game phase: positions are
taken from games (every 7th ply from ply 18 on, not in check), one pawn of
either side is taken away at random (seed 1; the position must stay legal),
and the drop of the engine's final evaluation (its UCI `eval` command) is
averaged by the phase of the position.

    python3 scripts/pawn_scale.py <engine> games.pgn

Prints, per phase range, the number of positions and the mean and median
drop in the evaluation's centipawns (README § UCI quotes it).
"""

import random
import re
import statistics
import subprocess
import sys

import chess
import chess.pgn

POSITIONS = 3000
BUCKETS = [("midgame (phase 18-24)", 18), ("middle (7-17)", 7), ("endgame (0-6)", 0)]


def pairs_from(pgn):
    """(position, position without one pawn, that pawn's colour) triples."""
    rng = random.Random(1)
    pairs = []
    while len(pairs) < POSITIONS:
        game = chess.pgn.read_game(pgn)
        if game is None:
            break
        board = game.board()
        for ply, move in enumerate(game.mainline_moves()):
            board.push(move)
            if ply % 7 != 3 or ply < 16 or board.is_check():
                continue
            for color in chess.COLORS:
                pawns = list(board.pieces(chess.PAWN, color))
                if not pawns:
                    continue
                fewer = board.copy(stack=False)
                fewer.remove_piece_at(rng.choice(pawns))
                if fewer.is_valid():
                    pairs.append((board.fen(), fewer.fen(), color))
    return pairs


def main(engine, pgn_path):
    with open(pgn_path) as pgn:
        pairs = pairs_from(pgn)
    commands = []
    for full, fewer, _ in pairs:
        commands += [f"position fen {full}", "eval", f"position fen {fewer}", "eval"]
    out = subprocess.run(
        [engine], input="\n".join(commands) + "\nquit\n", capture_output=True, text=True
    ).stdout
    finals = [int(x) for x in re.findall(r"Hand-crafted evaluation: (-?\d+)", out)]
    phases = [int(x) for x in re.findall(r"Phase: (\d+) of 24", out)]
    if len(finals) != 2 * len(pairs) or len(phases) != 2 * len(pairs):
        sys.exit(f"expected {2 * len(pairs)} evaluations, read {len(finals)}")
    drops = {name: [] for name, _ in BUCKETS}
    for k, (_, _, color) in enumerate(pairs):
        drop = finals[2 * k] - finals[2 * k + 1]
        phase = phases[2 * k]
        name = next(name for name, low in BUCKETS if phase >= low)
        drops[name].append(drop if color == chess.WHITE else -drop)
    for name, values in drops.items():
        if values:
            print(
                f"{name}: n={len(values)} mean {statistics.mean(values):.0f} "
                f"median {statistics.median(values):.0f}"
            )


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

#!/usr/bin/env python3
"""Random won positions against a bare king, as EPD, for `shears tb-play`.

    python3 scripts/known_win_epd.py --syzygy ../shared/syzygy --seed 14 \
        --count 50 KBNvK > tests/data/endgames/kbnvk50.epd

Each position has the pieces of the material key (the first side's for the
strong side, the second is a bare king) on random squares, the strong side
White or Black and either side to move, at random. Only legal positions the
tables call a win for the strong side are kept, and none that is already
over. The same seed gives the same file.
"""

import argparse
import random
import sys

import chess
import chess.syzygy

ROLES = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT}


def random_position(rng, roles):
    board = chess.Board(None)
    strong = rng.choice([chess.WHITE, chess.BLACK])
    squares = rng.sample(chess.SQUARES, 2 + len(roles))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, strong))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, not strong))
    for square, role in zip(squares[2:], roles):
        board.set_piece_at(square, chess.Piece(role, strong))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board, strong


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("material", help="e.g. KBNvK, KQvK, KRvK, KBBvK")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--syzygy", required=True, help="folder of Syzygy tables")
    args = ap.parse_args()

    strong_key, weak_key = args.material.upper().split("V")
    if weak_key != "K" or not strong_key.startswith("K"):
        sys.exit(f"error: {args.material}: expected K...vK")
    try:
        roles = [ROLES[c] for c in strong_key[1:]]
    except KeyError as e:
        sys.exit(f"error: {args.material}: unknown piece {e}")

    rng = random.Random(f"{args.seed}-{args.material}")
    out = []
    with chess.syzygy.open_tablebase(args.syzygy) as tb:
        while len(out) < args.count:
            board, strong = random_position(rng, roles)
            if not board.is_valid() or board.is_game_over():
                continue
            wdl = tb.probe_wdl(board)
            if (wdl > 0) != (board.turn == strong) or wdl == 0:
                continue
            if abs(wdl) != 2:
                continue  # a win that the 50-move rule spoils
            name = f"{args.material}.{len(out) + 1:03}"
            out.append(f'{board.epd()} id "{name}";')
    print("\n".join(out))


if __name__ == "__main__":
    main()

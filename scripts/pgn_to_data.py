#!/usr/bin/env python3
"""Turn engine games (PGN, e.g. from fastchess) into `tune` data lines.

    python3 scripts/pgn_to_data.py games.pgn [more.pgn ...] > data/games.txt

Each kept position becomes `<fen> | <result>` (the format of
`tools/src/datagen/format.rs` without the score). With `--score-scale F`
it becomes `<fen> | <result> | <score>`: the engine's score of the move
played (its comment, `+0.61/9 …`, from the mover's side), turned to
White's side and multiplied by F, so that scores on another engine's scale
can be put on Shears' (F = K of that engine's scores / K of Shears'
evaluation, each fitted against the same results; `--fit-k` prints the
first). A position is
kept under the same rule as `shears datagen`'s quiet filter: out of the book
(a move whose comment is not `book`), at least 16 plies into the game, the
side to move not in check, and the move played neither a capture, a
promotion nor a check; positions whose score comment is a mate are left out.
Games without a decisive or drawn result (`*`), and games that did not
end normally or by adjudication (a time forfeit, a crash, an illegal
move), are skipped.
"""

import argparse
import re
import sys

import chess
import chess.pgn

from score_k import fit_k

MIN_PLY = 16
RESULTS = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}
SCORE = re.compile(r"^([+-]?\d+\.\d+)/\d+")


def white_cp(comment, board):
    """The comment's score in centipawns from White's side, or None."""
    m = SCORE.match(comment)
    if m is None:
        return None
    cp = round(float(m.group(1)) * 100)
    return cp if board.turn == chess.WHITE else -cp


def kept_positions(game):
    """(fen, result, White's score or None) of each kept position."""
    result = RESULTS.get(game.headers.get("Result", "*"))
    if result is None or game.headers.get("Termination", "normal") not in (
        "normal",
        "adjudication",
    ):
        return
    board = game.board()
    for node in game.mainline():
        move = node.move
        comment = node.comment.strip()
        keep = (
            board.ply() >= MIN_PLY
            and comment
            and comment != "book"
            and not comment.lstrip("+-").startswith("M")
            and not board.is_check()
            and not board.is_capture(move)
            and move.promotion is None
            and not board.gives_check(move)
        )
        if keep:
            yield board.fen(), result, white_cp(comment, board)
        board.push(move)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--score-scale", type=float, help="write scores, times this")
    parser.add_argument("--fit-k", action="store_true", help="print the K of the scores")
    args = parser.parse_args()
    games = positions = 0
    pairs = []
    out = sys.stdout
    for path in args.pgn:
        with open(path, encoding="utf-8", errors="replace") as pgn:
            while (game := chess.pgn.read_game(pgn)) is not None:
                games += 1
                for fen, result, score in kept_positions(game):
                    if args.fit_k and score is not None and abs(score) < 2000:
                        pairs.append((score, float(result)))
                    if args.score_scale is None:
                        line = f"{fen} | {result}"
                    elif score is None:
                        continue
                    else:
                        line = f"{fen} | {result} | {round(score * args.score_scale)}"
                    out.write(line + "\n")
                    positions += 1
                out.write(f"# game {games} {game.headers.get('Result', '*')}\n")
    print(f"{games} games, {positions} positions", file=sys.stderr)
    if args.fit_k:
        print(f"K = {fit_k(pairs):.6f} per cp over {len(pairs)} scores", file=sys.stderr)


if __name__ == "__main__":
    main()

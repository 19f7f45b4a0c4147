#!/usr/bin/env python3
"""Why an engine misses a suite move: its score for its own choice against
its score for the expected move, at the same fixed depth.

    python3 scripts/expected_move_probe.py --engine target/release/shears \\
        --depth 14 ../shared/suites/sts1-15.epd --id "AKPC.005" --id "AKPC.065"

For each chosen EPD line (by a substring of its `id`, or every line without
--id) the engine searches the position to --depth, then again with
`searchmoves` set to the `bm` moves only; each search is a new game
(`ucinewgame`: an empty table). It prints the move it
chose with its score, the best expected move with its score, and the
difference (own minus expected, centipawns from the side to move). A large
negative difference means the expected move is better by the engine's own
search when searched first and in full: the full search passed it over
(ordering, reductions, pruning), not the evaluation. A positive one means
the engine really prefers its own move at that depth.

Needs python-chess. Lines without `bm` or with an unreadable FEN or move are
reported and skipped.
"""

import argparse
import sys

import chess
import chess.engine


def score_cp(info):
    """The score of an analysis as centipawns (mates as ±100000 less the distance)."""
    return info["score"].relative.score(mate_score=100_000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", help="EPD file with bm and id operations")
    parser.add_argument("--engine", required=True, help="UCI engine command")
    parser.add_argument("--depth", type=int, default=14, help="search depth")
    parser.add_argument("--hash", type=int, default=64, help="engine option Hash (MB)")
    parser.add_argument(
        "--id", action="append", default=[], help="only lines whose id contains this (repeatable)"
    )
    args = parser.parse_args()

    try:
        lines = open(args.suite, encoding="utf-8").read().splitlines()
    except OSError as e:
        sys.exit(f"error: cannot read {args.suite}: {e}")

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Hash": args.hash})
    limit = chess.engine.Limit(depth=args.depth)
    try:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                board, ops = chess.Board.from_epd(line)
            except ValueError as e:
                print(f"line {number}: skipped: {e}")
                continue
            name = ops.get("id", f"line {number}")
            if args.id and not any(i in name for i in args.id):
                continue
            expected = ops.get("bm")
            if not expected:
                print(f"{name}: skipped: no bm")
                continue
            own = engine.analyse(board, limit, game=object())
            best = engine.analyse(board, limit, root_moves=expected, game=object())
            own_move, best_move = own["pv"][0], best["pv"][0]
            own_cp, best_cp = score_cp(own), score_cp(best)
            print(
                f"{name}: own {board.san(own_move)} {own_cp}, "
                f"expected {board.san(best_move)} {best_cp}, difference {own_cp - best_cp}"
            )
    finally:
        engine.quit()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Positions for matetrack's `go mate` test, made from mates2000.epd.

matetrack's `check_engine.sh` runs its go-mate test on positions advanced
along known mating lines until a mate in 2 is left (`advancepvs.py
--targetMate -2` on `matetrackpv.epd`, which carries a PV for every
position), then `matecheck.py --bmMax 2 --mate 0` with a node budget of
100,000,000. Only `mates2000.epd` (no PVs) is in `../shared/matetrack/`, so
this script makes the same kind of file from it:

1. every position is searched with `go mate |bm|` by an engine (Shears by
   default, whose mating lines matecheck finds complete) and its line kept
   when it is as long as `bm` says and ends in checkmate;
2. the line is followed as `advancepvs.py --targetMate -2` does, leaving the
   side to move mated in 2 (positions already at most that close, and those
   without a line, are written unchanged, as advancepvs does);
3. every written position is checked by the engine (`go mate 2`): the mate
   must be exactly the one the file claims, else the position is dropped
   (a defender's reply in the line may not have been the longest defence).

Usage (about 20 minutes on 2 cores for the first 1,003 positions):

    python3 scripts/gomate_positions.py --engine target/release/shears \\
        --epd ../shared/matetrack/mates2000.epd --out data/mates2head.epd --count 1003

then, as check_engine.sh does:

    python3 ../shared/matetrack/matecheck.py --engine target/release/shears \\
        --epdFile data/mates2head.epd --bmMax 2 --mate 0 --nodes 100000000 --concurrency 2
"""

import argparse
import re
import sys
from multiprocessing import Pool

import chess
import chess.engine

LINE = re.compile(r"^(\S+ [wb] \S+ \S+)(?: \d+ \d+)? bm #(-?\d+);")
TARGET = -2


def plies_to_mate(bm):
    return 2 * bm - 1 if bm > 0 else -2 * bm


def mating_line(engine, fen, bm, nodes):
    """The engine's line for `go mate |bm|`, if it mates in exactly bm."""
    board = chess.Board(fen)
    info = engine.analyse(board, chess.engine.Limit(mate=abs(bm), nodes=nodes))
    score = info.get("score")
    pv = info.get("pv", [])
    if score is None or score.pov(board.turn).mate() != bm:
        return None
    if len(pv) != plies_to_mate(bm):
        return None
    for move in pv:
        if move not in board.legal_moves:
            return None
        board.push(move)
    return pv if board.is_checkmate() else None


def advanced(fen, bm, pv):
    """As advancepvs.py --targetMate -2: (fen, bm) after following pv."""
    plies = plies_to_mate(bm) - plies_to_mate(TARGET)
    if plies < 0:
        plies = plies_to_mate(bm) + 1
    if pv is None or plies > len(pv) or plies >= plies_to_mate(bm):
        return fen, bm
    board = chess.Board(fen)
    for move in pv[:plies]:
        board.push(move)
        bm = -bm + (1 if bm > 0 else 0)
    return board.epd(), bm


def confirmed(engine, fen, bm, nodes):
    """Whether the engine finds exactly mate bm with `go mate |bm|`."""
    board = chess.Board(fen)
    info = engine.analyse(board, chess.engine.Limit(mate=abs(bm), nodes=nodes))
    score = info.get("score")
    return score is not None and score.pov(board.turn).mate() == bm


def work(args):
    chunk, engine_path, nodes = args
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    out = []
    try:
        for fen, bm in chunk:
            pv = mating_line(engine, fen, bm, nodes)
            new_fen, new_bm = advanced(fen, bm, pv)
            if confirmed(engine, new_fen, new_bm, nodes):
                out.append((new_fen, new_bm, pv is not None))
            else:
                out.append(None)
    finally:
        engine.quit()
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", required=True)
    parser.add_argument("--epd", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=1003, help="positions written, at most")
    parser.add_argument("--nodes", type=int, default=2_000_000, help="per search")
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()

    positions = []
    with open(args.epd) as f:
        for line in f:
            m = LINE.match(line.strip())
            if m:
                positions.append((m.group(1), int(m.group(2))))
    chunks = [
        (positions[i : i + 25], args.engine, args.nodes) for i in range(0, len(positions), 25)
    ]
    written = dropped = advanced_count = 0
    with open(args.out, "w") as out, Pool(args.concurrency) as pool:
        for results in pool.imap(work, chunks):
            for r in results:
                if written >= args.count:
                    break
                if r is None:
                    dropped += 1
                    continue
                fen, bm, had_line = r
                out.write(f"{fen} bm #{bm};\n")
                written += 1
                advanced_count += had_line
            print(f"\r{written} written, {dropped} dropped", end="", file=sys.stderr)
            if written >= args.count:
                pool.terminate()
                break
    print(
        f"\n{written} positions ({advanced_count} advanced along a mating line), "
        f"{dropped} dropped (not confirmed)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()

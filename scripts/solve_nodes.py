#!/usr/bin/env python3
"""For positions of an EPD suite, the node count (and depth) from which a UCI
engine's best move is one of the `bm` moves and stays so until the node limit:
how far from a time budget a tactic is found.

    python3 scripts/solve_nodes.py target/release/shears ../shared/suites/wac.epd \
        WAC.131 WAC.243 --nodes 15000000

Needs python-chess. Each position gets a fresh game (`ucinewgame`), Hash 64.
"""
import argparse
import sys

import chess
import chess.engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("epd")
    parser.add_argument("ids", nargs="*", help="ids to run (default: all)")
    parser.add_argument("--nodes", type=int, default=20_000_000)
    parser.add_argument("--hash", type=int, default=64)
    args = parser.parse_args()
    ids = set(args.ids)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Hash": args.hash})
    try:
        with open(args.epd) as epd:
            for number, line in enumerate(epd, 1):
                if not line.strip():
                    continue
                try:
                    board, ops = chess.Board.from_epd(line)
                except ValueError as error:
                    print(f"{args.epd}: line {number}: {error}", file=sys.stderr)
                    continue
                if ids and ops.get("id") not in ids:
                    continue
                best = set(ops.get("bm", []))
                solved = None
                limit = chess.engine.Limit(nodes=args.nodes)
                with engine.analysis(board, limit, game=ops.get("id", number)) as analysis:
                    for info in analysis:
                        pv = info.get("pv")
                        if not pv or "nodes" not in info or info.get("multipv", 1) != 1:
                            continue
                        if pv[0] not in best:
                            solved = None
                        elif solved is None:
                            solved = (info["nodes"], info.get("depth"), info.get("score"))
                names = sorted(board.san(m) for m in best)
                if solved:
                    nodes, depth, score = solved
                    print(f"{ops.get('id')} {names}: from {nodes} nodes, depth {depth}, {score}")
                else:
                    print(f"{ops.get('id')} {names}: not found in {args.nodes} nodes")
    finally:
        engine.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())

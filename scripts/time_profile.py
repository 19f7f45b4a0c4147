#!/usr/bin/env python3
"""How each engine spent its clock in a match: mean seconds per move by
move range and the time left when the game ended, from the move comments
fastchess and cutechess-cli write (`{+0.35/12 0.512s}`; book moves say
`{book}` and count for nothing).

    python3 scripts/time_profile.py games.pgn [more.pgn ...]

The time left is the starting clock plus one increment per searched move
minus the time those moves took (book moves are free and earn nothing), at
the game's last move; the time control comes from the `TimeControl` tag
(`base+inc` in seconds). Engines are told apart by their `White`/`Black`
tag. Prints a Markdown table, one row per engine.
"""

import statistics
import sys
from collections import defaultdict

import chess.pgn

from match_logs import move_time

RANGES = [(9, 20), (21, 40), (41, 60), (61, 10_000)]


def range_name(lo, hi):
    return f"{lo}+" if hi >= 10_000 else f"{lo}–{hi}"


def parse_tc(tag):
    base, _, inc = (tag or "").partition("+")
    try:
        return float(base), float(inc or 0)
    except ValueError:
        return None


def main(paths):
    per_range = defaultdict(lambda: defaultdict(list))  # engine -> range -> [s]
    left = defaultdict(list)  # engine -> [s at the end]
    games = 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                tc = parse_tc(game.headers.get("TimeControl"))
                if tc is None:
                    continue
                games += 1
                names = {True: game.headers["White"], False: game.headers["Black"]}
                clock = {True: tc[0], False: tc[0]}
                board = game.board()
                for node in game.mainline():
                    mover = not node.board().turn  # the side that made this move
                    move_no = board.fullmove_number
                    board = node.board()
                    t = move_time(node.comment)
                    if t is None:
                        continue
                    clock[mover] += tc[1] - t
                    for lo, hi in RANGES:
                        if lo <= move_no <= hi:
                            per_range[names[mover]][(lo, hi)].append(t)
                for side in (True, False):
                    left[names[side]].append(clock[side])
    if not games:
        sys.exit("no timed games found")
    header = " | ".join(f"moves {range_name(lo, hi)}" for lo, hi in RANGES)
    print(f"{games} games\n")
    print(f"| engine | {header} | time left at the end (mean / median) |")
    print("|---" * (len(RANGES) + 2) + "|")
    for engine in sorted(left):
        cells = []
        for r in RANGES:
            ts = per_range[engine][r]
            cells.append(f"{statistics.mean(ts):.3f} s ({len(ts)})" if ts else "—")
        ends = left[engine]
        print(
            f"| {engine} | {' | '.join(cells)} | "
            f"{statistics.mean(ends):.2f} s / {statistics.median(ends):.2f} s |"
        )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

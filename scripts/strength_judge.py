#!/usr/bin/env python3
"""Judges the moves of the strength ladder's games with Shears at full
strength (issue 16): per player, how often its move differs from the
judge's choice, how often it is a blunder (it loses at least --blunder
centipawns by the judge), and how long it took (from the PGN's move
comments).

For every move of a judged player (not a `{book}` move), the judge searches
the position before it (with the game's moves, so repetitions count) to a
fixed number of nodes: its best move and score. When the player's move is
another, the judge searches again, from a cleared hash, with only that
move (`go searchmoves`):
the move's loss is the best score minus its score, both clamped to
+-1000 cp (a mate counts as 1000), so that a won or lost position going on
being won or lost is not a blunder. A loss of --blunder or more is
confirmed before it counts: both searches again, each from a cleared hash,
with --confirm-nodes (ten times --nodes by default), and the deeper loss
stands. Two searches of the same budget disagree now and then in sharp
positions; without the confirmation the full-strength player itself shows
about 0.5% "blunders" at 200,000 nodes, with it none (issue 16's first
probe). Its time is the `0.312s` of the move's comment (fastchess and
cutechess-cli both write one).

    python3 -m pip install chess
    python3 scripts/strength_judge.py ladder/pgn/*.pgn --engine target/release/shears \\
        --nodes 200000 --players 'Shears-' --reference Shears-full --concurrency 2 \\
        --cache ladder/judge.jsonl

--players selects the players judged by name prefix (default `Shears-`;
the full-strength player is judged too, as a baseline); --sample N judges
at most N moves per player (seeded, spread over all games); --cache keeps
every verdict in a JSON-lines file so that a stopped run resumes where it
stopped. Times are reported for every player, judged or not, and as a
share of --reference's average.
"""

import argparse
import json
import random
import re
import sys
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: python3 -m pip install chess")

from match_logs import move_time, open_pgn

CLAMP = 1000


def read_moves(paths, judged):
    """Every move of the games: (player, judged?, board before the move,
    move, seconds or None). `judged(name)` says whose moves are judged;
    book moves are never judged."""
    out = []
    for path in paths:
        with open_pgn(path) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                names = {chess.WHITE: game.headers.get("White", "?"),
                         chess.BLACK: game.headers.get("Black", "?")}
                board = game.board()
                for node in game.mainline():
                    mover = names[board.turn]
                    book = node.comment.strip() == "book"
                    out.append((mover, judged(mover) and not book, board.copy(),
                                node.move, None if book else move_time(node.comment)))
                    board.push(node.move)
    return out


def centipawns(score):
    """A python-chess PovScore from the mover's side, clamped to +-CLAMP."""
    value = score.relative.score(mate_score=100_000)
    return max(-CLAMP, min(CLAMP, value))


class Judge:
    """A pool of judge engines, one per worker thread, and the verdict
    cache."""

    def __init__(self, engine, limit, hash_mb, cache, confirm=None, blunder=200):
        self.engine, self.limit, self.hash_mb = engine, limit, hash_mb
        self.confirm, self.blunder = confirm, blunder
        self.local = threading.local()
        self.engines = []
        self.lock = threading.Lock()
        self.cache_path = cache
        self.cache = {}
        if cache and Path(cache).exists():
            with open(cache, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        row = json.loads(line)
                        self.cache[row["key"]] = row

    def _engine(self):
        if not hasattr(self.local, "engine"):
            e = chess.engine.SimpleEngine.popen_uci(self.engine)
            e.configure({"Hash": self.hash_mb, "Threads": 1})
            self.local.engine = e
            with self.lock:
                self.engines.append(e)
        return self.local.engine

    def verdict(self, board, move):
        """{"best": uci, "loss": cp} for `move` in `board`."""
        key = f"{board.fen()} {' '.join(m.uci() for m in board.move_stack[-8:])} {move.uci()} {self.limit}"
        if self.confirm:
            key += f" confirm {self.confirm} from {self.blunder}"
        if key in self.cache:
            return self.cache[key]
        engine = self._engine()
        best, loss = self._search(engine, board, move, self.limit)
        row = {"key": key, "best": best.uci() if best else None, "loss": loss}
        if self.confirm and loss >= self.blunder:
            row["first_loss"] = loss
            row["loss"] = self._search(engine, board, move, self.confirm)[1]
        return self._store(key, row)

    @staticmethod
    def _search(engine, board, move, limit):
        """The judge's best move at `limit` and the loss of `move` against
        it: the best score minus the move's (`go searchmoves`), each search
        from a cleared hash."""
        engine.configure({"Clear Hash": None})
        info = engine.analyse(board, limit)
        best = info["pv"][0] if info.get("pv") else None
        if best is None or best == move:
            return best, 0
        best_cp = centipawns(info["score"])
        engine.configure({"Clear Hash": None})
        played = engine.analyse(board, limit, root_moves=[move])
        return best, max(0, best_cp - centipawns(played["score"]))

    def _store(self, key, row):
        with self.lock:
            self.cache[key] = row
            if self.cache_path:
                with open(self.cache_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
        return row

    def close(self):
        for e in self.engines:
            e.quit()


def judge(paths, engine, limit, prefix, blunder=200, sample=None, seed=1, concurrency=1,
          hash_mb=16, cache=None, confirm=None):
    """Per player: {"moves", "judged", "differ", "blunders", "times"}."""
    moves = read_moves(paths, lambda name: name.startswith(prefix))
    stats = defaultdict(lambda: {"moves": 0, "judged": 0, "differ": 0, "blunders": 0, "times": []})
    todo = defaultdict(list)
    for player, judged, board, move, seconds in moves:
        s = stats[player]
        s["moves"] += 1
        if seconds is not None:
            s["times"].append(seconds)
        if judged:
            todo[player].append((board, move))
    if sample:
        rng = random.Random(seed)
        for player in todo:
            if len(todo[player]) > sample:
                todo[player] = rng.sample(todo[player], sample)
    work = [(player, board, move) for player in sorted(todo) for board, move in todo[player]]
    j = Judge(engine, limit, hash_mb, cache, confirm, blunder)
    try:
        with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
            verdicts = list(pool.map(lambda w: j.verdict(w[1], w[2]), work))
    finally:
        j.close()
    for (player, _, move), v in zip(work, verdicts):
        s = stats[player]
        s["judged"] += 1
        s["differ"] += int(v["best"] != move.uci())
        s["blunders"] += int(v["loss"] >= blunder)
    return dict(stats)


def table(stats, reference=None):
    """A markdown table of the judged players' rates and everyone's times."""
    ref = stats.get(reference, {}).get("times") if reference else None
    ref_mean = sum(ref) / len(ref) if ref else None
    out = ["| player | moves | judged | differ from judge | blunders (≥ 200 cp) | mean move time | vs reference |",
           "|---|---|---|---|---|---|---|"]

    def order(name):
        m = re.search(r"(\d+)$", name)
        return (0, int(m.group(1))) if m else (1, name)

    for name in sorted(stats, key=order):
        s = stats[name]
        judged = s["judged"]
        differ = f"{100 * s['differ'] / judged:.1f}%" if judged else "—"
        blunders = f"{100 * s['blunders'] / judged:.2f}%" if judged else "—"
        mean = sum(s["times"]) / len(s["times"]) if s["times"] else None
        time = f"{mean:.3f} s" if mean is not None else "—"
        share = f"{100 * mean / ref_mean:.0f}%" if mean is not None and ref_mean else "—"
        out.append(f"| {name} | {s['moves']} | {judged} | {differ} | {blunders} | {time} | {share} |")
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", default="target/release/shears", help="the judge (full strength)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, default=None, help="nodes per judge search (default 200000)")
    limit.add_argument("--depth", type=int, default=None, help="depth per judge search instead")
    parser.add_argument("--players", default="Shears-", help="judge the players whose names start so")
    parser.add_argument("--reference", default="Shears-full", help="the player whose mean time is 100%%")
    parser.add_argument("--blunder", type=int, default=200, help="a loss of this many cp is a blunder")
    parser.add_argument("--sample", type=int, help="judge at most this many moves per player")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--confirm-nodes", type=int, default=None,
                        help="nodes of the searches that confirm a blunder (default 10 x --nodes; 0: none)")
    parser.add_argument("--cache", help="JSON-lines file of verdicts, read and extended (resumable)")
    args = parser.parse_args(argv)
    limit = (chess.engine.Limit(depth=args.depth) if args.depth
             else chess.engine.Limit(nodes=args.nodes or 200_000))
    confirm_nodes = args.confirm_nodes
    if confirm_nodes is None:
        confirm_nodes = 0 if args.depth else 10 * (args.nodes or 200_000)
    confirm = chess.engine.Limit(nodes=confirm_nodes) if confirm_nodes > 0 else None
    stats = judge(args.pgn, args.engine, limit, args.players, args.blunder, args.sample,
                  args.seed, args.concurrency, args.hash, args.cache, confirm)
    print(table(stats, args.reference))
    return 0


if __name__ == "__main__":
    sys.exit(main())

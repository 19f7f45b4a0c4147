#!/usr/bin/env python3
"""Label the positions of a `datagen` file with another UCI engine's search score.

    python3 scripts/uci_label.py data/sp31.bin data/sp31_eth9.txt \
        --engine /usr/games/ethereal-chess --depth 9 --keep 0.3 --workers 2 --seed 31

Reads a packed (`.bin`) data file of `shears datagen` (the record layout is
in docs/tuning.md, "Packed files"), keeps a random share of each game's
positions (`--keep`; the choice depends only on `--seed` and the game, so a
rerun keeps the same ones) and writes them as `tune` text lines,
`<fen> | <result> | <score>`, each game closed by its `# game` line. The
score is the engine's score after `go depth D`, with one `ucinewgame` a
game (its positions share the table), turned to White's side, in that engine's
centipawns times `--score-scale` (1 by default: fit the scale first with
`--fit-k`, which prints the engine's K against the results, and divide it by
Shears' K from `shears tune`). Positions the engine scores as a mate are
left out. Games are labelled in blocks of `--block` games by `--workers`
engine processes; each block is appended whole, so a stopped run resumes
where it stopped (the `# game` lines already in OUT are counted and their
games skipped). An engine that does not answer within 10 s (Ethereal 12
sometimes hangs when commands follow each other closely) is killed,
restarted and asked again. No third-party modules needed.
"""

import argparse
import math
import queue
import random
import struct
import subprocess
import sys
import threading

from score_k import fit_k

PIECES = "PNBRQKpnbrqk"


def records(path):
    """Each game of a packed file: (game index, result for White, [record bytes])."""
    game = []
    with open(path, "rb") as f:
        while chunk := f.read(32):
            if len(chunk) < 32:
                return
            if chunk[31] & 2:
                index = struct.unpack_from("<Q", chunk, 0)[0]
                yield index, chunk[30] / 2, game
                game = []
            else:
                game.append(chunk)


def fen_of(rec):
    """The FEN of one packed position record."""
    occ = struct.unpack_from("<Q", rec, 0)[0]
    board = [None] * 64
    rights = []
    ep = None
    stm = "b" if rec[24] else "w"
    n = 0
    for sq in range(64):
        if not occ >> sq & 1:
            continue
        nib = rec[8 + n // 2] >> (4 * (n % 2)) & 15
        n += 1
        if nib < 12:
            board[sq] = PIECES[nib]
        elif nib == 12:
            # The pawn that may be taken en passant belongs to the side not to move.
            board[sq] = "p" if stm == "w" else "P"
            ep = sq - 8 if stm == "b" else sq + 8
        elif nib in (13, 14):
            board[sq] = "R" if nib == 13 else "r"
            rights.append((nib, sq))
        else:
            raise ValueError(f"bad piece code {nib}")
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            p = board[rank * 8 + file]
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    castle = ""
    for nib, sq in rights:
        king_char = "K" if nib == 13 else "k"
        rank = sq // 8 * 8
        king = next((s for s in range(rank, rank + 8) if board[s] == king_char), None)
        if king is None:
            continue
        letter = "k" if sq > king else "q"
        castle += letter.upper() if nib == 13 else letter
    castle = "".join(sorted(castle, key="KQkq".index)) or "-"
    ep_sq = "-" if ep is None else "abcdefgh"[ep % 8] + str(ep // 8 + 1)
    half = rec[25]
    full = struct.unpack_from("<H", rec, 26)[0]
    return f"{'/'.join(rows)} {stm} {castle} {ep_sq} {half} {max(full, 1)}"


class Engine:
    """One UCI engine process at a fixed depth, restarted if it stops answering."""

    def __init__(self, cmd, depth, hash_mb):
        self.cmd, self.depth, self.hash_mb = cmd, depth, hash_mb
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [self.cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, args=(self.proc, self.lines), daemon=True).start()
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name Hash value {self.hash_mb}")
        self.sync()

    @staticmethod
    def pump(proc, lines):
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def readline(self, timeout=10):
        line = self.lines.get(timeout=timeout)
        if line is None:
            raise RuntimeError("engine closed its output")
        return line

    def wait(self, token):
        while not (line := self.readline()).startswith(token):
            pass
        return line

    def sync(self):
        self.send("isready")
        self.wait("readyok")

    def new_game(self):
        self.send("ucinewgame")
        self.sync()

    def score(self, fen):
        """The side to move's score in cp at the last full depth, or None for a mate.

        An engine that does not answer within 10 s is restarted and asked again."""
        for _ in range(3):
            try:
                return self.search(fen)
            except (queue.Empty, RuntimeError, BrokenPipeError) as err:
                print(f"restarting the engine ({err!r}) on {fen}", file=sys.stderr, flush=True)
                self.proc.kill()
                self.start()
        raise RuntimeError(f"the engine fails on {fen}")

    def search(self, fen):
        self.send(f"position fen {fen}")
        self.sync()
        self.send(f"go depth {self.depth}")
        score = None
        while True:
            line = self.readline()
            if line.startswith("bestmove"):
                return score
            words = line.split()
            if words[:1] != ["info"] or "score" not in words:
                continue
            if "lowerbound" in words or "upperbound" in words:
                continue
            i = words.index("score")
            score = int(words[i + 2]) if words[i + 1] == "cp" else None

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def label_games(engine, games, keep, seed, out):
    for index, result, recs in games:
        rng = random.Random(seed * 1_000_003 + index)
        lines = []
        engine.new_game()
        for rec in recs:
            if rng.random() >= keep:
                continue
            fen = fen_of(rec)
            cp = engine.score(fen)
            if cp is None:
                continue
            white = cp if " w " in fen else -cp
            lines.append((fen, result, white))
        out[index] = lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="packed datagen file (.bin)")
    parser.add_argument("out", help="text file to append to (resumed)")
    parser.add_argument("--engine", help="the labelling engine (not needed with --fit-k)")
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--keep", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--block", type=int, default=200)
    parser.add_argument("--games", type=int, help="stop after this many games")
    parser.add_argument("--score-scale", type=float, default=1.0)
    parser.add_argument("--fit-k", action="store_true", help="print K of OUT's scores and stop")
    args = parser.parse_args()

    if args.fit_k:
        pairs = []
        with open(args.out) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                _, result, score = line.split(" | ")
                if abs(int(score)) < 2000:
                    pairs.append((int(score), float(result)))
        print(f"K = {fit_k(pairs):.6f} per cp over {len(pairs)} scores")
        return

    if args.engine is None:
        parser.error("--engine is needed to label")
    done = 0
    try:
        with open(args.out) as f:
            done = sum(1 for line in f if line.startswith("# game"))
    except FileNotFoundError:
        pass
    engines = [Engine(args.engine, args.depth, args.hash) for _ in range(args.workers)]
    limit = args.games if args.games is not None else math.inf
    written = 0

    def flush(block, count):
        nonlocal written
        out = {}
        threads = [
            threading.Thread(
                target=label_games,
                args=(e, block[i :: len(engines)], args.keep, args.seed, out),
            )
            for i, e in enumerate(engines)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with open(args.out, "a") as f:
            for index, result, _ in block:
                for fen, res, white in out[index]:
                    f.write(f"{fen} | {res:.1f} | {round(white * args.score_scale)}\n")
                    written += 1
                f.write(f"# game {index} {res_text(result)}\n")
        print(f"{count} games, {written} positions this run", file=sys.stderr, flush=True)

    block = []
    count = 0
    for count, game in enumerate(records(args.data), 1):
        if count > limit:
            count -= 1
            break
        if count <= done:
            continue
        block.append(game)
        if len(block) == args.block:
            flush(block, count)
            block = []
    if block:
        flush(block, count)
    for e in engines:
        e.close()


def res_text(result):
    return {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[result]


if __name__ == "__main__":
    main()

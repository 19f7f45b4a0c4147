#!/usr/bin/env python3
"""Shears' Polyglot books against python-chess and polyglot (issue 15).

Usage:

    python3 tests/client/polyglot_book.py [PATH-TO-SHEARS]

The engine is PATH-TO-SHEARS, else $SHEARS, else target/release/shears in
this repository. Needs python-chess (`python3 -m pip install chess`), the
GNU Chess book ($GNUCHESS_BOOK, else /usr/share/games/gnuchess/book.bin;
Debian: `apt-get install gnuchess-book`) and polyglot ($POLYGLOT, else
`polyglot` on the PATH, else /usr/games/polyglot; `apt-get install
polyglot`). Takes about 10 s; `.ci/run` installs all three and runs it.

1. Reading: `shears book show BOOK --fen …` must list, for every position,
   the same moves with the same weights and learn fields, in the same order,
   as python-chess's `MemoryMappedReader.find_all(board, minimum_weight=0)`,
   and shares that are the weights over their sum. The positions: 600
   reached by walking the GNU Chess book from the start (each step a book
   move drawn by weight, so the walks go deep into the main lines and out
   into the side lines), and 200 more after random legal moves (mostly out
   of the book: no moves on either side).
2. Making: `shears book make` and `polyglot make-book` read the same PGN
   files and must write the same entries, for polyglot's defaults and for
   each of its options (-min-game, -max-ply, -min-score, -only-white,
   -only-black, -uniform). The files: 60 real games
   (tests/data/book/games.pgn); 400 random games written by python-chess
   with comments, NAGs and variations, and castling, en passant and
   (under)promotions favoured; and 17000 short games through one
   position, so that a move reaches 16384 games and the counts of its
   position are halved. The files must be byte for byte the same (equal
   weights in first-seen order, as glibc's stable qsort leaves them); a
   difference is printed entry by entry. (No game starts from a FEN tag:
   polyglot 2.0.4 as Debian packages it ignores the tag and gives up on
   such games, where Shears reads them from their position.)

Any failure exits with code 1.
"""

import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import chess
    import chess.pgn
    import chess.polyglot
except ImportError:
    sys.exit("python-chess is missing: python3 -m pip install chess")

REPO = Path(__file__).resolve().parents[2]
GAMES = REPO / "tests/data/book/games.pgn"
BOOK_WALKS = 600
RANDOM_POSITIONS = 200
FENS_PER_CALL = 100


class Failure(Exception):
    """A check failed; the message says which and why."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def find_tool(env, name, fallback):
    path = os.environ.get(env) or shutil.which(name)
    if path is None and Path(fallback).exists():
        path = fallback
    return path


def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    check(
        result.returncode == 0,
        f"{what}: exit code {result.returncode}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}",
    )
    return result.stdout


# 1. Reading ---------------------------------------------------------------


def book_positions(reader, rng):
    """FENs: walks through the book by weight, then random legal moves."""
    fens, seen = [], set()

    def add(board):
        fen = board.fen(en_passant="fen")
        if fen not in seen:
            seen.add(fen)
            fens.append(fen)

    for _ in range(BOOK_WALKS):
        board = chess.Board()
        depth = rng.randint(0, 24)
        for _ in range(depth):
            entries = list(reader.find_all(board))
            if not entries:
                break
            total = sum(e.weight for e in entries)
            pick = rng.randrange(total)
            for e in entries:
                if pick < e.weight:
                    board.push(e.move)
                    break
                pick -= e.weight
        add(board)
    while len(fens) < BOOK_WALKS + RANDOM_POSITIONS:
        board = chess.Board()
        for _ in range(rng.randint(1, 12)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        add(board)
    return fens


def parse_show(text):
    """`shears book show` output: [(fen, key, [(uci, weight, share, learn)])]."""
    blocks = []
    for line in text.splitlines():
        if line.startswith("position "):
            head, _, _ = line.partition(": ")
            fen, _, key = head[len("position "):].rpartition(" key ")
            blocks.append((fen, int(key, 16), []))
        elif line.startswith("  ") and not line.startswith("  ("):
            f = line.split()
            check(
                len(f) == 7 and f[1] == "weight" and f[3] == "share" and f[5] == "learn",
                f"book show: bad move line {line!r}",
            )
            blocks[-1][2].append((f[0], int(f[2]), float(f[4].rstrip("%")), int(f[6])))
    return blocks


def compare_reading(shears, book_path, rng):
    reader = chess.polyglot.open_reader(book_path)
    fens = book_positions(reader, rng)
    compared = with_moves = moves_total = 0
    for i in range(0, len(fens), FENS_PER_CALL):
        chunk = fens[i:i + FENS_PER_CALL]
        command = [str(shears), "book", "show", str(book_path)]
        for fen in chunk:
            command += ["--fen", fen]
        blocks = parse_show(run(command, "shears book show"))
        check(len(blocks) == len(chunk), f"book show: {len(blocks)} positions for {len(chunk)} FENs")
        for fen, (shown_fen, key, moves) in zip(chunk, blocks):
            board = chess.Board(fen)
            check(
                key == chess.polyglot.zobrist_hash(board),
                f"{fen}: key {key:016x}, python-chess {chess.polyglot.zobrist_hash(board):016x}",
            )
            expected = [
                (e.move.uci(), e.weight, e.learn) for e in reader.find_all(board, minimum_weight=0)
            ]
            got = [(m, w, learn) for m, w, _, learn in moves]
            check(got == expected, f"{fen}:\n  shears      {got}\n  python-chess {expected}")
            total = sum(w for _, w, _ in expected)
            for m, w, share, _ in moves:
                want = 100.0 * w / total if total else 0.0
                check(abs(share - want) < 0.006, f"{fen}: {m} share {share}%, expected {want:.2f}%")
            compared += 1
            with_moves += bool(moves)
            moves_total += len(moves)
    check(with_moves >= BOOK_WALKS // 2, f"only {with_moves} positions had book moves")
    check(with_moves < compared, "every position had book moves: the random ones should not")
    print(
        f"reading: {compared} positions of {book_path} ({with_moves} in the book, "
        f"{moves_total} moves): the same moves, weights, learn fields and order as python-chess"
    )


# 2. Making ----------------------------------------------------------------


def random_game(rng, index, counts):
    """A python-chess game of random moves, with comments, NAGs and a
    variation or two. Castling, en passant and promotions are favoured
    (and counted in `counts`) so that every kind of move code is made."""
    game = chess.pgn.Game()
    game.headers["Event"] = f"random {index}"
    game.headers["White"] = "r" + str(rng.randrange(100))
    game.headers["Black"] = "r" + str(rng.randrange(100))
    board = chess.Board()
    node = game
    for ply in range(rng.randint(0, 90)):
        moves = list(board.legal_moves)
        if not moves:
            break
        special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m)]
        pawn_moves = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
        if special and rng.random() < 0.5:
            move = rng.choice(special)
        elif pawn_moves and rng.random() < 0.4:
            move = rng.choice(pawn_moves)
        else:
            move = rng.choice(moves)
        if rng.random() < 0.05 and len(moves) > 1:
            side = rng.choice([m for m in moves if m != move])
            var = node.add_variation(side)
            var.comment = "a side line"
        node = node.add_main_variation(move)
        if rng.random() < 0.1:
            node.comment = f"comment {ply} (with parentheses) [and brackets]"
        if rng.random() < 0.05:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14]))
        counts["castling"] += board.is_castling(move)
        counts["en passant"] += board.is_en_passant(move)
        counts["promotion"] += move.promotion is not None
        counts["underpromotion"] += move.promotion not in (None, chess.QUEEN)
        board.push(move)
    outcome = board.outcome()
    game.headers["Result"] = (
        outcome.result() if outcome else rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    )
    return game


def write_pgns(workdir, rng):
    random_pgn = workdir / "random.pgn"
    counts = {"castling": 0, "en passant": 0, "promotion": 0, "underpromotion": 0}
    with open(random_pgn, "w") as f:
        for i in range(400):
            print(random_game(rng, i, counts), file=f, end="\n\n")
    print("making: random games with " + ", ".join(f"{n} {kind}" for kind, n in counts.items()))
    check(all(n >= 20 for n in counts.values()), f"too few special moves: {counts}")
    # 17000 games through 1. e4 e5: 2. Nf3 passes 16384 games and the
    # counts of its position (with 2. Bc4 and 2. d4 there) are halved, as
    # are those of the start and of 1. e4.
    halving_pgn = workdir / "halving.pgn"
    seconds = ["Nf3", "Bc4", "d4"]
    results = ["1-0", "0-1", "1/2-1/2", "1-0", "*"]
    with open(halving_pgn, "w") as f:
        for i in range(17000):
            second = "Nf3" if i % 100 else seconds[(i // 100) % 3]
            result = results[i % len(results)]
            f.write(f'[Event "h{i}"]\n[Result "{result}"]\n\n1. e4 e5 2. {second} {result}\n\n')
    return [GAMES, random_pgn, halving_pgn]


def read_entries(path):
    data = Path(path).read_bytes()
    check(len(data) % 16 == 0, f"{path}: size {len(data)}")
    return [struct.unpack(">QHHI", data[i:i + 16]) for i in range(0, len(data), 16)]


def compare_making(shears, polyglot, workdir, rng):
    pgns = write_pgns(workdir, rng)
    option_sets = [
        ([], []),
        (["-min-game", "1"], ["--min-game", "1"]),
        (["-min-game", "1", "-max-ply", "12"], ["--min-game", "1", "--max-ply", "12"]),
        (["-min-game", "2", "-min-score", "50"], ["--min-game", "2", "--min-score", "50"]),
        (["-min-game", "1", "-only-white"], ["--min-game", "1", "--only-white"]),
        (["-only-black"], ["--only-black"]),
        (["-min-game", "1", "-uniform"], ["--min-game", "1", "--uniform"]),
    ]
    books = 0
    for pgn in pgns:
        for poly_opts, shears_opts in option_sets:
            if pgn.name == "halving.pgn" and poly_opts not in ([], ["-min-game", "1"]):
                continue
            ours = workdir / "shears.bin"
            theirs = workdir / "polyglot.bin"
            theirs.unlink(missing_ok=True)
            # polyglot exits 0 even when it gives up (an illegal move), so
            # its book must exist.
            said = run([polyglot, "make-book", "-pgn", str(pgn), "-bin", str(theirs)] + poly_opts,
                       "polyglot make-book")
            check(theirs.exists(), f"polyglot make-book wrote no book from {pgn}:\n{said}")
            out = run([str(shears), "book", "make", str(pgn), "-o", str(ours)] + shears_opts,
                      "shears book make")
            check(" 0 skipped" in out, f"shears skipped games of {pgn}:\n{out}")
            a, b = read_entries(ours), read_entries(theirs)
            what = f"{pgn.name} {' '.join(poly_opts) or '(defaults)'}"
            if a != b:
                only_ours = sorted(set(a) - set(b))[:10]
                only_theirs = sorted(set(b) - set(a))[:10]
                raise Failure(
                    f"{what}: shears wrote {len(a)} entries, polyglot {len(b)}\n"
                    f"  only shears:   {only_ours}\n  only polyglot: {only_theirs}"
                )
            check(len(a) > 0, f"{what}: empty books prove nothing")
            if pgn.name == "halving.pgn":
                board = chess.Board()
                for san in ["e4", "e5"]:
                    board.push_san(san)
                key = chess.polyglot.zobrist_hash(board)
                weights = [w for k, _, w, _ in a if k == key]
                # Without halving Nf3 would weigh far more than 16384 (the
                # 16-bit weight could not even hold it).
                check(weights and max(weights) < 16384, f"{what}: no halving: {weights}")
            books += 1
            print(f"making: {what}: {len(a)} entries, byte for byte as polyglot make-book")
    print(f"making: {books} books the same as polyglot's")


def main():
    shears = Path(
        sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SHEARS") or REPO / "target/release/shears"
    ).resolve()
    if not shears.exists():
        sys.exit(f"no engine at {shears}: build it with cargo build --release")
    book = Path(os.environ.get("GNUCHESS_BOOK") or "/usr/share/games/gnuchess/book.bin")
    polyglot = find_tool("POLYGLOT", "polyglot", "/usr/games/polyglot")
    missing = []
    if not book.exists():
        missing.append(f"the GNU Chess book {book} (apt-get install gnuchess-book)")
    if polyglot is None:
        missing.append("polyglot (apt-get install polyglot)")
    if missing:
        print("polyglot_book: FAILED: missing " + " and ".join(missing))
        sys.exit(1)
    rng = random.Random(15)
    workdir = Path(tempfile.mkdtemp(prefix="shears-book-"))
    try:
        compare_reading(shears, book, rng)
        compare_making(shears, polyglot, workdir, rng)
    except Failure as e:
        print(f"polyglot_book: FAILED: {e}")
        sys.exit(1)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print("polyglot_book: OK")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Shears as an xboard engine through the polyglot adapter (issue 18).

Usage:

    python3 tests/client/xboard_polyglot.py [PATH-TO-SHEARS]

The engine is PATH-TO-SHEARS, else $SHEARS, else target/release/shears in
this repository; polyglot is $POLYGLOT, else `polyglot` on the PATH, else
/usr/games/polyglot (Debian: `apt-get install polyglot`). Needs
python-chess (`python3 -m pip install chess`) as the judge of legality.
Takes about 10 s; `.ci/run` installs polyglot and runs it.

This script is the xboard GUI: it starts `polyglot -noini -ec SHEARS` and
speaks the xboard protocol (version 2) to it:

1. `xboard`, `protover 2`: the features, ending with `feature done=1`,
   name Shears and offer `usermove`, `setboard` and `ping`;
2. `new`, `level`, `post`, `time`/`otim`, `go`: the engine plays White; the
   script answers each move with a legal move of its own (`usermove`) for
   up to 24 moves, sending `ping N` now and then, which must be answered
   `pong N` (polyglot answers at once, before the engine's move; the
   protocol would have it after); an illegal `usermove` must be refused
   (`Illegal move`) with the game going on;
3. `setboard FEN` then `go`, for a middlegame with Black to move and for
   a mate in one, which the engine must play;
4. `quit`: polyglot and the engine exit.

Every `move` must be legal in the game as python-chess keeps it, and every
`go` and `usermove` must be answered by a move within 20 s. Thinking lines
(`post`) must have the xboard shape `ply score time nodes pv`. Any failure
prints the end of the conversation and exits with code 1.
"""

import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

try:
    import chess
except ImportError:
    sys.exit("python-chess is missing: python3 -m pip install chess")

REPO = Path(__file__).resolve().parents[2]
ANSWER_WITHIN = 20.0  # seconds: a liveness bound
GAME_MOVES = 24
MIDDLEGAME = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9"
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"


class Failure(Exception):
    """A check failed; the message says which and why."""


def check(condition, message):
    if not condition:
        raise Failure(message)


class XboardGui:
    """polyglot over pipes, with the conversation kept for a failure
    report."""

    def __init__(self, polyglot, shears, workdir):
        env = dict(os.environ, HOME=str(workdir))
        self.proc = subprocess.Popen(
            [polyglot, "-noini", "-ec", str(shears)],
            cwd=workdir,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        self.log = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.log.append(f"> {line}")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, done, what, timeout=ANSWER_WITHIN):
        """Lines up to and including the first one `done` accepts."""
        out = []
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise Failure(f"{what}: no answer within {timeout} s") from None
            if line is None:
                raise Failure(f"{what}: polyglot exited")
            self.log.append(f"< {line}")
            out.append(line)
            if done(line):
                return out

    def tail(self, count=30):
        return "\n".join(self.log[-count:])


def is_move(line):
    return line.startswith("move ")


def parses_as_move(board, text):
    """Whether `text` is a legal move of `board` in UCI or SAN."""
    for parse in (board.parse_uci, board.parse_san):
        try:
            parse(text)
            return True
        except ValueError:
            pass
    return False


def check_thinking(lines, board, what):
    """`post` output: `ply score time nodes pv…` lines (polyglot writes the
    pv in SAN), the pv legal."""
    count = 0
    for line in lines:
        fields = line.split()
        if not fields or not fields[0].isdigit():
            continue
        check(len(fields) >= 4, f"{what}: short thinking line {line!r}")
        check(
            all(f.lstrip("+-").isdigit() for f in fields[1:4]),
            f"{what}: thinking line {line!r} is not `ply score time nodes pv`",
        )
        b = board.copy()
        pv = fields[4:]
        # polyglot echoes an `info string` (the net the engine plays, as
        # Stockfish names its own) as a thinking line of score, time and
        # nodes 0 whose "pv" is the string's words: a note, not a line.
        if pv and fields[2:4] == ["0", "0"] and fields[1].lstrip("+-") == "0" and not parses_as_move(b, pv[0]):
            continue
        # polyglot marks the bound of the score after the last move: `!` for
        # a lower bound (fail high), `?` for an upper bound (fail low).
        if pv and pv[-1][-1] in "!?":
            pv[-1] = pv[-1][:-1]
        for text in pv:
            try:
                move = b.parse_uci(text)
            except ValueError:
                try:
                    move = b.parse_san(text)
                except ValueError:
                    raise Failure(f"{what}: illegal pv move {text!r} in {line!r}") from None
            b.push(move)
        count += 1
    return count


def engine_move(gui, board, what):
    """Reads the engine's `move`, checks and plays it on `board`."""
    lines = gui.read_until(is_move, what)
    text = lines[-1].split()[1]
    thinking = check_thinking(lines[:-1], board, what)
    try:
        move = board.parse_uci(text)
    except ValueError:
        raise Failure(f"{what}: illegal move {text!r} in {board.fen()}") from None
    board.push(move)
    return move, thinking, lines


def main():
    shears = Path(
        sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SHEARS") or REPO / "target/release/shears"
    ).resolve()
    if not shears.exists():
        sys.exit(f"no engine at {shears}: build it with cargo build --release")
    polyglot = (
        os.environ.get("POLYGLOT")
        or shutil.which("polyglot")
        or ("/usr/games/polyglot" if Path("/usr/games/polyglot").exists() else None)
    )
    if polyglot is None:
        print("xboard_polyglot: FAILED: polyglot is not installed (apt-get install polyglot)")
        sys.exit(1)

    rng = random.Random(18)
    workdir = Path(tempfile.mkdtemp(prefix="shears-polyglot-"))
    gui = XboardGui(polyglot, shears, workdir)
    started = time.monotonic()
    moves = thinking = pings = 0
    try:
        # 1. Handshake.
        gui.send("xboard")
        gui.send("protover 2")
        features = gui.read_until(lambda l: "done=1" in l, "protover 2")
        text = " ".join(features)
        check("done=0" in text, "no feature done=0 before the engine started")
        for feature in ("usermove=1", "setboard=1", "ping=1", 'myname="Shears'):
            check(feature in text, f"no {feature} among the features")

        # 2. A game: the engine White, the script Black.
        board = chess.Board()
        gui.send("new")
        gui.send("level 0 0:10 0")
        gui.send("post")
        gui.send("time 1000")
        gui.send("otim 1000")
        gui.send("go")
        _, n, _ = engine_move(gui, board, "go from the start")
        moves, thinking = 1, n
        illegal_tried = False
        for number in range(1, GAME_MOVES):
            if board.is_game_over(claim_draw=True):
                break
            if not illegal_tried and number == 3:
                gui.send("usermove e2e5")
                refused = gui.read_until(lambda l: "llegal" in l or is_move(l), "illegal usermove")
                check(not is_move(refused[-1]), f"an illegal usermove was played: {refused}")
                illegal_tried = True
            reply = rng.choice(list(board.legal_moves))
            board.push(reply)
            if board.is_game_over(claim_draw=True):
                gui.send(f"usermove {reply.uci()}")
                break
            gui.send("time 1000")
            gui.send("otim 1000")
            gui.send(f"usermove {reply.uci()}")
            if number % 4 == 0:
                pings += 1
                gui.send(f"ping {number}")
            _, n, lines = engine_move(gui, board, f"move {number + 1}")
            moves += 1
            thinking += n
            # polyglot answers a ping sent while the engine thinks at once
            # (the protocol asks for it after the move): either is taken.
            if number % 4 == 0 and f"pong {number}" not in lines:
                gui.read_until(lambda l, n=number: l == f"pong {n}", f"ping {number}")

        # 3. setboard: a middlegame with Black to move, then a mate in one.
        gui.send("new")
        gui.send("force")
        gui.send(f"setboard {MIDDLEGAME}")
        gui.send("st 1")
        gui.send("go")
        board = chess.Board(MIDDLEGAME)
        engine_move(gui, board, "setboard middlegame")
        moves += 1
        reply = rng.choice(list(board.legal_moves))
        board.push(reply)
        gui.send(f"usermove {reply.uci()}")
        engine_move(gui, board, "setboard middlegame, second move")
        moves += 1

        gui.send("new")
        gui.send("force")
        gui.send(f"setboard {MATE_IN_ONE}")
        gui.send("go")
        board = chess.Board(MATE_IN_ONE)
        move, _, _ = engine_move(gui, board, "setboard mate in one")
        check(board.is_checkmate(), f"the mate in one was not played: {move}")
        moves += 1

        pings += 1
        gui.send("ping 99")
        gui.read_until(lambda l: l == "pong 99", "ping 99")

        # 4. quit.
        gui.send("quit")
        try:
            code = gui.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            gui.proc.kill()
            raise Failure("quit did not end polyglot") from None
        check(code == 0, f"polyglot exited with code {code}")
    except Failure as e:
        print(f"xboard_polyglot: FAILED: {e}")
        print("--- the end of the conversation (> to polyglot, < from it):")
        print(gui.tail())
        if gui.proc.poll() is None:
            gui.proc.kill()
        sys.exit(1)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(
        f"xboard_polyglot: ok: {moves} engine moves, all legal and answered, "
        f"{thinking} thinking lines, {pings} pings answered, "
        f"setboard and mate in one, in {time.monotonic() - started:.0f} s ({polyglot})"
    )


if __name__ == "__main__":
    main()

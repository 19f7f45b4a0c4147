#!/usr/bin/env python3
"""Shears driven by a real UCI client, python-chess (issue 5).

Usage:

    python3 tests/client/python_chess_client.py [PATH-TO-SHEARS]

The engine is PATH-TO-SHEARS, else $SHEARS, else target/release/shears in
this repository (built by `cargo test --release` or `cargo build --release`).
Needs python-chess (`python3 -m pip install chess`). Takes about 20 s.

What it checks, each through python-chess's own `SimpleEngine` API:

1. games: the engine plays itself, 4 games at 1 s + 10 ms from four
   openings; this script keeps both clocks (wall time of each `play`
   subtracted, increment added). Every move must be legal, no clock may
   fall below zero; a game ends by rule (mate, stalemate, insufficient
   material, 50 moves, threefold) or is adjudicated after 200 plies.
2. analyse with MultiPV 3 to depth 8: three lines, distinct legal first
   moves, scores best first; again with `UCI_ShowWDL`: python-chess reads a
   `wdl` for every line, adding up to 1000, its win chance not lower (and
   loss chance not higher) for a better line.
3. ponder: `play(..., ponder=True)`, then the predicted reply (python-chess
   sends `ponderhit`), then a different reply (python-chess sends `stop`,
   the engine answers the ponder search, then a new `position`/`go`).
4. `go infinite` through `analysis()`, stopped after a while: one legal
   `bestmove`, none before `stop`.
5. Chess960: a game at 1 s + 10 ms from a Chess960 start position (python-chess
   sets `UCI_Chess960` itself; `configure` may not), then castling both ways
   for both sides, in king-takes-rook notation, through `root_moves`
   (`go searchmoves`).

Throughout: python-chess must log no warning (it warns about unexpected or
unparsable engine output), the engine must send no `info string error`, every
`go` gets exactly one `bestmove`, and `quit` ends the engine with exit code 0.
Any failure prints what went wrong and exits with code 1.
"""

import logging
import os
import random
import signal
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess is missing: python3 -m pip install chess")

REPO = Path(__file__).resolve().parents[2]

GAME_OPENINGS = ["e2e4 e7e5", "d2d4 d7d5", "c2c4 e7e5", "g1f3 g8f6"]
GAME_BASE = 1.0  # seconds on each clock at the start
GAME_INC = 0.01  # seconds added after each move
MAX_PLIES = 200
CHESS960_POSITION = 123  # any of 0–959 but 518 (the standard start)
PONDER_LIMIT = chess.engine.Limit(
    white_clock=3.0, black_clock=3.0, white_inc=0.05, black_inc=0.05
)


class Failure(Exception):
    """A check failed; the message says which and why."""


def check(condition, message):
    if not condition:
        raise Failure(message)


@contextmanager
def deadline(seconds, what):
    """Fails `what` if it takes longer than `seconds` (a liveness bound:
    python-chess has no timeout for clock-limited or infinite searches)."""

    def expired(_signum, _frame):
        raise Failure(f"{what}: no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class Transcript(logging.Handler):
    """python-chess's debug log of the conversation, as ("<<", line) for
    lines sent to the engine and (">>", line) for lines from it; warnings
    and errors python-chess logs are kept apart."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.lines = []
        self.problems = []

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            self.problems.append(record.getMessage())
        elif record.msg in ("%s: << %s", "%s: >> %s") and len(record.args) == 2:
            self.lines.append((record.msg[4:6], str(record.args[1])))

    def mark(self):
        return len(self.lines)

    def sent(self, since=0):
        return [line for way, line in self.lines[since:] if way == "<<"]

    def received(self, since=0):
        return [line for way, line in self.lines[since:] if way == ">>"]

    def wait_for_sent(self, prefix, since, seconds=5.0):
        """Waits until a line starting with `prefix` was sent after `since`
        (python-chess sends `go ponder` from its own thread, just after
        `play` returns)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if any(line.startswith(prefix) for line in self.sent(since)):
                return
            time.sleep(0.01)
        raise Failure(f"python-chess never sent {prefix!r}")

    def tail(self, count=40):
        return "\n".join(f"{way} {line}" for way, line in self.lines[-count:])


def legal_after(board, moves):
    """Whether `moves` can be played from `board` in order."""
    board = board.copy()
    for move in moves:
        if move not in board.legal_moves:
            return False
        board.push(move)
    return True


def play_game(engine, board, label):
    """Plays `board` to its end at GAME_BASE + GAME_INC, this script keeping
    the clocks. Returns (result text, plies played, smallest remaining time
    in seconds, castling moves)."""
    game = object()
    clocks = {chess.WHITE: GAME_BASE, chess.BLACK: GAME_BASE}
    smallest = GAME_BASE
    plies = castlings = 0
    while not board.is_game_over(claim_draw=True) and plies < MAX_PLIES:
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=GAME_INC,
            black_inc=GAME_INC,
        )
        mover = board.turn
        with deadline(10, f"{label}, ply {plies + 1}"):
            start = time.perf_counter()
            try:
                result = engine.play(board, limit, game=game)
            except chess.engine.EngineError as e:
                raise Failure(f"{label}, ply {plies + 1}: {e}") from e
            used = time.perf_counter() - start
        clocks[mover] -= used
        smallest = min(smallest, clocks[mover])
        check(
            clocks[mover] > 0,
            f"{label}, ply {plies + 1}: clock overrun by {-clocks[mover] * 1000:.0f} ms "
            f"(move took {used * 1000:.0f} ms) in {board.fen()}",
        )
        clocks[mover] += GAME_INC
        check(
            result.move is not None and result.move in board.legal_moves,
            f"{label}: illegal move {result.move} in {board.fen()}",
        )
        if result.ponder is not None:
            check(
                legal_after(board, [result.move, result.ponder]),
                f"{label}: illegal ponder move {result.ponder} after "
                f"{result.move} in {board.fen()}",
            )
        castlings += board.is_castling(result.move)
        board.push(result.move)
        plies += 1
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        text = f"adjudicated after {plies} plies"
    else:
        text = f"{outcome.result()} by {outcome.termination.name.lower()}"
    return text, plies, smallest, castlings


def check_games(engine, transcript):
    smallest = GAME_BASE
    for i, opening in enumerate(GAME_OPENINGS):
        board = chess.Board()
        for move in opening.split():
            board.push_uci(move)
        text, plies, least, castlings = play_game(engine, board, f"game {i + 1}")
        smallest = min(smallest, least)
        print(
            f"  game {i + 1} ({opening}): {text}, {plies} plies, "
            f"{castlings} castlings, least time left {least * 1000:.0f} ms"
        )
    print(f"  games: smallest remaining time {smallest * 1000:.0f} ms")


def check_multipv(engine, transcript):
    board = chess.Board()
    for move in "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6".split():
        board.push_uci(move)
    with deadline(30, "analyse depth 8 multipv 3"):
        infos = engine.analyse(
            board, chess.engine.Limit(depth=8), multipv=3, game=object()
        )
    check(len(infos) == 3, f"MultiPV 3 gave {len(infos)} lines: {infos}")
    firsts = []
    for k, info in enumerate(infos, start=1):
        check(info.get("multipv") == k, f"line {k} is multipv {info.get('multipv')}")
        check(info.get("depth") == 8, f"multipv {k} has depth {info.get('depth')}")
        pv = info.get("pv", [])
        check(pv, f"multipv {k} has no pv: {info}")
        check(legal_after(board, pv), f"multipv {k}: illegal pv {pv}")
        firsts.append(pv[0])
    check(len(set(firsts)) == 3, f"first moves repeat: {firsts}")
    scores = [info["score"].relative for info in infos]
    check(
        all(a >= b for a, b in zip(scores, scores[1:])),
        f"scores not best first: {scores}",
    )
    shown = ", ".join(f"{m.uci()} {s}" for m, s in zip(firsts, scores))
    print(f"  analyse depth 8 multipv 3: {shown}")

    with deadline(30, "analyse depth 8 multipv 3 with UCI_ShowWDL"):
        infos = engine.analyse(
            board, chess.engine.Limit(depth=8), multipv=3, game=object(),
            options={"UCI_ShowWDL": True},
        )
    wdls = [info.get("wdl") for info in infos]
    check(all(w is not None for w in wdls), f"UCI_ShowWDL: a line without wdl: {infos}")
    wdls = [w.relative for w in wdls]
    check(all(w.total() == 1000 for w in wdls), f"wdl does not add up to 1000: {wdls}")
    check(
        all(a.wins >= b.wins and a.losses <= b.losses for a, b in zip(wdls, wdls[1:])),
        f"wdl not ordered with the scores: {wdls}",
    )
    print("  with UCI_ShowWDL: " + ", ".join(f"{w.wins}/{w.draws}/{w.losses}" for w in wdls))


def check_ponder(engine, transcript):
    game = object()
    board = chess.Board()
    board.push_uci("e2e4")

    # A first search, after which python-chess starts `go ponder` on the
    # predicted reply.
    mark = transcript.mark()
    with deadline(20, "play with ponder"):
        first = engine.play(board, PONDER_LIMIT, ponder=True, game=game)
    check(first.move in board.legal_moves, f"illegal move {first.move}")
    check(first.ponder is not None, "no ponder move after a 3 s clock search")
    check(legal_after(board, [first.move, first.ponder]), "illegal ponder move")
    transcript.wait_for_sent("go ponder", mark)

    # Ponder hit: the opponent plays the predicted move.
    board.push(first.move)
    board.push(first.ponder)
    mark = transcript.mark()
    with deadline(20, "play after a ponder hit"):
        hit = engine.play(board, PONDER_LIMIT, ponder=True, game=game)
    sent = transcript.sent(mark)
    check(
        sent[:1] == ["ponderhit"],
        f"the ponder hit did not send ponderhit first: {sent}",
    )
    check(hit.move in board.legal_moves, f"ponderhit: illegal move {hit.move}")
    check(hit.ponder is not None, "ponderhit: no ponder move")
    transcript.wait_for_sent("go ponder", mark)
    print(f"  ponder hit: {first.move} {first.ponder} -> {hit.move}")

    # Ponder miss: the opponent plays something else.
    board.push(hit.move)
    pondered = board.copy()
    pondered.push(hit.ponder)
    others = sorted((m for m in board.legal_moves if m != hit.ponder), key=str)
    board.push(random.Random(5).choice(others))
    mark = transcript.mark()
    with deadline(20, "play after a ponder miss"):
        miss = engine.play(board, PONDER_LIMIT, ponder=True, game=game)
    sent = transcript.sent(mark)
    check(sent[:1] == ["stop"], f"the ponder miss did not send stop first: {sent}")
    lines = transcript.lines[mark:]
    stop_answer = next(
        (line for way, line in lines if way == ">>" and line.startswith("bestmove")),
        None,
    )
    check(stop_answer is not None, "the stopped ponder search sent no bestmove")
    stopped_best = chess.Move.from_uci(stop_answer.split()[1])
    check(
        stopped_best in pondered.legal_moves,
        f"the ponder search answered {stop_answer!r}, not legal in {pondered.fen()}",
    )
    after_stop = [line for line in sent if line.startswith(("position", "go"))]
    check(
        len(after_stop) >= 2
        and after_stop[0].startswith("position")
        and after_stop[1].startswith("go")
        and "ponder" not in after_stop[1].split(),
        f"no new search after the ponder miss: {sent}",
    )
    check(miss.move in board.legal_moves, f"ponder miss: illegal move {miss.move}")
    print(
        f"  ponder miss: expected {hit.ponder}, got {board.peek()}; "
        f"stopped search said {stopped_best}, new search {miss.move}"
    )


def check_infinite(engine, transcript):
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    mark = transcript.mark()
    depth = 0
    with deadline(20, "go infinite, then stop"):
        with engine.analysis(board, game=object()) as analysis:
            start = time.monotonic()
            for info in analysis:
                depth = max(depth, info.get("depth", 0))
                if time.monotonic() - start > 1.0 and depth >= 4:
                    break
                if time.monotonic() - start > 5.0:
                    break
            analysis.stop()
            best = analysis.wait()
    check(depth >= 4, f"go infinite reached only depth {depth} in 5 s")
    check(best.move in board.legal_moves, f"go infinite: illegal bestmove {best.move}")
    lines = transcript.lines[mark:]
    check(("<<", "go infinite") in lines, "python-chess sent no go infinite")
    check(("<<", "stop") in lines, "python-chess sent no stop")
    go = lines.index(("<<", "go infinite"))
    stop = lines.index(("<<", "stop"))
    early = [line for way, line in lines[go:stop] if line.startswith("bestmove")]
    check(not early, f"bestmove before stop: {early}")
    print(f"  go infinite: depth {depth}, then stop: bestmove {best.move}")


def check_chess960(engine, transcript):
    board = chess.Board.from_chess960_pos(CHESS960_POSITION)
    start_fen = board.fen()
    text, plies, least, castlings = play_game(engine, board, "Chess960 game")
    check(
        "setoption name UCI_Chess960 value true" in transcript.sent(),
        "python-chess did not switch UCI_Chess960 on",
    )
    print(
        f"  Chess960 game from {start_fen}: {text}, {plies} plies, "
        f"{castlings} castlings, least time left {least * 1000:.0f} ms"
    )

    # Castling on both wings for both sides: only the king and rooks stay on
    # the back ranks.
    board = chess.Board.from_chess960_pos(CHESS960_POSITION)
    for square in chess.SquareSet(chess.BB_RANK_1 | chess.BB_RANK_8):
        if board.piece_type_at(square) not in (chess.KING, chess.ROOK):
            board.remove_piece_at(square)
    played = []
    for side in ("white", "black"):
        castles = sorted(board.generate_castling_moves(), key=str)
        check(len(castles) == 2, f"{side}: expected 2 castling moves in {board.fen()}")
        for castle in castles:
            with deadline(10, f"{side} castling {castle}"):
                result = engine.play(
                    board, chess.engine.Limit(depth=3), root_moves=[castle]
                )
            check(
                result.move == castle,
                f"searchmoves {castle} (king takes rook) gave {result.move}",
            )
            # The castling already played goes to the engine in a move list.
            position = [line for line in transcript.sent() if line.startswith("position")]
            check(
                position[-1].endswith(" ".join(["moves"] + played)) or not played,
                f"castling {played} sent as {position[-1]!r}",
            )
        board.push(castles[0])
        played.append(castles[0].uci())
    print(f"  Chess960 castling through searchmoves: {board.fen()}")


def main():
    binary = (
        sys.argv[1]
        if len(sys.argv) > 1
        else os.environ.get("SHEARS") or str(REPO / "target" / "release" / "shears")
    )
    if not os.access(binary, os.X_OK):
        sys.exit(f"FAIL: no engine at {binary} (build it: cargo build --release)")
    transcript = Transcript()
    log = logging.getLogger("chess.engine")
    log.setLevel(logging.DEBUG)
    log.addHandler(transcript)
    log.propagate = False

    began = time.monotonic()
    engine = None
    with tempfile.TemporaryDirectory() as workdir:
        # An empty engine.toml here: built-in defaults, whatever lies next to
        # the binary or in the caller's directory.
        Path(workdir, "engine.toml").write_text("")
        try:
            with deadline(10, "the uci handshake"):
                engine = chess.engine.SimpleEngine.popen_uci(
                    [binary], cwd=workdir, timeout=10.0
                )
            print(f"{engine.id.get('name')} at {binary}")
            for name, run in [
                ("games at 1s+0.01s", check_games),
                ("analyse with MultiPV 3", check_multipv),
                ("ponder hit and miss", check_ponder),
                ("go infinite and stop", check_infinite),
                ("Chess960", check_chess960),
            ]:
                section = time.monotonic()
                print(f"{name}:")
                run(engine, transcript)
                print(f"  ({time.monotonic() - section:.1f} s)")
            with deadline(10, "quit"):
                engine.quit()
                code = engine.returncode.result(timeout=10)
            engine = None
            check(code == 0, f"the engine exited with code {code}")

            sent_go = sum(line.startswith("go") for line in transcript.sent())
            bestmoves = sum(line.startswith("bestmove") for line in transcript.received())
            check(sent_go == bestmoves, f"{sent_go} go commands, {bestmoves} bestmoves")
            errors = [
                line
                for line in transcript.received()
                if line.startswith("info string error")
            ]
            check(not errors, f"the engine reported errors: {errors[:5]}")
            check(not transcript.problems, f"python-chess warned: {transcript.problems[:5]}")
        except Exception as e:  # noqa: BLE001 (any error is a failed check)
            what = str(e) if isinstance(e, Failure) else f"{type(e).__name__}: {e}"
            print(f"FAIL: {what}\n--- last lines of the conversation ---\n{transcript.tail()}")
            if transcript.problems:
                print(f"--- python-chess warnings ---\n{transcript.problems[:10]}")
            sys.exit(1)
        finally:
            if engine is not None:
                engine.close()
    print(f"OK: {sent_go} searches, all checks passed in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main()

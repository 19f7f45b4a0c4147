#!/usr/bin/env python3
"""Tablebase wins played out by Shears against itself over UCI: does every run end in mate?

    python3 scripts/tb_convert.py --engine target/release/shears --syzygy ../shared/syzygy \
        --runs 10 --epd tests/data/endgames/tbwins5.epd

Each position (a FEN given with --fen, or each line of --epd: FEN fields, then
optionally `id "…"`) is played --runs times from the start, Shears on both sides
as a GUI would run it: two engine processes (one a side), each with
`SyzygyPath` set, `ucinewgame` before every run, and every move asked with
`position fen START moves …` (the whole game so far, so the engine knows its
earlier positions) and `go movetime MS`. python-chess is the referee and ends a
game only by the rules: checkmate, stalemate, threefold repetition, the 50-move
rule (a hundred plies without a capture or pawn move), insufficient material.

Per run it prints the result and the plies; with --moves the moves too, and
where the tables (WDL, without the clock) first saw the winner's win slip.
The summary per position gives the number of runs that ended in mate and the
plies of each. --reference adds the plies of one game in which both sides play
the tables' moves (the winner the quickest zeroing, the defender the slowest;
ties to the first move in UCI order): what DTZ-optimal play takes, for
comparison. Exit status: 0 when every run of a won position ended in mate by
the winner, 1 otherwise, 2 on bad input.

Run the games one at a time on a shared machine (each engine uses one thread).
"""

import argparse
import shlex
import sys

import chess
import chess.engine
import chess.syzygy


def parse_epd_line(line):
    """(fen, id) of an EPD or FEN line; id is None when the line has none."""
    fields = line.split()
    if len(fields) < 4:
        raise ValueError(f"not a FEN or EPD line: {line!r}")
    clocks = len(fields) >= 6 and fields[4].isdigit() and fields[5].rstrip(";").isdigit()
    take = 6 if clocks else 4
    fen = " ".join(fields[:take]).rstrip(";")
    if not clocks:
        fen += " 0 1"
    rest = line.split(None, take)[take] if len(fields) > take else ""
    name = None
    for op in rest.split(";"):
        words = shlex.split(op) if op.strip() else []
        if len(words) >= 2 and words[0] == "id":
            name = words[1]
    return fen, name


def finish(board):
    """How the game at `board` has ended by the rules, or None."""
    if board.is_checkmate():
        return "mate"
    if board.is_stalemate():
        return "stalemate"
    if board.halfmove_clock >= 100:
        return "50-move rule"
    if board.is_repetition(3):
        return "threefold repetition"
    if board.is_insufficient_material():
        return "insufficient material"
    return None


def winner_wdl(tb, board, winner):
    """The tables' WDL for `winner` at `board` (None when they cannot tell)."""
    try:
        wdl = tb.probe_wdl(board)
    except (KeyError, chess.syzygy.MissingTableError):
        return None
    return wdl if board.turn == winner else -wdl


def play_run(engines, fen, movetime, tb, winner):
    """One game from `fen`; returns (finish, plies, moves, ply where the win slipped)."""
    board = chess.Board(fen)
    game = object()
    slipped = None
    while (end := finish(board)) is None:
        engine = engines[board.turn]
        result = engine.play(board, chess.engine.Limit(time=movetime / 1000), game=game)
        board.push(result.move)
        if slipped is None and winner is not None:
            wdl = winner_wdl(tb, board, winner)
            if wdl is not None and wdl <= 0:
                slipped = board.ply() - chess.Board(fen).ply()
    moves = [m.uci() for m in board.move_stack]
    return end, len(moves), moves, slipped


def dtz_move(tb, board):
    """The tables' move: the quickest zeroing for a winner, the slowest for a loser."""
    best, best_key = None, None
    for m in sorted(board.legal_moves, key=lambda m: m.uci()):
        board.push(m)
        if board.is_checkmate():
            key = (3, 0)
        elif finish(board) is not None:
            key = (1, 0)
        else:
            wdl = -tb.probe_wdl(board)
            zeroing = board.halfmove_clock == 0
            dtz = 1 if zeroing else abs(tb.probe_dtz(board)) + 1
            # A win: quicker is better; a loss: slower is better.
            key = (2, -dtz) if wdl > 0 else (1, 0) if wdl == 0 else (0, dtz)
        board.pop()
        if best_key is None or key > best_key:
            best, best_key = m, key
    return best


def reference_plies(tb, fen):
    """Plies of the game in which both sides play the tables' moves, and how it ends."""
    board = chess.Board(fen)
    while (end := finish(board)) is None and board.ply() < 2000:
        board.push(dtz_move(tb, board))
    return end, len(board.move_stack)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="the Shears binary")
    ap.add_argument("--syzygy", required=True, help="folder of Syzygy tables (SyzygyPath)")
    ap.add_argument("--fen", action="append", default=[], help="a start position (repeatable)")
    ap.add_argument("--epd", help="a file of start positions, one a line")
    ap.add_argument("--runs", type=int, default=10, help="games per position (default 10)")
    ap.add_argument("--movetime", type=int, default=100, help="ms per move (default 100)")
    ap.add_argument("--hash", type=int, default=16, help="Hash in MB of each engine")
    ap.add_argument("--moves", action="store_true", help="print each game's moves")
    ap.add_argument("--reference", action="store_true", help="add the tables-only game's plies")
    args = ap.parse_args()

    positions = [(fen, None) for fen in args.fen]
    if args.epd:
        with open(args.epd, encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.lstrip().startswith("#"):
                    positions.append(parse_epd_line(line.strip()))
    if not positions:
        ap.error("give --fen or --epd")
    for fen, _ in positions:
        try:
            if not chess.Board(fen).is_valid():
                sys.exit(f"error: not a legal position: {fen}")
        except ValueError as e:
            sys.exit(f"error: {fen}: {e}")

    options = {"SyzygyPath": args.syzygy, "Hash": args.hash, "Threads": 1}
    engines = {}
    all_mated = True
    with chess.syzygy.open_tablebase(args.syzygy) as tb:
        try:
            for color in chess.COLORS:
                engines[color] = chess.engine.SimpleEngine.popen_uci(args.engine)
                engines[color].configure(options)
            for fen, name in positions:
                board = chess.Board(fen)
                wdl, dtz = tb.probe_wdl(board), tb.probe_dtz(board)
                winner = None if wdl == 0 else board.turn if wdl > 0 else not board.turn
                label = name or fen
                print(f"== {label}: {fen}  wdl {wdl} dtz {dtz}", flush=True)
                if args.reference:
                    end, plies = reference_plies(tb, fen)
                    print(f"   tables-only game: {end} after {plies} plies", flush=True)
                mates, plies_list = 0, []
                for run in range(1, args.runs + 1):
                    end, plies, moves, slipped = play_run(engines, fen, args.movetime, tb, winner)
                    # The side to move at the end is the one mated.
                    mated_side = board.turn if plies % 2 == 0 else not board.turn
                    mated = end == "mate" and winner is not None and mated_side != winner
                    mates += mated
                    plies_list.append(f"{plies}{'' if mated else '!'}")
                    note = "" if slipped is None else f"  (win slipped at ply {slipped})"
                    print(f"   run {run}: {end} after {plies} plies{note}", flush=True)
                    if args.moves:
                        print(f"     {' '.join(moves)}", flush=True)
                if winner is not None:
                    all_mated &= mates == args.runs
                print(f"   {label}: mate in {mates}/{args.runs} runs; plies "
                      f"{' '.join(plies_list)} ('!': no mate by the winner)", flush=True)
        finally:
            for engine in engines.values():
                engine.quit()
    return 0 if all_mated else 1


if __name__ == "__main__":
    sys.exit(main())

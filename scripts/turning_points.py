#!/usr/bin/env python3
"""Where the opponent's advantage arrives in Shears' games, and what Shears
thought there (issue 80 §5), from fastchess's PGN files (plain or .gz).

    python3 scripts/turning_points.py games.pgn [more.pgn ...]
        [--engine shears] [--threshold 1.00] [--persist 3] [--json FILE]

Shears is the player whose `White`/`Black` tag contains --engine (any case);
games with it on neither or both sides are counted and skipped. A move's
comment (`{+0.66/9 0.029s}`) gives the mover's score in pawns, depth and
time; `{book}` gives none; a mate score (`+M5/20`) counts as 100 pawns.

In each finished game Shears did not win, the turning point is the
opponent's first scored move at --threshold or more that stays there for
--persist of its scored moves in a row (or all it has left, if the game
ends sooner). Printed for it: the full move and ply (1 = the first move of
the movetext); each side's material in the position the opponent searched
(pawn 1, knight and bishop 3, rook 5, queen 9; replayed from the `FEN` tag
if there is one); the phase: `endgame` when both sides' material together
is at most 30, else `opening` up to move 15, else `middlegame` (`unknown`
once a move could not be replayed); the opponent's score/depth/time; and
Shears' last 3 scored moves before it and its next one. It is a surprise
unless Shears' score on its last move before it was at most -threshold/2.

The summary: the turning points' median move, phases, surprises and
Shears' median score before them; each side's median depth and time over
its last 10 scored moves before them; and over every game with Shears,
each side's median depth and time a move in moves 9-20, 21-40 and 41+.
--json FILE also writes the records of the games Shears did not win (it
replaces only a file it wrote).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from match_logs import RESULTS, SCORE, move_time, open_pgn, score_cp, tag

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
VALUES = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9, "K": 0}
FILES = "abcdefgh"
MATE_CP = 10_000  # a mate score, in centipawns
ENDGAME_MATERIAL = 30
OPENING_MOVES = 15
STAGES = [("9-20", 9, 20), ("21-40", 21, 40), ("41+", 41, 10**9)]
BEFORE = 10  # each side's moves before a turning point in the summary
SIDES = ("opponent", "shears")
MATE = re.compile(r"^\s*([+-]?)M(\d+)/(\d+)")
SAN = re.compile(r"^([NBRQK])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([NBRQ]))?[+#]?[!?]*$")
CASTLE = re.compile(r"^[O0]-[O0](-[O0])?[+#]?[!?]*$")
# A comment (perhaps cut off), a comment to the end of the line, a NAG, a
# move number, a variation's bracket, a result, a move.
TOKEN = re.compile(r"\{([^}]*)\}?|;[^\n]*|\$\d+|\d+\.+|([()])|(1-0|0-1|1/2-1/2|\*)|([^\s{}();$]+)")


def parse_fen(fen: str):
    """(pieces, material, White to move, full move number) of a FEN: the
    pieces map a square (0 = a1) to a letter (White's in capitals), the
    material is [White's, Black's]. ValueError when it is not a FEN."""
    fields = fen.split()
    pieces, material, rank, file = {}, [0, 0], 7, 0
    for c in fields[0]:
        if c == "/":
            rank, file = rank - 1, 0
        elif c.isdigit():
            file += int(c)
        elif c.upper() in VALUES and rank >= 0 and file < 8:
            pieces[rank * 8 + file], file = c, file + 1
            material[c.islower()] += VALUES[c.upper()]
        else:
            raise ValueError(fen)
    number = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1
    return pieces, material, fields[1:2] != ["b"], max(number, 1)


def play(pieces: dict, material: list, passed: int | None, san: str, white: bool) -> int | None:
    """Plays a SAN move as far as material needs it, and returns the square
    a pawn passed (for en passant), or raises ValueError when the move
    cannot be one here. `pieces` keeps, for each square, the piece that
    last arrived there: a piece that leaves is not erased, as no move can
    capture on a square before another piece arrives there, so a capture
    finds its victim without the moves' origins (which SAN leaves out)."""
    own = str.upper if white else str.lower
    if CASTLE.match(san):  # the king and rook end on these squares in Chess960 too
        home, (king, rook) = (0 if white else 56), ((2, 3) if "-" in san[3:] else (6, 5))
        pieces[home + king], pieces[home + rook] = own("K"), own("R")
        return None
    if not (m := SAN.match(san)):
        raise ValueError(san)
    role, _, _, capture, square, promotion = m.groups()
    to = FILES.index(square[0]) + 8 * (int(square[1]) - 1)
    if capture:
        victim = ("p" if white else "P") if role is None and to == passed else pieces.get(to)
        if victim is None or victim.isupper() == white or victim in "Kk":
            raise ValueError(san)
        material[white] -= VALUES[victim.upper()]
    if promotion:
        material[not white] += VALUES[promotion] - 1
    pieces[to] = own(promotion or role or "P")
    if role is None and not capture and to // 8 == (3 if white else 4):
        return to - (8 if white else -8)
    return None


def read_games(path):
    """(tags, movetext) of each game of a PGN file, plain or gzipped."""
    tags, lines = {}, []
    with open_pgn(path) as f:
        for line in f:
            found = tag(line)
            if found and lines:
                yield tags, "".join(lines)
                tags, lines = {}, []
            if found:
                tags[found[0]] = found[1]
            elif line.strip() and not line.startswith("%"):
                lines.append(line)
    if tags or lines:
        yield tags, "".join(lines)


def read_comment(move: dict, comment: str) -> None:
    """A move's score (centipawns; `mate` keeps `+M5`), depth and time."""
    if m := SCORE.match(comment):
        move.update(cp=score_cp(comment), depth=int(m.group(3)))
    elif m := MATE.match(comment):
        sign = -1 if m.group(1) == "-" else 1
        move.update(cp=sign * MATE_CP, mate="-+"[sign > 0] + f"M{m.group(2)}", depth=int(m.group(3)))
    move["time"] = move_time(comment)


def moves_of(tags: dict, text: str):
    """A game's main-line moves (ply, full move, mover, SAN, score, depth,
    time, and the material before the move: None from the first move that
    cannot be played on), and the result written after them."""
    try:
        pieces, material, white, number = parse_fen(tags.get("FEN", START))
    except (ValueError, IndexError):
        pieces, material, white, number = None, None, True, 1
    passed = None
    moves, nested, result = [], 0, None
    for comment, bracket, end, san in (t.groups() for t in TOKEN.finditer(text)):
        if bracket:
            nested = max(0, nested + (1 if bracket == "(" else -1))
        elif nested:
            continue
        elif comment is not None and moves and "comment" not in moves[-1]:
            moves[-1]["comment"] = comment
            read_comment(moves[-1], comment)
        elif end:
            result = end
        elif san:
            moves.append(dict(ply=len(moves) + 1, move=number, white=white, san=san, cp=None, mate=None,
                              depth=None, time=None, material=None if pieces is None else tuple(material)))
            try:
                passed = None if pieces is None else play(pieces, material, passed, san, white)
            except ValueError:
                pieces = None
            number, white = number + (not white), not white
    return moves, result


def phase(move: dict) -> str:
    if move["material"] is not None and sum(move["material"]) <= ENDGAME_MATERIAL:
        return "endgame"
    return "opening" if move["move"] <= OPENING_MOVES else "middlegame" if move["material"] else "unknown"


def brief(move: dict | None) -> dict | None:
    """A move's record: where, what, and the mover's score (pawns)/depth/time."""
    if move is None:
        return None
    return {k: move[k] for k in ("move", "ply", "san", "mate", "depth", "time")} | {
        "by": "white" if move["white"] else "black", "score": move["cp"] / 100}


def shown(b: dict | None) -> str:
    if b is None:
        return "-"
    score, time = b["mate"] or f"{b['score']:+.2f}", "?" if b["time"] is None else f"{b['time']:.3f}s"
    return f"{b['move']}{'.' if b['by'] == 'white' else '...'}{b['san']} {score}/{b['depth']} {time}"


def median(values, digits=None) -> str:
    """The median of `values` with `digits` decimals (else as few as it needs), or `-`."""
    return "-" if not values else f"{statistics.median(values):{'g' if digits is None else f'.{digits}f'}}"


def add(stats, group: str, side: str, move: dict) -> None:
    stats[group, side, "depth"].append(move["depth"])
    if move["time"] is not None:
        stats[group, side, "time"].append(move["time"])


def analyse(paths, engine: str, threshold_cp: int, persist: int):
    """The records of the games Shears did not win, the counts of games,
    and the depths and times by stage and before the turning points."""
    records, stats = [], defaultdict(list)
    counts = dict.fromkeys(["games", "without Shears", "with Shears twice", "unfinished", "won",
                            "without scores"], 0)
    for path in paths:
        try:
            games = list(read_games(path))
        except (OSError, EOFError) as e:  # EOFError: a cut-off .gz
            raise OSError(f"{path}: {e}") from e
        for n, (tags, text) in enumerate(games, 1):
            counts["games"] += 1
            is_white = engine in tags.get("White", "").lower()
            if is_white == (engine in tags.get("Black", "").lower()):
                counts["with Shears twice" if is_white else "without Shears"] += 1
                continue
            moves, end = moves_of(tags, text)
            scored = [m for m in moves if m["depth"] is not None]
            for m in scored:
                for name, lo, hi in STAGES:
                    if lo <= m["move"] <= hi:
                        add(stats, name, SIDES[m["white"] == is_white], m)
            result = tags.get("Result") if tags.get("Result") in RESULTS else end
            if result not in RESULTS or RESULTS[result] == (1.0 if is_white else 0.0):
                counts["won" if result in RESULTS else "unfinished"] += 1
                continue
            mine = [m for m in scored if m["white"] == is_white]
            theirs = [m for m in scored if m["white"] != is_white]
            if not theirs:
                counts["without scores"] += 1
                continue
            record = {"file": str(path), "game": n, "white": tags.get("White"), "black": tags.get("Black"),
                      "shears": "white" if is_white else "black", "result": result, "turning_point": None}
            records.append(record)
            turn = next((m for i, m in enumerate(theirs)
                         if all(x["cp"] >= threshold_cp for x in theirs[i:i + persist])), None)
            if turn is None:
                continue
            last = [m for m in mine if m["ply"] < turn["ply"]]
            mat = turn["material"] and (turn["material"] if is_white else turn["material"][::-1])
            record["turning_point"] = {
                "move": turn["move"], "ply": turn["ply"], "phase": phase(turn),
                "material": mat and {"shears": mat[0], "opponent": mat[1]},
                "opponent": brief(turn), "shears_before": [brief(m) for m in last[-3:]],
                "shears_after": brief(next((m for m in mine if m["ply"] > turn["ply"]), None)),
                "surprise": last[-1]["cp"] > -threshold_cp / 2 if last else None,
            }
            for m in last[-BEFORE:]:
                add(stats, "before", "shears", m)
            for m in [m for m in theirs if m["ply"] < turn["ply"]][-BEFORE:]:
                add(stats, "before", "opponent", m)
    return records, counts, stats


def report(records, counts, stats, args) -> str:
    out = [f"{counts['games']} games; Shears is '{args.engine}'; a turning point holds "
           f"+{args.threshold:.2f} or more for {args.persist} of the opponent's moves"]
    turned = [(r, r["turning_point"]) for r in records if r["turning_point"]]
    for r, tp in turned:
        game = (f"{Path(r['file']).name} " if len(args.pgn) > 1 else "") + f"#{r['game']}"
        mat = tp["material"] and f"Shears {tp['material']['shears']}, opponent {tp['material']['opponent']}"
        seen = {None: "no score of Shears before", True: "a surprise", False: "Shears saw it"}[tp["surprise"]]
        out.append(f"game {game}: Shears {r['shears']}, {r['result']}; turns at move {tp['move']} (ply "
                   f"{tp['ply']}), {tp['phase']}, material {mat or '?'}; {seen}")
        before = ", ".join(shown(b) for b in tp["shears_before"]) or "-"
        out.append(f"    opponent {shown(tp['opponent'])}; Shears before: {before}; "
                   f"after: {shown(tp['shears_after'])}")
    phases = [tp["phase"] for _, tp in turned]
    at = [tp["shears_before"][-1]["score"] for _, tp in turned if tp["shears_before"]]
    skipped = ", ".join(f"{v} {k}" for k, v in counts.items() if k != "games" and v)

    def sides(group):
        return "; ".join(f"{side} depth {median(stats[group, side, 'depth'])}, "
                         f"{median(stats[group, side, 'time'], 3)} s" for side in SIDES)

    out += [
        f"summary: {len(turned)} of the {len(records)} games Shears did not win turned "
        f"(other games: {skipped or 'none'})",
        f"  median move {median([tp['move'] for _, tp in turned])}; "
        + ", ".join(f"{p} {phases.count(p)}" for p in ("opening", "middlegame", "endgame", "unknown")),
        f"  surprises {sum(tp['surprise'] is True for _, tp in turned)} of {len(turned)}; "
        f"Shears' score on its move before: median {median(at, 2)}",
        f"  their last {BEFORE} moves before: {sides('before')}",
        "by stage, every game with Shears (median depth and time a move):",
    ]
    out += [f"  moves {name}: {sides(name)} ({len(stats[name, 'shears', 'depth'])} moves of Shears)"
            for name, _, _ in STAGES]
    return "\n".join(out)


def written_here(path: Path) -> bool:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("tool") == "turning_points"
    except (OSError, ValueError, AttributeError):
        return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+", help="PGN files written by fastchess (.gz too)")
    ap.add_argument("--engine", default="shears", help="a part of Shears' player name (any case)")
    ap.add_argument("--threshold", type=float, default=1.0, help="the opponent's score in pawns (1.00)")
    ap.add_argument("--persist", type=int, default=3, help="for this many of its moves in a row (3)")
    ap.add_argument("--json", help="also write the records of the games Shears did not win here")
    args = ap.parse_args(argv)
    if args.persist < 1 or not args.threshold > 0 or not args.engine:
        ap.error("--persist must be at least 1, --threshold above 0 and --engine not empty")
    if args.json and Path(args.json).exists() and not written_here(Path(args.json)):
        print(f"error: {args.json} exists and is not this script's output", file=sys.stderr)
        return 1
    try:
        records, counts, stats = analyse(args.pgn, args.engine.lower(), round(args.threshold * 100),
                                         args.persist)
        print(report(records, counts, stats, args))
        if args.json:
            options = {"engine": args.engine, "threshold": args.threshold, "persist": args.persist}
            text = json.dumps({"tool": "turning_points", "options": options, "games": records}, indent=1)
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

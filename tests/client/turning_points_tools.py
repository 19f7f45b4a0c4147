#!/usr/bin/env python3
"""Checks `scripts/turning_points.py` on a small PGN in fastchess's format
whose answers are known, without playing a game:

- a loss (Blackburne's trap): the opponent reaches +1.50 on 4...Qg5 and
  holds it, mate scores included; the material there counts 4.Nxe5;
- a draw from a FEN (Black to move, move 30): the opponent touches +1.05
  once (31.O-O), falls back, and holds exactly +1.00 from 33.Rh6; Shears'
  -0.50 before it is the trouble seen (at -threshold/2); --persist 1 takes
  the touch instead, and at +1.01 it turns on 34.Rh5+, held to the end;
- a game Shears wins, with the opponent above +1.00 all along: no turning
  point, but its moves count in the stages;
- a draw where the opponent touches +1.00 once and stays under it (+0.99),
  with a NAG and nested variations to skip;
- the material through en passant and a promotion;
- in a gzipped file, odd games: one without comments, one cut off inside a
  comment (result `*`), one cut off after a move that cannot be played and
  ending on a mate score (material unknown), one with Shears on both sides
  and one without Shears.

Then the medians of the summary and the stages, the text, the JSON records,
and the errors: a missing file, a bad --persist, a --json file the script
did not write (left as it was).

Usage: python3 tests/client/turning_points_tools.py. Under a second.
"""

import contextlib
import gzip
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import turning_points as tp  # noqa: E402

FAILURES = []


def check(condition, message):
    """Records a failed check (all checks run; the exit code says)."""
    if not condition:
        FAILURES.append(message)
        print(f"FAIL: {message}")


def game(white, black, result, movetext, fen=None):
    tags = [("Event", "Fastchess Tournament"), ("White", white), ("Black", black), ("Result", result)]
    if fen:
        tags += [("SetUp", "1"), ("FEN", fen)]
    tags += [("PlyCount", "0"), ("Termination", "normal"), ("TimeControl", "8+0.08")]
    return "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\n" + movetext + "\n\n"


SF, ME = "Stockfish 15.1", "Shears-dev"
MAIN = "".join([
    game(ME, SF, "0-1",
         "1. e4 {book} e5 {book} 2. Nf3 {book} Nc6 {book} 3. Bc4 {+0.30/12 0.100s}\n"
         "Nd4 {+0.20/18 0.050s} 4. Nxe5 {+1.20/11 0.120s} Qg5 {+1.50/19 0.060s}\n"
         "5. Nxf7 {+0.90/10 0.110s} Qxg2 {+3.10/20 0.070s} 6. Rf1 {-2.00/9 0.090s}\n"
         "Qxe4+ {+M3/21 0.080s} 7. Be2 {-M1/12 0.100s} Nf3# {+M1/22 0.010s, Black mates} 0-1"),
    game(SF, ME, "1/2-1/2",
         "30... Kd7 {-0.30/14 0.100s} 31. O-O {+1.05/20 0.050s} Kd6 {-0.40/14 0.110s}\n"
         "32. Rf6+ {+0.60/21 0.060s} Ke5 {-0.50/15 0.130s} 33. Rh6 {+1.00/22 0.070s}\n"
         "d4 {-0.50/15 0.090s} 34. Rh5+ {+1.10/22 0.040s} Ke4 {-0.60/16 0.140s}\n"
         "35. Re1+ {+1.20/23 0.080s} Kd3 {-0.70/16 0.150s, Draw by adjudication} 1/2-1/2",
         fen="r3k3/8/8/3p4/8/8/3P4/R3K2R b KQ - 0 30"),
    game(SF, ME, "0-1",
         "45. f3 {+1.50/20 0.040s} e5 {-0.20/18 0.200s} 46. g4 {+1.20/21 0.030s}\n"
         "Qh4# {+M1/30 0.010s, Black mates} 0-1",
         fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 45"),
    game(ME, SF, "1/2-1/2",
         "1. d4 {book} d5 {book} 2. c4 {+0.20/12 0.100s} e6 {+1.00/20 0.050s}\n"
         "3. Nc3 $1 {+0.10/12 0.100s} (3. Nf3 {+0.30/5 0.010s} (3. g3 g6) Nf6) Nf6 {+0.40/20 0.050s}\n"
         "4. Nf3 {0.00/12 0.100s} Be7 {+0.99/20 0.050s} 1/2-1/2"),
])
ODD = "".join([
    game(ME, SF, "0-1", "1. f3 e5 2. g4 Qh4# 0-1"),
    game(SF, ME, "*", "1. e4 {+0.20/10 0.1"),
    game(ME, SF, "0-1",
         "20. e4 {+0.10/10 0.100s} e5 {+0.30/30 0.020s} 21. Zz9 {-0.20/10 0.100s}\n"
         "Nc6 {+M2/30 0.020s} 22. Qxf7 {-M1/10 0.100s}",
         fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 20"),
    game("shears-a", "Shears-b", "1-0", "1. e4 {+0.20/10 0.100s} e5 {+2.00/10 0.100s} 1-0"),
    game(SF, "Ethereal", "0-1", "1. e4 {+0.20/10 0.100s} e5 {+2.00/10 0.100s} 0-1"),
])


def tps(records):
    return {r["game"]: r["turning_point"] for r in records if r["file"].endswith("main.pgn")}


def test_analysis(main_pgn, odd_pgn):
    records, counts, stats = tp.analyse([main_pgn, odd_pgn], "shears", 100, 3)
    check(counts == {"games": 9, "without Shears": 1, "with Shears twice": 1, "unfinished": 1, "won": 1,
                     "without scores": 1}, f"counts {counts}")
    check([(Path(r["file"]).name, r["game"]) for r in records]
          == [("main.pgn", 1), ("main.pgn", 2), ("main.pgn", 4), ("odd.pgn.gz", 3)], f"records {records}")
    found = tps(records)
    one, two = found[1], found[2]
    check(found[4] is None, f"a touch of +1.00 is no turning point: {found[4]}")
    check((one["move"], one["ply"], one["phase"], one["material"]) == (4, 8, "opening", {"shears": 39, "opponent": 38}),
          f"game 1's turning point {one}")
    check(one["opponent"] == {"move": 4, "ply": 8, "san": "Qg5", "mate": None, "depth": 19, "time": 0.06,
                              "by": "black", "score": 1.5}, f"game 1 {one['opponent']}")
    check([(b["san"], b["score"], b["depth"], b["time"]) for b in one["shears_before"]]
          == [("Bc4", 0.3, 12, 0.1), ("Nxe5", 1.2, 11, 0.12)], f"game 1 before {one['shears_before']}")
    check(one["shears_after"]["san"] == "Nxf7" and one["surprise"] is True, f"game 1 {one}")
    check((two["move"], two["ply"], two["phase"], two["material"]) == (33, 6, "endgame", {"shears": 6, "opponent": 11}),
          f"game 2's turning point (castled, from a FEN) {two}")
    check((two["opponent"]["san"], two["opponent"]["score"], two["opponent"]["by"]) == ("Rh6", 1.0, "white"),
          f"game 2 {two['opponent']}")
    check([b["score"] for b in two["shears_before"]] == [-0.3, -0.4, -0.5] and two["surprise"] is False,
          f"game 2: Shears at -0.50 saw it: {two}")
    check(two["shears_after"] == {"move": 33, "ply": 7, "san": "d4", "mate": None, "depth": 15,
                                       "time": 0.09, "by": "black", "score": -0.5}, f"game 2 {two['shears_after']}")
    odd = records[-1]["turning_point"]
    check((odd["move"], odd["ply"], odd["phase"], odd["material"], odd["opponent"]["mate"], odd["opponent"]["score"])
          == (21, 4, "unknown", None, "+M2", 100.0), f"a cut-off game after an unplayable move {odd}")
    check(odd["shears_after"]["mate"] == "-M1" and odd["surprise"] is True, f"odd game {odd}")

    # The last 10 scored moves of each side before the turning points
    # (games 1, 2 and the odd one), and every game with Shears by stage.
    check(stats["before", "shears", "depth"] == [12, 11, 14, 14, 15, 10, 10], f"before {dict(stats)}")
    check(stats["before", "opponent", "depth"] == [18, 20, 21, 30], f"before {dict(stats)}")
    check(stats["before", "opponent", "time"] == [0.05, 0.05, 0.06, 0.02], f"before {dict(stats)}")
    check(stats["21-40", "shears", "depth"] == [14, 14, 15, 15, 16, 16, 10, 10], f"21-40 {dict(stats)}")
    check(stats["21-40", "opponent", "depth"] == [20, 21, 22, 22, 23, 30], f"21-40 {dict(stats)}")
    check(stats["9-20", "shears", "time"] == [0.1] and stats["9-20", "opponent", "depth"] == [30],
          f"9-20 {dict(stats)}")
    check(stats["41+", "shears", "depth"] == [18, 30] and stats["41+", "opponent", "time"] == [0.04, 0.03],
          f"a won game counts in the stages {dict(stats)}")

    persist1 = tps(tp.analyse([main_pgn], "shears", 100, 1)[0])
    check((persist1[2]["move"], persist1[2]["ply"]) == (31, 2), f"--persist 1: the touch {persist1[2]}")
    check(persist1[4]["opponent"]["san"] == "e6", f"--persist 1: +1.00 is enough {persist1[4]}")
    # At +1.01 game 2 turns on 34.Rh5+, held for the two moves the opponent has left.
    high = tps(tp.analyse([main_pgn], "shears", 101, 3)[0])
    check((high[2]["move"], high[2]["ply"]) == (34, 8), f"--threshold 1.01: held to the end {high[2]}")
    check(tps(tp.analyse([main_pgn], "shears", 121, 3)[0])[2] is None, "--threshold 1.21: no turn in game 2")


def test_material():
    # En passant (50...dxe3) and a promotion from a FEN; a capture on an
    # empty square (52...Kxe7) ends the count.
    moves, end = tp.moves_of({"FEN": "4k3/1P6/8/8/3p4/8/4P3/4K3 w - - 0 50"},
                             "50. e4 dxe3 51. b8=Q+ Kd7 52. Qb7+ Kxe7 53. Qb5 *")
    check([(m["move"], m["white"], m["material"]) for m in moves]
          == [(50, True, (2, 1)), (50, False, (2, 1)), (51, True, (1, 1)), (51, False, (9, 1)),
              (52, True, (9, 1)), (52, False, (9, 1)), (53, True, None)] and end == "*", f"material {moves}")
    check(tp.moves_of({"FEN": "not a fen"}, "1. e4 e5")[0][1]["material"] is None, "a bad FEN")


def run(*args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = tp.main([str(a) for a in args])
        except SystemExit as e:
            code = e.code
    return code, out.getvalue()


def test_cli(tmp, main_pgn, odd_pgn):
    records = tmp / "records.json"
    code, out = run(main_pgn, odd_pgn, "--engine", "SHEARS-dev", "--json", records)
    check(code == 0, f"exit {code}:\n{out}")
    for line in [
        "game main.pgn #1: Shears white, 0-1; turns at move 4 (ply 8), opening, "
        "material Shears 39, opponent 38; a surprise",
        "    opponent 4...Qg5 +1.50/19 0.060s; Shears before: 3.Bc4 +0.30/12 0.100s, "
        "4.Nxe5 +1.20/11 0.120s; after: 5.Nxf7 +0.90/10 0.110s",
        "game main.pgn #2: Shears black, 1/2-1/2; turns at move 33 (ply 6), endgame, "
        "material Shears 6, opponent 11; Shears saw it",
        "game odd.pgn.gz #3: Shears white, 0-1; turns at move 21 (ply 4), unknown, material ?; a surprise",
        "    opponent 21...Nc6 +M2/30 0.020s; Shears before: 20.e4 +0.10/10 0.100s, "
        "21.Zz9 -0.20/10 0.100s; after: 22.Qxf7 -M1/10 0.100s",
        "summary: 3 of the 4 games Shears did not win turned (other games: 2 without Shears, "
        "1 unfinished, 1 won, 1 without scores)",
        "  median move 21; opening 1, middlegame 0, endgame 1, unknown 1",
        "  surprises 2 of 3; Shears' score on its move before: median -0.20",
        "  their last 10 moves before: opponent depth 20.5, 0.050 s; shears depth 12, 0.100 s",
        "  moves 9-20: opponent depth 30, 0.020 s; shears depth 10, 0.100 s (1 moves of Shears)",
        "  moves 21-40: opponent depth 22, 0.055 s; shears depth 14.5, 0.105 s (8 moves of Shears)",
        "  moves 41+: opponent depth 20.5, 0.035 s; shears depth 24, 0.105 s (2 moves of Shears)",
    ]:
        check(line in out.splitlines(), f"missing line {line!r} in:\n{out}")
    saved = json.loads(records.read_text(encoding="utf-8"))
    check(saved["tool"] == "turning_points" and saved["options"]["persist"] == 3, f"json {saved['options']}")
    check([r["turning_point"] and r["turning_point"]["ply"] for r in saved["games"]] == [8, 6, None, 4],
          f"json records {saved['games']}")
    code, out = run(main_pgn, "--json", records)
    check(code == 0 and len(json.loads(records.read_text())["games"]) == 3, f"rewrites its own json: {out}")

    code, out = run(main_pgn, "--json", main_pgn)
    check(code == 1 and "not this script's output" in out, f"--json onto a PGN: exit {code} {out}")
    check(main_pgn.read_text(encoding="utf-8") == MAIN, "the PGN given to --json is untouched")
    code, out = run(tmp / "missing.pgn")
    check(code == 1 and "missing.pgn" in out and "Traceback" not in out, f"a missing file: exit {code} {out}")
    code, out = run(main_pgn, "--persist", "0")
    check(code == 2 and "--persist" in out, f"--persist 0: exit {code} {out}")

    done = subprocess.run([sys.executable, str(REPO / "scripts" / "turning_points.py"), str(main_pgn),
                           "--persist", "1", "--threshold", "1.5"], capture_output=True, text=True, timeout=30)
    check(done.returncode == 0 and "summary: 1 of the 3 games Shears did not win turned" in done.stdout,
          f"as a script: exit {done.returncode}\n{done.stdout}{done.stderr}")


def main():
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        main_pgn, odd_pgn = tmp / "main.pgn", tmp / "odd.pgn.gz"
        main_pgn.write_text(MAIN, encoding="utf-8")
        with gzip.open(odd_pgn, "wt", encoding="utf-8") as f:
            f.write(ODD)
        test_material()
        test_analysis(main_pgn, odd_pgn)
        test_cli(tmp, main_pgn, odd_pgn)
    if FAILURES:
        print(f"turning points tools: {len(FAILURES)} check(s) failed")
        return 1
    print("turning points tools: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

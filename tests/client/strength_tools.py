#!/usr/bin/env python3
"""Checks the calibration scripts of issue 16 on small inputs whose answers
are known, without playing a match:

- `scripts/strength_fit.py`: the maximum-likelihood fit gives the exact
  rating of a two-player case (75% against an anchor: +190.85 Elo), finds
  the true ratings of a simulated ladder (seeded) within their intervals,
  refuses players not linked to an anchor and perfect scores (finite with
  --prior-draws), reads results from PGN tags, writes a well-formed SVG
  and the docs/calibration.md table, reads the CALIBRATION table of strength/level.rs and
  inverts measured levels into a new one;
- `scripts/strength_ladder.py`: the plan from the real config links every
  level to an anchor, counts the games already in a pairing's PGN (resume),
  and builds fastchess commands for UCI pairs and cutechess-cli commands
  for xboard ones;
- `scripts/strength_judge.py`: with the real engine as the judge at a few
  thousand nodes, a queen thrown away in a tiny PGN is a blunder, the
  moves differ from the judge's where they should, and the move times are
  read from the comments.

Usage: python3 tests/client/strength_tools.py [PATH-TO-SHEARS] (else
$SHEARS, else target/release/shears). Needs python-chess for the judge
(`python3 -m pip install chess`). Under a second; `.ci/run` runs it.
"""

import json
import math
import os
import random
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import strength_fit as fit  # noqa: E402
import strength_ladder as ladder  # noqa: E402

FAILURES = []


def check(condition, message):
    """Records a failed check (all checks run; the exit code says)."""
    if not condition:
        FAILURES.append(message)
        print(f"FAIL: {message}")


def balanced(a, b, wins, losses, draws=0):
    """Games of a against b with colours alternating: (white, black, score
    of white)."""
    games = []
    for i, s in enumerate([1.0] * wins + [0.0] * losses + [0.5] * draws):
        games.append((a, b, s) if i % 2 == 0 else (b, a, 1.0 - s))
    return games


def test_fit():
    # Two players: 75% against an anchor is exactly 400*log10(3) above it.
    result = fit.fit(balanced("B", "A", 300, 100), {"A": 2000.0})
    expected = 2000 + 400 * math.log10(3)
    check(abs(result["ratings"]["B"] - expected) < 1e-6, f"two players: {result['ratings']['B']} != {expected}")
    # A draw counts half: 200 wins and 200 draws score 75% too.
    halves = fit.fit(balanced("B", "A", 200, 0, 200), {"A": 2000.0})
    check(abs(halves["ratings"]["B"] - expected) < 1e-6, "a draw is half a win")
    # Its interval: the standard error of a 75% score over 400 games,
    # through the logistic slope: sqrt(p(1-p)/n) / (K p (1-p)).
    p, n = 0.75, 400
    se = math.sqrt(p * (1 - p) / n) / (fit.K * p * (1 - p))
    check(abs(result["se"]["B"] - se) < 0.01, f"two players' error {result['se']['B']} != {se}")

    # A simulated ladder: the fit finds the true ratings within 3 errors.
    rng = random.Random(16)
    true = {"Anchor1": 1800, "Anchor2": 2600, "Shears-1400": 1450, "Shears-1800": 1760,
            "Shears-2200": 2240, "Shears-2600": 2580, "Other": 2000}
    pairs = [("Shears-1400", "Shears-1800"), ("Shears-1800", "Anchor1"), ("Shears-1800", "Shears-2200"),
             ("Shears-2200", "Anchor1"), ("Shears-2200", "Anchor2"), ("Shears-2200", "Shears-2600"),
             ("Shears-2600", "Anchor2"), ("Other", "Shears-1800"), ("Other", "Shears-2200")]
    games = []
    for a, b in pairs:
        for k in range(300):
            w, bl = (a, b) if k % 2 == 0 else (b, a)
            e = 1 / (1 + 10 ** (-(true[w] + 25 - true[bl]) / 400))
            draw = 0.5 * min(e, 1 - e)
            u = rng.random()
            games.append((w, bl, 1.0 if u < e - draw / 2 else 0.5 if u < e + draw / 2 else 0.0))
    result = fit.fit(games, {"Anchor1": 1800.0, "Anchor2": 2600.0})
    for name, elo in true.items():
        err = abs(result["ratings"][name] - elo)
        check(err <= 3 * result["se"][name] + 1e-9, f"{name}: {result['ratings'][name]:.0f} for {elo}")
    check(abs(result["advantage"] - 25) < 3 * result["advantage_se"], "White's advantage")
    rows = fit.level_rows(result)
    check([r[0] for r in rows] == [1400, 1800, 2200, 2600], f"level rows {rows}")

    # Not linked to an anchor, or no finite rating: refused.
    for games, why in [(balanced("B", "A", 5, 5) + balanced("C", "D", 5, 5), "not linked"),
                       (balanced("B", "A", 10, 0), "no finite rating")]:
        try:
            fit.fit(games, {"A": 2000.0})
            check(False, f"{why}: accepted")
        except fit.FitError as e:
            check(why in str(e), f"{why}: {e}")
    prior = fit.fit(balanced("B", "A", 10, 0), {"A": 2000.0}, prior_draws=1)
    check(2300 < prior["ratings"]["B"] < 2700, f"perfect score with a prior: {prior['ratings']['B']}")
    return result


def test_outputs(result, tmp):
    pgn = tmp / "tiny.pgn"
    pgn.write_text(
        '[White "Shears-1400"]\n[Black "HoiChess"]\n[Result "1-0"]\n\n1. e4 {book} e5 1-0\n\n'
        '[White "HoiChess"]\n[Black "Shears-1400"]\n[Result "1/2-1/2"]\n\n1. d4 d5\n2. c4 1/2-1/2\n\n'
        '[White "HoiChess"]\n[Black "Shears-1400"]\n[Result "*"]\n\n1. d4 *\n\n'
        '[White "GNUChess"]\n[Black "Shears-1400"]\n[Result "0-1"]\n[Termination "abandoned"]\n\n0-1\n',
        encoding="utf-8")
    check(fit.read_games([pgn]) == [("Shears-1400", "HoiChess", 1.0), ("HoiChess", "Shears-1400", 0.5)],
          f"PGN results: {fit.read_games([pgn])}")

    rows = fit.level_rows(result)
    drawing = ET.fromstring(fit.svg(rows))
    tags = [el.tag.split("}")[-1] for el in drawing.iter()]
    classes = [el.get("class") for el in drawing.iter()]
    check(tags.count("circle") == len(rows), "one point per level")
    check(classes.count("errorbar") == len(rows) and "diagonal" in classes and "band" in classes,
          "error bars, the diagonal and the band")
    table = fit.markdown(result, {"Anchor1", "Anchor2"})
    check(table.count("| Shears-") >= 4 and "| 1400 |" in table and "anchor" in table, "calibration table")

    calibration = fit.read_calibration(REPO / "src" / "engine" / "strength" / "level.rs")
    check(calibration[0][0] == 1000 and all(a < b for (a, _), (b, _) in zip(calibration, calibration[1:])),
          f"CALIBRATION read from strength/level.rs: {calibration}")
    # Every level measured 200 below its target, skill = target: the new
    # table asks 200 more skill of each.
    measured = [(t, t - 200.0, 30.0, 100) for t in (1000, 1400, 1800, 2200)]
    suggested = fit.suggest_calibration(measured, [(1000, 1000), (3000, 3000)])
    check(suggested == [(1000, 1200), (1400, 1600), (1800, 2000), (2200, 2400)], f"calibration {suggested}")
    check(fit.monotone([1, 3, 2, 4]) == [1, 2.5, 2.5, 4], "pool adjacent violators")

    # The command: a win and a draw against HoiChess (1800) are 75%.
    code = fit.main([str(pgn), "--anchor", "HoiChess=1800", "--no-advantage", "--markdown",
                     "--svg", str(tmp / "p.svg")])
    check(code == 0 and ET.parse(tmp / "p.svg").getroot().tag.endswith("svg"), "strength_fit.py runs")
    # With White's advantage free, two games cannot fix two numbers.
    check(fit.main([str(pgn), "--anchor", "HoiChess=1800"]) == 1, "an unfittable set exits 1")


def test_ladder(tmp):
    config = json.loads((REPO / "scripts" / "strength_ladder.json").read_text(encoding="utf-8"))
    pairs = ladder.schedule(config)
    names = {p for a, b, _ in pairs for p in (a, b)}
    for level in config["levels"]:
        check(f"Shears-{level}" in names, f"level {level} plays")
    # Every player is linked to an anchor: one fake game per pairing.
    try:
        fit.check_connected([(a, b, 0.5) for a, b, _ in pairs], config["anchors"], sorted(names))
    except fit.FitError as e:
        check(False, f"ladder not linked: {e}")
    for name, a in config["anchors"].items():
        games = sum(g for x, y, g in pairs if name in (x, y) and x != "Shears-full")
        check(games >= 100, f"{name}: {games} games with the levels")

    out = tmp / "ladder"
    first, second, wanted = pairs[0]
    path = ladder.pgn_path(out, first, second)
    path.parent.mkdir(parents=True)
    finished = '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
    abandoned = '[White "a"]\n[Black "b"]\n[Result "0-1"]\n[Termination "abandoned"]\n\n0-1\n\n'
    path.write_text(finished * 29 + abandoned * 2 + finished + '[Result "*"]\n\n*\n', encoding="utf-8")
    rows = ladder.plan(config, out, shears="/bin/true")
    a, b, w, done, cmd = rows[0]
    check((a, b, w, done) == (first, second, wanted, 30), f"resume count {rows[0][:4]}")
    check(cmd[cmd.index("-rounds") + 1] == str(math.ceil((wanted - 30) / 2)), "rounds left")
    for a, b, _, _, cmd in rows:
        xboard = any(config["anchors"].get(n, {}).get("proto") == "xboard" for n in (a, b))
        tool = Path(cmd[0]).name
        check(tool == ("cutechess-cli" if xboard else "fastchess"), f"{a} vs {b}: {tool}")
        check(f"name={a}" in cmd and f"name={b}" in cmd and "tc=10+0.1" in cmd, f"{a} vs {b}: {cmd}")
        if a.startswith("Shears-") and a != "Shears-full":
            check(f"option.UCI_Elo={a.split('-')[1]}" in cmd and "option.UCI_LimitStrength=true" in cmd,
                  f"{a}'s options")


def test_judge(shears, tmp):
    try:
        import chess.engine  # noqa: F401
    except ImportError:
        check(False, "python-chess is missing: python3 -m pip install chess")
        return
    import strength_judge as judge

    # Shears-1000 throws its queen away with 3. Qxf7+ (Kxf7); the rest is
    # normal; the first two moves are book.
    pgn = tmp / "judge.pgn"
    pgn.write_text(
        '[White "Shears-1000"]\n[Black "Shears-full"]\n[Result "0-1"]\n\n'
        "1. e4 {book} e5 {book} 2. Qh5 {+0.10/3 0.200s} Nc6 {+0.20/9 0.400s} "
        "3. Qxf7+ {-0.50/2 0.100s} Kxf7 {+9.00/9 0.400s} 4. Bc4+ {-9.00/2 0.300s} 0-1\n",
        encoding="utf-8")
    cache = tmp / "judge.jsonl"
    limit = judge.chess.engine.Limit(nodes=5000)
    stats = judge.judge([pgn], shears, limit, "Shears-1000", concurrency=2, cache=str(cache))
    weak, full = stats["Shears-1000"], stats["Shears-full"]
    check(weak["judged"] == 3 and full["judged"] == 0, f"judged moves {weak} {full}")
    check(weak["blunders"] >= 1 and weak["differ"] >= 1, f"the queen sacrifice is a blunder: {weak}")
    check(abs(sum(weak["times"]) / len(weak["times"]) - 0.2) < 1e-9, f"times {weak['times']}")
    check(len(full["times"]) == 2, "book moves have no time")
    lines = cache.read_text(encoding="utf-8").splitlines()
    check(len(lines) == 3, f"{len(lines)} verdicts cached")
    again = judge.judge([pgn], "/nonexistent-engine", limit, "Shears-1000", cache=str(cache))
    check(again["Shears-1000"]["blunders"] == weak["blunders"], "a cached run needs no engine")
    table = judge.table(stats, "Shears-full")
    check("| Shears-1000 | 4 | 3 |" in table and "50%" in table, f"judge table:\n{table}")
    check(judge.move_time("+0.35/12 0.512s") == 0.512 and judge.move_time("book") is None, "move_time")
    # A blunder is confirmed by a deeper search: the queen stays lost.
    deep = tmp / "judge-confirmed.jsonl"
    confirmed = judge.judge([pgn], shears, limit, "Shears-1000", cache=str(deep),
                            confirm=judge.chess.engine.Limit(nodes=50000))
    check(confirmed["Shears-1000"]["blunders"] >= 1, f"confirmed blunder: {confirmed['Shears-1000']}")
    rows = [json.loads(line) for line in deep.read_text(encoding="utf-8").splitlines()]
    check(any("first_loss" in r and r["loss"] >= 200 for r in rows), f"confirmation rows {rows}")


def main():
    shears = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SHEARS", str(REPO / "target/release/shears"))
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        result = test_fit()
        test_outputs(result, tmp)
        test_ladder(tmp)
        test_judge(shears, tmp)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("strength tools: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Fits Elo ratings to the games of the strength ladder (issue 16) and
publishes them: a table for docs/calibration.md and a plot (SVG) of each Shears
level's measured Elo against its `UCI_Elo`.

Model (logistic Elo, Bradley-Terry): White scores s = 1, 1/2 or 0 against
Black with expectation

    E = 1 / (1 + 10 ** (-(R_white + A - R_black) / 400))

where A is White's advantage (fitted, one number for all games). A draw
counts as half a win and half a loss (as Elo's own scores do). The ratings
of the anchors (the ladder's config: Debian engines with known CCRL Blitz
ratings) are fixed; every other player's rating and A are the maximum of
the likelihood, found by Newton's method. The 95% intervals are
+-1.96 standard errors from the inverse of the observed information (the
negative Hessian of the log-likelihood at the maximum). Counting a draw as
two half results gives every game the variance of a win/loss game, so the
intervals are slightly wide when there are many draws; they do not include
the anchors' own uncertainty.

With --prior-draws D every pair of players that met gets D virtual draws
(as BayesElo's prior): a player who won or lost every game then has a
finite rating. The default is none.

    python3 scripts/strength_fit.py ladder/pgn/*.pgn --config scripts/strength_ladder.json \\
        --svg docs/strength_ladder.svg --markdown

Standard library only. Players are the PGN's White and Black names: the
ladder names Shears' levels `Shears-<UCI_Elo>` and full strength
`Shears-full`. Games without a result (`*`) and abandoned games
(`[Termination "abandoned"]`: an engine crashed or did not answer) are
skipped.
"""

import argparse
import json
import math
import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from match_logs import RESULTS, read_tags

LEVEL = re.compile(r"^Shears-(\d+)$")
K = math.log(10) / 400  # logistic scale: Elo points to natural log-odds
Z95 = 1.959964


class FitError(Exception):
    """The games do not determine the ratings (a player not connected to an
    anchor, one who won or lost everything, no anchor at all)."""


def counts(tags):
    """Whether a game's tags make a rated result: finished, both players
    named, and not abandoned (the runners' word for a game an engine left
    by crashing or not answering at its start, which says nothing of the
    players' chess; a loss on time is a result and counts)."""
    return (tags.get("Result") in RESULTS and "White" in tags and "Black" in tags
            and tags.get("Termination", "").lower() != "abandoned")


def read_games(paths):
    """(white, black, score of white) for every rated game of the PGN files
    (see `counts`), from their tags alone."""
    return [(tags["White"], tags["Black"], RESULTS[tags["Result"]])
            for path in paths for tags in read_tags(path) if counts(tags)]


def solve(matrix, vector):
    """Solves matrix x = vector (Gaussian elimination with partial pivoting);
    raises FitError when the matrix is singular."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise FitError("the games do not determine every rating")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    return [a[i][n] / a[i][i] for i in range(n)]


def inverse(matrix):
    """The inverse of a small non-singular matrix."""
    n = len(matrix)
    columns = [solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def check_connected(games, anchors, players):
    """Raises FitError unless every player is linked to an anchor by games."""
    if not anchors:
        raise FitError("no anchor: at least one player's rating must be fixed")
    links = {p: set() for p in players}
    for w, b, _ in games:
        links[w].add(b)
        links[b].add(w)
    reached = set(a for a in anchors if a in links)
    todo = list(reached)
    while todo:
        for q in links[todo.pop()]:
            if q not in reached:
                reached.add(q)
                todo.append(q)
    lost = sorted(set(players) - reached)
    if lost:
        raise FitError("not linked to any anchor by games: " + ", ".join(lost))


def fit(games, anchors, prior_draws=0.0, white_advantage=True, iterations=100):
    """Maximum-likelihood ratings.

    games: (white, black, score) tuples; anchors: {name: fixed rating}.
    Returns {"ratings": {name: Elo}, "se": {name: standard error (0 for
    anchors)}, "advantage": A, "advantage_se": ..., "games": {name: count},
    "score": {name: points}}.
    """
    players = sorted({p for w, b, _ in games for p in (w, b)} | set(anchors))
    check_connected(games, anchors, players)
    rows = [(w, b, s, 1.0) for w, b, s in games]
    if prior_draws > 0:
        pairs = {tuple(sorted((w, b))) for w, b, _ in games}
        for a, b in sorted(pairs):
            rows.append((a, b, 0.5, prior_draws / 2))
            rows.append((b, a, 0.5, prior_draws / 2))
    free = [p for p in players if p not in anchors]
    if prior_draws <= 0:
        perfect = [p for p in free
                   if len({s if w == p else 1.0 - s for w, b, s in games if p in (w, b)}) == 1
                   and {s if w == p else 1.0 - s for w, b, s in games if p in (w, b)} != {0.5}]
        if perfect:
            raise FitError("no finite rating (won or lost every game): " + ", ".join(perfect)
                           + "; try --prior-draws 1")
    index = {p: i for i, p in enumerate(free)}
    n = len(free) + (1 if white_advantage else 0)
    rating = {p: float(anchors.get(p, 0.0)) for p in players}
    mean_anchor = sum(anchors.values()) / len(anchors)
    for p in free:
        rating[p] = mean_anchor
    adv = 0.0

    def expectation(w, b):
        return 1.0 / (1.0 + math.exp(-K * (rating[w] + adv - rating[b])))

    hessian = None
    for _ in range(iterations):
        grad = [0.0] * n
        hessian = [[0.0] * n for _ in range(n)]
        for w, b, s, weight in rows:
            e = expectation(w, b)
            g = weight * K * (s - e)
            h = weight * K * K * e * (1.0 - e)
            slots = []
            if w in index:
                slots.append((index[w], 1.0))
            if b in index:
                slots.append((index[b], -1.0))
            if white_advantage:
                slots.append((n - 1, 1.0))
            for i, si in slots:
                grad[i] += si * g
                for j, sj in slots:
                    hessian[i][j] += si * sj * h
        step = solve(hessian, grad)
        for p, i in index.items():
            rating[p] += max(-400.0, min(400.0, step[i]))
        if white_advantage:
            adv += max(-400.0, min(400.0, step[n - 1]))
        if any(abs(rating[p] - mean_anchor) > 6000 for p in free):
            winners = [p for p in free if abs(rating[p] - mean_anchor) > 6000]
            raise FitError("no finite rating (won or lost every game?): " + ", ".join(winners)
                           + "; try --prior-draws 1")
        if max((abs(x) for x in step), default=0.0) < 1e-7:
            break
    else:
        raise FitError("Newton's method did not converge")
    covariance = inverse(hessian) if n else []
    se = {p: 0.0 for p in players}
    for p, i in index.items():
        se[p] = math.sqrt(max(covariance[i][i], 0.0))
    counts = {p: 0 for p in players}
    points = {p: 0.0 for p in players}
    for w, b, s in games:
        counts[w] += 1
        counts[b] += 1
        points[w] += s
        points[b] += 1.0 - s
    return {
        "ratings": rating,
        "se": se,
        "advantage": adv,
        "advantage_se": math.sqrt(max(covariance[n - 1][n - 1], 0.0)) if white_advantage else 0.0,
        "games": counts,
        "score": points,
    }


def level_of(name):
    """The UCI_Elo of a Shears level's player name, else None."""
    m = LEVEL.match(name)
    return int(m.group(1)) if m else None


def level_rows(result):
    """(UCI_Elo, measured, 95% half-width, games) for every Shears level,
    by UCI_Elo."""
    rows = []
    for name, elo in result["ratings"].items():
        target = level_of(name)
        if target is not None:
            rows.append((target, elo, Z95 * result["se"][name], result["games"][name]))
    return sorted(rows)


def markdown(result, anchors):
    """The tables of docs/calibration.md: the levels, then every player."""
    out = ["| `UCI_Elo` | measured Elo | 95% interval | games | within ±100 |",
           "|---|---|---|---|---|"]
    for target, elo, half, games in level_rows(result):
        ok = "yes" if elo - half <= target + 100 and elo + half >= target - 100 else "no"
        out.append(f"| {target} | {elo:.0f} | {elo - half:.0f} … {elo + half:.0f} | {games} | {ok} |")
    out += ["", "| player | Elo | ± 95% | games | score |", "|---|---|---|---|---|"]
    ranked = sorted(result["ratings"].items(), key=lambda kv: -kv[1])
    for name, elo in ranked:
        games = result["games"][name]
        score = 100.0 * result["score"][name] / games if games else 0.0
        half = "anchor" if name in anchors else f"{Z95 * result['se'][name]:.0f}"
        out.append(f"| {name} | {elo:.0f} | {half} | {games} | {score:.1f}% |")
    out.append("")
    out.append(f"White's advantage: {result['advantage']:.1f} ± {Z95 * result['advantage_se']:.1f} Elo.")
    return "\n".join(out)


def svg(rows, title="Shears at a chosen strength: measured against UCI_Elo", band=100):
    """A plot of (UCI_Elo, measured, half-width, games) rows: each level a
    point with its 95% error bar, the diagonal (measured = asked) and the
    band of +-`band` around it. Plain SVG, no dependency."""
    width, height, margin = 640, 560, 70
    values = [r[0] for r in rows] + [r[1] - r[2] for r in rows] + [r[1] + r[2] for r in rows]
    lo = math.floor((min(values, default=1000) - 100) / 200) * 200
    hi = math.ceil((max(values, default=3000) + 100) / 200) * 200

    def x(v):
        return margin + (v - lo) / (hi - lo) * (width - 2 * margin)

    def y(v):
        return height - margin - (v - lo) / (hi - lo) * (height - 2 * margin)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">{escape(title)}</text>']
    # The band, then the diagonal.
    band_points = [(lo, lo + band), (hi - band, hi), (hi, hi), (hi, hi - band), (lo + band, lo), (lo, lo)]
    out.append('<polygon class="band" fill="#e6f0e6" points="'
               + " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in band_points) + '"/>')
    out.append(f'<line class="diagonal" x1="{x(lo):.1f}" y1="{y(lo):.1f}" x2="{x(hi):.1f}" '
               f'y2="{y(hi):.1f}" stroke="#4a4" stroke-dasharray="6,4"/>')
    # Axes, ticks and grid.
    for v in range(lo, hi + 1, 200):
        out.append(f'<line x1="{x(v):.1f}" y1="{y(lo):.1f}" x2="{x(v):.1f}" y2="{y(hi):.1f}" stroke="#eee"/>')
        out.append(f'<line x1="{x(lo):.1f}" y1="{y(v):.1f}" x2="{x(hi):.1f}" y2="{y(v):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x(v):.1f}" y="{height - margin + 18}" text-anchor="middle">{v}</text>')
        out.append(f'<text x="{margin - 8}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
    out.append(f'<rect x="{margin}" y="{margin}" width="{width - 2 * margin}" '
               f'height="{height - 2 * margin}" fill="none" stroke="black"/>')
    out.append(f'<text x="{width / 2}" y="{height - 20}" text-anchor="middle">UCI_Elo asked</text>')
    out.append(f'<text x="18" y="{height / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {height / 2})">measured Elo (CCRL Blitz scale, 95%)</text>')
    for target, elo, half, games in rows:
        out.append(f'<line class="errorbar" x1="{x(target):.1f}" y1="{y(elo - half):.1f}" '
                   f'x2="{x(target):.1f}" y2="{y(elo + half):.1f}" stroke="#236" stroke-width="2"/>')
        out.append(f'<circle class="level" cx="{x(target):.1f}" cy="{y(elo):.1f}" r="4" fill="#236">'
                   f'<title>UCI_Elo {target}: {elo:.0f} ± {half:.0f} ({games} games)</title></circle>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def read_calibration(source):
    """The CALIBRATION table of src/engine/strength/level.rs: [(UCI_Elo, skill)]."""
    text = Path(source).read_text(encoding="utf-8")
    m = re.search(r"CALIBRATION:\s*&\[\(i32, i32\)\]\s*=\s*&\[(.*?)\];", text, re.S)
    if not m:
        raise FitError(f"{source}: no CALIBRATION table")
    return [(int(a), int(b)) for a, b in re.findall(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)", m.group(1))]


def interpolate(table, v):
    """Piecewise linear, flat beyond the ends (as strength/level.rs does)."""
    if v <= table[0][0]:
        return table[0][1]
    if v >= table[-1][0]:
        return table[-1][1]
    for (a, ya), (b, yb) in zip(table, table[1:]):
        if v <= b:
            return ya + (yb - ya) * (v - a) / max(b - a, 1)
    return table[-1][1]


def monotone(values):
    """The closest non-decreasing sequence (pool adjacent violators)."""
    blocks = []
    for v in values:
        blocks.append([v, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, n2 = blocks.pop()
            v1, n1 = blocks.pop()
            blocks.append([(v1 * n1 + v2 * n2) / (n1 + n2), n1 + n2])
    out = []
    for v, n in blocks:
        out += [v] * n
    return out


def suggest_calibration(rows, calibration):
    """A new CALIBRATION table: each level's skill (from the current table)
    against its measured Elo, made monotone, inverted at each UCI_Elo
    asked. Returns [(UCI_Elo, skill)]."""
    points = sorted((interpolate(calibration, t), elo) for t, elo, _, _ in rows)
    if len(points) < 2:
        raise FitError("at least two measured levels are needed to calibrate")
    skills = [s for s, _ in points]
    measured = monotone([e for _, e in points])
    table = []
    for target, _, _, _ in rows:
        # measured(skill) is piecewise linear; find the skill that gives target.
        if target <= measured[0]:
            slope = (skills[1] - skills[0]) / max(measured[1] - measured[0], 1e-9)
            skill = skills[0] + (target - measured[0]) * slope
        elif target >= measured[-1]:
            slope = (skills[-1] - skills[-2]) / max(measured[-1] - measured[-2], 1e-9)
            skill = skills[-1] + (target - measured[-1]) * slope
        else:
            skill = skills[-1]
            for i in range(len(skills) - 1):
                if measured[i] <= target <= measured[i + 1]:
                    span = measured[i + 1] - measured[i]
                    t = (target - measured[i]) / span if span > 0 else 0.0
                    skill = skills[i] + t * (skills[i + 1] - skills[i])
                    break
        table.append((target, round(skill)))
    return table


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files of the ladder")
    parser.add_argument("--config", default=str(Path(__file__).with_name("strength_ladder.json")),
                        help="the ladder's config: its anchors and their ratings")
    parser.add_argument("--anchor", action="append", default=[], metavar="NAME=ELO",
                        help="an anchor instead of the config's (repeatable)")
    parser.add_argument("--prior-draws", type=float, default=0.0)
    parser.add_argument("--no-advantage", action="store_true", help="no White advantage term")
    parser.add_argument("--svg", help="write the plot here")
    parser.add_argument("--markdown", action="store_true", help="print the tables of docs/calibration.md")
    parser.add_argument("--calibration", metavar="STRENGTH_RS",
                        help="print the CALIBRATION table these results suggest, from the one in this file")
    args = parser.parse_args(argv)
    if args.anchor:
        anchors = {}
        for item in args.anchor:
            name, _, elo = item.partition("=")
            anchors[name] = float(elo)
    else:
        with open(args.config, encoding="utf-8") as f:
            config = json.load(f)
        anchors = {name: float(a["elo"]) for name, a in config["anchors"].items()}
    games = read_games(args.pgn)
    if not games:
        print("no finished games in the PGN files", file=sys.stderr)
        return 2
    anchors = {name: elo for name, elo in anchors.items()
               if any(name in (w, b) for w, b, _ in games)}
    try:
        result = fit(games, anchors, args.prior_draws, not args.no_advantage)
        rows = level_rows(result)
        print(f"{len(games)} games, {len(result['ratings'])} players, anchors: "
              + ", ".join(f"{a} {e:.0f}" for a, e in sorted(anchors.items())))
        for name, elo in sorted(result["ratings"].items(), key=lambda kv: -kv[1]):
            half = Z95 * result["se"][name]
            fixed = " (anchor)" if name in anchors else f" ± {half:.0f}"
            print(f"  {name:24} {elo:7.1f}{fixed}  {result['games'][name]} games")
        print(f"  White's advantage {result['advantage']:.1f} ± {Z95 * result['advantage_se']:.1f}")
        if args.markdown:
            print()
            print(markdown(result, anchors))
        if args.svg:
            Path(args.svg).write_text(svg(rows), encoding="utf-8")
            print(f"plot written to {args.svg}")
        if args.calibration:
            table = suggest_calibration(rows, read_calibration(args.calibration))
            print("suggested CALIBRATION: &[" + ", ".join(f"({a}, {b})" for a, b in table) + "]")
    except FitError as e:
        print(f"cannot fit: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

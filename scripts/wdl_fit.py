#!/usr/bin/env python3
"""Fits Shears' win/draw/loss model to its own games (UCI_ShowWDL).

The model is the one Stockfish fits to its self-play games: from the side to
move's view, with the search score x in centipawns,

    P(win)  = 1 / (1 + exp((a(m) - x) / b(m)))
    P(loss) = 1 / (1 + exp((a(m) + x) / b(m)))
    P(draw) = 1 - P(win) - P(loss)

where a(m) and b(m) are cubic polynomials in t = clamp(m, 3, 78) / 58 and m
is the material on the board (pawn 1, knight and bishop 3, rook 5, queen 9,
both sides). a(m) is the score at which a win is as likely as not, b(m) how
quickly that probability rises with the score. Stockfish clamps at 17; Shears'
games have many long endgames with less, which the lower clamp tells apart
(--material-min 17 compares).

Data: fastchess PGNs of games between Shears builds. Every move comment
`{+0.35/12 0.512s}` is the mover's search score in pawns; the position it
belongs to is the one before the move (replayed with python-chess to count
material), the outcome the game's result from the mover's view. Book moves
(`{book}`), the first --min-ply plies, mate scores and games that are not
Shears against Shears are skipped.

Fit: maximum likelihood (scipy's BFGS, analytic gradient) on every game. Its
quality is measured out of sample by cross-validation over games (game i, in
the order read over all files, is held out in fold i mod --folds, predicted by
the model fitted on the other folds): the log-loss of the material model, of a
move-number model (Stockfish's older form, t = clamp(move, 8, 120) / 32), of a
material-independent model (a and b constants) and of a constant baseline (the
training W/D/L frequencies), and a calibration table: predicted and observed
W/D/L per score bin. --test-pgn files are only scored, with the final model.

    python3 -m pip install chess numpy scipy
    python3 scripts/wdl_fit.py corr1.pgn hist1.pgn se1.pgn tm1.pgn sel2_vs_tm1.pgn
"""

import argparse
import math
import sys

import chess
import chess.pgn
import numpy as np
from scipy.optimize import minimize

from match_logs import RESULTS, is_mate_score, score_cp
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}

MATERIAL_MIN, MATERIAL_MAX, MATERIAL_SCALE = 3, 78, 58
MOVE_MIN, MOVE_MAX, MOVE_SCALE = 8, 120, 32


def material(board):
    """Pawn 1, knight and bishop 3, rook 5, queen 9, both sides."""
    return sum(v * len(board.pieces(role, colour))
               for role, v in VALUES.items() for colour in chess.COLORS)


def read_games(paths, engine_prefix, min_ply, stats):
    """Yields one list of (score, material, move number, outcome) per game."""
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                h = game.headers
                result = RESULTS.get(h.get("Result", "*"))
                names = (h.get("EngineWhiteName", h.get("White", "")),
                         h.get("EngineBlackName", h.get("Black", "")))
                if result is None or not all(n.startswith(engine_prefix) for n in names):
                    stats["games skipped"] += 1
                    continue
                stats["games"] += 1
                board = game.board()
                rows = []
                for ply, node in enumerate(game.mainline()):
                    comment = node.comment
                    if ply >= min_ply and comment != "book":
                        cp = score_cp(comment)
                        if cp is not None:
                            mover = result if board.turn == chess.WHITE else 1.0 - result
                            rows.append((cp, material(board), board.fullmove_number, mover))
                        elif is_mate_score(comment):
                            stats["mate scores skipped"] += 1
                    board.push(node.move)
                stats["positions"] += len(rows)
                yield rows


def to_arrays(games):
    rows = [r for g in games for r in g]
    a = np.array(rows, dtype=float).reshape(-1, 4)
    return {"x": a[:, 0], "material": a[:, 1], "move": a[:, 2], "outcome": a[:, 3]}


def feature(data, kind, material_min):
    """The normalised variable the parameters depend on (t in the docstring)."""
    if kind == "material":
        return np.clip(data["material"], material_min, MATERIAL_MAX) / MATERIAL_SCALE
    if kind == "move":
        return np.clip(data["move"], MOVE_MIN, MOVE_MAX) / MOVE_SCALE
    return np.ones_like(data["x"])


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -700, 700)))


def probabilities(params, x, t):
    """(P(win), P(draw), P(loss)) for coefficients (a..., b...), highest power first."""
    n = len(params) // 2
    a = np.polyval(params[:n], t)
    b = np.maximum(np.polyval(params[n:], t), 1e-3)
    win, loss = sigmoid((x - a) / b), sigmoid((-x - a) / b)
    return win, 1.0 - win - loss, loss


def loss_and_gradient(params, x, t, outcome):
    """Mean -ln P(outcome) per position, and its gradient in the coefficients."""
    n = len(params) // 2
    powers = np.vstack([t ** (n - 1 - k) for k in range(n)])
    a = powers.T @ params[:n]
    b = np.maximum(powers.T @ params[n:], 1e-3)
    u, v = (x - a) / b, (-x - a) / b
    win, loss = sigmoid(u), sigmoid(v)
    draw = np.maximum(1.0 - win - loss, 1e-12)
    # d ln P / du and d ln P / dv for each outcome (sigma' = sigma (1 - sigma)).
    is_win, is_loss = outcome == 1.0, outcome == 0.0
    is_draw = ~(is_win | is_loss)
    du = np.where(is_win, 1.0 - win, np.where(is_draw, -win * (1.0 - win) / draw, 0.0))
    dv = np.where(is_loss, 1.0 - loss, np.where(is_draw, -loss * (1.0 - loss) / draw, 0.0))
    p = np.where(is_win, win, np.where(is_loss, loss, draw))
    value = -np.mean(np.log(np.maximum(p, 1e-12)))
    # u and v both fall by 1/b as a rises, and by u/b (v/b) as b rises.
    da = -(du + dv) / b
    db = -(du * u + dv * v) / b
    grad = -np.concatenate([powers @ da, powers @ db]) / len(x)
    return value, grad


def log_loss(params, data, kind, material_min):
    """Mean -ln P(outcome) per position."""
    t = feature(data, kind, material_min)
    return float(loss_and_gradient(params, data["x"], t, data["outcome"])[0])


def fit(data, kind, degree, material_min):
    """Maximum-likelihood coefficients of a and b (polynomials of `degree`)."""
    if kind == "constant":
        degree = 0
    # Start from flat a = 150 cp, b = 80 cp.
    start = np.zeros(2 * (degree + 1))
    start[degree], start[2 * degree + 1] = 150.0, 80.0
    t = feature(data, kind, material_min)
    best = minimize(loss_and_gradient, start, args=(data["x"], t, data["outcome"]),
                    jac=True, method="BFGS", options={"gtol": 1e-9, "maxiter": 10000})
    return best.x, best


def baseline_loss(train, test):
    """Log-loss of predicting the training W/D/L frequencies everywhere."""
    freq = {o: max(np.mean(train["outcome"] == o), 1e-12) for o in (0.0, 0.5, 1.0)}
    return float(-np.mean([math.log(freq[o]) for o in test["outcome"]]))


def calibration(win, draw, loss, data):
    """Predicted against observed W/D/L by score bin."""
    o = data["outcome"]
    edges = [-10**9, -400, -200, -100, -50, -20, 21, 51, 101, 201, 401, 10**9]
    lines = ["  score (cp)      positions   predicted W/D/L %     observed W/D/L %"]
    for lo, hi in zip(edges, edges[1:]):
        sel = (data["x"] >= lo) & (data["x"] < hi)
        n = int(sel.sum())
        if n == 0:
            continue
        label = (f"< {hi}" if lo < -10**8 else f">= {lo}" if hi > 10**8 else f"{lo}..{hi - 1}")
        pred = [100 * win[sel].mean(), 100 * draw[sel].mean(), 100 * loss[sel].mean()]
        obs = [100 * np.mean(o[sel] == r) for r in (1.0, 0.5, 0.0)]
        lines.append(f"  {label:>12} {n:>12}   {pred[0]:5.1f} {pred[1]:5.1f} {pred[2]:5.1f}"
                     f"      {obs[0]:5.1f} {obs[1]:5.1f} {obs[2]:5.1f}")
    return "\n".join(lines)


def select(games, keep):
    return to_arrays(g for i, g in enumerate(games) if keep(i))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+", help="fastchess PGN files of Shears self-play")
    ap.add_argument("--test-pgn", nargs="*", default=[], help="PGN files only scored, not fitted")
    ap.add_argument("--folds", type=int, default=5,
                    help="cross-validation folds: game i is held out in fold i mod N (default 5)")
    ap.add_argument("--min-ply", type=int, default=16, help="skip the first N plies (default 16)")
    ap.add_argument("--degree", type=int, default=3, help="degree of a(m) and b(m) (default 3)")
    ap.add_argument("--material-min", type=int, default=MATERIAL_MIN,
                    help=f"material is clamped to [this, {MATERIAL_MAX}] (default {MATERIAL_MIN})")
    ap.add_argument("--engine-prefix", default="Shears",
                    help="both EngineWhiteName and EngineBlackName must start with this")
    ap.add_argument("--shown-pawn", type=float, metavar="CP",
                    help="the games' scores were shown normalised by a model whose a(t = 1) is CP "
                         "(the model of the net they were played with; 100 for a net without "
                         "one, whose scores are shown raw): also print the material model in the "
                         "net's own centipawns (x CP / 100) and the `shears net set-model` "
                         "command that writes it into the net's file")
    args = ap.parse_args()

    stats = {"games": 0, "games skipped": 0, "positions": 0, "mate scores skipped": 0}
    games = list(read_games(args.pgn, args.engine_prefix, args.min_ply, stats))
    everything = to_arrays(games)
    print(f"read {stats['games']} games ({stats['games skipped']} skipped: not Shears vs Shears "
          f"or unfinished), {stats['positions']} positions ({stats['mate scores skipped']} mate "
          f"scores skipped)")
    freqs = [100 * np.mean(everything["outcome"] == o) for o in (1.0, 0.5, 0.0)]
    print("outcomes from the mover's view: W %.1f%% D %.1f%% L %.1f%%" % tuple(freqs))

    kinds = [(f"by material (clamped {args.material_min}..{MATERIAL_MAX})", "material"),
             ("by move number (clamped 8..120)", "move"),
             ("material-independent (a, b const)", "constant")]
    mm = args.material_min

    # Cross-validation: each game is predicted by models fitted without it.
    held = {kind: [] for _, kind in kinds}
    held["baseline"] = []
    oof = [np.zeros(len(everything["x"])) for _ in range(3)]
    fold_of = np.concatenate([[i % args.folds] * len(g) for i, g in enumerate(games)])
    for fold in range(args.folds):
        train = select(games, lambda i: i % args.folds != fold)
        test = select(games, lambda i: i % args.folds == fold)
        for _, kind in kinds:
            params, _ = fit(train, kind, args.degree, mm)
            held[kind].append((log_loss(params, test, kind, mm), len(test["x"])))
            if kind == "material":
                probs = probabilities(params, test["x"], feature(test, kind, mm))
                for k in range(3):
                    oof[k][fold_of == fold] = probs[k]
        held["baseline"].append((baseline_loss(train, test), len(test["x"])))

    final = {kind: fit(everything, kind, args.degree, mm) for _, kind in kinds}
    for kind, (_, result) in final.items():
        if not result.success:
            print(f"  ({kind}: the optimiser says: {result.message})")
    tests = []
    if args.test_pgn:
        extra = {"games": 0, "games skipped": 0, "positions": 0, "mate scores skipped": 0}
        tests.append(to_arrays(read_games(args.test_pgn, args.engine_prefix, args.min_ply, extra)))
        print(f"--test-pgn {' '.join(args.test_pgn)}: {extra['games']} games, "
              f"{extra['positions']} positions")

    print(f"\nlog-loss: mean -ln P(outcome) per position, lower is better. held out: "
          f"{args.folds}-fold cross-validation by game (fold range in brackets); fitted: the "
          f"model fitted on every game" + ("; --test-pgn: that model on those games" if tests else ""))
    for label, kind in kinds + [("constant W/D/L (no score)", "baseline")]:
        pooled = sum(l * n for l, n in held[kind]) / sum(n for _, n in held[kind])
        lo, hi = min(l for l, _ in held[kind]), max(l for l, _ in held[kind])
        if kind == "baseline":
            fitted = baseline_loss(everything, everything)
            scored = [baseline_loss(everything, d) for d in tests]
        else:
            fitted = log_loss(final[kind][0], everything, kind, mm)
            scored = [log_loss(final[kind][0], d, kind, mm) for d in tests]
        print(f"  {label:40} held out {pooled:.4f} [{lo:.4f}..{hi:.4f}]  fitted {fitted:.4f}"
              + "".join(f"  --test-pgn {s:.4f}" for s in scored))

    n = args.degree + 1
    p = final["material"][0]
    print(f"\nmaterial model, t = clamp(material, {mm}, {MATERIAL_MAX}) / {MATERIAL_SCALE}, "
          "coefficients highest power first:")
    print("  AS = [" + ", ".join(f"{c:.3f}" for c in p[:n]) + "]")
    print("  BS = [" + ", ".join(f"{c:.3f}" for c in p[n:]) + "]")
    for m in sorted({mm, 10, 17, 30, 45, 58, 78}):
        if m < mm:
            continue
        t = m / MATERIAL_SCALE
        print(f"  material {m:2}: a = {np.polyval(p[:n], t):6.1f} cp, b = {np.polyval(p[n:], t):6.1f} cp")
    if args.shown_pawn is not None:
        own = p * args.shown_pawn / 100.0
        a_own = ",".join(f"{c:.3f}" for c in own[:n])
        b_own = ",".join(f"{c:.3f}" for c in own[n:])
        print(f"in the net's own centipawns (x {args.shown_pawn} / 100), its score model:")
        print("  a(t) = [" + a_own.replace(",", ", ") + "]")
        print("  b(t) = [" + b_own.replace(",", ", ") + "]")
        print(f"  a(t = 1) = {np.polyval(own[:n], 1.0):.3f} cp: a shown 100")
        print(f"  shears net set-model NET --a={a_own} --b={b_own}")
    q = final["move"][0]
    print("move-number model: AS = [" + ", ".join(f"{c:.3f}" for c in q[:n])
          + "], BS = [" + ", ".join(f"{c:.3f}" for c in q[n:]) + "]")
    c = final["constant"][0]
    print(f"material-independent: a = {c[0]:.1f} cp, b = {c[1]:.1f} cp")

    print("\ncalibration of the material model on the held-out games (cross-validation):")
    print(calibration(*oof, everything))
    for d in tests:
        print("\ncalibration of the material model on the --test-pgn games:")
        print(calibration(*probabilities(p, d["x"], feature(d, "material", mm)), d))
    return 0


if __name__ == "__main__":
    sys.exit(main())

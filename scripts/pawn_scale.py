#!/usr/bin/env python3
# Usage: python3 scripts/pawn_scale.py <engine> <games.pgn>
# What one pawn is worth to the evaluation: for positions from games, the
# final evaluation (White's side) with and without one pawn, by phase.
import chess, chess.pgn, random, subprocess, sys, re, statistics
random.seed(1)
eng = sys.argv[1]; pgn = open(sys.argv[2])
pairs = []
while len(pairs) < 3000:
    g = chess.pgn.read_game(pgn)
    if g is None: break
    b = g.board(); plies = list(g.mainline_moves())
    for i, m in enumerate(plies):
        b.push(m)
        if i % 7 != 3 or i < 16 or b.is_check(): continue
        for color in (chess.WHITE, chess.BLACK):
            sqs = list(b.pieces(chess.PAWN, color))
            if not sqs: continue
            c = b.copy(stack=False); c.remove_piece_at(random.choice(sqs))
            if not c.is_valid(): continue
            pairs.append((b.fen(), c.fen(), color))
p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
cmds = []
for a, c, _ in pairs:
    cmds += [f"position fen {a}", "eval", f"position fen {c}", "eval"]
out, _ = p.communicate("\n".join(cmds) + "\nquit\n")
finals = [int(x) for x in re.findall(r"Final evaluation: (-?\d+)", out)]
phases = [int(x) for x in re.findall(r"Phase: (\d+) of 24", out)]
buckets = {"midgame (phase 18-24)": [], "middle (7-17)": [], "endgame (0-6)": []}
for k, (a, c, color) in enumerate(pairs):
    d = finals[2*k] - finals[2*k+1]
    d = d if color == chess.WHITE else -d
    ph = phases[2*k]
    key = "midgame (phase 18-24)" if ph >= 18 else "middle (7-17)" if ph >= 7 else "endgame (0-6)"
    buckets[key].append(d)
for k, v in buckets.items():
    if v: print(f"{k}: n={len(v)} mean {statistics.mean(v):.0f} median {statistics.median(v):.0f}")

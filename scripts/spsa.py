#!/usr/bin/env python3
"""SPSA on one machine: tune a few search tunables of the `spsa` build by
game pairs, with the whole state in a JSON file that can be committed and
continued later (on another machine, with another build of the same
tunables).

    # start a run on 4 tunables (ranges and steps from `shears-spsa spsa`)
    python3 scripts/spsa.py init docs/spsa/margins.json --engine ./shears-spsa \\
        --param RFP_MARGIN --param FP_MARGIN --param FP_BASE_MARGIN \\
        --param PROBCUT_MARGIN --iterations 2000 --tc 2+0.02
    # play (stop it at any time: the state is saved after every batch)
    python3 scripts/spsa.py run docs/spsa/margins.json --engine ./shears-spsa \\
        --pairs 200 --concurrency 2
    # where it stands
    python3 scripts/spsa.py show docs/spsa/margins.json

The method is OpenBench's form of SPSA (Spall's simultaneous perturbation),
written here from the published formulas. For iteration k of N (k from 0):

    c_k = C / (k + 1)^gamma          C = c_end * N^gamma
    a_k = a / (A + k + 1)^alpha      a = a_end * (A + N)^alpha,  a_end = r_end * c_end^2

Every tunable gets a random sign d = +1 or -1; one engine plays with
value + c_k * d, the other with value - c_k * d (both rounded to the
tunable's integers and kept in its range), two games from one opening with
colours swapped. With r = wins - losses of the "+" engine (-2 … 2) each
value moves by a_k * r * d / c_k, so at the end of the run a game pair moves
a value by at most 2 * r_end * c_end. `c_end` is the tunable's step and
`r_end` its learning rate as `shears spsa` prints them; `--r-end` overrides
the latter (on two cores a run is short, so a larger rate than OpenBench's
0.002 is usual).

A batch plays --concurrency pairs at once from the same values (as the
workers of a distributed run do) and applies their updates one by one;
the state file is rewritten (atomically) after each batch, so `run` after a
stop continues at the next iteration. The openings are drawn by fastchess
from the book with a seed made of the run's seed and the iteration, so a
run is repeatable up to the games' own timing noise.

SPSA on two cores is a direction finder (issue 38): confirm what it finds
with an SPRT and at 10+0.1 before it changes a default.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import tempfile

from match_logs import last_games

DEFAULT_FASTCHESS = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "tools", "bin", "fastchess")
DEFAULT_BOOK = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "openings", "8moves_v3_min.pgn")



def read_specs(engine):
    """The tunables the build offers: name -> (value, min, max, c_end, r_end)."""
    out = subprocess.run([engine, "spsa"], capture_output=True, text=True, check=True).stdout
    specs = {}
    for line in out.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            continue
        name, _, value, lo, hi, c_end, r_end = fields
        specs[name] = (int(value), int(lo), int(hi), float(c_end), float(r_end))
    uci = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True).stdout
    options = set(re.findall(r"^option name (\S+)", uci, re.MULTILINE))
    specs = {name: spec for name, spec in specs.items() if name in options}
    if not specs:
        sys.exit(f"error: {engine} offers no tunable as a UCI option "
                 "(a build with --features spsa does)")
    return specs


def save(path, state):
    """Writes the state through a temporary file, so a stop never leaves half a file."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".spsa-")
    head = {key: v for key, v in state.items() if key != "history"}
    text = json.dumps(head, indent=1)[:-2]
    rows = ",\n  ".join(json.dumps(row) for row in state["history"])
    text += f',\n "history": [\n  {rows}\n ]\n}}\n' if rows else ',\n "history": []\n}\n'
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(tmp, 0o644)  # mkstemp's 0600 would make a committed state private
    os.replace(tmp, path)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"error: cannot read the state {path}: {e}")


def gains(state, k):
    """(c_k, a_k / c_k) for each tunable at iteration k."""
    n, big_a = state["iterations"], state["A"]
    alpha, gamma = state["alpha"], state["gamma"]
    out = {}
    for name, p in state["params"].items():
        c = p["c_end"] * n ** gamma
        a = p["r_end"] * p["c_end"] ** 2 * (big_a + n) ** alpha
        c_k = c / (k + 1) ** gamma
        a_k = a / (big_a + k + 1) ** alpha
        out[name] = (c_k, a_k / c_k)
    return out


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


def perturbation(state, k):
    """Iteration k's random signs (+1/-1 by tunable, from the run's seed
    and k alone) and the values of the "+" and "-" engines."""
    rng = random.Random(state["seed"] * 7919 + k)
    g = gains(state, k)
    signs, plus, minus = {}, {}, {}
    for name, p in state["params"].items():
        signs[name] = rng.choice((-1, 1))
        shift = g[name][0] * signs[name]
        plus[name] = clamp(round(p["value"] + shift), p["min"], p["max"])
        minus[name] = clamp(round(p["value"] - shift), p["min"], p["max"])
    return signs, plus, minus


def update(state, k, signs, r):
    """Moves the values by iteration k's result r (wins - losses of "+")
    and logs it."""
    g = gains(state, k)
    for name, p in state["params"].items():
        p["value"] = clamp(p["value"] + g[name][1] * r * signs[name], p["min"], p["max"])
    state["history"].append(
        [k, r] + [round(p["value"], 3) for p in state["params"].values()])


def clock(tc):
    """fastchess's words for a time control, or for `nodes=N` (a fixed
    node count a move, no clock)."""
    return [tc, "tc=inf"] if tc.startswith("nodes=") else [f"tc={tc}"]


def play_pair(args, state, k, plus, minus):
    """Two games, colours swapped, "+" against "-"; wins minus losses of "+"."""
    def options(values):
        return [f"option.{name}={v}" for name, v in values.items()]
    cmd = [args.fastchess,
           "-engine", f"cmd={args.engine}", "name=plus", *options(plus),
           "-engine", f"cmd={args.engine}", "name=minus", *options(minus),
           "-each", *clock(state["tc"]), "proto=uci", f"option.Hash={state['hash']}",
           "option.Threads=1",
           "-openings", f"file={args.book}",
           "format=epd" if args.book.endswith(".epd") else "format=pgn", "order=random",
           "-srand", str(state["seed"] * 1_000_003 + k),
           "-repeat", "-games", "2", "-rounds", "1", "-concurrency", "1"]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    found = last_games(out)
    if not found or found[0] != 2:
        raise RuntimeError(f"iteration {k}: fastchess did not report two games:\n{out[-2000:]}")
    _, wins, losses, _ = found
    return wins - losses


def run(args):
    state = load(args.state)
    specs = read_specs(args.engine)
    missing = [n for n in state["params"] if n not in specs]
    if missing:
        sys.exit(f"error: {args.engine} has no tunable {', '.join(missing)}")
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        while done < args.pairs and state["k"] < state["iterations"]:
            batch = min(args.concurrency, args.pairs - done, state["iterations"] - state["k"])
            jobs = []
            for i in range(batch):
                k = state["k"] + i
                signs, plus, minus = perturbation(state, k)
                jobs.append((k, signs, pool.submit(play_pair, args, state, k, plus, minus)))
            try:
                results = [job.result() for _, _, job in jobs]
            except (RuntimeError, OSError) as e:
                sys.exit(f"error: {e}\n(the state stays at iteration {state['k']})")
            for (k, signs, _), r in zip(jobs, results):
                update(state, k, signs, r)
            state["k"] += batch
            done += batch
            save(args.state, state)
            values = ", ".join(f"{n} {p['value']:.2f}" for n, p in state["params"].items())
            print(f"iteration {state['k']}/{state['iterations']}: {values}", flush=True)


def init(args):
    if os.path.exists(args.state) and not args.force:
        sys.exit(f"error: {args.state} exists (continue it with `run`, or --force to start over)")
    specs = read_specs(args.engine)
    params = {}
    for name in args.param:
        key = next((s for s in specs if s.lower() == name.lower()), None)
        if key is None:
            sys.exit(f"error: {args.engine} has no tunable {name}")
        value, lo, hi, c_end, r_end = specs[key]
        params[key] = {"start": value, "value": float(value), "min": lo, "max": hi,
                       "c_end": c_end, "r_end": args.r_end if args.r_end else r_end}
    if not params:
        sys.exit("error: name at least one --param")
    state = {"iterations": args.iterations, "A": args.a_ratio * args.iterations,
             "alpha": args.alpha, "gamma": args.gamma, "tc": args.tc, "hash": args.hash,
             "seed": args.seed, "k": 0, "params": params,
             "history_columns": ["k", "wins-losses"] + list(params),
             "history": []}
    save(args.state, state)
    print(f"{args.state}: {len(params)} tunables, {args.iterations} iterations at {args.tc}")


def show(args):
    state = load(args.state)
    k, h = state["k"], state["history"]
    score = sum(row[1] for row in h)
    print(f"iteration {k}/{state['iterations']}, tc {state['tc']}, "
          f"'+' side wins minus losses over {2 * len(h)} games: {score:+d}")
    for name, p in state["params"].items():
        print(f"  {name:24} start {p['start']:6}  now {p['value']:9.2f}  "
              f"(range {p['min']}..{p['max']}, c_end {p['c_end']}, r_end {p['r_end']})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("init", help="start a run (writes the state file)")
    p.add_argument("state")
    p.add_argument("--engine", required=True, help="a build with --features spsa")
    p.add_argument("--param", action="append", default=[], help="a tunable to tune (repeat)")
    p.add_argument("--iterations", type=int, default=2000, help="game pairs in the whole run")
    p.add_argument("--tc", default="2+0.02", help="a clock (2+0.02) or nodes=N")
    p.add_argument("--hash", type=int, default=16)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--r-end", type=float, default=None, help="learning rate at the end (all tunables)")
    p.add_argument("--a-ratio", type=float, default=0.1, help="A as a share of the iterations")
    p.add_argument("--alpha", type=float, default=0.602)
    p.add_argument("--gamma", type=float, default=0.101)
    p.add_argument("--force", action="store_true")
    p.set_defaults(func=init)
    p = sub.add_parser("run", help="play game pairs and update the state")
    p.add_argument("state")
    p.add_argument("--engine", required=True)
    p.add_argument("--pairs", type=int, default=10**9, help="stop after this many pairs")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--fastchess", default=DEFAULT_FASTCHESS)
    p.add_argument("--book", default=DEFAULT_BOOK, help="openings, PGN (or EPD: *.epd)")
    p.set_defaults(func=run)
    p = sub.add_parser("show", help="print the state")
    p.add_argument("state")
    p.set_defaults(func=show)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()

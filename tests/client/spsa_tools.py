#!/usr/bin/env python3
"""Checks `scripts/spsa.py` with a build made with `--features spsa` and
fastchess, on a run of 3 game pairs at 1,500 nodes a move:

- `init` refuses a tunable the build does not have and a build whose
  tunables are constants (the normal build, when given), each with an
  error naming it, and writes no state;
- `run --pairs 2` plays two pairs and stops; a second `run` continues at
  iteration 2 and stops at the run's end (3), not beyond;
- every logged pair moved each value by exactly the formula's step
  (a_k / c_k times wins minus losses, with the iteration's sign, recomputed
  here from the state through the script's own functions) and the state's
  values are the last logged ones;
- `init` on an existing state refuses to overwrite it.

Usage: python3 tests/client/spsa_tools.py SPSA-BUILD [NORMAL-BUILD]. Skips
(exit 0, saying so) when fastchess is not found ($FASTCHESS,
../shared/tools/bin beside this checkout or the one it was cloned from,
PATH). A few seconds; `.ci/run` runs it.
"""

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ left in scripts/ or tests/client/
from match_tools import find_tool  # noqa: E402 (the same search for fastchess)

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "spsa.py"
PARAMS = ["RFP_MARGIN", "LMR_DIVISOR"]
OPENINGS = """\
rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2
rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
"""


def fail(message):
    print(f"spsa_tools: FAIL: {message}")
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def script(*args):
    done = subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: spsa_tools.py SPSA-BUILD [NORMAL-BUILD]")
    spsa_build = Path(sys.argv[1]).resolve()
    normal_build = Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else None
    fastchess = find_tool("FASTCHESS", "fastchess")
    if fastchess is None:
        print("spsa_tools: skipped: fastchess not found ($FASTCHESS, ../shared/tools/bin, PATH)")
        return
    # spsa.py imports its sibling match_logs.py, found on the path as when
    # the script runs from its own folder.
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("spsa", SCRIPT)
    spsa = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(spsa)

    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "openings.epd"
        book.write_text(OPENINGS)
        state_path = Path(tmp) / "runs" / "t.json"
        init = ["init", state_path, "--engine", spsa_build, "--iterations", 3,
                "--tc", "nodes=1500", "--r-end", "0.05", "--seed", 7]
        for p in PARAMS:
            init += ["--param", p]

        code, out = script(*init[:4], "--param", "NO_SUCH_TUNABLE")
        check(code != 0 and "NO_SUCH_TUNABLE" in out and not state_path.exists(),
              f"an unknown tunable: exit {code}, {out!r}")
        if normal_build is not None:
            code, out = script("init", state_path, "--engine", normal_build, "--param", PARAMS[0])
            check(code != 0 and "spsa" in out and not state_path.exists(),
                  f"the normal build: exit {code}, {out!r}")

        code, out = script(*init)
        check(code == 0 and state_path.exists(), f"init: exit {code}, {out}")
        start = json.loads(state_path.read_text())
        check(list(start["params"]) == PARAMS and start["k"] == 0, f"init wrote {start}")

        run = ["run", state_path, "--engine", spsa_build, "--fastchess", fastchess,
               "--book", book, "--concurrency", 2]
        code, out = script(*run, "--pairs", 2)
        check(code == 0, f"run --pairs 2: exit {code}, {out}")
        state = json.loads(state_path.read_text())
        check(state["k"] == 2 and len(state["history"]) == 2,
              f"after run --pairs 2: k {state['k']}, {len(state['history'])} pairs logged")
        code, out = script(*run)
        check(code == 0, f"second run: exit {code}, {out}")
        state = json.loads(state_path.read_text())
        check(state["k"] == 3 and len(state["history"]) == 3,
              f"after the second run: k {state['k']}, {len(state['history'])} pairs logged")

        # Replay the log through the script's own formulas.
        replay = json.loads(json.dumps(start))
        for row in state["history"]:
            k, r = row[0], row[1]
            check(-2 <= r <= 2, f"iteration {k}: wins minus losses {r} of two games")
            signs, plus, minus = spsa.perturbation(replay, k)
            for name in PARAMS:
                check((plus[name] - minus[name]) * signs[name] > 0,
                      f"iteration {k}: {name} + {plus[name]}, - {minus[name]}, sign {signs[name]}")
            spsa.update(replay, k, signs, r)
            expected = [round(replay["params"][n]["value"], 3) for n in PARAMS]
            check(row[2:] == expected, f"iteration {k}: logged {row[2:]}, the formula gives {expected}")
        for name in PARAMS:
            got, want = state["params"][name]["value"], replay["params"][name]["value"]
            check(abs(got - want) < 1e-9, f"{name}: state {got}, replay {want}")
        decisive = sum(abs(row[1]) for row in state["history"])
        code, out = script(*init)
        check(code != 0 and "exists" in out, f"init over a state: exit {code}, {out!r}")
        print(f"spsa_tools: ok: 3 pairs at 1,500 nodes (|wins − losses| {decisive} summed over the pairs), "
              f"resumed after 2, every step as the formula gives")


if __name__ == "__main__":
    main()

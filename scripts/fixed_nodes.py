#!/usr/bin/env python3
"""A screen at a fixed number of nodes a move: a build against a baseline
under fastchess, each move searched to NODES nodes (the evaluation screens
of docs/strength.md: same work a move for both, whatever their speed).

Usage:

    python3 scripts/fixed_nodes.py [OPTIONS] NAME NEW BASE ROUNDS NODES [FASTCHESS-ARG ...]

plays NEW against BASE with `nodes=NODES` under a 60+1 clock (`--clock` for
another: loose enough that no game is lost on time on a busy machine, though
a machine whose builds starve the engines needs a longer one), both one thread and Hash
16, ROUNDS rounds of two games (each opening once with each colour),
openings from `8moves_v3_min.pgn` in random order, two games at a time,
`-recover`; arguments after NODES go to fastchess as they are (`-srand
4101`, `-sprt elo0=-5 elo1=5 alpha=0.05 beta=0.05`). The games go to
`matches/NAME.pgn`, fastchess's output to `matches/NAME.log`. Engines,
fastchess and the openings are found as scripts/match.py finds them (a bare
name is looked up in `../bin`), `--new-option NAME=VALUE` and
`--base-option NAME=VALUE` set a UCI option of one side only (two nets of
one binary: `--new-option "Use NNUE=true" --new-option EvalFile=A.nnue`),
and `--dry-run` prints the command only.

    python3 scripts/fixed_nodes.py o2_n20 shears-o2 shears-main 200 20000 -srand 4101
"""

from __future__ import annotations

import argparse
import sys

from match import common_options, fastchess_command, positive, run, side_fields, side_options

CLOCK = "60+1"
HASH_MB = 16


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="NEW against BASE at a fixed number of nodes a move, under fastchess",
        epilog="Arguments after NODES go to fastchess unchanged (-srand N, -sprt ...).")
    common_options(parser)
    side_options(parser)
    parser.add_argument("--clock", default=CLOCK, metavar="TC",
                        help=f"the game clock behind the node limit (default {CLOCK}; a longer one "
                             "keeps a loaded machine from losing games on time)")
    parser.add_argument("name", metavar="NAME", help="the match's name (its PGN and log)")
    parser.add_argument("new", metavar="NEW", help="the build measured")
    parser.add_argument("base", metavar="BASE", help="the build it is measured against")
    parser.add_argument("rounds", metavar="ROUNDS", type=positive, help="rounds of two games")
    parser.add_argument("nodes", metavar="NODES", type=positive, help="nodes a move")
    parser.add_argument("extra", metavar="FASTCHESS-ARG", nargs=argparse.REMAINDER,
                        help="passed to fastchess")
    args = parser.parse_args(argv)
    command = fastchess_command(
        args,
        side_fields(parser, args),
        [f"tc={args.clock}", f"nodes={args.nodes}", f"option.Hash={HASH_MB}", "option.Threads=1"],
        args.rounds,
        args.extra,
    )
    return run(args, command)


if __name__ == "__main__":
    sys.exit(main())

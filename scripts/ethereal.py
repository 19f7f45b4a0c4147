#!/usr/bin/env python3
"""Shears against Ethereal 12 under fastchess: the gauntlet rows of the
strength log (docs/strength.md § Against other engines).

Usage:

    python3 scripts/ethereal.py [OPTIONS] NAME SHEARS ROUNDS [TC] [FASTCHESS-ARG ...]

plays SHEARS against Ethereal 12 (`--ethereal`, default Debian's
`/usr/games/ethereal-chess`: `apt-get install ethereal-chess`), both one
thread and Hash 64, at TC (default 10+0.1), ROUNDS rounds of two games
(each opening once with each colour), openings from `8moves_v3_min.pgn` in
random order, two games at a time, `-recover`; arguments after TC go to
fastchess as they are (`-srand 4002`). The games go to `matches/NAME.pgn`,
fastchess's output to `matches/NAME.log`. SHEARS, fastchess and the
openings are found as scripts/match.py finds them (a bare name is looked up
in `../bin`), and `--dry-run` prints the command only.

    python3 scripts/ethereal.py eth_main shears-main 100
"""

from __future__ import annotations

import argparse
import sys

from match import common_options, engine_path, fastchess_command, positive, run

DEFAULT_ETHEREAL = "/usr/games/ethereal-chess"
DEFAULT_TC = "10+0.1"
HASH_MB = 64


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Shears against Ethereal 12 under fastchess, Hash 64 both",
        epilog="TC may be left out (10+0.1); what follows it goes to fastchess unchanged.")
    common_options(parser)
    parser.add_argument("--ethereal", default=DEFAULT_ETHEREAL,
                        help=f"the Ethereal binary (default: {DEFAULT_ETHEREAL})")
    parser.add_argument("name", metavar="NAME", help="the match's name (its PGN and log)")
    parser.add_argument("shears", metavar="SHEARS", help="the Shears build")
    parser.add_argument("rounds", metavar="ROUNDS", type=positive, help="rounds of two games")
    parser.add_argument("rest", metavar="[TC] FASTCHESS-ARG", nargs=argparse.REMAINDER,
                        help="the time control (default 10+0.1), then fastchess's arguments")
    args = parser.parse_args(argv)
    rest = list(args.rest)
    tc = rest.pop(0) if rest and not rest[0].startswith("-") else DEFAULT_TC
    shears = engine_path(args.shears, args.bin_dir)
    command = fastchess_command(
        args,
        [[f"cmd={shears}", "name=Shears"], [f"cmd={args.ethereal}", "name=Ethereal"]],
        [f"tc={tc}", f"option.Hash={HASH_MB}", "option.Threads=1"],
        args.rounds,
        rest,
    )
    return run(args, command)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A build against a baseline under fastchess: the match of the strength log
(docs/strength.md).

Usage:

    python3 scripts/match.py [OPTIONS] NAME NEW BASE TC ROUNDS HASH [FASTCHESS-ARG ...]

plays NEW against BASE, both one thread and Hash HASH (MB), at the time
control TC (`10+0.1`: seconds plus increment), ROUNDS rounds of two games
(each opening once with each colour), openings from `8moves_v3_min.pgn` in
random order, two games at a time, `-recover`. Arguments after HASH go to
fastchess as they are: `-srand 3838`, `-sprt elo0=0 elo1=10 alpha=0.05
beta=0.05`. The games are written to `matches/NAME.pgn` and fastchess's
output, as it prints it, to `matches/NAME.log` (`--out` moves the folder).

NEW and BASE are engine binaries. A bare name (no `/`) that is not a file
in the working directory is looked up in `--bin-dir` (default `../bin`
beside the repository), where the log's builds are kept:

    mkdir -p ../bin && make EXE="$PWD/../bin/shears-new"
    git worktree add ../shears-ddc7803 ddc7803 && make -C ../shears-ddc7803 EXE="$PWD/../bin/shears-ddc7803"
    python3 scripts/match.py final38 shears-new shears-ddc7803 10+0.1 200 64 -srand 3838

fastchess is `--fastchess`, else $FASTCHESS, else `../shared/tools/bin/fastchess`
beside the repository, else `fastchess` on the PATH; the openings are
`--openings`, else `../shared/openings/8moves_v3_min.pgn` beside the
repository. `--new-option NAME=VALUE` and `--base-option NAME=VALUE`
(repeatable) set a UCI option of one side only: the same binary with and
without tables is

    python3 scripts/match.py --new-option SyzygyPath=../shared/syzygy tables \
        target/release/shears target/release/shears 10+0.1 200 64

(the two sides are named `new` and `base` when they are one binary).
`--dry-run` prints the command and runs nothing.

scripts/ethereal.py (Shears against Ethereal 12) and scripts/fixed_nodes.py
(screens at a fixed number of nodes a move) build their commands here.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_FASTCHESS = REPO / ".." / "shared" / "tools" / "bin" / "fastchess"
DEFAULT_OPENINGS = (REPO / ".." / "shared" / "openings" / "8moves_v3_min.pgn").resolve()
DEFAULT_BIN_DIR = (REPO / ".." / "bin").resolve()
CONCURRENCY = 2


def common_options(parser: argparse.ArgumentParser) -> None:
    """The options every match script takes (before its positionals)."""
    parser.add_argument("--fastchess", help="the fastchess binary (default: $FASTCHESS, "
                        "else ../shared/tools/bin/fastchess, else fastchess on the PATH)")
    parser.add_argument("--openings", default=str(DEFAULT_OPENINGS),
                        help="openings, a PGN (or an EPD when the name ends in .epd; "
                        "default: ../shared/openings/8moves_v3_min.pgn)")
    parser.add_argument("--bin-dir", default=str(DEFAULT_BIN_DIR),
                        help="where bare engine names are looked up (default: ../bin)")
    parser.add_argument("--out", default="matches",
                        help="folder of NAME.pgn and NAME.log (default: matches)")
    parser.add_argument("--concurrency", type=int, default=CONCURRENCY,
                        help=f"games at once (default: {CONCURRENCY})")
    parser.add_argument("--dry-run", action="store_true", help="print the command, run nothing")


def side_options(parser: argparse.ArgumentParser) -> None:
    """`--new-option` and `--base-option`: UCI options of one side only."""
    parser.add_argument("--new-option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option of NEW only (repeatable)")
    parser.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option of BASE only (repeatable)")


def side_fields(parser: argparse.ArgumentParser, args) -> list[list[str]]:
    """The two `-engine` field lists of NEW and BASE: the command, the
    name, and each side's own options."""
    for option in args.new_option + args.base_option:
        if "=" not in option:
            parser.error(f"{option}: give an option as NAME=VALUE")
    new, base = engine_path(args.new, args.bin_dir), engine_path(args.base, args.bin_dir)
    new_name, base_name = engine_names(new, base)
    new_fields = [f"cmd={new}", f"name={new_name}", *(f"option.{o}" for o in args.new_option)]
    base_fields = [f"cmd={base}", f"name={base_name}", *(f"option.{o}" for o in args.base_option)]
    return [new_fields, base_fields]


def fastchess_binary(given: str | None) -> str:
    """The fastchess to run: as given, else $FASTCHESS, else the shared one,
    else the PATH's."""
    if given:
        return given
    if os.environ.get("FASTCHESS"):
        return os.environ["FASTCHESS"]
    if DEFAULT_FASTCHESS.exists():
        return str(DEFAULT_FASTCHESS.resolve())
    return shutil.which("fastchess") or "fastchess"


def engine_path(name: str, bin_dir: str) -> str:
    """An engine argument as a path: a bare name that is not a file here
    is taken from `bin_dir`."""
    if "/" in name or Path(name).exists():
        return name
    return str(Path(bin_dir) / name)


def engine_names(first: str, second: str) -> tuple[str, str]:
    """Names for the PGN: the binaries' file names, `new` and `base` when
    they are the same."""
    a, b = Path(first).name, Path(second).name
    return (a, b) if a != b else ("new", "base")


def fastchess_command(args, engines: list[list[str]], each: list[str], rounds: int,
                      extra: list[str]) -> list[str]:
    """The whole fastchess command line: `engines` are each engine's
    `-engine` fields, `each` the `-each` fields besides the protocol."""
    command = [fastchess_binary(args.fastchess)]
    for fields in engines:
        command += ["-engine", *fields]
    command += ["-each", "proto=uci", *each]
    book_format = "epd" if str(args.openings).endswith(".epd") else "pgn"
    command += ["-openings", f"file={args.openings}", f"format={book_format}", "order=random"]
    command += ["-repeat", "-games", "2", "-rounds", str(rounds)]
    command += ["-concurrency", str(args.concurrency), "-recover"]
    command += ["-pgnout", f"file={Path(args.out) / (args.name + '.pgn')}"]
    return command + extra


def run(args, command: list[str]) -> int:
    """Prints the command; unless a dry run, runs it with its output shown
    and copied to `NAME.log`. Returns fastchess's exit code."""
    print(shlex.join(command), flush=True)
    if args.dry_run:
        return 0
    Path(args.out).mkdir(parents=True, exist_ok=True)
    log_path = Path(args.out) / f"{args.name}.log"
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, errors="replace")
    except OSError as e:
        sys.exit(f"cannot start {command[0]}: {e}")
    with open(log_path, "a", encoding="utf-8") as log:
        log.write("$ " + shlex.join(command) + "\n")
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            log.write(line)
            log.flush()
    return process.wait()


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: must be at least 1")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="NEW against BASE under fastchess, the strength log's match",
        epilog="Arguments after HASH go to fastchess unchanged (-srand N, -sprt ...).")
    common_options(parser)
    side_options(parser)
    parser.add_argument("name", metavar="NAME", help="the match's name (its PGN and log)")
    parser.add_argument("new", metavar="NEW", help="the build measured")
    parser.add_argument("base", metavar="BASE", help="the build it is measured against")
    parser.add_argument("tc", metavar="TC", help="time control, seconds+increment (10+0.1)")
    parser.add_argument("rounds", metavar="ROUNDS", type=positive, help="rounds of two games")
    parser.add_argument("hash", metavar="HASH", type=positive, help="Hash of both, MB")
    parser.add_argument("extra", metavar="FASTCHESS-ARG", nargs=argparse.REMAINDER,
                        help="passed to fastchess")
    args = parser.parse_args(argv)
    command = fastchess_command(
        args,
        side_fields(parser, args),
        [f"tc={args.tc}", f"option.Hash={args.hash}", "option.Threads=1"],
        args.rounds,
        args.extra,
    )
    return run(args, command)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Plays the strength ladder of issue 16: Shears' `UCI_Elo` levels against
the anchors (Debian engines with known CCRL Blitz ratings) nearest to them,
against their neighbouring levels, against Stockfish's own `UCI_Elo` levels
(a cross-check, not anchors), and Shears at full strength against every
anchor. One PGN per pairing; `strength_fit.py` rates them all at once.

    python3 scripts/strength_ladder.py --plan        # what would be played, and how long
    python3 scripts/strength_ladder.py               # play (resumable)
    python3 scripts/strength_ladder.py --dry-run     # the commands, not run

Everything comes from the config (scripts/strength_ladder.json): the time
control, the openings, the levels, the anchors and their ratings, and the
number of games of each kind of pairing:

- level L against each anchor within `anchor_reach` Elo of L
  (`games_vs_anchor`);
- each level against the next one up (`games_vs_level`), so that levels
  far from any anchor are linked to one through the others;
- each Stockfish level against the Shears levels within `anchor_reach` of
  its label (`games_vs_cross_check`);
- Shears at full strength against every anchor (`games_full_vs_anchor`)
  and against the top level (`games_vs_level`).

UCI pairs run under fastchess, pairs with an xboard engine (HoiChess,
Phalanx) under cutechess-cli; every game starts from a random opening of
the book and each opening is played with both colours. **Resumable**: the
games already in a pairing's PGN are counted and only the rest are played
(with another opening seed), so stopping the script (Ctrl-C) and running
it again loses at most the games in progress. Standard library only.
"""

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from match_logs import read_tags
from strength_fit import counts

REPO = Path(__file__).resolve().parents[1]
# Wall time of one 10+0.1 game, for the plan's estimate: the mean
# GameDuration of our 10+0.1 fastchess games at concurrency 2 (27.6 s in
# self-play, 31.1 s against Ethereal).
GAME_SECONDS_AT_10_0_1 = 29.0


class Player:
    """An engine as the runners start it."""

    def __init__(self, name, cmd, proto="uci", args=(), options=None, elo=None):
        self.name = name
        self.cmd = cmd
        self.proto = proto
        self.args = list(args)
        self.options = dict(options or {})
        self.elo = elo

    def __repr__(self):
        return f"Player({self.name})"


def resolve(path):
    """A config path: absolute, or relative to the repository."""
    p = Path(path)
    return str(p if p.is_absolute() else (REPO / p))


def players(config, shears=None):
    """Every player of the config, by name: the Shears levels
    (`Shears-<UCI_Elo>`), `Shears-full`, the anchors and the cross-checks."""
    binary = resolve(shears or config["shears"])
    hash_mb = str(config.get("hash", 16))
    out = {}
    for level in config["levels"]:
        out[f"Shears-{level}"] = Player(
            f"Shears-{level}", binary, options={
                "Hash": hash_mb, "UCI_LimitStrength": "true", "UCI_Elo": str(level)},
            elo=level)
    out["Shears-full"] = Player("Shears-full", binary, options={"Hash": hash_mb})
    for name, a in config["anchors"].items():
        out[name] = Player(name, a["cmd"], a.get("proto", "uci"), a.get("args", []),
                           a.get("options"), a["elo"])
    for name, c in config.get("cross_checks", {}).items():
        out[name] = Player(name, c["cmd"], c.get("proto", "uci"), c.get("args", []),
                           c.get("options"), c["label"])
    return out


def schedule(config):
    """The pairings: (first, second, games), in the order they are played
    (the anchors' games first, then the links between levels). A config
    with a `pairings` list ([first, second, games] each) plays exactly
    those instead."""
    if "pairings" in config:
        return [(a, b, int(g)) for a, b, g in config["pairings"]]
    s = config["schedule"]
    reach = s["anchor_reach"]
    levels = sorted(config["levels"])
    pairs = []
    for level in levels:
        for name, a in sorted(config["anchors"].items(), key=lambda kv: kv[1]["elo"]):
            if abs(a["elo"] - level) <= reach:
                pairs.append((f"Shears-{level}", name, s["games_vs_anchor"]))
    for name in sorted(config["anchors"], key=lambda n: config["anchors"][n]["elo"]):
        pairs.append(("Shears-full", name, s["games_full_vs_anchor"]))
    for low, high in zip(levels, levels[1:]):
        pairs.append((f"Shears-{low}", f"Shears-{high}", s["games_vs_level"]))
    if levels:
        pairs.append((f"Shears-{levels[-1]}", "Shears-full", s["games_vs_level"]))
    for name, c in config.get("cross_checks", {}).items():
        for level in levels:
            if abs(c["label"] - level) <= reach:
                pairs.append((f"Shears-{level}", name, s["games_vs_cross_check"]))
    return pairs


def pgn_path(out, first, second):
    """The PGN of a pairing."""
    return Path(out) / "pgn" / f"{first}_vs_{second}.pgn"


def games_done(path):
    """Rated games in a PGN (0 when it does not exist): those
    `strength_fit.py` rates (finished, both players named, not abandoned:
    an engine that crashed or did not answer at a game's start), so that
    the others are played again."""
    if not Path(path).exists():
        return 0
    return sum(1 for tags in read_tags(path) if counts(tags))


def engine_args(player, tool):
    """The `-engine …` arguments of a player for `tool` (fastchess or
    cutechess)."""
    out = ["-engine", f"cmd={player.cmd}", f"name={player.name}"]
    if tool == "cutechess":
        out.append(f"proto={player.proto}")
        out += [f"arg={a}" for a in player.args]
    elif player.args:
        out.append("args=" + " ".join(player.args))
    out += [f"option.{k}={v}" for k, v in player.options.items()]
    return out


def command(config, first, second, games, seed, pgn):
    """The runner's command line that plays `games` more games (rounded up
    to whole opening pairs) of `first` against `second` into `pgn`."""
    uci = first.proto == "uci" and second.proto == "uci"
    tool = "fastchess" if uci else "cutechess"
    rounds = max(1, math.ceil(games / 2))
    cmd = [resolve(config[tool])]
    cmd += engine_args(first, tool) + engine_args(second, tool)
    if tool == "fastchess":
        cmd += ["-each", f"tc={config['tc']}", "proto=uci"]
        cmd += ["-openings", f"file={resolve(config['openings'])}", "format=pgn", "order=random"]
        cmd += ["-repeat", "-rounds", str(rounds), "-concurrency", str(config["concurrency"])]
        cmd += ["-srand", str(seed), "-recover", "-pgnout", f"file={pgn}"]
    else:
        cmd += ["-each", f"tc={config['tc']}"]
        cmd += ["-openings", f"file={resolve(config['openings'])}", "format=pgn", "order=random"]
        cmd += ["-games", "2", "-repeat", "-rounds", str(rounds)]
        cmd += ["-concurrency", str(config["concurrency"]), "-srand", str(seed), "-recover"]
        cmd += ["-pgnout", str(pgn)]
    return cmd


def plan(config, out, shears=None):
    """(first, second, wanted, done, command or None) for every pairing."""
    roster = players(config, shears)
    rows = []
    for index, (a, b, wanted) in enumerate(schedule(config)):
        path = pgn_path(out, a, b)
        done = games_done(path)
        left = wanted - done
        # Another opening seed for every resumption of every pairing.
        seed = 1 + index * 100_000 + done
        cmd = command(config, roster[a], roster[b], left, seed, path) if left > 0 else None
        rows.append((a, b, wanted, done, cmd))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(Path(__file__).with_name("strength_ladder.json")))
    parser.add_argument("--out", default=str(REPO / "ladder"), help="PGNs and logs (default: ladder/)")
    parser.add_argument("--shears", help="the engine to rate (default: the config's)")
    parser.add_argument("--plan", action="store_true", help="list the pairings and the time left")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    parser.add_argument("--only", help="only pairings whose names contain this")
    args = parser.parse_args(argv)
    with open(args.config, encoding="utf-8") as f:
        config = json.load(f)
    rows = [r for r in plan(config, args.out, args.shears)
            if not args.only or args.only in f"{r[0]}_vs_{r[1]}"]
    left = sum(max(w - d, 0) for _, _, w, d, _ in rows)
    if args.plan:
        for a, b, wanted, done, _ in rows:
            print(f"{a:>16} vs {b:<16} {done:4}/{wanted} games")
        hours = left * GAME_SECONDS_AT_10_0_1 / config["concurrency"] / 3600
        print(f"{len(rows)} pairings, {sum(w for _, _, w, _, _ in rows)} games, {left} to play: "
              f"about {hours:.1f} h at concurrency {config['concurrency']} ({config['tc']})")
        return 0
    for a, b, wanted, done, cmd in rows:
        if cmd is None:
            continue
        if args.dry_run:
            print(" ".join(f"'{c}'" if " " in c else c for c in cmd))
            continue
        path = pgn_path(args.out, a, b)
        path.parent.mkdir(parents=True, exist_ok=True)
        log = Path(args.out) / "logs" / f"{a}_vs_{b}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        print(f"{a} vs {b}: {done}/{wanted} done, playing {wanted - done}", flush=True)
        with open(log, "a", encoding="utf-8") as out:
            code = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT)
        if code != 0:
            print(f"  the runner exited with {code}: see {log}", file=sys.stderr)
            return 1
        print(f"  now {games_done(path)} games in {path}", flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("stopped: run again to resume", file=sys.stderr)
        sys.exit(130)

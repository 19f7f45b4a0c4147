"""What the match runners write, read in one place for every script:
fastchess's reports, a PGN file's tags and the move comments fastchess and
cutechess-cli write; and the logistic Elo of a score.

    from match_logs import last_games, last_elo, move_time, score_cp

The scripts import it from their own folder (`python3 scripts/x.py` puts
`scripts/` first on the path).
"""

from __future__ import annotations

import gzip
import math
import re

# fastchess's report of a match so far, printed again and again as the
# games come in: `Games: 200, Wins: 89, Losses: 29, Draws: 82, Points: …`
# (the first engine's wins and losses).
GAMES = re.compile(r"Games:\s*(\d+),\s*Wins:\s*(\d+),\s*Losses:\s*(\d+),\s*Draws:\s*(\d+)")
# Its Elo line: `Elo: 107.51 +/- 36.10, nElo: …` (not the nElo).
ELO = re.compile(r"\bElo:\s*([-+]?\d+(?:\.\d+)?)\s*\+/-\s*(\d+(?:\.\d+)?)")

# A PGN tag line: `[White "Shears-1800"]`.
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
# A game's result as White's score.
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}

# A move comment of fastchess or cutechess-cli: `{+0.35/12 0.512s}`, the
# mover's score in pawns and the search depth, then the move's time
# (`{book}` for a book move; `{+M5/20 …}` for a mate score).
MOVE_TIME = re.compile(r"(?:^|[\s/{])(\d+(?:\.\d+)?)s\b")
SCORE = re.compile(r"^\s*([+-]?)(\d+(?:\.\d+)?)/(\d+)\b")
MATE = re.compile(r"^\s*[+-]?M\d+/")


def last_games(text: str) -> tuple[int, int, int, int] | None:
    """(games, wins, losses, draws) of fastchess's last report in `text`,
    or None when it has none."""
    found = GAMES.findall(text)
    return tuple(int(x) for x in found[-1]) if found else None


def last_elo(text: str) -> tuple[float, float] | None:
    """Elo and its 95% half-width from fastchess's last report in `text`,
    or None when it has none."""
    found = ELO.findall(text)
    return (float(found[-1][0]), float(found[-1][1])) if found else None


def open_pgn(path):
    """A PGN file as text, plain or gzipped (a name ending in .gz)."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def tag(line: str) -> tuple[str, str] | None:
    """A tag line's name and value, or None for any other line."""
    m = TAG.match(line)
    return (m.group(1), m.group(2)) if m else None


def read_tags(path):
    """The tags of every game of a PGN file (plain or gzipped), one dict a
    game, from its tag lines alone (a game's tags end at its first line of
    movetext)."""
    tags = {}
    with open_pgn(path) as f:
        for line in f:
            found = tag(line)
            if found:
                tags[found[0]] = found[1]
            elif line.strip() and tags:
                yield tags
                tags = {}
    if tags:
        yield tags


def move_time(comment: str | None) -> float | None:
    """The seconds a move comment gives (`+0.35/12 0.512s`), else None."""
    m = MOVE_TIME.search(comment or "")
    return float(m.group(1)) if m else None


def score_cp(comment: str | None) -> int | None:
    """The mover's score in centipawns from a move comment (`+0.35/12 …`
    is 35), else None (a book move, a mate score, no comment)."""
    m = SCORE.match(comment or "")
    if not m:
        return None
    return round(float(m.group(2)) * 100) * (-1 if m.group(1) == "-" else 1)


def is_mate_score(comment: str | None) -> bool:
    """Whether a move comment gives a mate score (`+M5/20 …`)."""
    return bool(MATE.match(comment or ""))


def elo(score: float) -> float:
    """The logistic Elo difference of a score (0 to 1; kept off the ends)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)

#!/usr/bin/env python3
"""Score UCI engines on a point suite (STS) at a fixed time per position.

    python3 scripts/sts_uci.py tests/data/suites/sts1-15.epd \\
        --engine target/release/shears --engine /usr/games/ethereal-chess \\
        --movetime 200 --threads 1 --hash 64 --concurrency 2

The rules are those of `shears epd` (tools/src/suites/epd_points.rs), so that
Shears and any other engine are scored by the same code in the same run:

- the points come from `c8` (points) and `c9` (UCI moves) when both are there
  with as many entries and `c8` holds whole numbers; else from `c0` when it is
  a list `MOVE=POINTS, ...` (SAN; a `c0` whose first item is not of that shape
  is a comment); a move not listed scores 0, a move listed twice its first
  value (as fsmosca's STS Rating scores it), a position's maximum is its
  highest listed value;
- a position is solved by a `bm` move and no `am` move (by a move with the
  most points when there is neither);
- the theme is the `id` without its trailing number (`STS(v1.0)
  Undermine.001` is in `STS(v1.0) Undermine`), `(no id)` without an id;
- percentages have one decimal, rounded half up in integers.

A line that cannot be used (bad FEN, a move that does not resolve, a broken
point list) is reported with its line number and the others still run.

Each engine in turn gets --concurrency processes, each searching one position
at a time after `ucinewgame` (a fresh game per position, as `shears epd`
empties its table) with `go movetime MS` (or `go nodes N` with --nodes),
options Threads and Hash (and any --option) set once. Per engine it prints the failures with --failures (as
`shears epd` does), then one line per theme, `total: P/MAX (pct%)` and
`solved X/Y`; with several engines, a last table side by side. Exit status 0
when everything ran, 2 on bad lines (the rest still scored) or bad arguments.

Needs python-chess. On a shared machine keep --concurrency at the number of
free cores and --threads at 1.
"""

import argparse
import concurrent.futures
import shlex
import sys
import threading

import chess
import chess.engine


class LineError(Exception):
    """A suite line that cannot be used; the message says why."""


def split_outside_quotes(text, sep):
    """`text` split at `sep`, except inside double quotes."""
    parts, quoted, start = [], False, 0
    for i, c in enumerate(text):
        if c == '"':
            quoted = not quoted
        elif c == sep and not quoted:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def operand_tokens(text):
    """Whitespace-separated tokens, a quoted string being one (unquoted)."""
    tokens, rest = [], text.lstrip()
    while rest:
        if rest.startswith('"'):
            body = rest[1:]
            end = body.find('"')
            end = len(body) if end < 0 else end
            tokens.append(body[:end])
            rest = body[end + 1:].lstrip()
        else:
            word = rest.split(None, 1)
            tokens.append(word[0])
            rest = word[1].lstrip() if len(word) > 1 else ""
    return tokens


def operations(text):
    """(opcode, operand text) of each non-empty operation."""
    for op in split_outside_quotes(text, ";"):
        op = op.strip()
        if op:
            words = op.split(None, 1)
            yield words[0], (words[1].strip() if len(words) > 1 else "")


def parse_move(board, text):
    """A move in SAN (marks and 0-0 allowed) or UCI; LineError if it is not legal."""
    stripped = text.rstrip("!?")
    san = stripped.replace("0", "O") if stripped.startswith("0-0") else stripped
    try:
        return board.parse_san(san)
    except ValueError as error:
        san_error = error
    try:
        move = chess.Move.from_uci(stripped)
    except ValueError:
        move = None
    if move is not None and board.is_legal(move):
        return move
    if isinstance(san_error, chess.AmbiguousMoveError):
        raise LineError(f'ambiguous move "{text}"')
    if isinstance(san_error, chess.IllegalMoveError) or move is not None:
        raise LineError(f'illegal move "{text}"')
    raise LineError(f'cannot read move "{text}"')


def parse_points(text):
    if not text.isascii() or not text.isdigit() or int(text) >= 2**32:
        raise LineError(f'bad points "{text}"')
    return int(text)


def c0_item(item):
    """(move, points) of `MOVE=POINTS`, None if the item is not of that shape."""
    move, sep, points = item.rpartition("=")
    if not sep or not move or not points or any(c.isspace() for c in item):
        return None
    return move, parse_points(points)


def c0_items(text):
    """The items of a c0 point list, or None when c0 is a comment."""
    items = [s.strip() for s in text.split(",") if s.strip()]
    if not items or c0_item(items[0]) is None:
        return None
    out = []
    for item in items:
        pair = c0_item(item)
        if pair is None:
            raise LineError(f'c0: cannot read "{item}" (expected MOVE=POINTS)')
        out.append(pair)
    return out


def c8_c9_items(points, moves):
    points, moves = points.split(), moves.split()
    if not moves:
        raise LineError("no moves")
    if len(points) != len(moves):
        raise LineError(f"c8 has {len(points)} entries, c9 has {len(moves)}")
    return [(m, parse_points(p)) for m, p in zip(moves, points)]


def point_list(c0, c8, c9):
    """(field, [(move text, points)]) or None, by the rules in the docstring."""
    paired_error = None
    if c8 is not None and c9 is not None:
        try:
            return "c9", c8_c9_items(c8, c9)
        except LineError as error:
            paired_error = error
    items = c0_items(c0) if c0 is not None else None
    if items is not None:
        return "c0", items
    if paired_error is not None:
        raise LineError(f"c8/c9: {paired_error}")
    return None


def theme_of(name):
    stem = name.rstrip("0123456789")
    if len(stem) == len(name):
        return name
    theme = stem.rstrip(" \t.-_#:")
    return theme or name


def parse_line(line):
    """A dict for one suite line; LineError when it cannot be used."""
    fields = line.split(None, 4)
    if len(fields) < 4:
        raise LineError(f'expected 4 FEN fields, found {len(fields)} in "{line}"')
    rest = fields[4] if len(fields) > 4 else ""
    try:
        board = chess.Board(" ".join(fields[:4]) + " 0 1")
    except ValueError as error:
        raise LineError(f"invalid FEN: {error}") from None
    if not board.is_valid():
        raise LineError(f"illegal position: {board.status()!r}")
    ops = list(operations(rest))
    first = {}
    for opcode, operands in ops:
        first.setdefault(opcode, " ".join(operand_tokens(operands)))
    best, avoid, expected = [], [], []
    for opcode, operands in ops:
        if opcode in ("bm", "am"):
            tokens = operand_tokens(operands)
            if not tokens:
                raise LineError(f"{opcode} without a move")
            for text in tokens:
                try:
                    move = parse_move(board, text)
                except LineError as error:
                    raise LineError(f"{opcode}: {error}") from None
                (best if opcode == "bm" else avoid).append(move)
            expected.append(f"{opcode} {operands}")
    points = None
    listed = point_list(first.get("c0"), first.get("c8"), first.get("c9"))
    if listed is not None:
        field, items = listed
        points = {}
        for text, value in items:
            try:
                move = parse_move(board, text)
            except LineError as error:
                raise LineError(f"{field}: {error}") from None
            points.setdefault(move, value)
    if not best and not avoid:
        if points is None:
            raise LineError("no bm, am or points")
        top = max(points.values())
        best = [m for m, p in points.items() if p == top]
        expected.append("most points " + " ".join(board.san(m) for m in best))
    name = first.get("id")
    return {
        "board": board,
        "id": name,
        "theme": theme_of(name) if name is not None else "(no id)",
        "best": best,
        "avoid": avoid,
        "expected": "; ".join(expected),
        "points": points,
    }


def parse_suite(path):
    """(entries, errors): every usable line, and (line number, reason) of the others."""
    entries, errors = [], []
    with open(path, encoding="utf-8", errors="replace") as suite:
        for number, raw in enumerate(suite, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                entry = parse_line(line)
            except LineError as error:
                errors.append((number, str(error)))
                continue
            entry["line"] = number
            if entry["id"] is None:
                entry["id"] = f"line {number}"
            entries.append(entry)
    return entries, errors


def percent(got, most):
    if most == 0:
        return "-"
    tenths = (got * 1000 + most // 2) // most
    return f"{tenths // 10}.{tenths % 10}%"


def by_theme(results):
    """[theme, positions, got, max] per theme, in order of first appearance."""
    themes = {}
    for entry, _, got in results:
        if entry["points"] is None:
            continue
        row = themes.setdefault(entry["theme"], [entry["theme"], 0, 0, 0])
        row[1] += 1
        row[2] += got
        row[3] += max(entry["points"].values())
    return list(themes.values())


def report_lines(themes):
    """The table of `shears epd`: one aligned line per theme, then the total."""
    if not themes:
        return []
    name_width = max(len(t[0]) for t in themes)
    fraction_width = max(len(f"{t[2]}/{t[3]}") for t in themes)
    lines = []
    for theme, positions, got, most in themes:
        plural = "" if positions == 1 else "s"
        lines.append(
            f"{theme:<{name_width}}  {f'{got}/{most}':>{fraction_width}}  "
            f"{percent(got, most):>6}  {positions} position{plural}"
        )
    got, most = sum(t[2] for t in themes), sum(t[3] for t in themes)
    lines.append(f"total: {got}/{most} ({percent(got, most)})")
    return lines


def solved(entry, move):
    return (
        move is not None
        and (not entry["best"] or move in entry["best"])
        and move not in entry["avoid"]
    )


def failure_line(entry, move):
    found = entry["board"].san(move) if move is not None else "(none)"
    line = f"fail {entry['id']}: expected {entry['expected']} found {found}"
    if entry["points"] is not None:
        got = entry["points"].get(move, 0)
        line += f" ({got}/{max(entry['points'].values())})"
    return line


def engine_options(args):
    options = {"Threads": args.threads, "Hash": args.hash}
    for text in args.option:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise SystemExit(f"sts_uci.py: --option {text!r}: expected NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


def run_engine(command, entries, args):
    """(engine name, [(entry, move, points)]) for every entry, in file order."""
    options = engine_options(args)
    local, started, lock = threading.local(), [], threading.Lock()
    if args.nodes is not None:
        limit = chess.engine.Limit(nodes=args.nodes)
    else:
        limit = chess.engine.Limit(time=args.movetime / 1000)
    done = [0]

    def engine():
        if not hasattr(local, "engine"):
            local.engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command))
            with lock:
                first = not started
                started.append(local.engine)
            known = {k: v for k, v in options.items() if k in local.engine.options}
            for name in options.keys() - known.keys():
                if first:
                    print(f"{command}: no option {name!r}; not set", file=sys.stderr)
            local.engine.configure(known)
        return local.engine

    def search(entry):
        played = engine().play(entry["board"], limit, game=object())
        move = played.move
        got = entry["points"].get(move, 0) if entry["points"] is not None else 0
        with lock:
            done[0] += 1
            if sys.stderr.isatty():
                print(f"\r{done[0]}/{len(entries)} positions", end="", file=sys.stderr)
        return entry, move, got

    try:
        with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
            results = list(pool.map(search, entries))
        name = started[0].id.get("name", command) if started else command
    finally:
        for e in started:
            try:
                e.quit()
            except chess.engine.EngineError:
                pass  # it already died; the error that ended the run is reported
        if sys.stderr.isatty():
            print("\r", end="", file=sys.stderr)
    return name, results


def side_by_side(runs):
    """One line per theme with each engine's points, then the totals."""
    names = [name for name, _ in runs]
    tables = [{t[0]: t for t in by_theme(results)} for _, results in runs]
    themes = list(dict.fromkeys(theme for table in tables for theme in table))
    width = max([len("theme")] + [len(t) for t in themes])
    cells = [max(len(n), 16) for n in names]
    lines = ["  ".join([f"{'theme':<{width}}"] + [f"{n:>{w}}" for n, w in zip(names, cells)])]
    for theme in themes + ["total"]:
        row = [f"{theme:<{width}}"]
        for table, w in zip(tables, cells):
            rows = table.values() if theme == "total" else [table[theme]] if theme in table else []
            got, most = sum(r[2] for r in rows), sum(r[3] for r in rows)
            row.append(f"{f'{got}/{most} {percent(got, most)}':>{w}}")
        lines.append("  ".join(row))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", help="EPD file (STS: c8/c9 or c0 point lists)")
    parser.add_argument("--engine", action="append", required=True,
                        help="engine command (repeat to score several)")
    limits = parser.add_mutually_exclusive_group()
    limits.add_argument("--movetime", type=int, default=1000, help="ms per position")
    limits.add_argument("--nodes", type=int, help="nodes per position instead of a time")
    parser.add_argument("--threads", type=int, default=1, help="engine option Threads")
    parser.add_argument("--hash", type=int, default=16, help="engine option Hash (MB)")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="engine processes per engine, one position each")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="another engine option (repeatable)")
    parser.add_argument("--stride", type=int, default=1,
                        help="only every Nth usable position (a sample of every theme)")
    parser.add_argument("--limit", type=int, help="at most N positions (after --stride)")
    parser.add_argument("--failures", action="store_true",
                        help="print each failure as shears epd does")
    args = parser.parse_args()
    if min(args.movetime, args.nodes or 1, args.concurrency, args.stride) < 1:
        parser.error("--movetime, --nodes, --concurrency and --stride must be at least 1")
    try:
        entries, errors = parse_suite(args.suite)
    except OSError as error:
        print(f"sts_uci.py: {args.suite}: cannot read: {error}", file=sys.stderr)
        return 2
    for number, reason in errors:
        print(f"{args.suite}: line {number}: {reason}")
    entries = entries[:: args.stride][: args.limit]
    runs = []
    for command in args.engine:
        try:
            name, results = run_engine(command, entries, args)
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            print(f"sts_uci.py: {command}: {error}", file=sys.stderr)
            return 2
        runs.append((name, results))
        print(f"engine: {name} ({command})")
        if args.failures:
            for entry, move, _ in results:
                if not solved(entry, move):
                    print(failure_line(entry, move))
        for line in report_lines(by_theme(results)):
            print(line)
        count = sum(solved(entry, move) for entry, move, _ in results)
        print(f"solved {count}/{len(results)}")
        sys.stdout.flush()
    if len(runs) > 1:
        print()
        for line in side_by_side(runs):
            print(line)
    return 2 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

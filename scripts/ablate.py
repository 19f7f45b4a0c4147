#!/usr/bin/env python3
"""Write a copy of the evaluation weights with some weight groups set to zero.

Used to measure what a group of terms is worth in the tuned evaluation: build
the engine with the groups zeroed and play it against the full one (at fixed
nodes, so the speed of the terms does not count; their speed is measured
apart). A group zeroed leaves its term out exactly: every term is a weight
times a count, and the complexity adjustment is zero when its weights are.

    python3 scripts/ablate.py src/eval/hce/weights.rs OUT.rs SPACE COMPLEXITY ...

Exit 2 when a group name is not in the file.
"""

import re
import sys


def zeroed(text: str, groups: list[str]) -> str:
    for name in groups:
        pattern = re.compile(r"(pub const " + re.escape(name) + r": [^=]*= )(.*?);\n", re.S)
        match = pattern.search(text)
        if match is None:
            sys.exit(f"error: no weight group {name} in the weights file")
        body = re.sub(r"S\(\s*-?\d+,\s*-?\d+\)", "S(   0,    0)", match.group(2))
        text = text[: match.start(2)] + body + text[match.end(2):]
    return text


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[0] + "\nusage: ablate.py WEIGHTS OUT GROUP...")
    source, out, groups = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(source, encoding="utf-8") as f:
        text = f.read()
    with open(out, "w", encoding="utf-8") as f:
        f.write(zeroed(text, groups))


if __name__ == "__main__":
    try:
        main()
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
            sys.exit(2)
        raise

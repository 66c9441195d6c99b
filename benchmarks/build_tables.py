"""Write the verdict tables and proof costs shipped in the package (solver/results/published/) from data/*.jsonl.gz.

    python3 benchmarks/build_tables.py [--check]

One table per game and rule set, from every results file of that pair (the luck files
too), covering the game numbers 1..N they all hold. With --check nothing is written: it
says which shipped tables differ from what the files give (exit 1 if any).
"""

from __future__ import annotations

import argparse
import json
import sys
from itertools import chain
from pathlib import Path

from wedlock.results import proof_costs
from wedlock.results.records import iter_results
from wedlock.results.tables import build, file_name

ROOT = Path(__file__).resolve().parent.parent
DATA, TABLES = ROOT / "data", ROOT / "solver" / "results" / "published"


def pairs() -> dict[tuple[str, str], list[Path]]:
    """The results files of each game and rule set, by the first record of each."""
    out: dict[tuple[str, str], list[Path]] = {}
    for path in sorted(DATA.glob("*.jsonl.gz")):
        first = next(iter_results(path))
        out.setdefault((first["game"], first["rules"]), []).append(path)
    return out


def settle(target: Path, data: bytes, line: str, check: bool) -> bool:
    """Write `data` to `target`, or with `check` compare them; say `line`. Whether they differ."""
    if check:
        same = target.exists() and target.read_bytes() == data
        print(("same  " if same else "DIFFERS ") + line)
        return not same
    TABLES.mkdir(exist_ok=True)
    target.write_bytes(data)
    print(line)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    differ = 0
    for (game, rules), paths in pairs().items():
        records = chain.from_iterable(iter_results(p) for p in paths)
        table = build(game, rules, records, [f"data/{p.name}" for p in paths])
        target = TABLES / file_name(game, rules)
        data = table.to_bytes()
        counts = table.counts()
        line = f"{target.name}: games 1-{table.last:,}, {counts['won']:,} won, {counts['lost']:,} lost, {counts['unknown']:,} unknown, {len(data):,} bytes"
        differ += settle(target, data, line, args.check)
    costs = proof_costs.dear(chain.from_iterable(iter_results(p) for p in sorted(DATA.glob("*.jsonl.gz"))))
    target = TABLES / proof_costs.FILE
    line = f"{target.name}: {sum(len(v) for v in costs.values())} deals dearer than solve's defaults"
    differ += settle(target, (json.dumps(costs, indent=1, sort_keys=True) + "\n").encode(), line, args.check)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

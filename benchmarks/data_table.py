"""Print the win-rate table of data/README.md from the results files in data/.

    python3 benchmarks/data_table.py data/*.jsonl.gz

Files are named GAME-RULES-A-B.jsonl.gz; each row says the command that reproduces it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.batch import read_results  # noqa: E402
from solver.stats import summarize  # noqa: E402

NAME = re.compile(r"(?P<game>[a-z-]+?)-(?P<rules>[a-z0-9]+)-(?P<a>\d+)-(?P<b>\d+)\.jsonl(\.gz)?$")


def main() -> None:
    print("| game | rules | games | deals | won | lost | unknown | win rate | 95% interval | median s | worst s | command |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in sys.argv[1:]:
        path = Path(name)
        if "-luck-" in path.name:
            continue  # batch --analyze files: benchmarks/luck_table.py
        match = NAME.match(path.name)
        if not match:
            raise SystemExit(f"{path.name}: expected GAME-RULES-A-B.jsonl.gz")
        (s,) = summarize(read_results(path))
        a, b = match["a"], match["b"]
        complete = "" if s.deals == int(b) - int(a) + 1 else f" (first {s.deals:,} done)"
        limit = {"monte-carlo/weddings": " --time-limit 120", "matrimony/pysol": " --time-limit 10"}.get(f"{s.game}/{s.rules}", "")
        command = f"`wedlock batch {s.game} {a}-{b} --rules {s.rules}{limit} --out {path.stem} --resume`"
        print(
            f"| {s.game} | {s.rules} | {int(a):,}-{int(b):,}{complete} | {s.deals:,} | {s.won:,} | {s.lost:,} | {s.unknown:,} "
            f"| {100 * s.win_rate:.3f}% | {100 * s.low:.3f}% - {100 * s.high:.3f}% | {s.median_seconds:.4f} | {s.worst_seconds:.2f} | {command} |"
        )


if __name__ == "__main__":
    main()

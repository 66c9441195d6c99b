"""The hardest PySolFC Matrimony deals of 1-1,000, solved at the default limits: what each costs.

    python3 benchmarks/hard_deals.py            # the 15 deals that took over 10 minutes, or never ended
    python3 benchmarks/hard_deals.py 102 137    # these game numbers

Each deal is solved in a process of its own, as `wedlock solve matrimony N` does it (the
quick stages' beams, then the exact search, within `--max-states` 20,000,000 and no time
limit), so that its peak memory is its own. A win is replayed by the referee. The table
says which stage won, or, for a deal left unknown, how far the exact search got.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Games 1-1,000 that took over 10 minutes, or never ended, in pure Python (data/README.md).
HARD = (15, 48, 102, 107, 137, 211, 319, 364, 394, 407, 439, 473, 484, 763, 811)

ONE_DEAL = """
import json, resource, sys, time
from wedlock.basics import compiled as core
from wedlock.games.matrimony import GAME
from wedlock.games.matrimony.rules import RULE_SETS
from wedlock.search.exhaustive import Limits
rules = RULE_SETS["pysol"]
cards = GAME.numbered_deal(rules, sys.argv[1])
started = time.perf_counter()
out = GAME.solve(rules, cards, Limits())
took = time.perf_counter() - started
won = out.verdict == "won" and GAME.referee(rules, cards, out.moves).won
print(json.dumps({"verdict": str(out.verdict), "replayed": won, "seconds": took, "states": out.states,
                  "found_by": out.found_by, "reason": out.reason, "core": core.description(),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("numbers", type=int, nargs="*", default=list(HARD))
    args = parser.parse_args()
    rows = []
    for number in args.numbers:
        done = subprocess.run([sys.executable, "-c", ONE_DEAL, str(number)], capture_output=True, text=True, cwd=ROOT, check=False)
        if done.returncode:
            raise SystemExit(f"game {number}: {done.stderr.strip().splitlines()[-1]}")
        row = json.loads(done.stdout.strip().splitlines()[-1])
        if row["verdict"] == "won" and not row["replayed"]:
            raise SystemExit(f"game {number}: the referee rejects the winning line")
        rows.append((number, row))
        print(f"game {number}: {row['verdict']} in {row['seconds']:.0f} s", file=sys.stderr, flush=True)
    print(f"Matrimony (PySolFC), default limits, one process a deal; {rows[0][1]['core'] if rows else ''}")
    print("| game | verdict | seconds | states | peak MB | won by, or why it stopped |")
    print("|---|---|---|---|---|---|")
    for number, row in rows:
        how = row["found_by"] or row["reason"]
        print(f"| {number} | {row['verdict']} | {row['seconds']:.0f} | {row['states']:,} | {row['peak_mb']:,} | {how} |")


if __name__ == "__main__":
    main()

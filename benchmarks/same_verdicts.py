"""Compare the verdicts of two results files, deal by deal (a re-solve against a published table).

    wedlock batch monte-carlo 1-1000000 --jobs 2 --out /tmp/again.jsonl --quiet
    python3 benchmarks/same_verdicts.py data/monte-carlo-pysol-1-1000000.jsonl.gz /tmp/again.jsonl

Prints how many deals both files hold, how many agree, the state counts' agreement, and the
first deals that disagree; exits 1 when any verdict differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.results.records import iter_results  # noqa: E402


def verdicts(path: Path) -> dict[tuple[str, str, str], tuple[str, int]]:
    """(game, rules, game number) -> (verdict, states), the last line of each deal."""
    return {(r["game"], r["rules"], r["game_number"]): (r["verdict"], r["states"]) for r in iter_results(path)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("published", type=Path)
    parser.add_argument("again", type=Path)
    args = parser.parse_args()
    old, new = verdicts(args.published), verdicts(args.again)
    both = sorted(set(old) & set(new), key=lambda k: (k[0], k[1], int(k[2]) if k[2].isdigit() else 0))
    differ = [k for k in both if old[k][0] != new[k][0]]
    same_states = sum(old[k][1] == new[k][1] for k in both)
    print(f"deals in both: {len(both):,} (only in the first: {len(set(old) - set(new)):,}, only in the second: {len(set(new) - set(old)):,})")
    print(f"same verdict: {len(both) - len(differ):,}; different: {len(differ):,}; same state count: {same_states:,}")
    for k in differ[:10]:
        print(f"  {k[0]} {k[1]} {k[2]}: {old[k][0]} then {new[k][0]}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()

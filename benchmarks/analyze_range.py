"""Time, peak memory and graph size of `wedlock analyze` for a range of games.

    python3 benchmarks/analyze_range.py monte-carlo 1 20 [--rules pysol] [--max-states 50000]

Each game runs in a fresh process, so that the peak memory (maximum resident set size) is
that game's own. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE_GAME = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from wedlock import analysis
from wedlock.games import game_named, rules_of
game = game_named({game!r}); rules = rules_of(game, {rules!r})
started = time.perf_counter()
play = game.player(rules, game.numbered_deal(rules, {number!r}))
graph = analysis.build(play, {max_states!r})
fig = analysis.figures(play, graph)
print(json.dumps({{"seconds": time.perf_counter() - started, "states": fig.states, "edges": fig.edges,
    "complete": fig.complete, "random": [float(x) for x in fig.random],
    "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--rules")
    parser.add_argument("--max-states", type=int, default=10_000)
    args = parser.parse_args()
    print(f"{args.game} ({args.rules or 'default rules'}), --max-states {args.max_states:,}")
    print("| game | states | edges | whole graph | random player | seconds | peak MB |")
    print("|---|---|---|---|---|---|---|")
    for number in range(args.first, args.last + 1):
        code = ONE_GAME.format(root=str(ROOT), game=args.game, rules=args.rules, number=str(number), max_states=args.max_states)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        row = json.loads(out.stdout)
        low, high = row["random"]
        odds = f"{100 * low:.4f}%" if low == high else f"{100 * low:.4f}% - {100 * high:.4f}%"
        print(
            f"| {number} | {row['states']:,} | {row['edges']:,} | {'yes' if row['complete'] else 'cut'} | {odds} "
            f"| {row['seconds']:.1f} | {row['mb']:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""Time, peak memory and graph size of `wedlock analyze` for a range of games.

    python3 benchmarks/analyze_range.py monte-carlo 1 20 [--rules pysol] [--max-states N] [--pure]

For each game, in a fresh process so that its peak memory (maximum resident set size) is
its own: the state graph `analyze` explores (`analysis.build`, no time limit, at most
`--max-states` states: by default what `analyze` explores, 3,000,000 for Monte Carlo with
the compiled core, else 10,000) and its figures (`analysis.figures`: exact odds, winning
sequences, the shortest win and its critical decisions). The solver's run and the
playouts that the command adds are left out. `--pure` runs the pure-Python analysis
(WEDLOCK_PURE=1) instead of the compiled core's. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ONE_GAME = """
import json, resource, sys, time
from wedlock.search import state_graph as analysis
from wedlock.luck.analysis import default_max_states
from wedlock.pipeline.solving import deal
game, number, rules, max_states = sys.argv[1], int(sys.argv[2]), sys.argv[3] or None, int(sys.argv[4])
chosen = deal(game, number, rules)
play = chosen.game.player(chosen.rules, chosen.cards)
started = time.perf_counter()
graph = analysis.build(play, max_states if max_states > 0 else default_max_states(game))
built = time.perf_counter()
fig = analysis.figures(play, graph)
done = time.perf_counter()
print(json.dumps({
    "states": fig.states, "edges": fig.edges, "complete": fig.complete,
    "build": built - started, "figures": done - built,
    "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "random": [float(x) for x in fig.random], "greedy": [float(x) for x in fig.greedy],
    "shortest": len(fig.shortest_win), "decisions": len(fig.decisions),
}))
"""


def odds(low: float, high: float) -> str:
    return f"{low:.4%}" if low == high else f"{low:.4%} - {high:.4%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--rules", default="")
    parser.add_argument("--max-states", type=int, default=0, help="0: what analyze explores by default")
    parser.add_argument("--pure", action="store_true", help="the pure-Python analysis (WEDLOCK_PURE=1)")
    args = parser.parse_args()
    env = dict(os.environ, WEDLOCK_PURE="1" if args.pure else "")
    limit = f"--max-states {args.max_states:,}" if args.max_states > 0 else "analyze's --max-states"
    path = "pure Python" if args.pure else "compiled core where built"
    print(f"{args.game} ({args.rules or 'default rules'}), {limit}, {path}")
    print("| game | states | edges | whole graph | build s | figures s | total s | peak MB | random player | greedy player | shortest win | critical decisions |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for number in range(args.first, args.last + 1):
        run = subprocess.run(
            [sys.executable, "-c", ONE_GAME, args.game, str(number), args.rules, str(args.max_states)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if run.returncode:
            lines = run.stderr.strip().splitlines()
            print(f"| {number} | failed: {lines[-1] if lines else run.returncode} |", flush=True)
            continue
        r = json.loads(run.stdout)
        print(
            f"| {number} | {r['states']:,} | {r['edges']:,} | {'yes' if r['complete'] else 'cut'} | {r['build']:.1f} |"
            f" {r['figures']:.1f} | {r['build'] + r['figures']:.1f} | {r['mb']:,.0f} | {odds(*r['random'])} |"
            f" {odds(*r['greedy'])} | {r['shortest']} | {r['decisions']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

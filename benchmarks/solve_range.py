"""Solve a range of game numbers on one core and print a table of what it cost.

    python3 benchmarks/solve_range.py monte-carlo --rules pysol 1 1000
    python3 benchmarks/solve_range.py monte-carlo --all-rules 1 1000

Timing covers dealing and solving each game; the referee's replay of every win (also run,
so that a wrong "won" cannot hide in a benchmark) is not timed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.games.registry import game_named, rules_of  # noqa: E402
from wedlock.search.exhaustive import Limits  # noqa: E402

COLUMNS = ("rules", "deals", "won", "lost", "unknown", "total s", "median s", "worst s", "median states", "worst states", "states/s")


def run(game_name: str, rules_name: str, first: int, last: int, limits: Limits) -> dict:
    """Solve games first..last; return one table row."""
    game = game_named(game_name)
    rules = rules_of(game, rules_name)
    counts = {"won": 0, "lost": 0, "unknown": 0}
    seconds, states = [], []
    for n in range(first, last + 1):
        started = time.perf_counter()
        cards = game.numbered_deal(rules, str(n))
        solution = game.solve(rules, cards, limits)
        seconds.append(time.perf_counter() - started)
        states.append(solution.states)
        counts[solution.verdict] += 1
        if solution.verdict == "won" and not game.referee(rules, cards, solution.moves).won:
            raise SystemExit(f"game {n}: the referee rejects the solver's winning line")
    total = sum(seconds)
    return {
        "rules": rules.name,
        "deals": last - first + 1,
        **counts,
        "total s": f"{total:.2f}",
        "median s": f"{statistics.median(seconds):.4f}",
        "worst s": f"{max(seconds):.2f} (#{first + seconds.index(max(seconds))})",
        "median states": f"{statistics.median(states):.0f}",
        "worst states": f"{max(states)}",
        "states/s": f"{sum(states) / total:,.0f}" if total else "-",
    }


def print_table(rows: list[dict]) -> None:
    """A Markdown table, so the output pastes into notes and READMEs."""
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in COLUMNS) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--rules", action="append", help="rule set (repeatable); default the game's own")
    parser.add_argument("--all-rules", action="store_true", help="every rule set of the game")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per deal")
    parser.add_argument("--max-states", type=int, default=Limits().max_states)
    args = parser.parse_args()
    game = game_named(args.game)
    names = list(game.rule_sets) if args.all_rules else (args.rules or [game.default_rules])
    limits = Limits(time_limit=args.time_limit, max_states=args.max_states)
    rows = []
    for name in names:
        rows.append(run(args.game, name, args.first, args.last, limits))
        print(f"done: {name}", file=sys.stderr)
    print(f"games {args.first}-{args.last}, {game.title}, one core, python {sys.version.split()[0]}")
    print_table(rows)


if __name__ == "__main__":
    main()

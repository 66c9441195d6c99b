"""Run each quick stage of the PySolFC Matrimony solver alone over a range of games and
print what each one wins and what it costs: the figures its stage order comes from.

    python3 benchmarks/quick_stages.py 1 60 --time-limit 8

A stage here starts from nothing (its own space, no memo from the stages before), so its
seconds are what it would cost first in line. Every win is replayed by the referee.
The table's last row is the whole solver (`wedlock solve`'s order, caches shared, then the
exact search) under the same time limit, for comparison.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.games.matrimony import GAME  # noqa: E402
from wedlock.games.matrimony.play import Table  # noqa: E402
from wedlock.games.matrimony.quick_stages import QUICK_STAGES, Stage  # noqa: E402
from wedlock.games.matrimony.rules import RULE_SETS  # noqa: E402
from wedlock.search.exhaustive import WON, Limits  # noqa: E402

COLUMNS = ("stage", "won", "only this stage", "mean s", "mean s of a win", "wins per second")
RULES = RULE_SETS["pysol"]


def run_stage(stage: Stage, table: Table, seconds: float) -> tuple[bool, float]:
    """Whether the stage alone wins the deal within `seconds`, and the time it took."""
    space = stage.build(table)
    started = time.perf_counter()
    out = stage.run(space, Limits(time_limit=seconds))
    took = time.perf_counter() - started
    if out.verdict == WON and not GAME.referee(RULES, table.deal, space.moves(out.steps)).won:
        raise SystemExit(f"{stage.label}: the referee rejects a winning line")
    return out.verdict == WON, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--time-limit", type=float, default=8.0, help="seconds per stage and deal")
    args = parser.parse_args()
    names = [s.label for s in QUICK_STAGES] + ["the whole solver"]
    wins: dict[str, list[int]] = {name: [] for name in names}
    times: dict[str, list[float]] = {name: [] for name in names}
    win_times: dict[str, list[float]] = {name: [] for name in names}
    for n in range(args.first, args.last + 1):
        cards = GAME.check_deal(RULES, GAME.numbered_deal(RULES, str(n)))
        table = Table(RULES, tuple(cards))
        for stage, name in zip(QUICK_STAGES, names):
            won, took = run_stage(stage, table, args.time_limit)
            times[name].append(took)
            if won:
                wins[name].append(n)
                win_times[name].append(took)
        started = time.perf_counter()
        solution = GAME.solve(RULES, cards, Limits(time_limit=args.time_limit))
        took = time.perf_counter() - started
        times[names[-1]].append(took)
        if solution.verdict == WON:
            wins[names[-1]].append(n)
            win_times[names[-1]].append(took)
        print(f"game {n} done", file=sys.stderr)
    print(f"games {args.first}-{args.last}, Matrimony (PySolFC), {args.time_limit} s a stage, one core")
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for name in names:
        others = set().union(*(wins[o] for o in names[:-1] if o != name))
        only = len(set(wins[name]) - others) if name != names[-1] else "-"
        total = sum(times[name])
        row = (
            name,
            len(wins[name]),
            only,
            f"{total / len(times[name]):.2f}",
            f"{sum(win_times[name]) / len(win_times[name]):.2f}" if win_times[name] else "-",
            f"{len(wins[name]) / total:.2f}" if total else "-",
        )
        print("| " + " | ".join(str(x) for x in row) + " |")


if __name__ == "__main__":
    main()

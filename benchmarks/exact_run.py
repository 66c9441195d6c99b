"""The exact search of PySolFC's Matrimony alone, with no quick stage in front, on one deal:
the run that proves a deal lost if one is, or says how far the exhaustive search got.

    python3 benchmarks/exact_run.py 319 --max-states 1000000000
    python3 benchmarks/exact_run.py 319 --levels --max-states 100000000   # a tenth of the memory

With `--max-states` of 50,000,000 or more the compiled core keeps its states in the compact
table (15 bytes a state, docs/SOLVER.md, "Proofs of loss"), made whole at the start: give
no more than the memory holds. Prints one line: the deal, the verdict, the states, the
seconds, the peak memory; "lost" there is a proof (every state of the exact space that the
start reaches was searched), "won" comes with the line's length, replayed by the referee.

With `--levels` the same space is searched a level of phi at a time
(games/matrimony/pysol_levels.py): the same states for a loss, a fraction of them held at
once (`--max-states` then bounds those held), and a win without its line; with
`--checkpoint FILE` it saves its levels there every ten minutes, and the same command
given again goes on from them (after Ctrl-C, a kill, or a machine that went down).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.games.matrimony import GAME  # noqa: E402
from wedlock.games.matrimony.play import Table  # noqa: E402
from wedlock.games.matrimony.pysol_levels import search_by_levels  # noqa: E402
from wedlock.games.matrimony.pysol_space import PysolSpace  # noqa: E402
from wedlock.games.matrimony.rules import RULE_SETS  # noqa: E402
from wedlock.games.matrimony.verify import referee  # noqa: E402
from wedlock.search.exhaustive import WON, Limits, solve  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("number", type=int, help="the game number")
    parser.add_argument("--max-states", type=int, default=100_000_000, help="states the search may hold")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds (default: none)")
    parser.add_argument("--levels", action="store_true", help="search by levels of phi (less memory; a win comes without its line)")
    parser.add_argument("--checkpoint", type=Path, help="with --levels: keep a checkpoint here, and go on from the one there")
    args = parser.parse_args()
    rules = RULE_SETS["pysol"]
    table = Table(rules, tuple(GAME.numbered_deal(rules, str(args.number))))
    space = PysolSpace(table)
    started = time.perf_counter()
    if args.levels:
        found = search_by_levels(space, Limits(max_states=args.max_states, time_limit=args.time_limit), args.checkpoint)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        stop = f" (stopped by {found.limit})" if found.limit else ""
        print(f"game {args.number}: {found.verdict}, {found.states:,} states, {found.peak:,} held at most, {seconds:,.0f} s, {peak:,.0f} MB at most{stop}", flush=True)
        return
    out = solve(space, Limits(max_states=args.max_states, time_limit=args.time_limit))
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    said = f"game {args.number}: {out.verdict}, {out.states:,} states ({out.nodes:,} generated), {seconds:,.0f} s, {peak:,.0f} MB at most"
    if out.verdict == WON:
        moves = space.moves(out.steps)
        said += f"; a line of {len(moves)} moves, " + ("replayed" if referee(rules, table.deal, moves).won else "REFUSED by the referee")
    elif out.reason:
        said += f" ({out.reason})"
    print(said, flush=True)


if __name__ == "__main__":
    main()

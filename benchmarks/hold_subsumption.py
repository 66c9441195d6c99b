"""Would a dominance between hold sets cut the proofs of loss? A measurement on the
yardstick's positions (proof_cost.py), before anything is built.

A state of the exact space is a position and the cards its line holds back (PysolSpace).
A hold only forbids lines, so from one position, a state whose holds are a subset of
another's wins whenever the other does: if (pos, F, P) is lost, so is every (pos, F', P')
with F <= F' and P <= P'. The space is a DAG (each play, deal and redeal raises phi, each
hold adds a hold at the same phi), so a state a depth-first search has finished without
a win is lost, and such a state may prune every state of its position with more holds.
This script searches each position depth-first in Python, once plainly and once with that
cut (only by finished states: a state on the path may need the very hold child it would
prune), and prints the states each visits, with the distinct positions among them.

    python3 benchmarks/hold_subsumption.py            # ~3 min on one core

The yardstick's positions after the fifth deal are left out: the largest takes 13 million
states, hours in Python.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Hashable
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent))

from proof_cost import LINES, LOST_DEALS, replay, table_of  # noqa: E402

from wedlock.games.matrimony.pysol_space import PysolSpace, PysolState  # noqa: E402

POINTS = ("deal 6", "redeal 1", "redeal 4", "redeal 8")
MOST_STATES = 400_000  # a position past this is reported as cut


def search(space: PysolSpace, root: PysolState, subsume: bool) -> tuple[str, int, int, int]:
    """Depth-first over the space's successors from `root`: the verdict (won, lost or cut),
    the states visited, the states the cut pruned, and the distinct positions visited."""
    seen: set[Hashable] = {space.key(root)}
    positions = {root.pos}
    finished: dict = {}  # position -> the hold sets of its finished states
    pruned = 0
    stack = [(root, iter(space.successors(root)))]
    while stack:
        state, children = stack[-1]
        step = next(children, None)
        if step is None:
            stack.pop()
            if subsume:
                finished.setdefault(state.pos, []).append((state.frozen, state.passed))
            continue
        child = step[1]
        if space.is_won(child):
            return "won", len(seen), pruned, len(positions)
        key = space.key(child)
        if key in seen:
            continue
        if subsume and any(f <= child.frozen and p <= child.passed for f, p in finished.get(child.pos, ())):
            pruned += 1
            continue
        if len(seen) >= MOST_STATES:
            return "cut", len(seen), pruned, len(positions)
        seen.add(key)
        positions.add(child.pos)
        stack.append((child, iter(space.successors(child))))
    return "lost", len(seen), pruned, len(positions)


def main() -> None:
    print("| game | line | point | verdict | states | positions | with the cut: states | pruned | s (plain, cut) |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals = [0, 0, 0, 0]
    for game in LOST_DEALS:
        table = table_of(game)
        for name, line in sorted(LINES.items()):
            reached = replay(table, line(table))
            for point in POINTS:
                if point not in reached:
                    continue
                space = PysolSpace(table, reached[point])
                started = time.process_time()
                verdict, states, _, positions = search(space, space.start(), subsume=False)
                middle = time.process_time()
                cut_verdict, cut_states, pruned, _ = search(space, space.start(), subsume=True)
                ended = time.process_time()
                assert cut_verdict == verdict or "cut" in (verdict, cut_verdict), (game, name, point)
                totals = [totals[0] + states, totals[1] + positions, totals[2] + cut_states, totals[3] + pruned]
                print(
                    f"| {game} | {name} | {point} | {verdict} | {states:,} | {positions:,} | {cut_states:,} | {pruned:,} |"
                    f" {middle - started:.1f}, {ended - middle:.1f} |",
                    flush=True,
                )
    print(f"| all | | | | {totals[0]:,} | {totals[1]:,} | {totals[2]:,} | {totals[3]:,} | |")


if __name__ == "__main__":
    main()

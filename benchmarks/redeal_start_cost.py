"""What it costs the exact search to decide a Matrimony (PySolFC) position at the start of
the redeal phase: the figure behind "what would decide the `unknown` deals".

    python3 benchmarks/redeal_start_cost.py 15 48 --positions 2 --node-limit 200000

For each game, a 16-wide playout phase beam (three cards held back a phase at most, as in
the quick stages) runs for `--beam-seconds`; the positions it keeps right after the last
deal (stock empty, no redeal yet) are the samples. From each of the first `--positions`
of them the exact space (`PysolSpace`) is searched alone, with no time limit and at most
`--node-limit` states. The table gives its verdict and cost, how many distinct positions
(holds dropped) its states cover, and how many of its states have a twin: the same
position with a proper subset of the holds, also expanded. A table of lost states that
merged holds could skip at most those.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.games.matrimony import GAME  # noqa: E402
from wedlock.games.matrimony.play import Position, Table  # noqa: E402
from wedlock.games.matrimony.pysol_space import PysolPhaseSpace, PysolSpace, PysolState  # noqa: E402
from wedlock.games.matrimony.rules import DECK, RULE_SETS  # noqa: E402
from wedlock.search.beam import Deferred, beam_search  # noqa: E402
from wedlock.search.exhaustive import Limits, solve  # noqa: E402

RULES = RULE_SETS["pysol"]


def redeal_starts(table: Table, seconds: float) -> list[Position]:
    """The positions a playout beam keeps right after the last deal, in the order kept."""
    space = PysolPhaseSpace(table, holds=3)
    inner = space.deferred()
    kept: dict[Position, None] = {}

    def viable(state: PysolState) -> bool:
        alive = inner.viable(state)
        if alive and state.pos.stock == DECK and state.pos.rounds == 0:
            kept[state.pos] = None
        return alive

    deferred = Deferred(inner.successors, viable)
    beam_search(space, space.cards_down, 16, Limits(time_limit=seconds), 0, deferred, space.greedy_phase)
    return list(kept)


class CountingSpace(PysolSpace):
    """The exact space, noting the holds of every state it expands, by position."""

    def __init__(self, table: Table, start: Position) -> None:
        super().__init__(table, start)
        self.holds: dict[Position, list[tuple]] = {}

    def successors(self, state: PysolState):  # type: ignore[override]
        self.holds.setdefault(state.pos, []).append((state.frozen, state.passed))
        return super().successors(state)

    def twins(self) -> int:
        """Expanded states whose position was also expanded with a proper subset of their holds."""
        count = 0
        for seen in self.holds.values():
            for frozen, passed in seen:
                count += any(f <= frozen and p <= passed and (f, p) != (frozen, passed) for f, p in seen)
        return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--positions", type=int, default=2, help="redeal-phase starts searched a game")
    parser.add_argument("--node-limit", type=int, default=200_000, help="states the exact search may generate")
    parser.add_argument("--beam-seconds", type=float, default=20.0)
    args = parser.parse_args()
    print("| game | start | cards down | verdict | states | seconds | positions | states with a twin |")
    print("|---|---|---|---|---|---|---|---|")
    for game in args.games:
        table = Table(RULES, tuple(GAME.check_deal(RULES, GAME.numbered_deal(RULES, game))))
        for i, pos in enumerate(redeal_starts(table, args.beam_seconds)[: args.positions]):
            space = CountingSpace(table, pos)
            started = time.perf_counter()
            out = solve(space, Limits(node_limit=args.node_limit, max_states=None, first_pass=None))
            took = time.perf_counter() - started
            expanded = sum(len(seen) for seen in space.holds.values())
            print(
                f"| {game} | {i + 1} | {sum(pos.foundations)} | {out.verdict} | {out.states:,} | {took:.1f} "
                f"| {len(space.holds):,} | {space.twins():,} of {expanded:,} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

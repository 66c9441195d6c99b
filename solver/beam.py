"""A beam search: a quick way to a win where the exhaustive search is slow.

The search goes forward one layer of a space at a time (a layer: the states one step from
the layer before), keeps the `width` best of them by a score the caller gives, and drops
the rest. Dropped states are never looked at again, so the beam proves nothing when it
finds no win: it answers `won` (with the steps, which the caller replays) or `unknown`.
It suits spaces where every line has about the same number of steps, such as Matrimony's
deals and redeals, so that the states of one layer are fairly compared.

Ties in the score are broken by a seeded random number, so one deal always gives the
same answer, and widening the beam adds states rather than reshuffling them.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Hashable, Iterator

from .search import UNKNOWN, WON, Limits, Outcome, SearchSpace

Score = Callable[[object], float]  # higher is more promising
MEMO_CHILDREN = 200_000  # successors a memo keeps before it starts again (a bound on its memory)


class Memo:
    """The successors of states a beam expanded, by key, for later beams over the same
    space; emptied whenever it would hold more than `children` successors in all."""

    def __init__(self, children: int = MEMO_CHILDREN) -> None:
        self.children = children
        self.held = 0
        self.table: dict[Hashable, list] = {}

    def get(self, key: Hashable) -> list | None:
        return self.table.get(key)

    def put(self, key: Hashable, found: list) -> None:
        if self.held + len(found) > self.children:
            self.table.clear()
            self.held = 0
        self.table[key] = found
        self.held += len(found)


def beam_search(
    space: SearchSpace,
    score: Score,
    width: int,
    limits: Limits = Limits(),
    seed: int = 0,
    memo: Memo | None = None,
) -> Outcome:
    """Search `space` layer by layer, keeping the `width` best states of each layer; within
    the time and node limits of `limits` (its other fields do not apply). `memo` keeps each
    expanded state's successors for later beams over the same space: a wider beam goes
    through much of what a narrower one did."""
    if width < 1:
        raise ValueError("a beam needs a width of at least 1")
    started = time.perf_counter()
    seconds, node_cap = limits.time_limit, limits.node_limit
    deadline = None if seconds is None else started + seconds
    draw = random.Random(seed).random
    root = space.start()
    nodes = 0

    def outcome(verdict: str, steps: list | None = None, reason: str = "") -> Outcome:
        return Outcome(verdict, steps or [], nodes, nodes, time.perf_counter() - started, reason)

    if space.is_won(root):
        return outcome(WON)

    def expand(state: object, k: Hashable) -> Iterator[tuple[Hashable, object]]:
        if memo is None:
            yield from space.successors(state)
            return
        found = memo.get(k)
        if found is not None:
            yield from found
            return
        found = []
        for item in space.successors(state):
            found.append(item)
            yield item
        memo.put(k, found)  # only once all are known (a win or a limit may stop it first)

    layer: list[tuple[object, Hashable, tuple]] = [(root, space.key(root), ())]
    while layer:
        ranked: dict[Hashable, tuple[float, object, tuple]] = {}
        for state, key, steps in layer:
            for step, child in expand(state, key):
                nodes += 1
                if space.is_won(child):
                    return outcome(WON, [*steps, step])
                k = space.key(child)
                if k not in ranked:
                    ranked[k] = (score(child) + draw(), child, (*steps, step))
                if node_cap is not None and nodes >= node_cap:
                    return outcome(UNKNOWN, reason=f"node limit {node_cap} reached")
                if deadline is not None and nodes & 15 == 0 and time.perf_counter() > deadline:
                    return outcome(UNKNOWN, reason=f"time limit {seconds}s reached")
        best = sorted(ranked.items(), key=lambda item: item[1][0], reverse=True)[:width]
        layer = [(child, k, steps) for k, (_, child, steps) in best]
    return outcome(UNKNOWN, reason=f"a beam {width} wide found no win")


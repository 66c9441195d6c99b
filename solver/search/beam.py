"""A beam search: a quick way to a win where the exhaustive search is slow.

The search goes forward one layer of a space at a time (a layer: the states one step from
the layer before), keeps the `width` best of them by a score the caller gives, and drops
the rest. Dropped states are never looked at again, so the beam proves nothing when it
finds no win: it answers `won` (with the steps, which the caller replays) or `unknown`.
It suits spaces where every line has about the same number of steps, such as Matrimony's
deals and redeals, so that the states of one layer are fairly compared.

Ties in the score are broken by a seeded random number, so one deal always gives the
same answer, and widening the beam adds states rather than reshuffling them.

A space whose successors pass a costly test (one that drops hopeless states) can hand the
beam its successors without that test and the test apart (`Deferred`): the beam then
ranks every child and tests only the best ones, until `width` of them pass. The layer is
the one the filtered successors would give, up to ties, at a fraction of the tests.

With a `playout` rule (a state's successors for a playout: it takes the first one each
time, until a state has none), a child is ranked by the score where its playout ends, and
by its own score only between equal ends: a look far ahead that a score of the state
alone cannot give. A playout that ends in a win ends the search with that line. A
playout passes through the states it reaches, so its end is remembered for each of them.

A beam keeps no table of the states it has seen, so it counts every state it generates as
one (its outcome's `states` are its `nodes`), and the limits' `max_states` bounds that
count as it does a search's: the beam ends (`unknown`) when it reaches it. What it holds at
once (one layer's children and the remembered playout ends) is less still: the ends are
forgotten when they pass half of it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple

from .exhaustive import UNKNOWN, WON, Limits, Outcome, SearchSpace, Verdict, limit_reached

Score = Callable[[Any], float]  # higher is more promising
PLAYOUT_ENDS_KEPT = 1_000_000  # playout ends remembered (by state) before they are forgotten
Successors = Callable[[Any], Iterable[tuple[Hashable, Any]]]  # (step, child) pairs


class Deferred(NamedTuple):
    """A space's successors without its costly test, and the test: the space's own
    successors must be exactly those of `successors` that `viable` accepts."""

    successors: Successors
    viable: Callable[[Any], bool]


def beam_search(
    space: SearchSpace,
    score: Score,
    width: int,
    limits: Limits = Limits(),
    seed: int = 0,
    deferred: Deferred | None = None,
    playout: Successors | None = None,
) -> Outcome:
    """Search `space` layer by layer, keeping the `width` best states of each layer; within
    the time, node and state limits of `limits` (`first_pass` does not apply). With `deferred`,
    its successors and test stand for the space's successors; with `playout`, children
    are ranked by their playouts (see the module docstring). States a playout passes
    through count towards the node limit."""
    if width < 1:
        raise ValueError("a beam needs a width of at least 1")
    started = time.perf_counter()
    seconds, node_cap, state_cap = limits.time_limit, limits.node_limit, limits.max_states
    ends_kept = PLAYOUT_ENDS_KEPT if state_cap is None else min(PLAYOUT_ENDS_KEPT, state_cap // 2)
    deadline = None if seconds is None else started + seconds
    draw = random.Random(seed).random
    root = space.start()
    nodes = 0
    expand = space.successors if deferred is None else deferred.successors

    def outcome(verdict: Verdict, steps: list | None = None, reason: str = "", limit: str | None = None) -> Outcome:
        return Outcome(verdict, steps or [], nodes, nodes, time.perf_counter() - started, reason, limit)

    def won(state: object) -> bool:
        return space.is_won(state) and (deferred is None or deferred.viable(state))

    ends: dict[Hashable, float] = {}  # a playout's end score, by each state on its way

    def play_out(state: object, k: Hashable) -> tuple[float, list | None]:
        """The score where the state's playout ends, and its steps if it ends in a win."""
        nonlocal nodes
        assert playout is not None  # called only with a playout rule
        if k in ends:
            return ends[k], None
        path, line = [k], []
        while state_cap is None or nodes < state_cap:  # at the state limit, the playout ends here
            step_child = next(iter(playout(state)), None)
            if step_child is None:
                break
            nodes += 1
            step, state = step_child
            line.append(step)
            if won(state):
                return 0.0, line
            k = space.key(state)
            if k in ends:
                break
            path.append(k)
        end = ends[k] if k in ends else score(state)
        ends.update((k, end) for k in path)
        if len(ends) > ends_kept:  # a cache only: memory stays bounded
            ends.clear()
        return end, None

    if space.is_won(root):
        return outcome(WON)
    next_check = 16  # nodes at which the clock is read next
    layer: list[tuple[object, tuple]] = [(root, ())]
    while layer:
        ranked: dict[Hashable, tuple[tuple[float, float], object, tuple]] = {}
        for state, steps in layer:
            for step, child in expand(state):
                nodes += 1
                if won(child):
                    return outcome(WON, [*steps, step])
                k = space.key(child)
                if k not in ranked:
                    rank = (0.0, score(child) + draw())
                    if playout is not None:
                        end, line = play_out(child, k)
                        if line is not None:
                            return outcome(WON, [*steps, step, *line])
                        rank = (end, rank[1])
                    ranked[k] = (rank, child, (*steps, step))
                if state_cap is not None and nodes >= state_cap:
                    return outcome(UNKNOWN, reason=limit_reached("max_states", limits), limit="max_states")
                if node_cap is not None and nodes >= node_cap:
                    return outcome(UNKNOWN, reason=limit_reached("node_limit", limits), limit="node_limit")
                if deadline is not None and nodes >= next_check:
                    next_check = nodes + 16
                    if time.perf_counter() > deadline:
                        return outcome(UNKNOWN, reason=limit_reached("time_limit", limits), limit="time_limit")
        best = sorted(ranked.values(), key=lambda entry: entry[0], reverse=True)
        if deferred is None:
            layer = [(child, steps) for _, child, steps in best[:width]]
            continue
        layer = []
        for _, child, steps in best:
            if deferred.viable(child):
                layer.append((child, steps))
                if len(layer) == width:
                    break
            if deadline is not None and time.perf_counter() > deadline:
                return outcome(UNKNOWN, reason=limit_reached("time_limit", limits), limit="time_limit")
    return outcome(UNKNOWN, reason=f"a beam {width} wide found no win")

"""One exhaustive search that knows no game: depth-first with a transposition table.

The search runs in passes. The first follows the space's own move order; when a pass has
generated its budget of states and found nothing, the next starts again from the top with
the moves in a fresh random order and twice the budget. Nothing proven is lost between
passes: a state whose every successor was searched to the end without a win is lost, and
stays in the `closed` table that every later pass skips. A pass that runs to its end
without a win has searched every state not already proven lost, so the verdict is `lost`.
Restarts only help to find wins sooner in deals where the first choices were unlucky.

Restarts need a space without cycles: in a cyclic space a state can be closed in one pass
only because its way to a win ran through a state then on the path, and a later pass
would wrongly skip it. For such a space pass `Limits(first_pass=None)` (one pass: the
plain depth-first search, exact on any graph). Monte Carlo's spaces and Matrimony under
Arnold's rules only ever move forward; Matrimony under PySolFC's rules searches in one pass.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Iterator, Protocol, TypeVar

S = TypeVar("S")
Step = Hashable  # one search edge, in the space's own terms

WON, LOST, UNKNOWN = "won", "lost", "unknown"


class SearchSpace(Protocol[S]):
    """What the search needs of a game: a start, successors, a goal test and a canonical key."""

    def start(self) -> S: ...

    def successors(self, state: S) -> Iterable[tuple[Step, S]]: ...

    def is_won(self, state: S) -> bool: ...

    def key(self, state: S) -> Hashable: ...


@dataclass(frozen=True)
class Limits:
    """When to give up: a cut-short search answers `unknown`, never `lost`."""

    node_limit: int | None = None  # states generated, over all passes
    time_limit: float | None = None  # seconds
    max_states: int | None = 20_000_000  # distinct canonical states kept in memory
    first_pass: int | None = 64  # states the first pass may generate; None: one pass (needed for cyclic spaces)


@dataclass
class Outcome:
    """A verdict, the steps of a win, and what the search cost."""

    verdict: str
    steps: list = field(default_factory=list)  # the winning line, one entry per search edge
    states: int = 0  # distinct canonical states generated
    nodes: int = 0  # states generated, over all passes
    seconds: float = 0.0
    reason: str = ""  # why a search ended `unknown`, in words
    limit: str | None = None  # the field of Limits that ended it: "node_limit", "time_limit" or "max_states"


class _Cut(Exception):
    """A pass ran out of its budget."""


class _Stop(Exception):
    """A limit of the whole search was reached: args are (field of Limits, reason)."""


def solve(space: SearchSpace, limits: Limits = Limits()) -> Outcome:
    """Search `space` from its start; `lost` only after every canonical state was expanded."""
    search = _Search(space, limits)
    root = space.start()
    if space.is_won(root):
        return search.outcome(WON)
    budget, shuffle = limits.first_pass, None
    while True:
        try:
            steps = search.dfs(root, budget, shuffle)
        except _Cut:
            budget, shuffle = 2 * budget, random.Random(budget).shuffle  # type: ignore[operator]
            continue
        except _Stop as stop:
            limit, reason = stop.args
            return search.outcome(UNKNOWN, reason=reason, limit=limit)
        return search.outcome(LOST) if steps is None else search.outcome(WON, steps)


class _Search:
    """The tables and counters one search keeps across its passes."""

    def __init__(self, space: SearchSpace, limits: Limits) -> None:
        self.space = space
        self.limits = limits
        self.started = time.perf_counter()
        self.closed: set = set()  # keys of states proven lost
        self.nodes = 0
        self.open = 0  # states seen in the current pass but not proven lost

    def outcome(self, verdict: str, steps: list | None = None, reason: str = "", limit: str | None = None) -> Outcome:
        return Outcome(
            verdict, steps or [], len(self.closed) + self.open, self.nodes, time.perf_counter() - self.started, reason, limit
        )

    def dfs(self, root: S, budget: int | None, shuffle) -> list | None:
        """One depth-first pass: the winning steps, None when lost, or _Cut / _Stop."""
        space, limits, closed = self.space, self.limits, self.closed
        successors, is_won, key = space.successors, space.is_won, space.key
        node_cap = limits.node_limit
        state_cap = limits.max_states
        deadline = None if limits.time_limit is None else self.started + limits.time_limit
        pass_cap = None if budget is None else self.nodes + budget

        def children(state: S) -> Iterator[tuple[Step, S]]:
            if shuffle is None:
                return iter(successors(state))
            found = list(successors(state))
            shuffle(found)
            return iter(found)

        seen: set = {key(root)}
        path_keys = [key(root)]
        steps: list[Step] = []
        stack = [children(root)]
        nodes = self.nodes
        try:
            while stack:
                for step, child in stack[-1]:
                    k = key(child)
                    if k in seen or k in closed:
                        continue
                    nodes += 1
                    if is_won(child):
                        steps.append(step)
                        return steps
                    if node_cap is not None and nodes > node_cap:
                        raise _Stop("node_limit", f"node limit {node_cap} reached")
                    if state_cap is not None and len(seen) + len(closed) >= state_cap:
                        raise _Stop("max_states", f"state limit {state_cap} reached")
                    if nodes & 63 == 0 and deadline is not None and time.perf_counter() > deadline:
                        raise _Stop("time_limit", f"time limit {limits.time_limit}s reached")
                    if pass_cap is not None and nodes > pass_cap:
                        raise _Cut
                    seen.add(k)
                    steps.append(step)
                    path_keys.append(k)
                    stack.append(children(child))
                    break
                else:
                    stack.pop()
                    closed.add(path_keys.pop())
                    if steps:
                        steps.pop()
            return None
        finally:
            # Every state seen in this pass is closed once popped; the path's states are not.
            self.nodes = nodes
            self.open = len(path_keys)

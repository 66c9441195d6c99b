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
would wrongly skip it. So a space says whether it is `acyclic`, and only an acyclic one
is searched with restarts; any other gets one pass, the plain depth-first search, which is
exact on any graph. Monte Carlo's spaces and Matrimony under Arnold's rules only ever move
forward; Matrimony under PySolFC's rules, whose shifts can be undone, is searched in one
pass. `Limits(first_pass=None)` asks for one pass on any space.

A space may also offer a compiled twin of itself (`native`, see basics/compiled.py): then the whole
search runs in C, pass for pass as here, with the same verdict, steps and state counts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol, TypeVar

from ..basics.errors import LimitError

S = TypeVar("S")
Step = Hashable  # one search edge, in the space's own terms



class Verdict(StrEnum):
    """What a search says of a deal; each value is the word the output uses."""

    WON = "won"  # a winning line was found (and, in the pipeline, replayed by the referee)
    LOST = "lost"  # every canonical state reachable was searched, and none wins
    UNKNOWN = "unknown"  # a limit stopped the search first


WON, LOST, UNKNOWN = Verdict.WON, Verdict.LOST, Verdict.UNKNOWN


class SearchSpace(Protocol[S]):
    """What the search needs of a game: a start, successors, a goal test, a canonical key,
    and whether no line of moves ever comes back to a state (then restarts are sound)."""

    acyclic: bool

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
    first_pass: int | None = 64  # states the first pass may generate; None: one pass (cyclic spaces always get one)

    def __post_init__(self) -> None:
        """Counts the compiled core can hold, a first pass that can end, seconds that compare."""
        for name, least in (("node_limit", 0), ("max_states", 0), ("first_pass", 1)):
            count = getattr(self, name)
            if count is not None and (isinstance(count, bool) or not isinstance(count, int) or not least <= count <= MOST):
                raise LimitError(f"{name} is a whole number from {least} to {MOST:,}, or None; not {count!r}")
        seconds = self.time_limit
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0):
            raise LimitError(f"a time limit is a number of seconds, 0 or more, or None; not {seconds!r}")


MOST = 2**63 - 1  # the largest count a limit may give: the compiled core counts in 64 bits


@dataclass
class Outcome:
    """A verdict, the steps of a win, and what the search cost."""

    verdict: Verdict
    steps: list = field(default_factory=list)  # the winning line, one entry per search edge
    states: int = 0  # distinct canonical states generated
    nodes: int = 0  # states generated, over all passes
    seconds: float = 0.0
    reason: str = ""  # why a search ended `unknown`, in words
    limit: str | None = None  # the field of Limits that ended it: "node_limit", "time_limit" or "max_states"
    playouts: int = 0  # of a search by playouts: the games it played out (its `nodes` too)


def limit_reached(limit: str, limits: Limits) -> str:
    """How an `unknown` answer names the limit (a field of `limits`) that ended it."""
    if limit == "time_limit":
        return f"time limit {seconds_text(limits.time_limit or 0)} reached"
    if limit == "node_limit":
        return f"node limit {limits.node_limit:,} reached"
    return f"state limit {limits.max_states:,} reached"


def seconds_text(seconds: float) -> str:
    """`120s`, `0.5s`, `86,400s`: a limit as a person wrote it."""
    if seconds == int(seconds):
        return f"{int(seconds):,}s"
    return f"{seconds:,.3g}s"


class _Cut(Exception):
    """A pass ran out of its budget."""


class _Stop(Exception):
    """A limit of the whole search was reached: args are (field of Limits, reason)."""


def solve(space: SearchSpace, limits: Limits = Limits(), compiled: bool = True) -> Outcome:
    """Search `space` from its start; `lost` only after every canonical state was expanded.

    The compiled core searches the spaces it has a twin of, unless `compiled` is False.
    """
    native = getattr(space, "native", None) if compiled else None
    run = native() if native is not None else None
    if run is not None:
        return _solve_native(run, limits)
    search = _Search(space, limits)
    root = space.start()
    if space.is_won(root):
        return search.outcome(WON)
    budget, shuffle = (limits.first_pass if space.acyclic else None), None
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


def _solve_native(run: Callable[..., tuple], limits: Limits) -> Outcome:
    """The compiled search (`native`): the same passes as `_Search`, in C."""
    started = time.perf_counter()
    time_limit = None if limits.time_limit is None else float(limits.time_limit)
    verdict, steps, states, nodes, limit = run(
        node_limit=limits.node_limit, time_limit=time_limit, max_states=limits.max_states, first_pass=limits.first_pass
    )
    reason = limit_reached(limit, limits) if limit else ""
    return Outcome(Verdict(verdict), steps, states, nodes, time.perf_counter() - started, reason, limit)


class _Search:
    """The tables and counters one search keeps across its passes."""

    def __init__(self, space: SearchSpace, limits: Limits) -> None:
        self.space = space
        self.limits = limits
        self.started = time.perf_counter()
        self.closed: set = set()  # keys of states proven lost
        self.nodes = 0
        self.open = 0  # states seen in the current pass but not proven lost

    def outcome(self, verdict: Verdict, steps: list | None = None, reason: str = "", limit: str | None = None) -> Outcome:
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

        # Every state this pass has seen is either closed (popped) or on the path, so the
        # distinct states held are len(closed) + len(path_keys).
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
                        raise _Stop("node_limit", limit_reached("node_limit", limits))
                    if state_cap is not None and len(closed) + len(path_keys) >= state_cap:
                        raise _Stop("max_states", limit_reached("max_states", limits))
                    if nodes & 63 == 0 and deadline is not None and time.perf_counter() > deadline:
                        raise _Stop("time_limit", limit_reached("time_limit", limits))
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

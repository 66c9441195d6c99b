"""One exhaustive search that knows no game: depth-first with a transposition table."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Iterator, Protocol, TypeVar

S = TypeVar("S")
Step = tuple  # one search edge: the tuple of primitive moves it stands for

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

    node_limit: int | None = None  # successor states generated
    time_limit: float | None = None  # seconds
    max_states: int | None = 20_000_000  # distinct canonical states kept in memory


@dataclass
class Outcome:
    """A verdict, the primitive moves of a win, and what the search cost."""

    verdict: str
    moves: list = field(default_factory=list)
    states: int = 0
    nodes: int = 0
    seconds: float = 0.0
    reason: str = ""  # why a search ended `unknown`


def solve(space: SearchSpace, limits: Limits = Limits()) -> Outcome:
    """Search `space` from its start; `lost` only after every canonical state was expanded."""
    started = time.perf_counter()
    deadline = None if limits.time_limit is None else started + limits.time_limit
    node_cap = limits.node_limit
    state_cap = limits.max_states

    def outcome(verdict: str, moves: list, reason: str = "") -> Outcome:
        return Outcome(verdict, moves, len(seen), nodes, time.perf_counter() - started, reason)

    root = space.start()
    seen: set = {space.key(root)}
    nodes = 1
    if space.is_won(root):
        return outcome(WON, [])
    steps: list[Step] = []
    stack: list[Iterator[tuple[Step, S]]] = [iter(space.successors(root))]
    successors, is_won, key = space.successors, space.is_won, space.key
    while stack:
        for step, child in stack[-1]:
            k = key(child)
            if k in seen:
                continue
            nodes += 1
            if is_won(child):
                steps.append(step)
                return outcome(WON, [m for s in steps for m in s])
            seen.add(k)
            if node_cap is not None and nodes >= node_cap:
                return outcome(UNKNOWN, [], f"node limit {node_cap} reached")
            if state_cap is not None and len(seen) >= state_cap:
                return outcome(UNKNOWN, [], f"state limit {state_cap} reached")
            if deadline is not None and nodes & 1023 == 0 and time.perf_counter() > deadline:
                return outcome(UNKNOWN, [], f"time limit {limits.time_limit}s reached")
            steps.append(step)
            stack.append(iter(successors(child)))
            break
        else:
            stack.pop()
            if steps:
                steps.pop()
    return outcome(LOST, [])


"""Several searches tried in turn on one deal, within one set of limits.

A game whose exact search can be slow may first run quicker searches that only find wins
(a beam that finds none proves nothing), and the exact search last. All of them share the
caller's limits: each runs within what the ones before it left of the node and time
limits, and the answer counts the states and seconds of all of them. `max_states` is the
memory of one search, so each gets all of it.
"""

from __future__ import annotations

from dataclasses import replace

from .search import Limits, Outcome, limit_reached


class Budget:
    """The caller's limits and what the searches run so far have spent of them."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.spent: list[Outcome] = []

    def left(self) -> Limits:
        """What is left of the limits for the next search."""
        limits = self.limits
        nodes = limits.node_limit
        if nodes is not None:
            nodes = max(1, nodes - sum(o.nodes for o in self.spent))
        seconds = limits.time_limit
        if seconds is not None:
            seconds = max(0.0, seconds - self.seconds)
        return replace(limits, node_limit=nodes, time_limit=seconds)

    def add(self, out: Outcome) -> Outcome:
        """Count a finished search; it is given back."""
        self.spent.append(out)
        return out

    @property
    def states(self) -> int:
        return sum(o.states for o in self.spent)

    @property
    def seconds(self) -> float:
        return sum(o.seconds for o in self.spent)

    def reason(self, out: Outcome) -> str:
        """Why `out` ended, in the caller's terms: the limit the caller set, not what the
        last search had left of it."""
        if out.limit in ("time_limit", "node_limit"):
            return limit_reached(out.limit, self.limits)
        return out.reason


def stops_the_rest(out: Outcome) -> bool:
    """Whether a search ended on the time or node limit that the searches after it share.
    `max_states` (the memory of one search; the next starts afresh) leaves the next its
    turn, as does a search's own end (a beam's last layer, a stage's own budget)."""
    return out.limit in ("time_limit", "node_limit")

"""Several searches tried in turn on one deal, within one set of limits.

A game whose exact search can be slow may first run quicker searches that only find wins
(a beam that finds none proves nothing), and the exact search last. All of them share the
caller's limits: each runs within what the ones before it left of the node, time and
state limits, and the answer counts the states and seconds of all of them. So
`max_states` holds over the whole portfolio: the answer never counts more states than
it, and the exact search keeps what the quick searches left of it.
"""

from __future__ import annotations

from dataclasses import replace

from .exhaustive import Limits, Outcome, limit_reached


class Budget:
    """The caller's limits and what the searches run so far have spent of them."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.spent: list[Outcome] = []
        self.stopped: Outcome | None = None  # the search that used up a shared limit

    def left(self) -> Limits:
        """What is left of the limits for the next search."""
        limits = self.limits
        nodes = limits.node_limit
        if nodes is not None:
            nodes = max(1, nodes - sum(o.nodes for o in self.spent))
        seconds = limits.time_limit
        if seconds is not None:
            seconds = max(0.0, seconds - self.seconds)
        states = limits.max_states
        if states is not None:
            states = max(0, states - self.states)
        return replace(limits, node_limit=nodes, time_limit=seconds, max_states=states)

    def add(self, out: Outcome) -> Outcome:
        """Count a finished search; it is given back."""
        self.spent.append(out)
        if stops_the_rest(out):
            self.stopped = out
        return out

    @property
    def states(self) -> int:
        return sum(o.states for o in self.spent)

    @property
    def seconds(self) -> float:
        return sum(o.seconds for o in self.spent)

    @property
    def playouts(self) -> int:
        """The games the searches by playouts played out, all told."""
        return sum(o.playouts for o in self.spent)

    def reason(self, out: Outcome) -> str:
        """Why `out` ended, in the caller's terms: the limit the caller set, not what the
        last search had left of it."""
        if out.limit in SHARED:
            return limit_reached(out.limit, self.limits)
        return out.reason


SHARED = ("time_limit", "node_limit", "max_states")  # the limits the searches of a portfolio share


def stops_the_rest(out: Outcome) -> bool:
    """Whether a search ended on a limit that the searches after it share (time, nodes,
    states); a search's own end (a beam's last layer, a stage's own budget) leaves the next
    its turn."""
    return out.limit in SHARED

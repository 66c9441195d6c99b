"""A phase beam that hands the positions it keeps at the start of the redeal phase to the
exact search: a quick stage for PySolFC's Matrimony that finds wins the beams miss.

Why. A beam keeps a few positions a deal or redeal and, in each phase, only the lines that
hold back a few cards; the exact space (`PysolSpace`) has every line. Right after the last
deal the exact search from one position is often small enough to finish: on the deals
that every other stage left `unknown` at 300 s, it proved such positions lost in
66,000-117,000 states, or won one in 19,000-78,000 (`benchmarks/redeal_start_cost.py`).
So a beam that reaches the redeal phase with a position from which a win exists, but does
not find that win itself, wins here: a 16-wide one won 5 of those 20 deals this way (100,
318, 497, 754 and 803; two minutes a deal at most).

How. `PysolFinishSpace` is the phase space, except at a hand-over state (stock empty,
`at_round` redeals made: by default right after the last deal). There the exact search
runs from the state's position, within `nodes` states and what the caller's limits leave
(`finishing_beam` shares them):
- won: the state's one successor is the win, its step the exact line (phase steps are
  tuples of the exact space's steps, so the phase space's `moves` reads it);
- lost: no successor. The search starts from the state's position with nothing held
  back (every line from there, more than the beam's, which keep the state's holds), so
  its "lost" is the position's;
- cut short: the phase space's own successors, as if nothing had been tried.
A win is a real win (the beam's line to the state, then the exact line); anything else
proves nothing, as for every quick stage.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import replace
from typing import Any

from ...search.beam import beam_search
from ...search.exhaustive import WON, Limits, Outcome, solve
from .play import Position, Table
from .pysol_native import NativePhaseSpace
from .pysol_space import PysolPhaseSpace, PysolSpace, PysolState
from .rules import DECK, FOUNDATION_CARDS, PILES

FINISH_NODES = 100_000  # states the exact search may generate from one hand-over state


class ExactFrom:
    """The exact space (one decision per edge) of a PySolFC space, started from `root`.

    `PysolSpace(table, start=...)` is the same space; this view reuses the finishing
    space's own caches (the suit puzzles, tangles, what the foundations accept), which the
    beam has already filled for this deal, instead of starting each hand-over empty."""

    acyclic = False  # as PysolSpace

    def __init__(self, space: PysolSpace, root: PysolState) -> None:
        self.space, self.root = space, root

    def start(self) -> PysolState:
        return self.root

    def successors(self, state: PysolState) -> Iterator[tuple[tuple, PysolState]]:
        return self.space.edges(state, check_ends=True)

    def is_won(self, state: PysolState) -> bool:
        return self.space.is_won(state)

    def key(self, state: PysolState) -> Hashable:
        return self.space.key(state)

    def native(self) -> Callable[..., tuple] | None:
        """The compiled search from the root, when the core was built (a fresh cache)."""
        return self.space.native_from(self.root)


class HandOvers:
    """The hand-overs of a finishing beam, over a phase space (module docstring): the
    Python one (`PysolFinishSpace`) or the compiled one (`NativeFinishSpace`). The space
    says which states are hand-overs (`hand_over`) and what a won end is (`won_state`)."""

    label = "finishing phase"  # how a quick stage over this space is named (Stage.label)

    def __init__(
        self,
        table: Table,
        start: Position | None = None,
        outcomes: int = 300,
        holds: int | None = None,
        nodes: int = FINISH_NODES,
        at_round: int = 0,
    ) -> None:
        super().__init__(table, start, outcomes, holds)  # type: ignore[call-arg]  # the phase space's
        self.nodes, self.at_round = nodes, at_round
        self.share(Limits(node_limit=None, time_limit=None))

    @property
    def exact(self) -> PysolSpace:
        """The exact space the hand-overs search."""
        raise NotImplementedError

    def share(self, limits: Limits, nodes: int | None = None) -> None:
        """Let the exact searches from now on spend at most `limits` between them (nodes,
        states and time), and each at most `nodes` states (when given)."""
        if nodes is not None:
            self.nodes = nodes
        self.limits = limits
        self.deadline = None if limits.time_limit is None else time.perf_counter() + limits.time_limit
        self.finished: list[Outcome] = []

    def spent_nodes(self) -> int:
        return sum(out.nodes for out in self.finished)

    def spent_states(self) -> int:
        return sum(out.states for out in self.finished)

    def hand_over(self, state: Any) -> PysolState | None:
        """The exact search's root when `state` is a hand-over state (its position with
        nothing held back), else None."""
        raise NotImplementedError

    def won_state(self, state: Any) -> Any:
        """The state at the end of a win from `state`."""
        raise NotImplementedError

    def phase(self, state: Any, check_ends: bool) -> Iterator[tuple[Any, Any]]:
        root = self.hand_over(state)
        if root is not None:
            out = self.finish(root)
            if out is not None and out.verdict == WON:
                yield tuple(out.steps), self.won_state(state)
                return
            if out is not None and out.limit is None:
                return  # lost: the position itself, whatever the line holds back
        yield from super().phase(state, check_ends)  # type: ignore[misc]  # the phase space's own walk

    def finish(self, root: PysolState) -> Outcome | None:
        """The exact search from `root` within what is left, or None when nothing is."""
        nodes = self.nodes
        if self.limits.node_limit is not None:
            nodes = min(nodes, self.limits.node_limit - self.spent_nodes())
        states = self.limits.max_states
        if states is not None:
            states -= self.spent_states()
        seconds = None if self.deadline is None else self.deadline - time.perf_counter()
        if nodes < 1 or (states is not None and states < 1) or (seconds is not None and seconds <= 0):
            return None
        out = solve(ExactFrom(self.exact, root), replace(self.limits, node_limit=nodes, time_limit=seconds, max_states=states))
        self.finished.append(out)
        return out


def won_position(rounds: int) -> Position:
    """Every card on the foundations (the rounds it took do not matter to a beam, which
    stops at a win)."""
    return Position((b"",) * PILES, (FOUNDATION_CARDS,) * 8, DECK, rounds)


class PysolFinishSpace(HandOvers, PysolPhaseSpace):
    """The phase space, with the exact search at each hand-over state (module docstring)."""

    @property
    def exact(self) -> PysolSpace:
        return self  # its own exact space, whose caches the beam has filled

    def hand_over(self, state: PysolState) -> PysolState | None:
        if state.pos.stock == DECK and state.pos.rounds == self.at_round:
            return PysolState(state.pos, frozenset(), frozenset())
        return None

    def won_state(self, state: PysolState) -> PysolState:
        return PysolState(won_position(state.pos.rounds), frozenset(), frozenset())


class NativeFinishSpace(HandOvers, NativePhaseSpace):
    """PysolFinishSpace over the compiled phase space: the same hand-overs, the same ends."""

    @property
    def exact(self) -> PysolSpace:
        return self.exact_space

    def hand_over(self, state: bytes) -> PysolState | None:
        pos = self.exact.position_of(state)
        if pos.stock == DECK and pos.rounds == self.at_round:
            return PysolState(pos, frozenset(), frozenset())
        return None

    def won_state(self, state: bytes) -> bytes:
        key = self.exact.key(PysolState(won_position(self.exact.position_of(state).rounds), frozenset(), frozenset()))
        assert isinstance(key, bytes)
        return key


def finishing_beam(
    space: PysolFinishSpace, width: int, limits: Limits, seed: int, playouts: bool, nodes: int | None = None
) -> Outcome:
    """A phase beam over `space` whose exact searches share `limits` with it: a node or
    state limit goes half to the beam and half to them, and their states count in the
    outcome. With `nodes`, each exact search stops there (else at the space's own `nodes`)."""
    beam_limits, theirs = limits, limits
    for name in ("node_limit", "max_states"):
        count = getattr(limits, name)
        if count is not None:
            beam_limits = replace(beam_limits, **{name: (count + 1) // 2})
            theirs = replace(theirs, **{name: count // 2})
    space.share(theirs, nodes)
    playout = space.greedy_phase if playouts else None
    out = beam_search(space, space.cards_down, width, beam_limits, seed, space.deferred(), playout)
    extra = space.spent_nodes()
    return replace(out, states=out.states + extra, nodes=out.nodes + extra)

"""PySolFC's exact Matrimony space a phase at a time, walked by the compiled core.

`NativePhaseSpace` is `PysolPhaseSpace` (pysol_space.py) with its phases, playouts and dead
tests run in C (`wedlock._core.PysolPhases`): the same ends of each phase in the same order,
so a beam over it keeps the same states, counts the same nodes and finds the same win
(tests/games/test_core_pysol.py). Its states are the exact space's keys (`PysolSpace.key`),
bytes that are their own key; a step is the bytes of the exact steps a phase is made of,
which `moves` reads back. The Python space stays the statement of what a phase is.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from ...basics.compiled import compiled_core
from ...search.beam import Deferred
from .moves import Move
from .play import Position, Table
from .pysol_space import PysolSpace

PhaseEdge = tuple[bytes, bytes]  # (the phase's steps, the state at its end)


class NativePhaseSpace:
    """PysolPhaseSpace over the compiled core (see the module docstring)."""

    label = "phase"  # how a quick stage over this space is named (as PysolPhaseSpace)
    acyclic = True  # every step deals or redeals

    def __init__(self, table: Table, start: Position | None = None, outcomes: int = 300, holds: int | None = None) -> None:
        core = compiled_core()
        if core is None:
            raise RuntimeError("the compiled core is not in use")
        if holds is not None and not 0 <= holds <= 250:
            raise ValueError(f"a phase holds back 0 to 250 cards, or any number (None), not {holds}")
        self.exact_space = PysolSpace(table, start)
        self.outcomes, self.holds = outcomes, holds
        self.core: Any = core.pysol_phases(*self.exact_space.core_rules(), outcomes, -1 if holds is None else holds)

    def start(self) -> bytes:
        key = self.exact_space.key(self.exact_space.start())
        assert isinstance(key, bytes)
        return key

    def successors(self, state: bytes) -> Iterator[PhaseEdge]:
        return self.phase(state, True)

    def open_successors(self, state: bytes) -> Iterator[PhaseEdge]:
        """The successors before the dead test of each phase's end (`viable`)."""
        return self.phase(state, False)

    def phase(self, state: bytes, check_ends: bool) -> Iterator[PhaseEdge]:
        """The ends of the phase from `state` (PysolPhaseSpace.phase)."""
        return iter(self.core.phase(state, check_ends))

    def viable(self, state: bytes) -> bool:
        return self.core.viable(state)

    def deferred(self) -> Deferred:
        return Deferred(self.open_successors, self.viable)

    def greedy_phase(self, state: bytes) -> list[PhaseEdge]:
        """The exact space's first line through the phase, as PysolPhaseSpace.greedy_phase."""
        return self.core.greedy(state)

    def is_won(self, state: bytes) -> bool:
        return self.core.won(state)

    def cards_down(self, state: bytes) -> int:
        return self.core.cards_down(state)

    def key(self, state: bytes) -> Hashable:
        return state

    def moves(self, steps: Sequence[bytes | tuple]) -> list[Move]:
        """The primitive moves of a line of phases: each phase's steps are the bytes the core
        gives, or the exact steps themselves (a finishing beam's exact search, pysol_finish.py)."""
        exact: list[tuple] = []
        for phase in steps:
            exact += self.core.exact_steps(phase) if isinstance(phase, bytes) else phase
        return self.exact_space.moves(exact)

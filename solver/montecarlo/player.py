"""Monte Carlo as a player makes moves, for the state-graph analysis (`solver.analysis`).

Every choice is one primitive move. A consolidation ends a phase: the pairs (and kings)
removed between two consolidations can be removed in any order, which the analysis uses to
keep one graph node per phase start.
"""

from __future__ import annotations

from typing import Hashable

from .moves import Consolidate, Move
from .play import Position, Table


class PlayerView:
    """One deal's primitive play, in the shape `solver.analysis.Play` asks for."""

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        self._start = start if start is not None else table.start()

    def start(self) -> Position:
        return self._start

    def key(self, pos: Position) -> Hashable:
        return self.table.key(pos)

    def is_won(self, pos: Position) -> bool:
        return self.table.is_won(pos)

    def choices(self, pos: Position) -> list[tuple[Move]]:
        return [(move,) for move in self.table.legal_moves(pos)]

    def apply(self, pos: Position, choice: tuple[Move]) -> Position:
        return self.table.apply(pos, choice[0])

    def ends_phase(self, choice: tuple[Move]) -> bool:
        return isinstance(choice[0], Consolidate)

    def takes_cards(self, choice: tuple[Move]) -> bool:
        return not isinstance(choice[0], Consolidate)

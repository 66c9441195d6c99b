"""Monte Carlo as a player makes moves, for the state-graph analysis (`solver.analysis`).

Every choice is one primitive move. A consolidation ends a phase: the pairs (and kings)
removed between two consolidations can be removed in any order, which the analysis uses to
keep one graph node per phase start.

Removing cards never makes two cards touch, so the removals left after a removal are the
earlier ones that do not use its cells: `apply` hands them on to `choices` instead of
searching the grid again.
"""

from __future__ import annotations

from typing import Hashable

from .moves import Consolidate, Move, Pair
from .play import Position, Table


class PlayerView:
    """One deal's primitive play, in the shape `solver.analysis.Play` asks for."""

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        self._start = start if start is not None else table.start()
        self._last: tuple[Position | None, list[Move]] = (None, [])  # the last `choices` asked
        self._known: dict[Position, list[Move]] = {}  # removals handed on by `apply`

    def start(self) -> Position:
        return self._start

    def key(self, pos: Position) -> Hashable:
        return self.table.key(pos)

    def is_won(self, pos: Position) -> bool:
        return self.table.is_won(pos)

    def choices(self, pos: Position) -> list[tuple[Move]]:
        removals = self._known.pop(pos, None)
        if removals is None:
            removals = list(self.table.removals(pos))
        self._last = (pos, removals)
        return [(move,) for move in self.table.moves_with(pos, removals)]

    def apply(self, pos: Position, choice: tuple[Move]) -> Position:
        move = choice[0]
        after = self.table.apply(pos, move)
        last, removals = self._last
        if last is pos and not isinstance(move, Consolidate):
            if len(self._known) > 100_000:  # handed on but never asked for
                self._known.clear()
            gone = set(move.cells) if isinstance(move, Pair) else {move.cell}
            self._known[after] = [m for m in removals if gone.isdisjoint(m.cells if isinstance(m, Pair) else (m.cell,))]
        return after

    def ends_phase(self, choice: tuple[Move]) -> bool:
        return isinstance(choice[0], Consolidate)

    def takes_cards(self, choice: tuple[Move]) -> bool:
        return not isinstance(choice[0], Consolidate)

"""The plain Matrimony search space: one primitive move per edge.

It is the reference the solver's spaces (`arnold_space.py`, `pysol_space.py`) are checked
against. Every space turns the steps of a winning line back into primitive moves with
`moves`.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from .moves import Move
from .play import Position, Table


class PlainSpace:
    """Every primitive move is one edge: the reference the faster spaces are checked against.

    Under PySolFC's rules shifts make cycles, so an exact verdict from this space needs a
    single search pass (`Limits(first_pass=None)`).
    """

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        self._start = start if start is not None else table.start()
        self.is_won = table.is_won
        self.key = table.key

    def start(self) -> Position:
        return self._start

    def successors(self, pos: Position) -> Iterator[tuple[Move, Position]]:
        for move in self.table.legal_moves(pos):
            yield move, self.table.apply(pos, move)

    def moves(self, steps: Sequence[Move]) -> list[Move]:
        return list(steps)

"""The plain search space of any game: one primitive move per edge.

It is the reference every faster space is checked against: the tests compare its verdicts
with theirs on positions small enough to search fully. It asks a game's table only for the
moves it allows and what they do.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Generic, Protocol, TypeVar

P = TypeVar("P")
M = TypeVar("M")


class MoveTable(Protocol[P, M]):
    """One deal under one rule set: its start, its legal moves, their effect, its goal."""

    def start(self) -> P: ...

    def legal_moves(self, pos: P) -> list[M]: ...

    def apply(self, pos: P, move: M) -> P: ...

    def is_won(self, pos: P) -> bool: ...

    def key(self, pos: P) -> Hashable: ...


class PlainSpace(Generic[P, M]):
    """Every legal move is one edge, from the table's start or from `start` if given.

    Where moves can undo each other (shifts under PySolFC's Matrimony rules) the space has
    cycles; it is called acyclic only when the caller says so, and the search then may
    restart (search/exhaustive.py).
    """

    def __init__(self, table: MoveTable[P, M], start: P | None = None, acyclic: bool = False) -> None:
        self.table = table
        self.acyclic = acyclic
        self._start = start if start is not None else table.start()
        self.is_won = table.is_won
        self.key = table.key

    def start(self) -> P:
        return self._start

    def successors(self, pos: P) -> Iterator[tuple[M, P]]:
        for move in self.table.legal_moves(pos):
            yield move, self.table.apply(pos, move)

    def moves(self, steps: Sequence[M]) -> list[M]:
        """A winning line's steps are already primitive moves."""
        return list(steps)

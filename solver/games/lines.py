"""Moves bound to their game and rule set, so that each can say itself: text and JSON.

A game's own move values (`montecarlo.moves`, `matrimony.moves`) need the rule set to be
written out (a Matrimony foundation's name depends on it); a `Move` carries it, and a
`Line` is a sequence of them, such as a winning line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from .protocol import Game


@dataclass(frozen=True)
class Move:
    """One move of a game under a rule set, as a player makes it."""

    game: Game
    rules: Any
    raw: Any  # the game's own move value

    def text(self) -> str:
        """The move in the notation a player follows in PySolFC: `B3 QS + C4 QH`."""
        return self.game.move_text(self.rules, self.raw)

    def to_json(self) -> dict[str, Any]:
        """The move as JSON data: `{"move": "pair", "cells": [7, 13], "cards": ["QS", "QH"]}`."""
        return self.game.move_json(self.raw)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<Move {self.text()}>"


class Line(tuple):
    """Moves in the order they are made (a tuple of `Move`s)."""

    @classmethod
    def of(cls, game: Game, rules: Any, raw_moves: Iterable[Any]) -> Line:
        """The line of a game's own move values."""
        return cls(Move(game, rules, m) for m in raw_moves)

    def text(self, numbered: bool = True) -> str:
        """One numbered move a line, as `solve` prints them and `verify` reads them back;
        or, not numbered, the moves on one line with `; ` between them."""
        if not numbered:
            return "; ".join(move.text() for move in self)
        return "\n".join(f"{i}. {move.text()}" for i, move in enumerate(self, 1))

    def to_json(self) -> list[dict[str, Any]]:
        """The moves as a JSON list, as `solve --json` prints them."""
        return [move.to_json() for move in self]

    def raw(self) -> list[Any]:
        """The game's own move values."""
        return [move.raw for move in self]

    def __repr__(self) -> str:
        """`<Line of 43 moves: A1 QC + B1 QH; B2 4S + B3 4D; ...>`: its first moves only."""
        shown = "; ".join(move.text() for move in self[:3]) + ("; ..." if len(self) > 3 else "")
        return f"<Line of {len(self)} move{'' if len(self) == 1 else 's'}{': ' + shown if self else ''}>"


class CodedLine(Sequence[Any]):
    """A line of a game's moves kept as the small tuples of ints the solver's steps give
    (a game's `Coded` moves), each made into the game's own move value only when it is
    read: a batch that writes counts reads none, and the referee replays the codes."""

    def __init__(self, codes: Iterable[tuple[int, ...]], move_of: Callable[[tuple[int, ...]], Any]) -> None:
        self.codes = tuple(codes)
        self.move_of = move_of
        self._moves: list[Any] | None = None

    def __len__(self) -> int:
        return len(self.codes)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self.moves()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.moves())

    def moves(self) -> list[Any]:
        """The game's own move values, made the first time they are asked for."""
        if self._moves is None:
            self._moves = [self.move_of(code) for code in self.codes]
        return self._moves

    def __repr__(self) -> str:
        return f"<CodedLine of {len(self.codes)} moves>"


def codes_of(moves: Sequence[Any], coded: Callable[[Any], tuple[int, ...] | None]) -> Sequence[tuple[int, ...]] | None:
    """A line's coded moves: a CodedLine's own, else each move's (`coded`, a game's); None
    when some move has none."""
    if isinstance(moves, CodedLine):
        return moves.codes
    codes = []
    for move in moves:
        code = coded(move)
        if code is None:
            return None
        codes.append(code)
    return codes

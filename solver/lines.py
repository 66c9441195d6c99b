"""Moves bound to their game and rule set, so that each can say itself: text and JSON.

A game's own move values (`montecarlo.moves`, `matrimony.moves`) need the rule set to be
written out (a Matrimony foundation's name depends on it); a `Move` carries it, and a
`Line` is a sequence of them, such as a winning line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .game import Game


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

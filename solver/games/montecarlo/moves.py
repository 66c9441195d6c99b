"""Monte Carlo moves as values, with a text form a player can follow and a JSON form.

Cells are numbered 0.. in reading order inside the program and in JSON. In text a cell is
named like a spreadsheet cell: a row letter from A (top) and a column number from 1 (left),
so `B3` is the second row, third column. Text forms:

    B3 QS + C4 QH     remove the touching pair QS (B3) and QH (C4)
    D2 KS             remove a king on its own (Thirteens)
    consolidate       close the gaps and deal from the stock (PySolFC: click the stock)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...basics.cards import BY_CODE, Card
from ...basics.errors import CardError, MoveSyntaxError

ROW_LETTERS = "ABCDEFGHIJ"


def cell_name(cell: int, cols: int) -> str:
    """`B3` for the cell in the second row, third column."""
    row, col = divmod(cell, cols)
    return f"{ROW_LETTERS[row]}{col + 1}"


def parse_cell(text: str, cols: int) -> int:
    """The cell index of a name like `B3`."""
    match = re.fullmatch(r"([A-Ja-j])([1-9])", text.strip())
    if not match or int(match.group(2)) > cols:
        raise MoveSyntaxError(f"not a cell: {text!r} (write a row letter and a column number, like B3)")
    return ROW_LETTERS.index(match.group(1).upper()) * cols + int(match.group(2)) - 1


@dataclass(frozen=True)
class Pair:
    """Remove two touching cards that match."""

    cells: tuple[int, int]
    cards: tuple[Card, Card]

    def text(self, cols: int = 5) -> str:
        (a, b), (x, y) = self.cells, self.cards
        return f"{cell_name(a, cols)} {x} + {cell_name(b, cols)} {y}"

    def to_json(self) -> dict[str, Any]:
        return {"move": "pair", "cells": list(self.cells), "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True)
class King:
    """Remove a king on its own (Thirteens)."""

    cell: int
    card: Card

    def text(self, cols: int = 5) -> str:
        return f"{cell_name(self.cell, cols)} {self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"move": "king", "cells": [self.cell], "cards": [str(self.card)]}


@dataclass(frozen=True)
class Consolidate:
    """Close the gaps and fill the grid from the stock."""

    def text(self, cols: int = 5) -> str:
        return "consolidate"

    def to_json(self) -> dict[str, Any]:
        return {"move": "consolidate"}


Move = Pair | King | Consolidate
Removal = Pair | King  # a move that takes cards out of play

# A move as a small tuple of ints: a pair (cell, card, cell, card), a lone king (cell,
# card), consolidate (); a card is its code (`Card.code`). The solver's lines travel in this
# form, made into moves only when someone reads them, and the referee replays it as it is
# (`verify.replay_codes`).
Coded = tuple[int, ...]


def move_of(coded: Coded) -> Move:
    """The move a coded move stands for."""
    if len(coded) == 4:
        a, x, b, y = coded
        return Pair((a, b), (BY_CODE[x], BY_CODE[y]))
    if len(coded) == 2:
        return King(coded[0], BY_CODE[coded[1]])
    if not coded:
        return Consolidate()
    raise ValueError(f"not a coded Monte Carlo move: {coded!r}")


def coded(move: Any) -> Coded | None:
    """A move as its coded tuple; None when it is not a well-formed move (cells that are not
    whole numbers, cards that are not Cards, the wrong number of either)."""
    if isinstance(move, Pair) and isinstance(move.cells, tuple) and isinstance(move.cards, tuple):
        if len(move.cells) == len(move.cards) == 2 and all(_is_cell(c) for c in move.cells):
            (a, b), (x, y) = move.cells, move.cards
            if isinstance(x, Card) and isinstance(y, Card):
                return a, x.code, b, y.code
        return None
    if isinstance(move, King):
        return (move.cell, move.card.code) if _is_cell(move.cell) and isinstance(move.card, Card) else None
    return () if isinstance(move, Consolidate) else None


def _is_cell(cell: Any) -> bool:
    return isinstance(cell, int) and not isinstance(cell, bool)

_NUMBERED = re.compile(r"^\s*+[0-9]++[.)]\s*+")


def parse_move(text: str, cols: int = 5) -> Move:
    """Read one move in the text form (a leading `12.` is allowed)."""
    body = _NUMBERED.sub("", text).strip()
    if body.lower() == "consolidate":
        return Consolidate()
    halves = [h.split() for h in body.split("+")]
    try:
        if len(halves) == 1 and len(halves[0]) == 2:
            (cell, card), = halves
            return King(parse_cell(cell, cols), Card.parse(card))
        if len(halves) == 2 and all(len(h) == 2 for h in halves):
            (ca, xa), (cb, xb) = halves
            return Pair((parse_cell(ca, cols), parse_cell(cb, cols)), (Card.parse(xa), Card.parse(xb)))
    except CardError as err:
        raise MoveSyntaxError(f"{text.strip()!r}: {err}") from None
    raise MoveSyntaxError(f"not a Monte Carlo move: {text.strip()!r} (expected like 'B3 QS + C4 QH' or 'consolidate')")


def move_from_json(obj: Any) -> Move:
    """Read one move in the JSON form that `solve --json` prints."""
    if not isinstance(obj, dict) or obj.get("move") not in ("pair", "king", "consolidate"):
        raise MoveSyntaxError(f"not a Monte Carlo move: {obj!r}")
    kind = obj["move"]
    if kind == "consolidate":
        return Consolidate()
    cells, cards = obj.get("cells"), obj.get("cards")
    size = 2 if kind == "pair" else 1
    if (
        not isinstance(cells, list)
        or not isinstance(cards, list)
        or len(cells) != size
        or len(cards) != size
        or not all(type(c) is int and c >= 0 for c in cells)
        or not all(isinstance(c, str) for c in cards)
    ):
        raise MoveSyntaxError(f"a {kind} move needs {size} cell number(s) and {size} card(s): {obj!r}")
    try:
        parsed = tuple(Card.parse(c) for c in cards)
    except CardError as err:
        raise MoveSyntaxError(f"{obj!r}: {err}") from None
    if kind == "pair":
        return Pair((cells[0], cells[1]), parsed)  # type: ignore[arg-type]
    return King(cells[0], parsed[0])

"""Games under way: the position after some moves, or as a player types it from the screen.

`position` makes a `pipeline.Position`; `solve`, `verify`, `analyze` and `hint` take one
where they take a deal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import IllegalMoveError, PositionError
from .game import Game
from .input_files import UNREADABLE, bounded, read_text, why_unreadable
from .lines import Line
from .pipeline import DealSource, Position, deal, game_of, illegal, read_moves
from .shown import printable


def position(
    game: str | Game,
    source: DealSource | Position,
    rules: str | None = None,
    *,
    after: Any = None,
    text: str | Path | None = None,
) -> Position:
    """The position of a game under way: the deal's opening, or the position `text` gives
    (as a player types it from the screen: `Position.text()` writes that form), then the
    moves `after` (in any form `verify` takes). An illegal move is an IllegalMoveError
    that names it; a position that cannot arise from the deal is a PositionError.

    >>> p = position("monte-carlo", 12345, after=["A1 QC + B1 QH", "consolidate"])
    >>> p.label
    'game 12345, after 2 moves'
    >>> print(p.text().splitlines()[2])
      B  4D  9C  4C  2S  JC
    >>> position("monte-carlo", 12345, text=p.text()).seen == p.seen
    True
    """
    if isinstance(source, Position):
        start = source
        if rules is not None and deal(game_of(game), source.deal, rules).rules is not source.deal.rules:
            raise PositionError("a position is played under its deal's rules")
        if text is not None:
            raise PositionError("a position is given once: as a Position or as text")
    else:
        chosen = deal(game, source, rules)
        if text is None:
            start = Position(chosen, chosen.game.opening(chosen.rules, chosen.cards))
        else:
            typed = _text(text)
            start = Position(chosen, chosen.game.parse_position(chosen.rules, chosen.cards, typed), typed=True)
    if after is None:
        return start
    return played(start, read_moves(start.deal, after, len(start.moves)))


def played(start: Position, moves: list[Any]) -> Position:
    """The position after `moves` from `start`; an IllegalMoveError names the first
    illegal one."""
    chosen, seen = start.deal, start.seen
    for number, move in enumerate(moves, len(start.moves) + 1):
        try:
            seen = chosen.game.after(chosen.rules, seen, move)
        except IllegalMoveError as err:
            raise IllegalMoveError(illegal(chosen, number, move, err)) from None
    line = Line((*start.moves, *Line.of(chosen.game, chosen.rules, moves)))
    return Position(chosen, seen, line, start.typed)


def _text(text: str | Path) -> str:
    if isinstance(text, Path):
        try:
            return read_text(text)
        except UNREADABLE as err:
            raise PositionError(f"cannot read position file '{printable(str(text))}': {why_unreadable(err)}") from None
    if not isinstance(text, str):
        raise PositionError(f"a position is given as text, not {type(text).__name__}")
    return bounded(text, "the position")

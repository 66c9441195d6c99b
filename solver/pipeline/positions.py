"""Games under way: the position after some moves, or as a player types it from the screen.

`position` makes a `pipeline.Position`; `solve`, `verify`, `analyze` and `hint` take one
where they take a deal.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..basics.errors import IllegalMoveError, PositionError, SavedGameError
from ..basics.input_files import UNREADABLE, bounded, read_text, why_unreadable
from ..basics.printable import printable
from ..games.lines import Line
from ..games.protocol import Game
from ..games.registry import rules_of
from ..search.exhaustive import Limits
from . import save_formats
from .solving import DealSource, Position, deal, game_of, illegal, read_moves


def position(
    game: str | Game | None = None,
    source: DealSource | Position | None = None,
    rules: str | None = None,
    *,
    after: Any = None,
    text: str | Path | None = None,
    pysolfc_save: str | Path | bytes | None = None,
    time_limit: float | None = None,
) -> Position:
    """The position of a game under way: the deal's opening, or the position `text` gives
    (as a player types it from the screen: `Position.text()` writes that form), or the
    game PySolFC saved in the file `pysolfc_save` (File > Save: its game, number and
    moves; `game`, `source` and `rules` may be left out, and must agree with it when
    given), then the moves `after` (in any form `verify` takes). An illegal move is an
    IllegalMoveError that names it; a position that cannot arise from the deal is a
    PositionError; a save that cannot be read a SavedGameError, and one still being read
    after `time_limit` seconds OutOfTime.

    >>> p = position("monte-carlo", 12345, after=["A1 QC + B1 QH", "consolidate"])
    >>> p.label
    'game 12345, after 2 moves'
    >>> print(p.text().splitlines()[2])
      B  4D  9C  4C  2S  JC
    >>> position("monte-carlo", 12345, text=p.text()).seen == p.seen
    True
    """
    if pysolfc_save is not None:
        seconds = Limits(time_limit=time_limit).time_limit  # a LimitError for what is no number of seconds
        deadline = None if seconds is None else time.monotonic() + seconds
        start = _saved(game, source, rules, text, pysolfc_save, deadline)
    elif game is None or source is None:
        raise PositionError("a position needs its game and its deal (a game number, its cards, a Deal or a Position), or a saved game")
    elif isinstance(source, Position):
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


def _saved(game: str | Game | None, source: Any, rules: str | None, text: Any, path: Any, deadline: float | None) -> Position:
    """The position of a game PySolFC saved, which the game, deal and rules, when given,
    must name."""
    if text is not None:
        raise PositionError("a position is given once: as a saved game or as text")
    if isinstance(source, Position):
        raise PositionError("a position is given once: as a saved game or as a Position")
    start = save_formats.reader("pysolfc")(path, deadline)
    chosen = start.deal
    if game is not None and game_of(game) is not chosen.game:
        raise SavedGameError(f"the saved game is of {chosen.title}, not of {printable(str(game_of(game).name))}")
    if rules is not None and rules_of(chosen.game, rules) is not chosen.rules:
        raise SavedGameError(f"the saved game is of {chosen.title}, not of its rules {printable(rules)!r}")
    if source is not None and deal(chosen.game, source, chosen.rules.name).number != chosen.number:
        raise SavedGameError(f"the saved game is {chosen.label}, not that deal")
    return start


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

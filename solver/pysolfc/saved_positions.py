"""A game PySolFC saved, as the position of a game under way wedlock plays on from.

The save gives the game, its number and the history of moves made; the position is the
deal after those moves (the played part of the history: steps past its place are undone
moves, kept for Redo), each one read as a wedlock move, judged by the referee, and checked
to be the very step PySolFC records for it. The cards of the save must then lie where
those moves put them, card by card and in every stack: a save whose cards and history
disagree is refused. A save wedlock writes of a game under way starts its history there
instead of at the deal; that position must be one the deal can reach.
"""

from __future__ import annotations

import time
from pathlib import Path

from ..basics.errors import IllegalMoveError, OutOfTime, PositionError, SavedGameError
from ..basics.printable import printable
from ..games.lines import Line
from ..pipeline.solving import Deal, Position, deal
from .atomic import Layout, played, shape, unplayed
from .history import move_for, step_for
from .layout import layout_of, same_cards, seen_of, start_layout, talon_of
from .saves import SavedGame, read


def saved_position(source: str | Path | bytes, deadline: float | None = None) -> Position:
    """The position of the game saved at a path (or in these bytes); past `deadline`
    (`time.monotonic()`'s clock), OutOfTime."""
    saved = read(source, deadline)
    where = "" if isinstance(source, bytes) else f"'{printable(str(source))}': "
    try:
        return position_of(saved, deadline)
    except SavedGameError as err:
        raise SavedGameError(f"{where}{err}") from None


def position_of(saved: SavedGame, deadline: float | None = None) -> Position:
    """The position a save's played moves reach, checked against its cards. The history
    starts at the deal, or (a save wedlock wrote of a game under way) at a position that
    must be one the deal can reach, read as a position typed from the screen is."""
    game_name, rules_name = saved.names
    chosen = deal(game_name, saved.number, rules_name)
    game, rules = chosen.game, chosen.rules
    talon, last_round = talon_of(game.opening(rules, chosen.cards))
    played_steps = saved.history[: saved.index]
    layout = saved.layout
    try:
        for step in reversed(played_steps):
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime("the time limit ran out while the saved game's moves were replayed")
            layout = unplayed(layout, step, talon)
    except SavedGameError as err:
        raise SavedGameError(f"its cards are not where its moves put them in {chosen.label} ({err})") from None
    if layout == start_layout(chosen):
        start = Position(chosen, game.opening(rules, chosen.cards))
    else:
        start = Position(chosen, _typed(chosen, layout), typed=True)
    seen, moves = start.seen, []
    for number, step in enumerate(played_steps, 1):
        if deadline is not None and not number % 64 and time.monotonic() > deadline:
            raise OutOfTime("the time limit ran out while the saved game's moves were replayed")
        move = move_for(rules, seen, step)
        try:
            seen = game.after(rules, seen, move)
        except IllegalMoveError as err:
            raise SavedGameError(f"move {number} of the saved game is not legal: {err}") from None
        if [shape(a) for a in step_for(rules, layout, move)] != [shape(a) for a in step]:
            raise SavedGameError(f"move {number} of the saved game ({game.move_text(rules, move)}) is not what PySolFC records for it")
        layout = played(layout, step, talon, last_round)
        moves.append(move)
    if layout != saved.layout or not same_cards(layout, layout_of(seen)):
        raise SavedGameError(f"its cards are not where its moves put them in {chosen.label}")
    return Position(chosen, seen, Line.of(game, rules, moves), start.typed)


def _typed(chosen: Deal, layout: Layout) -> object:
    """The position the cards of a layout show, when the deal can reach it (as a position
    typed from the screen must)."""
    game, rules = chosen.game, chosen.rules
    seen = seen_of(rules, layout)
    if not same_cards(layout_of(seen), layout):
        raise SavedGameError(f"its cards do not lie as they do in a game of {chosen.title}")
    try:
        checked = game.parse_position(rules, chosen.cards, game.position_text(rules, seen))
    except PositionError as err:
        raise SavedGameError(f"its cards are not where its moves put them in {chosen.label}: {err}") from None
    if not game.same_position(rules, chosen.cards, seen, checked):
        raise SavedGameError(f"its cards are not where its moves put them in {chosen.label}: the stock is not the deal's")
    return seen

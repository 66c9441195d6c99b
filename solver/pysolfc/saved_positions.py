"""A game PySolFC saved, as the position of a game under way wedlock plays on from.

The save gives the game, its number and the history of moves made; the position is the
deal after those moves (the played part of the history: steps past its place are undone
moves, kept for Redo), each one read as a wedlock move, judged by the referee, and checked
to be the very step PySolFC records for it. The cards of the save must then lie where
those moves put them, card by card and in every stack: a save whose cards and history
disagree is refused.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import IllegalMoveError, SavedGameError
from ..lines import Line
from ..pipeline import Deal, Position, deal
from ..shown import printable
from .atomic import Layout, played, shape
from .history import move_for, step_for
from .layout import layout_of, same_cards, start_layout, talon_of
from .saves import SavedGame, read


def saved_position(source: str | Path | bytes) -> Position:
    """The position of the game saved at a path (or in these bytes)."""
    saved = read(source)
    where = "" if isinstance(source, bytes) else f"'{printable(str(source))}': "
    try:
        return position_of(saved)
    except SavedGameError as err:
        raise SavedGameError(f"{where}{err}") from None


def position_of(saved: SavedGame) -> Position:
    """The position a save's played moves reach from its deal, checked against its cards."""
    game_name, rules_name = saved.names
    chosen = deal(game_name, saved.number, rules_name)
    game, rules = chosen.game, chosen.rules
    layout = start_layout(chosen)
    seen = game.opening(rules, chosen.cards)
    talon, last_round = talon_of(seen)
    moves = []
    for number, step in enumerate(saved.history[: saved.index], 1):
        move = move_for(rules, seen, step)
        try:
            seen = game.after(rules, seen, move)
        except IllegalMoveError as err:
            raise SavedGameError(f"move {number} of the saved game is not legal: {err}") from None
        if [shape(a) for a in step_for(rules, layout, move)] != [shape(a) for a in step]:
            raise SavedGameError(f"move {number} of the saved game ({game.move_text(rules, move)}) is not what PySolFC records for it")
        layout = played(layout, step, talon, last_round)
        moves.append(move)
    _check_cards(chosen, saved.layout, layout, seen)
    return Position(chosen, seen, Line.of(game, rules, moves))


def _check_cards(chosen: Deal, in_file: Layout, reached: Layout, seen: object) -> None:
    """The save's cards are where its moves put them, and where the referee says they are."""
    if in_file != reached:
        raise SavedGameError(f"its cards are not where its moves put them in {chosen.label}: the file is damaged")
    if not same_cards(reached, layout_of(seen)):
        raise SavedGameError(f"its cards are not where wedlock's referee puts them in {chosen.label}")

"""The positions of a line as plain data, for the page and the pictures: each position as
its game lays it out (`Game.layout`), and for each move the places whose cards it moves
(`Game.touches`). The referee makes every position."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .solving import Deal, Position


@dataclass(frozen=True)
class Frames:
    positions: list[dict[str, Any]]  # len(moves) + 1, the start first
    touches: list[list[dict[str, Any]]]  # one a move


def start_of(start: Deal | Position) -> tuple[Deal, Any]:
    """The deal and the referee's position a line starts from."""
    if isinstance(start, Position):
        return start.deal, start.seen
    return start, start.game.opening(start.rules, start.cards)


def frames(start: Deal | Position, moves: Sequence[Any]) -> Frames:
    """Every position of `moves` (the game's raw moves) played from `start`."""
    chosen, seen = start_of(start)
    game, rules = chosen.game, chosen.rules
    positions, touches = [game.layout(rules, seen)], []
    for move in moves:
        touches.append(game.touches(rules, seen, move))
        seen = game.after(rules, seen, move)
        positions.append(game.layout(rules, seen))
    return Frames(positions, touches)

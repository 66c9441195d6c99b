"""The registry of games, looked up by the name typed on the command line."""

from __future__ import annotations

from .errors import RulesError
from .game import Game
from .matrimony import GAME as MATRIMONY
from .montecarlo import GAME as MONTE_CARLO

GAMES: dict[str, Game] = {g.name: g for g in (MONTE_CARLO, MATRIMONY)}


def game_named(name: str) -> Game:
    """The game called `name`, or a RulesError listing the known ones."""
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}") from None

"""Deals proven winnable, for PySolFC: a random number from wedlock's shipped tables, and
the four "Always Solvable" games whose fresh deals are such numbers.

`register_always_solvable` is the one place the games are made; the plugin calls it at
PySolFC's start, and registers a game only where its id is free (a PySolFC that ships
the games itself keeps its own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..basics.errors import WedlockError
from ..results.tables import table
from ..search.exhaustive import Verdict
from .ids import ALWAYS_SOLVABLE_IDS, GAME_IDS

# Each game's name in PySolFC's game list, by wedlock's game and rule set.
ALWAYS_SOLVABLE_NAMES = {
    ("monte-carlo", "pysol"): "Monte Carlo (Always Solvable)",
    ("monte-carlo", "weddings"): "Weddings (Always Solvable)",
    ("monte-carlo", "2decks"): "Monte Carlo (2 Decks) (Always Solvable)",
    ("matrimony", "pysol"): "Matrimony (Always Solvable)",
}
# The rules page PySolFC shows for each (that of the game it is made from).
RULES_PAGES = {
    ("monte-carlo", "pysol"): "montecarlo.html",
    ("monte-carlo", "weddings"): "weddings.html",
    ("monte-carlo", "2decks"): "montecarlo2decks.html",
    ("matrimony", "pysol"): "matrimony.html",
}
DRAWS = 10_000  # numbers drawn at most before giving up (a table's winnable share is 40% at the least)


class NoWinnableDeal(WedlockError):
    """No shipped table gives proven-winnable numbers of this game."""


class Draws(Protocol):
    """A source of random numbers: Python's `random.Random`, or PySolFC's game generator."""

    def randrange(self, start: int, stop: int) -> int: ...


def winnable_number(game: str, rules: str, draws: Draws) -> int:
    """A game number drawn at random from those the shipped table proves winnable.

    >>> import random
    >>> from wedlock import lookup
    >>> n = winnable_number("monte-carlo", "weddings", random.Random(7))
    >>> lookup("monte-carlo", n, rules="weddings")
    <Verdict.WON: 'won'>
    """
    known = table(game, rules)
    if known is not None:
        for _ in range(DRAWS):
            number = draws.randrange(known.first, known.last + 1)
            if known.verdict(number) == Verdict.WON:
                return number
    raise NoWinnableDeal(f"no shipped table proves deals of {game} ({rules}) winnable")


def register_always_solvable(registry: Any, game_info: Callable[..., Any], register: Callable[[Any], Any]) -> list[int]:
    """Register in PySolFC's game registry (`pysollib.gamedb.GAME_DB`, with its `GameInfo`
    and `registerGame`) each Always Solvable game whose id and name are free: a subclass of
    the game it is made from whose fresh deal draws a proven-winnable number, while a
    number chosen by "Select game by number" is dealt as it is. The ids registered."""
    registered = []
    for names, new_id in ALWAYS_SOLVABLE_IDS.items():
        base = registry.get(GAME_IDS[names])
        name = ALWAYS_SOLVABLE_NAMES[names]
        if base is None or registry.get(new_id) is not None or registry.getGameByName(name) is not None:
            continue
        always = always_solvable_class(base.gameclass, *names)
        register(
            game_info(
                new_id,
                always,
                name,
                base.si.game_type,
                base.decks,
                base.redeals,
                base.skill_level,
                rules_filename=RULES_PAGES[names],
            )
        )
        registered.append(new_id)
    return registered


def always_solvable_class(base: type, game: str, rules: str) -> type:
    """A subclass of a PySolFC game class whose fresh deals are proven winnable."""

    def createRandom(self: Any, random: Any) -> None:  # noqa: N802 (PySolFC's name)
        if random is None:
            from pysollib.pysolrandom import construct_random  # noqa: PLC0415 (only inside PySolFC)

            random = construct_random(str(winnable_number(game, rules, self.app.gamerandom)))
        base.createRandom(self, random)  # type: ignore[attr-defined]

    name = base.__name__ + "AlwaysSolvable"
    return type(name, (base,), {"createRandom": createRandom, "__module__": __name__, "__qualname__": name})

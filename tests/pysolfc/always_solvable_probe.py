"""Deals of the four Always Solvable games in a PySolFC tree patched with contrib/pysolfc's
patch (WEDLOCK_PYSOLFC_SRC names it), printed as JSON for test_pysolfc_always_solvable.py.

Run apart from the tests' own process, which holds the unpatched tree's modules:
`python always_solvable_probe.py FRESH FORCED...` deals FRESH fresh games of each game, and
one with the pool draw forced to each FORCED number and to the pool's least and greatest,
beside "Select game by number" of that number in the base game and of the number the
title shows.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import engine

from wedlock.pysolfc.ids import GAME_IDS
from wedlock.pysolfc.seeds import ALWAYS_SOLVABLE

SEED = 20260804  # of PySolFC's own random generator, which draws from the pools


class Forced:
    """A random generator whose draw from a pool is the number given; it notes the pool."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.pools: list[tuple[int, ...]] = []

    def choice(self, seq: tuple[int, ...]) -> int:
        self.pools.append(seq)
        return self.number


def layout(game: Any) -> dict[str, Any]:
    """Every stack's cards, bottom first, by card id (deck * 52 + suit * 13 + rank), and the
    cards a player sees as wedlock writes them."""
    return {
        "stacks": [[card.id for card in stack.cards] for stack in game.allstacks],
        "rows": [[engine.card_text(card) for card in stack.cards] for stack in game.s.rows],
        "foundations": [[engine.card_text(card) for card in stack.cards] for stack in game.s.foundations],
        "talon": len(game.s.talon.cards),
    }


def dealt(game: Any) -> dict[str, Any]:
    """The deal a game holds, and the number PySolFC knows it by."""
    return {
        "number": game.random.initial_seed,
        "generator": type(game.random).__name__,
        "shown": game.getGameNumber(format=0),
        **layout(game),
    }


def created(game_id: int, gamerandom: Any) -> Any:
    """A game of `game_id`, its application's random generator the one given."""
    info = importlib.import_module("pysollib.gamedb").GAME_DB.get(game_id)
    app = engine.App()
    app.gamerandom = gamerandom
    game = info.gameclass(info)
    game.create(app)
    return game


def main(fresh: int, forced: list[int]) -> dict[str, Any]:
    engine.load()
    gamedb = importlib.import_module("pysollib.gamedb")
    random = importlib.import_module("pysollib.pysolrandom")
    out: dict[str, Any] = {}
    for names, (game_id, _, module) in ALWAYS_SOLVABLE.items():
        base = GAME_IDS[names]
        info = gamedb.GAME_DB.get(game_id)
        pool = importlib.import_module(f"pysollib.games.solvable_seeds.{module}").SOLVABLE_SEEDS
        game = created(game_id, random.PysolRandom(SEED + game_id))
        deals = []
        for _ in range(fresh):
            game.newGame()
            deals.append(dealt(game))
        checks = []
        for number in [*forced, min(pool), max(pool)]:
            stub = Forced(number)
            chosen = created(game_id, stub)
            chosen.newGame()
            got = dealt(chosen)
            selected = engine.new_game(base, number)
            reentered = engine.new_game(base, got["shown"])
            checks.append(
                {
                    **got,
                    "drawn_from_the_pool": [p is pool for p in stub.pools],
                    "selected": dealt(selected),
                    "reentered": dealt(reentered),
                }
            )
        out[str(game_id)] = {
            "name": info.name,
            "class": type(game).__name__,
            "base": base,
            "base_name": gamedb.GAME_DB.get(base).name,
            "decks": info.decks,
            "redeals": info.redeals,
            "pool": list(pool),
            "fresh": deals,
            "forced": checks,
        }
    return out


if __name__ == "__main__":
    json.dump(main(int(sys.argv[1]), [int(n) for n in sys.argv[2:]]), sys.stdout)

"""Each wedlock move, as `wedlock.pysolfc.ids.action_of` says to make it in PySolFC's
window, is accepted by PySolFC's own rules, and wedlock's winning lines win there."""

from __future__ import annotations

import random

import pytest

import wedlock
from wedlock.pysolfc.ids import Drag, StockClick, action_of

CASES = [("monte-carlo", "pysol"), ("monte-carlo", "weddings"), ("monte-carlo", "2decks"), ("matrimony", "pysol")]


def play_in_pysolfc(pysolfc, game, moves: list, name: str) -> None:
    """Make each move in PySolFC's game as a player would: a drag it must accept, or a
    click on the stock that must deal or gather something."""
    for n, move in enumerate(moves, 1):
        action = action_of(name, move)
        if isinstance(action, StockClick):  # it deals, or gathers, or (a redeal of an empty pile) starts a round
            before = [len(s.cards) for s in game.allstacks], game.s.talon.round
            game.dealCards()
            assert ([len(s.cards) for s in game.allstacks], game.s.talon.round) != before, f"move {n}: the stock click did nothing"
        else:
            assert isinstance(action, Drag)
            source, target = game.allstacks[action.source], game.allstacks[action.target]
            cards = source.cards[-action.ncards :]
            assert target.acceptsCards(source, cards), f"move {n} ({move}): PySolFC refuses the drag"
            source.playMoveMove(action.ncards, target)


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_wedlocks_wins_win_in_pysolfc(pysolfc, name: str, rules: str) -> None:
    rng = random.Random(name + rules)
    won = 0
    for number in [rng.randrange(1, 10**9) for _ in range(60)]:
        solution = wedlock.solve(name, number, rules, time_limit=10)
        if solution.verdict != "won":
            continue
        game = pysolfc.new_game(pysolfc.GAME_IDS[name, rules], number)
        play_in_pysolfc(pysolfc, game, list(solution.moves.raw()), name)
        assert game.isGameWon(), number
        won += 1
        if won == 5:
            break
    assert won == 5

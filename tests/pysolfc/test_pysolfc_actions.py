"""Each wedlock move, as `wedlock.pysolfc.ids.action_of` says to make it in PySolFC's
window, is accepted by PySolFC's own rules, and wedlock's winning lines win there."""

from __future__ import annotations

import random

import pytest

import wedlock

CASES = [("monte-carlo", "pysol"), ("monte-carlo", "weddings"), ("monte-carlo", "2decks"), ("matrimony", "pysol")]


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_wedlocks_wins_win_in_pysolfc(pysolfc, name: str, rules: str) -> None:
    rng = random.Random(name + rules)
    won = 0
    for number in [rng.randrange(1, 10**9) for _ in range(60)]:
        solution = wedlock.solve(name, number, rules, time_limit=10)
        if solution.verdict != "won":
            continue
        game = pysolfc.new_game(pysolfc.GAME_IDS[name, rules], number)
        for move in solution.moves.raw():
            pysolfc.make_move(game, name, move)
        assert game.isGameWon(), number
        won += 1
        if won == 5:
            break
    assert won == 5

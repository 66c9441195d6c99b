"""The solver's own lines through both of each game's referees: the replay on small ints
(`replay_codes`, which tells the pipeline's wins) and the reference replay on move
objects (`referee`) give the same verdict and stop at the same move, for every rule set,
on the lines the solver finds and on those lines damaged."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wedlock.games.lines import codes_of
from wedlock.games.matrimony import moves as matrimony_moves
from wedlock.games.matrimony import verify as matrimony_verify
from wedlock.games.montecarlo import moves as montecarlo_moves
from wedlock.games.montecarlo import verify as montecarlo_verify
from wedlock.games.registry import GAMES
from wedlock.search.exhaustive import WON, Limits

REFEREES = {"monte-carlo": (montecarlo_verify, montecarlo_moves), "matrimony": (matrimony_verify, matrimony_moves)}
RULES = [(game, name) for game in GAMES.values() for name in game.rule_sets]
LIMITS = Limits(node_limit=200_000, time_limit=0.3)  # a deal whose search runs longer is left out


def damaged(line: list[Any], rng: random.Random) -> list[Any]:
    """The line with one change: cut short, a move dropped, doubled or moved elsewhere, or
    two moves swapped."""
    line = list(line)
    i, j = rng.randrange(len(line)), rng.randrange(len(line))
    kind = rng.randrange(5)
    if kind == 0:
        return line[:i]
    if kind == 1:
        del line[i]
    elif kind == 2:
        line.insert(j, line[i])
    elif kind == 3:
        line.insert(j, line.pop(i))
    else:
        line[i], line[j] = line[j], line[i]
    return line


@settings(max_examples=10, deadline=None)
@given(number=st.integers(1, 10**12), rng=st.randoms(use_true_random=False))
@pytest.mark.parametrize("game, name", RULES, ids=[f"{g.name}-{n}" for g, n in RULES])
def test_both_referees_agree_on_the_solvers_lines(game: Any, name: str, number: int, rng: random.Random) -> None:
    rules = game.rule_sets[name]
    cards = game.numbered_deal(rules, str(number))
    answer = game.solve(rules, cards, LIMITS)
    if answer.verdict != WON:
        return
    verify, moves = REFEREES[game.name]
    codes = list(codes_of(answer.moves, moves.coded) or [])
    assert len(codes) == len(answer.moves)
    for line in (codes, damaged(codes, rng)):
        reference = verify.referee(rules, cards, [moves.move_of(code) for code in line])
        assert verify.replay_codes(rules, cards, line) == (reference.won, reference.moves_played)
    assert verify.replay_codes(rules, cards, codes) == (True, len(codes))

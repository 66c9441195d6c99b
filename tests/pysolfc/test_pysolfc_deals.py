"""PySolFC's engine deals each of the four games as wedlock deals it."""

from __future__ import annotations

import random

import pytest

import wedlock
from wedlock.pipeline.line_layouts import frames

CASES = [("monte-carlo", "pysol"), ("monte-carlo", "weddings"), ("monte-carlo", "2decks"), ("matrimony", "pysol")]


def numbers(seed: str, count: int = 20) -> list[int]:
    """Game numbers of both of PySolFC's generators (Microsoft's under 32000)."""
    rng = random.Random(seed)
    return [1, 31999, 32000, *(rng.randrange(1, 32000) for _ in range(count // 2)), *(rng.randrange(32000, 10**12) for _ in range(count // 2))]


@pytest.mark.parametrize(("game", "rules"), CASES)
def test_pysolfc_deals_what_wedlock_deals(pysolfc, game: str, rules: str) -> None:
    for number in numbers(f"{game}/{rules}"):
        theirs = pysolfc.new_game(pysolfc.GAME_IDS[game, rules], number)
        ours = frames(wedlock.deal(game, number, rules), []).positions[0]
        top = [pysolfc.card_text(s.cards[-1]) if s.cards else None for s in theirs.s.rows]
        if game == "monte-carlo":
            assert top == ours["cells"], number
            assert len(theirs.s.talon.cards) == ours["stock"], number
        else:
            assert [[pysolfc.card_text(c) for c in s.cards] for s in theirs.s.rows] == ours["piles"], number
            assert [[pysolfc.card_text(c) for c in s.cards] for s in theirs.s.foundations] == [f["cards"] for f in ours["foundations"]]
            assert len(theirs.s.talon.cards) == ours["stock"], number

"""Monte Carlo move notation: text and JSON forms round-trip; bad text is refused clearly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wedlock.basics.cards import Card
from wedlock.basics.errors import MoveSyntaxError
from wedlock.games.montecarlo.moves import Consolidate, King, Pair, cell_name, move_from_json, parse_cell, parse_move

cards = st.builds(Card, st.integers(1, 13), st.integers(0, 3))
cells = st.integers(0, 24)
moves = st.one_of(
    st.builds(lambda a, b, x, y: Pair((a, b), (x, y)), cells, cells, cards, cards),
    st.builds(King, cells, cards),
    st.just(Consolidate()),
)


@given(moves)
def test_text_round_trips(move) -> None:
    assert parse_move(move.text(5), 5) == move
    assert parse_move(f"17. {move.text(5)}", 5) == move
    assert parse_move(move.text(5).lower(), 5) == move


@given(moves)
def test_json_round_trips(move) -> None:
    assert move_from_json(move.to_json()) == move


@given(st.integers(0, 19))
def test_cell_names_round_trip_on_a_5x4_grid(cell: int) -> None:
    assert parse_cell(cell_name(cell, 5), 5) == cell


def test_cell_names_read_like_a_spreadsheet() -> None:
    assert cell_name(0, 5) == "A1" and cell_name(7, 5) == "B3" and cell_name(24, 5) == "E5"


@pytest.mark.parametrize("text", ["", "B3", "B3 QS +", "B3 QS + C4", "Z9 QS", "B6 QS", "B3 QX + C4 QH", "consolidat", "B3 QS C4 QH"])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        parse_move(text, 5)


@pytest.mark.parametrize(
    "obj",
    [
        {"move": "pair", "cells": [1], "cards": ["QS", "QH"]},
        {"move": "pair", "cells": [1, 2], "cards": ["QS", "QX"]},
        {"move": "king", "cells": [-1], "cards": ["KS"]},
        {"move": "jump"},
        ["pair"],
        {"move": "pair", "cells": [1, "2"], "cards": ["QS", "QH"]},
    ],
)
def test_bad_move_json(obj) -> None:
    with pytest.raises(MoveSyntaxError):
        move_from_json(obj)

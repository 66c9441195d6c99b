"""Matrimony deals (PySolFC's golden vectors, the J♦/Q♦ hook, deal files) and move notation."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wedlock.basics.cards import Card, full_deck
from wedlock.basics.errors import DealError, MoveSyntaxError
from wedlock.basics.numbering import GameNumber
from wedlock.games.matrimony import GAME
from wedlock.games.matrimony.deal import hooked, numbered_deal
from wedlock.games.matrimony.moves import Deal, Play, Redeal, Shift, move_from_json, parse_move
from wedlock.games.matrimony.play import Table
from wedlock.games.matrimony.rules import RULE_SETS

GOLDEN = Path(__file__).parent.parent / "golden"
VECTORS = [
    v
    for name in ("pysolfc-deals.json", "pysolfc-deals-more.json")
    for v in json.loads((GOLDEN / name).read_text())["vectors"]
    if v["game"] == "Matrimony"
]
ARNOLD, PYSOL = RULE_SETS["arnold"], RULE_SETS["pysol"]


def test_there_are_golden_matrimony_vectors() -> None:
    assert len(VECTORS) >= 12


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["seed"])
def test_golden_deal(vector: dict) -> None:
    deal = [str(c) for c in numbered_deal(GameNumber.parse(vector["seed"]))]
    assert deal == vector["full_deck_top_first"]
    assert [[c] for c in deal[2:18]] == vector["rows"]
    assert deal[18:] == vector["talon_top_first"]
    assert vector["foundations"]["D J-down"] == ["JD"] and vector["foundations"]["D Q-up"] == ["QD"]
    # The J♦ and Q♦ on top are the deck-0 copies (PySolFC ids 49 and 50).
    assert vector["full_deck_ids_top_first"][:2] == [49, 50]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["seed"])
def test_golden_layout_in_play_and_referee(vector: dict) -> None:
    deal = numbered_deal(GameNumber.parse(vector["seed"]))
    for rules in (ARNOLD, PYSOL):
        pos = Table(rules, deal).start()
        assert [[str(Card(c % 13 + 1, c // 13))] for pile in pos.piles for c in pile] == vector["rows"]
        assert pos.stock == 18 and pos.rounds == 0
        assert sorted(pos.foundations) == [0] * 6 + [1] * 2


def test_deck_1_copies_stay_where_the_shuffle_put_them() -> None:
    # Game 1's deck-1 J♦ (id 101) lies deep in the stock: only the deck-0 copy moves to the top.
    vector = next(v for v in VECTORS if v["seed"] == "1")
    ids = vector["full_deck_ids_top_first"]
    assert ids.index(101) > 2 and ids.count(49) == 1
    assert numbered_deal(GameNumber.parse("1"))[ids.index(101)] == Card.parse("JD")


def test_hook_moves_the_first_jd_and_qd_and_is_idempotent() -> None:
    cards = full_deck(2)
    once = hooked(cards)
    assert [str(c) for c in once[:2]] == ["JD", "QD"]
    assert Counter(once) == Counter(cards)
    rest = list(cards)
    rest.remove(Card.parse("JD"))
    rest.remove(Card.parse("QD"))
    assert once[2:] == rest
    assert hooked(once) == once
    numbered = numbered_deal(GameNumber.parse("617"))
    assert hooked(numbered) == numbered
    assert GAME.check_deal(ARNOLD, numbered) == numbered


def test_check_deal_wants_104_cards() -> None:
    with pytest.raises(DealError, match="104"):
        GAME.check_deal(ARNOLD, full_deck(1))


# --- move notation ------------------------------------------------------------------------

cards = st.builds(Card, st.integers(1, 13), st.integers(0, 3))
piles = st.integers(0, 15)
foundations = st.integers(0, 7)
moves = st.one_of(
    st.builds(Play, piles, cards, foundations),
    st.builds(Shift, foundations, foundations, cards),
    st.just(Deal()),
    st.builds(Redeal, piles),
)


@given(moves, st.sampled_from(sorted(RULE_SETS)))
def test_move_text_round_trips(move, name: str) -> None:
    rules = RULE_SETS[name]
    assert parse_move(move.text(rules), rules) == move
    assert parse_move(f"12. {move.text(rules)}", rules) == move


@given(moves)
def test_move_json_round_trips(move) -> None:
    data = move.to_json()
    assert move_from_json(json.loads(json.dumps(data))) == move


def test_move_text_forms() -> None:
    assert Play(2, Card.parse("7H"), 2).text(ARNOLD) == "pile 3: 7H to F3 (J♥ down)"
    assert Play(15, Card.parse("TS"), 5).text(ARNOLD) == "pile 16: TS to F6 (10♠ down)"
    assert Play(0, Card.parse("KD"), 0).text(ARNOLD) == "pile 1: KD to F1 (Q♦ up)"
    assert Shift(3, 7, Card.parse("JD")).text(PYSOL) == "shift JD from F4 (J♦ down) to F8 (Q♦ up)"
    assert Deal().text(PYSOL) == "deal"
    assert Redeal(15).text(ARNOLD) == "redeal pile 16"


def test_move_json_forms() -> None:
    assert Play(2, Card.parse("7H"), 2).to_json() == {"move": "play", "pile": 3, "card": "7H", "to": 3}
    assert Shift(3, 7, Card.parse("JD")).to_json() == {"move": "shift", "from": 4, "to": 8, "card": "JD"}
    assert Deal().to_json() == {"move": "deal"}
    assert Redeal(15).to_json() == {"move": "redeal", "pile": 16}


@pytest.mark.parametrize(
    "text, move",
    [
        ("pile 3: 7h to f3", Play(2, Card.parse("7H"), 2)),
        ("Pile 3 7H to F3 (JH down)", Play(2, Card.parse("7H"), 2)),
        ("pile 16: 10S to F6 ( 10♠  DOWN )", Play(15, Card.parse("TS"), 5)),
        ("pile 16: TS to F6 (TS down)", Play(15, Card.parse("TS"), 5)),
        ("  4) deal ", Deal()),
        ("REDEAL PILE 1", Redeal(0)),
    ],
)
def test_move_text_is_read_leniently(text: str, move) -> None:
    assert parse_move(text, ARNOLD) == move


@pytest.mark.parametrize(
    "text, says",
    [
        ("pile 17: 7H to F3", "no pile 17"),
        ("pile 0: 7H to F3", "no pile 0"),
        ("pile 3: 7H to F9", "no foundation F9"),
        ("pile 3: 7H to F3 (Q♦ up)", "F3 is J♥ down"),
        ("pile 3: 7X to F3", "not a card"),
        ("play 7H", "not a Matrimony move"),
        ("redeal", "not a Matrimony move"),
    ],
)
def test_bad_move_text(text: str, says: str) -> None:
    with pytest.raises(MoveSyntaxError, match=says.replace("(", r"\(")):
        parse_move(text, ARNOLD)


@pytest.mark.parametrize(
    "obj",
    [
        {"move": "play", "pile": 0, "card": "7H", "to": 3},
        {"move": "play", "pile": 1, "card": "7H"},
        {"move": "play", "pile": 1, "card": 7, "to": 3},
        {"move": "play", "pile": 1, "card": "ZZ", "to": 3},
        {"move": "play", "pile": True, "card": "7H", "to": 3},
        {"move": "deal", "pile": 1},
        {"move": "consolidate"},
        ["deal"],
    ],
)
def test_bad_move_json(obj) -> None:
    with pytest.raises(MoveSyntaxError):
        move_from_json(obj)

"""Cards, game numbers and deals: text round trips, PySolFC's golden deals, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysol_cards.random import MTRandom

from wedlock.basics.cards import Card, full_deck
from wedlock.basics.deals import format_deal_text, numbered_deal, parse_deal_text
from wedlock.basics.errors import CardError, DealError, GameNumberError
from wedlock.basics.numbering import GameNumber, shuffled, shuffled_ids

GOLDEN = Path(__file__).parent.parent / "golden"
VECTORS = [
    v for name in ("pysolfc-deals.json", "pysolfc-deals-more.json") for v in json.loads((GOLDEN / name).read_text())["vectors"]
]
MONTE_CARLO = [v for v in VECTORS if v["game"] == "Monte Carlo"]

cards = st.builds(Card, st.integers(1, 13), st.integers(0, 3))


@given(cards)
def test_card_text_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert eval(repr(card)) == card


@given(st.integers(0, 103))
def test_card_ids_follow_pysolfc(card_id: int) -> None:
    card = Card.from_id(card_id)
    assert card_id % 52 == 13 * card.suit + card.rank - 1


def test_ten_may_be_written_10() -> None:
    assert Card.parse("10s") == Card.parse("TS") == Card(10, 1)


@pytest.mark.parametrize("text", ["", "Q", "1S", "11H", "QX", "ZZ", "10", "QDD", "KS5"])
def test_bad_card_text(text: str) -> None:
    with pytest.raises(CardError):
        Card.parse(text)


@pytest.mark.parametrize("vector", MONTE_CARLO, ids=lambda v: v["seed"])
def test_monte_carlo_golden_deal(vector: dict) -> None:
    number = GameNumber.parse(vector["seed"])
    assert number.microsoft == (vector["rng"] == "LCRandom31")
    assert shuffled_ids(number, 1) == vector["full_deck_ids_top_first"]
    deal = [str(c) for c in numbered_deal(number, 1)]
    assert deal == vector["full_deck_top_first"]
    assert deal[:25] == [card for row in vector["grid"] for card in row]
    assert deal[25:] == vector["talon_top_first"]


@pytest.mark.parametrize(
    ("text", "seed", "microsoft"),
    [
        ("1", 1, True),
        ("31999", 31999, True),
        ("32000", 32000, False),
        ("#12,345", 12345, True),
        ("12345L", 12345, True),
        (" 1 000 000 ", 1000000, False),
        ("ms40000", 40000, True),
        ("MS1", 1, True),
        ("12345678901234567890123", 12345678901234567890123, False),
    ],
)
def test_game_number_forms(text: str, seed: int, microsoft: bool) -> None:
    number = GameNumber.parse(text)
    assert (number.seed, number.microsoft) == (seed, microsoft)
    assert GameNumber.parse(str(number)) == number


@pytest.mark.parametrize("text", ["0", "-3", "abc", "ms0", "ms9999999999", "", "ms", "1.5x", "L", "#", "-"])
def test_bad_game_numbers(text: str) -> None:
    with pytest.raises(GameNumberError):
        GameNumber.parse(text)


@given(st.integers(1, 2**70))
def test_game_number_text_round_trips(seed: int) -> None:
    number = GameNumber.parse(str(seed))
    assert GameNumber.parse(str(number)) == number
    assert number.microsoft == (seed < 32000)


@given(st.one_of(st.integers(32000, 2**70), st.integers(2**64 - 4, 2**64 + 4), st.integers(2**32 - 4, 2**32 + 4)), st.sampled_from([1, 2]))
def test_mersenne_twister_deals_are_pysol_cards_own(seed: int, decks: int) -> None:
    # basics/numbering.py draws from Python's generator itself, and the compiled core (where it is
    # built and takes the seed) from its copy of it; pysol_cards' MTRandom is the reference.
    ids = list(range(52 * decks))
    MTRandom(seed).shuffle(ids)
    number = GameNumber.parse(str(seed))
    assert shuffled_ids(number, decks) == ids[::-1]
    assert shuffled(number, decks)[0] == ids[::-1]


@given(st.integers(0, 51))
def test_card_codes_name_the_cards(code: int) -> None:
    card = Card.from_id(code)
    assert card.code == code and card == Card(code % 13 + 1, code // 13) and Card.from_id(code + 52) is card


@given(st.integers(1, 2**40), st.sampled_from([1, 2]))
def test_every_deal_is_whole_packs(seed: int, decks: int) -> None:
    deal = numbered_deal(GameNumber.parse(str(seed)), decks)
    assert sorted(deal) == sorted(full_deck(decks))


@given(st.permutations(full_deck(1)), st.integers(1, 52))
def test_deal_text_round_trips(deal: list[Card], per_line: int) -> None:
    assert parse_deal_text(format_deal_text(deal, per_line), 1) == deal


def test_deal_text_accepts_comments_case_and_tens() -> None:
    deal = full_deck(1)
    text = "# my deal\n" + ", ".join(str(c).lower().replace("t", "10") for c in deal) + "  # done\n"
    assert parse_deal_text(text, 1) == deal


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (" ".join(str(c) for c in full_deck(1)[:51]), "needs 52 cards"),
        (" ".join(str(c) for c in full_deck(1)) + " AS", "AS appears 2 times"),
        (" ".join(str(c) for c in full_deck(1)[:51]) + " AC", "AC appears 2 times"),
        ("XX " + " ".join(str(c) for c in full_deck(1)[1:]), "unknown card 'XX'"),
    ],
)
def test_bad_deal_text(text: str, message: str) -> None:
    with pytest.raises(DealError, match=message):
        parse_deal_text(text, 1)


def test_two_deck_deal_needs_each_card_twice() -> None:
    two = full_deck(2)
    assert parse_deal_text(format_deal_text(two), 2) == two
    with pytest.raises(DealError, match="appears 3 times"):
        parse_deal_text(format_deal_text(two[:-1] + [two[0]]), 2)

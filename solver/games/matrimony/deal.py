"""Matrimony deals: PySolFC's shuffle, then the J♦ and Q♦ moved to the top of the stock.

A deal is the 104 cards in dealing order after that move: J♦ and Q♦ first (they start
their foundations), then one card for each of piles 1..16, then the 86 cards of the stock.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...basics.cards import BY_CODE, Card
from ...basics.errors import DealError
from ...basics.numbering import GameNumber, shuffled_ids

JACK_OF_DIAMONDS = Card(11, 3)
QUEEN_OF_DIAMONDS = Card(12, 3)
DECK0_JD, DECK0_QD = 49, 50  # PySolFC card ids of the deck-0 copies
HEAD = 2  # cards that start foundations
LAYOUT = 18  # HEAD + one card for each of the 16 piles


def numbered_deal(number: GameNumber) -> list[Card]:
    """PySolFC's Matrimony deal `number`: the deck-0 J♦ and Q♦ on top, J♦ topmost."""
    ids = shuffled_ids(number, 2)
    ids.remove(DECK0_JD)
    ids.remove(DECK0_QD)
    return [BY_CODE[i % 52] for i in (DECK0_JD, DECK0_QD, *ids)]


def hooked(cards: Sequence[Card]) -> list[Card]:
    """A deal given card by card, with its first J♦ and first Q♦ moved to the top (J♦ first).

    A deal already in that form (as `deal --json` prints it) comes back unchanged.
    """
    if len(cards) != 104:
        raise DealError(f"Matrimony needs 104 cards, got {len(cards)}")
    rest = list(cards)
    for card in (JACK_OF_DIAMONDS, QUEEN_OF_DIAMONDS):
        if card not in rest:
            raise DealError(f"the deal has no {card}")
        rest.remove(card)
    return [JACK_OF_DIAMONDS, QUEEN_OF_DIAMONDS, *rest]

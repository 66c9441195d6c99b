"""Cards: ranks, suits, text forms and PySolFC card ids."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import CardError

RANKS = "A23456789TJQK"
SUITS = "CSHD"  # PySolFC's order: clubs 0, spades 1, hearts 2, diamonds 3
SUIT_SYMBOLS = {"C": "\u2663", "S": "\u2660", "H": "\u2665", "D": "\u2666"}
SUIT_LETTERS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()} | {"\u2667": "C", "\u2664": "S", "\u2661": "H", "\u2662": "D"}


@dataclass(frozen=True, order=True)
class Card:
    """A playing card; `rank` is 1 (ace) .. 13 (king), `suit` is 0..3 in PySolFC order."""

    rank: int
    suit: int
    code: int = field(init=False, repr=False, compare=False)  # 13*suit + rank-1: its PySolFC id in the first deck

    def __post_init__(self) -> None:
        if not (1 <= self.rank <= 13 and 0 <= self.suit <= 3):
            raise CardError(f"no such card: rank {self.rank}, suit {self.suit}")
        # Kept rather than worked out at each reading: code that works on small ints reads
        # every card's code for every deal.
        object.__setattr__(self, "code", 13 * self.suit + self.rank - 1)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read `QD`, `TS`, `10s`, `ah` or `Q♦` (rank then suit, any case)."""
        if not isinstance(text, str):
            raise CardError(f"a card is written as text, like 'QD', not {text!r}")
        t = text.strip().upper()
        if len(t) < 2:
            raise CardError(f"not a card: {text!r}")
        rank_text, suit_text = t[:-1], SUIT_LETTERS.get(t[-1], t[-1])
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS:
            raise CardError(f"not a card: {text!r} (write rank then suit, like QD, TS or 10S)")
        return cls(RANKS.index(rank_text) + 1, SUITS.index(suit_text))

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card of a PySolFC card id (52*deck + 13*suit + rank-1)."""
        return BY_CODE[card_id % 52]

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank - 1]

    @property
    def suit_char(self) -> str:
        return SUITS[self.suit]

    def pretty(self) -> str:
        """Rank and suit symbol, `10` written out: `10♠`."""
        rank = "10" if self.rank == 10 else self.rank_char
        return rank + SUIT_SYMBOLS[self.suit_char]


BY_CODE = tuple(Card(code % 13 + 1, code // 13) for code in range(52))  # cards are values: one object each serves


def card_codes(cards: Iterable[Card]) -> list[int]:
    """Each card's code (`Card.code`), for code that works on small ints."""
    return [card.code for card in cards]


def full_deck(decks: int = 1) -> list[Card]:
    """Every card of `decks` standard packs, in PySolFC's id order."""
    return [Card.from_id(i) for i in range(52 * decks)]


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by whitespace or commas."""
    return [Card.parse(tok) for tok in text.replace(",", " ").split()]

"""The Matrimony rule sets, as values in one registry, and the geometry they fix.

Cards inside the Matrimony modules are small integers, `code = 13*suit + rank - 1`
(suits in PySolFC's order C, S, H, D; ranks A=1 .. K=13), so the two copies of a card share
one code: which deck a card came from never matters once it is dealt.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...basics.cards import RANKS, SUIT_SYMBOLS, SUITS, Card

CardCode = int  # 13*suit + rank - 1, 0..51
PILES = 16
FOUNDATION_CARDS = 13  # every foundation takes one card of each rank of its suit
DECK = 104
ROUNDS = 16  # redeal steps, piles 16, 15, ..., 1

SUIT_LETTERS = {SUIT_SYMBOLS[s]: s for s in SUITS}  # ♥ -> H, for reading names back
UP, DOWN = 1, -1
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
JACK, QUEEN, TEN = 11, 12, 10


def code_of(card: Card) -> CardCode:
    """The code of a card (either copy)."""
    return 13 * card.suit + card.rank - 1


def card_of(code: CardCode) -> Card:
    """The card with this code."""
    return Card(code % 13 + 1, code // 13)


@dataclass(frozen=True)
class Foundation:
    """A foundation: its suit, base rank, building direction, and whether it starts filled."""

    suit: int
    base: int  # the rank of its first card
    step: int  # UP or DOWN, round the corner (K and A are consecutive)
    filled: bool = False  # starts holding the deck-0 base card (J♦ and Q♦)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The 13 ranks in the order the foundation takes them."""
        return tuple((self.base - 1 + self.step * k) % 13 + 1 for k in range(FOUNDATION_CARDS))

    @property
    def codes(self) -> tuple[CardCode, ...]:
        """The 13 card codes in the order the foundation takes them."""
        return tuple(13 * self.suit + r - 1 for r in self.ranks)

    @property
    def label(self) -> str:
        """How a player names it: `J♥ down`, `Q♦ up`, `10♠ down`."""
        return f"{Card(self.base, self.suit).pretty()} {'up' if self.step == UP else 'down'}"

    @property
    def ascii_label(self) -> str:
        """The label with the suit as a letter: `JH down`, `10S down`."""
        rank = "10" if self.base == TEN else RANKS[self.base - 1]
        return f"{rank}{SUITS[self.suit]} {'up' if self.step == UP else 'down'}"


@dataclass(frozen=True)
class MatrimonyRules:
    """One Matrimony rule set: its foundations and when a player may deal, redeal and shift."""

    name: str
    title: str  # how output names it, in words a player knows: "Matrimony (PySolFC)"
    about: str  # what sets it apart, for --help
    pysolfc: str | None  # the game's name in PySolFC, when PySolFC plays it
    foundations: tuple[Foundation, ...]
    forced_steps: bool  # deal and redeal only when no card can be played (Arnold)
    shifts: bool  # a foundation's top card may move to another foundation (PySolFC)

    @cached_property
    def takes(self) -> tuple[tuple[CardCode, ...], ...]:
        """takes[f][k]: the card code foundation f takes as its (k+1)-th card."""
        return tuple(f.codes for f in self.foundations)

    @cached_property
    def wanted_by(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """wanted_by[code]: every (foundation, count) at which that foundation takes `code`."""
        out: list[list[tuple[int, int]]] = [[] for _ in range(52)]
        for f, codes in enumerate(self.takes):
            for k, code in enumerate(codes):
                out[code].append((f, k))
        return tuple(tuple(x) for x in out)

    @cached_property
    def twins(self) -> tuple[tuple[int, int], ...]:
        """Pairs of foundations with the same suit, base and direction: interchangeable."""
        fs = self.foundations
        return tuple(
            (a, b)
            for a in range(len(fs))
            for b in range(a + 1, len(fs))
            if (fs[a].suit, fs[a].base, fs[a].step) == (fs[b].suit, fs[b].base, fs[b].step)
        )

    @cached_property
    def of_suit(self) -> tuple[tuple[int, ...], ...]:
        """The foundations of each suit."""
        return tuple(tuple(f for f, x in enumerate(self.foundations) if x.suit == s) for s in range(4))

    @cached_property
    def jack_down(self) -> tuple[int, ...]:
        """PySolFC's rules: each suit's foundation building down from the Jack."""
        return tuple(next(f for f in self.of_suit[s] if self.foundations[f].step < 0) for s in range(4))

    @cached_property
    def queen_up(self) -> tuple[int, ...]:
        """PySolFC's rules: each suit's foundation building up from the Queen."""
        return tuple(next(f for f in self.of_suit[s] if self.foundations[f].step > 0) for s in range(4))

    @cached_property
    def start_counts(self) -> tuple[int, ...]:
        """Cards on each foundation before the first play."""
        return tuple(int(f.filled) for f in self.foundations)


ARNOLD_FOUNDATIONS = (
    Foundation(DIAMONDS, QUEEN, UP, filled=True),
    Foundation(DIAMONDS, JACK, DOWN, filled=True),
    Foundation(HEARTS, JACK, DOWN),
    Foundation(HEARTS, JACK, DOWN),
    Foundation(SPADES, TEN, DOWN),
    Foundation(SPADES, TEN, DOWN),
    Foundation(CLUBS, TEN, DOWN),
    Foundation(CLUBS, TEN, DOWN),
)
# PySolFC's own order: the four Jacks building down, then the four Queens building up.
PYSOL_FOUNDATIONS = tuple(Foundation(s, JACK, DOWN, filled=s == DIAMONDS) for s in range(4)) + tuple(
    Foundation(s, QUEEN, UP, filled=s == DIAMONDS) for s in range(4)
)

RULE_SETS: dict[str, MatrimonyRules] = {
    r.name: r
    for r in (
        MatrimonyRules(
            "pysol",
            "Matrimony (PySolFC)",
            "a Jack-down and a Queen-up foundation a suit; deal and redeal at any time",
            "Matrimony",
            PYSOL_FOUNDATIONS,
            forced_steps=False,
            shifts=True,
        ),
        MatrimonyRules(
            "arnold",
            "Matrimony (Peter Arnold's rules)",
            "Peter Arnold's rules: deal and redeal only when no card can be played",
            None,
            ARNOLD_FOUNDATIONS,
            forced_steps=True,
            shifts=False,
        ),
    )
}
DEFAULT_RULES = "pysol"  # game numbers are PySolFC's, so by default the game is too

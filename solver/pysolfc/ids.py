"""How PySolFC numbers the four games wedlock solves, their stacks and their cards, and
what a wedlock move is in PySolFC's window: a drag of cards from one stack to another, or a
click on the stock.

Stacks are numbered by their place in a game's `allstacks`:
- Monte Carlo, Weddings and Monte Carlo (2 Decks): 0-24 the grid's cells, row by row; 25
  the foundation (where pairs go); 26 the talon (the stock).
- Matrimony: 0 the talon; 1-8 the foundations (F1-F4 the Jacks building down, F5-F8 the
  Queens building up, each row clubs, spades, hearts, diamonds); 9-24 the sixteen piles.
A card's id is deck * 52 + suit * 13 + rank, suits clubs, spades, hearts, diamonds and
ranks ace (0) to king (12).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..basics.cards import Card
from ..games.matrimony import moves as matrimony_moves
from ..games.montecarlo import moves as montecarlo_moves

# PySolFC's id of each game wedlock solves, by wedlock's game and rule set.
GAME_IDS = {
    ("monte-carlo", "pysol"): 89,
    ("monte-carlo", "weddings"): 212,
    ("monte-carlo", "2decks"): 216,
    ("matrimony", "pysol"): 424,
}
# The "Always Solvable" game of each: its fresh deals are numbers proven winnable.
ALWAYS_SOLVABLE_IDS = {
    ("monte-carlo", "pysol"): 994,
    ("monte-carlo", "weddings"): 995,
    ("monte-carlo", "2decks"): 996,
    ("matrimony", "pysol"): 997,
}
GAMES_BY_ID = {number: names for ids in (GAME_IDS, ALWAYS_SOLVABLE_IDS) for names, number in ids.items()}

CELLS = 25  # the Monte Carlo games' grid, 5 by 5
MONTE_CARLO_FOUNDATION = 25
MONTE_CARLO_TALON = 26
MATRIMONY_TALON = 0
MATRIMONY_FOUNDATIONS = range(1, 9)
MATRIMONY_PILES = range(9, 25)

SUITS = "CSHD"  # PySolFC's order of the suits, which wedlock's notation shares
RANKS = "A23456789TJQK"


def game_id(game: str, rules: str) -> int | None:
    """PySolFC's id of a wedlock game and rule set (None: PySolFC has no such game)."""
    return GAME_IDS.get((game, rules))


def talon_id(game: str) -> int:
    """The stack id of a game's talon."""
    return MATRIMONY_TALON if game == "matrimony" else MONTE_CARLO_TALON


def card_id(card: Card, deck: int = 0) -> int:
    """A card's id in PySolFC, of the given deck (0 or 1)."""
    return deck * 52 + SUITS.index(str(card)[1]) * 13 + RANKS.index(str(card)[0])


def card_of(number: int) -> Card:
    """The card a PySolFC card id stands for (either deck)."""
    if not 0 <= number < 104:
        raise ValueError(f"not a card id of one or two decks: {number}")
    suit, rank = divmod(number % 52, 13)
    return Card.parse(RANKS[rank] + SUITS[suit])


@dataclass(frozen=True)
class Drag:
    """`ncards` cards dragged from one stack to another (stack ids as above)."""

    ncards: int
    source: int
    target: int


@dataclass(frozen=True)
class StockClick:
    """A click on the talon: deal, consolidate, or redeal."""

    talon: int


Action = Drag | StockClick


def action_of(game: str, move: Any) -> Action:
    """What a wedlock move (a game's own move value) is in PySolFC's window."""
    if isinstance(move, montecarlo_moves.Pair):
        first, second = move.cells
        return Drag(1, first, second)  # the first card dropped on the second: both go out
    if isinstance(move, montecarlo_moves.Consolidate):
        return StockClick(MONTE_CARLO_TALON)
    if isinstance(move, matrimony_moves.Play):
        return Drag(1, MATRIMONY_PILES[move.pile], MATRIMONY_FOUNDATIONS[move.to])
    if isinstance(move, matrimony_moves.Shift):
        return Drag(1, MATRIMONY_FOUNDATIONS[move.source], MATRIMONY_FOUNDATIONS[move.to])
    if isinstance(move, (matrimony_moves.Deal, matrimony_moves.Redeal)):
        return StockClick(MATRIMONY_TALON)
    raise ValueError(f"{game}: no PySolFC action for {move!r}")

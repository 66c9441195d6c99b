"""A PySolFC game's position as wedlock's: read off its stacks as they stand.

The stacks say everything the rules look at: each Monte Carlo cell's card (or none), the
cards the foundation holds, the talon's cards in the order it deals them (its top card,
the last of its list, goes first); in Matrimony every card of every pile, buried ones
included, each foundation's cards, the talon, and the talon's round, which says how many
redeals were made and so whose pile is picked up next. The deal the position is laid on
is made up from the same cards (what lies out, then what left play, then the stock in
its order): the stock is the only part of the deal still to come, and it is read as it
lies, so no game number is needed and a game PySolFC restored from a save reads alike.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..basics.cards import Card
from ..basics.errors import WedlockError
from ..games.matrimony import verify as matrimony_table
from ..games.matrimony.rules import DECK, PILES, ROUNDS, code_of
from ..games.montecarlo import verify as monte_carlo_table
from ..games.registry import game_named, rules_of
from ..pipeline.solving import Position, deal
from .ids import CELLS, GAMES_BY_ID


class NotReadable(WedlockError):
    """A PySolFC game whose stacks do not hold what its rules allow (not one of wedlock's
    games, or laid out otherwise than wedlock knows it)."""


def names_of(game: Any) -> tuple[str, str] | None:
    """wedlock's game and rule set for a PySolFC game object (None: one wedlock does not play)."""
    number = getattr(game, "id", None)
    return GAMES_BY_ID.get(number) if isinstance(number, int) else None


def card_of(card: Any) -> Card:
    """wedlock's card for a PySolFC card (its suit 0-3, clubs first, and rank 0-12, aces first)."""
    rank, suit = getattr(card, "rank", None), getattr(card, "suit", None)
    if type(rank) is not int or type(suit) is not int or not (0 <= rank <= 12 and 0 <= suit <= 3):
        raise NotReadable("a stack of PySolFC's game holds something that is not a card")
    return Card(rank + 1, suit)


def position_of(game: Any) -> Position:
    """The position the PySolFC game object shows, as a wedlock position."""
    names = names_of(game)
    if names is None:
        raise NotReadable(f"PySolFC's game {getattr(game, 'id', '?')} is none of the games wedlock plays")
    name, rules = names
    try:
        cards, seen = _matrimony(game) if name == "matrimony" else _monte_carlo(game)
    except (AttributeError, TypeError, ValueError) as err:  # stacks that are not what PySolFC's game keeps
        if isinstance(err, NotReadable):
            raise
        raise NotReadable(f"PySolFC's game is not laid out as wedlock knows it ({type(err).__name__})") from None
    try:
        laid = deal(name, cards, rules)
    except WedlockError as err:
        raise NotReadable(f"the cards of PySolFC's game are not a full deck: {err}") from None
    return Position(laid, seen)


def position_key(position: Position) -> Hashable:
    """What tells two positions of a game apart (the order cards left play in does not)."""
    seen = position.seen
    names = (position.deal.game.name, position.deal.rules.name)
    if isinstance(seen, monte_carlo_table.Table):
        return (*names, seen.grid, seen.stock)
    return (*names, seen.piles, seen.foundations, seen.stock, seen.redeals)


def _monte_carlo(game: Any) -> tuple[list[Card], monte_carlo_table.Table]:
    rows, talon = game.s.rows, game.s.talon
    if len(rows) != CELLS or any(len(row.cards) > 1 for row in rows):
        raise NotReadable(f"a Monte Carlo grid is {CELLS} cells of one card at most")
    grid = tuple(card_of(row.cards[0]) if row.cards else None for row in rows)
    removed = tuple(card_of(c) for f in game.s.foundations for c in f.cards)
    stock = tuple(card_of(c) for c in reversed(talon.cards))
    laid = [c for c in grid if c is not None]
    return laid + list(removed) + list(stock), monte_carlo_table.Table(grid, stock, removed)


def _matrimony(game: Any) -> tuple[list[Card], matrimony_table.Table]:
    rows, foundations, talon = game.s.rows, game.s.foundations, game.s.talon
    rule_set = rules_of(game_named("matrimony"), "pysol")
    if len(rows) != PILES or len(foundations) != len(rule_set.foundations):
        raise NotReadable(f"Matrimony is laid out as {PILES} piles and {len(rule_set.foundations)} foundations")
    piles = tuple(tuple(card_of(c) for c in row.cards) for row in rows)
    held = tuple(tuple(card_of(c) for c in f.cards) for f in foundations)
    for f, cards in enumerate(held):
        if tuple(code_of(c) for c in cards) != rule_set.takes[f][: len(cards)]:
            raise NotReadable(f"foundation F{f + 1} holds {' '.join(map(str, cards))}, which it does not build")
    stock = tuple(card_of(c) for c in reversed(talon.cards))
    if type(talon.round) is not int:
        raise NotReadable("the talon's round is not a number")
    redeals = talon.round - 1  # the round counts from 1, and each redeal starts the next
    if not 0 <= redeals <= ROUNDS or (stock and redeals):
        raise NotReadable(f"the talon's round {talon.round} with {len(stock)} cards cannot arise")
    laid = [c for f in held for c in f] + [c for pile in piles for c in pile] + list(stock)
    if len(laid) != DECK:
        raise NotReadable(f"Matrimony holds {DECK} cards, not {len(laid)}")
    return laid, matrimony_table.Table(piles, held, stock, redeals)

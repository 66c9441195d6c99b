"""Where PySolFC keeps each card of a deal or a position: its `atomic.Layout`.

A layout names cards by PySolFC's card ids, which tell the two copies of a card apart in
the two-deck games. For a numbered deal they are the ids PySolFC's own shuffle gives;
for a position typed from the screen, whose copies no one can tell apart, the first copy
not yet placed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..basics.cards import Card
from ..basics.errors import SavedGameError
from ..basics.numbering import GameNumber, shuffled_ids
from ..games.matrimony import verify as matrimony
from ..games.matrimony.deal import DECK0_JD, DECK0_QD
from ..games.matrimony.rules import MatrimonyRules
from ..games.montecarlo import verify as montecarlo
from . import ids
from .atomic import Layout, Stack


def dealt_ids(deal: Any) -> list[int]:
    """The PySolFC card ids of a numbered deal (a `pipeline.Deal`), first dealt first: the
    order of `deal.cards`."""
    if deal.number is None:
        raise SavedGameError("a PySolFC game is a numbered deal; this one was given card by card")
    order = shuffled_ids(GameNumber.parse(deal.number), deal.game.decks(deal.rules))
    if isinstance(deal.rules, MatrimonyRules):  # the deck-0 J♦ and Q♦ go to the top, J♦ first
        order = [DECK0_JD, DECK0_QD, *(i for i in order if i not in (DECK0_JD, DECK0_QD))]
    if [Card.from_id(i) for i in order] != list(deal.cards):
        raise SavedGameError(f"{deal.label} is not the deal PySolFC makes of that number")
    return order


def start_layout(deal: Any) -> Layout:
    """The layout PySolFC deals for a numbered deal, card ids and all."""
    return layout_of(deal.game.opening(deal.rules, deal.cards), dealt_ids(deal))


def layout_of(seen: Any, order: Sequence[int] | None = None) -> Layout:
    """The layout of a position as the referee keeps it (`verify.Table` of either game).
    Each card takes the first of its copies in `order` (card ids) not yet placed,
    visiting the cards as PySolFC dealt them; without `order`, deck 0's copy first."""
    copies: dict[Card, list[int]] = {}
    for card_id in order if order is not None else range(104):
        copies.setdefault(Card.from_id(card_id), []).append(card_id)

    def placed(cards: Sequence[Card], face_up: bool) -> Stack:
        out = []
        for card in cards:
            left = copies.get(card)
            if not left:
                raise SavedGameError(f"the position holds more {card} than the deal")
            out.append((left.pop(0), face_up))
        return tuple(out)

    if isinstance(seen, montecarlo.Table):
        cells = [placed([] if card is None else [card], True) for card in seen.grid]
        foundation = placed(seen.removed, True)
        talon = placed(seen.stock, False)[::-1]  # the next card dealt is the talon's top
        return Layout((*cells, foundation, talon))
    if isinstance(seen, matrimony.Table):
        foundations = [placed(f, True) for f in seen.foundations]
        piles = [placed(p, True) for p in seen.piles]
        talon = placed(seen.stock, False)[::-1]
        return Layout((talon, *foundations, *piles), seen.redeals + 1)
    raise SavedGameError(f"not a position of a game PySolFC has: {type(seen).__name__}")


def seen_of(rules: Any, layout: Layout) -> Any:
    """The position a layout shows, as the referee keeps it (`verify.Table`), whichever
    copy of a card lies where; a SavedGameError when no position of the game looks so."""

    def cards(stack: int) -> tuple[Card, ...]:
        return tuple(Card.from_id(card) for card, _ in layout.cards(stack))

    stock = cards(ids.MATRIMONY_TALON if isinstance(rules, MatrimonyRules) else ids.MONTE_CARLO_TALON)[::-1]
    if isinstance(rules, MatrimonyRules):
        foundations = tuple(cards(f) for f in ids.MATRIMONY_FOUNDATIONS)
        return matrimony.Table(tuple(cards(p) for p in ids.MATRIMONY_PILES), foundations, stock, layout.talon_round - 1)
    if any(len(layout.cards(cell)) > 1 for cell in range(ids.CELLS)):
        raise SavedGameError("a cell of the grid holds more than one card")
    grid = tuple(cards(cell)[0] if layout.cards(cell) else None for cell in range(ids.CELLS))
    return montecarlo.Table(grid, stock, cards(ids.MONTE_CARLO_FOUNDATION))


def same_cards(a: Layout, b: Layout) -> bool:
    """Whether two layouts hold the same cards the same way up in every stack, and the
    same round, whichever copy of a card lies where."""

    def plain(layout: Layout) -> tuple[object, ...]:
        return tuple(tuple((card % 52, up) for card, up in stack) for stack in layout.stacks), layout.talon_round

    return plain(a) == plain(b)


def talon_of(seen: Any) -> tuple[int, int]:
    """The talon's stack id and the last round its counter reaches, in a position's game."""
    if isinstance(seen, matrimony.Table):
        return ids.MATRIMONY_TALON, matrimony.REDEAL_ROUNDS + 1
    return ids.MONTE_CARLO_TALON, 1

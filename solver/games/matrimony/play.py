"""Matrimony play: positions, the primitive legal moves, and applying a move.

A position holds card codes (see rules.py), never deal indices: the two copies of a card are
the same card in play, so a position already merges them. A foundation is just the number
of cards on it, since its order of ranks is fixed. The stock is always the tail of the deal,
so the deal index of its next card says all there is to say about it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple

from ...basics.cards import Card
from .deal import LAYOUT
from .moves import Deal, Move, Play, Redeal, Shift
from .rules import DECK, FOUNDATION_CARDS, PILES, ROUNDS, MatrimonyRules, card_of, code_of

Pile = bytes  # card codes, bottom card first: pile[-1] is the top card


class Position(NamedTuple):
    """The piles, the cards on each foundation, the stock's next deal index, redeals done."""

    piles: tuple[Pile, ...]
    foundations: tuple[int, ...]
    stock: int  # deal index of the next stock card; DECK when the stock is empty
    rounds: int  # redeal steps made, 0..16


class Table:
    """One deal under one rule set: the moves it allows and what they do."""

    def __init__(self, rules: MatrimonyRules, deal: Sequence[Card]) -> None:
        if len(deal) != DECK:
            raise ValueError(f"Matrimony needs {DECK} cards, got {len(deal)}")
        self.rules = rules
        self.deal = tuple(deal)
        self.codes = bytes(code_of(c) for c in deal)
        self.takes = rules.takes
        self.wanted_by = rules.wanted_by

    def start(self) -> Position:
        """The position after J♦ and Q♦ start their foundations and each pile gets a card."""
        piles = tuple(self.codes[i : i + 1] for i in range(LAYOUT - PILES, LAYOUT))
        return Position(piles, self.rules.start_counts, LAYOUT, 0)

    def is_won(self, pos: Position) -> bool:
        return all(n == FOUNDATION_CARDS for n in pos.foundations)

    def key(self, pos: Position) -> Hashable:
        """Canonical key: the position with interchangeable foundations sorted."""
        return pos.piles, canonical_foundations(self.rules, pos.foundations), pos.stock, pos.rounds

    def plays(self, pos: Position) -> list[Play]:
        """Every play of a pile's top card to a foundation that takes it."""
        out = []
        counts = pos.foundations
        for p, pile in enumerate(pos.piles):
            if pile:
                top = pile[-1]
                for f, k in self.wanted_by[top]:
                    if counts[f] == k:
                        out.append(Play(p, card_of(top), f))
        return out

    def shifts(self, pos: Position) -> list[Shift]:
        """Every move of a foundation's top card onto another foundation of its suit."""
        if not self.rules.shifts:
            return []
        out = []
        counts = pos.foundations
        for f, n in enumerate(counts):
            if n:
                top = self.takes[f][n - 1]
                for g, k in self.wanted_by[top]:
                    if g != f and counts[g] == k:
                        out.append(Shift(f, g, card_of(top)))
        return out

    def legal_moves(self, pos: Position) -> list[Move]:
        """The primitive moves a player may make in `pos`."""
        moves: list[Move] = [*self.plays(pos), *self.shifts(pos)]
        if moves and self.rules.forced_steps:
            return moves
        if pos.stock < DECK:
            moves.append(Deal())
        elif pos.rounds < ROUNDS:
            moves.append(Redeal(PILES - 1 - pos.rounds))
        return moves

    def apply(self, pos: Position, move: Move) -> Position:
        """The position after `move` (assumed legal)."""
        if isinstance(move, Play):
            piles = list(pos.piles)
            piles[move.pile] = piles[move.pile][:-1]
            return Position(tuple(piles), _add(pos.foundations, move.to, 1), pos.stock, pos.rounds)
        if isinstance(move, Shift):
            counts = _add(_add(pos.foundations, move.source, -1), move.to, 1)
            return Position(pos.piles, counts, pos.stock, pos.rounds)
        if isinstance(move, Deal):
            return self.deal_round(pos)
        return self.redeal(pos)

    def deal_round(self, pos: Position) -> Position:
        """One card from the stock onto each pile in order, while the stock lasts."""
        dealt = self.codes[pos.stock : pos.stock + PILES]
        piles = tuple(pile + dealt[p : p + 1] for p, pile in enumerate(pos.piles))
        return Position(piles, pos.foundations, pos.stock + len(dealt), pos.rounds)

    def redeal(self, pos: Position) -> Position:
        """The next redeal step: its pile's cards, bottom first, onto that pile and onward."""
        return Position(redealt(pos.piles, PILES - 1 - pos.rounds), pos.foundations, pos.stock, pos.rounds + 1)


def redealt(piles: tuple[Pile, ...], p: int) -> tuple[Pile, ...]:
    """The piles after pile p is picked up and dealt out again, bottom card first, from p on."""
    cards = piles[p]
    out = list(piles)
    out[p] = b""
    for k in range(len(cards)):
        q = (p + k) % PILES
        out[q] += cards[k : k + 1]
    return tuple(out)


def canonical_foundations(rules: MatrimonyRules, counts: tuple[int, ...]) -> tuple[int, ...]:
    """Foundation counts with the twins' counts sorted.

    Twins (same suit, base and direction: Arnold's two J♥, two 10♠, two 10♣) are
    interchangeable: swapping their cards maps every line of play onto an equally legal one.
    """
    out = list(counts)
    for a, b in rules.twins:
        if out[a] > out[b]:
            out[a], out[b] = out[b], out[a]
    return tuple(out)


def _add(counts: tuple[int, ...], f: int, n: int) -> tuple[int, ...]:
    return counts[:f] + (counts[f] + n,) + counts[f + 1 :]


def settled_foundations(rules: MatrimonyRules, counts: tuple[int, ...]) -> tuple[int, ...]:
    """PySolFC's rules: counts with every suit holding 13 cards written as Jack-down empty,
    Queen-up full. Shifts reach every split of such a suit and back, so all its splits are
    one position for anything but the shifts themselves."""
    out = list(counts)
    for d, u in zip(rules.jack_down, rules.queen_up):
        if out[d] + out[u] == FOUNDATION_CARDS:
            out[d], out[u] = 0, FOUNDATION_CARDS
    return tuple(out)

"""Monte Carlo play: positions, the primitive legal moves, and applying a move.

A position holds deal indices (the k-th card dealt is index k), so a card's identity is
never lost; `GAP` marks an empty cell. The stock is always the tail of the deal, so the
index of its top card says all there is to say about it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ...basics.cards import Card
from .moves import Consolidate, King, Move, Pair, Removal
from .rules import COLUMNS, MonteCarloRules

GAP = -1


class Position(NamedTuple):
    """The grid (deal index or GAP per cell) and the deal index of the stock's top card."""

    cells: tuple[int, ...]
    stock: int


class Table:
    """One deal under one rule set: the moves it allows and what they do."""

    def __init__(self, rules: MonteCarloRules, deal: tuple[Card, ...]) -> None:
        if len(deal) != rules.cards:
            raise ValueError(f"{rules.name} needs {rules.cards} cards, got {len(deal)}")
        self.rules = rules
        self.deal = deal
        # rank_of[i] is the rank of deal card i; rank_of[GAP] (the last entry) is 0.
        self.rank_of = bytes([c.rank for c in deal] + [0])

    def start(self) -> Position:
        """The position after the first cards are laid out."""
        n = self.rules.cells
        return Position(tuple(range(n)), n)

    def is_won(self, pos: Position) -> bool:
        return pos.stock == len(self.deal) and all(c == GAP for c in pos.cells)

    def key(self, pos: Position) -> tuple[bytes, int]:
        """Canonical key: the ranks on the grid and the stock's place; suits never matter."""
        return bytes(map(self.rank_of.__getitem__, pos.cells)), pos.stock

    def removals(self, pos: Position) -> Iterator[Removal]:
        """Every pair (and, in Thirteens, every lone king) that may be removed now."""
        rules, cells, rank_of = self.rules, pos.cells, self.rank_of
        for a, card in enumerate(cells):
            if card == GAP:
                continue
            rank = rank_of[card]
            if rules.removes_alone(rank):
                yield King(a, self.deal[card])
                continue
            for b in rules.neighbours[a]:
                other = cells[b]
                if other != GAP and rules.matches(rank, rank_of[other]):
                    yield Pair((a, b), (self.deal[card], self.deal[other]))

    def can_consolidate(self, pos: Position) -> bool:
        """Whether the stock may be clicked: see RULES.md for each rule set."""
        cells = pos.cells
        if GAP not in cells:
            return False
        if pos.stock < len(self.deal):
            return True
        if self.rules.consolidation == COLUMNS:
            cols = self.rules.cols
            return any(cells[i] != GAP and cells[i - cols] == GAP for i in range(cols, len(cells)))
        first_gap = cells.index(GAP)
        return any(c != GAP for c in cells[first_gap:])

    def legal_moves(self, pos: Position) -> list[Move]:
        """The primitive moves a player may make in `pos`."""
        return self.moves_with(pos, list(self.removals(pos)))

    def moves_with(self, pos: Position, removals: Sequence[Removal]) -> list[Move]:
        """The legal moves of `pos`, given its removals."""
        moves: list[Move] = list(removals)
        if self.can_consolidate(pos) and not (self.rules.strict and moves):
            moves.append(Consolidate())
        return moves

    def apply(self, pos: Position, move: Move) -> Position:
        """The position after `move` (assumed legal)."""
        if isinstance(move, Consolidate):
            return self.consolidate(pos)
        cells = list(pos.cells)
        for cell in move.cells if isinstance(move, Pair) else (move.cell,):
            cells[cell] = GAP
        return Position(tuple(cells), pos.stock)

    def consolidate(self, pos: Position) -> Position:
        """Close the gaps as the rules say, then fill them from the stock in reading order."""
        size, cols = self.rules.cells, self.rules.cols
        if self.rules.consolidation == COLUMNS:
            cells = [GAP] * size
            for col in range(cols):
                column = [c for c in pos.cells[col::cols] if c != GAP]
                for row, card in enumerate(column):
                    cells[row * cols + col] = card
        else:
            cells = [c for c in pos.cells if c != GAP]
            cells += [GAP] * (size - len(cells))
        stock, total = pos.stock, len(self.deal)
        for i in range(size):
            if stock == total:
                break
            if cells[i] == GAP:
                cells[i] = stock
                stock += 1
        return Position(tuple(cells), stock)

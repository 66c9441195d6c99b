"""Monte Carlo as search spaces: the plain one (one primitive move per edge) and the
phase one the solver uses.

Why phases are exact. Removing cards never makes two cards touch, so every pair removed
between two consolidations was already a touching pair when the last consolidation ended:
the pairs removed in one phase form a matching of that position's "may be removed
together" graph, and any matching can be removed in any order. The position after the
phase's consolidation depends only on which cells were emptied, not on the order. A second
consolidation straight after a first is never allowed (a consolidated grid has no gap before
a card, and gaps only once the stock is empty). So the plain game's reachable phase-start
positions are exactly those reached by "remove the cells of one matching, then consolidate
if allowed", one edge per distinct set of emptied cells. tests/test_montecarlo_spaces.py
compares the verdicts of both spaces on positions small enough to search fully.
"""

from __future__ import annotations

from itertools import product
from typing import Iterator

from ..search import Step
from .moves import Consolidate, King, Move, Pair
from .play import GAP, Position, Table


class PlainSpace:
    """Every primitive move is one edge: the reference the phase space is checked against."""

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        self._start = start if start is not None else table.start()
        self.is_won = table.is_won
        self.key = table.key

    def start(self) -> Position:
        return self._start

    def successors(self, pos: Position) -> Iterator[tuple[Step, Position]]:
        for move in self.table.legal_moves(pos):
            yield (move,), self.table.apply(pos, move)


class PhaseSpace:
    """One edge per phase: remove the cells of one matching, then consolidate."""

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        self._start = start if start is not None else table.start()
        self.is_won = table.is_won
        self.key = table.key

    def start(self) -> Position:
        return self._start

    def successors(self, pos: Position) -> Iterator[tuple[Step, Position]]:
        table = self.table
        choices = sorted(self.phase_choices(pos), key=lambda c: -len(c[1]))
        total = len(table.deal)
        for mask, moves in choices:
            if not mask:
                continue
            cells = tuple(GAP if mask >> i & 1 else c for i, c in enumerate(pos.cells))
            after = Position(cells, pos.stock)
            if pos.stock == total and all(c == GAP for c in cells):
                yield tuple(moves), after
            elif table.can_consolidate(after):
                yield (*moves, Consolidate()), table.consolidate(after)
            else:
                yield tuple(moves), after

    def phase_choices(self, pos: Position) -> list[tuple[int, list[Move]]]:
        """Each distinct set of cells one phase can empty (as a bit mask), with moves that do it."""
        groups = [_group_choices(group, self.table.rules.strict) for group in _removal_groups(self.table, pos)]
        out = []
        for combo in product(*groups):
            mask, moves = 0, []
            for m, mv in combo:
                mask |= m
                moves.extend(mv)
            out.append((mask, moves))
        return out


def _removal_groups(table: Table, pos: Position) -> list[list[Move]]:
    """The removal moves split into independent groups (connected components)."""
    moves = list(table.removals(pos))
    if not moves:
        return []
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for move in moves:
        cells = move.cells if isinstance(move, Pair) else (move.cell, move.cell)
        parent[find(cells[0])] = find(cells[1])
    groups: dict[int, list[Move]] = {}
    for move in moves:
        first = move.cells[0] if isinstance(move, Pair) else move.cell
        groups.setdefault(find(first), []).append(move)
    return list(groups.values())


def _cells_mask(move: Move) -> int:
    if isinstance(move, Pair):
        return 1 << move.cells[0] | 1 << move.cells[1]
    assert isinstance(move, King)
    return 1 << move.cell


def _group_choices(moves: list[Move], maximal_only: bool) -> list[tuple[int, list[Move]]]:
    """Every set of cells a matching of these moves can empty, one matching for each."""
    masks = [_cells_mask(m) for m in moves]
    found: dict[int, list[Move]] = {}

    def extend(i: int, used: int, chosen: list[Move]) -> None:
        if i == len(moves):
            found.setdefault(used, list(chosen))
            return
        extend(i + 1, used, chosen)
        if not used & masks[i]:
            chosen.append(moves[i])
            extend(i + 1, used | masks[i], chosen)
            chosen.pop()

    extend(0, 0, [])
    if maximal_only:
        return [(u, mv) for u, mv in found.items() if all(u & m for m in masks)]
    return list(found.items())

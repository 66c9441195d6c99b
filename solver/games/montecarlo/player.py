"""Monte Carlo as a player makes moves, for the state-graph analysis (`wedlock.search.state_graph`).

Every choice is one primitive move. A consolidation ends a phase: the pairs (and kings)
removed between two consolidations can be removed in any order, which the analysis uses to
keep one graph node per phase start.

Removing cards never makes two cards touch, so the removals left after a removal are the
earlier ones that do not use its cells: `apply` hands them on to `choices` instead of
searching the grid again.

The same fact gives `phase_exits`, the fast path the analysis takes instead of walking a
phase move by move: the positions inside a phase are the phase start minus the cells of a
set of disjoint removals, so a phase is a dynamic programme over cell masks, in order of
cards removed. tests/search/test_analysis.py checks it against the move-by-move walk.

Where the compiled core was built, `native_graph` builds the whole state graph there
(solver/_core/graph.c walks the same phases the same way), and the analysis computes its
figures over the core's arrays.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from math import lcm

from ...basics import compiled as core
from ...search.state_graph import Exit, NativeGraph
from .moves import Consolidate, Move, Pair, Removal
from .play import GAP, Position, Table
from .rules import COLUMNS, THIRTEEN

CORE_GAP = 255  # a gap, in the compiled graph's cells


class PlayerView:
    """One deal's primitive play, in the shape `wedlock.search.state_graph.Play` asks for."""

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        self._start = start if start is not None else table.start()
        self._last: tuple[Position | None, list[Removal]] = (None, [])  # the last `choices` asked
        self._known: dict[Position, list[Removal]] = {}  # removals handed on by `apply`

    def start(self) -> Position:
        return self._start

    def key(self, pos: Position) -> Hashable:
        return self.table.key(pos)

    def is_won(self, pos: Position) -> bool:
        return self.table.is_won(pos)

    def choices(self, pos: Position) -> list[tuple[Move]]:
        removals = self._known.pop(pos, None)
        if removals is None:
            removals = list(self.table.removals(pos))
        self._last = (pos, removals)
        return [(move,) for move in self.table.moves_with(pos, removals)]

    def apply(self, pos: Position, choice: tuple[Move]) -> Position:
        move = choice[0]
        after = self.table.apply(pos, move)
        last, removals = self._last
        if last is pos and not isinstance(move, Consolidate):
            if len(self._known) > 100_000:  # handed on but never asked for
                self._known.clear()
            gone = set(_cells(move))
            self._known[after] = [m for m in removals if gone.isdisjoint(_cells(m))]
        return after

    def ends_phase(self, choice: tuple[Move]) -> bool:
        return isinstance(choice[0], Consolidate)

    def takes_cards(self, choice: tuple[Move]) -> bool:
        return not isinstance(choice[0], Consolidate)

    def native_graph(self, max_states: int | None, seconds: float | None, max_resident: int | None = None) -> NativeGraph | None:
        """`wedlock.search.state_graph.build`'s graph, built by the compiled core (None without it)."""
        compiled = core.compiled_core()
        if compiled is None:
            return None
        rules, start = self.table.rules, self._start
        try:
            made = compiled.graph_montecarlo(
                bytes(self.table.rank_of[:-1]),
                rules.rows,
                rules.cols,
                rules.pairing == THIRTEEN,
                rules.strict,
                rules.consolidation == COLUMNS,
                *_core_cells(start),
                -1 if max_states is None else max(max_states, 0),
                -1.0 if seconds is None else seconds,
                -1 if max_resident is None else max_resident,
            )
        except OverflowError:  # a deal past what the core holds: the pure path takes it
            return None
        return NativeGraph(made, self, _position, _core_cells)

    def phase_exits(self, pos: Position) -> dict[Hashable, tuple[Position, Exit]]:
        """What `wedlock.search.state_graph.phase_exits` computes, over cell masks (see the module)."""
        table = self.table
        if table.is_won(pos):
            return {}
        removals = list(table.removals(pos))
        masks = [_mask(m) for m in removals]
        cells = pos.cells
        strict = table.rules.strict
        # First pass: every reachable mask, its removals left and whether it may consolidate.
        order = [0]
        left: dict[int, list[int]] = {}
        consolidates: dict[int, bool] = {}
        inner: dict[int, Position] = {0: pos}
        for mask in order:  # grows while it is walked: masks in order of discovery by level
            here = inner[mask]
            left[mask] = [i for i, m in enumerate(masks) if not m & mask]
            consolidates[mask] = table.can_consolidate(here) and not (strict and left[mask])
            for i in left[mask]:
                nxt = mask | masks[i]
                if nxt not in inner:
                    inner[nxt] = Position(tuple(GAP if nxt >> c & 1 else card for c, card in enumerate(cells)), pos.stock)
                    order.append(nxt)
        order.sort(key=lambda m: m.bit_count())
        base, depth = 1, {0: 0}
        for mask in order:
            moves = len(left[mask]) + consolidates[mask]
            if moves:
                base = lcm(base, moves, len(left[mask]) or 1)
            for i in left[mask]:
                nxt = mask | masks[i]
                depth[nxt] = max(depth.get(nxt, 0), depth[mask] + 1)
        scale = base ** (max(depth.values()) + 1)
        paths, rand, greedy = {0: 1}, {0: scale}, {0: scale}
        lines: dict[int, tuple] = {0: ()}
        exits: dict[Hashable, list] = {}

        def leave(after: Position, n: int, r: int, g: int, line: tuple) -> None:
            key = table.key(after)
            if key not in exits:
                exits[key] = [after, 0, 0, 0, line]
            out = exits[key]
            out[1] += n
            out[2] += r
            out[3] += g

        for mask in order:
            n, r, g, line = paths[mask], rand[mask], greedy[mask], lines[mask]
            free, consolidate = left[mask], consolidates[mask]
            moves = len(free) + consolidate
            if not moves:
                if mask:
                    leave(inner[mask], n, r, g, line)
                continue
            share_r = r // moves
            share_g = g // len(free) if free else g
            for i in free:
                nxt = mask | masks[i]
                if nxt not in paths:
                    paths[nxt], rand[nxt], greedy[nxt], lines[nxt] = 0, 0, 0, line + ((removals[i],),)
                paths[nxt] += n
                rand[nxt] += share_r
                greedy[nxt] += share_g
            if consolidate:
                leave(table.consolidate(inner[mask]), n, share_r, 0 if free else share_g, line + ((Consolidate(),),))
        return {
            key: (after, Exit(n, Fraction(r, scale), Fraction(g, scale), tuple(m for step in line for m in step)))
            for key, (after, n, r, g, line) in exits.items()
        }


def _cells(move: Removal) -> tuple[int, ...]:
    """The cells a removal empties."""
    return move.cells if isinstance(move, Pair) else (move.cell,)


def _mask(move: Removal) -> int:
    """The cells a removal empties, as bits."""
    mask = 0
    for cell in _cells(move):
        mask |= 1 << cell
    return mask


def _core_cells(pos: Position) -> tuple[bytes, int]:
    return bytes(CORE_GAP if c == GAP else c for c in pos.cells), pos.stock


def _position(cells: tuple[bytes, int]) -> Position:
    grid, stock = cells
    return Position(tuple(GAP if c == CORE_GAP else c for c in grid), stock)

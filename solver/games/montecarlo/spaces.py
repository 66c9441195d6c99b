"""Monte Carlo as the phase search spaces the solver uses (the plain one, one primitive move
per edge, is `wedlock.games.plain_space`).

Why phases are exact. Removing cards never makes two cards touch, so every pair removed
between two consolidations was already a touching pair when the last consolidation ended:
the pairs removed in one phase form a matching of that position's "may be removed
together" graph, and any matching can be removed in any order. The position after the
phase's consolidation depends only on which cells were emptied, not on the order. A second
consolidation straight after a first is never allowed (a consolidated grid has no gap before
a card, and gaps only once the stock is empty). So the plain game's reachable phase-start
positions are exactly those reached by "remove the cells of one matching, then consolidate
if allowed", one edge per distinct set of emptied cells. tests/games/test_montecarlo_spaces.py
compares the verdicts of the phase spaces with the plain one on positions small enough to
search fully.

Every space turns the steps of a winning line back into primitive moves with `moves`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache, partial
from itertools import product

from ...basics.cards import card_codes
from ...basics.compiled import compiled_core
from .moves import Coded, Consolidate, King, Move, Pair, move_of
from .play import GAP, Position, Table
from .rules import COLUMNS, SLIDE, THIRTEEN, MonteCarloRules

CellPairs = tuple[tuple[int, int], ...]  # the cells a phase empties; (a, a) is a lone king


class PhaseSpace:
    """One edge per phase on the full grid: works for every rule set (Weddings uses it)."""

    acyclic = True  # every phase removes cards

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        self._start = start if start is not None else table.start()
        self.is_won = table.is_won
        self.key = table.key
        self.groups = _pair_groups(table.rules)

    def start(self) -> Position:
        return self._start

    def successors(self, pos: Position) -> Iterator[tuple[tuple[Move, ...], Position]]:
        table = self.table
        ranks = bytes(map(table.rank_of.__getitem__, pos.cells))
        total = len(table.deal)
        for _, mask, pairs in _phases(table.rules, ranks, len(ranks), self.groups):
            moves = _pair_moves(table, pos.cells, pairs)
            cells = tuple(GAP if mask >> i & 1 else c for i, c in enumerate(pos.cells))
            after = Position(cells, pos.stock)
            if pos.stock == total and all(c == GAP for c in cells):
                yield moves, after
            elif table.can_consolidate(after):
                yield (*moves, Consolidate()), table.consolidate(after)
            else:
                yield moves, after

    def moves(self, steps: Sequence[tuple[Move, ...]]) -> list[Move]:
        return [m for step in steps for m in step]


class SequenceSpace:
    """The phase space of the rule sets that consolidate by sliding, with a compact state.

    After a slide consolidation the grid read in order followed by the stock is the deal
    with the removed cards deleted (RULES.md), so a phase-start state is just that sequence:
    `bytes` of deal indices, the first `cells` of them on the grid at cells 0, 1, 2, ...
    The key is the sequence of ranks (suits never matter). A step is the cell pairs the phase
    empties; `moves` turns a line of steps back into primitive moves.
    """

    acyclic = True  # every phase removes cards

    def __init__(self, table: Table, start: Position | None = None) -> None:
        if table.rules.consolidation != SLIDE:
            raise ValueError(f"{table.rules.name} does not consolidate by sliding")
        self.table = table
        self.rules = table.rules
        self.size = table.rules.cells
        self.to_ranks = table.rank_of[:-1] + bytes(256 - len(table.deal))
        self.groups = _pair_groups(table.rules)
        self.split_phases = not table.rules.strict
        self._start = self.state_of(start if start is not None else table.start())

    def state_of(self, pos: Position) -> bytes:
        """The state of a position that starts a phase (no gap before a card on the grid)."""
        on_grid = [c for c in pos.cells if c != GAP]
        if list(pos.cells[: len(on_grid)]) != on_grid:
            raise ValueError("a phase starts with the grid closed up")
        return bytes(on_grid) + bytes(range(pos.stock, len(self.table.deal)))

    def start(self) -> bytes:
        return self._start

    def native(self) -> Callable[..., tuple] | None:
        """The compiled core's search of this space (see basics/compiled.py), when it was built; its
        states are rank sequences, as this space's keys are."""
        core = compiled_core()
        if core is None or (self.rules.strict and self.rules.decks > 1):  # the core's strict phases hold one deck
            return None
        rules = self.rules
        return partial(core.search_slide, self.key(self._start), rules.rows, rules.cols, rules.pairing == THIRTEEN, rules.strict)

    def is_won(self, state: bytes) -> bool:
        return not state

    def key(self, state: bytes) -> bytes:
        return state.translate(self.to_ranks)

    def successors(self, state: bytes) -> Iterator[tuple[CellPairs, bytes]]:
        ranks = state.translate(self.to_ranks)
        on_grid = min(len(state), self.size)
        if self.split_phases:
            phases = _unsplittable_phases(self.rules, _edges(self.rules, ranks, on_grid, self.groups))
        else:
            phases = _phases(self.rules, ranks, on_grid, self.groups)
        for _, mask, pairs in phases:
            yield pairs, self._remove(state, mask)

    @staticmethod
    def _remove(state: bytes, mask: int) -> bytes:
        """The sequence without the cells in `mask`: the next phase's start."""
        left = bytearray(state)
        while mask:
            top = mask.bit_length() - 1
            del left[top]
            mask ^= 1 << top
        return bytes(left)

    def moves(self, steps: Sequence[CellPairs]) -> list[Move]:
        return [move_of(c) for c in self.codes(steps)]

    def codes(self, steps: Sequence[CellPairs]) -> list[Coded]:
        """A line of steps as coded moves (`moves.Coded`): each phase's removals, then the
        consolidation after them when the rules allow one. The compiled core's copy where it
        was built (tests/games/test_montecarlo_spaces.py holds the two alike), else `codes_python`."""
        core = compiled_core()
        if core is None or len(self._start) > 104:
            return self.codes_python(steps)
        to_codes = bytes(card_codes(self.table.deal)) + bytes(256 - len(self.table.deal))  # deal index -> card code
        coded: list[Coded] = core.slide_codes(self._start.translate(to_codes), self.size, steps)
        return coded

    def codes_python(self, steps: Sequence[CellPairs]) -> list[Coded]:
        """`codes` in Python."""
        code, size = card_codes(self.table.deal), self.size
        left = [code[i] for i in self.start()]  # the codes of the cards still in play, in a state's order
        out: list[Coded] = []
        add = out.append
        for pairs in steps:
            stock_left, on_grid = len(left) > size, min(len(left), size)
            if len(pairs) == 1:  # most phases remove one pair
                a, b = pairs[0]
                if a == b:
                    add((a, left[a]))
                    del left[a]
                    first, emptied = a, 1
                else:
                    add((a, left[a], b, left[b]))
                    first, last = (a, b) if a < b else (b, a)
                    del left[last], left[first]
                    emptied = 2
            else:
                out.extend([(a, left[a], b, left[b]) if a != b else (a, left[a]) for a, b in pairs])
                cells = sorted({cell for pair in pairs for cell in pair}, reverse=True)
                for cell in cells:
                    del left[cell]
                first, emptied = cells[-1], len(cells)
            # Once the stock is empty, a phase that emptied only the last cards of the grid
            # leaves no card after a gap, and nothing to consolidate.
            if left and (stock_left or first != on_grid - emptied):
                add(())
        return out


RANK_WORDS = {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}  # the others are "2s" .. "10s"


class ColumnSpace:
    """The phase space of Weddings, where consolidation moves cards straight up their columns.

    A phase-start state is the five columns, each a `bytes` of deal indices from the top
    down with no gap above a card, and the deal index of the stock's top card. The key is
    the columns' ranks and the stock's place.

    Dead positions are never offered (`dead`): a card never leaves its column, and two cards
    can only be removed together while they touch, so in columns at most one apart. A rank
    whose cards on the grid cannot be paired off that way, except for as many as there are
    cards of that rank still in the stock (which may land anywhere), can never be cleared; and
    a card that cannot come to touch any partner even if everything else that might go went
    first (`_stuck`) can never be removed, where its partners are only those that some such
    pairing-off of its rank allows (`_pairings`). Either way the position is lost.
    tests/games/test_montecarlo_spaces.py checks both against the plain search.
    """

    acyclic = True  # every phase removes cards
    dead_tests = "the column-pairing and stuck-card tests"  # how a lost answer names what cut it (`dead`)

    def __init__(self, table: Table, start: Position | None = None) -> None:
        if table.rules.consolidation != COLUMNS:
            raise ValueError(f"{table.rules.name} does not consolidate by columns")
        self.table = table
        self.rules = table.rules
        self.total = len(table.deal)
        self.to_ranks = table.rank_of[:-1] + bytes(256 - len(table.deal))
        self.groups = _pair_groups(table.rules)
        self.rank_list = [c.rank for c in table.deal]
        # spares[k][rank]: the cards of that rank in the stock when its top card is deal index k
        self.spares = [[0] * 14 for _ in range(self.total + 1)]
        for k in range(self.total - 1, -1, -1):
            self.spares[k] = list(self.spares[k + 1])
            self.spares[k][self.rank_list[k]] += 1
        # cell -> (column, bit of its row, its count in `_unmatched`'s packing)
        cols = self.rules.cols
        self._cell_bits = [(cell % cols, 1 << cell // cols, 1 << 3 * (cell % cols)) for cell in range(self.rules.cells)]
        self._fills: dict = {}  # (column heights, stock) -> what `_deal` deals
        # key -> `_stuck`'s verdict, which reads nothing but ranks and the stock's place
        self._dead: dict = {}
        self._start = self.state_of(start if start is not None else table.start())

    def state_of(self, pos: Position) -> tuple[tuple[bytes, ...], int]:
        """The state of a position that starts a phase (no gap above a card)."""
        cols = self.rules.cols
        columns = []
        for c in range(cols):
            column = [x for x in pos.cells[c::cols] if x != GAP]
            if list(pos.cells[c::cols][: len(column)]) != column:
                raise ValueError("a phase starts with every column closed up")
            columns.append(bytes(column))
        return tuple(columns), pos.stock

    def start(self) -> tuple[tuple[bytes, ...], int]:
        return self._start

    def native(self) -> Callable[..., tuple] | None:
        """The compiled core's search of this space (see basics/compiled.py), when it was built. Its
        state: the stock's place, the column heights, then each column's ranks from the top."""
        core = compiled_core()
        if core is None:
            return None
        columns, stock = self._start
        state = bytes([stock, *map(len, columns)]) + b"".join(col.translate(self.to_ranks) for col in columns)
        rules = self.rules
        return partial(core.search_columns, state, bytes(self.rank_list), rules.rows, rules.cols, self.dead(columns, stock))

    def is_won(self, state: tuple[tuple[bytes, ...], int]) -> bool:
        return state[1] == self.total and not any(state[0])

    def key(self, state: tuple[tuple[bytes, ...], int]) -> tuple[bytes, int]:
        return b"|".join(col.translate(self.to_ranks) for col in state[0]), state[1]

    def grid(self, state: tuple[tuple[bytes, ...], int]) -> tuple[int, ...]:
        """The deal index in each cell, reading order, GAP for an empty cell."""
        columns = state[0]
        return tuple(
            col[r] if r < len(col) else GAP for r in range(self.rules.rows) for col in columns
        )

    def successors(self, state: tuple[tuple[bytes, ...], int]) -> Iterator[tuple[CellPairs, tuple]]:
        columns, stock = state
        if state is self._start and self.dead(columns, stock):
            return  # later states are checked before they are offered
        cols, rank_list = self.rules.cols, self.rank_list
        grid = self.grid(state)
        ranks = bytes(self.to_ranks[c] if c != GAP else 0 for c in grid)
        if stock == self.total:
            ranks = self._first_part(ranks)
        # A rank's columns as counts, 3 bits a column (see `_unmatched`).
        where: dict[int, int] = {}
        for c, col in enumerate(columns):
            for x in col:
                where[rank_list[x]] = where.get(rank_list[x], 0) + (1 << 3 * c)
        fills, dead, spares = self._fills, self._dead, self.spares
        if len(dead) > 250_000:  # a cache: forgetting only costs time
            dead.clear()
        base = [len(col) for col in columns]
        cell_bits = self._cell_bits
        for _, _, pairs in _phases(self.rules, ranks, len(ranks), self.groups):
            if stock == self.total and len(pairs) > 1 and not self.rules.strict and _splits(self.rules, pairs, self._column_shift):
                continue
            # The parent passed `_unpairable`; only the ranks this phase removes or deals can
            # fail it now (`_unmatched`). Check them before building the child: most phases
            # fail here.
            gone: dict[int, int] = {}
            cut = [0] * cols  # the rows this phase empties, by column
            heights = list(base)
            for a, b in pairs:
                rank = ranks[a]
                for cell in (a, b):
                    c, row_bit, count = cell_bits[cell]
                    gone[rank] = gone.get(rank, 0) + count
                    cut[c] |= row_bit
                    heights[c] -= 1
            fill = fills.get((*heights, stock))
            if fill is None:
                fill = fills[(*heights, stock)] = self._deal(heights, stock)
            dealt, came, after = fill
            spare = spares[after]
            if any(
                _unmatched(where[rank] - out + came.get(rank, 0)) > spare[rank] for rank, out in gone.items()
            ) or any(_unmatched(where.get(rank, 0) + into) > spare[rank] for rank, into in came.items() if rank not in gone):
                continue
            child = (
                tuple(
                    (bytes(x for r, x in enumerate(col) if not cut[c] >> r & 1) if cut[c] else col) + dealt[c]
                    for c, col in enumerate(columns)
                ),
                after,
            )
            key = self.key(child)
            lost = dead.get(key)
            if lost is None:
                lost = dead[key] = self._stuck(*child)
            if not lost:
                yield pairs, child

    def _deal(self, heights: list[int], stock: int) -> tuple[tuple[bytes, ...], dict[int, int], int]:
        """What the fill deals onto columns of these heights: the cards each column gets, the
        columns each rank's cards land in (as counts, like `_unmatched`), and the stock's place
        after."""
        dealt = [b""] * len(heights)
        came: dict[int, int] = {}
        heights = list(heights)
        for r in range(self.rules.rows):
            for c, h in enumerate(heights):
                if h == r and stock < self.total:
                    dealt[c] += bytes((stock,))
                    rank = self.rank_list[stock]
                    came[rank] = came.get(rank, 0) + (1 << 3 * c)
                    heights[c] += 1
                    stock += 1
        return tuple(dealt), came, stock

    def _first_part(self, ranks: bytes) -> bytes:
        """Once the stock is empty: the ranks of the first independent part only (0 elsewhere).

        With no stock, a removal changes nothing but its own columns. Two neighbouring
        columns that hold no rank in common can never trade a pair, so the columns split into
        parts that never affect each other: moves of different parts commute, and a winning
        line can be reordered to clear the leftmost part first. Offering only that part's
        moves keeps every win and cuts the product of the parts' positions to their sum.
        """
        rows, cols = self.rules.rows, self.rules.cols
        held = [set(ranks[c::cols]) - {0} for c in range(cols)]
        start = 0
        while start < cols and not held[start]:
            start += 1
        end = start + 1
        while end < cols and held[end - 1] & held[end]:
            end += 1
        if end == cols and start == 0:
            return ranks
        keep = bytearray(rows * cols)
        for r in range(rows):
            for c in range(start, end):
                keep[r * cols + c] = ranks[r * cols + c]
        return bytes(keep)

    def _fill(self, columns: list[bytes], stock: int) -> tuple[tuple[bytes, ...], int]:
        """Deal from the stock into the gaps, row by row, left to right."""
        columns = list(columns)
        for r in range(self.rules.rows):
            for c, col in enumerate(columns):
                if stock < self.total and len(col) == r:
                    columns[c] = col + bytes((stock,))
                    stock += 1
        return tuple(columns), stock

    def _column_shift(self, cell: int, removed: tuple[int, ...]) -> int:
        """Where a card moves when the cells `removed` empty and its column closes up."""
        cols = self.rules.cols
        return cell - cols * sum(1 for x in removed if x % cols == cell % cols and x < cell)

    def dead(self, columns: tuple[bytes, ...], stock: int) -> bool:
        """Whether the position is lost for one of the reasons in the class docstring."""
        return self._unpairable(columns, stock) is not None or self._stuck(columns, stock)

    def why_lost_at_start(self) -> str | None:
        """Why the start is lost, in a player's words, when `dead` rules it so."""
        columns, stock = self._start
        rank = self._unpairable(columns, stock)
        if rank is not None:
            return (
                f"the {RANK_WORDS.get(rank, f'{rank}s')} on the grid cannot be paired off, a card never leaving its column and "
                "pairing only with one in its own column or the next"
            )
        if self._stuck(columns, stock):
            return "some card can never come to touch a card it may pair with, whatever goes first"
        return None

    def _unpairable(self, columns: tuple[bytes, ...], stock: int) -> int | None:
        """A rank whose cards on the grid cannot be paired off by columns, if there is one."""
        rank_list = self.rank_list
        where: dict[int, list[int]] = {}
        for c, col in enumerate(columns):
            for x in col:
                where.setdefault(rank_list[x], []).append(c)
        spare: dict[int, int] = {}
        for x in range(stock, self.total):
            spare[rank_list[x]] = spare.get(rank_list[x], 0) + 1
        return next((rank for rank, cs in where.items() if len(cs) - 2 * _column_matching(tuple(cs)) > spare.get(rank, 0)), None)

    def _stuck(self, columns: tuple[bytes, ...], stock: int) -> bool:
        """Whether some card on the grid can never be removed, even granting every doubt.

        A card's row only falls, by one for each card removed above it in its column, and a
        card dealt later lands at the bottom of a column, below every card there, and can
        rise only as far as the cards above it go. The pairs a won game removes match off
        each rank's cards, so only the partners some pairing (`_pairings`) allows are ever
        used. `free` over-estimates the cards that can ever be removed; it grows until
        nothing changes:
        - both cards of an allowed pair on the grid, once they could come to touch if every
          card already in `free` were removed when convenient: in one column, every card
          between them is in `free`; in neighbouring columns, the ranges of rows each can
          reach (its row, down to its row less the `free` cards above it) come within one;
        - a card allowed a partner from the stock, once that partner could land touching it:
          a neighbouring column's cards outside `free` (which stay above the newcomer) are at
          most one more than the card's row, or every card below it in its own column is in
          `free`.
        A card outside `free` can never be removed, so the position is lost: in a won game,
        the first card of those outside `free` to go would leave with an allowed partner that,
        everything removed before it being in `free`, passes the test above.

        Then, rank by rank: a won game pairs a rank's cards off in one way, so the argument
        above holds with that rank's routes cut down to those of one pairing and every other
        rank's left as they are. If that leaves a card outside `free` for each pairing of some
        rank, the position is lost. A pairing that holds every route of the rank that fired
        in the first fixpoint would fire them all again, so ranks that have one need no
        second look.
        """
        rank_list, spare, bottom = self.rank_list, self.spares[stock], self.rules.rows - 1
        by_rank: dict[int, list[tuple[int, int]]] = {}
        for c, col in enumerate(columns):
            for r, x in enumerate(col):
                by_rank.setdefault(rank_list[x], []).append((c, r))
        all_routes: list = []
        pairs: list = []
        waiting_for_stock: list = []
        for rank, same in by_rank.items():
            routes = _routes(tuple(same), spare[rank], bottom)
            if routes is None:
                return True
            all_routes.append(routes)
            pairs.extend(routes[0])
            waiting_for_stock.extend(routes[1])
        full = [(1 << len(col)) - 1 for col in columns]
        fired: set = set()
        if not _free_all(full, pairs, waiting_for_stock, fired):
            return True
        # One pairing per rank: see the docstring.
        for k, (rank_pairs, rank_stock, pairings) in enumerate(all_routes):
            if len(pairings) < 2:
                continue
            used = [route for route in rank_pairs + rank_stock if route in fired]
            if any(all(route in pairing for route in used) for pairing in pairings):
                continue  # that pairing alone would fire the same routes
            others_pairs = [route for n, routes in enumerate(all_routes) if n != k for route in routes[0]]
            others_stock = [route for n, routes in enumerate(all_routes) if n != k for route in routes[1]]
            if not any(
                _free_all(
                    full,
                    others_pairs + [r for r in rank_pairs if r in pairing],
                    others_stock + [r for r in rank_stock if r in pairing],
                )
                for pairing in pairings
            ):
                return True
        return False

    def moves(self, steps: Sequence[CellPairs]) -> list[Move]:
        return [move_of(c) for c in self.codes(steps)]

    def codes(self, steps: Sequence[CellPairs]) -> list[Coded]:
        """A line of steps as coded moves (`moves.Coded`): each phase's removals, then the
        consolidation after them when the rules allow one."""
        table, state, out = self.table, self.start(), list[Coded]()
        code, cols = card_codes(table.deal), self.rules.cols
        for pairs in steps:
            cells = self.grid(state)
            out.extend(_coded_pairs(code, cells, pairs))
            mask = 0
            for a, b in pairs:
                mask |= 1 << a | 1 << b
            emptied = Position(tuple(GAP if mask >> i & 1 else c for i, c in enumerate(cells)), state[1])
            if table.can_consolidate(emptied):
                out.append(())
            kept = [bytes(x for r, x in enumerate(col) if not mask >> (r * cols + c) & 1) for c, col in enumerate(state[0])]
            state = self._fill(kept, state[1])
        return out


@cache
def _unmatched(counts: int) -> int:
    """How many of a rank's grid cards no pairing by columns can match: `counts` holds the
    number of cards in column c in bits 3c .. 3c+2."""
    columns = tuple(c for c in range(8) for _ in range(counts >> 3 * c & 7))
    return len(columns) - 2 * _column_matching(columns)


def _free_all(full: list[int], pairs: list[tuple], waiting_for_stock: list[tuple], fired: set | None = None) -> bool:
    """Whether `free` (`ColumnSpace._stuck`) grows to every card, given the allowed routes
    in `_routes`'s form; `fired` collects the routes that freed a card."""
    # free[c] has bit r set when the card in column c, row r is in `free`.
    cols = len(full)
    free = [0] * cols
    changed = True
    while changed:
        changed, still = False, []
        for entry in waiting_for_stock:
            c, bit, reach, below = entry
            if (
                (c > 0 and (full[c - 1] & ~free[c - 1]).bit_count() <= reach)
                or (c + 1 < cols and (full[c + 1] & ~free[c + 1]).bit_count() <= reach)
                or (below and not full[c] & below & ~free[c])
            ):
                free[c] |= bit
                changed = True
                if fired is not None:
                    fired.add(entry)
            else:
                still.append(entry)
        waiting_for_stock, waiting = still, []
        for pair in pairs:
            ci, bit_i, above_i, ri, cj, bit_j, above_j, rj = pair
            if free[ci] & bit_i and free[cj] & bit_j:
                continue
            if ci == cj:
                between = above_j ^ above_i ^ bit_i  # the rows strictly between (ri < rj)
                can_touch = free[ci] & between == between
            else:
                can_touch = (
                    ri - (free[ci] & above_i).bit_count() <= rj + 1 and rj - (free[cj] & above_j).bit_count() <= ri + 1
                )
            if can_touch:
                free[ci] |= bit_i
                free[cj] |= bit_j
                changed = True
                if fired is not None:
                    fired.add(pair)
            else:
                waiting.append(pair)
        pairs = waiting
    return free == full


@lru_cache(maxsize=1 << 16)
def _routes(cells: tuple[tuple[int, int], ...], spare: int, bottom: int) -> tuple[tuple, tuple, tuple] | None:
    """The routes `_pairings` allows one rank's cards at these (column, row) cells, listed
    column by column, in the form `_free_all` reads: the grid pairs, the stock routes, and
    the routes of each pairing; None when the rank cannot be paired off.

    A grid pair is (column, row bit, bits of the rows above, row) for each card; a card
    allowed a stock partner is (column, row bit, how many cards a neighbouring column may
    keep above a newcomer that is to touch it, bits of the rows below it or 0 on the bottom
    row)."""
    pairings = _pairings(tuple(c for c, _ in cells), spare)
    if not pairings:
        return None

    def pair(a: int, b: int) -> tuple[int, ...]:
        (ca, ra), (cb, rb) = cells[a], cells[b]
        return ca, 1 << ra, (1 << ra) - 1, ra, cb, 1 << rb, (1 << rb) - 1, rb

    def alone(a: int) -> tuple[int, int, int, int]:
        c, r = cells[a]
        return c, 1 << r, min(r + 1, bottom), -(2 << r) if r < bottom else 0

    pairs = tuple(pair(a, b) for a, b in sorted({p for together, _ in pairings for p in together}))
    stock = tuple(alone(a) for a in sorted({a for _, with_stock in pairings for a in with_stock}))
    each = tuple(
        frozenset([pair(a, b) for a, b in together] + [alone(a) for a in with_stock]) for together, with_stock in pairings
    )
    return pairs, stock, each


@cache
def _pairings(columns: tuple[int, ...], spare: int) -> tuple[tuple[tuple[tuple[int, int], ...], tuple[int, ...]], ...]:
    """Every way one rank's grid cards (in these columns) may be paired off in a won game.

    The cards of a rank still in play leave in pairs: in a won game they are matched off,
    a grid card with a grid card at most one column away (cards never change column) or
    with a card now in the stock, and stock cards among themselves. Each pairing is given
    as its grid pairs (a, b), a < b, and the grid cards it gives a stock partner; no
    pairing at all means the rank can never be cleared.
    """
    found: set[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = set()

    def extend(left: tuple[int, ...], spare: int, together: tuple, with_stock: tuple) -> None:
        if not left:
            if spare % 2 == 0:  # the stock cards left over pair among themselves
                found.add((together, with_stock))
            return
        a, rest = left[0], left[1:]
        if spare:
            extend(rest, spare - 1, together, with_stock + (a,))
        for k, b in enumerate(rest):
            if abs(columns[a] - columns[b]) <= 1:
                extend(rest[:k] + rest[k + 1 :], spare, together + ((a, b),), with_stock)

    extend(tuple(range(len(columns))), spare, (), ())
    return tuple(sorted(found))


@cache
def _column_matching(columns: tuple[int, ...]) -> int:
    """The most disjoint pairs among cards in these columns with columns at most one apart."""
    if len(columns) < 2:
        return 0
    first, rest = columns[0], columns[1:]
    best = _column_matching(rest)
    for i, other in enumerate(rest):
        if abs(first - other) <= 1:
            best = max(best, 1 + _column_matching(rest[:i] + rest[i + 1 :]))
    return best


def _splits(rules: MonteCarloRules, pairs: CellPairs, shift) -> bool:
    """Whether one pair of a phase can go first, alone, with the others still touching after.

    Such a phase is redundant where the state after the phases depends only on which cards
    were removed (sliding rules always; Weddings once the stock is empty): its state is
    reached by that pair's own phase followed by a phase of the others, and, by induction on
    the number of pairs, by unpruned phases. Never used under strict rules, where a lone
    pair cannot be followed by a consolidation while other pairs remain.
    """
    touching = rules.touching
    for first in pairs:
        removed = tuple(set(first))
        for a, b in pairs:
            if (a, b) == first or a == b:
                continue
            if shift(b, removed) not in touching[shift(a, removed)]:
                break
        else:
            return True
    return False


def _pair_moves(table: Table, cells: Sequence[int], pairs: CellPairs) -> tuple[Move, ...]:
    deal = table.deal
    return tuple(
        Pair((a, b), (deal[cells[a]], deal[cells[b]])) if a != b else King(a, deal[cells[a]]) for a, b in pairs
    )


def _coded_pairs(code: Sequence[int], cells: Sequence[int], pairs: CellPairs) -> list[Coded]:
    """A phase's removals as coded moves; `cells` holds deal indices, `code` their cards' codes."""
    return [(a, code[cells[a]], b, code[cells[b]]) if a != b else (a, code[cells[a]]) for a, b in pairs]


def _pair_groups(rules: MonteCarloRules) -> dict[int, int]:
    """Ranks that can pair with each other share a group number."""
    return {r: min(r, 13 - r) if rules.pairing == THIRTEEN else r for r in range(1, 14)}


def _phases(
    rules: MonteCarloRules, ranks: bytes, on_grid: int, groups: dict[int, int]
) -> list[tuple[int, int, CellPairs]]:
    """(cards removed, cell mask, cell pairs) for each distinct non-empty phase, best first.

    `ranks[i]` is the rank in cell i (0 for a gap) for i < on_grid. Removals of different
    rank groups never share a cell, so each group's matchings are found on their own and
    then combined. Best first means most cards removed, then the earliest cell emptied.
    """
    edges = _edges(rules, ranks, on_grid, groups)
    if not edges:
        return []
    options = [_matchings(group, rules.strict) for group in edges.values()]
    out: list[tuple[int, int, CellPairs]] = []
    for combo in product(*options):
        mask, pairs = 0, CellPairs()
        for m, chosen in combo:
            mask |= m
            pairs += chosen
        if mask:
            out.append((mask.bit_count(), mask, pairs))
    out.sort(key=lambda c: (-c[0], c[1] & -c[1]))
    return out


def _unsplittable_phases(rules: MonteCarloRules, edges: dict[int, list[tuple[int, int]]]) -> list[tuple[int, int, CellPairs]]:
    """The phases that `_splits` keeps under sliding rules, found without listing the others.

    Say pair P breaks pair Q when Q no longer touches once P alone has gone and the grid
    has slid. A phase is split (and dropped) when some pair in it breaks none of the others;
    so the phases kept are single pairs, and sets of disjoint pairs in which every pair
    breaks another pair of the set. Only pairs that break something can be in such a set.
    """
    moves = [pair for group in edges.values() for pair in group]
    touching = rules.touching
    breaks: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for p, q in moves:
        for a, b in moves:
            if a == b or (a, b) == (p, q) or {a, b} & {p, q}:
                continue
            if p == q:
                na, nb = a - (a > p), b - (b > p)
            else:
                na, nb = a - (a > p) - (a > q), b - (b > p) - (b > q)
            if nb not in touching[na]:
                breaks.setdefault((p, q), set()).add((a, b))
    out: list[tuple[int, int, CellPairs]] = [(2 if a != b else 1, 1 << a | 1 << b, ((a, b),)) for a, b in moves]
    breakers = sorted(breaks)
    if len(breakers) > 1:
        found: list[tuple[tuple[int, int], ...]] = []

        def extend(i: int, used: int, chosen: tuple[tuple[int, int], ...]) -> None:
            if i == len(breakers):
                if len(chosen) > 1 and all(breaks[p] & set(chosen) for p in chosen):
                    found.append(chosen)
                return
            extend(i + 1, used, chosen)
            a, b = breakers[i]
            cells = 1 << a | 1 << b
            if not used & cells:
                extend(i + 1, used | cells, chosen + ((a, b),))

        extend(0, 0, ())
        for chosen in found:
            mask = 0
            for a, b in chosen:
                mask |= 1 << a | 1 << b
            out.append((mask.bit_count(), mask, chosen))
    out.sort(key=lambda c: (-c[0], c[1] & -c[1]))
    return out


_LOW7 = int.from_bytes(b"\x7f" * 32, "little")
_HIGH = int.from_bytes(b"\x80" * 32, "little")
_THIRTEENS = int.from_bytes(b"\x0d" * 32, "little")


def _edges(
    rules: MonteCarloRules, ranks: bytes, on_grid: int, groups: dict[int, int]
) -> dict[int, list[tuple[int, int]]]:
    """The removals in the first `on_grid` cells, by rank group: (a, b) pairs, (a, a) lone kings.

    All cells are compared at once, a byte per cell in one integer: ranks are below 0x10,
    so adding 0x7f to every byte sets a byte's high bit exactly when the byte is non-zero,
    without carries between bytes.
    """
    whole = int.from_bytes(ranks[:on_grid], "little")
    span = (1 << 8 * on_grid) - 1
    present = (whole + _LOW7) & _HIGH & span
    thirteens = rules.pairing == THIRTEEN
    edges: dict[int, list[tuple[int, int]]] = {}
    if thirteens:
        kings = ~((whole ^ _THIRTEENS) + _LOW7) & present
        while kings:
            low = kings & -kings
            a = (low.bit_length() >> 3) - 1
            edges[-1 - a] = [(a, a)]
            kings ^= low
    for d, touching in rules.touching_offsets:
        if d >= on_grid:
            continue
        shifted = whole >> 8 * d
        differ = ((whole + shifted) ^ _THIRTEENS) if thirteens else (whole ^ shifted)
        hits = ~(differ + _LOW7) & touching & present & (present >> 8 * d)
        while hits:
            low = hits & -hits
            a = (low.bit_length() >> 3) - 1
            edges.setdefault(groups[ranks[a]], []).append((a, a + d))
            hits ^= low
    return edges


def _matchings(edges: list[tuple[int, int]], maximal_only: bool) -> list[tuple[int, CellPairs]]:
    """Each set of cells some matching of `edges` covers, with one such matching."""
    masks = [1 << a | 1 << b for a, b in edges]
    if len(edges) == 1:
        found = {0: (), masks[0]: tuple(edges)}
    else:
        found = {}

        def extend(i: int, used: int, chosen: CellPairs) -> None:
            if i == len(edges):
                found.setdefault(used, chosen)
                return
            extend(i + 1, used, chosen)
            if not used & masks[i]:
                extend(i + 1, used | masks[i], chosen + (edges[i],))

        extend(0, 0, ())
    if maximal_only:
        return [(u, c) for u, c in found.items() if all(u & m for m in masks)]
    return list(found.items())

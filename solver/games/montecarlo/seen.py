"""Monte Carlo positions in a game under way: as a player sees them, as text, and as the
solver searches them.

A position as a player sees it is the referee's `verify.Table` (the grid's cards and the
stock). Its text form is the board `wedlock deal` draws, with the stock given by its count
only, as PySolFC shows it:

         1   2   3   4   5
      A  QC  TS  --  7H  6C
      ...
      stock (27)

The stock's cards follow from the deal: the stock is always the tail of the dealing order.
How long that tail is, the grid alone often says (every card on the grid has been dealt, and
cards leave the game in pairs); where it leaves the length open, the text must give it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ...basics.cards import Card, CardError, full_deck
from ...basics.errors import PositionError
from . import board
from .moves import ROW_LETTERS, Consolidate, Move
from .play import GAP, Position, Table
from .rules import SLIDE, THIRTEEN, MonteCarloRules
from .verify import Table as Seen

_ROW = re.compile(r"\s*+([A-J])\s++(.*)")
_STOCK = re.compile(r"\s*+stock\b\s*+(?:\(\s*+([0-9,]++)\s*+\)|:\s*+([0-9,]++|empty))?\s*+(?::\s*+(.*))?$", re.I)


def play_position(table: Table, seen: Seen) -> Position:
    """The solver's position (deal indices) of what a player sees: which copy of a card
    (two decks) a cell holds is `_indices`' choice."""
    stock = len(table.deal) - len(seen.stock)
    found = _indices(table.rules, table.deal, stock, seen.grid)
    if isinstance(found, str):
        raise PositionError(found)
    return Position(tuple(found), stock)


def _indices(rules: MonteCarloRules, deal: Sequence[Card], dealt: int, cells: Sequence[Card | None]) -> list[int] | str:
    """The deal index of each cell's card (GAP for a gap), among the `dealt` cards dealt,
    or why there is none. Under sliding rules the cards on the grid keep their dealing
    order, so each takes the first copy dealt after the card before it."""
    copies: dict[Card, list[int]] = {}
    for index in range(dealt):
        copies.setdefault(deal[index], []).append(index)
    out: list[int] = []
    last = -1
    for card in cells:
        if card is None:
            out.append(GAP)
            continue
        free = copies.get(card, [])
        fits = [i for i in free if i > last] if rules.consolidation == SLIDE else free
        if not fits:
            if not free:
                where = "is not in the deal" if card not in deal else "is still in the stock"
                return f"{card} is on the grid, but it {where}"
            return f"{card} lies after {deal[last]} on the grid, but was dealt before it"
        out.append(fits[0])
        free.remove(fits[0])
        last = fits[0] if rules.consolidation == SLIDE else last
    return out


def seen_position(table: Table, pos: Position) -> Seen:
    """What a player sees of a solver's position."""
    grid = tuple(None if c == GAP else table.deal[c] for c in pos.cells)
    on_grid = {c for c in pos.cells if c != GAP}
    removed = tuple(table.deal[i] for i in range(pos.stock) if i not in on_grid)
    return Seen(grid, tuple(table.deal[pos.stock :]), removed)


def position_text(rules: MonteCarloRules, seen: Seen) -> str:
    """The board as a player sees it: the grid, and the stock's count only."""
    lines = board.draw(rules.rows, rules.cols, seen.grid, seen.stock).splitlines()
    lines[-1] = f"  stock ({len(seen.stock)})" if seen.stock else "  stock: empty"
    return "\n".join(lines)


def parse_position(rules: MonteCarloRules, deal: Sequence[Card], text: str) -> Seen:
    """A position typed from the screen (see the module docstring) on this deal, checked:
    a PositionError says why it cannot arise from the deal."""
    grid: dict[int, list[Card | None]] = {}
    count: int | None = None
    listed: list[Card] | None = None
    for line_no, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not body.strip() or re.fullmatch(r"[\s0-9]+", body):
            continue  # blank, a comment, the column numbers
        if match := _STOCK.match(body):
            count, listed = _stock(match, line_no)
            continue
        match = _ROW.match(body)
        if not match:
            raise PositionError(f"line {line_no}: expected a grid row (a row letter, then {rules.cols} cards or --) or the stock")
        row = ROW_LETTERS.index(match.group(1))
        if row >= rules.rows:
            raise PositionError(f"line {line_no}: the grid has {rules.rows} rows, A to {ROW_LETTERS[rules.rows - 1]}")
        if row in grid:
            raise PositionError(f"line {line_no}: row {match.group(1)} a second time")
        grid[row] = _cells(match.group(2), rules.cols, line_no)
    missing = [ROW_LETTERS[r] for r in range(rules.rows) if r not in grid]
    if missing:
        raise PositionError(f"the grid has no row {', '.join(missing)}")
    cells = tuple(card for r in range(rules.rows) for card in grid[r])
    return _consistent(rules, deal, cells, count, listed)


def _cells(text: str, cols: int, line_no: int) -> list[Card | None]:
    tokens = text.split()
    if len(tokens) != cols:
        raise PositionError(f"line {line_no}: a row holds {cols} cells, not {len(tokens)}")
    out: list[Card | None] = []
    for token in tokens:
        if set(token) <= {"-", "."}:
            out.append(None)
            continue
        try:
            out.append(Card.parse(token))
        except CardError:
            raise PositionError(f"line {line_no}: {token!r} is neither a card nor -- for a gap") from None
    return out


def _stock(match: re.Match[str], line_no: int) -> tuple[int, list[Card] | None]:
    number = match.group(1) or match.group(2)
    cards = match.group(3)
    if number is None and not cards:
        raise PositionError(f"line {line_no}: give the stock's count, as stock (27), or stock: empty")
    count = 0 if number is None or number.lower() == "empty" else _count(number, line_no)
    listed = None
    if cards:
        try:
            listed = [Card.parse(token) for token in cards.split()]
        except CardError as err:
            raise PositionError(f"line {line_no}: {err}") from None
        if number is None:
            count = len(listed)
    return count, listed


def _count(text: str, line_no: int) -> int:
    """The stock's count as typed (`1,234`); no stock holds more than 999 cards."""
    digits = text.replace(",", "")
    if not digits:
        raise PositionError(f"line {line_no}: give the stock's count, as stock (27)")
    if len(digits) > 3:
        raise PositionError(f"line {line_no}: a stock of {digits[:12]}{'...' if len(digits) > 12 else ''} cards cannot arise")
    return int(digits)


def stock_counts(rules: MonteCarloRules, deal: Sequence[Card], cells: Sequence[Card | None]) -> list[int]:
    """Every stock count that fits this grid on this deal: the grid's cards all dealt,
    the cards no longer on it leaving in the pairs the rules allow."""
    total, size = len(deal), rules.cells
    out = []
    for stock in range(0, total - min(size, total) + 1):
        if _why_not(rules, deal, cells, total - stock) == "":
            out.append(stock)
    return out


def _why_not(rules: MonteCarloRules, deal: Sequence[Card], cells: Sequence[Card | None], dealt: int) -> str:
    """Why a grid cannot arise with `dealt` cards dealt, or ""."""
    found = _indices(rules, deal, dealt, cells)
    if isinstance(found, str):
        return found
    gone = Counter(deal[:dealt]) - Counter(c for c in cells if c is not None)
    if rules.pairing == THIRTEEN:
        for rank in range(1, 7):
            a, b = _rank_count(gone, rank), _rank_count(gone, 13 - rank)
            if a != b:
                return f"{a} of rank {_rank(rank)} and {b} of rank {_rank(13 - rank)} are gone, but they leave in pairs that total 13"
    else:
        for rank in range(1, 14):
            if _rank_count(gone, rank) % 2:
                return f"{_rank_count(gone, rank)} cards of rank {_rank(rank)} are gone, but cards leave in pairs"
    return ""


def _rank_count(cards: Counter, rank: int) -> int:
    return sum(n for card, n in cards.items() if card.rank == rank)


def _rank(rank: int) -> str:
    return "A23456789TJQK"[rank - 1]


def _consistent(rules: MonteCarloRules, deal: Sequence[Card], cells: tuple[Card | None, ...], count: int | None, listed: list[Card] | None) -> Seen:
    fits = stock_counts(rules, deal, cells)
    if count is None:
        if len(fits) != 1:
            if not fits:
                raise PositionError(f"this grid cannot arise from this deal: {_why_not(rules, deal, cells, len(deal) - min(rules.cells, len(deal)))}")
            shown = ", ".join(str(n) for n in fits[:8]) + (" ..." if len(fits) > 8 else "")
            raise PositionError(f"the grid fits stock counts {shown}: give the count PySolFC shows, as stock (27)")
        count = fits[0]
    if count not in fits:
        dealt = len(deal) - count
        reason = _why_not(rules, deal, cells, dealt) if 0 <= dealt <= len(deal) else f"the deal has {len(deal)} cards"
        raise PositionError(f"this grid with {count} cards in the stock cannot arise from this deal: {reason or 'too few cards dealt'}")
    stock = tuple(deal[len(deal) - count :])
    if listed is not None and tuple(listed) != stock:
        raise PositionError("the stock's cards are not the last of the deal in dealing order")
    gone = Counter(deal[: len(deal) - count]) - Counter(c for c in cells if c is not None)
    return Seen(cells, stock, tuple(sorted(gone.elements())))


@dataclass(frozen=True)
class Visible:
    """What a PySolFC player sees of a Monte Carlo position: the grid, the cards already
    removed, and how many cards the stock holds, but not their order."""

    grid: tuple[Card | None, ...]
    removed: tuple[Card, ...]  # sorted: the order they left in does not matter
    stock: int  # cards in the stock


def visible(seen: Seen) -> Visible:
    return Visible(seen.grid, tuple(sorted(seen.removed)), len(seen.stock))


def unseen(rules: MonteCarloRules, view: Visible) -> list[Card]:
    """The cards in the stock, in no particular order (sorted)."""
    left = Counter(full_deck(rules.decks)) - Counter(c for c in view.grid if c is not None) - Counter(view.removed)
    return sorted(left.elements())


def imagined(view: Visible, stock: Sequence[Card]) -> tuple[list[Card], Seen]:
    """A deal and a position that look like `view` with this stock: the grid's cards in
    reading order, then the removed ones, then the stock."""
    if len(stock) != view.stock:
        raise ValueError(f"the stock holds {view.stock} cards, not {len(stock)}")
    cards = [c for c in view.grid if c is not None] + list(view.removed) + list(stock)
    return cards, Seen(view.grid, tuple(stock), view.removed)


class FromPosition:
    """The search from any position: single moves up to the next consolidation, then the
    rule set's own phase space (`spaces.py`), whose states start a phase.

    A position inside a phase (some pairs removed since the last consolidation) is no
    state of the phase spaces; the moves that finish its phase are few, so they are taken
    one at a time."""

    acyclic = True  # every move removes cards or consolidates

    def __init__(self, table: Table, start: Position, make: Callable[[Table, Position | None], Any]) -> None:
        self.table, self.make = table, make
        self.fast = make(table, None)
        self._start = ("plain", start)
        self.dead_tests = getattr(self.fast, "dead_tests", "")  # the phase space's, which cut its positions

    def start(self) -> tuple[str, Any]:
        return self._start

    def successors(self, state: tuple[str, Any]) -> Iterator[tuple[tuple[str, Any], tuple[str, Any]]]:
        kind, inner = state
        if kind == "fast":
            for step, child in self.fast.successors(inner):
                yield ("fast", step), ("fast", child)
            return
        table = self.table
        for move in table.legal_moves(inner):
            after = table.apply(inner, move)
            if isinstance(move, Consolidate):
                yield ("move", move), ("fast", self.fast.state_of(after))
            else:
                yield ("move", move), ("plain", after)

    def is_won(self, state: tuple[str, Any]) -> bool:
        kind, inner = state
        return self.fast.is_won(inner) if kind == "fast" else self.table.is_won(inner)

    def key(self, state: tuple[str, Any]) -> Hashable:
        kind, inner = state
        return (kind, self.fast.key(inner) if kind == "fast" else self.table.key(inner))

    def moves(self, steps: Sequence[tuple[str, Any]]) -> list[Move]:
        """The primitive moves of a line: the single moves, then the phase space's steps
        from the position they reach."""
        pos = self._start[1]
        out: list[Move] = []
        for n, (kind, step) in enumerate(steps):
            if kind == "fast":
                return out + self.make(self.table, pos).moves([s for _, s in steps[n:]])
            out.append(step)
            pos = self.table.apply(pos, step)
        return out

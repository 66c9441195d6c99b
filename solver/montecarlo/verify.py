"""An independent referee for Monte Carlo: replay moves on a deal and say whether they win.

Written straight from the rules, sharing nothing with the solver's move generator
(`play.py`, `spaces.py`), so that a bug there shows up here as an illegal move. From the
rule set it reads only plain data: grid size, decks, pairing, consolidation, strict.
The referee keeps whole cards (rank and suit) everywhere, so a move that names the wrong
suit is caught too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..cards import Card
from ..errors import DealError, IllegalMoveError, RulesError
from .moves import ROW_LETTERS, Consolidate, King, Move, Pair, cell_name
from .rules import COLUMNS, SAME_RANK, SLIDE, THIRTEEN, MonteCarloRules

Cell = int  # a grid position, 0 .. rows*cols-1 in reading order
KING = 13


@dataclass(frozen=True)
class Table:
    """A position as the referee sees it: the grid (None for a gap), the stock, the removed cards."""

    grid: tuple[Card | None, ...]
    stock: tuple[Card, ...]  # in dealing order: stock[0] is the next card dealt
    removed: tuple[Card, ...] = ()  # in the order the moves removed them

    def cards_left(self) -> int:
        """How many cards are still on the grid or in the stock."""
        return sum(card is not None for card in self.grid) + len(self.stock)


@dataclass(frozen=True)
class Verdict:
    """The referee's answer for one replay."""

    won: bool  # True only if every move was legal AND all cards were removed at the end
    moves_played: int  # how many moves were legal and applied
    problem: str  # "" for a legal win; else one clear sentence saying what went wrong


def referee(rules: MonteCarloRules, deal: Sequence[Card], moves: Sequence[Move]) -> Verdict:
    """Replay `moves` on `deal` (cards in dealing order) and judge them; a bad deal raises DealError."""
    table = deal_table(rules, deal)
    for number, move in enumerate(moves, start=1):
        problem = problem_with(rules, table, move)
        if problem:
            return Verdict(False, number - 1, f"move {number} ({move_text(rules, move)}): {problem}")
        table = _applied(rules, table, move)
    left = table.cards_left()
    if left:
        return Verdict(False, len(moves), f"{_all_legal(len(moves))} but {_count(left, 'card')} {_remain(left)}")
    return Verdict(True, len(moves), "")


def deal_table(rules: MonteCarloRules, deal: Sequence[Card]) -> Table:
    """The opening position: the first rows*cols cards on the grid in reading order, the rest the stock."""
    _check_rules(rules)
    _check_deal(rules, deal)
    size = rules.rows * rules.cols
    return Table(tuple(deal[:size]), tuple(deal[size:]))


def apply(rules: MonteCarloRules, table: Table, move: Move) -> Table:
    """The position after a legal `move`; an illegal one raises IllegalMoveError."""
    problem = problem_with(rules, table, move)
    if problem:
        raise IllegalMoveError(f"{move_text(rules, move)}: {problem}")
    return _applied(rules, table, move)


def _applied(rules: MonteCarloRules, table: Table, move: Move) -> Table:
    """The position after `move`, already found legal."""
    if isinstance(move, Consolidate):
        return _consolidate(rules, table)
    cells = move.cells if isinstance(move, Pair) else (move.cell,)
    grid = list(table.grid)
    taken = []
    for cell in cells:
        taken.append(grid[cell])
        grid[cell] = None
    return Table(tuple(grid), table.stock, table.removed + tuple(taken))  # type: ignore[arg-type]


def problem_with(rules: MonteCarloRules, table: Table, move: Move) -> str:
    """Why `move` is illegal in `table`, as a sentence fragment; "" when it is legal."""
    if isinstance(move, Pair):
        return _pair_problem(rules, table, move)
    if isinstance(move, King):
        return _king_problem(rules, table, move)
    if isinstance(move, Consolidate):
        return _consolidate_problem(rules, table)
    return "not a Monte Carlo move"


def move_text(rules: MonteCarloRules, move: Move) -> str:
    """The move's text form, or a plain description when it names cells off the grid."""
    cells: tuple[int, ...]
    cards: tuple[Card, ...]
    if isinstance(move, Pair):
        cells, cards = move.cells, move.cards
    elif isinstance(move, King):
        cells, cards = (move.cell,), (move.card,)
    elif isinstance(move, Consolidate):
        return move.text(rules.cols)
    else:
        return repr(move)
    if len(cells) == len(cards) == (2 if isinstance(move, Pair) else 1) and all(_on_grid(rules, c) for c in cells):
        return move.text(rules.cols)
    return " + ".join(f"{_cell_label(rules, cell)} {card}" for cell, card in zip(cells, cards))


def touch(rules: MonteCarloRules, a: Cell, b: Cell) -> bool:
    """Whether two different cells are neighbours across a side or a corner (no wrap-around)."""
    row_a, col_a = divmod(a, rules.cols)
    row_b, col_b = divmod(b, rules.cols)
    return a != b and abs(row_a - row_b) <= 1 and abs(col_a - col_b) <= 1


def removals(rules: MonteCarloRules, table: Table) -> Iterator[Move]:
    """Every removal (pair, or lone king in Thirteens) legal in `table`, in reading order."""
    grid = table.grid
    for a, card in enumerate(grid):
        if card is None:
            continue
        if rules.pairing == THIRTEEN and card.rank == KING:
            yield King(a, card)
            continue
        for b in range(a + 1, len(grid)):
            other = grid[b]
            if other is not None and touch(rules, a, b) and not _rank_problem(rules, card, other):
                yield Pair((a, b), (card, other))


# --- legality ---------------------------------------------------------------------------


def _pair_problem(rules: MonteCarloRules, table: Table, move: Pair) -> str:
    """Why a pair move is illegal, or ""."""
    cells, cards = move.cells, move.cards
    if len(cells) != 2 or len(cards) != 2:
        return "a pair names exactly two cells and two cards"
    for cell, card in zip(cells, cards):
        problem = _cell_problem(rules, table, cell, card)
        if problem:
            return problem
    a, b = cells
    if a == b:
        return f"it names {_cell_label(rules, a)} twice"
    if not touch(rules, a, b):
        return f"{_cell_label(rules, a)} and {_cell_label(rules, b)} do not touch"
    return _rank_problem(rules, cards[0], cards[1])


def _king_problem(rules: MonteCarloRules, table: Table, move: King) -> str:
    """Why a lone-king move is illegal, or ""."""
    if rules.pairing != THIRTEEN:
        return f"no card is removed on its own in {rules.name}, only in pairs"
    problem = _cell_problem(rules, table, move.cell, move.card)
    if problem:
        return problem
    if move.card.rank != KING:
        return f"only a king is removed on its own, not {move.card}"
    return ""


def _cell_problem(rules: MonteCarloRules, table: Table, cell: Cell, card: Card) -> str:
    """Why `cell` cannot give up `card`: off the grid, empty, or holding another card; else ""."""
    if not _on_grid(rules, cell):
        return f"{_cell_label(rules, cell)} is off the {rules.rows}x{rules.cols} grid"
    held = table.grid[cell]
    if held is None:
        return f"{_cell_label(rules, cell)} is empty, not {card}"
    if held != card:
        return f"{_cell_label(rules, cell)} holds {held}, not {card}"
    return ""


def _rank_problem(rules: MonteCarloRules, x: Card, y: Card) -> str:
    """Why two touching cards may not be removed together, or ""."""
    if rules.pairing == THIRTEEN:
        if KING in (x.rank, y.rank):
            return f"a king is removed on its own, not in a pair ({x} + {y})"
        if x.rank + y.rank != 13:
            return f"{x} and {y} total {x.rank + y.rank}, not 13"
        return ""
    if x.rank != y.rank:
        return f"{x} and {y} are not the same rank"
    return ""


def _consolidate_problem(rules: MonteCarloRules, table: Table) -> str:
    """Why consolidating is not allowed now, or ""."""
    grid = table.grid
    gaps = [cell for cell, card in enumerate(grid) if card is None]
    if not gaps:
        return "the grid has no gap to close"
    if not table.stock:
        if rules.consolidation == SLIDE and all(card is None for card in grid[gaps[0] :]):
            return "the stock is empty and no card follows a gap in reading order"
        if rules.consolidation == COLUMNS and not any(
            grid[cell] is not None and grid[cell - rules.cols] is None for cell in range(rules.cols, len(grid))
        ):
            return "the stock is empty and no card has a gap directly above it"
    if rules.strict:
        pair = next(removals(rules, table), None)
        if pair is not None:
            return f"{rules.name} rules consolidate only once no pair remains, and {move_text(rules, pair)} is still open"
    return ""


# --- consolidation ----------------------------------------------------------------------


def _consolidate(rules: MonteCarloRules, table: Table) -> Table:
    """Close the gaps the rule set's way, then fill the empty cells in reading order from the stock."""
    if rules.consolidation == SLIDE:
        kept = [card for card in table.grid if card is not None]
        grid: list[Card | None] = kept + [None] * (len(table.grid) - len(kept))
    else:
        grid = [None] * len(table.grid)
        for col in range(rules.cols):
            column = [table.grid[row * rules.cols + col] for row in range(rules.rows)]
            kept = [card for card in column if card is not None]
            for row, card in enumerate(kept):
                grid[row * rules.cols + col] = card
    stock = list(table.stock)
    for cell in range(len(grid)):
        if grid[cell] is None and stock:
            grid[cell] = stock.pop(0)
    return Table(tuple(grid), tuple(stock), table.removed)


# --- helpers ----------------------------------------------------------------------------


def _check_rules(rules: MonteCarloRules) -> None:
    """Refuse a rule set whose pairing or consolidation this referee does not know."""
    if rules.pairing not in (SAME_RANK, THIRTEEN):
        raise RulesError(f"the referee does not know the pairing {rules.pairing!r}")
    if rules.consolidation not in (SLIDE, COLUMNS):
        raise RulesError(f"the referee does not know the consolidation {rules.consolidation!r}")
    if not (1 <= rules.rows <= len(ROW_LETTERS) and 1 <= rules.cols <= 9):
        raise RulesError(f"a {rules.rows}x{rules.cols} grid cannot be named cell by cell")


def _check_deal(rules: MonteCarloRules, deal: Sequence[Card]) -> None:
    """Refuse a deal that is not exactly `decks` full packs."""
    wanted = 52 * rules.decks
    if len(deal) != wanted:
        raise DealError(f"{rules.name} is played with {wanted} cards, but the deal has {len(deal)}")
    counts = Counter(deal)
    for rank in range(1, 14):
        for suit in range(4):
            card = Card(rank, suit)
            if counts[card] != rules.decks:
                raise DealError(f"the deal holds {counts[card]} of {card}, not {rules.decks}")


def _on_grid(rules: MonteCarloRules, cell: object) -> bool:
    """Whether `cell` is an integer naming a grid position."""
    return isinstance(cell, int) and not isinstance(cell, bool) and 0 <= cell < rules.rows * rules.cols


def _cell_label(rules: MonteCarloRules, cell: object) -> str:
    """`B3` for a cell on the grid, `cell 31` for one off it."""
    return cell_name(cell, rules.cols) if _on_grid(rules, cell) else f"cell {cell!r}"  # type: ignore[arg-type]


def _count(n: int, noun: str) -> str:
    """`1 card`, `6 cards`."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _remain(n: int) -> str:
    """The verb agreeing with n cards."""
    return "remains" if n == 1 else "remain"


def _all_legal(n: int) -> str:
    """The opening of the "cards remain" sentence for n legal moves."""
    if n == 0:
        return "no move was played"
    if n == 1:
        return "the only move is legal"
    return f"all {n} moves are legal"

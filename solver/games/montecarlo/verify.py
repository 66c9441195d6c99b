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
from functools import cache

from ...basics.cards import Card, card_codes
from ...basics.compiled import compiled_core
from ...basics.errors import DealError, IllegalMoveError, RulesError
from .moves import ROW_LETTERS, Coded, Consolidate, King, Move, Pair, cell_name
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


# --- the same rules on small ints -------------------------------------------------------
#
# The solver's wins are replayed here, as coded moves (`moves.Coded`), on one flat list of
# card codes: the grid's cells in reading order (None for a gap), then the stock from its
# next card; nothing is built per move. It says only whether a line wins and how many of
# its moves are legal; `referee` above stays the reference, and gives the words for a line
# that does not win. The compiled core has the same replay in C (`_core/referee.c`, written
# from the rules as this one is, and sharing nothing with the search), which the pipeline
# uses where it was built. tests/games/test_montecarlo_verify.py checks that they all agree on
# random lines, legal or not, and tests/games/test_referees.py on the solver's lines, whole and
# damaged.


def replay_codes(rules: MonteCarloRules, deal: Sequence[Card], moves: Sequence[Coded]) -> tuple[bool, int]:
    """Replay coded moves on `deal`: whether they win, and how many are legal before the
    first that is not (all of them when none is). A deal that is not whole packs wins nothing.
    The compiled core's replay where it was built, else `replay_codes_python`."""
    compiled = replay_codes_compiled(rules, deal, moves)
    return replay_codes_python(rules, deal, moves) if compiled is None else compiled


def replay_codes_compiled(rules: MonteCarloRules, deal: Sequence[Card], moves: Sequence[Coded]) -> tuple[bool, int] | None:
    """`replay_codes` by the compiled core's referee; None where the core was not built
    (or WEDLOCK_PURE is set), and for more than the eight packs it holds."""
    _check_rules(rules)
    core = compiled_core()
    if core is None or rules.decks > 8:
        return None
    codes = bytes(card_codes(deal))
    compiled: tuple[bool, int] = core.referee_montecarlo(
        codes, rules.rows, rules.cols, rules.decks, rules.pairing == THIRTEEN, rules.consolidation == COLUMNS, rules.strict, moves
    )
    return compiled


def replay_codes_python(rules: MonteCarloRules, deal: Sequence[Card], moves: Sequence[Coded]) -> tuple[bool, int]:
    """`replay_codes` in Python."""
    _check_rules(rules)
    cards: list[int | None] = card_codes(deal)  # type: ignore[assignment]
    if sorted(cards) != _whole_packs(rules.decks):  # type: ignore[type-var]
        return False, 0
    size, near, thirteens = rules.rows * rules.cols, _near(rules.rows, rules.cols), rules.pairing == THIRTEEN
    on_grid = size  # the cells that exist: under the sliding rules, once the stock is out,
    # the list is shorter than the grid, and the cells past its end are gaps
    sliding = rules.consolidation == SLIDE
    emptied: list[int] = []  # the cells emptied since the last consolidation: the gaps
    for played, move in enumerate(moves):
        if not (isinstance(move, (tuple, list)) and all(isinstance(v, int) for v in move)):
            return False, played  # no coded move
        if len(move) == 4:  # a pair
            a, x, b, y = move
            if not (0 <= a < on_grid and 0 <= b < on_grid and cards[a] == x and cards[b] == y and b in near[a]):
                return False, played
            if not (x % 13 + y % 13 == 11 if thirteens else x % 13 == y % 13):  # ranks (code % 13 + 1) that total 13, or the same rank
                return False, played
            cards[a] = cards[b] = None
            emptied += a, b
        elif not move:  # consolidate
            if not _may_consolidate(rules, cards):
                return False, played
            if sliding:
                # Each later card, the grid's and then the stock's, moves back one place
                # over each gap: the gaps leave the list.
                for cell in sorted(emptied, reverse=True):
                    del cards[cell]
                on_grid = min(size, len(cards))
            else:
                cards = _columns_closed(rules, cards)
            emptied.clear()
        elif len(move) == 2:  # a lone king
            a, x = move
            if not (thirteens and 0 <= a < on_grid and cards[a] == x and x % 13 == KING - 1):
                return False, played
            cards[a] = None
            emptied.append(a)
        else:
            return False, played
    return cards.count(None) == len(cards), len(moves)


def _may_consolidate(rules: MonteCarloRules, cards: list[int | None]) -> bool:
    """Whether the rules allow consolidating now (see `_consolidate_problem`); `cards` as in
    `replay_codes`."""
    size = rules.rows * rules.cols
    if None not in cards:  # no gap (cells past the list's end have no card after them)
        return False
    if len(cards) <= size:  # the stock is out
        if rules.consolidation == SLIDE:
            if cards.count(None) == len(cards) - cards.index(None):  # no card follows the first gap
                return False
        elif not any(cards[cell] is not None and cards[cell - rules.cols] is None for cell in range(rules.cols, size)):
            return False
    return not (rules.strict and _removal_open(cards[:size], rules, rules.pairing == THIRTEEN))


def _columns_closed(rules: MonteCarloRules, cards: list[int | None]) -> list[int | None]:
    """Weddings' consolidation: each column closes up, straight up, then the gaps, in
    reading order, take the stock's cards."""
    size, cols = rules.rows * rules.cols, rules.cols
    columns = [[card for card in cards[col:size:cols] if card is not None] for col in range(cols)]
    grid = [column[row] if row < len(column) else None for row in range(rules.rows) for column in columns]
    stock = iter(cards[size:])
    grid = [next(stock, None) if card is None else card for card in grid]
    return grid + list(stock)


def _removal_open(grid: list[int | None], rules: MonteCarloRules, thirteens: bool) -> bool:
    """Whether some pair (or, in Thirteens, a lone king) may be removed from `grid`. A pair
    is looked for from its earlier cell (`_later`: the touching cells after each)."""
    ranks = [None if x is None else x % 13 for x in grid]  # rank - 1
    if thirteens and KING - 1 in ranks:
        return True
    later = _later(rules.rows, rules.cols, len(ranks))
    for a, r in enumerate(ranks):
        if r is None:
            continue
        partner = 11 - r if thirteens else r
        for b in later[a]:
            if ranks[b] == partner:
                return True
    return False


@cache
def _later(rows: int, cols: int, cells: int) -> tuple[tuple[int, ...], ...]:
    """For each of the first `cells` cells of a rows x cols grid, the cells after it among
    those that touch it (`_near`)."""
    near = _near(rows, cols)
    return tuple(tuple(sorted(b for b in near[a] if a < b < cells)) for a in range(cells))


@cache
def _near(rows: int, cols: int) -> tuple[frozenset[int], ...]:
    """For each cell of a rows x cols grid, the cells that touch it (`touch`)."""
    size = rows * cols
    return tuple(
        frozenset(b for b in range(size) if a != b and abs(a // cols - b // cols) <= 1 and abs(a % cols - b % cols) <= 1) for a in range(size)
    )


@cache
def _whole_packs(decks: int) -> list[int]:
    """The sorted card codes of `decks` full packs."""
    return sorted(list(range(52)) * decks)


# --- helpers ----------------------------------------------------------------------------


def _check_rules(rules: MonteCarloRules) -> None:
    """Refuse a rule set whose pairing or consolidation this referee does not know."""
    if rules.pairing not in (SAME_RANK, THIRTEEN):
        raise RulesError(f"the referee does not know the pairing {rules.pairing!r}")
    if rules.consolidation not in (SLIDE, COLUMNS):
        raise RulesError(f"the referee does not know the consolidation {rules.consolidation!r}")
    if not (1 <= rules.rows <= len(ROW_LETTERS) and 1 <= rules.cols <= 9):
        raise RulesError(f"a {rules.rows}x{rules.cols} grid cannot be named cell by cell")
    if not (isinstance(rules.decks, int) and 1 <= rules.decks and rules.rows * rules.cols <= 52 * rules.decks):
        raise RulesError(f"{rules.decks!r} packs cannot fill a {rules.rows}x{rules.cols} grid")


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

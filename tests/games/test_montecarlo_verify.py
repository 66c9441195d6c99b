"""Tests for the independent Monte Carlo referee (`wedlock.games.montecarlo.verify`).

The expected positions here are worked out by hand or by the small model at the top of this
file, written again from RULES.md; nothing here calls the solver.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tiers import examples
from wedlock.basics.cards import Card, full_deck, parse_cards
from wedlock.basics.compiled import compiled_core
from wedlock.basics.errors import DealError, IllegalMoveError, RulesError
from wedlock.games.montecarlo.moves import Consolidate, King, Move, Pair, coded, move_of
from wedlock.games.montecarlo.rules import RULE_SETS, MonteCarloRules
from wedlock.games.montecarlo.verify import (
    Table,
    Verdict,
    _may_consolidate,
    apply,
    deal_table,
    problem_with,
    referee,
    replay_codes,
    replay_codes_compiled,
    replay_codes_python,
)

PYSOL = RULE_SETS["pysol"]
STRICT = RULE_SETS["strict"]
THIRTEENS = RULE_SETS["thirteens"]
WEDDINGS = RULE_SETS["weddings"]
TWO_DECKS = RULE_SETS["2decks"]
SMALL = RULE_SETS["5x4"]

Grid = list[Card | None]

# --- a small model of the rules, written for the tests ------------------------------------


def deal_starting(first: str, decks: int = 1) -> list[Card]:
    """A full deal whose first cards are `first`; the rest of the pack follows in id order."""
    head = parse_cards(first)
    deal = list(head)
    for card in full_deck(decks):
        if card in head:
            head.remove(card)  # this copy is already in the head
        else:
            deal.append(card)
    assert not head, f"the head holds {head} too often"
    return deal


def P(a: int, b: int, x: str, y: str) -> Pair:
    """A pair move from cell numbers and card text."""
    return Pair((a, b), (Card.parse(x), Card.parse(y)))


def model_pairs(rules: MonteCarloRules, grid: Grid) -> list[Move]:
    """Every removal the rules allow on `grid`, by brute force over all cell pairs."""
    thirteens = rules.pairing == "thirteen"
    out: list[Move] = []
    for a, x in enumerate(grid):
        if x is None:
            continue
        if thirteens and x.rank == 13:
            out.append(King(a, x))
            continue
        for b in range(a + 1, len(grid)):
            y = grid[b]
            if y is None:
                continue
            (ra, ca), (rb, cb) = divmod(a, rules.cols), divmod(b, rules.cols)
            if max(abs(ra - rb), abs(ca - cb)) != 1:
                continue
            if (x.rank + y.rank == 13) if thirteens else (x.rank == y.rank):
                out.append(Pair((a, b), (x, y)))
    return out


def model_may_consolidate(rules: MonteCarloRules, grid: Grid, stock: Sequence[Card]) -> bool:
    """Whether RULES.md allows a consolidation here."""
    if None not in grid:
        return False
    if rules.strict and model_pairs(rules, grid):
        return False
    if stock:
        return True
    if rules.consolidation == "columns":
        return any(grid[i] is not None and grid[i - rules.cols] is None for i in range(rules.cols, len(grid)))
    first_gap = grid.index(None)
    return any(card is not None for card in grid[first_gap:])


def model_consolidate(rules: MonteCarloRules, grid: Grid, stock: list[Card]) -> tuple[Grid, list[Card]]:
    """Close the gaps as RULES.md says and deal from the stock into the empty cells."""
    if rules.consolidation == "columns":
        new: Grid = [None] * len(grid)
        for col in range(rules.cols):
            column = [grid[r * rules.cols + col] for r in range(rules.rows)]
            for row, card in enumerate(c for c in column if c is not None):
                new[row * rules.cols + col] = card
    else:
        kept = [c for c in grid if c is not None]
        new = kept + [None] * (len(grid) - len(kept))
    stock = list(stock)
    for i, card in enumerate(new):
        if card is None and stock:
            new[i] = stock.pop(0)
    return new, stock


def model_apply(rules: MonteCarloRules, grid: Grid, stock: list[Card], move: Move) -> tuple[Grid, list[Card]]:
    """The model's position after a move it generated itself."""
    if isinstance(move, Consolidate):
        return model_consolidate(rules, grid, stock)
    grid = list(grid)
    for cell in move.cells if isinstance(move, Pair) else (move.cell,):
        grid[cell] = None
    return grid, stock


def model_moves(rules: MonteCarloRules, grid: Grid, stock: list[Card]) -> list[Move]:
    """All moves the model allows."""
    moves = model_pairs(rules, grid)
    if model_may_consolidate(rules, grid, stock):
        moves.append(Consolidate())
    return moves


def greedy_play(rules: MonteCarloRules, deal: Sequence[Card]) -> tuple[list[Move], int]:
    """Take the first removal in reading order, else consolidate; return the moves and cards left."""
    n = rules.rows * rules.cols
    grid: Grid = list(deal[:n])
    stock = list(deal[n:])
    moves: list[Move] = []
    while True:
        options = model_moves(rules, grid, stock)
        if not options:
            return moves, sum(c is not None for c in grid) + len(stock)
        moves.append(options[0])
        grid, stock = model_apply(rules, grid, stock, options[0])


def play_out(rules: MonteCarloRules, deal: Sequence[Card], moves: Sequence[Move]) -> Table:
    """The referee's position after `moves`, each of which must be legal."""
    table = deal_table(rules, deal)
    for move in moves:
        table = apply(rules, table, move)
    return table


def rank_sorted(decks: int = 1) -> list[Card]:
    """Every card ordered by rank, so neighbours in the deal match."""
    return sorted(full_deck(decks), key=lambda c: (c.rank, c.suit))


def thirteens_sorted() -> list[Card]:
    """A deal of A Q 2 J 3 T 4 9 5 8 6 7 K per suit: pairs totalling 13 next to each other."""
    order = [1, 12, 2, 11, 3, 10, 4, 9, 5, 8, 6, 7, 13]
    return [Card(rank, suit) for suit in range(4) for rank in order]


# --- illegal moves, each caught with its number ---------------------------------------------

# A: AC AS 2C 9H 2S    B: 2D 5C 6C 7C 8C    C: 9C TC JC QC KC
# D: 3H 4H 5H 6H 7H    E: 8H 9S TH QH QS
PYSOL_DEAL = deal_starting("AC AS 2C 9H 2S  2D 5C 6C 7C 8C  9C TC JC QC KC  3H 4H 5H 6H 7H  8H 9S TH QH QS")
OPENING = [P(0, 1, "AC", "AS"), P(23, 24, "QH", "QS")]


@pytest.mark.parametrize(
    "bad, problem",
    [
        (P(2, 7, "2C", "6H"), "B3 holds 6C, not 6H"),
        (P(2, 7, "2H", "6C"), "A3 holds 2C, not 2H"),
        (P(0, 5, "AC", "2D"), "A1 is empty, not AC"),
        (P(24, 19, "QS", "7H"), "E5 is empty, not QS"),
        (P(2, 2, "2C", "2C"), "it names A3 twice"),
        (P(2, 4, "2C", "2S"), "A3 and A5 do not touch"),
        (P(4, 5, "2S", "2D"), "A5 and B1 do not touch"),  # no wrap-around from a row's end
        (P(2, 3, "2C", "9H"), "2C and 9H are not the same rank"),
        (P(3, 10, "9H", "9C"), "A4 and C1 do not touch"),
        (King(14, Card.parse("KC")), "no card is removed on its own in pysol, only in pairs"),
    ],
)
def test_illegal_move_is_named_with_its_number(bad: Move, problem: str) -> None:
    assert referee(PYSOL, PYSOL_DEAL, OPENING + [Consolidate()]).moves_played == 3
    verdict = referee(PYSOL, PYSOL_DEAL, OPENING + [bad])
    assert verdict == Verdict(False, 2, f"move 3 ({bad.text(5)}): {problem}")


def test_message_reads_like_the_move() -> None:
    verdict = referee(PYSOL, PYSOL_DEAL, [P(0, 1, "AC", "AS"), P(2, 7, "2C", "6H")])
    assert verdict.problem == "move 2 (A3 2C + B3 6H): B3 holds 6C, not 6H"
    off = referee(PYSOL, PYSOL_DEAL, [P(2, 25, "2C", "2H")])
    assert off.problem == "move 1 (A3 2C + cell 25 2H): cell 25 is off the 5x5 grid"
    negative = referee(PYSOL, PYSOL_DEAL, [P(-1, 2, "2C", "2H")])
    assert negative.problem == "move 1 (cell -1 2C + A3 2H): cell -1 is off the 5x5 grid"
    small = referee(SMALL, PYSOL_DEAL, [P(20, 21, "8H", "9S")])
    assert small.problem == "move 1 (cell 20 8H + cell 21 9S): cell 20 is off the 4x5 grid"


def test_moves_after_an_illegal_one_are_not_played() -> None:
    verdict = referee(PYSOL, PYSOL_DEAL, [P(0, 1, "AC", "AS"), P(2, 4, "2C", "2S"), P(23, 24, "QH", "QS")])
    assert verdict.moves_played == 1 and verdict.problem.startswith("move 2 ")


def test_consolidate_needs_a_gap() -> None:
    verdict = referee(PYSOL, PYSOL_DEAL, [Consolidate()])
    assert verdict == Verdict(False, 0, "move 1 (consolidate): the grid has no gap to close")


def test_same_suit_copy_in_two_decks_counts_as_the_card() -> None:
    deal = deal_starting("AC AC 2S 2S", decks=2)
    assert referee(TWO_DECKS, deal, [P(0, 1, "AC", "AC"), P(2, 3, "2S", "2S")]).moves_played == 2
    assert referee(TWO_DECKS, deal, [P(0, 1, "AC", "AH")]).problem.endswith("A2 holds AC, not AH")


# A: AC QC KC 5C 8C    B: 2C JC 3C 9C 4C
THIRTEENS_DEAL = deal_starting("AC QC KC 5C 8C  2C JC 3C 9C 4C")


@pytest.mark.parametrize(
    "bad, problem",
    [
        (P(7, 8, "3C", "9C"), "3C and 9C total 12, not 13"),
        (P(4, 9, "8C", "4C"), "8C and 4C total 12, not 13"),
        (P(2, 6, "KC", "JC"), "a king is removed on its own, not in a pair (KC + JC)"),
        (P(0, 1, "AC", "QC"), "A1 is empty, not AC"),
        (King(5, Card.parse("2C")), "only a king is removed on its own, not 2C"),
        (King(3, Card.parse("KC")), "A4 holds 5C, not KC"),
    ],
)
def test_thirteens_illegal_moves(bad: Move, problem: str) -> None:
    opening = [P(0, 1, "AC", "QC"), King(2, Card.parse("KC")), P(3, 4, "5C", "8C"), P(5, 6, "2C", "JC")]
    assert referee(THIRTEENS, THIRTEENS_DEAL, opening).moves_played == 4
    verdict = referee(THIRTEENS, THIRTEENS_DEAL, opening[:1] + [bad])
    assert verdict == Verdict(False, 1, f"move 2 ({bad.text(5)}): {problem}")


def test_king_before_its_removal_then_twice() -> None:
    moves = [King(2, Card.parse("KC")), King(2, Card.parse("KC"))]
    assert referee(THIRTEENS, THIRTEENS_DEAL, moves).problem == "move 2 (A3 KC): A3 is empty, not KC"


def test_strict_consolidates_only_without_pairs() -> None:
    verdict = referee(STRICT, PYSOL_DEAL, [P(0, 1, "AC", "AS"), Consolidate()])
    assert verdict.moves_played == 1
    assert "strict rules consolidate only once no pair remains" in verdict.problem
    # The same two moves are fine under the PySolFC rules.
    assert referee(PYSOL, PYSOL_DEAL, [P(0, 1, "AC", "AS"), Consolidate()]).moves_played == 2


def test_bad_deals_are_refused() -> None:
    with pytest.raises(DealError):
        referee(PYSOL, full_deck(1)[:51], [])
    with pytest.raises(DealError):
        referee(PYSOL, [Card.parse("AC")] + full_deck(1)[1:-1] + [Card.parse("AC")], [])
    with pytest.raises(DealError):
        referee(TWO_DECKS, full_deck(1), [])


def test_apply_refuses_an_illegal_move() -> None:
    with pytest.raises(IllegalMoveError):
        apply(PYSOL, deal_table(PYSOL, PYSOL_DEAL), P(2, 4, "2C", "2S"))


# --- consolidation as RULES.md says ----------------------------------------------------------

# Deal cards 6 (B2) and 12 (C3) are both sevens and touch diagonally.
SEVENS_DEAL = deal_starting("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 7S")
SEVENS = [P(6, 12, "7C", "7S"), Consolidate()]


def test_slide_consolidation_by_hand() -> None:
    table = play_out(PYSOL, SEVENS_DEAL, SEVENS)
    # The 23 cards left slide to cells 0..22, keeping reading order; cells 23, 24 get stock cards 25, 26.
    expected = [i for i in range(25) if i not in (6, 12)] + [25, 26]
    assert table.grid == tuple(SEVENS_DEAL[i] for i in expected)
    assert table.stock == tuple(SEVENS_DEAL[27:])
    assert table.removed == (Card.parse("7C"), Card.parse("7S"))


def test_column_consolidation_by_hand() -> None:
    table = play_out(WEDDINGS, SEVENS_DEAL, SEVENS)
    # Column 2 moves up one from B2 down, column 3 from C3 down; E2 then E3 get stock cards 25, 26.
    expected = [0, 1, 2, 3, 4, 5, 11, 7, 8, 9, 10, 16, 17, 13, 14, 15, 21, 22, 18, 19, 20, 25, 26, 23, 24]
    assert table.grid == tuple(SEVENS_DEAL[i] for i in expected)
    assert table.stock == tuple(SEVENS_DEAL[27:])


def test_column_consolidation_seen_through_the_referee() -> None:
    card_b2 = str(SEVENS_DEAL[11])  # came up from C2
    wrong = str(SEVENS_DEAL[7])  # what a slide would have put at B2
    verdict = referee(WEDDINGS, SEVENS_DEAL, SEVENS + [P(6, 7, wrong, str(SEVENS_DEAL[7]))])
    assert verdict.problem == f"move 3 (B2 {wrong} + B3 {SEVENS_DEAL[7]}): B2 holds {card_b2}, not {wrong}"


def grid_with_gaps(gaps: set[int]) -> tuple[Card | None, ...]:
    """A full 5x5 grid of different cards, with gaps at `gaps`."""
    cards = full_deck(1)
    return tuple(None if i in gaps else cards[i * 2 % 52] for i in range(25))


@pytest.mark.parametrize(
    "gaps, stock, slide_ok, columns_ok",
    [
        ({20, 21}, False, True, False),  # a gap with later cards, but nothing below it
        ({0}, False, True, True),  # B1 has a gap right above it
        ({24}, False, False, False),  # the last cell: nothing follows, nothing below
        ({24}, True, True, True),  # ... but a card can be dealt there
        (set(), True, False, False),  # no gap at all
        (set(range(25)), True, True, True),  # an empty grid takes cards from the stock
        (set(range(25)), False, False, False),  # the end of a won game
    ],
)
def test_when_consolidation_is_allowed(gaps: set[int], stock: bool, slide_ok: bool, columns_ok: bool) -> None:
    table = Table(grid_with_gaps(gaps), tuple(full_deck(1)[51:]) if stock else ())
    assert (problem_with(PYSOL, table, Consolidate()) == "") == slide_ok
    assert (problem_with(WEDDINGS, table, Consolidate()) == "") == columns_ok
    # The replay on ints (below) asks the same of the grid's codes followed by the stock's.
    codes = [None if card is None else card.code for card in table.grid + table.stock]
    assert _may_consolidate(PYSOL, codes) == slide_ok
    assert _may_consolidate(WEDDINGS, codes) == columns_ok


# --- legal wins --------------------------------------------------------------------------------


def front_units(rules: MonteCarloRules, deal: Sequence[Card]) -> list[Move]:
    """Moves that clear a slide-rules deal whose matching cards are next to each other in the deal.

    After each removal at the front of the grid a slide brings the next cards of the deal to
    A1 and A2, so the front is always the next pair (or king).
    """
    moves: list[Move] = []
    i = 0
    while i < len(deal):
        if rules.pairing == "thirteen" and deal[i].rank == 13:
            moves.append(King(0, deal[i]))
            i += 1
        else:
            moves.append(Pair((0, 1), (deal[i], deal[i + 1])))
            i += 2
        moves.append(Consolidate())
    return moves[:-1]  # nothing is left to consolidate after the last removal


@pytest.mark.parametrize("rules, deal", [(PYSOL, rank_sorted()), (SMALL, rank_sorted()), (TWO_DECKS, rank_sorted(2)), (THIRTEENS, thirteens_sorted())])
def test_front_pairs_win_under_slide_rules(rules: MonteCarloRules, deal: list[Card]) -> None:
    moves = front_units(rules, deal)
    assert referee(rules, deal, moves) == Verdict(True, len(moves), "")
    short = referee(rules, deal, moves[:-2])
    assert not short.won and short.moves_played == len(moves) - 2
    assert short.problem.startswith(f"all {len(moves) - 2} moves are legal but ")


def test_an_empty_grid_is_not_a_win_while_the_stock_holds_cards() -> None:
    # 5x4: A: AC AS AH AD 2C  B: 3C 3S 3H 3D 2S  C: 4C 4S 4H 4D 5C  D: 6C 6S 6H 6D 5S
    deal = deal_starting("AC AS AH AD 2C  3C 3S 3H 3D 2S  4C 4S 4H 4D 5C  6C 6S 6H 6D 5S")
    moves: list[Move] = []
    for top in (0, 10):
        for a in (top, top + 2, top + 5, top + 7):
            moves.append(Pair((a, a + 1), (deal[a], deal[a + 1])))
        moves.append(Pair((top + 4, top + 9), (deal[top + 4], deal[top + 9])))
    verdict = referee(SMALL, deal, moves)
    assert verdict == Verdict(False, 10, "all 10 moves are legal but 32 cards remain")
    assert replay_codes(SMALL, deal, [coded(m) for m in moves]) == (False, 10)  # type: ignore[misc]
    table = play_out(SMALL, deal, moves + [Consolidate()])
    assert table.grid == tuple(deal[20:40]) and table.stock == tuple(deal[40:])


def test_front_pairs_break_the_strict_rules() -> None:
    moves = front_units(STRICT, rank_sorted())
    verdict = referee(STRICT, rank_sorted(), moves)
    assert verdict.moves_played == 1 and verdict.problem.startswith("move 2 (consolidate): strict")


def weddings_column_deal() -> tuple[list[Card], list[Move]]:
    """A Weddings deal won by feeding column 1 from the stock, then clearing rows in pairs.

    Column 1 sees deal cards 0, 5, 10, 15, 20 and then the whole stock 25..51 (each
    consolidation moves the column up two and deals the next two stock cards to D1 and E1);
    those 32 cards are 16 vertical pairs. The other 20 cards never move and pair across rows.
    """
    pairs = [tuple(rank_sorted()[k : k + 2]) for k in range(0, 52, 2)]
    queue = [card for pair in pairs[:16] for card in pair]
    rows_pairs = pairs[16:]
    deal: list[Card | None] = [None] * 52
    for slot, card in zip([0, 5, 10, 15, 20] + list(range(25, 52)), queue):
        deal[slot] = card
    others = [card for pair in rows_pairs for card in pair]
    for slot, card in zip([c for c in range(25) if c % 5], others):
        deal[slot] = card
    moves: list[Move] = []
    for _ in range(15):
        moves += [Pair((0, 5), (queue[0], queue[1])), Consolidate()]
        queue = queue[2:]
    moves.append(Pair((0, 5), (queue[0], queue[1])))
    for row in range(5):
        for left in (1, 3):
            a = row * 5 + left
            moves.append(Pair((a, a + 1), (deal[a], deal[a + 1])))  # type: ignore[arg-type]
    return deal, moves  # type: ignore[return-value]


def test_weddings_hand_win() -> None:
    deal, moves = weddings_column_deal()
    assert referee(WEDDINGS, deal, moves) == Verdict(True, len(moves), "")
    # Slide rules shift the other columns, so the same moves fail there.
    assert not referee(PYSOL, deal, moves).won


@pytest.mark.parametrize("name", ["pysol", "strict", "5x4", "2decks", "thirteens"])
def test_greedy_model_wins_are_accepted(name: str) -> None:
    rules = RULE_SETS[name]
    deal = thirteens_sorted() if name == "thirteens" else rank_sorted(rules.decks)
    moves, left = greedy_play(rules, deal)
    assert left == 0
    assert referee(rules, deal, moves) == Verdict(True, len(moves), "")


# --- random legal play: the referee agrees with the model, cards are never lost -------------


def all_candidates(rules: MonteCarloRules, grid: Grid) -> list[Move]:
    """Every removal that names the right cards, legal or not, plus consolidate."""
    filled = [i for i, c in enumerate(grid) if c is not None]
    out: list[Move] = [Consolidate()]
    out += [Pair((a, b), (grid[a], grid[b])) for a in filled for b in filled if a < b]  # type: ignore[misc]
    out += [King(a, grid[a]) for a in filled]  # type: ignore[arg-type]
    return out


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(RULE_SETS)),
    seed=st.integers(0, 2**32 - 1),
    rng=st.randoms(use_true_random=False),
)
def test_random_legal_play(name: str, seed: int, rng: random.Random) -> None:
    rules = RULE_SETS[name]
    deal = full_deck(rules.decks)
    random.Random(seed).shuffle(deal)
    whole = Counter(deal)
    n = rules.rows * rules.cols
    grid: Grid = list(deal[:n])
    stock = list(deal[n:])
    table = deal_table(rules, deal)
    played: list[Move] = []
    while True:
        assert list(table.grid) == grid and list(table.stock) == stock
        assert Counter([c for c in table.grid if c is not None]) + Counter(table.stock) + Counter(table.removed) == whole
        legal = model_moves(rules, grid, stock)
        if rules.consolidation == "slide":
            # RULES.md: slides keep the deal's order, so what is left reads as a subsequence of it.
            left_in_order = iter(deal)
            assert all(card in left_in_order for card in [c for c in grid if c is not None] + stock)
        for move in all_candidates(rules, grid) if len(played) % 5 == 0 else legal:
            assert (problem_with(rules, table, move) == "") == (move in legal), move
        if not legal:
            break
        move = rng.choice(legal)
        played.append(move)
        grid, stock = model_apply(rules, grid, stock, move)
        table = apply(rules, table, move)
    left = sum(c is not None for c in grid) + len(stock)
    verdict = referee(rules, deal, played)
    assert verdict.moves_played == len(played)
    assert verdict.won == (left == 0)
    assert (verdict.problem == "") == (left == 0)


# --- the replay on small ints agrees with the reference, move for move --------------------


def slip(rules: MonteCarloRules, grid: Grid, rng: random.Random) -> Move:
    """A move that may well be illegal: a pair or king anywhere near the grid, naming the
    cards there or others, or a consolidation."""
    size = rules.rows * rules.cols
    cell = lambda: rng.randrange(-1, size + 1)  # noqa: E731
    card = lambda c: grid[c] if 0 <= c < size and grid[c] is not None and rng.random() < 0.7 else Card(rng.randint(1, 13), rng.randrange(4))  # noqa: E731
    kind = rng.random()
    if kind < 0.2:
        return Consolidate()
    if kind < 0.35:
        filled = [c for c, x in enumerate(grid) if x is not None]
        a = rng.choice(filled) if filled and rng.random() < 0.8 else cell()
        return King(a, card(a))
    a = cell()
    b = a + rng.choice([-rules.cols - 1, -rules.cols, -1, 0, 1, rules.cols, rules.cols + 1, 2]) if rng.random() < 0.8 else cell()
    return Pair((a, b), (card(a), card(b)))


def line_with_slips(rules: MonteCarloRules, deal: list[Card], rng: random.Random, slips: float) -> list[Move]:
    """Legal moves picked at random, each replaced at the rate `slips` by a move that may be
    illegal; after an illegal one, anything."""
    n = rules.rows * rules.cols
    grid: Grid = list(deal[:n])
    stock = list(deal[n:])
    line: list[Move] = []
    while True:
        legal = model_moves(rules, grid, stock)
        if rng.random() < slips or (not legal and rng.random() < 0.5):
            move = slip(rules, grid, rng)
            line.append(move)
            if move not in legal:
                return line + [slip(rules, grid, rng) for _ in range(rng.randrange(3))]
        elif not legal:
            return line
        else:
            move = rng.choice(legal)
            line.append(move)
        grid, stock = model_apply(rules, grid, stock, move)


@settings(max_examples=examples(300), deadline=None)
@given(
    name=st.sampled_from(sorted(RULE_SETS)),
    seed=st.integers(0, 2**32 - 1),
    slips=st.sampled_from([0.0, 0.02, 0.1, 0.5]),
    rng=st.randoms(use_true_random=False),
)
def test_the_replay_on_ints_agrees_with_the_reference(name: str, seed: int, slips: float, rng: random.Random) -> None:
    rules = RULE_SETS[name]
    deal = full_deck(rules.decks)
    random.Random(seed).shuffle(deal)
    line = line_with_slips(rules, deal, rng, slips)
    verdict = referee(rules, deal, line)
    codes = [coded(move) for move in line]
    assert None not in codes
    expected = (verdict.won, verdict.moves_played)
    assert replay_codes_python(rules, deal, codes) == expected  # type: ignore[arg-type]
    assert replay_codes_compiled(rules, deal, codes) in (expected, None)  # type: ignore[arg-type]


@settings(max_examples=examples(300), deadline=None)
@given(
    name=st.sampled_from(sorted(RULE_SETS)),
    seed=st.integers(0, 2**32 - 1),
    lead=st.integers(0, 60),
    junk=st.lists(st.lists(st.integers(-3, 120), max_size=5).map(tuple), max_size=8),
    rng=st.randoms(use_true_random=False),
)
def test_the_compiled_replay_agrees_with_the_python_replay_on_any_ints(
    name: str, seed: int, lead: int, junk: list[tuple[int, ...]], rng: random.Random
) -> None:
    """Any tuples of ints after a legal lead, cells and cards off the table included: the
    compiled referee and the Python one count the same legal moves and agree on the win."""
    if compiled_core() is None:
        pytest.skip("the compiled core was not built, or WEDLOCK_PURE is set")
    rules = RULE_SETS[name]
    deal = full_deck(rules.decks)
    random.Random(seed).shuffle(deal)
    line = line_with_slips(rules, deal, rng, 0.0)
    codes = [coded(move) for move in line[:lead]] + junk + [coded(move) for move in line[lead:]]
    assert replay_codes_compiled(rules, deal, codes) == replay_codes_python(rules, deal, codes)  # type: ignore[arg-type]


def test_the_compiled_replay_takes_only_tuples_of_ints() -> None:
    """What no coded move is (a float, a huge int, a string, a dict) is an illegal move,
    never an error; a deal with a card too many wins nothing."""
    if compiled_core() is None:
        pytest.skip("the compiled core was not built, or WEDLOCK_PURE is set")
    deal = rank_sorted()
    moves, _ = greedy_play(PYSOL, deal)
    codes: list[Any] = [coded(m) for m in moves]
    assert replay_codes_compiled(PYSOL, deal, codes) == (True, len(codes))
    for bad in [(0.0, 0, 1, 13), (2**70, 0, 1, 13), "ab", "", {}, None, (0, 0, 1, "x"), [0, 0, 1, 1, 0]]:
        line = codes[:3] + [bad] + codes[3:]
        assert replay_codes_compiled(PYSOL, deal, line) == replay_codes_python(PYSOL, deal, line) == (False, 3), bad
    # a float equal to the card it names is still no coded move
    first = codes[0]
    assert replay_codes_python(PYSOL, deal, [tuple(float(v) for v in first)]) == replay_codes_compiled(PYSOL, deal, [first[:1] + (float(first[1]),) + first[2:]]) == (False, 0)
    assert replay_codes_compiled(PYSOL, deal[:-1] + deal[:1], codes) == (False, 0)
    assert replay_codes_compiled(PYSOL, deal[:-1], codes) == (False, 0)


@pytest.mark.parametrize("rules, deal", [(PYSOL, rank_sorted()), (SMALL, rank_sorted()), (TWO_DECKS, rank_sorted(2)), (THIRTEENS, thirteens_sorted())])
def test_the_replay_on_ints_wins_what_the_reference_wins(rules: MonteCarloRules, deal: list[Card]) -> None:
    moves, left = greedy_play(rules, deal)
    codes = [coded(m) for m in moves]
    assert left == 0 and replay_codes(rules, deal, codes) == (True, len(moves))  # type: ignore[arg-type]
    # One card named with the wrong suit, and the line fails there.
    first = moves[0]
    assert isinstance(first, Pair)
    wrong = Pair(first.cells, (first.cards[0], Card(first.cards[1].rank, (first.cards[1].suit + 1) % 4)))
    assert replay_codes(rules, deal, [coded(wrong)] + codes[1:]) == (False, 0)  # type: ignore[arg-type]


def test_the_replay_on_ints_wins_nothing_on_a_bad_deal() -> None:
    deal = rank_sorted()
    moves, _ = greedy_play(PYSOL, deal)
    codes = [coded(m) for m in moves]
    assert replay_codes_python(PYSOL, deal[:-1] + deal[:1], codes) == (False, 0)  # type: ignore[arg-type]
    assert replay_codes(PYSOL, deal[:-1] + deal[:1], codes) == (False, 0)  # type: ignore[arg-type]
    with pytest.raises(DealError):
        referee(PYSOL, deal[:-1] + deal[:1], moves)


@given(st.integers(0, 3), st.sampled_from(sorted(RULE_SETS)), st.randoms(use_true_random=False))
def test_coded_moves_round_trip(kind: int, name: str, rng: random.Random) -> None:
    grid: Grid = [Card(rng.randint(1, 13), rng.randrange(4)) for _ in range(RULE_SETS[name].cells)]
    move = slip(RULE_SETS[name], grid, rng) if kind else Consolidate()
    assert move_of(coded(move)) == move  # type: ignore[arg-type]


def test_malformed_moves_have_no_code() -> None:
    ace = Card.parse("AC")
    for bad in (Pair((0, 1, 2), (ace, ace)), Pair((0, True), (ace, ace)), Pair((0, 1), (ace, "AS")), King("A1", ace), "consolidate", None):  # type: ignore[arg-type]
        assert coded(bad) is None


@pytest.mark.parametrize(
    "rules",
    [
        replace(PYSOL, rows=6, cols=9),  # 54 cells for 52 cards
        replace(PYSOL, rows=10, cols=9, decks=1, consolidation="columns"),
        replace(PYSOL, decks=0),
        replace(PYSOL, decks=-1),
    ],
)
def test_a_grid_the_deal_cannot_fill_is_refused_by_both_replays(rules: MonteCarloRules) -> None:
    deal = full_deck(1)
    for replay in (replay_codes_python, replay_codes_compiled):
        with pytest.raises(RulesError):
            replay(rules, deal, [(0, 0, 1, 1), ()])

"""An independent referee for Matrimony: replay moves on a deal and say whether they win.

Written straight from the rules (docs/RULES.md), sharing nothing with the solver's move
generator (`play.py` and the search spaces): it keeps whole cards everywhere, piles and foundations
as lists of cards, and works out from each foundation's suit, base and direction alone
which card it takes next. From the rule set it reads only that plain data and the two
switches: whether deals wait until no card can be played (Arnold) and whether foundation
cards may shift (PySolFC).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ...basics.cards import Card, card_codes
from ...basics.errors import DealError, IllegalMoveError
from .moves import DEAL, PLAY, REDEAL, SHIFT, Coded, Deal, Move, Play, Redeal, Shift, foundation_name
from .rules import Foundation, MatrimonyRules

PILE_COUNT = 16
FULL = 13  # cards a foundation holds when complete
REDEAL_ROUNDS = 16
JD, QD = Card(11, 3), Card(12, 3)


@dataclass(frozen=True)
class Table:
    """A position as the referee sees it."""

    piles: tuple[tuple[Card, ...], ...]  # each bottom card first
    foundations: tuple[tuple[Card, ...], ...]  # each in the order the cards were placed
    stock: tuple[Card, ...]  # stock[0] is the next card dealt
    redeals: int  # redeal steps made

    def cards_left(self) -> int:
        """Cards not yet on a foundation."""
        return sum(len(p) for p in self.piles) + len(self.stock)


@dataclass(frozen=True)
class Verdict:
    """The referee's answer for one replay."""

    won: bool  # every move legal AND all 104 cards on the foundations at the end
    moves_played: int  # how many moves were legal and applied
    problem: str  # "" for a legal win, else one sentence saying what went wrong


def referee(rules: MatrimonyRules, deal: Sequence[Card], moves: Sequence[Move]) -> Verdict:
    """Replay `moves` on `deal` (cards in dealing order) and judge them; a bad deal raises DealError."""
    table = deal_table(rules, deal)
    for number, move in enumerate(moves, start=1):
        problem = problem_with(rules, table, move)
        if problem:
            return Verdict(False, number - 1, f"move {number} ({_text(rules, move)}): {problem}")
        table = _apply(rules, table, move)
    left = table.cards_left()
    if left:
        played = {0: "no move was played", 1: "the only move is legal"}.get(len(moves), f"all {len(moves)} moves are legal")
        cards = "1 card is" if left == 1 else f"{left} cards are"
        return Verdict(False, len(moves), f"{played} but {cards} not on the foundations")
    return Verdict(True, len(moves), "")


def deal_table(rules: MatrimonyRules, deal: Sequence[Card]) -> Table:
    """The opening position: J♦ and Q♦ moved to the top start their foundations, then 16 piles."""
    if len(deal) != 104:
        raise DealError(f"Matrimony is played with 104 cards, but the deal has {len(deal)}")
    counts = Counter(deal)
    for card in sorted(set(counts) | {Card(r, s) for r in range(1, 14) for s in range(4)}):
        if counts[card] != 2:
            raise DealError(f"the deal holds {counts[card]} of {card}, not 2")
    order = list(deal)
    order.remove(JD)
    order.remove(QD)
    order = [JD, QD] + order
    foundations: list[tuple[Card, ...]] = []
    for f in rules.foundations:
        if f.filled:
            foundations.append((order[0] if f.base == JD.rank else order[1],))
        else:
            foundations.append(())
    piles = tuple((card,) for card in order[2 : 2 + PILE_COUNT])
    return Table(piles, tuple(foundations), tuple(order[2 + PILE_COUNT :]), 0)


def apply(rules: MatrimonyRules, table: Table, move: Move) -> Table:
    """The position after a legal `move`; an illegal one raises IllegalMoveError."""
    problem = problem_with(rules, table, move)
    if problem:
        raise IllegalMoveError(f"{_text(rules, move)}: {problem}")
    return _apply(rules, table, move)


def problem_with(rules: MatrimonyRules, table: Table, move: Move) -> str:
    """Why `move` is illegal in `table`, as a sentence fragment; "" when it is legal."""
    if isinstance(move, Play):
        return _play_problem(rules, table, move)
    if isinstance(move, Shift):
        return _shift_problem(rules, table, move)
    if isinstance(move, Deal):
        if not table.stock:
            return "the stock is empty"
        return _waiting_play(rules, table)
    if isinstance(move, Redeal):
        return _redeal_problem(rules, table, move)
    return "not a Matrimony move"


def next_card_taken(foundation: Foundation, cards: tuple[Card, ...]) -> Card | None:
    """The card a foundation holding `cards` takes next, or None when it is full."""
    if len(cards) >= FULL:
        return None
    if not cards:
        return Card(foundation.base, foundation.suit)
    rank = cards[-1].rank + foundation.step
    rank = 13 if rank == 0 else 1 if rank == 14 else rank
    return Card(rank, foundation.suit)


def possible_plays(rules: MatrimonyRules, table: Table) -> list[Play]:
    """Every pile top some foundation takes, in pile then foundation order."""
    out = []
    for p, pile in enumerate(table.piles):
        for f, held in enumerate(table.foundations):
            if pile and next_card_taken(rules.foundations[f], held) == pile[-1]:
                out.append(Play(p, pile[-1], f))
    return out


# --- legality ---------------------------------------------------------------------------


def _play_problem(rules: MatrimonyRules, table: Table, move: Play) -> str:
    if not _is_index(move.pile, PILE_COUNT):
        return f"there is no pile {_number(move.pile)}"
    pile = table.piles[move.pile]
    if not pile:
        return f"pile {move.pile + 1} is empty"
    if pile[-1] != move.card:
        return f"the top card of pile {move.pile + 1} is {pile[-1]}, not {move.card}"
    return _takes_problem(rules, table, move.to, move.card)


def _shift_problem(rules: MatrimonyRules, table: Table, move: Shift) -> str:
    if not rules.shifts:
        return f"foundation cards never move again under {rules.name} rules"
    if not _is_index(move.source, len(rules.foundations)):
        return f"there is no foundation F{_number(move.source)}"
    held = table.foundations[move.source]
    if not held:
        return f"{foundation_name(rules, move.source)} is empty"
    if held[-1] != move.card:
        return f"the top card of {foundation_name(rules, move.source)} is {held[-1]}, not {move.card}"
    if move.to == move.source:
        return "a card cannot shift onto its own foundation"
    return _takes_problem(rules, table, move.to, move.card)


def _takes_problem(rules: MatrimonyRules, table: Table, f: int, card: Card) -> str:
    """Why foundation f does not take `card` now, or ""."""
    if not _is_index(f, len(rules.foundations)):
        return f"there is no foundation F{_number(f)}"
    wanted = next_card_taken(rules.foundations[f], table.foundations[f])
    if wanted is None:
        return f"{foundation_name(rules, f)} is complete"
    if wanted != card:
        return f"{foundation_name(rules, f)} takes {wanted} next, not {card}"
    return ""


def _waiting_play(rules: MatrimonyRules, table: Table) -> str:
    """Under Arnold's rules, the play that must come before any deal or redeal; else ""."""
    if not rules.forced_steps:
        return ""
    plays = possible_plays(rules, table)
    if plays:
        return f"a card can still be played ({plays[0].text(rules)}); deal only when none can"
    return ""


def _redeal_problem(rules: MatrimonyRules, table: Table, move: Redeal) -> str:
    if table.stock:
        return f"the stock still holds {len(table.stock)} cards"
    if table.redeals >= REDEAL_ROUNDS:
        return f"all {REDEAL_ROUNDS} redeals have been made"
    turn = PILE_COUNT - table.redeals  # 16, 15, ..., 1
    if move.pile != turn - 1:
        return f"it is pile {turn}'s turn to be redealt, not pile {_number(move.pile)}'s"
    return _waiting_play(rules, table)


# --- effects ----------------------------------------------------------------------------


def _apply(rules: MatrimonyRules, table: Table, move: Move) -> Table:
    piles = [list(p) for p in table.piles]
    foundations = [list(f) for f in table.foundations]
    stock, redeals = list(table.stock), table.redeals
    if isinstance(move, Play):
        foundations[move.to].append(piles[move.pile].pop())
    elif isinstance(move, Shift):
        foundations[move.to].append(foundations[move.source].pop())
    elif isinstance(move, Deal):
        for pile in piles:
            if stock:
                pile.append(stock.pop(0))
    else:
        picked, piles[move.pile] = piles[move.pile], []
        for k, card in enumerate(picked):  # bottom card first, back onto the same pile
            piles[(move.pile + k) % PILE_COUNT].append(card)
        redeals += 1
    return Table(tuple(map(tuple, piles)), tuple(map(tuple, foundations)), tuple(stock), redeals)


# --- the same rules on small ints -------------------------------------------------------
#
# The solver's wins are replayed here, as coded moves (`moves.Coded`): the piles lists of
# card codes, each foundation the number of cards it holds (what it holds is the first of
# the cards it takes, in order), the stock a list with the index of its next card; nothing
# is built per move. It says only whether a line wins and how many of its moves are legal;
# `referee` above stays the reference, and gives the words for a line that does not win.
# tests/games/test_matrimony_verify.py checks that the two agree on random lines, legal or not,
# and tests/games/test_referees.py on the solver's lines, whole and damaged.


def replay_codes(rules: MatrimonyRules, deal: Sequence[Card], moves: Sequence[Coded]) -> tuple[bool, int]:
    """Replay coded moves on `deal`: whether they win, and how many are legal before the
    first that is not (all of them when none is). A deal that is not two whole packs wins nothing."""
    order = card_codes(deal)
    if sorted(order) != TWO_PACKS:
        return False, 0
    order.remove(JD.code)
    order.remove(QD.code)
    takes = [_takes(f) for f in rules.foundations]  # each foundation's 13 cards, in the order it takes them
    held = [0] * len(takes)
    for f, foundation in enumerate(rules.foundations):
        if foundation.filled:
            if Card(foundation.base, foundation.suit) not in (JD, QD):
                return False, 0  # a start the reference deals otherwise
            held[f] = 1
    piles = [[card] for card in order[:PILE_COUNT]]
    stock, dealt, redeals = order[PILE_COUNT:], 0, 0  # stock[dealt] is the next card dealt
    foundations = range(len(takes))
    for played, move in enumerate(moves):
        kind = move[0] if move else None
        if kind == PLAY and len(move) == 4:
            _, p, card, f = move
            if not (0 <= p < PILE_COUNT and piles[p] and piles[p][-1] == card and f in foundations and held[f] < FULL and takes[f][held[f]] == card):
                return False, played
            piles[p].pop()
            held[f] += 1
        elif kind == SHIFT and len(move) == 4:
            _, f, g, card = move
            if not (rules.shifts and f in foundations and g in foundations and f != g and held[f] and takes[f][held[f] - 1] == card):
                return False, played
            if not (held[g] < FULL and takes[g][held[g]] == card):
                return False, played
            held[f] -= 1
            held[g] += 1
        elif kind == DEAL and len(move) == 1:
            if dealt == len(stock) or (rules.forced_steps and _play_waits(piles, takes, held)):
                return False, played
            for pile in piles:
                if dealt < len(stock):
                    pile.append(stock[dealt])
                    dealt += 1
        elif kind == REDEAL and len(move) == 2:
            p = move[1]
            if dealt < len(stock) or redeals >= REDEAL_ROUNDS or p != PILE_COUNT - 1 - redeals:
                return False, played
            if rules.forced_steps and _play_waits(piles, takes, held):
                return False, played
            picked, piles[p] = piles[p], []
            for k, card in enumerate(picked):  # bottom card first, back onto the same pile
                piles[(p + k) % PILE_COUNT].append(card)
            redeals += 1
        else:
            return False, played
    return dealt == len(stock) and not any(piles), len(moves)


def _play_waits(piles: list[list[int]], takes: list[list[int]], held: list[int]) -> bool:
    """Whether some pile's top card is the next card of a foundation (`possible_plays`)."""
    wanted = {codes[n] for codes, n in zip(takes, held) if n < FULL}
    return any(pile and pile[-1] in wanted for pile in piles)


@cache
def _takes(foundation: Foundation) -> list[int]:
    """The codes of the cards a foundation takes, in order (`next_card_taken`)."""
    cards: tuple[Card, ...] = ()
    while (card := next_card_taken(foundation, cards)) is not None:
        cards += (card,)
    return [card.code for card in cards]


TWO_PACKS = sorted(list(range(52)) * 2)


# --- helpers ----------------------------------------------------------------------------


def _is_index(n: object, size: int) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n < size


def _number(n: object) -> str:
    """A 0-based index as the player's 1-based number."""
    return str(n + 1) if isinstance(n, int) else repr(n)


def _text(rules: MatrimonyRules, move: Move) -> str:
    try:
        return move.text(rules)
    except (AttributeError, TypeError):
        return repr(move)

"""Matrimony positions in a game under way: as a player sees them, as text, and as the
solver searches them.

A position as a player sees it is the referee's `verify.Table`. Its text form is the board
`wedlock deal` draws, with the stock given by its count only, as PySolFC shows it:

      F1 J♣ down: 9C  F2 J♠ down: --  F3 J♥ down: JH  F4 J♦ down: TD
      F5 Q♣ up: KC    F6 Q♠ up: --    F7 Q♥ up: --    F8 Q♦ up: QD
       1: 3D JS
       ...
      16: 4C 8H
      stock (54)

A foundation holds its cards in the order it takes them, so its top card says which they
are. Once the stock is empty, the stock line says whose redeal turn is next:
`stock: empty; next redeal: pile 12 (4 of 16 made)`, or `stock: empty; all 16 redeals made`.
The stock's cards follow from the deal (they are its tail, in dealing order).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ...basics.cards import Card, CardError, full_deck
from ...basics.errors import PositionError
from . import board
from .deal import LAYOUT
from .moves import Shift
from .play import Position, Table
from .rules import DECK, FOUNDATION_CARDS, PILES, ROUNDS, MatrimonyRules, card_of, code_of
from .verify import Table as Seen

_FOUNDATION = re.compile(r"F([0-9]++)[^:F]*+:\s*+(\S++)")
_PILE = re.compile(r"\s*+([0-9]++)\s*+:(.*)")
_STOCK = re.compile(r"\s*+stock\b(.*)", re.I)
_COUNT = re.compile(r"\s*+\(\s*+([0-9,]++)\s*+\)\s*+(?::\s*+(.*))?$")
_NEXT = re.compile(r"next redeal:\s*+pile\s++([0-9]++)\s*+\(\s*+([0-9]++)\s++of\s++16\s++made\s*+\)", re.I)
_ALL = re.compile(r"all\s++16\s++redeals\s++made", re.I)


def play_position(table: Table, seen: Seen) -> Position:
    """The solver's position (card codes, foundation counts) of what a player sees."""
    piles = tuple(bytes(code_of(c) for c in pile) for pile in seen.piles)
    return Position(piles, tuple(len(f) for f in seen.foundations), DECK - len(seen.stock), seen.redeals)


def position_text(rules: MatrimonyRules, seen: Seen) -> str:
    """The board as a player sees it: foundations, piles, and the stock's count only."""
    lines = board.draw(rules, seen.piles, seen.foundations, seen.stock, seen.redeals).splitlines()
    if seen.stock:
        lines[-1] = f"  stock ({len(seen.stock)})"
    return "\n".join(lines)


def parse_position(rules: MatrimonyRules, deal: Sequence[Card], text: str) -> Seen:
    """A position typed from the screen (see the module docstring) on this deal (as the
    hook leaves it: J♦ and Q♦ first), checked: a PositionError says why it cannot arise."""
    tops: dict[int, Card | None] = {}
    piles: dict[int, tuple[Card, ...]] = {}
    stock: int | None = None
    redeals = 0
    for line_no, line in enumerate(text.splitlines(), 1):
        body = line.strip()
        if not body or body.startswith("#") or body.lower().startswith("piles,"):
            continue
        if match := _STOCK.match(body):
            stock, redeals = _stock(match.group(1), line_no)
        elif found := _FOUNDATION.findall(body):
            for number, card in found:
                f = _index(number, len(rules.foundations), "foundation F", line_no)
                tops[f] = _card(card, line_no, gap="--")
        elif match := _PILE.match(body):
            p = _index(match.group(1), PILES, "pile ", line_no)
            if p in piles:
                raise PositionError(f"line {line_no}: pile {p + 1} a second time")
            piles[p] = tuple(c for c in (_card(t, line_no) for t in match.group(2).split() if t != "--") if c is not None)
        else:
            raise PositionError(f"line {line_no}: expected a foundation (F3 ...: 7H), a pile (3: 7H 2C) or the stock")
    for what, have, size in (("foundation F", tops, len(rules.foundations)), ("pile ", piles, PILES)):
        missing = [str(i + 1) for i in range(size) if i not in have]
        if missing:
            raise PositionError(f"no {what}{', '.join(missing)}: give each, -- when empty")
    if stock is None:
        raise PositionError("no stock line: give its count, as stock (54), or stock: empty; next redeal: pile 16 (0 of 16 made)")
    foundations = tuple(_foundation(rules, f, tops[f]) for f in range(len(rules.foundations)))
    for f, base in enumerate(rules.foundations):
        other = [g for g, twin in enumerate(rules.foundations) if g != f and twin.suit == base.suit]
        if base.filled and not foundations[f] and not any(len(foundations[g]) == FOUNDATION_CARDS for g in other):
            # a shift took its base to the suit's other foundation, which then holds all 13
            raise PositionError(f"F{f + 1} ({base.label}) starts filled: it is empty only once its base has gone to a full foundation")
    return _consistent(deal, tuple(piles[p] for p in range(PILES)), foundations, stock, redeals)


def _stock(rest: str, line_no: int) -> tuple[int, int]:
    """(cards in the stock, redeals made) from what follows `stock`."""
    if match := _COUNT.match(rest):
        digits = match.group(1).replace(",", "")
        if not digits:
            raise PositionError(f"line {line_no}: give the stock's count, as stock (54)")
        if len(digits) > 3:
            raise PositionError(f"line {line_no}: a stock of {digits[:12]}{'...' if len(digits) > 12 else ''} cards cannot arise")
        return int(digits), 0
    if match := _NEXT.search(rest):
        if max(len(g) for g in match.groups()) > 3:
            raise PositionError(f"line {line_no}: piles are numbered 1 to {PILES}, and {ROUNDS} redeals are made at most")
        pile, made = int(match.group(1)), int(match.group(2))
        if pile != ROUNDS - made:
            raise PositionError(f"line {line_no}: after {made} redeals it is pile {ROUNDS - made}'s turn, not pile {pile}'s")
        return 0, made
    if _ALL.search(rest):
        return 0, ROUNDS
    raise PositionError(f"line {line_no}: give the stock as stock (54), or stock: empty; next redeal: pile 16 (0 of 16 made)")


def _index(number: str, size: int, what: str, line_no: int) -> int:
    n = int(number) if len(number) <= 6 else 0
    if not 1 <= n <= size:
        raise PositionError(f"line {line_no}: no {what}{number[:12]}: they are numbered 1 to {size}")
    return n - 1


def _card(token: str, line_no: int, gap: str | None = None) -> Card | None:
    if gap is not None and token == gap:
        return None
    try:
        return Card.parse(token)
    except CardError:
        raise PositionError(f"line {line_no}: {token!r} is not a card") from None


def _foundation(rules: MatrimonyRules, f: int, top: Card | None) -> tuple[Card, ...]:
    """A foundation's cards from its top card: the ones it takes up to that one."""
    found = rules.foundations[f]
    codes = rules.takes[f]
    if top is None:
        if found.filled and not rules.shifts:
            raise PositionError(f"F{f + 1} ({found.label}) starts filled: it is never empty")
        return ()
    if code_of(top) not in codes:
        raise PositionError(f"F{f + 1} ({found.label}) takes no {top}")
    count = codes.index(code_of(top)) + 1
    return tuple(Card(code % 13 + 1, code // 13) for code in codes[:count])


def stock_counts() -> list[int]:
    """The stock's possible counts: 86 before the first deal, 16 fewer after each."""
    counts, n = [], DECK - LAYOUT
    while n > 0:
        counts.append(n)
        n -= PILES
    return [*counts, 0]


def _consistent(deal: Sequence[Card], piles: tuple[tuple[Card, ...], ...], foundations: tuple[tuple[Card, ...], ...], stock: int, redeals: int) -> Seen:
    if stock not in stock_counts():
        raise PositionError(f"a stock of {stock} cards cannot arise: it holds {', '.join(map(str, stock_counts()))}")
    tail = tuple(deal[DECK - stock :])
    held = Counter(c for pile in piles for c in pile) + Counter(c for f in foundations for c in f) + Counter(tail)
    for card in sorted(set(held) | set(deal)):
        if held[card] != 2:
            where = "too many" if held[card] > 2 else "too few"
            raise PositionError(f"the position holds {held[card]} of {card} ({where}: the two decks hold 2)")
    if redeals == 0:  # no pile picked up yet: each holds some of what the deal gave it, in order
        dealt = (DECK - LAYOUT - stock + PILES - 1) // PILES + 1  # cards each pile has been dealt, at most
        for p, pile in enumerate(piles):
            given = [deal[LAYOUT - PILES + p + PILES * k] for k in range(dealt) if LAYOUT - PILES + p + PILES * k < DECK - stock]
            if not _in_order(pile, given):
                raise PositionError(f"pile {p + 1} holds {' '.join(map(str, pile))}, which the deal never gave it in that order")
    return Seen(piles, foundations, tail, redeals)


def _in_order(pile: Sequence[Card], given: Sequence[Card]) -> bool:
    """Whether the pile's cards are some of those dealt to it, in the order dealt."""
    rest = iter(given)
    return all(any(card == g for g in rest) for card in pile)


def settling_shifts(rules: MatrimonyRules, pos: Position) -> dict[int, tuple[Shift, ...]]:
    """PySolFC's rules: for each suit holding 13 cards with some on its Jack-down
    foundation, the shifts that move them, top card first, onto its Queen-up one: the
    arrangement `player.PlayerView` keeps such a suit in."""
    out: dict[int, tuple[Shift, ...]] = {}
    if not rules.shifts:
        return out
    counts = pos.foundations
    for suit, (d, u) in enumerate(zip(rules.jack_down, rules.queen_up)):
        if counts[d] and counts[d] + counts[u] == FOUNDATION_CARDS:
            out[suit] = tuple(Shift(d, u, card_of(rules.takes[d][n])) for n in range(counts[d] - 1, -1, -1))
    return out


@dataclass(frozen=True)
class Visible:
    """What a PySolFC player sees of a Matrimony position: the piles, the foundations, how
    many cards the stock holds (not their order) and the redeals made."""

    piles: tuple[tuple[Card, ...], ...]
    foundations: tuple[tuple[Card, ...], ...]
    stock: int
    redeals: int


def visible(seen: Seen) -> Visible:
    return Visible(seen.piles, seen.foundations, len(seen.stock), seen.redeals)


def unseen(view: Visible) -> list[Card]:
    """The cards in the stock, in no particular order (sorted)."""
    shown = Counter(c for pile in view.piles for c in pile) + Counter(c for f in view.foundations for c in f)
    return sorted((Counter(full_deck(2)) - shown).elements())


def imagined(view: Visible, stock: Sequence[Card]) -> tuple[list[Card], Seen]:
    """A deal and a position that look like `view` with this stock: the foundations' and
    piles' cards, then the stock (which copy of a card lies where never matters)."""
    if len(stock) != view.stock:
        raise ValueError(f"the stock holds {view.stock} cards, not {len(stock)}")
    cards = [c for f in view.foundations for c in f] + [c for pile in view.piles for c in pile] + list(stock)
    return cards, Seen(view.piles, view.foundations, tuple(stock), view.redeals)


def same_position(a: Seen, b: Seen) -> bool:
    return (a.piles, a.foundations, a.stock, a.redeals) == (b.piles, b.foundations, b.stock, b.redeals)


"""Drawing a Matrimony position as text: foundations, the 16 piles, the stock.

    F1 Q♦ up: KD      F2 J♦ down: JD    F3 J♥ down: --    F4 J♥ down: --
    F5 10♠ down: --   F6 10♠ down: --   F7 10♣ down: TC   F8 10♣ down: --
    piles, bottom card first (1-8 the top row, 9-16 the bottom row):
     1: 3D JS
     ...
    16: 4C 8H
    stock (70): QC 4H ...
"""

from __future__ import annotations

from collections.abc import Sequence

from ...basics.cards import Card
from .rules import MatrimonyRules

ROUNDS = 16


def draw(
    rules: MatrimonyRules,
    piles: Sequence[Sequence[Card]],
    foundations: Sequence[Sequence[Card]],
    stock: Sequence[Card],
    redeals: int,
) -> str:
    """Each foundation with its top card, each pile bottom card first, then the stock."""
    names = [
        f"F{f + 1} {found.label}: {cards[-1] if cards else '--'}"
        for f, (found, cards) in enumerate(zip(rules.foundations, foundations))
    ]
    width = max(len(n) for n in names) + 2
    lines = ["  " + "".join(n.ljust(width) for n in names[i : i + 4]).rstrip() for i in (0, 4)]
    lines.append("  piles, bottom card first (1-8 the top row, 9-16 the bottom row):")
    for p, pile in enumerate(piles):
        lines.append(f"  {p + 1:>2}: " + (" ".join(str(c) for c in pile) if pile else "--"))
    if stock:
        lines.append(f"  stock ({len(stock)}): " + " ".join(str(c) for c in stock))
    elif redeals < ROUNDS:
        lines.append(f"  stock: empty; next redeal: pile {ROUNDS - redeals} ({redeals} of {ROUNDS} made)")
    else:
        lines.append(f"  stock: empty; all {ROUNDS} redeals made")
    return "\n".join(lines)

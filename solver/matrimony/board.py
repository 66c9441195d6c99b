"""Drawing a Matrimony position as text: foundations, the 16 piles, the stock."""

from __future__ import annotations

from typing import Sequence

from ..cards import Card
from .rules import MatrimonyRules


def draw(
    rules: MatrimonyRules,
    piles: Sequence[Sequence[Card]],
    foundations: Sequence[Sequence[Card]],
    stock: Sequence[Card],
    redeals: int,
) -> str:
    """Foundations with their top cards, then each pile bottom card first (top card last)."""
    names = [f"F{f + 1} {found.label}: {str(cards[-1]) if cards else '--'}" for f, (found, cards) in enumerate(zip(rules.foundations, foundations))]
    width = max(len(n) for n in names) + 2
    lines = ["  " + "".join(n.ljust(width) for n in names[:4]).rstrip(), "  " + "".join(n.ljust(width) for n in names[4:]).rstrip()]
    for p, pile in enumerate(piles):
        row = "top" if p < 8 else "bottom"
        lines.append(f"  pile {p + 1:>2} ({row}): " + " ".join(str(c) for c in pile) if pile else f"  pile {p + 1:>2} ({row}): --")
    if stock:
        lines.append(f"  stock ({len(stock)}): " + " ".join(str(c) for c in stock))
    elif redeals < 16:
        lines.append(f"  stock: empty; next redeal: pile {16 - redeals} ({redeals} of 16 made)")
    else:
        lines.append("  stock: empty; all 16 redeals made")
    return "\n".join(lines)

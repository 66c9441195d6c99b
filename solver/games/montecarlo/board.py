"""Drawing a Monte Carlo position as text."""

from __future__ import annotations

from collections.abc import Sequence

from ...basics.cards import Card
from .moves import ROW_LETTERS


def draw(rows: int, cols: int, grid: Sequence[Card | None], stock: Sequence[Card]) -> str:
    """The grid with row letters and column numbers, then the stock (next card first)."""
    lines = ["     " + "".join(f"{c + 1:<4}" for c in range(cols)).rstrip()]
    for r in range(rows):
        cells = grid[r * cols : (r + 1) * cols]
        lines.append(f"  {ROW_LETTERS[r]}  " + "".join(f"{str(c) if c else '--':<4}" for c in cells).rstrip())
    if stock:
        lines.append(f"  stock ({len(stock)}): " + " ".join(str(c) for c in stock))
    else:
        lines.append("  stock: empty")
    return "\n".join(lines)

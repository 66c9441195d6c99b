"""Numbers and counts as the output writes them: `1 state`, `20,000 states`."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` with thousands separators and the noun in the number it needs.

    >>> counted(1, "state"), counted(20000, "state"), counted(2, "deal", "deals")
    ('1 state', '20,000 states', '2 deals')
    """
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"

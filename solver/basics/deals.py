"""Where deals come from: a PySolFC game number, or a file of cards in dealing order.

Deal file format: the cards in dealing order (the first card dealt first), written like
`QD`, `TS`, `10s`, `ah` or `Q♦`, separated by spaces, commas or new lines. A `#` starts a
comment that runs to the end of its line. What `deal --json` prints is read as well.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from .cards import BY_CODE, Card
from .errors import CardError, DealError
from .input_files import UNREADABLE, read_text, why_unreadable
from .numbering import GameNumber, shuffled_ids
from .printable import printable


def numbered_deal(number: GameNumber, decks: int) -> list[Card]:
    """The cards of PySolFC game `number` in dealing order."""
    ids = shuffled_ids(number, decks)
    return [BY_CODE[i] for i in ids] if decks == 1 else [BY_CODE[i % 52] for i in ids]


def parse_deal_text(text: str, decks: int) -> list[Card]:
    """Read and check a deal file's text: exactly `decks` packs, in dealing order."""
    cards = []
    for line_no, line in enumerate(text.splitlines(), 1):
        for token in line.split("#", 1)[0].replace(",", " ").split():
            try:
                cards.append(Card.parse(token))
            except CardError:
                raise DealError(f"line {line_no}: unknown card {token!r}") from None
    return checked_cards(cards, decks, "the file has")


def checked_cards(cards: list[Card], decks: int, has: str = "got") -> list[Card]:
    """The cards, when they are exactly `decks` packs; else a DealError saying what is wrong."""
    counts = Counter(cards)
    extra = sorted(c for c, n in counts.items() if n > decks)
    if extra:
        times = "once" if decks == 1 else f"{decks} times"
        raise DealError(f"{extra[0]} appears {counts[extra[0]]} times; the deck holds it {times}")
    if len(cards) != 52 * decks:
        raise DealError(f"a deal needs {52 * decks} cards, {has} {len(cards)}")
    return cards


def read_deal_file(path: str | Path, decks: int) -> list[Card]:
    """Read a deal file (see the module docstring for its format), or what `deal --json`
    prints; a DealError names the file."""
    try:
        text = read_text(path)
    except UNREADABLE as err:
        raise DealError(f"cannot read deal file '{printable(str(path))}': {why_unreadable(err)}") from None
    try:
        if text.lstrip().startswith("{"):
            return checked_cards(_json_cards(text), decks)
        return parse_deal_text(text, decks)
    except DealError as err:
        raise DealError(f"{printable(str(path))}: {err}") from None


def _json_cards(text: str) -> list[Card]:
    """The cards of a deal as `deal --json` prints it: an object with a "cards" list."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise DealError("not valid JSON (a deal file is cards in dealing order, or what deal --json prints)") from None
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise DealError('a JSON deal holds its cards as a "cards" list, like deal --json prints it')
    try:
        return [Card.parse(c) for c in cards]
    except CardError as err:
        raise DealError(str(err)) from None


def format_deal_text(cards: list[Card], per_line: int = 13) -> str:
    """A deal in the file format, `per_line` cards a line."""
    lines = [" ".join(str(c) for c in cards[i : i + per_line]) for i in range(0, len(cards), per_line)]
    return "\n".join(lines) + "\n"

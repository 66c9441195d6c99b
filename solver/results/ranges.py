"""RANGE arguments: which game numbers a batch solves.

A range is `A-B` (inclusive; both plain numbers or both `msN`), a list `A,B,C` whose items
may be ranges (`1-3,7`), or `@FILE`, a file with one of those a line (`#` starts a
comment). Numbers come out in the form batch writes them (`ms7` is game 7), in order,
each once.
"""

from __future__ import annotations

from ..basics.errors import WedlockError
from ..basics.input_files import UNREADABLE, read_text, why_unreadable
from ..basics.numbering import GameNumber
from ..basics.printable import printable


class RangeError(WedlockError):
    """A RANGE argument could not be read."""


MOST_DEALS = 10_000_000  # a batch holds its numbers and its file's records in memory


def parse_range(text: str) -> list[str]:
    """Game numbers from `A-B` (inclusive), `A,B,C`, or `@FILE` (a number, range or list a
    line), in order, each once."""
    numbers = _numbers_of(text.strip())
    if not numbers:
        raise RangeError(f"{text.strip()!r} holds no game number")
    return numbers


def _numbers_of(text: str) -> list[str]:
    if text.startswith("@"):
        path = printable(text[1:])
        try:
            lines = read_text(text[1:]).splitlines()
        except UNREADABLE as err:
            raise RangeError(f"cannot read '{path}': {why_unreadable(err)}") from None
        numbers = []
        for n, line in enumerate(lines, 1):
            item = line.split("#", 1)[0].strip()
            if item.startswith("@"):
                raise RangeError(f"{path} line {n}: a file of numbers cannot name another")
            if item:
                try:
                    numbers += _numbers_of(item)
                except WedlockError as err:
                    raise RangeError(f"{path} line {n}: {err}") from None
            if len(numbers) > MOST_DEALS:
                raise RangeError(f"{path}: more than {MOST_DEALS:,} deals in one run; split it (--resume continues a file)")
        return _unique(numbers)
    if "," in text:  # a list, whose items may be ranges: 1-3,7
        numbers = []
        for item in text.split(","):
            numbers += _numbers_of(item.strip()) if "-" in item.strip()[1:] else [_number(item, "the list")]
            if len(numbers) > MOST_DEALS:
                raise RangeError(f"more than {MOST_DEALS:,} deals in one run; split it (--resume continues a file)")
        return _unique(numbers)
    return _span(text)


def _span(text: str) -> list[str]:
    """The numbers of `A-B`, or of a single number."""
    first, dash, last = text.partition("-")
    if not dash:
        return [_number(text, "the range")]
    forms = {part.strip().lower().startswith("ms") for part in (first, last)}
    if "-" in last or len(forms) != 1:
        raise RangeError(f"bad range {text!r}: write A-B (both plain numbers or both msN)")
    a, b = (GameNumber.parse(part) for part in (first, last))
    if a.seed > b.seed:
        raise RangeError(f"bad range {text!r}: write A-B with A <= B")
    if b.seed - a.seed >= MOST_DEALS:
        raise RangeError(f"bad range {text!r}: more than {MOST_DEALS:,} deals in one run; split it (--resume continues a file)")
    if forms == {True}:
        return [str(GameNumber(n, True)) for n in range(a.seed, b.seed + 1)]
    return [str(n) for n in range(a.seed, b.seed + 1)]


def _number(text: str, where: str) -> str:
    try:
        return str(GameNumber.parse(text))
    except WedlockError as err:
        raise RangeError(f"{where}: {err}") from None


def _unique(numbers: list[str]) -> list[str]:
    return list(dict.fromkeys(numbers))

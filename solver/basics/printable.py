"""Text that came from a file or a user, as the output shows it: every character a
terminal would act on rather than show is written out visibly."""

from __future__ import annotations


def printable(text: str) -> str:
    """`text` with each character that is not printable (escape codes, new lines, tabs,
    other control and format characters, bytes that were not UTF-8) written as a Python
    string literal writes it: `\\x1b`, `\\n`, `\\u202e`, `\\udcff`.

    >>> printable("deal\\x1b[2J.txt"), printable("two\\nlines"), printable("Q♦ ok")
    ('deal\\\\x1b[2J.txt', 'two\\\\nlines', 'Q♦ ok')
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def shortened(text: str, most: int = 80) -> str:
    """`text` cut to `most` characters at the most, keeping its start and end either side of
    an ellipsis (a game number of a thousand digits, in a repr).

    >>> shortened("game " + "1" * 100, 20)
    'game 11111…111111111'
    """
    if len(text) <= most:
        return text
    tail = (most - 1) // 2
    return text[: most - 1 - tail] + "…" + text[len(text) - tail :]

"""Matrimony moves as values, with a text form a PySolFC player can follow and a JSON form.

Inside the program piles are numbered 0..15 and foundations 0..7; a player (and the JSON)
counts from 1: piles 1..16 (1-8 the top row, left to right, 9-16 the bottom row) and
foundations F1..F8 in the rule set's order (see rules.py). Text forms:

    pile 3: 7H to F3 (J♥ down)            play the top card of pile 3 to foundation 3
    shift JD from F4 (J♦ down) to F8 (Q♦ up)   move a foundation's top card (PySolFC rules)
    deal                                  one card from the stock onto each pile
    redeal pile 16                        pick up pile 16 and deal it out again

The foundation's name in brackets is for the reader; when it is given it must be right.
It may also be written with a suit letter (`JH down`, `10S down`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...basics.cards import BY_CODE, Card
from ...basics.errors import CardError, MoveSyntaxError
from .rules import PILES, SUIT_LETTERS, MatrimonyRules


@dataclass(frozen=True)
class Play:
    """Play the top card of a pile to a foundation."""

    pile: int  # 0..15
    card: Card
    to: int  # foundation 0..7

    def text(self, rules: MatrimonyRules) -> str:
        return f"pile {self.pile + 1}: {self.card} to {foundation_name(rules, self.to)}"

    def to_json(self) -> dict[str, Any]:
        return {"move": "play", "pile": self.pile + 1, "card": str(self.card), "to": self.to + 1}


@dataclass(frozen=True)
class Shift:
    """Move a foundation's top card onto another foundation of its suit (PySolFC rules)."""

    source: int  # foundation 0..7
    to: int
    card: Card

    def text(self, rules: MatrimonyRules) -> str:
        return f"shift {self.card} from {foundation_name(rules, self.source)} to {foundation_name(rules, self.to)}"

    def to_json(self) -> dict[str, Any]:
        return {"move": "shift", "from": self.source + 1, "to": self.to + 1, "card": str(self.card)}


@dataclass(frozen=True)
class Deal:
    """Deal one card from the stock onto each pile, 1 to 16, while the stock lasts."""

    def text(self, rules: MatrimonyRules) -> str:
        return "deal"

    def to_json(self) -> dict[str, Any]:
        return {"move": "deal"}


@dataclass(frozen=True)
class Redeal:
    """Pick up a pile and deal it out again, its bottom card first, back onto itself."""

    pile: int  # 0..15

    def text(self, rules: MatrimonyRules) -> str:
        return f"redeal pile {self.pile + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"move": "redeal", "pile": self.pile + 1}


Move = Play | Shift | Deal | Redeal

# A move as a small tuple of ints: (PLAY, pile, card, foundation), (SHIFT, foundation,
# foundation, card), (DEAL,), (REDEAL, pile), piles and foundations from 0, a card as its
# code (`Card.code`). The solver's lines travel in this form, made into moves only when
# someone reads them, and the referee replays it as it is (`verify.replay_codes`).
Coded = tuple[int, ...]
PLAY, SHIFT, DEAL, REDEAL = range(4)


def move_of(coded: Coded) -> Move:
    """The move a coded move stands for."""
    kind, *rest = coded
    if kind == PLAY:
        pile, card, to = rest
        return Play(pile, BY_CODE[card], to)
    if kind == SHIFT:
        source, to, card = rest
        return Shift(source, to, BY_CODE[card])
    if kind == REDEAL:
        (pile,) = rest
        return Redeal(pile)
    if kind == DEAL and not rest:
        return Deal()
    raise ValueError(f"not a coded Matrimony move: {coded!r}")


def coded(move: Any) -> Coded | None:
    """A move as its coded tuple; None when it is not a well-formed move (piles or
    foundations that are not whole numbers, a card that is not a Card)."""
    if isinstance(move, Play):
        if _are_numbers(move.pile, move.to) and isinstance(move.card, Card):
            return PLAY, move.pile, move.card.code, move.to
    elif isinstance(move, Shift):
        if _are_numbers(move.source, move.to) and isinstance(move.card, Card):
            return SHIFT, move.source, move.to, move.card.code
    elif isinstance(move, Deal):
        return (DEAL,)
    elif isinstance(move, Redeal):
        if _are_numbers(move.pile):
            return REDEAL, move.pile
    return None


def _are_numbers(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def foundation_name(rules: MatrimonyRules, f: int) -> str:
    """`F3 (J♥ down)`; a number off the rule set's foundations is written bare."""
    if 0 <= f < len(rules.foundations):
        return f"F{f + 1} ({rules.foundations[f].label})"
    return f"F{f + 1}"


_NUMBERED = re.compile(r"^\s*+[0-9]++[.)]\s*+")
_FOUNDATION = r"F([0-9]++)(?:\s*+\(([^)]*+)\))?"
_PLAY = re.compile(rf"pile\s++([0-9]++)\s*+:?\s*+(\S++)\s++to\s++{_FOUNDATION}", re.I)
_SHIFT = re.compile(rf"shift\s++(\S++)\s++from\s++{_FOUNDATION}\s++to\s++{_FOUNDATION}", re.I)
_REDEAL = re.compile(r"redeal\s++pile\s++([0-9]++)", re.I)
_DEAL = re.compile(r"deal", re.I)


def parse_move(text: str, rules: MatrimonyRules) -> Move:
    """Read one move in the text form (a leading `12.` is allowed)."""
    body = " ".join(_NUMBERED.sub("", text).split())
    try:
        if match := _PLAY.fullmatch(body):
            pile, card, number, label = match.groups()
            return Play(_pile(pile), Card.parse(card), _foundation(rules, number, label))
        if match := _SHIFT.fullmatch(body):
            card, source, source_label, to, to_label = match.groups()
            return Shift(_foundation(rules, source, source_label), _foundation(rules, to, to_label), Card.parse(card))
        if match := _REDEAL.fullmatch(body):
            return Redeal(_pile(match.group(1)))
        if _DEAL.fullmatch(body):
            return Deal()
    except CardError as err:
        raise MoveSyntaxError(f"{body!r}: {err}") from None
    raise MoveSyntaxError(
        f"not a Matrimony move: {body!r} (expected like 'pile 3: 7H to F3', 'deal' or 'redeal pile 16')"
    )


def move_from_json(obj: Any) -> Move:
    """Read one move in the JSON form that `solve --json` prints."""
    kind = obj.get("move") if isinstance(obj, dict) else None
    fields = {"play": {"pile", "card", "to"}, "shift": {"from", "to", "card"}, "deal": set(), "redeal": {"pile"}}
    if not isinstance(kind, str) or kind not in fields or set(obj) != fields[kind] | {"move"}:
        raise MoveSyntaxError(f"not a Matrimony move: {obj!r}")
    numbers = [obj[k] for k in ("pile", "to", "from") if k in obj]
    if not all(type(n) is int and n >= 1 for n in numbers):
        raise MoveSyntaxError(f"piles and foundations are numbered from 1: {obj!r}")
    try:
        card = Card.parse(obj["card"]) if isinstance(obj.get("card"), str) else None
    except CardError as err:
        raise MoveSyntaxError(f"{obj!r}: {err}") from None
    if kind in ("play", "shift") and card is None:
        raise MoveSyntaxError(f"a {kind} move names its card as text, like \"7H\": {obj!r}")
    if kind == "play":
        return Play(obj["pile"] - 1, card, obj["to"] - 1)  # type: ignore[arg-type]
    if kind == "shift":
        return Shift(obj["from"] - 1, obj["to"] - 1, card)  # type: ignore[arg-type]
    if kind == "redeal":
        return Redeal(obj["pile"] - 1)
    return Deal()


def _pile(text: str) -> int:
    number = _small(text)
    if not 1 <= number <= PILES:
        raise MoveSyntaxError(f"no pile {_shown(text)}: piles are numbered 1 to {PILES}")
    return number - 1


def _foundation(rules: MatrimonyRules, number_text: str, label: str | None) -> int:
    """The foundation index for `F<number>`, checking its name in brackets when one is given."""
    count = len(rules.foundations)
    number = _small(number_text)
    if not 1 <= number <= count:
        raise MoveSyntaxError(f"no foundation F{_shown(number_text)}: foundations are F1 to F{count}")
    found = rules.foundations[number - 1]
    if label is not None and _plain_label(label) not in (_plain_label(found.label), _plain_label(found.ascii_label)):
        raise MoveSyntaxError(f"F{number} is {found.label} in {rules.name} rules, not {label.strip()}")
    return number - 1


def _small(digits: str) -> int:
    """The number `digits` spell, or 0 when it is too long to be any pile's or foundation's."""
    return int(digits) if len(digits) <= 6 else 0


def _shown(digits: str) -> str:
    return digits if len(digits) <= 12 else f"{digits[:6]}...({len(digits)} digits)"


def _plain_label(label: str) -> str:
    """A foundation name with suit symbols as letters, `T` as `10`, in one case and spacing."""
    text = " ".join(label.split()).upper()
    for symbol, letter in SUIT_LETTERS.items():
        text = text.replace(symbol, letter)
    return re.sub(r"^T(?=[CSHD])", "10", text)

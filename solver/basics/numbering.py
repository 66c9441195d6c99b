"""PySolFC game numbers: parsing them and shuffling the deck exactly as PySolFC does."""

from __future__ import annotations

import re
from dataclasses import dataclass
from random import Random

from pysol_cards.random import LCRandom31

from .compiled import compiled_core
from .errors import GameNumberError

MS_LIMIT = 32000  # below this a plain number uses the Microsoft generator
MS_MAX_SEED = 2**33 - 1

_MS_FORM = re.compile(r"ms([0-9]+)", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s#\-_.,]")


@dataclass(frozen=True)
class GameNumber:
    """A parsed game number: the seed and which generator PySolFC uses for it."""

    seed: int
    microsoft: bool

    @classmethod
    def parse(cls, text: str | int | GameNumber) -> GameNumber:
        """Read `123`, `#1,234`, `99L` or `ms5000000000` the way PySolFC does (a number
        already read is itself)."""
        if isinstance(text, GameNumber):
            return text
        raw = str(text).strip()
        if raw.isdigit() and raw.isascii() and len(raw) <= 4000 and raw.strip("0"):  # the common case, quickly
            seed = int(raw)
            return cls(seed, seed < MS_LIMIT)
        shown = repr(raw) if len(raw) <= 40 else f"{raw[:16] + '...' + raw[-8:]!r} ({len(raw)} characters)"
        match = _MS_FORM.fullmatch(raw)
        if match:
            seed = _whole(match.group(1), shown)
            if not 1 <= seed <= MS_MAX_SEED:
                raise GameNumberError(f"bad game number {shown}: ms seeds run from 1 to {MS_MAX_SEED}")
            return cls(seed, True)
        if raw.startswith("-"):
            # A dash inside a number is a separator, as in PySolFC; a leading one is a sign.
            raise GameNumberError(f"bad game number {shown}: game numbers are positive")
        cleaned = _SEPARATORS.sub("", raw)
        if cleaned[-1:] in ("L", "l"):
            cleaned = cleaned[:-1]
        if not cleaned.isdigit() or not cleaned.isascii():
            raise GameNumberError(f"bad game number {shown}: expected a positive whole number or msN")
        seed = _whole(cleaned, shown)
        if seed == 0:
            raise GameNumberError(f"bad game number {shown}: game numbers start at 1")
        return cls(seed, seed < MS_LIMIT)

    def __str__(self) -> str:
        if self.microsoft and self.seed >= MS_LIMIT:
            return f"ms{self.seed}"
        return str(self.seed)


def _whole(digits: str, shown: str) -> int:
    """The number `digits` spell, within the longest Python reads (4,300 digits)."""
    try:
        return int(digits)
    except ValueError:
        raise GameNumberError(f"bad game number {shown}: too many digits") from None


def shuffled_ids(number: GameNumber, decks: int) -> list[int]:
    """PySolFC card ids in dealing order (first dealt first) for `number` (the compiled
    core's copy of the Mersenne Twister shuffle where it can take the seed;
    tests/basics/test_cards_and_numbers.py holds the two to the same deals)."""
    if not number.microsoft and number.seed < 2**64:
        core = compiled_core()
        if core is not None:
            ids: list[int] = core.pysol_ids(number.seed, 52 * decks)
            return ids
    return shuffled(number, decks)[0]


def shuffled(number: GameNumber, decks: int) -> tuple[list[int], LCRandom31 | Random]:
    """PySolFC card ids in dealing order for `number`, and its generator as the shuffle
    leaves it (a PySolFC save keeps that generator's state; for the Mersenne Twister, the
    plain `random.Random` whose state pysol_cards' MTRandom carries)."""
    ids = list(range(52 * decks))
    if number.microsoft:
        rng = LCRandom31(number.seed)
        if decks == 1:
            # The Microsoft deals start from a rank-major deck, suits C, D, H, S.
            ids = [13 * suit + rank for rank in range(13) for suit in (0, 3, 2, 1)]
        for i in range(len(ids) - 1, 0, -1):
            j = rng.randint(0, i)
            ids[i], ids[j] = ids[j], ids[i]
    else:
        # pysol_cards' MTRandom is Python's own Mersenne Twister seeded with the number,
        # whose randint(0, i) is int(random() * (i + 1)). Its constructor also copies the
        # generator's whole state, which costs more than the shuffle: the generator is used
        # bare (tests/basics/test_cards_and_numbers.py checks it against MTRandom).
        rng = Random(number.seed)
        random = rng.random
        for i in range(len(ids) - 1, 0, -1):
            j = int(random() * (i + 1))
            ids[i], ids[j] = ids[j], ids[i]
    ids.reverse()  # PySolFC deals from the end of the shuffled list
    return ids, rng

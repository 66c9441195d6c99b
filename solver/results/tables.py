"""The published verdicts, shipped inside the package in a compact form: a bit a deal.

Each game and rule set with published results (data/*.jsonl.gz) has one table, the file
`published/GAME-RULES.bits`: a first line `wedlock-table 1`, a line of JSON (`game`, `rules`,
`first` and `last`, the game numbers it covers, `decided`, `source` files and the solver
`versions` that wrote them), then one bit per game number from `first` to `last`, set when
the deal is won (bit k of byte k // 8 is game `first + k`, lowest bit first). When some
deals are `unknown`, a second run of bits follows, set for the deals that are decided
(won or lost); otherwise every deal is. The 1,000,000 Monte Carlo deals take 125,000
bytes.

`build` makes a table from results files, and a test checks each shipped table against
the files in data/ it says it comes from.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..basics.errors import GameNumberError, RulesError, WedlockError
from ..basics.numbering import MS_LIMIT, GameNumber
from ..pipeline.solving import game_and_rules
from ..search.exhaustive import Verdict
from .records import conflict

MAGIC = b"wedlock-table 1\n"


class TableError(WedlockError):
    """A table file that is not one, or results that do not make one."""


@dataclass(frozen=True)
class Table:
    """The published verdicts of one game and rule set over the game numbers first..last."""

    game: str
    rules: str
    first: int
    last: int
    won: bytes
    decided: bytes | None  # None when every deal is decided
    sources: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()

    def __contains__(self, number: int) -> bool:
        return self.first <= number <= self.last

    def verdict(self, number: int) -> Verdict | None:
        """The published verdict of a game number; None outside the table."""
        if number not in self:
            return None
        k = number - self.first
        bit = 1 << (k & 7)
        if self.decided is not None and not self.decided[k >> 3] & bit:
            return Verdict.UNKNOWN
        return Verdict.WON if self.won[k >> 3] & bit else Verdict.LOST

    def numbers(self, verdict: Verdict, start: int | None = None, stop: int | None = None) -> Iterator[int]:
        """The game numbers from `start` to `stop` (within the table) whose verdict is
        `verdict`, in order."""
        low = max(self.first, self.first if start is None else start)
        high = min(self.last, self.last if stop is None else stop)
        for number in range(low, high + 1):
            if self.verdict(number) == verdict:
                yield number

    def counts(self) -> dict[str, int]:
        """How many deals of the table are won, lost and unknown."""
        size = self.last - self.first + 1
        won = _ones(self.won, size)
        decided = size if self.decided is None else _ones(self.decided, size)
        return {"won": won, "lost": decided - won, "unknown": size - decided}

    def to_bytes(self) -> bytes:
        head = {
            "game": self.game,
            "rules": self.rules,
            "first": self.first,
            "last": self.last,
            "decided": "all" if self.decided is None else "bits",
            "sources": list(self.sources),
            "versions": list(self.versions),
        }
        return MAGIC + json.dumps(head).encode() + b"\n" + self.won + (self.decided or b"")

    @classmethod
    def from_bytes(cls, data: bytes) -> Table:
        if not data.startswith(MAGIC):
            raise TableError("not a wedlock table")
        end = data.index(b"\n", len(MAGIC))
        head = json.loads(data[len(MAGIC) : end])
        size = (head["last"] - head["first"] + 1 + 7) // 8
        bits = data[end + 1 :]
        won, decided = bits[:size], (bits[size:] if head["decided"] == "bits" else None)
        if len(won) != size or (decided is not None and len(decided) != size):
            raise TableError(f"a table of {head['game']} ({head['rules']}) is cut short")
        return cls(head["game"], head["rules"], head["first"], head["last"], won, decided, tuple(head["sources"]), tuple(head["versions"]))


def _ones(bits: bytes, size: int) -> int:
    """The set bits among the first `size`."""
    whole, rest = divmod(size, 8)
    return sum(bin(b).count("1") for b in bits[:whole]) + (bin(bits[whole] & ((1 << rest) - 1)).count("1") if rest else 0)


MOST = 100_000_000  # game numbers past this are left out of a table (12.5 MB of bits)


def build(game: str, rules: str, records: Iterable[dict[str, Any]], sources: Iterable[str] = ()) -> Table:
    """The table of one game and rule set from results records (read one at a time): the
    game numbers 1..N that all have a record (plain numbers; `ms` forms of numbers past
    31,999 are other deals), a decided record counting where a deal has several. Two
    decided records of one deal that disagree are a ResultsFileError."""
    seen, won, decided = bytearray(), bytearray(), bytearray()
    versions: set[str] = set()
    for r in records:
        number = r["game_number"]
        if r["game"] != game or r["rules"] != rules or not number.isdigit() or int(number) > MOST:
            continue
        k = int(number) - 1
        byte, bit = k >> 3, 1 << (k & 7)
        if byte >= len(seen):
            grow = byte + 1 - len(seen)
            for bits in (seen, won, decided):
                bits.extend(bytes(grow))
        seen[byte] |= bit
        versions.add(r["version"])
        verdict = r["verdict"]
        if verdict == "unknown":
            continue
        if decided[byte] & bit and bool(won[byte] & bit) != (verdict == "won"):
            raise conflict((game, rules, number))
        decided[byte] |= bit
        if verdict == "won":
            won[byte] |= bit
    last = 0
    while last < 8 * len(seen) and seen[last >> 3] & (1 << (last & 7)):
        last += 1
    if last == 0:
        raise TableError(f"no results for the games from 1 of {game} ({rules})")
    size = (last + 7) // 8
    won_bits, decided_bits = _first_bits(won, last), _first_bits(decided, last)
    every = decided_bits == _first_bits(bytearray(b"\xff" * size), last)
    return Table(game, rules, 1, last, won_bits, None if every else decided_bits, tuple(sources), tuple(sorted(versions)))


def _first_bits(bits: bytearray, count: int) -> bytes:
    """The first `count` bits, the rest of the last byte cleared."""
    out = bytearray(bits[: (count + 7) // 8])
    if count % 8:
        out[-1] &= (1 << (count % 8)) - 1
    return bytes(out)


def file_name(game: str, rules: str) -> str:
    return f"{game}-{rules}.bits"


@cache
def table(game: str, rules: str) -> Table | None:
    """The shipped table of a game and rule set, or None when there is none."""
    try:
        data = resources.files(__package__).joinpath("published", file_name(game, rules)).read_bytes()
    except FileNotFoundError:
        return None
    return Table.from_bytes(data)


def lookup(game: str, number: int | str, rules: str | None = None) -> Verdict | None:
    """The published verdict of a game number (as `deal` reads it), or None when no table
    covers it.

    >>> lookup("monte-carlo", 12345), lookup("monte-carlo", "#3", rules="strict")
    (<Verdict.WON: 'won'>, <Verdict.LOST: 'lost'>)
    >>> table("monte-carlo", "pysol").counts()
    {'won': 888174, 'lost': 111826, 'unknown': 0}
    """
    if not isinstance(game, str):
        raise RulesError(f"a game is named by text, like 'monte-carlo', not {type(game).__name__}")
    chosen, rule_set = game_and_rules(game, rules)
    if isinstance(number, bool) or not isinstance(number, (int, str)):
        raise GameNumberError(f"bad game number {number!r}")
    parsed = GameNumber.parse(str(number))
    found = table(chosen.name, rule_set.name)
    if found is None or (parsed.microsoft and parsed.seed >= MS_LIMIT):  # tables hold the plain numbers
        return None
    return found.verdict(parsed.seed)

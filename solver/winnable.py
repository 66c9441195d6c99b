"""Game numbers proven winnable (or proven lost), on demand: from the shipped tables, and
past them by solving deals as they come.
"""

from __future__ import annotations

import random as random_numbers
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .games import game_named, rules_of
from .pipeline import solve
from .search import Verdict
from .tables import table

ON_THE_FLY_SECONDS = 10.0  # a deal past the table that takes longer is passed over as unknown


@dataclass(frozen=True)
class Found:
    """A game number with the verdict asked for, and how it is known."""

    number: int
    from_table: bool  # False: solved just now
    seconds: float = 0.0  # the solve's, when solved just now


def winnable(
    game: str,
    rules: str | None = None,
    *,
    count: int = 10,
    lost: bool = False,
    shuffled: bool = False,
    seed: Any = None,
    start: int = 1,
    stop: int | None = None,
    time_limit: float | None = ON_THE_FLY_SECONDS,
    skipped: list[int] | None = None,
) -> Iterator[Found]:
    """Up to `count` game numbers from `start` to `stop` proven winnable (proven lost with
    `lost`): in order, or in a random order with `shuffled` (seeded by `seed`; `stop` is
    then the table's end unless given). A number the shipped table covers is answered
    from it; one past it is solved, within `time_limit` seconds; a deal that is unknown
    (in the table, or once solved) is passed over and added to `skipped`, when given.

    >>> [f.number for f in winnable("monte-carlo", "strict", count=3, lost=True)]
    [3, 4, 5]
    >>> [f.number for f in winnable("monte-carlo", count=3, shuffled=True, seed=1)]
    [596855, 888601, 841239]
    """
    chosen = game_named(game)
    rule_set = rules_of(chosen, rules)
    wanted = Verdict.LOST if lost else Verdict.WON
    known = table(chosen.name, rule_set.name)
    if shuffled and stop is None:
        stop = max(start, 0 if known is None else known.last)
    numbers = _shuffled(start, stop, random_numbers.Random(seed)) if shuffled and stop is not None else _upward(start, stop)
    given = 0
    for number in numbers:
        if given == count:
            return
        verdict = None if known is None else known.verdict(number)
        from_table, seconds = verdict is not None, 0.0
        if verdict is None:
            result = solve(chosen, number, rule_set.name, time_limit=time_limit)
            verdict, seconds = result.verdict, result.seconds
        if verdict == wanted:
            given += 1
            yield Found(number, from_table, seconds)
        elif verdict == Verdict.UNKNOWN and skipped is not None:
            skipped.append(number)


def _upward(start: int, stop: int | None) -> Iterator[int]:
    number = start
    while stop is None or number <= stop:
        yield number
        number += 1


def _shuffled(start: int, stop: int, rng: random_numbers.Random) -> Iterator[int]:
    """The numbers start..stop in a random order, drawn one at a time (a Fisher-Yates
    shuffle that keeps only the places it has swapped)."""
    size = stop - start + 1
    swapped: dict[int, int] = {}
    for i in range(size):
        j = rng.randrange(i, size)
        yield start + swapped.get(j, j)
        swapped[j] = swapped.get(i, i)

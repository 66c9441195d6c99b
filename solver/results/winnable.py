"""Game numbers proven winnable (or proven lost), on demand: from the shipped tables, and
past them by solving deals as they come.
"""

from __future__ import annotations

import random as random_numbers
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..basics.errors import WedlockError
from ..games.protocol import Game
from ..pipeline.solving import checked_limits, game_and_rules, solve
from ..playing.players import is_seed
from ..search.exhaustive import Verdict
from .ranges import RangeError
from .tables import table

ON_THE_FLY_SECONDS = 10.0  # a deal past the table that takes longer is passed over as unknown
PATIENCE = 120.0  # seconds of solving past the table without a find before the search stops


class GaveUp(WedlockError):
    """Solving past the table found nothing for a long while: such deals are rare there,
    or come out unknown within the time limit."""


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
    random: bool = False,
    seed: Any = None,
    start: int = 1,
    stop: int | None = None,
    time_limit: float | None = ON_THE_FLY_SECONDS,
    skipped: list[int] | None = None,
    patience: float = PATIENCE,
    solving: Callable[[int], None] | None = None,
) -> Iterator[Found]:
    """Up to `count` game numbers from `start` to `stop` proven winnable (proven lost with
    `lost`): in order, or in a random order with `random` (seeded by `seed`; `stop` is
    then the table's end unless given). A number the shipped table covers is answered
    from it; one past it is solved, within `time_limit` seconds (`solving`, when given,
    is called with the number first); a deal that is unknown (in the table, or once
    solved) is passed over and added to `skipped`, when given. When `patience` seconds
    of solving past the table find nothing, a `GaveUp` is raised: such deals are rare
    there, or come out unknown within the time limit.

    >>> [f.number for f in winnable("monte-carlo", "strict", count=3, lost=True)]
    [3, 4, 5]
    >>> [f.number for f in winnable("monte-carlo", count=3, random=True, seed=1)]
    [596855, 888601, 841239]
    """
    chosen, rule_set = game_and_rules(game, rules)
    for name, value, needed in (("count", count, True), ("start", start, True), ("stop", stop, False)):
        if (value is not None or needed) and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise RangeError(f"{name} is a whole number, 1 or more; not {value!r}")
    if stop is not None and start > stop:
        raise RangeError(f"the range {start:,}-{stop:,} is empty: start at or before the stop")
    if seed is not None and not is_seed(seed):
        raise RangeError(f"a seed is a whole number or text, not {seed!r}")
    checked_limits(time_limit=time_limit)
    if isinstance(patience, bool) or not isinstance(patience, (int, float)) or not patience >= 0:
        raise RangeError(f"patience is a number of seconds, 0 or more; not {patience!r}")
    if skipped is not None and not isinstance(skipped, list):
        raise RangeError(f"skipped is a list the deals passed over are added to, or None; not {type(skipped).__name__}")
    if solving is not None and not callable(solving):
        raise RangeError(f"solving is a function called with each number solved, or None; not {type(solving).__name__}")
    wanted = Verdict.LOST if lost else Verdict.WON
    known = table(chosen.name, rule_set.name)
    if random and stop is None:
        if known is None or start > known.last:
            raise RangeError("drawing at random past the published table needs the last number to draw from")
        stop = known.last
    numbers = _shuffled(start, stop, random_numbers.Random(seed)) if random and stop is not None else _upward(start, stop)
    return _found(chosen, rule_set, numbers, count, wanted, time_limit, skipped, patience, solving)


def _found(
    chosen: Game,
    rule_set: Any,
    numbers: Iterator[int],
    count: int,
    wanted: Verdict,
    time_limit: float | None,
    skipped: list[int] | None,
    patience: float,
    solving: Callable[[int], None] | None,
) -> Iterator[Found]:
    """The numbers with the verdict wanted, answered from the table or solved, in turn."""
    known = table(chosen.name, rule_set.name)
    given = 0
    searching = 0.0  # seconds solved since the last find
    what = "lost" if wanted == Verdict.LOST else "winnable"
    for number in numbers:
        if given == count:
            return
        verdict = None if known is None else known.verdict(number)
        from_table, seconds = verdict is not None, 0.0
        if verdict is None:
            if solving is not None:
                solving(number)
            result = solve(chosen, number, rule_set.name, time_limit=time_limit)
            verdict, seconds = result.verdict, result.seconds
            searching = 0.0 if verdict == wanted else searching + seconds
            if searching > patience:
                raise GaveUp(f"{searching:,.0f} s of solving, up to game {number:,}, found no further deal proven {what}")
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

"""What the dearest decided deals cost, shipped beside the verdict tables: the deals whose
line in data/ took more than `solve`'s default limits, with the states and seconds it took.

A search that stops `unknown` on such a deal can then say what the published verdict is,
the command that redoes it, and what that costs; on any other deal of the game, what the
dearest proof known cost, as a guide to the next step. The file is
`published/proof-costs.json` (a JSON object: for each `GAME-RULES`, a list of deals, each
`game_number`, `verdict`, `states`, `seconds` and `version`), written by
benchmarks/build_tables.py from the results files and checked against them by a test.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..basics.words import counted
from ..search.exhaustive import Verdict

FILE = "proof-costs.json"
DEFAULT_STATES = 20_000_000  # solve's default --max-states
DEFAULT_SECONDS = 120  # solve's default --time-limit
COMPACT_FROM = 50_000_000  # from this --max-states on, the core's table is made whole at the start
BYTES_A_STATE = 15  # ... at 15 bytes a state (docs/SOLVER.md, "The compiled core")


@dataclass(frozen=True)
class ProofCost:
    """What deciding one deal cost when its results line was written."""

    game: str
    rules: str
    number: str
    verdict: Verdict
    states: int
    seconds: float
    version: str

    @property
    def max_states(self) -> int:
        """A state limit with room to redo it: the states it took and a fifth more, in two
        figures (258,029,647 -> 310,000,000)."""
        wanted = self.states * 6 // 5
        step = 10 ** max(0, len(str(wanted)) - 2)
        return max(DEFAULT_STATES, math.ceil(wanted / step) * step)

    @property
    def memory(self) -> int | None:
        """The bytes the table of states takes at `max_states`, when the core makes it whole."""
        return self.max_states * BYTES_A_STATE if self.max_states >= COMPACT_FROM else None

    def command(self) -> str:
        """The command that decides the deal again."""
        rules = "" if self.rules == "pysol" else f" --rules {self.rules}"
        if self.verdict == Verdict.LOST:
            limit = "none"
        else:
            limit = str(max(DEFAULT_SECONDS, 10 * math.ceil(self.seconds * 2 / 10)))
        return f"wedlock solve {self.game} {self.number}{rules} --time-limit {limit} --max-states {self.max_states}"

    def cost_words(self) -> str:
        """`258,029,647 states and 30 min`, with the table's memory when it is made whole."""
        words = f"{counted(self.states, 'state')} and {duration(self.seconds)}"
        if self.memory is not None:
            words += f", {self.memory / 1e9:.1f} GB for the table of states"
        return words


def duration(seconds: float) -> str:
    """Seconds as a person says them: `45 s`, `5 min`, `1.5 h`."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def dear(records: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The contents of the file, from results lines (those of `batch`; a luck or players
    run's are left out): for each deal, the decided line of the newest version that wrote
    one (the cheapest of those), kept when it took more than solve's default states or
    seconds."""
    newest: dict[tuple[str, str, str], dict[str, Any]] = {}
    for r in records:
        if r.get("verdict") not in (Verdict.WON.value, Verdict.LOST.value) or "analysis" in r or "players" in r:
            continue  # a line of a luck or players run spent its seconds on more than the verdict
        key = (r["game"], r["rules"], str(r["game_number"]))
        held = newest.get(key)
        if held is None or _order(r) > _order(held):
            newest[key] = r
    out: dict[str, list[dict[str, Any]]] = {}
    for (game, rules, number), r in sorted(newest.items(), key=lambda item: (item[0][0], item[0][1], _number_order(item[0][2]))):
        if r["states"] > DEFAULT_STATES or r["seconds"] > DEFAULT_SECONDS:
            kept = {"game_number": number, "verdict": r["verdict"], "states": r["states"], "seconds": r["seconds"], "version": r["version"]}
            out.setdefault(f"{game}-{rules}", []).append(kept)
    return out


def _order(record: dict[str, Any]) -> tuple[tuple[int, ...], int]:
    """Newer versions first, then fewer states."""
    version = tuple(int(p) for p in str(record.get("version", "0")).split(".") if p.isdigit())
    return version, -int(record["states"])


def _number_order(number: str) -> tuple[int, str]:
    return (int(number), "") if number.isdigit() else (0, number)


@cache
def _shipped() -> dict[str, list[dict[str, Any]]]:
    try:
        text = resources.files(__package__).joinpath("published", FILE).read_text()
    except FileNotFoundError:
        return {}
    return json.loads(text)


def _costs(game: str, rules: str) -> list[ProofCost]:
    return [
        ProofCost(game, rules, d["game_number"], Verdict(d["verdict"]), d["states"], d["seconds"], d["version"])
        for d in _shipped().get(f"{game}-{rules}", [])
    ]


def proof_cost(game: str, rules: str, number: str) -> ProofCost | None:
    """What deciding this deal cost, when it is one of the dear ones shipped."""
    return next((c for c in _costs(game, rules) if c.number == number), None)


def dearest_loss(game: str, rules: str) -> ProofCost | None:
    """The dearest proof of a loss shipped for a game and rule set."""
    losses = [c for c in _costs(game, rules) if c.verdict == Verdict.LOST]
    return max(losses, key=lambda c: c.states, default=None)


@dataclass(frozen=True)
class Published:
    """What the shipped tables say of a deal a search left `unknown`: its verdict, and what
    deciding it cost when that was dearer than solve's defaults."""

    number: str
    verdict: Verdict
    cost: ProofCost | None

    def words(self) -> str:
        """`the shipped table holds game 319 as lost: ... redoes it (it took ...)`."""
        said = f"the shipped table holds game {self.number} as {self.verdict.value}"
        if self.cost is None:
            return said
        return f"{said}: `{self.cost.command()}` decides it again (it took {self.cost.cost_words()})"

    def to_json(self) -> dict[str, Any]:
        """What `solve --json` says of it, as `published`."""
        data: dict[str, Any] = {"verdict": self.verdict.value}
        if self.cost is not None:
            data.update(command=self.cost.command(), states=self.cost.states, seconds=self.cost.seconds)
        return data


def published(game: str, rules: str, number: str | None) -> Published | None:
    """The shipped tables' verdict on a numbered deal, when they decide it."""
    from .tables import lookup  # the tables load on first use

    if number is None:
        return None
    verdict = lookup(game, number, rules)
    if verdict is None or verdict == Verdict.UNKNOWN:
        return None
    return Published(number, verdict, proof_cost(game, rules, number))


def guide(game: str, rules: str) -> str | None:
    """What the dearest loss proven for a game and rule set cost: the next step's price for
    a deal the search left unknown and no table decides."""
    dearest = dearest_loss(game, rules)
    if dearest is None:
        return None
    return f"the dearest loss proven for this game, game {dearest.number}'s, took {dearest.cost_words()}"

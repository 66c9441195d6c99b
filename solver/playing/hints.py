"""Hints for a game under way: can it still be won from here, what to play next, and what
each legal move does to the chances of a win.

Each legal choice (a Monte Carlo move; a Matrimony move, a PySolFC play with the shifts it
needs) is classed by the solver's verdict on the position it leads to:

- *keeps the win*: a winning line goes on from there;
- *loses*: every position reachable from there was searched, and none wins;
- *unknown*: a limit cut that search short.

The verdict on the position itself follows from its choices where its own search was cut
short: won when some choice keeps the win, lost when every choice loses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..basics.printable import shortened
from ..basics.words import counted
from ..games.lines import Line
from ..games.protocol import Game, Progress, no_progress, starting_choice
from ..pipeline.positions import played, position
from ..pipeline.solving import DEFAULT_MAX_STATES, DealSource, Position, Solution, checked_limits, checked_progress, solve
from ..search.exhaustive import Verdict, limit_reached

KEEPS, LOSES, UNKNOWN = "keeps the win", "loses", "unknown"


@dataclass(frozen=True)
class Hint:
    """The answer for a position: its verdict, a winning line from it, and every legal
    choice with its class."""

    position: Position
    verdict: Verdict
    line: Line = field(default_factory=Line)  # a winning line from here, when won
    next: Line = field(default_factory=Line)  # its first choice: what to play now
    choices: tuple[tuple[Line, str], ...] = ()  # each legal choice and its class
    states: int = 0
    seconds: float = 0.0
    reason: str = ""  # when unknown: the limit that cut the search short
    proof: str = ""  # when lost: how the loss was proven, in words

    def summary(self) -> str:
        """One line: the verdict and the cost."""
        cost = f"{counted(self.states, 'state')}, {self.seconds:,.2f} s"
        if self.verdict == Verdict.WON:
            return f"won: a winning line from here has {counted(len(self.line), 'move')} ({cost})"
        if self.verdict == Verdict.LOST:
            return f"lost: {self.proof or 'no line from here wins; every reachable position was searched'} ({cost})"
        return f"unknown: {self.reason} ({cost})"

    def __str__(self) -> str:
        """`Monte Carlo (PySolFC), game 12345, after 1 move: won ...; next: B2 4S + B3 4D`."""
        said = f"{self.position.deal.title}, {shortened(self.position.label)}: {self.summary()}"
        return f"{said}; next: {self.next.text(numbered=False)}" if self.next else said

    def __repr__(self) -> str:
        where = shortened(self.position.label)
        nxt = f", next {shortened(self.next.text(numbered=False), 60)}" if self.next else ""
        return f"<Hint {self.position.deal.title}, {where}: {self.verdict.value}{nxt}, {counted(len(self.choices), 'move')} classed>"

    def to_json(self) -> dict[str, Any]:
        """What `hint --json` prints."""
        return {
            **self.position._names(),
            "verdict": self.verdict.value,
            "next": _choice_json(self.next) if self.next else None,
            "moves": [{**_choice_json(choice), "class": cls} for choice, cls in self.choices],
            "line": self.line.to_json(),
            "states": self.states,
            "seconds": round(self.seconds, 4),
            **({"reason": self.reason} if self.verdict == Verdict.UNKNOWN else {}),
            **({"proof": self.proof} if self.proof else {}),
        }


def _choice_json(choice: Line) -> dict[str, Any]:
    return {"move": choice.text(numbered=False), "json": choice.to_json()}


def hint(
    game: str | Game,
    source: DealSource | Position,
    rules: str | None = None,
    *,
    after: Any = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    max_states: int | None = DEFAULT_MAX_STATES,
    progress: Progress | None = None,
) -> Hint:
    """The hint for a position (or a deal's opening, or after the moves `after`). Half the
    time limit goes to the position's own search, the rest is shared by its choices.
    `progress(index, searches, label)` is told as each search starts: the position's own
    (index 0), then each choice's that is searched (label: the choice's text).

    >>> h = hint("monte-carlo", 12345, after=["A1 QC + B1 QH"])
    >>> h.verdict, h.next.text(numbered=False)
    (<Verdict.WON: 'won'>, 'B2 4S + B3 4D')
    >>> [(choice.text(numbered=False), cls) for choice, cls in h.choices][-2:]
    [('E2 5D + E3 5H', 'keeps the win'), ('consolidate', 'keeps the win')]
    >>> hint("monte-carlo", 3, rules="strict").choices[0][1]
    'loses'
    """
    start = source if isinstance(source, Position) and after is None else position(game, source, rules, after=after)
    chosen = start.deal
    limits = checked_limits(node_limit=node_limit, time_limit=time_limit, max_states=max_states)
    checked_progress(progress)
    tell = progress or no_progress
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit

    def solved(where: Position, share: float) -> Solution:
        seconds = None if deadline is None else max(0.0, (deadline - time.perf_counter()) * share)
        return solve(chosen.game, where, time_limit=seconds, node_limit=node_limit, max_states=max_states)

    options = [Line.of(chosen.game, chosen.rules, c) for c in chosen.game.choices(chosen.rules, chosen.cards, start.seen)]
    tell(0, len(options) + 1, "the position")
    own = solved(start, 0.5)
    states, verdict, line, reason = own.states, own.verdict, own.moves, own.reason
    if own.limit == "time_limit":  # the share it had: say the limit the caller set
        reason = limit_reached("time_limit", limits)
    first = _choice_line_starts(options, line) if verdict == Verdict.WON else None
    classes: list[tuple[Line, str]] = []
    for n, choice in enumerate(options):
        if verdict == Verdict.LOST:
            classes.append((choice, LOSES))
            continue
        if choice is first:
            classes.append((choice, KEEPS))
            continue
        child = played(start, choice.raw())
        if child.seen.cards_left() == 0:
            classes.append((choice, KEEPS))
            continue
        tell(n + 1, len(options) + 1, f"the move {choice.text(numbered=False)}")
        answer = solved(child, 1 / (len(options) - n))
        states += answer.states
        classes.append((choice, {Verdict.WON: KEEPS, Verdict.LOST: LOSES}.get(answer.verdict, UNKNOWN)))
        if verdict == Verdict.UNKNOWN and answer.verdict == Verdict.WON:
            verdict, line, first = Verdict.WON, Line((*choice, *answer.moves)), choice
    proof = own.proof
    if verdict == Verdict.UNKNOWN and all(cls == LOSES for _, cls in classes):
        verdict = Verdict.LOST  # every choice loses (or there is none): so does the position
        proof = "every move from here was searched, and each loses" if classes else "no move can be made from here"
    nxt = first if first is not None else _next_of(line)
    seconds = time.perf_counter() - started
    return Hint(start, verdict, line, nxt, tuple(classes), states, seconds, reason if verdict == Verdict.UNKNOWN else "", proof)


def _choice_line_starts(options: list[Line], line: Line) -> Line | None:
    """The choice a winning line starts with, when it is one of the choices offered."""
    n = starting_choice([choice.raw() for choice in options], line.raw())
    return None if n is None else options[n]


def _next_of(line: Line) -> Line:
    """A winning line's first choice where it is none of those offered (its shifts differ):
    its moves up to its first that is not a shift."""
    for n, move in enumerate(line):
        if move.to_json().get("move") != "shift":
            return Line(line[: n + 1])
    return line

"""wedlock's answers for the positions of games under way in PySolFC, searched in the
background so that the window that asks keeps working.

A position's search runs in a thread of its own (the compiled core lets go of the GIL
while it searches). Its answer is kept for the position and, when it is a win, for every
position along the winning line, so a player or the Demo who follows the line gets each
next move at once, with no second search.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from ..pipeline.solving import DEFAULT_MAX_STATES, Position, solve
from ..search.exhaustive import Verdict
from .reading import position_key

MOST_KEPT = 50_000  # answers kept; past it the oldest are dropped


@dataclass(frozen=True)
class Advice:
    """wedlock's answer for one position: its verdict, and when it is won the primitive
    moves of a winning line from it."""

    verdict: Verdict
    moves: tuple[Any, ...] = ()
    reason: str = ""  # when unknown: why (the limit that cut the search, or what failed)
    time_limit: float | None = None  # the search's time limit (None: none)
    failed: bool = False  # unknown because wedlock failed, not because a limit cut it

    @property
    def next(self) -> Any:
        """The first move of the winning line (None unless won)."""
        return self.moves[0] if self.moves else None

    def answers(self, time_limit: float | None) -> bool:
        """Whether this answer stands for a search with `time_limit`: a decided one always,
        an unknown one when its own search had as long or longer."""
        if self.verdict != Verdict.UNKNOWN:
            return True
        return self.time_limit is None or (time_limit is not None and time_limit <= self.time_limit)


@dataclass
class _Search:
    """A search under way."""

    time_limit: float | None
    done: threading.Event = field(default_factory=threading.Event)


class Advisor:
    """The answers found so far and the searches under way, shared by every game."""

    def __init__(self, max_states: int | None = DEFAULT_MAX_STATES) -> None:
        self.max_states = max_states
        self._lock = threading.Lock()
        self._known: dict[Hashable, Advice] = {}
        self._searching: dict[Hashable, _Search] = {}

    def known(self, position: Position, time_limit: float | None = 0.0) -> Advice | None:
        """The answer already found for a position, without searching: one that stands for
        a search with `time_limit` (the default, 0: any answer)."""
        with self._lock:
            found = self._known.get(position_key(position))
        return found if found is not None and found.answers(time_limit) else None

    def ask(self, position: Position, time_limit: float | None, wait: float | None) -> Advice | None:
        """The answer for a position: at once when known; else from a search (started now
        unless one runs), waited for `wait` seconds at most (None: until it ends). None:
        the search goes on; ask again."""
        key = position_key(position)
        with self._lock:
            found = self._known.get(key)
            if found is not None and found.answers(time_limit):
                return found
            search = self._searching.get(key)
            if search is None:
                search = self._searching[key] = _Search(time_limit)
                threading.Thread(target=self._search, args=(key, position, search), name="wedlock search", daemon=True).start()
        search.done.wait(wait)
        return self.known(position, time_limit)

    def _search(self, key: Hashable, position: Position, search: _Search) -> None:
        answer = Advice(Verdict.UNKNOWN, reason="wedlock failed", time_limit=search.time_limit, failed=True)
        try:
            solution = solve(position.deal.game, position, time_limit=search.time_limit, max_states=self.max_states)
            answer = Advice(solution.verdict, tuple(solution.moves.raw()), solution.reason, search.time_limit)
        except BaseException as err:  # noqa: BLE001 (whatever ends the search, the game goes on with PySolFC's own hints)
            answer = Advice(Verdict.UNKNOWN, reason=f"wedlock failed: {_shown(err)}", time_limit=search.time_limit, failed=True)
        finally:  # an answer is kept and the waiting ends, however the search ended
            with self._lock:
                self._remember(key, answer)
                del self._searching[key]
                if answer.verdict == Verdict.WON:
                    with contextlib.suppress(Exception):  # the positions along the line are a saving only
                        self._remember_line(position, answer)
            search.done.set()

    def _remember(self, key: Hashable, answer: Advice) -> None:
        if len(self._known) >= MOST_KEPT:
            for old in list(self._known)[: MOST_KEPT // 10]:
                del self._known[old]
        self._known[key] = answer

    def _remember_line(self, position: Position, answer: Advice) -> None:
        """Each position along a winning line is won by the rest of the line."""
        chosen, seen = position.deal, position.seen
        for n, move in enumerate(answer.moves[:-1]):
            seen = chosen.game.after(chosen.rules, seen, move)
            self._remember(position_key(Position(chosen, seen)), Advice(Verdict.WON, answer.moves[n + 1 :], time_limit=answer.time_limit))


def _shown(err: BaseException) -> str:
    """What failed, in a few words: the exception's name and the start of its message."""
    words = str(err)[:100].replace("\n", " ")
    return f"{type(err).__name__}: {words}" if words else type(err).__name__

"""Players: a deal played out by someone who picks at random, greedily, perfectly (seeing
every card), or without peeking at the stock.

- *random*: a legal choice at random; *greedy*: at random among the choices that take cards
  out of play (a Monte Carlo pair or king, a Matrimony play) when there are any, else among
  all. These are the players `analyze` gives exact odds for.
- *perfect*: the solver's winning line, found with every card known. Where the solver proves
  the deal lost, it plays the first choice each time to the end; where a limit cuts its
  search short, it does not play at all, and its game is `unknown`.
- *no-peek*: sees what a PySolFC player sees (`Game.visible`: all but the stock's order).
  At each decision it draws orderings of the cards it cannot see and, in each, solves the
  position: a choice wins in an ordering when a winning line starts with it. Where solving
  is cheap (Monte Carlo, Arnold's Matrimony) every choice is solved in every ordering; under
  PySolFC's Matrimony rules, where one search costs a good part of a second, only the
  choice the solver's winning line starts with counts as winning in an ordering. It plays
  the choice that wins in the most orderings (hindsight optimisation); ties go to the
  choice the game lists first, which puts taking cards out of play before consolidating or
  dealing. When the cards unseen have no more distinct orderings than the sample holds
  (orderings of ranks in Monte Carlo, where suits never matter), it takes each of them once
  instead; once nothing is hidden it follows a winning line, as the perfect player does.
  Its draws come from its seed and what it has seen, never from the deal: two deals that
  look the same get the same moves.

A choice is what `Game.choices` offers (a PySolFC Matrimony play comes with its shifts).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..basics.cards import Card
from ..basics.errors import WedlockError
from ..basics.printable import shortened
from ..basics.words import counted
from ..games.lines import Line
from ..games.protocol import Game, starting_choice
from ..pipeline.positions import played, position
from ..pipeline.solving import DealSource, Position, checked_limits
from ..search.exhaustive import Limits, Verdict, limit_reached

PLAYERS: tuple[str, ...] = ("perfect", "no-peek", "greedy", "random")
SAMPLES = 10  # orderings of the unseen cards a no-peek decision weighs
MOST_SAMPLES = 10_000  # a decision holds its orderings in memory at once
SAMPLE_SECONDS = 1.0  # the search of one choice in one ordering; past it, no win is counted


def is_seed(seed: Any) -> bool:
    """A whole number, or text that a random generator can be seeded with (UTF-8)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        return False
    return not isinstance(seed, str) or seed.isascii() or _encodes(seed)


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


class PlayerError(WedlockError):
    """A player that is not one of PLAYERS, or a setting it cannot take."""


@dataclass(frozen=True)
class Played:
    """A deal played out by a player: its moves and whether they won, or, when the time
    limit ended the game first, why it has no result."""

    player: str
    start: Position
    moves: Line = field(default_factory=Line)
    won: bool = False
    seconds: float = 0.0
    seed: int | str = 0
    reason: str = ""  # when the game is unfinished: the limit that ended it

    @property
    def verdict(self) -> Verdict:
        """won, lost, or unknown (a limit ended the game, or the perfect player's search,
        before it was decided)."""
        if self.won:
            return Verdict.WON
        return Verdict.UNKNOWN if self.reason else Verdict.LOST

    def outcome(self) -> str:
        """`won in 43 moves`, `lost after 12 moves`, or why the game has no result."""
        if self.won:
            return f"won in {counted(len(self.moves), 'move')}"
        if self.reason:
            return f"unfinished after {counted(len(self.moves), 'move')}: {self.reason}"
        return f"lost after {counted(len(self.moves), 'move')}"

    def __str__(self) -> str:
        """`Monte Carlo (PySolFC), game 12345: the greedy player won in 43 moves (0.01 s)`."""
        return f"{self.start.deal.title}, {shortened(self.start.label)}: the {self.player} player {self.outcome()} ({self.seconds:,.2f} s)"

    def __repr__(self) -> str:
        return f"<Played {self.start.deal.title}, {shortened(self.start.label)}: {self.player}, {self.outcome()[:80]}>"

    def to_json(self) -> dict[str, Any]:
        """What `play --json` prints."""
        return {
            **self.start._names(),
            "player": self.player,
            "seed": self.seed,
            "verdict": self.verdict.value,
            "won": self.won,
            "moves": self.moves.to_json(),
            "seconds": round(self.seconds, 4),
            **({"reason": self.reason} if self.reason else {}),
        }

    def record(self) -> dict[str, Any]:
        """What `batch --player` adds to a deal's line for this player."""
        return {"won": self.won, "moves": len(self.moves), "seconds": round(self.seconds, 4)}


def play(
    game: str | Game,
    source: DealSource | Position,
    player: str,
    rules: str | None = None,
    *,
    seed: int | str = 0,
    samples: int = SAMPLES,
    sample_seconds: float | None = SAMPLE_SECONDS,
    time_limit: float | None = None,
) -> Played:
    """Play a deal (or a position of a game under way) as `player` (one of PLAYERS).
    `samples` and `sample_seconds` set the no-peek player's orderings a decision and the
    limit of each of its searches; `time_limit` bounds the whole game (for the perfect
    player, its search): past it the game is `unknown`, never lost.

    >>> p = play("monte-carlo", 12345, "no-peek", seed=1)
    >>> p.won, len(p.moves) > 30
    (True, True)
    >>> play("monte-carlo", 12345, "greedy", seed=1).won
    False
    """
    if player not in PLAYERS:
        raise PlayerError(f"unknown player {player!r}; choose one of {', '.join(PLAYERS)}")
    if not is_seed(seed):
        raise PlayerError(f"a seed is a whole number or text, not {seed!r}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MOST_SAMPLES:
        raise PlayerError(f"samples is a whole number from 1 to {MOST_SAMPLES:,}; not {samples!r}")
    checked_limits(time_limit=sample_seconds)
    checked_limits(time_limit=time_limit)
    start = source if isinstance(source, Position) else position(game, source, rules)
    started = time.perf_counter()
    clock = Clock(started, time_limit)
    try:
        if player == "perfect":
            moves = _perfect(start, time_limit)
        elif player == "no-peek":
            moves = _blind(start, NoPeek(start.deal.game, start.deal.rules, seed, samples, sample_seconds), clock)
        else:
            moves = _at_random(start, random.Random(f"{seed}/{player}"), player == "greedy", clock)
    except Unfinished as cut:
        moves, reason = cut.args
        return Played(player, start, Line(played(start, moves).moves[len(start.moves) :]), False, time.perf_counter() - started, seed, reason)
    end = played(start, moves)
    return Played(player, start, Line(end.moves[len(start.moves) :]), end.seen.cards_left() == 0, time.perf_counter() - started, seed)


class Unfinished(Exception):
    """A game the time limit ended before it was decided: args are (moves so far, reason)."""


@dataclass(frozen=True)
class Clock:
    """The time limit of a whole game."""

    started: float
    seconds: float | None

    def left(self) -> float | None:
        """Seconds left, 0 at the least; None with no limit."""
        return None if self.seconds is None else max(0.0, self.started + self.seconds - time.perf_counter())

    def check(self, moves: list[Any]) -> None:
        """Unfinished, past the limit."""
        if self.left() == 0:
            raise Unfinished(moves, f"{limit_reached('time_limit', Limits(time_limit=self.seconds))} after {len(moves):,} moves")


def _at_random(start: Position, rng: random.Random, greedy: bool, clock: Clock) -> list[Any]:
    chosen, here, moves = start.deal, start, list[Any]()
    game, rules = chosen.game, chosen.rules
    while here.seen.cards_left():
        clock.check(moves)
        options = game.choices(rules, chosen.cards, here.seen)
        if not options:
            break
        if greedy:
            options = [c for c in options if game.takes_cards(c)] or options
        choice = list(rng.choice(options))
        moves += choice
        here = played(here, choice)
    return moves


def _perfect(start: Position, seconds: float | None) -> list[Any]:
    """The solver's line; where it proves there is none, the first choice each time, to the
    end; where its search was cut short, Unfinished with no move played."""
    chosen = start.deal
    answer = chosen.game.solve_from(chosen.rules, chosen.cards, start.seen, Limits(time_limit=seconds))
    if answer.verdict == Verdict.WON:
        return list(answer.moves)
    if answer.verdict == Verdict.UNKNOWN:
        raise Unfinished([], f"the solver did not decide the deal: {answer.reason}")
    here, moves = start, []
    while options := chosen.game.choices(chosen.rules, chosen.cards, here.seen):
        moves += list(options[0])
        here = played(here, list(options[0]))
    return moves


def _blind(start: Position, policy: NoPeek, clock: Clock) -> list[Any]:
    """A game where the policy sees nothing but `Game.visible` of each position."""
    chosen, here, moves = start.deal, start, list[Any]()
    while here.seen.cards_left():
        clock.check(moves)
        policy.clock = clock
        choice = policy.choose(chosen.game.visible(chosen.rules, here.seen))
        if choice is None:
            break
        moves += list(choice)
        here = played(here, list(choice))
    return moves


class NoPeek:
    """The no-peek player's policy: it is handed what a player sees, and nothing else."""

    def __init__(self, game: Game, rules: Any, seed: int | str, samples: int, sample_seconds: float | None) -> None:
        self.game, self.rules, self.seed, self.samples = game, rules, seed, samples
        self.limits = Limits(time_limit=sample_seconds)
        self.clock = Clock(time.perf_counter(), None)  # the whole game's, which each search keeps within
        # Whether every choice is solved in every ordering, or only the line's first counts
        # (PySolFC's Matrimony: each search costs a good part of a second).
        self.each_choice = not (game.name == "matrimony" and rules.shifts)
        self.plan: list[tuple[Any, ...]] = []  # once nothing is hidden: the rest of a winning line
        self.expect: Any = None  # the view the plan's next choice is for

    def choose(self, view: Any) -> tuple[Any, ...] | None:
        """The choice to play in this view; None when there is none."""
        game, rules = self.game, self.rules
        hidden = game.unseen(rules, view)
        if self.plan and view == self.expect:
            return self._next_of_plan(view)
        stocks = self.orderings(view, hidden)
        cards, seen = game.imagined(rules, view, stocks[0])
        options = game.choices(rules, cards, seen)
        if len(options) <= 1:
            return options[0] if options else None
        wins = [0] * len(options)
        for stock in stocks:
            cards, seen = game.imagined(rules, view, stock)
            here = game.solve_from(rules, cards, seen, self._limits())
            if here.verdict == Verdict.LOST:
                continue
            if not hidden and here.verdict == Verdict.WON:  # nothing hidden: the line is the plan
                return self._follow(view, cards, seen, here.moves)
            first = starting_choice(options, here.moves) if here.verdict == Verdict.WON else None
            for i, option in enumerate(options):
                if i == first or (self.each_choice and self._wins_after(cards, seen, option)):
                    wins[i] += 1
        return options[max(range(len(options)), key=lambda i: (wins[i], -i))]

    def _wins_after(self, cards: list[Card], seen: Any, option: tuple[Any, ...]) -> bool:
        game, rules = self.game, self.rules
        for move in option:
            seen = game.after(rules, seen, move)
        if seen.cards_left() == 0:
            return True
        return game.solve_from(rules, cards, seen, self._limits()).verdict == Verdict.WON

    def _limits(self) -> Limits:
        """A search's limits: its own, within what is left of the game's time."""
        left, own = self.clock.left(), self.limits.time_limit
        if left is None or (own is not None and own <= left):
            return self.limits
        return Limits(time_limit=left)

    def _follow(self, view: Any, cards: list[Card], seen: Any, line: Sequence[Any]) -> tuple[Any, ...]:
        """With nothing hidden, a winning line is a plan: its choices, one a decision."""
        self.plan, rest, here = [], list(line), seen
        while rest:
            offered = self.game.choices(self.rules, cards, here)
            n = starting_choice(offered, rest)
            step = tuple(rest[: len(offered[n])]) if n is not None else tuple(rest[:1])
            self.plan.append(step)
            for move in step:
                here = self.game.after(self.rules, here, move)
            rest = rest[len(step) :]
        return self._next_of_plan(view)

    def _next_of_plan(self, view: Any) -> tuple[Any, ...]:
        step = self.plan.pop(0)
        _, seen = self.game.imagined(self.rules, view, ())
        for move in step:
            seen = self.game.after(self.rules, seen, move)
        self.expect = self.game.visible(self.rules, seen)
        return step

    def orderings(self, view: Any, hidden: list[Card]) -> list[tuple[Card, ...]]:
        """The orderings of the hidden cards this decision weighs: all distinct ones when
        they are no more than the sample, else a sample drawn from the seed and the view."""
        by_rank = self.game.name == "monte-carlo"  # suits never matter there
        kinds = [c.rank for c in hidden] if by_rank else list(hidden)
        counts = Counter(kinds).values()
        distinct = math.factorial(len(hidden)) // math.prod(math.factorial(k) for k in counts)
        if distinct <= self.samples:
            if not by_rank:
                return list(_arrangements(hidden))
            cards_of = {c.rank: sorted(d for d in hidden if d.rank == c.rank) for c in hidden}
            return [_with_suits(ranks, cards_of) for ranks in _arrangements(sorted(c.rank for c in hidden))]
        rng = random.Random(f"{self.seed}|{view!r}")
        out = []
        for _ in range(self.samples):
            order = list(hidden)
            rng.shuffle(order)
            out.append(tuple(order))
        return out


def _arrangements(items: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    """Every distinct ordering of a multiset (items sorted), each once."""
    if not items:
        yield ()
        return
    for i, item in enumerate(items):
        if i and items[i - 1] == item:
            continue
        for rest in _arrangements([*items[:i], *items[i + 1 :]]):
            yield (item, *rest)


def _with_suits(ranks: Sequence[int], cards_of: dict[int, list[Card]]) -> tuple[Card, ...]:
    """Cards for a sequence of ranks: each rank's cards in a fixed order."""
    used = Counter[int]()
    out = []
    for r in ranks:
        out.append(cards_of[r][used[r]])
        used[r] += 1
    return tuple(out)

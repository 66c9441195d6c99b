"""What every game offers the CLI and the batch tools: one small protocol, one registry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..basics.cards import Card
from ..basics.numbering import GameNumber
from ..search.exhaustive import Limits, Outcome, Verdict


@dataclass(frozen=True)
class Answer:
    """A game solver's answer for one deal: the verdict, a win's primitive moves, and the cost
    (not yet replayed: `pipeline.solve` does that)."""

    verdict: Verdict
    moves: Sequence[Any] = ()  # the game's own move values (a `lines.CodedLine` makes them when read)
    states: int = 0
    seconds: float = 0.0
    reason: str = ""  # why the verdict is `unknown`
    found_by: str = ""  # which of a game's searches found the win, when it tries several
    limit: str | None = None  # when `unknown`: the field of Limits that ended it, if one did
    proof: str = ""  # when `lost`: how the loss was proven (`loss_proof`)
    playouts: int = 0  # the games searches by playouts played out, beside the states held


SEARCHED = "every reachable position was searched"


def loss_proof(space: Any) -> str:
    """How a search of `space` that ended `lost` proved it, in words: the start alone, when
    a dead-end test of the space rules it lost (its `why_lost_at_start`), else every
    reachable position searched, naming the tests that cut some (its `dead_tests`)."""
    why_at_start = getattr(space, "why_lost_at_start", None)
    why = why_at_start() if why_at_start is not None else None
    if why:
        return f"the start alone proves it, with no move searched: {why}"
    tests = getattr(space, "dead_tests", "")
    if tests:
        return f"no line wins; {SEARCHED}, or proven lost by {tests}"
    return f"no line wins; {SEARCHED}"


def proven(space: Any, out: Outcome) -> str:
    """`loss_proof(space)` for a search that ended lost; nothing for any other."""
    return loss_proof(space) if out.verdict == Verdict.LOST else ""


EXACT_LABEL = "exact search"  # how progress, and a solver that tries several searches, name the exact one

# Told as each of a solver's searches starts: (its index in the solver's order, searches in
# all, its label). The ones before it ran, or were skipped when a limit ran out; a win ends
# the solve, so the last one told need not be the last in the order.
Progress = Callable[[int, int, str], None]


def no_progress(index: int, total: int, label: str) -> None:
    """The `Progress` of a caller that asked for none."""


CHECKPOINT_SECONDS = 600.0  # how often a checkpoint is written: ten minutes of work at risk


@dataclass(frozen=True)
class Checkpoint:
    """Where a long search keeps what it has done, so that a later run goes on from there,
    and how often it writes it (at the first point it can, once `every` seconds have
    passed since the last time)."""

    path: Path
    every: float = CHECKPOINT_SECONDS


def starting_choice(options: Sequence[Sequence[Any]], line: Sequence[Any]) -> int | None:
    """The index of the choice among `options` (each a choice's raw moves, as
    `Game.choices` gives them) that the raw moves of `line` start with, if any."""
    for i, option in enumerate(options):
        if list(line[: len(option)]) == list(option):
            return i
    return None


@dataclass(frozen=True)
class Replay:
    """The referee's answer for a list of moves: a legal win or the first problem."""

    won: bool
    moves_played: int
    problem: str


class Game(Protocol):
    """A patience game: its rule sets, its deals, its solver, its referee and its notation."""

    name: str  # as typed on the command line, e.g. "monte-carlo"
    title: str
    rule_sets: dict[str, Any]
    default_rules: str

    def decks(self, rules: Any) -> int: ...

    def numbered_deal(self, rules: Any, number: str | GameNumber) -> list[Card]: ...

    def check_deal(self, rules: Any, cards: Sequence[Card]) -> list[Card]: ...

    def solve(
        self, rules: Any, cards: Sequence[Card], limits: Limits, progress: Progress | None = None, checkpoint: Checkpoint | None = None
    ) -> Answer:
        """The solver's answer for a deal. With `checkpoint`, a solver that keeps checkpoints
        (`why_no_checkpoints`) writes its long search's work there and goes on from what is
        there; one that keeps none is never given one (`pipeline.solve` refuses it)."""
        ...

    def why_no_checkpoints(self, rules: Any) -> str:
        """Why `solve` under these rules cannot keep a checkpoint, in words; "" when it can."""
        ...

    def referee(self, rules: Any, cards: Sequence[Card], moves: Sequence[Any]) -> Replay: ...

    def move_text(self, rules: Any, move: Any) -> str: ...

    def parse_move_text(self, rules: Any, text: str) -> Any: ...

    def move_json(self, move: Any) -> dict: ...

    def parse_move_json(self, obj: Any) -> Any: ...

    def board(self, rules: Any, cards: Sequence[Card]) -> str: ...

    def boards(self, rules: Any, cards: Sequence[Card], moves: Sequence[Any]) -> list[str]: ...

    def player(self, rules: Any, cards: Sequence[Card], seen: Any = None) -> Any:
        """The deal's primitive play as `wedlock.search.state_graph.Play`, for the state-graph analysis
        (from the position `seen` when given)."""
        ...

    # A game under way: positions as a player sees them (the referee's tables).

    def opening(self, rules: Any, cards: Sequence[Card]) -> Any:
        """The position a player sees before the first move."""
        ...

    def after(self, rules: Any, seen: Any, move: Any) -> Any:
        """The position after a move; an IllegalMoveError says why it cannot be made."""
        ...

    def board_of(self, rules: Any, seen: Any) -> str:
        """A position drawn as text, the stock's cards included."""
        ...

    def position_text(self, rules: Any, seen: Any) -> str:
        """A position as a player sees it in PySolFC, in the form `parse_position` reads."""
        ...

    def parse_position(self, rules: Any, cards: Sequence[Card], text: str) -> Any:
        """A position typed from the screen, checked against the deal (PositionError)."""
        ...

    def solve_from(
        self,
        rules: Any,
        cards: Sequence[Card],
        seen: Any,
        limits: Limits,
        progress: Progress | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> Answer:
        """The solver's answer from a position of a game under way (`checkpoint` as for `solve`)."""
        ...

    def choices(self, rules: Any, cards: Sequence[Card], seen: Any) -> list[tuple[Any, ...]]:
        """A player's legal choices in a position, each the moves it makes (a PySolFC
        Matrimony play comes with the shifts it needs)."""
        ...

    def visible(self, rules: Any, seen: Any) -> Any:
        """What a PySolFC player sees of a position: all of it but the stock's order."""
        ...

    def unseen(self, rules: Any, view: Any) -> list[Card]:
        """The cards a player cannot see (the stock's), sorted."""
        ...

    def imagined(self, rules: Any, view: Any, stock: Sequence[Card]) -> tuple[list[Card], Any]:
        """A deal and a position that look like `view`, with this order of the stock."""
        ...

    def takes_cards(self, choice: Sequence[Any]) -> bool:
        """Whether a choice takes cards out of play (what a greedy player prefers)."""
        ...

    def layout(self, rules: Any, seen: Any) -> dict[str, Any]:
        """A position as the page (`pictures/page.py`) draws it: JSON-ready, cards as text."""
        ...

    def touches(self, rules: Any, seen: Any, move: Any) -> list[dict[str, Any]]:
        """The places whose cards a move is about to move, for the page to mark."""
        ...

    def same_position(self, rules: Any, cards: Sequence[Card], a: Any, b: Any) -> bool:
        """Whether two positions are one for the game (the order cards left it aside)."""
        ...

"""The one way a deal is solved: deal it, search it, replay every win through the
independent referee, and say the answer as text, JSON or a results line.

`wedlock solve`, `wedlock batch` and the Python API all go through `solve` here, so a win
never reaches a user (or a results file) without the referee's word on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .cards import Card
from .deals import checked_cards, parse_deal_text, read_deal_file
from .errors import DealError, GameNumberError, WedlockError
from .game import Game, Progress, Replay
from .games import game_named, rules_of
from .lines import Line, Move
from .movefile import named_in, parse_moves
from .numbering import GameNumber
from .search import Limits, Verdict
from .words import counted

DEFAULT_MAX_STATES = Limits().max_states


class SolverFault(RuntimeError):
    """The referee rejected a line the solver called a win: a bug, never bad input."""


@dataclass(frozen=True)
class Deal:
    """A deal of a game under a rule set: its cards in dealing order, and its PySolFC game
    number when it has one."""

    game: Game
    rules: Any
    cards: tuple[Card, ...]
    number: str | None = None  # canonical (`ms7` is game 7); None for a deal given card by card

    @property
    def title(self) -> str:
        """The game and rule set in a player's words: `Weddings (PySolFC)`."""
        return self.rules.title

    @property
    def label(self) -> str:
        """`game 12345`, or what stands for a deal given card by card."""
        return f"game {self.number}" if self.number else "a deal given card by card"

    def board(self) -> str:
        """The layout and the stock, as text."""
        return self.game.board(self.rules, self.cards)

    def to_json(self) -> dict[str, Any]:
        """What `deal --json` prints; its `cards` read back as the same deal."""
        return {**self._names(), "cards": [str(c) for c in self.cards]}

    def _names(self) -> dict[str, Any]:
        return {"game": self.game.name, "rules": self.rules.name, "title": self.title, "game_number": self.number}

    def __str__(self) -> str:
        return f"{self.title}, {self.label}\n{self.board()}"


DealSource = int | str | GameNumber | Sequence[Card | str] | Deal


def deal(game: str | Game, source: DealSource, rules: str | None = None) -> Deal:
    """The deal of `game` that `source` names: a PySolFC game number (`12345`, `"ms7"`),
    the cards in dealing order (`Card`s, or their text, as a list or one string), or a
    `Deal` (dealt again under `rules` when they are given).

    >>> d = deal("monte-carlo", 12345)
    >>> d.title, d.number, len(d.cards), str(d.cards[0])
    ('Monte Carlo (PySolFC)', '12345', 52, 'QC')
    >>> deal("matrimony", 1).title
    'Matrimony (PySolFC)'
    """
    chosen = game if not isinstance(game, str) else game_named(game)
    if isinstance(source, Deal):
        if source.game is not chosen:
            raise DealError(f"that is a deal of {source.game.name}, not of {chosen.name}")
        if rules is None or rules_of(chosen, rules) is source.rules:
            return source
        return Deal(chosen, rules_of(chosen, rules), tuple(_checked(chosen, rules_of(chosen, rules), source.cards)), source.number)
    rule_set = rules_of(chosen, rules)
    number = _number_in(source)
    if number is not None:
        canonical = str(number)
        return Deal(chosen, rule_set, tuple(chosen.numbered_deal(rule_set, canonical)), canonical)
    if isinstance(source, str):
        cards = parse_deal_text(source, chosen.decks(rule_set))
    else:
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in source]  # type: ignore[union-attr]
    return Deal(chosen, rule_set, tuple(_checked(chosen, rule_set, cards)), None)


def deal_from_file(game: str | Game, path: str | Path, rules: str | None = None) -> Deal:
    """The deal in a deal file (the cards in dealing order; see `deals`)."""
    chosen = game if not isinstance(game, str) else game_named(game)
    rule_set = rules_of(chosen, rules)
    cards = read_deal_file(path, chosen.decks(rule_set))
    return Deal(chosen, rule_set, tuple(_checked(chosen, rule_set, cards)), None)


def _number_in(source: Any) -> GameNumber | None:
    """The game number `source` is, if it is one (a string of cards is not)."""
    if isinstance(source, GameNumber):
        return source
    if isinstance(source, bool):
        raise GameNumberError(f"bad game number {source!r}")
    if isinstance(source, int):
        return GameNumber.parse(str(source))
    if isinstance(source, str):
        if len(source.replace(",", " ").split()) > 3:  # a deal's cards, not `#1 234`
            return None
        return GameNumber.parse(source)
    return None


def _checked(game: Game, rules: Any, cards: Sequence[Card]) -> list[Card]:
    return game.check_deal(rules, checked_cards(list(cards), game.decks(rules)))


@dataclass(frozen=True)
class Solution:
    """The answer for one deal: the verdict, a win's moves (replayed by the referee), and
    what the search cost."""

    deal: Deal
    verdict: Verdict
    moves: Line = field(default_factory=Line)
    states: int = 0  # distinct canonical states the search kept
    seconds: float = 0.0
    reason: str = ""  # why the verdict is `unknown`: the limit that cut the search short
    found_by: str = ""  # which of the solver's searches won, when it tries several

    def summary(self) -> str:
        """One line: the verdict and what the search cost."""
        cost = f"{counted(self.states, 'state')}, {self.seconds:,.2f} s"
        if self.verdict == Verdict.WON:
            by = f"; found by the {self.found_by}" if self.found_by else ""
            return f"won in {counted(len(self.moves), 'move')} ({cost}{by})"
        if self.verdict == Verdict.LOST:
            return f"lost: no line wins; every reachable position was searched ({cost})"
        return f"unknown: {self.reason} ({cost})"

    def to_json(self) -> dict[str, Any]:
        """What `solve --json` prints."""
        data = {
            **self.deal._names(),
            "verdict": self.verdict.value,
            "moves": self.moves.to_json(),
            "states": self.states,
            "seconds": round(self.seconds, 4),
        }
        data.update(self._extras())
        data["version"] = __version__
        return data

    def record(self, solutions: bool = False) -> dict[str, Any]:
        """The line `batch` writes for this deal (see `records`): `moves` is the length of
        the winning line; with `solutions`, `solution` holds the moves themselves."""
        data: dict[str, Any] = {
            "game": self.deal.game.name,
            "rules": self.deal.rules.name,
            "game_number": self.deal.number,
            "verdict": self.verdict.value,
            "moves": len(self.moves),
            "states": self.states,
            "seconds": round(self.seconds, 4),
            "version": __version__,
        }
        data.update(self._extras())
        if solutions and self.verdict == Verdict.WON:
            data["solution"] = self.moves.to_json()
        return data

    def _extras(self) -> dict[str, str]:
        extras = {}
        if self.found_by:
            extras["found_by"] = self.found_by
        if self.verdict == Verdict.UNKNOWN:
            extras["reason"] = self.reason
        return extras


def solve(
    game: str | Game,
    source: DealSource,
    rules: str | None = None,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    max_states: int | None = DEFAULT_MAX_STATES,
    progress: Progress | None = None,
) -> Solution:
    """Decide whether a deal can be won; a win comes with its moves, which the
    independent referee has replayed. `time_limit` (seconds), `node_limit` (states
    generated) and `max_states` (states held) turn a search cut short into `unknown`.
    `progress(index, searches, label)` is told as each of the solver's searches starts.

    >>> result = solve("monte-carlo", 12345)
    >>> result.verdict, len(result.moves) > 0
    (<Verdict.WON: 'won'>, True)
    >>> print(result.moves[0].text())
    A1 QC + B1 QH
    >>> result.moves[0].to_json()
    {'move': 'pair', 'cells': [0, 5], 'cards': ['QC', 'QH']}
    >>> solve("monte-carlo", 3, rules="strict").verdict
    <Verdict.LOST: 'lost'>
    """
    chosen = deal(game, source, rules)
    limits = Limits(node_limit=node_limit, time_limit=time_limit, max_states=max_states)
    answer = chosen.game.solve(chosen.rules, chosen.cards, limits, progress)
    if answer.verdict == Verdict.WON:
        replay = chosen.game.referee(chosen.rules, chosen.cards, answer.moves)
        if not replay.won:
            raise SolverFault(f"{chosen.label}: the referee rejects the solver's line: {replay.problem}")
    moves = Line.of(chosen.game, chosen.rules, answer.moves)
    return Solution(chosen, Verdict(answer.verdict), moves, answer.states, answer.seconds, answer.reason, answer.found_by)


Moves = str | Iterable[Any]


def verify(game: str | Game, source: DealSource, moves: Moves, rules: str | None = None) -> Replay:
    """Replay moves on a deal with the referee: a legal win, or the first problem.
    `moves` is a `Line` (or `Move`s, or a game's own move values), or the text of a moves
    file (what `solve` prints, as text or JSON); a moves file's rule set counts when
    `rules` is None.

    >>> line = solve("monte-carlo", 12345).moves
    >>> verify("monte-carlo", 12345, line).won
    True
    >>> verify("monte-carlo", 12345, line[:-1])
    Replay(won=False, moves_played=42, problem='all 42 moves are legal but 2 cards remain')
    >>> verify("monte-carlo", 12345, line[1:]).problem
    'move 1 (consolidate): the grid has no gap to close'
    """
    chosen_game = game if not isinstance(game, str) else game_named(game)
    if isinstance(moves, str):
        chosen = deal(chosen_game, source, rules if rules is not None else moves_rules(chosen_game, moves))
        raw = parse_moves(chosen.game, chosen.rules, moves).moves
    else:
        chosen = deal(chosen_game, source, rules)
        raw = [m.raw if isinstance(m, Move) else m for m in moves]
    return chosen.game.referee(chosen.rules, chosen.cards, raw)


def moves_rules(game: Game, text: str) -> str | None:
    """The rule set a moves file names, checked against the game's."""
    named = named_in(game, text).rules
    if named is not None and named.lower() not in game.rule_sets:
        raise WedlockError(f"the moves name rules {named!r}, which {game.title} does not have")
    return named

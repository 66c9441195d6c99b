"""The one way a deal is solved: deal it, search it, replay every win through the
independent referee, and say the answer as text, JSON or a results line.

`wedlock solve`, `wedlock batch` and the Python API all go through `solve` here, so a win
never reaches a user (or a results file) without the referee's word on it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..basics.cards import Card
from ..basics.deals import checked_cards, parse_deal_text, read_deal_file
from ..basics.errors import (
    ArgumentError,
    CheckpointError,
    DealError,
    GameNumberError,
    IllegalMoveError,
    LimitError,
    MoveSyntaxError,
    RulesError,
    SavedGameError,
)
from ..basics.input_files import MOST_LINE, UNREADABLE, bounded, read_text, why_unreadable
from ..basics.numbering import GameNumber
from ..basics.printable import printable, shortened
from ..basics.version import __version__
from ..basics.words import counted
from ..games.lines import Line, Move
from ..games.protocol import CHECKPOINT_SECONDS, Checkpoint, Game, Progress, Replay
from ..games.registry import GAMES, game_named, pysolfc_named, rules_of
from ..search.exhaustive import Limits, Verdict
from . import save_formats
from .move_files import MoveList, named_in, parse_moves

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

    def __repr__(self) -> str:
        return f"<Deal {self.title}, {shortened(self.label)}>"


@dataclass(frozen=True)
class Position:
    """A game under way: a deal, the position a player sees in it (the referee's table),
    and the moves that led there from the deal when they are known (a position typed from
    the screen has none). `wedlock.position` makes one."""

    deal: Deal
    seen: Any
    moves: Line = field(default_factory=Line)
    typed: bool = False  # read from its text form rather than reached by moves

    @property
    def label(self) -> str:
        """`game 12345, after 10 moves`, or what stands for a typed position."""
        if self.typed:
            played = f", then {counted(len(self.moves), 'move')}" if self.moves else ""
            return f"{self.deal.label}, a position typed{played}"
        return f"{self.deal.label}, after {counted(len(self.moves), 'move')}"

    def board(self) -> str:
        """The layout and the stock, as text."""
        return self.deal.game.board_of(self.deal.rules, self.seen)

    def text(self) -> str:
        """The position as a player sees it, in the form `wedlock.position(..., text=...)` reads."""
        return self.deal.game.position_text(self.deal.rules, self.seen)

    def __str__(self) -> str:
        return f"{self.deal.title}, {self.label}\n{self.board()}"

    def __repr__(self) -> str:
        return f"<Position {self.deal.title}, {shortened(self.label)}>"

    def _names(self) -> dict[str, Any]:
        names = self.deal._names()
        names["after"] = len(self.moves)
        if self.typed:
            names["position"] = self.text()
        return names


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
    chosen, rule_set = game_and_rules(game, rules)
    if isinstance(source, Deal):
        if source.game is not chosen:
            raise DealError(f"that is a deal of {source.game.name}, not of {chosen.name}")
        named_rules = rules is not None or (isinstance(game, str) and not _is_game_name(game))  # `weddings` names its rules
        if not named_rules or rule_set is source.rules:
            return source
        return Deal(chosen, rule_set, tuple(_checked(chosen, rule_set, source.cards)), source.number)
    if isinstance(source, str):
        bounded(source, "the deal")
    number = _number_in(source)
    if number is not None:
        canonical = str(number)
        return Deal(chosen, rule_set, tuple(chosen.numbered_deal(rule_set, number)), canonical)
    if isinstance(source, str):
        cards = parse_deal_text(source, chosen.decks(rule_set))
    elif isinstance(source, (list, tuple)):
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in source]
    else:
        raise DealError(f"a deal is a game number, a list of cards or a Deal, not {type(source).__name__}")
    return Deal(chosen, rule_set, tuple(_checked(chosen, rule_set, cards)), None)


def game_and_rules(game: str | Game, rules: str | None) -> tuple[Game, Any]:
    """The game and rule set a caller names: the game by its name, or by PySolFC's name of
    one of its games (`weddings`, `Monte Carlo (2 Decks)`), which names the rule set too;
    the rule set by `rules`, which must then agree, else the game's default."""
    if isinstance(game, str) and not _is_game_name(game):
        named = pysolfc_named(game)
        if named is not None:
            chosen, implied = named
            if rules is not None and rules_of(chosen, rules) is not implied:
                raise RulesError(
                    f"{printable(game.strip())} is PySolFC's {implied.pysolfc}: {chosen.name} under its {implied.name} rules, "
                    f"not {rules_of(chosen, rules).name}"
                )
            return chosen, implied
    chosen = game_of(game)
    return chosen, rules_of(chosen, rules)


def _is_game_name(name: str) -> bool:
    try:
        game_named(name)
    except RulesError:
        return False
    return True


def game_of(game: str | Game) -> Game:
    """The game a caller names: its name (any case) or the game itself."""
    if isinstance(game, str):
        return game_named(game)
    if any(game is g for g in GAMES.values()):
        return game
    raise RulesError(f"a game is named by text, like 'monte-carlo', not {type(game).__name__}")


def deal_from_file(game: str | Game, path: str | Path, rules: str | None = None) -> Deal:
    """The deal in a deal file (the cards in dealing order; see `deals`)."""
    if not isinstance(path, (str, Path)):
        raise DealError(f"a deal file is named by its path, not {type(path).__name__}")
    chosen, rule_set = game_and_rules(game, rules)
    cards = read_deal_file(path, chosen.decks(rule_set))
    return Deal(chosen, rule_set, tuple(_checked(chosen, rule_set, cards)), None)


def _number_in(source: Any) -> GameNumber | None:
    """The game number `source` is, if it is one (a string of cards is not)."""
    if isinstance(source, GameNumber):
        return source
    if isinstance(source, bool):
        raise GameNumberError(f"bad game number {source!r}")
    if isinstance(source, int):
        if source.bit_length() > 4000:  # past what Python writes out as digits
            raise GameNumberError("bad game number: too many digits")
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
    line: Sequence[Any] = ()  # a win's moves as the game's own values; `moves` binds them to the game
    states: int = 0  # distinct canonical states the search kept
    seconds: float = 0.0
    reason: str = ""  # why the verdict is `unknown`: the limit that cut the search short
    found_by: str = ""  # which of the solver's searches won, when it tries several
    position: Position | None = None  # the position of a game under way it starts from, if any
    limit: str | None = None  # when `unknown`: the field of Limits that cut the search short, if one did
    proof: str = ""  # when `lost`: how the loss was proven, in words
    playouts: int = 0  # the games searches by playouts played out (their work, beside the states they held)

    @cached_property
    def moves(self) -> Line:
        """A win's moves, each able to say itself (made when first asked for: a batch that
        writes counts never asks)."""
        return Line.of(self.deal.game, self.deal.rules, self.line)

    def summary(self) -> str:
        """One line: the verdict and what the search cost."""
        held = f"{counted(self.states, 'state')} held, {counted(self.playouts, 'playout')}" if self.playouts else counted(self.states, "state")
        cost = f"{held}, {self.seconds:,.2f} s"
        if self.verdict == Verdict.WON:
            by = f"; found by the {self.found_by}" if self.found_by else ""
            return f"won in {counted(len(self.line), 'move')} ({cost}{by})"
        if self.verdict == Verdict.LOST:
            return f"lost: {self.proof or 'no line wins; every reachable position was searched'} ({cost})"
        return f"unknown: {self.reason} ({cost})"

    @property
    def label(self) -> str:
        """What was solved: `game 12345`, or the position of a game under way."""
        return self.deal.label if self.position is None else self.position.label

    def __str__(self) -> str:
        """`Monte Carlo (PySolFC), game 12345: won in 43 moves (...)`."""
        return f"{self.deal.title}, {shortened(self.label)}: {self.summary()}"

    def __repr__(self) -> str:
        return f"<Solution {self.deal.title}, {shortened(self.label)}: {self.verdict.value}, {counted(len(self.line), 'move')}, {counted(self.states, 'state')}>"

    def to_json(self) -> dict[str, Any]:
        """What `solve --json` prints."""
        data = {
            **(self.deal._names() if self.position is None else self.position._names()),
            "verdict": self.verdict.value,
            "moves": self.moves.to_json(),
            "states": self.states,
            "seconds": round(self.seconds, 4),
        }
        data.update(self._extras())
        if self.proof:
            data["proof"] = self.proof
        if self.playouts:
            data["playouts"] = self.playouts
        data["version"] = __version__
        return data

    def to_pysolfc(self, path: str | Path) -> None:
        """Write the win as a game PySolFC saved (`.pso`), of the deal or the position it
        starts from: File > Open shows it there, and Redo plays the win a move at a
        time. A SavedGameError for a deal that is not won, or that PySolFC does not have."""
        if not isinstance(path, (str, Path)):
            raise SavedGameError(f"a file is named by its path, not {type(path).__name__}")
        data = save_formats.writer("pysolfc")(self)
        try:
            with open(path, "wb") as f:
                f.write(data)
        except (OSError, ValueError) as err:
            raise SavedGameError(f"cannot write '{printable(str(path))}': {getattr(err, 'strerror', None) or err}") from None

    def record(self, solutions: bool = False) -> dict[str, Any]:
        """The line `batch` writes for this deal (see `records`): `moves` is the length of
        the winning line; with `solutions`, `solution` holds the moves themselves."""
        data: dict[str, Any] = {
            "game": self.deal.game.name,
            "rules": self.deal.rules.name,
            "game_number": self.deal.number,
            "verdict": self.verdict.value,
            "moves": len(self.line),
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
    source: DealSource | Position,
    rules: str | None = None,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    max_states: int | None = DEFAULT_MAX_STATES,
    progress: Progress | None = None,
    checkpoint: str | Path | None = None,
    checkpoint_every: float = CHECKPOINT_SECONDS,
) -> Solution:
    """Decide whether a deal (or a position of a game under way: `wedlock.position`) can
    be won; a win comes with its moves, which the independent referee has replayed. `time_limit` (seconds), `node_limit` (states
    generated) and `max_states` (states held) turn a search cut short into `unknown`.
    `progress(index, searches, label)` is told as each of the solver's searches starts.

    `checkpoint` (a file's path) lets a long proof of loss stop and go on: under PySolFC's
    Matrimony rules, with the compiled core, the exact search then runs by levels, writes
    its work there every `checkpoint_every` seconds, and a later call with the same path
    goes on from it, without the quick stages, which found nothing before it was written.
    There `max_states` bounds the states the search holds at once, and `node_limit` counts
    the states of every run since the proof began. Any other game refuses a checkpoint.

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
    limits = checked_limits(node_limit=node_limit, time_limit=time_limit, max_states=max_states)
    checked_progress(progress)
    if isinstance(source, Position):
        start: Position | None = source
        chosen = source.deal
        _check_same_rules(game, source, rules)
        keeping = _keeping(chosen, checkpoint, checkpoint_every)
        answer = chosen.game.solve_from(chosen.rules, chosen.cards, source.seen, limits, progress, **keeping)
    else:
        start = None
        chosen = deal(game, source, rules)
        keeping = _keeping(chosen, checkpoint, checkpoint_every)
        answer = chosen.game.solve(chosen.rules, chosen.cards, limits, progress, **keeping)
    if answer.verdict == Verdict.WON:
        if start is None:
            replay = chosen.game.referee(chosen.rules, chosen.cards, answer.moves)
        else:
            replay = replay_from(start, answer.moves)
        if not replay.won:
            where = chosen.label if start is None else start.label
            raise SolverFault(f"{where}: the referee rejects the solver's line: {replay.problem}")
    return Solution(
        chosen, Verdict(answer.verdict), answer.moves, answer.states, answer.seconds, answer.reason, answer.found_by, start, answer.limit, answer.proof, answer.playouts
    )


def _check_same_rules(game: str | Game, start: Position, rules: str | None) -> None:
    """A position is played under its deal's rules: `rules`, when given, must name them."""
    if rules is not None and rules_of(game_of(game), rules) is not start.deal.rules:
        raise RulesError("a position is played under its deal's rules")


def checked_progress(progress: Any) -> None:
    """A progress callback is a callable or None."""
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress is a function called as each search starts, or None; not {type(progress).__name__}")


def _keeping(chosen: Deal, path: Any, every: Any) -> dict[str, Checkpoint]:
    """The checkpoint argument of a game's solve, when there is one (a game's solve written
    before checkpoints, as a test's stand-in may be, is called as it was)."""
    checkpoint = checked_checkpoint(chosen, path, every)
    return {} if checkpoint is None else {"checkpoint": checkpoint}


def checked_checkpoint(chosen: Deal, path: Any, every: Any) -> Checkpoint | None:
    """The checkpoint a caller gave, checked: a file's path in a folder that is there,
    `every` seconds 0 or more, for a game and rule set that keep checkpoints; None for none."""
    if path is None:
        return None
    if isinstance(every, bool) or not isinstance(every, (int, float)) or not 0 <= every < math.inf:
        raise CheckpointError(f"checkpoint_every is a number of seconds, 0 or more; not {every!r}")
    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(name, str):
        raise CheckpointError(f"a checkpoint is named by its path, not {type(path).__name__}")
    shown = printable(name)
    if not name.strip() or "\0" in name:
        raise CheckpointError(f"'{shown}' cannot name a checkpoint file")
    why = chosen.game.why_no_checkpoints(chosen.rules)
    if why:
        raise CheckpointError(why)
    try:
        os.fsencode(name)
        where = Path(name)
        if where.is_dir():
            raise CheckpointError(f"{shown} is a folder; a checkpoint is a file")
        if not where.parent.is_dir():
            raise CheckpointError(f"no folder {printable(str(where.parent))} to keep the checkpoint {shown} in")
    except (OSError, UnicodeError) as err:
        raise CheckpointError(f"cannot keep a checkpoint at {shown}: {getattr(err, 'strerror', None) or err}") from None
    return Checkpoint(where, float(every))


def checked_limits(node_limit: int | None = None, time_limit: float | None = None, max_states: int | None = None) -> Limits:
    """Limits a caller gave, checked: seconds 0 or more, counts 1 or more, or None."""
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit >= 0):
        raise LimitError(f"a time limit is a number of seconds, 0 or more, or None; not {time_limit!r}")
    for name, count in (("node_limit", node_limit), ("max_states", max_states)):
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
            raise LimitError(f"{name} is a whole number, 1 or more, or None; not {count!r}")
    return Limits(node_limit=node_limit, time_limit=None if time_limit is None else float(time_limit), max_states=max_states)


Moves = str | Path | Iterable[Any]


def verify(game: str | Game, source: DealSource | Position, moves: Moves, rules: str | None = None) -> Replay:
    """Replay moves on a deal with the referee: a legal win, or the first problem.
    `moves` is a `Line` (or a list of `Move`s, their text or JSON forms, or a game's own
    move values), a `Solution`, the text of a moves file (what `solve` prints, as text or
    JSON), or the `Path` of one; a moves file's rule set counts when `rules` is None.

    >>> line = solve("monte-carlo", 12345).moves
    >>> verify("monte-carlo", 12345, line).won
    True
    >>> verify("monte-carlo", 12345, line[:-1])
    Replay(won=False, moves_played=42, problem='all 42 moves are legal but 2 cards remain')
    >>> verify("monte-carlo", 12345, line[1:]).problem
    'move 1 (consolidate): the grid has no gap to close'
    """
    chosen_game = game_of(game)
    moves = _as_text_or_list(moves)
    if isinstance(source, Position):
        _check_same_rules(chosen_game, source, rules)
        return replay_from(source, read_moves(source.deal, moves, len(source.moves)))
    if isinstance(moves, str) and rules is None:
        rules = moves_rules(chosen_game, moves)
    chosen = deal(chosen_game, source, rules)
    return chosen.game.referee(chosen.rules, chosen.cards, read_moves(chosen, moves))


def _as_text_or_list(moves: Any) -> str | list | tuple:
    """Moves as text (a moves file's) or a list; a Solution gives its line, a Path its text."""
    if isinstance(moves, Solution):
        return moves.moves
    if isinstance(moves, Path):
        try:
            return read_text(moves)
        except UNREADABLE as err:
            raise MoveSyntaxError(f"cannot read moves file '{printable(str(moves))}': {why_unreadable(err)}") from None
    if isinstance(moves, str):
        return bounded(moves, "the moves")
    if not isinstance(moves, (list, tuple)):
        raise MoveSyntaxError(f"moves are a list of moves or the text of a moves file, not {type(moves).__name__}")
    return moves


def read_moves(chosen: Deal, moves: Any, played: int = 0) -> list[Any]:
    """A game's own move values from moves in any form `verify` takes, checked against
    what a moves file says of its game and deal (its numbers may go on from `played`
    moves already played)."""
    moves = _as_text_or_list(moves)
    if isinstance(moves, str):
        found = parse_moves(chosen.game, chosen.rules, moves, played)
        check_moves_fit(found, chosen)
        return found.moves
    return [_raw_move(chosen, m) for m in moves]


def illegal(chosen: Deal, number: int, move: Any, err: IllegalMoveError) -> str:
    """`move 7 (B2 4S + B3 4D): B3 holds 4C, not 4D`, from the referee's refusal."""
    text, problem = chosen.game.move_text(chosen.rules, move), str(err)
    return f"move {number} ({text}): {problem.removeprefix(text + ': ')}"


def replay_from(start: Position, moves: Sequence[Any]) -> Replay:
    """The referee's word on moves played from a position of a game under way."""
    game, rules, seen = start.deal.game, start.deal.rules, start.seen
    for number, move in enumerate(moves, 1):
        try:
            seen = game.after(rules, seen, move)
        except IllegalMoveError as err:
            return Replay(False, number - 1, illegal(start.deal, number, move, err))
    left = seen.cards_left()
    if left:
        return Replay(False, len(moves), f"{counted(len(moves), 'move')} legal, but {counted(left, 'card')} left")
    return Replay(True, len(moves), "")


def _raw_move(chosen: Deal, move: Any) -> Any:
    """A game's own move value from a `Move`, its text or its JSON form."""
    if isinstance(move, Move):
        if move.game is not chosen.game:
            raise MoveSyntaxError(f"a move of {move.game.name} given for {chosen.game.name}")
        return move.raw
    if isinstance(move, str):
        if len(move) > MOST_LINE:
            raise MoveSyntaxError(f"a move of {len(move):,} characters: none is longer than {MOST_LINE:,}")
        return chosen.game.parse_move_text(chosen.rules, move)
    if isinstance(move, dict):
        return chosen.game.parse_move_json(move)
    as_json = getattr(move, "to_json", None)  # a game's own move value: checked by its JSON form
    if as_json is None:
        raise MoveSyntaxError(f"not a move: {move!r}")
    return chosen.game.parse_move_json(as_json())


def check_moves_fit(found: MoveList, chosen: Deal) -> None:
    """That moves read from a file are for this game and deal, as far as the file says."""
    if found.game is not None and found.game != chosen.game.name:
        raise MoveSyntaxError(f"these are moves of {printable(found.game)}, not {chosen.game.name}")
    if found.game_number is not None and chosen.number is not None:
        if str(GameNumber.parse(found.game_number)) != chosen.number:  # `ms1`, `#1` and `1` are one game
            raise MoveSyntaxError(f"these are moves of game {printable(found.game_number)}, not {chosen.number}")


def moves_rules(game: Game, text: str) -> str | None:
    """The rule set a moves file names, checked against the game's (and the file's game
    against `game`)."""
    named = named_in(game, text)
    if named.game is not None and named.game != game.name:
        raise MoveSyntaxError(f"these are moves of {printable(named.game)}, not {game.name}")
    if named.rules is not None and named.rules not in game.rule_sets:
        raise MoveSyntaxError(f"the moves name rules {named.rules!r}, which {game.title} does not have")
    return named.rules

"""Reading a list of moves: the JSON that `solve --json` prints, or the text notation.

Text: one move a line. When some lines are numbered (`12. B3 QS + C4 QH`), only the
numbered lines are moves and every other line is commentary, so the whole output of
`wedlock solve` (headers, boards) replays as it is. Otherwise every line that is not blank
and does not start with `#` is a move. The header `solve` prints first (`# Weddings
(PySolFC), game 617`) names the rule set and the game number.

JSON: a list of moves, or an object holding one as `moves` (what `solve --json` prints) or
as `solution` (a line of `batch --solutions`), with the `game`, `rules` and `game_number`
it names.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .errors import MoveSyntaxError
from .game import Game
from .games import rules_titled

_NUMBERED = re.compile(r"^\s*[0-9]+[.)]\s")
_HEADER = re.compile(r"#\s*(?P<title>.*?)(?:,\s*game\s+(?P<number>\S+?))?\s*$")


@dataclass(frozen=True)
class MoveList:
    """Moves read from a file, with what the file says about the deal, if anything."""

    moves: list
    rules: str | None = None
    game_number: str | None = None
    game: str | None = None


def parse_moves(game: Game, rules: Any, text: str) -> MoveList:
    """Read moves for `game` under `rules` from JSON or text; MoveSyntaxError names the bad line."""
    body = text.strip()
    if body.startswith(("{", "[")):
        return _parse_json(game, body)
    header = named_in(game, text)
    lines = text.splitlines()
    numbered = any(_NUMBERED.match(line) for line in lines)
    moves = []
    for line_no, line in enumerate(lines, 1):
        stripped = line.strip()
        if numbered and not _NUMBERED.match(line):
            continue
        if not stripped or stripped.startswith("#"):
            continue
        try:
            moves.append(game.parse_move_text(rules, stripped))
        except MoveSyntaxError as err:
            raise MoveSyntaxError(f"line {line_no}: {err}") from None
    return MoveList(moves, rules=header.rules, game_number=header.game_number)


def named_in(game: Game, text: str) -> MoveList:
    """The rule set and game number a moves file names (no moves read): a JSON file's
    `rules` and `game_number`, or what the header of `solve`'s text output says."""
    body = text.strip()
    if body.startswith("{"):
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return MoveList([])  # parse_moves says what is wrong with it
        if isinstance(data, dict):
            number = data.get("game_number")
            rules = data.get("rules") if isinstance(data.get("rules"), str) else None
            return MoveList([], rules, None if number is None else str(number))
        return MoveList([])
    for line in text.splitlines():
        match = _HEADER.fullmatch(line.strip()) if line.lstrip().startswith("#") else None
        found = rules_titled(game, match.group("title")) if match else None
        if found is not None:
            return MoveList([], found.name, match.group("number") if match else None)
        if line.strip() and not line.lstrip().startswith("#"):
            break  # the header comes before the first move
    return MoveList([])


def _parse_json(game: Game, body: str) -> MoveList:
    try:
        data = json.loads(body)
    except json.JSONDecodeError as err:
        raise MoveSyntaxError(f"not valid JSON: {err.msg} at line {err.lineno}") from None
    except (ValueError, RecursionError):  # what Python's reader refuses beyond the syntax
        raise MoveSyntaxError("not JSON this reads: a number too long or lists nested too deep") from None
    meta: dict[str, Any] = {}
    if isinstance(data, dict):
        meta = data
        if isinstance(data.get("moves"), list):
            data = data["moves"]
        elif isinstance(data.get("solution"), list):
            data = data["solution"]
        elif "verdict" in data:
            raise MoveSyntaxError("this result holds no moves: only a won deal's line has them (batch --solutions)")
        else:
            raise MoveSyntaxError('a JSON moves file needs a "moves" list')
    if not isinstance(data, list):
        raise MoveSyntaxError("a JSON moves file is a list of moves or an object with a \"moves\" list")
    moves = []
    for i, obj in enumerate(data, 1):
        try:
            moves.append(game.parse_move_json(obj))
        except MoveSyntaxError as err:
            raise MoveSyntaxError(f"move {i}: {err}") from None
    number = meta.get("game_number")
    return MoveList(
        moves,
        rules=meta.get("rules") if isinstance(meta.get("rules"), str) else None,
        game_number=None if number is None else str(number),
        game=meta.get("game") if isinstance(meta.get("game"), str) else None,
    )

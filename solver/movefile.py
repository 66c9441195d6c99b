"""Reading a list of moves: the JSON that `solve --json` prints, or the text notation.

Text: one move a line. When some lines are numbered (`12. B3 QS + C4 QH`), only the
numbered lines are moves and every other line is commentary, so the whole output of
`wedlock solve` (headers, boards) replays as it is. Otherwise every line that is not blank
and does not start with `#` is a move.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .errors import MoveSyntaxError
from .game import Game

_NUMBERED = re.compile(r"^\s*[0-9]+[.)]\s")


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
    return MoveList(moves)


def _parse_json(game: Game, body: str) -> MoveList:
    try:
        data = json.loads(body)
    except json.JSONDecodeError as err:
        raise MoveSyntaxError(f"not valid JSON: {err.msg} at line {err.lineno}") from None
    except (ValueError, RecursionError):  # what Python's reader refuses beyond the syntax
        raise MoveSyntaxError("not JSON this reads: a number too long or lists nested too deep") from None
    meta: dict[str, Any] = {}
    if isinstance(data, dict):
        if not isinstance(data.get("moves"), list):
            raise MoveSyntaxError('a JSON moves file needs a "moves" list')
        meta = data
        data = data["moves"]
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

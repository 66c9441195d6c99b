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

from ..basics.errors import MoveSyntaxError
from ..games.protocol import Game
from ..games.registry import GAMES, plain_name, rules_titled

_NUMBERED = re.compile(r"\s*+([0-9]++)[.)]\s")
_GAME_NUMBER = re.compile(r",\s*+game\s++([^,\s]++)")  # in a header: `# Weddings (PySolFC), game 617, after 3 moves`


@dataclass(frozen=True)
class MoveList:
    """Moves read from a file, with what the file says about the deal, if anything."""

    moves: list
    rules: str | None = None
    game_number: str | None = None
    game: str | None = None


def parse_moves(game: Game, rules: Any, text: str, played: int = 0) -> MoveList:
    """Read moves for `game` under `rules` from JSON or text; MoveSyntaxError names the bad line.

    Numbered moves count from 1, or, after `played` moves already played, may go on from
    there (`11.` after ten moves: the rest of a line copied from `solve`'s output)."""
    body = text.strip()
    if body.startswith(("{", "[")):
        return _parse_json(game, body)
    header = named_in(game, text)
    lines = text.splitlines()
    numbered = any(_NUMBERED.match(line) for line in lines)
    moves: list[Any] = []
    first = 1  # the number the first numbered move has
    for line_no, line in enumerate(lines, 1):
        stripped = line.strip()
        number = _NUMBERED.match(line)
        if numbered and not number:
            if stripped and not stripped.startswith("#") and _reads_as_move(game, rules, stripped):
                raise MoveSyntaxError(f"line {line_no}: a move without its number, among numbered moves")
            continue  # commentary: a header, a board
        if not stripped or stripped.startswith("#"):
            continue
        if number:
            n = int(number.group(1))
            if not moves and played and n == played + 1:
                first = n
            if n != first + len(moves):
                on = f" (or {played + 1:,}, after the {played:,} played)" if played and not moves else ""
                raise MoveSyntaxError(f"line {line_no}: move {n:,} where move {first + len(moves):,}{on} belongs")
        try:
            moves.append(game.parse_move_text(rules, stripped))
        except MoveSyntaxError as err:
            raise MoveSyntaxError(f"line {line_no}: {err}") from None
    return MoveList(moves, rules=header.rules, game_number=header.game_number, game=header.game)


def _reads_as_move(game: Game, rules: Any, text: str) -> bool:
    try:
        game.parse_move_text(rules, text)
    except MoveSyntaxError:
        return False
    return True


def named_in(game: Game, text: str) -> MoveList:
    """The game, rule set and game number a moves file names (no moves read): a JSON
    file's `game`, `rules` and `game_number`, or what the header of `solve`'s text output
    says (`# Weddings (PySolFC), game 617`)."""
    body = text.strip()
    if body.startswith("{"):
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return MoveList([])  # parse_moves says what is wrong with it
        return _meta(data) if isinstance(data, dict) else MoveList([])
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            body = line.strip().lstrip("#").strip()
            number = _GAME_NUMBER.search(body)
            title = body[: number.start()] if number else body
            for owner in (game, *(g for g in GAMES.values() if g is not game)):
                found = rules_titled(owner, title)
                if found is not None:
                    return MoveList([], found.name, number.group(1) if number else None, owner.name)
        if line.strip() and not line.lstrip().startswith("#"):
            break  # the header comes before the first move
    return MoveList([])


def _meta(data: dict[str, Any]) -> MoveList:
    """What a JSON moves file says of its deal, its types checked."""
    game, rules, number = data.get("game"), data.get("rules"), data.get("game_number")
    for key, value in (("game", game), ("rules", rules)):
        if value is not None and not isinstance(value, str):
            raise MoveSyntaxError(f'"{key}" is a name, like "monte-carlo", not {value!r}')
    if number is not None and (isinstance(number, bool) or not isinstance(number, (str, int))):
        raise MoveSyntaxError(f'"game_number" is a game number, like "12345", not {number!r}')
    return MoveList(
        [],
        rules=None if rules is None else rules.strip().lower(),
        game_number=None if number is None else str(number),
        game=None if game is None else plain_name(game),
    )


def load_json(body: str) -> Any:
    """The JSON of a moves file, or a MoveSyntaxError saying why it cannot be read."""
    try:
        return json.loads(body)
    except json.JSONDecodeError as err:
        if err.msg == "Extra data" and all(line.lstrip().startswith("{") for line in body.splitlines() if line.strip()):
            raise MoveSyntaxError("several JSON lines: give one line (one deal) of a results file") from None
        raise MoveSyntaxError(f"not valid JSON: {err.msg} at line {err.lineno}") from None
    except (ValueError, RecursionError):  # what Python's reader refuses beyond the syntax
        raise MoveSyntaxError("not JSON this reads: a number too long or lists nested too deep") from None


def _parse_json(game: Game, body: str) -> MoveList:
    data = load_json(body)
    meta = MoveList([])
    if isinstance(data, dict):
        meta = _meta(data)
        if "moves" in data and isinstance(data["moves"], list):
            data = data["moves"]
        elif "solution" in data:
            data = data["solution"]
            if not isinstance(data, list):
                raise MoveSyntaxError('"solution" is a list of moves')
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
    return MoveList(moves, meta.rules, meta.game_number, meta.game)

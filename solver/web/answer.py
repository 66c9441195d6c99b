"""What the page's worker asks of wedlock, answered as the command line answers it.

The page runs this module in the browser (under Pyodide, with the compiled core): a deal
solved at `wedlock solve`'s default limits, or a hint for a game under way at `wedlock
hint`'s. Each answer is a plain dict the worker sends on as JSON: for a solve, `answer` is
the object `wedlock solve GAME N --json` prints, and `page` the solution page
(`pictures/page.py`) that plays a win back. Bad input is an `error`, one sentence.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..basics.errors import LimitError, WedlockError
from ..basics.numbering import GameNumber
from ..basics.words import counted
from ..games.registry import GAMES, catalogue, game_named, pysolfc_named, rules_of
from ..pictures.page import solution_page
from ..pipeline.positions import position
from ..pipeline.solving import DEFAULT_MAX_STATES, Deal, Position, Solution, deal, solve
from ..playing.hints import KEEPS, Hint, hint
from ..search.exhaustive import LOST, UNKNOWN, WON

SOLVE_SECONDS = 120  # the command line's default --time-limit for solve and hint (tests hold the two equal)
MAX_STATES = DEFAULT_MAX_STATES  # and its default --max-states

Report = Callable[[int, int, str], Any]  # a search's progress: searches done, searches in all, the one running


def sentence(err: Exception) -> str:
    """An error's words as one sentence, on one line with a full stop, as the command line
    words it (its first word may be a name, so it keeps its case)."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text if text.endswith((".", "?", "!")) else text + "."


def chosen_deal(game_name: str, number: str, rules_name: str | None) -> Deal:
    """The deal a page asks for, named as the command line names it: PySolFC's name of a
    game (`weddings`) is wedlock's game under that rule set."""
    if not str(game_name).strip():
        raise WedlockError("choose a game: monte-carlo or matrimony")
    if not str(number).strip():
        raise WedlockError("give a game number, such as 1 or 12345")
    try:
        game = game_named(game_name)
    except WedlockError:
        named = pysolfc_named(game_name)
        if named is None:
            raise
        game, implied = named
        if rules_name and rules_of(game, rules_name) is not implied:
            raise WedlockError(f"{game_name} is PySolFC's {implied.pysolfc}: {game.name} under its {implied.name} rules") from None
        rules_name = implied.name
    return deal(game, GameNumber.parse(number), rules_name or None)


def games() -> list[dict[str, Any]]:
    """Every game of the registry with its rule sets, default first, for the page's form."""
    return [
        {"name": game.name, "rules": [{"name": r.name, "title": r.title} for r in game.rule_sets.values()], "default": game.default_rules}
        for game in GAMES.values()
    ]


def seconds_given(text: str | None) -> float | None:
    """A time limit as `--time-limit` reads it: seconds, 0 or more, or `none`; the default when not given."""
    if text is None or not str(text).strip():
        return SOLVE_SECONDS
    if str(text).strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise LimitError(f"a time limit is a number of seconds, 0 or more, or none; not {str(text)[:40]!r}")
    return value


def solved(
    game_name: str, number: str, rules_name: str | None = None, progress: Report | None = None, time_limit: str | None = None
) -> dict[str, Any]:
    """A deal solved as `wedlock solve GAME N --json` solves it (`time_limit` as its
    --time-limit reads it), with its page."""
    try:
        chosen = chosen_deal(game_name, number, rules_name)
        seconds = seconds_given(time_limit)
        result = solve(chosen.game, chosen, time_limit=seconds, max_states=MAX_STATES, progress=progress)
    except WedlockError as err:
        return {"error": sentence(err)}
    return answered(result, f"{chosen.title}, {chosen.label}", page=solution_page(result))


def answered(found: Solution | Hint, heading: str, **more: Any) -> dict[str, Any]:
    """What the page shows of an answer: its verdict, a heading, the summary line, the
    object `--json` prints, and `more`."""
    return {"verdict": found.verdict.value, "heading": heading, "summary": found.summary(), "answer": found.to_json(), **more}


def hinted(
    game_name: str,
    number: str,
    rules_name: str | None = None,
    moves: str = "",
    seen: str = "",
    progress: Report | None = None,
    time_limit: str | None = None,
) -> dict[str, Any]:
    """A hint for a game under way, as `wedlock hint` gives it: from the deal after a moves
    file's moves, or from a position typed as `deal --position-out` writes it."""
    try:
        chosen = chosen_deal(game_name, number, rules_name)
        start: Deal | Position = chosen
        label = chosen.label
        if seen.strip():
            start = position(chosen.game, chosen, text=seen)
            label += ", the position typed"
        if moves.strip():
            start = position(chosen.game, start, after=moves)
            label += f", after {counted(len(start.moves), 'move')}"
        if not seen.strip() and not moves.strip():
            raise WedlockError("paste a moves file or a position for a hint; Solve answers for the deal itself")
        found = hint(chosen.game, start, time_limit=seconds_given(time_limit), max_states=MAX_STATES, progress=progress)
    except WedlockError as err:
        return {"error": sentence(err)}
    return answered(found, f"{chosen.title}, {label}", lines=hint_lines(found))


def hint_lines(found: Any) -> list[str]:
    """The hint in words, as `wedlock hint` prints it below its header."""
    out = []
    if found.verdict == WON:
        out.append(f"next: {found.next.text(numbered=False)}" if found.next else "next: nothing: every card is out, the game is won")
    elif found.verdict == LOST:
        out.append("next: none wins" if found.choices else "next: no move is left")
    elif found.verdict == UNKNOWN:
        out.append("next: not known within the limits")
    for choice, cls in found.choices:
        mark = " (next)" if found.verdict == WON and choice == found.next and cls == KEEPS else ""
        out.append(f"{choice.text(numbered=False)}: {cls}{mark}")
    return out


def rule_set_lines() -> list[str]:
    """The registry's games and rule sets, as `wedlock --help` lists them."""
    return list(catalogue())

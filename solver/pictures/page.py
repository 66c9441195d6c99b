"""A solution as a page: one self-contained HTML file that plays it back with cards.

No network at all: the cards are inline SVG drawn by the page's own script, the styles
and the script are inline, and a Content-Security-Policy forbids any request. The page
holds every position of the line (`Game.layout`) and, for each move, the places whose
cards it moves (`Game.touches`); `viewer/viewer.js` draws them.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

from ..basics.errors import InputTooLarge
from ..basics.words import counted
from ..games.lines import Line
from ..pipeline.line_layouts import frames
from ..pipeline.solving import Deal, Position, Solution

# The most moves a page plays back: it holds every position, about 1.3 kB a move of
# Matrimony, so 2,000 moves make a page of under 3 MB. The longest win wedlock finds is
# under 200 moves.
MOST_MOVES = 2_000


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("viewer", name).read_text(encoding="utf-8")


def page(start: Deal | Position, moves: Line, summary: str, label: str | None = None) -> str:
    """The page playing `moves` back from `start` (a deal's opening or a position),
    headed by the game and `summary` (the verdict and the move count)."""
    if len(moves) > MOST_MOVES:
        raise InputTooLarge(f"a page plays back at most {MOST_MOVES:,} moves, and this line has {len(moves):,}")
    chosen = start.deal if isinstance(start, Position) else start
    game, rules = chosen.game, chosen.rules
    shown = frames(start, moves.raw())
    where = label or (start.label if isinstance(start, Position) else chosen.label)
    data: dict[str, Any] = {
        "game": game.name,
        "rules": rules.name,
        "title": chosen.title,
        "game_number": chosen.number,
        "moves": [m.text() for m in moves],
        "positions": shown.positions,
        "touches": shown.touches,
    }
    heading = f"{chosen.title}, {where}"
    return _asset("page.html").format_map(
        {
            "title": html.escape(heading),
            "heading": html.escape(heading),
            "summary": html.escape(summary),
            "count": len(moves),
            "css": _asset("viewer.css"),
            "js": _asset("viewer.js"),
            "data": json.dumps(data).replace("</", "<\\/"),
        }
    )


def solution_page(result: Solution, label: str | None = None) -> str:
    """The page of a solver's answer: its winning line, or the deal alone when none."""
    start: Deal | Position = result.position if result.position is not None else result.deal
    return page(start, result.moves, f"{result.verdict.value}: {counted(len(result.moves), 'move')}", label)

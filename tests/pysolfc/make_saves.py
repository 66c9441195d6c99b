"""Make the saved games of tests/data/pysolfc/ with PySolFC's own engine (see engine.py):

    WEDLOCK_PYSOLFC_SRC=/path/to/PySolFC-3.6.1 python tests/pysolfc/make_saves.py

For each of the four games, a deal is played in PySolFC as a player plays it (each of
wedlock's winning moves as the drag or stock click it is there) and saved with PySolFC's
own File > Save code: at the start, in the middle (the last two moves undone, so the
history holds moves for Redo), and just after a Matrimony redeal or a Monte Carlo
consolidation. `saves.json` beside the files says what each holds; the tests read it.
Not run by the test suite: its files are shipped.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engine  # noqa: E402 (the folder above is on the path first)

import wedlock  # noqa: E402
from wedlock.pysolfc.ids import Drag, StockClick, action_of  # noqa: E402

OUT = HERE.parent / "data" / "pysolfc"
VERSION = "3.6.1"

# (file prefix, game, rules, number, moves played in the middle, moves up to the redeal or consolidation)
GAMES = [
    ("monte-carlo", "monte-carlo", "pysol", 12345, 12, 2),
    ("weddings", "monte-carlo", "weddings", 39919, 12, 6),
    ("monte-carlo-2decks", "monte-carlo", "2decks", 123456, 14, 2),
    ("matrimony", "matrimony", "pysol", 1, 20, 42),
]
UNDONE = 2  # moves undone before the middle save


class Dragged:
    """What PySolFC's drag code passes on when cards are dropped: the cards dragged."""

    def __init__(self, cards: list[Any]) -> None:
        self.cards = cards


def play(game: Any, name: str, move: Any) -> None:
    """Make a wedlock move in PySolFC's game as a player does (a drag or a stock click)."""
    action = action_of(name, move)
    if isinstance(action, StockClick):
        if not game.dealCards():
            assert game.s.talon.round > 1, f"the stock click for {move} did nothing"
        return
    assert isinstance(action, Drag)
    source, target = game.allstacks[action.source], game.allstacks[action.target]
    cards = source.cards[-action.ncards :]
    assert target.acceptsCards(source, cards), f"PySolFC refuses {move}"
    source.dragMove(Dragged(cards), target)


def save(prefix: str, kind: str, name: str, rules: str, number: int, moves: list[Any], undone: int, bookmark_at: int | None) -> dict:
    """Play `moves` in a fresh game, undo the last `undone`, save; what the file holds."""
    game = engine.new_game(engine.GAME_IDS[name, rules], number)
    for n, move in enumerate(moves):
        if n == bookmark_at:
            assert game.setBookmark(0, confirm=0)
        play(game, name, move)
    for _ in range(undone):
        game.undo()
    path = OUT / f"{prefix}-{kind}.pso"
    assert game.saveGame(str(path)), path
    chosen = wedlock.deal(name, number, rules)
    texts = [m.text() for m in wedlock.Line.of(chosen.game, chosen.rules, moves)]
    return {
        "file": path.name,
        "game": name,
        "rules": rules,
        "number": number,
        "played": texts[: len(texts) - undone],
        "undone": texts[len(texts) - undone :],
        "bookmark": bookmark_at is not None,
        "pysolfc": VERSION,
    }


def main() -> None:
    pysollib = engine.load()
    version = sys.modules["pysollib.settings"].VERSION if "pysollib.settings" in sys.modules else None
    assert version == VERSION, f"these files are made with PySolFC {VERSION}, not {version} ({pysollib.__file__})"
    OUT.mkdir(parents=True, exist_ok=True)
    made = []
    for prefix, name, rules, number, middle, until in GAMES:
        line = list(wedlock.solve(name, number, rules, time_limit=60).moves.raw())
        kinds = [type(m).__name__ for m in line]
        turn = kinds.index("Redeal" if name == "matrimony" else "Consolidate")
        assert turn < until, (prefix, turn, until)
        made.append(save(prefix, "start", name, rules, number, [], 0, None))
        made.append(save(prefix, "mid", name, rules, number, line[:middle], UNDONE, 5 if name == "matrimony" else None))
        made.append(save(prefix, "redealt" if name == "matrimony" else "consolidated", name, rules, number, line[:until], 0, None))
    (OUT / "saves.json").write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")
    for entry in made:
        print(entry["file"], len(entry["played"]), "played,", len(entry["undone"]), "undone")


if __name__ == "__main__":
    main()

"""Saved games in PySolFC's own engine: what `solve --pysolfc-out` writes loads through
PySolFC's File > Open code, Redo alone wins it (each step the very one PySolFC records
when the move is made there), and Undo brings back the deal; what PySolFC saves, wedlock
reads."""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import wedlock
from wedlock.cli.main import cli
from wedlock.pysolfc.ids import Drag, StockClick, action_of

CASES = [("monte-carlo", "pysol"), ("monte-carlo", "weddings"), ("monte-carlo", "2decks"), ("matrimony", "pysol")]
WINS = 20  # deals won and checked per game


class Dragged:
    """What PySolFC's drag code passes on when cards are dropped: the cards dragged."""

    def __init__(self, cards: list[Any]) -> None:
        self.cards = cards


def make(game: Any, name: str, move: Any) -> None:
    """Make a wedlock move in PySolFC's game as a player does: a drag PySolFC accepts (by
    its drag-and-drop code), or a click on the stock that changes something."""
    action = action_of(name, move)
    if isinstance(action, StockClick):
        before = [len(s.cards) for s in game.allstacks], game.s.talon.round
        game.dealCards()
        assert ([len(s.cards) for s in game.allstacks], game.s.talon.round) != before, f"the stock click for {move} did nothing"
        return
    assert isinstance(action, Drag)
    source, target = game.allstacks[action.source], game.allstacks[action.target]
    cards = source.cards[-action.ncards :]
    assert target.acceptsCards(source, cards), f"PySolFC refuses {move}"
    source.dragMove(Dragged(cards), target)


def stacks(game: Any) -> tuple:
    """Every card of a PySolFC game, where it lies and which side shows, and the round."""
    return tuple(tuple((c.id, bool(c.face_up)) for c in s.cards) for s in game.allstacks), game.s.talon.round


def steps(history: list) -> list:
    """A PySolFC history as plain data: each atomic move's class and attributes."""
    return [[(type(a).__name__, dict(vars(a))) for a in step] for step in history]


def opened(pysolfc: Any, path: Path, game_id: int) -> Any:
    """The game File > Open shows: PySolFC's loading code reads the file into a new game
    of its id, which the game in the window (here another deal of the same game) takes on."""
    window = pysolfc.new_game(game_id, 2)
    gamedb = importlib.import_module("pysollib.gamedb")
    window.app.constructGame = lambda number: gamedb.GAME_DB.get(number).gameclass(gamedb.GAME_DB.get(number))
    loaded = window._loadGame(str(path), window.app)
    window.restoreGame(loaded)
    return window


def numbers(seed: str):
    """Game numbers of both of PySolFC's generators, in turn, without end: the Microsoft
    generator's under 32000 and (one time in four) past it as `ms` numbers."""
    rng = random.Random(seed)
    while True:
        yield rng.randrange(1, 32000)
        yield rng.randrange(32000, 10**10)
        yield rng.randrange(1, 32000)
        yield f"ms{rng.randrange(32000, 2**33)}"


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_a_written_win_loads_in_pysolfc_and_redo_alone_wins_it(pysolfc: Any, tmp_path: Path, name: str, rules: str) -> None:
    game_id = pysolfc.GAME_IDS[name, rules]
    counts = {"loaded": 0, "won by redo": 0, "undone to the deal": 0, "not won by wedlock": 0}
    for number in numbers(f"{name}/{rules}"):
        if counts["won by redo"] == WINS:
            break
        path = tmp_path / f"{number}.pso"
        result = CliRunner().invoke(cli, ["solve", name, str(number), "--rules", rules, "--pysolfc-out", str(path), "--time-limit", "30"])
        if result.exit_code != 0:
            assert result.exit_code in (1, 3) and not path.exists(), result.output
            counts["not won by wedlock"] += 1
            continue
        line = list(wedlock.solve(name, number, rules, time_limit=30).moves.raw())
        real = pysolfc.new_game(game_id, number)  # the same line played in PySolFC, move by move
        deal = stacks(real)
        after_each = []
        for move in line:
            make(real, name, move)
            after_each.append(stacks(real))
        assert real.isGameWon()

        game = opened(pysolfc, path, game_id)
        assert (game.id, game.moves.index, len(game.moves.history), stacks(game)) == (game_id, 0, len(line), deal)
        assert steps(game.moves.history) == steps(real.moves.history)  # what PySolFC records, step by step
        assert game.random.getSeedStr() == real.random.getSeedStr()
        counts["loaded"] += 1
        for n in range(len(line)):
            game.redo()
            assert stacks(game) == after_each[n], (number, n)
        assert game.moves.index == len(game.moves.history) and game.isGameWon() and game.checkForWin(), number
        counts["won by redo"] += 1
        while game.moves.index:
            game.undo()
        assert stacks(game) == deal and (game.stats.redo_moves, game.stats.undo_moves) == (len(line), len(line))
        counts["undone to the deal"] += 1
    version = importlib.import_module("pysollib.settings").VERSION
    print(f"\n{name} {rules} in PySolFC {version} ({pysolfc.source()}): {counts}")
    assert counts["loaded"] == counts["won by redo"] == counts["undone to the deal"] == WINS


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_a_win_from_a_game_under_way_loads_there_and_redo_wins_it(pysolfc: Any, tmp_path: Path, name: str, rules: str) -> None:
    number = next(n for n in numbers(f"under way {name}/{rules}") if wedlock.solve(name, n, rules, time_limit=30).verdict == "won")
    line = list(wedlock.solve(name, number, rules, time_limit=30).moves.raw())
    real = pysolfc.new_game(pysolfc.GAME_IDS[name, rules], number)
    for move in line[: len(line) // 2]:
        make(real, name, move)
    start = wedlock.position(name, number, rules, after=line[: len(line) // 2])
    solution = wedlock.solve(name, start)
    path = tmp_path / "rest.pso"
    solution.to_pysolfc(path)
    game = opened(pysolfc, path, pysolfc.GAME_IDS[name, rules])
    assert stacks(game) == stacks(real) and game.moves.index == 0
    for move in solution.moves.raw():
        make(real, name, move)
    while game.moves.index < len(game.moves.history):
        game.redo()
    assert game.isGameWon() and stacks(game) == stacks(real)
    assert steps(game.moves.history) == steps(real.moves.history[len(line) // 2 :])


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_wedlock_reads_what_pysolfc_saves(pysolfc: Any, tmp_path: Path, name: str, rules: str) -> None:
    number = next(n for n in numbers(f"saved {name}/{rules}") if wedlock.solve(name, n, rules, time_limit=30).verdict == "won")
    line = list(wedlock.solve(name, number, rules, time_limit=30).moves.raw())
    game = pysolfc.new_game(pysolfc.GAME_IDS[name, rules], number)
    for played, move in enumerate(line, 1):
        make(game, name, move)
        if played in (1, len(line) // 3, len(line) - 1, len(line)):
            game.undo()
            game.redo()
            path = tmp_path / f"{played}.pso"
            assert game.saveGame(str(path))
            found = wedlock.position(pysolfc_save=path)
            assert found.seen == wedlock.position(name, number, rules, after=line[:played]).seen
            assert [m.raw for m in found.moves] == line[:played]
    game.undo()
    game.undo()
    assert game.saveGame(str(tmp_path / "undone.pso"))
    assert [m.raw for m in wedlock.position(pysolfc_save=tmp_path / "undone.pso").moves] == line[:-2]


class Window:
    """A stand-in for the window Edit > Replay checks is there; it draws nothing."""

    def __bool__(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_once_redone_a_written_win_replays_through(pysolfc: Any, tmp_path: Path, name: str, rules: str) -> None:
    """Edit > Replay (PySolFC's master) deals again and plays the history up to its place."""
    game_id = pysolfc.GAME_IDS[name, rules]
    if not hasattr(pysolfc.new_game(game_id, 1), "startReplay"):
        pytest.skip("this PySolFC has no Edit > Replay")
    number = next(n for n in numbers(f"replay {name}/{rules}") if wedlock.solve(name, n, rules, time_limit=30).verdict == "won")
    solution = wedlock.solve(name, number, rules, time_limit=30)
    solution.to_pysolfc(tmp_path / "win.pso")
    game = opened(pysolfc, tmp_path / "win.pso", game_id)
    while game.moves.index < len(game.moves.history):
        game.redo()
    game.top, game.app.opt.timeouts = Window(), {"demo": 0}  # a window there; no pause between moves
    game.startReplay()
    assert game.moves.index == 0 and not game.isGameWon()
    for _ in solution.moves:  # what the window's idle loop would call, move after move
        game.replayEvent()
    assert game.moves.index == len(solution.moves) and game.isGameWon()
    game.replayEvent()
    assert not game.demo

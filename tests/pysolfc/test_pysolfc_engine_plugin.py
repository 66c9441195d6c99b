"""wedlock's plugin inside PySolFC's own engine: installed by `wedlock pysolfc install`,
loaded as PySolFC loads its plugins, then its hints alone win each game (every hinted move
accepted by PySolFC's rules), its Demo wins, and its Always Solvable games deal numbers
proven winnable. The names of PySolFC's objects the plugin uses (and the stand-in of
tests/pysolfc/pysolfc_standin.py offers) are checked here against PySolFC's own classes."""

from __future__ import annotations

import importlib
import inspect
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import wedlock
from wedlock.basics.numbering import GameNumber
from wedlock.cli.main import cli
from wedlock.pysolfc import plugin
from wedlock.pysolfc.advisor import Advisor
from wedlock.pysolfc.ids import ALWAYS_SOLVABLE_IDS, GAME_IDS, StockClick, action_of
from wedlock.pysolfc.reading import position_key, position_of
from wedlock.pysolfc.solvable import ALWAYS_SOLVABLE_NAMES, winnable_number

CASES = [("monte-carlo", "pysol"), ("monte-carlo", "weddings"), ("monte-carlo", "2decks"), ("matrimony", "pysol")]
HINTED_DEALS = {"monte-carlo": 20, "matrimony": 10}  # proven-winnable deals a game's hints must win
EASY = {("monte-carlo", "pysol"): 1, ("monte-carlo", "weddings"): 1, ("monte-carlo", "2decks"): 3, ("matrimony", "pysol"): 1}  # won in well under a second
NAMES = json.loads((Path(__file__).parent.parent / "golden" / "pysolfc-plugin-names.json").read_text())


@pytest.fixture(scope="session")
def plugged(pysolfc: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """PySolFC's engine with the plugin `wedlock pysolfc install` writes, loaded by
    PySolFC's own plugin loader."""
    folder = tmp_path_factory.mktemp("plugins")
    result = CliRunner().invoke(cli, ["pysolfc", "install", "--dir", str(folder)])
    assert result.exit_code == 0, result.output
    pysolfc.load_plugins(folder)
    return pysolfc


def game_number(game: Any) -> str:
    """The game number PySolFC shows (`ms9002` for its game 9002), as wedlock writes it."""
    return str(GameNumber.parse(game.getGameNumber(0)))


def play(game: Any, hint: tuple[Any, ...]) -> None:
    """Make a hinted move as a player does: a drag PySolFC's rules must accept, or a click
    on the stock that must change something."""
    ncards, source, target = hint[2:5]
    if ncards == 0:
        assert source is game.s.talon
        before = [len(s.cards) for s in game.allstacks], [tuple(map(id, s.cards)) for s in game.s.rows], game.s.talon.round
        game.dealCards()
        assert ([len(s.cards) for s in game.allstacks], [tuple(map(id, s.cards)) for s in game.s.rows], game.s.talon.round) != before
    else:
        assert target.acceptsCards(source, source.cards[-ncards:]), "PySolFC refuses the hinted drag"
        source.playMoveMove(ncards, target)


# --- the names the plugin uses are PySolFC's ------------------------------------------------------


def _has(thing: Any, names: list[str]) -> list[str]:
    return [n for n in names if not hasattr(thing, n)]


def test_each_name_the_plugin_uses_is_pysolfcs(pysolfc: Any) -> None:
    game = pysolfc.new_game(89, 1)
    matrimony = pysolfc.new_game(424, 1)
    hint = importlib.import_module("pysollib.hint")
    gamedb = importlib.import_module("pysollib.gamedb")
    options = importlib.import_module("pysollib.options").Options()
    application = importlib.import_module("pysollib.app").Application()
    game_class = importlib.import_module("pysollib.game").Game
    for g in (game, matrimony):
        assert _has(g, NAMES["game"]) == []
        assert _has(g.s, NAMES["stacks"]) == []
        assert _has(g.s.rows[0], NAMES["stack"]) == [] and _has(g.s.talon, NAMES["talon"]) == []
        assert _has(g.s.rows[0].cards[0], NAMES["card"]) == []
        assert _has(g.hints, NAMES["hints"]) == [] and _has(g.stats, NAMES["stats"]) == []
    assert _has(application, NAMES["app"]) == [] and _has(application.gamerandom, NAMES["random"]) == []
    assert _has(options, NAMES["options"]) == []
    for key in NAMES["option_keys"]:
        table, entry = key.split(":")
        assert entry in getattr(options, table), key
    assert _has(hint.DefaultHint(game, 0), NAMES["hint_class"]) == []
    assert _has(gamedb.GAME_DB, NAMES["registry"]) == []
    info = gamedb.GAME_DB.get(89)
    assert _has(info, NAMES["game_info"]) == [] and _has(info.si, NAMES["selection_info"]) == []
    started = inspect.getsource(game_class.startDemo)  # the Demo's own record of its run
    assert all(f"{n}=" in started for n in NAMES["demo"])
    # The Tk parts, which the engine runs without: PySolFC's status bar, menu bar and window.
    statusbar = importlib.import_module("pysollib.tile.statusbar")
    menubar = importlib.import_module("pysollib.ui.tktile.menubar")
    window = importlib.import_module("pysollib.ui.tktile.tkwrap")
    assert _has(statusbar.PysolStatusbar, NAMES["statusbar"]) == []
    assert _has(menubar.MfxMenu, NAMES["menu"]) == [] and _has(window.MfxRoot, NAMES["top"]) == []
    made = inspect.getsource(menubar.PysolMenubarTkCommon)
    assert all(f"self.{n} = " in made for n in NAMES["menubar"])
    assert '"name": "menubar"' in made and 'MfxMenu(self.menubar, label=n_("&Assist"))' in made  # so its path is .menubar.assist
    assert menubar.MfxMenubar.labeltoname(None, "&Assist")[0] == "assist" and plugin.ASSIST_MENU == ".menubar.assist"
    for name in NAMES["modules"]:
        module, attribute = name.split(":")
        real = (Path(pysolfc.source()) / (module.replace(".", "/") + ".py")).read_text()
        if module == "pysollib.pysoltk":  # the engine's view is a stand-in: the real one takes it from tkwidget
            assert "from pysollib.tile.tkwidget import *" in real
            assert hasattr(importlib.import_module("pysollib.tile.tkwidget"), attribute)
        else:
            assert hasattr(importlib.import_module(module), attribute), name


# --- the plugin, loaded as PySolFC loads it -----------------------------------------------------


def test_the_plugin_hooks_the_four_games_and_leaves_the_others(plugged: Any) -> None:
    gamedb = importlib.import_module("pysollib.gamedb")
    for number in GAME_IDS.values():
        cls = gamedb.GAME_DB.get(number).gameclass
        assert cls.Hint_Class.__name__.startswith("Wedlock") and getattr(cls.playOneDemoMove, plugin.HOOKED)
    simple = plugged.new_game(90, 1)  # Simple Carlo inherits Monte Carlo's class, and keeps PySolFC's hints
    hint = simple.showHint(0, 0.0)
    assert hint is None or hint[0] < plugin.SCORE
    assert plugin.advised_action(simple, 0) is None


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_the_position_read_off_pysolfcs_stacks_is_wedlocks(plugged: Any, name: str, rules: str) -> None:
    number = winnable_number(name, rules, random.Random(f"read {name} {rules}"))
    game = plugged.new_game(GAME_IDS[name, rules], number)
    where = wedlock.position(name, number, rules)
    for move in wedlock.solve(name, number, rules).moves.raw():
        assert position_key(position_of(game)) == position_key(where)
        action = action_of(name, move)
        if isinstance(action, StockClick):
            game.dealCards()
        else:
            game.allstacks[action.source].playMoveMove(action.ncards, game.allstacks[action.target])
        where = wedlock.position(name, where, after=[move])
    assert game.isGameWon() and where.seen.cards_left() == 0


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_hints_alone_win_every_deal_tried(plugged: Any, name: str, rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The Hint button's few seconds are for a player waiting; some Matrimony deals take
    # longer on a busy machine (then the button gives PySolFC's own hint, tested below).
    monkeypatch.setattr(plugin, "HINT_SECONDS", plugin.DEMO_SECONDS)
    draws = random.Random(f"hints {name} {rules}")
    numbers = sorted({winnable_number(name, rules, draws) for _ in range(HINTED_DEALS[name])})
    for number in numbers:
        game = plugged.new_game(GAME_IDS[name, rules], number)
        moves = 0
        while not game.isGameWon():
            hint = game.showHint(0, 0.0)
            assert hint is not None and hint[0] == plugin.SCORE, f"game {number}: no hint of wedlock's after {moves} moves"
            play(game, hint)
            moves += 1
            assert moves < 1000
        assert moves >= 20
    assert len(numbers) == HINTED_DEALS[name]


def test_a_click_on_the_stock_shows_at_the_hint_buttons_level(plugged: Any) -> None:
    game = plugged.new_game(89, 1)  # a pair, then a consolidation
    play(game, game.showHint(0, 0.0))
    hint = game.showHint(0, 0.01)  # PySolFC frames the stock for that long
    assert hint[2:5] == (0, game.s.talon, None)
    play(game, hint)


def test_a_search_cut_short_gives_pysolfcs_own_hint(plugged: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin, "ADVISOR", Advisor(max_states=1))
    game = plugged.new_game(424, 1)
    hint = game.showHint(0, 0.0)
    assert hint is not None and hint[0] < plugin.SCORE  # PySolFC's DefaultHint's
    play(game, hint)


class StatusBar:
    """Records what the status bar is told."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def updateText(self, **kw: Any) -> None:  # noqa: N802
        self.texts.append(kw["info"])


def test_a_lost_deal_says_so(plugged: Any) -> None:
    game = plugged.new_game(212, 5)
    game.app.statusbar = StatusBar()
    assert game.showHint(0, 0.0) is None
    assert game.app.statusbar.texts == ["wedlock: this game can no longer be won from here."]


@pytest.mark.parametrize(("name", "rules"), CASES)
def test_the_demo_wins_stock_clicks_that_deal_nothing_included(plugged: Any, name: str, rules: str) -> None:
    game = plugged.new_game(GAME_IDS[name, rules], EASY[name, rules])
    dealt: list[int] = []
    deal = game.dealCards
    game.dealCards = lambda *args, **kw: dealt.append(deal(*args, **kw)) or dealt[-1]
    assert plugged.run_demo(game)
    if (name, rules) == ("monte-carlo", "weddings"):
        assert 0 in dealt  # a slide with the stock empty: PySolFC's own Demo gives up there
    assert len(dealt) > 0


def test_playing_the_solution_and_a_winnable_deal(plugged: Any) -> None:
    game = plugged.new_game(424, 1)
    play(game, game.showHint(0, 0.0))
    plugin.play_solution(game)
    assert game.isGameWon()
    game = plugged.new_game(212, 5)
    plugin.winnable_deal(game)
    assert wedlock.lookup("monte-carlo", game_number(game), rules="weddings") == "won"


def test_the_always_solvable_games_deal_numbers_proven_winnable(plugged: Any) -> None:
    gamedb = importlib.import_module("pysollib.gamedb")
    for names, number in ALWAYS_SOLVABLE_IDS.items():
        assert gamedb.GAME_DB.get(number).name == ALWAYS_SOLVABLE_NAMES[names]
        for _ in range(5):
            game = plugged.new_game(number)  # a fresh deal
            assert wedlock.lookup(names[0], game_number(game), rules=names[1]) == "won"
        chosen = plugged.new_game(number, 10)  # a number chosen by "Select game by number"
        assert game_number(chosen) == "10"
        easy = plugged.new_game(number, EASY[names])
        hint = easy.showHint(0, 0.0)
        assert hint is not None and hint[0] == plugin.SCORE  # wedlock's hints there too

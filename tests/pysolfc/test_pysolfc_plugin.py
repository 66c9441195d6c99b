"""wedlock's PySolFC plugin, driven through a stand-in of the parts of PySolFC it uses
(tests/pysolfc/pysolfc_standin.py; tests/pysolfc/ runs it in PySolFC's own engine), and the
`wedlock pysolfc install` and `uninstall` commands."""

from __future__ import annotations

import errno
import importlib.util
import random
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import wedlock
from tests.cli.test_cli import assert_bad_input, run
from tests.pysolfc.pysolfc_standin import KINDS, NAMES, App, Demo, Game, Stack, Talon, offered
from wedlock.pysolfc import advisor, install, plugin
from wedlock.pysolfc.advisor import Advisor
from wedlock.pysolfc.ids import GAME_IDS, GAMES_BY_ID
from wedlock.pysolfc.install import PLUGIN_FILE, default_folder, plugin_text
from wedlock.pysolfc.reading import NotReadable, position_key, position_of
from wedlock.pysolfc.solvable import ALWAYS_SOLVABLE_NAMES, register_always_solvable, winnable_number

WON = {89: 12345, 212: 1, 216: 3, 424: 13}  # a deal proven winnable of each game, each won in a moment in pure Python too (Weddings 1 needs a slide with the stock empty)
LOST = {89: 10, 212: 5, 216: 16}


@pytest.fixture
def hooked() -> type[Game]:
    """A stand-in game class of its own with the plugin's hooks in it."""
    cls = type("HookedGame", (Game,), {"__slots__": ()})
    plugin.hook_class(cls)
    return cls


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """No answer known from other tests."""
    monkeypatch.setattr(plugin, "ADVISOR", Advisor())


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch, fresh: None) -> Iterator[threading.Event]:
    """Searches wait until the event is set (the test sets it), so a test knows that the
    search is still on."""
    opened = threading.Event()
    real = advisor.solve

    def solve(*args: Any, **kwargs: Any) -> Any:
        opened.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(advisor, "solve", solve)
    yield opened
    opened.set()


def pump(game: Game, until: Any, seconds: float = 30.0) -> None:
    """Make the calls the window's event loop has queued until `until()` or none is left."""
    deadline = time.monotonic() + seconds
    while not until() and game.top._si_calls and time.monotonic() < deadline:
        game.top._si_run(1)
        time.sleep(0.001)


@pytest.fixture
def pysollib(monkeypatch: pytest.MonkeyPatch) -> types.SimpleNamespace:
    """Stand-ins for the few names the plugin imports from PySolFC's modules."""
    made = types.SimpleNamespace(dialogs=[])
    package = types.ModuleType("pysollib")
    randoms = types.ModuleType("pysollib.pysolrandom")
    randoms.construct_random = lambda text: ("random", text)  # type: ignore[attr-defined]
    view = types.ModuleType("pysollib.pysoltk")
    view.MfxMessageDialog = lambda top, **kw: made.dialogs.append(kw["text"])  # type: ignore[attr-defined]
    for name, module in (("pysollib", package), ("pysollib.pysolrandom", randoms), ("pysollib.pysoltk", view)):
        monkeypatch.setitem(sys.modules, name, module)
    return made


def play_hint(game: Game, hint: tuple[Any, ...]) -> None:
    """Make a hinted move as a player does: a drag the game accepts, or a click on the stock."""
    ncards, source, target = hint[2:5]
    if ncards == 0:
        assert source is game.s.talon
        game.dealCards()
    else:
        assert target.acceptsCards(source, source.cards[-ncards:])
        source.playMoveMove(ncards, target)


# --- the stand-in is what the plugin may use -----------------------------------------------


def test_the_standin_offers_just_the_names_checked_in() -> None:
    for kind, cls in KINDS.items():
        assert offered(cls) == set(NAMES[kind]), kind
    assert offered(Talon) == set(NAMES["talon"]) | offered(Stack)
    assert {"talon", "registry", "game_info", "selection_info", "random", "modules", "option_keys"} <= set(NAMES)


# --- reading a game -------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(WON))
def test_the_position_read_off_the_stacks_is_wedlocks_along_a_whole_line(game_id: int) -> None:
    name, rules = GAMES_BY_ID[game_id]
    game = Game(game_id, WON[game_id])
    line = wedlock.solve(name, WON[game_id], rules).moves.raw()
    where = wedlock.position(name, WON[game_id], rules)
    for move in line:
        read = position_of(game)
        assert position_key(read) == position_key(where)
        assert read.deal.game.same_position(read.deal.rules, read.deal.cards, read.seen, where.seen)
        game._si_play(move)
        where = wedlock.position(where.deal.game, where, after=[move])
    assert game.isGameWon()


def test_a_game_wedlock_does_not_play_is_not_read() -> None:
    with pytest.raises(NotReadable, match="none of the games"):
        position_of(Game(90, 1))  # Simple Carlo


def test_stacks_that_do_not_hold_a_deck_are_not_read() -> None:
    game = Game(89, 1)
    game.s.talon.cards.pop()
    with pytest.raises(NotReadable, match="not a full deck"):
        position_of(game)
    game = Game(424, 1)
    game.s.foundations[0].cards, game.s.rows[0].cards = game.s.rows[0].cards, game.s.foundations[0].cards
    with pytest.raises(NotReadable):
        position_of(game)


# --- the advisor ----------------------------------------------------------------------------


def test_a_win_is_known_for_every_position_along_its_line() -> None:
    advisor = Advisor()
    start = wedlock.position("matrimony", 1)
    first = advisor.ask(start, None, None)
    assert first is not None and first.verdict == "won"
    where = start
    for n, move in enumerate(first.moves[:-1]):
        where = wedlock.position("matrimony", where, after=[move])
        assert advisor.known(where).moves == first.moves[n + 1 :]


def test_an_unknown_answer_stands_only_for_searches_no_longer_than_its_own() -> None:
    advisor = Advisor(max_states=1)
    where = wedlock.position("matrimony", 1)
    cut = advisor.ask(where, 5.0, None)
    assert cut is not None and cut.verdict == "unknown" and cut.time_limit == 5.0
    assert advisor.known(where, 5.0) is cut and advisor.known(where, 1.0) is cut
    assert advisor.known(where, 120.0) is None and advisor.known(where, None) is None


@pytest.mark.parametrize(
    "raised, reason",
    [
        (RuntimeError("out of order"), "wedlock failed: RuntimeError: out of order"),
        (SystemExit(3), "wedlock failed: SystemExit: 3"),
        (KeyboardInterrupt(), "wedlock failed: KeyboardInterrupt"),
        (BaseException("x" * 500), "wedlock failed: BaseException: " + "x" * 100),
    ],
)
def test_a_search_that_fails_however_it_fails_is_an_unknown_answer(monkeypatch: pytest.MonkeyPatch, raised: BaseException, reason: str) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise raised

    monkeypatch.setattr(advisor, "solve", broken)
    adviser = Advisor()
    answer = adviser.ask(wedlock.position("monte-carlo", 1), 1.0, 10.0)  # the wait ends: the answer is there
    assert answer is not None and answer.verdict == "unknown" and answer.failed and answer.reason == reason
    assert not adviser._searching


def test_a_failed_search_is_said_so_and_pysolfcs_hint_shown(hooked: type[Game], monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise SystemExit(1)

    monkeypatch.setattr(advisor, "solve", broken)
    monkeypatch.setattr(plugin, "ADVISOR", Advisor())
    game = hooked(89, 1)
    hint = game.showHint(0, 0.0)
    assert hint is not None and hint[0] == 1  # the stand-in's own hint class
    assert game.app.statusbar._si_texts[-1] == "wedlock failed: SystemExit: 1: PySolFC's own hint."


@pytest.mark.parametrize(
    "spoil",
    [
        lambda game: setattr(game.s.rows[0].cards[0], "rank", 13),
        lambda game: setattr(game.s.rows[0].cards[0], "suit", "clubs"),
        lambda game: game.s.rows[0].cards.append(None),
        lambda game: setattr(game.s.talon, "round", "1"),
        lambda game: setattr(game.s, "rows", None),
        lambda game: setattr(game.s.talon, "cards", 7),
    ],
)
def test_stacks_pysolfc_never_holds_are_not_read_and_pysolfc_keeps_its_own_hints(hooked: type[Game], spoil: Any) -> None:
    game = hooked(424, WON[424])
    spoil(game)
    with pytest.raises(NotReadable):
        position_of(game)
    assert plugin.advised_action(game, 0) is None
    assert game.Hint_Class(game, 0)._si_get()[0][0] == 1  # PySolFC's own hints
    assert game.showHint(0, 0.0) is None or game.showHint(0, 0.0)[0] == 1


# --- the Hint button --------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(WON))
def test_hints_alone_win_each_game(hooked: type[Game], game_id: int) -> None:
    name, rules = GAMES_BY_ID[game_id]
    game = hooked(game_id, WON[game_id])
    played = 0
    while not game.isGameWon():
        hint = game.showHint(0, 0.0)
        assert hint, f"no hint after {played} moves"
        assert hint[0] == plugin.SCORE  # wedlock's, not the stand-in's own
        play_hint(game, hint)
        played += 1
    # the first search's line, followed to its end with no second search
    assert played == len(wedlock.solve(name, WON[game_id], rules).moves)


def test_a_click_on_the_stock_is_shown_at_the_hint_buttons_level(hooked: type[Game]) -> None:
    game = hooked(89, 1)  # its line is a pair, then a consolidation
    play_hint(game, game.showHint(0, 0.0))
    hint = game.showHint(0, 1.5)
    assert hint[2:5] == (0, game.s.talon, None)
    assert game._si_highlighted == [([(game.s.talon, "#303030")], 1.5)]
    assert game.app.statusbar._si_texts[-1] == "wedlock: click the stock."


@pytest.mark.parametrize("game_id", sorted(LOST))
def test_a_lost_game_says_so_and_shows_no_move(hooked: type[Game], pysollib: Any, game_id: int) -> None:
    game = hooked(game_id, LOST[game_id], windowed=True)
    assert game.showHint(0, 0.0) is None
    assert game.app.statusbar._si_texts[-1] == "wedlock: this game can no longer be won from here."
    assert pysollib.dialogs == ["wedlock: this game can no longer be won from here."]


def test_a_search_cut_short_gives_pysolfcs_own_hint(hooked: type[Game], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin, "ADVISOR", Advisor(max_states=1))
    game = hooked(424, WON[424])
    hint = game.showHint(0, 0.0)
    assert hint is not None and hint[0] == 1  # the stand-in's own hint class
    assert plugin.ADVISOR.known(position_of(game)).verdict == "unknown"
    assert game.app.statusbar._si_texts[-1] == "wedlock found no winning line in time: PySolFC's own hint."


def test_a_class_is_hooked_whole_or_not_at_all() -> None:
    odd = type("Odd", (), {"Hint_Class": Game.Hint_Class, "showHint": Game.showHint, "createGame": Game.createGame})
    with pytest.raises(AttributeError):
        plugin.hook_class(odd)  # it has no Demo step
    assert odd.Hint_Class is Game.Hint_Class and odd.showHint is Game.showHint


def test_games_of_other_ids_keep_pysolfcs_hints(hooked: type[Game]) -> None:
    game = hooked(90, 1)  # Simple Carlo: a subclass of Monte Carlo's class in PySolFC
    hint = game.showHint(0, 0.0)
    assert hint is not None and hint[0] == 1
    assert plugin.advised_action(game, 0) is None


def test_pysolfcs_stuck_check_gets_its_own_hints(hooked: type[Game]) -> None:
    game = hooked(89, 12345)
    game.showHint(0, 0.0)  # wedlock's answer is known now
    stuck = game.Hint_Class(game, -1)
    assert [h[0] for h in stuck._si_get()] == [1]


def test_the_hint_comes_through_the_event_loop_when_the_search_takes_longer(hooked: type[Game], gate: threading.Event) -> None:
    game = hooked(424, WON[424], windowed=True)
    assert game.showHint(0, 0.0) is None  # the window is not kept waiting
    assert game.app.statusbar._si_texts[-1] == "wedlock: searching for a winning line..."
    assert game.showHint(0, 0.0) is None and len(game.top._si_calls) == 1  # a second press waits for the same search
    gate.set()
    pump(game, lambda: game.stats.hints > 0)
    assert game.stats.hints == 1  # shown and counted, as the Hint button counts its hints
    assert game.hints.list[0][0] == plugin.SCORE
    assert game.app.statusbar._si_texts[-1] == ""  # the search's word is gone with its answer


def test_the_status_bar_says_all_of_its_words() -> None:
    game = Game(424, 1)
    plugin.say(game, "wedlock: click the stock.")
    assert game.app.statusbar._si_texts == ["wedlock: click the stock."]  # the whole text, in the field that grows to it
    plugin.unsay(game, "another text")
    assert game.app.statusbar._si_texts[-1] == "wedlock: click the stock."
    plugin.unsay(game)
    assert game.app.statusbar._si_texts[-1] == ""


def test_a_hint_waiting_for_its_search_is_dropped_when_the_player_moves(hooked: type[Game], gate: threading.Event) -> None:
    game = hooked(424, WON[424], windowed=True)
    assert game.showHint(0, 0.0) is None
    game.dealCards()
    gate.set()
    pump(game, lambda: False)
    assert game.stats.hints == 0 and not game.top._si_calls


# --- the Demo --------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(WON))
def test_the_demo_wins_each_game(hooked: type[Game], game_id: int) -> None:
    game = hooked(game_id, WON[game_id])
    game.demo = demo = Demo()
    while not game.isGameWon():
        assert game.playOneDemoMove(demo) == 0
        game.hints.list = None


def test_without_the_plugin_the_standins_demo_gives_up_on_a_slide_with_an_empty_stock() -> None:
    game = Game(212, 1)
    game.demo = demo = Demo()
    plugin_line = wedlock.solve("monte-carlo", 1, "weddings").moves.raw()
    finished = 0
    while not finished and not game.isGameWon():
        finished = game.playOneDemoMove(demo)
        game.hints.list = None
    assert finished and plugin_line  # the plugin's Demo wins it (above)


def test_the_demo_ends_a_lost_game_as_pysolfcs_does(hooked: type[Game]) -> None:
    game = hooked(212, 5)
    assert game.playOneDemoMove(Demo()) == 1


def test_the_demo_falls_back_to_pysolfcs_when_the_search_is_cut(hooked: type[Game], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin, "ADVISOR", Advisor(max_states=1))
    game = hooked(424, WON[424])
    demo = Demo()
    before = len(game.s.talon.cards), [len(s.cards) for s in game.allstacks]
    assert game.playOneDemoMove(demo) == 0
    assert (len(game.s.talon.cards), [len(s.cards) for s in game.allstacks]) != before
    assert demo in plugin._cut  # from now on the Demo looks for a win only briefly


def test_a_windowed_demo_waits_for_its_search_without_moving(hooked: type[Game], gate: threading.Event) -> None:
    game = hooked(424, WON[424], windowed=True)
    before = [len(s.cards) for s in game.allstacks]
    assert game.playOneDemoMove(Demo()) == 0
    assert [len(s.cards) for s in game.allstacks] == before
    assert game.app.statusbar._si_texts[-1] == plugin.SEARCHING
    gate.set()
    deadline = time.monotonic() + 30
    while [len(s.cards) for s in game.allstacks] == before and time.monotonic() < deadline:
        assert game.playOneDemoMove(Demo()) == 0
    assert [len(s.cards) for s in game.allstacks] != before
    assert game.app.statusbar._si_texts[-1] == ""  # the search's word is gone with its answer


# --- the Assist menu ---------------------------------------------------------------------------


def test_the_assist_menu_gets_the_entries_once(hooked: type[Game]) -> None:
    app = App()
    hooked(89, 1, app=app)
    hooked(424, WON[424], app=app)
    entries = app.menubar.menupath[".menubar.assist"][2]._si_entries
    assert [label for label, _ in entries] == ["-", "Play &wedlock's solution", "Winnable deal (wedlock)"]


def test_playing_the_solution_wins_from_where_the_game_stands(hooked: type[Game]) -> None:
    app = App()
    game = hooked(216, 3, app=app)
    play_hint(game, game.showHint(0, 0.0))
    dict(app.menubar.menupath[".menubar.assist"][2]._si_entries)["Play &wedlock's solution"]()
    assert game.isGameWon()
    assert game.stats.hints == len(wedlock.solve("monte-carlo", 3, "2decks").moves) - 1  # each move it played counts as a hint


def test_playing_the_solution_goes_a_move_a_tick_in_a_window(hooked: type[Game]) -> None:
    game = hooked(89, 12345, windowed=True)
    plugin.play_solution(game)
    assert game.stats.hints == 1
    ticks = game.top._si_run()
    assert game.isGameWon() and ticks == game.stats.hints - 1


def test_playing_the_solution_of_a_lost_game_says_so(hooked: type[Game], pysollib: Any) -> None:
    game = hooked(212, 5, windowed=True)
    plugin.play_solution(game)
    assert pysollib.dialogs == ["wedlock: this game can no longer be won from here."]


def test_a_winnable_deal_is_one_the_table_proves(hooked: type[Game], pysollib: Any) -> None:
    for game_id in sorted(WON):
        game = hooked(game_id, 1, app=App(gamerandom=random.Random(game_id)))
        plugin.winnable_deal(game)
        name, rules = GAMES_BY_ID[game_id]
        kind, number = game._si_random
        assert kind == "random" and wedlock.lookup(name, number, rules=rules) == "won"
        assert game._si_position.deal.number == number


def test_other_games_get_a_word_not_a_deal(hooked: type[Game], pysollib: Any) -> None:
    game = hooked(90, 1, windowed=True)
    plugin.winnable_deal(game)
    plugin.play_solution(game)
    assert len(pysollib.dialogs) == 2 and all("Monte Carlo, Weddings" in text for text in pysollib.dialogs)


def test_winnable_numbers_come_from_the_tables() -> None:
    draws = random.Random(1)
    for name, rules in GAME_IDS:
        for _ in range(20):
            assert wedlock.lookup(name, winnable_number(name, rules, draws), rules=rules) == "won"


# --- the Always Solvable games ---------------------------------------------------------------


class Registry:
    """PySolFC's game registry, as far as the registration uses it."""

    def __init__(self, games: dict[int, Any]) -> None:
        self.games = games

    def get(self, number: int) -> Any:
        return self.games.get(number)

    def getGameByName(self, name: str) -> int | None:  # noqa: N802
        return next((n for n, info in self.games.items() if info.name == name), None)


def game_info(number: int, gameclass: type, name: str, game_type: int, decks: int, redeals: int, skill_level: int = 0, **kw: Any) -> Any:
    return types.SimpleNamespace(id=number, gameclass=gameclass, name=name, si=types.SimpleNamespace(game_type=game_type), decks=decks, redeals=redeals, skill_level=skill_level, **kw)


def test_the_always_solvable_games_register_where_their_ids_are_free(pysollib: Any) -> None:
    base = {n: game_info(n, type(f"G{n}", (Game,), {"__slots__": ()}), f"game {n}", 5, 2 if n in (216, 424) else 1, 16 if n == 424 else 0, 3) for n in GAME_IDS.values()}
    registry = Registry({**base, 995: game_info(995, Game, "Weddings (Always Solvable)", 5, 1, 0)})
    registered: list[Any] = []
    assert register_always_solvable(registry, game_info, lambda info: registry.games.__setitem__(info.id, info) or registered.append(info)) == [994, 996, 997]
    assert [(i.id, i.name, i.decks, i.redeals, i.rules_filename) for i in registered] == [
        (994, "Monte Carlo (Always Solvable)", 1, 0, "montecarlo.html"),
        (996, "Monte Carlo (2 Decks) (Always Solvable)", 2, 0, "montecarlo2decks.html"),
        (997, "Matrimony (Always Solvable)", 2, 16, "matrimony.html"),
    ]
    assert register_always_solvable(registry, game_info, registered.append) == []  # once only
    for info in registered:
        name, rules = GAMES_BY_ID[info.id]
        assert issubclass(info.gameclass, base[GAME_IDS[name, rules]].gameclass)
        game = info.gameclass(info.id, 1, app=App(gamerandom=random.Random(info.id)))
        game.createRandom(None)  # a fresh deal: a number proven winnable
        assert wedlock.lookup(name, game._si_random[1], rules=rules) == "won"
        game.createRandom(("random", "10"))  # a number chosen: as it is
        assert game._si_random == ("random", "10")
    assert set(ALWAYS_SOLVABLE_NAMES.values()) >= {i.name for i in registered}


# --- the plugin file ---------------------------------------------------------------------------


def test_the_plugin_file_does_nothing_without_wedlock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "wedlock.pysolfc.plugin", None)  # import fails
    monkeypatch.delattr("wedlock.pysolfc.plugin", raising=False)
    scope: dict[str, Any] = {}
    exec(compile(plugin_text(), PLUGIN_FILE, "exec"), scope)  # noqa: S102 (the plugin's own text)
    assert scope["plugin"] is None


def test_the_plugin_file_hooks_wedlock_in(monkeypatch: pytest.MonkeyPatch) -> None:
    called = []
    monkeypatch.setattr(plugin, "hook", lambda: called.append(True))
    exec(compile(plugin_text(), PLUGIN_FILE, "exec"), {})  # noqa: S102
    assert called == [True]
    assert len(plugin_text().splitlines()) <= 12


def test_the_default_folder_is_pysolfcs() -> None:
    assert default_folder().parts[-2:] == (".PySolFC", "plugins") or sys.platform == "win32"


def pysolfc_here(found: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with PySolFC's program on the PATH (`found`), or with no PySolFC at all."""
    programs = tmp_path / "bin"
    programs.mkdir(exist_ok=True)
    if found:
        (programs / "pysol").write_text("#!/bin/sh\n")
        (programs / "pysol").chmod(0o755)
    monkeypatch.setenv("PATH", str(programs))
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "pysollib" else real(name, *args))


def test_install_and_uninstall_say_what_they_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pysolfc_here(True, tmp_path, monkeypatch)
    folder = tmp_path / "a" / "plugins"
    result = run("pysolfc", "install", "--dir", folder)
    assert result.exit_code == 0 and result.stdout == f"installed wedlock's plugin: {folder / PLUGIN_FILE} (PySolFC loads it as it starts)\n"
    assert (folder / PLUGIN_FILE).read_text() == plugin_text()
    assert run("pysolfc", "install", "--dir", folder).stdout.startswith("updated wedlock's plugin: ")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "wedlock_plugin.cpython-311.pyc").write_bytes(b"")
    result = run("pysolfc", "uninstall", "--dir", folder)
    assert result.exit_code == 0 and result.stdout == f"removed wedlock's plugin: {folder / PLUGIN_FILE}\n"
    assert list(folder.rglob("*")) == [folder / "__pycache__"]
    result = run("pysolfc", "uninstall", "--dir", folder)
    assert result.exit_code == 0 and result.stdout == f"wedlock's plugin is not installed in {folder}\n"


def test_install_says_where_the_plugin_went_and_that_pysolfc_is_needed_where_none_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pysolfc_here(False, tmp_path, monkeypatch)
    folder = tmp_path / "plugins"
    result = run("pysolfc", "install", "--dir", folder)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == (
        f"installed wedlock's plugin: {folder / PLUGIN_FILE}\n"
        "PySolFC was not found on this machine (no pysollib in this Python, no pysol program on the PATH): "
        "to use the plugin, install PySolFC on a Python where wedlock is installed; PySolFC loads it as it starts\n"
    )
    assert (folder / PLUGIN_FILE).read_text() == plugin_text()  # installed all the same
    assert run("pysolfc", "install", "--dir", folder).stdout.startswith(f"updated wedlock's plugin: {folder / PLUGIN_FILE}\nPySolFC was not found")


def test_pysollib_in_this_python_is_pysolfc_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no program
    (tmp_path / "pysollib").mkdir()
    (tmp_path / "pysollib" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert install.pysolfc_found()


def test_install_refuses_a_folder_it_cannot_make(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert_bad_input(run("pysolfc", "install", "--dir", tmp_path / "file" / "plugins"), "cannot make the folder")
    assert_bad_input(run("pysolfc", "install", "--dir", tmp_path / "file"), "is not a folder")
    assert_bad_input(run("pysolfc", "uninstall", "--dir", tmp_path / "file"), "is not a folder")


def test_install_and_uninstall_leave_another_plugin_of_that_name_alone(tmp_path: Path) -> None:
    (tmp_path / PLUGIN_FILE).write_text("print('mine')\n")
    assert_bad_input(run("pysolfc", "install", "--dir", tmp_path), "is not wedlock's plugin: left alone")
    assert_bad_input(run("pysolfc", "uninstall", "--dir", tmp_path), "is not wedlock's plugin: left alone")
    assert (tmp_path / PLUGIN_FILE).read_text() == "print('mine')\n"


def test_a_plugin_file_that_cannot_be_written_is_exit_5(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(self: Path, *args: Any, **kwargs: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    result = run("pysolfc", "install", "--dir", tmp_path)
    assert result.exit_code == 5 and result.stderr.strip().endswith("No space left on device")
    assert list(tmp_path.iterdir()) == []

"""wedlock inside PySolFC: the Hint button, the Demo and two entries of the Assist menu
play Monte Carlo, Weddings, Monte Carlo (2 Decks) and Matrimony with wedlock's solver.

The plugin file `wedlock pysolfc install` writes calls `hook()`, once, as PySolFC starts.
`hook` changes no file of PySolFC's: it sets attributes on the four game classes it finds
in PySolFC's game registry, each time keeping what it replaces to fall back on:

- `Hint_Class`: a subclass of the game's own hint class whose hints are wedlock's next
  move when wedlock has one (a drag, or at the Demo's level a click on the stock), and
  PySolFC's own hints otherwise;
- `showHint`: the Hint button first asks wedlock (in a thread, a few seconds at most),
  shows a click on the stock by framing the stock, and says when the game can no longer be
  won; PySolFC's own hint when the search was cut or wedlock failed;
- `playOneDemoMove`: the Demo plays wedlock's winning line, stock clicks that deal nothing
  included (Weddings' consolidations with an empty stock, Matrimony's redeals), where
  PySolFC's own Demo would give up;
- `createGame`: the Assist menu gains "Play wedlock's solution" and "Winnable deal (wedlock)".

Every hook asks which game it runs in by the game object's id, so the many games that
inherit from Monte Carlo's class (Simple Carlo, ...) keep PySolFC's behaviour. The plugin
reads and moves the game only through the game object it is handed (its stacks and its
own move methods), and shows messages through PySolFC's status bar and message boxes.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Any

from ..search.exhaustive import Verdict
from .advisor import Advice, Advisor
from .ids import GAME_IDS, Drag, StockClick, action_of
from .reading import NotReadable, names_of, position_key, position_of
from .solvable import NoWinnableDeal, register_always_solvable, winnable_number

HINT_SECONDS = 5.0  # the Hint button's search: a few seconds, then PySolFC's own hint
DEMO_SECONDS = 120.0  # the Demo's and "Play wedlock's solution"'s search, as `wedlock solve`'s
GRACE = 0.25  # seconds the Hint button waits on the window's thread before letting it work
DEMO_WAIT = 0.1  # seconds a Demo step waits for a search before letting the window work
POLL_MS = 100  # how often a hint or a solution waiting for its search looks again
SCORE = 10_000_000  # above every score PySolFC's own hint classes give
LEVEL_DEMO = 2  # PySolFC's hint levels: 0 the Hint button, 1 with its score, 2 the Demo
ASSIST_MENU = ".menubar.assist"  # where PySolFC's Tk menu bar files its Assist menu
HOOKED = "_wedlock_hooked"  # marks what the plugin put in place
GAMES_TEXT = "Monte Carlo, Weddings, Monte Carlo (2 Decks) and Matrimony"
SEARCHING = "wedlock: searching for a winning line..."

ADVISOR = Advisor()
_waiting: weakref.WeakSet[Any] = weakref.WeakSet()  # games whose hint is on its way
_cut: weakref.WeakSet[Any] = weakref.WeakSet()  # Demo runs (PySolFC's `game.demo`) whose search was cut short
_menus: list[Any] = []  # Assist menus the entries were added to


def hook() -> list[int]:
    """Hook wedlock into the PySolFC that runs this plugin: the four games' classes, as its
    game registry gives them, and the Always Solvable games whose ids are free. The ids
    of the games hooked and registered."""
    from pysollib import gamedb  # noqa: PLC0415 (only inside PySolFC)

    done = []
    for number in GAME_IDS.values():
        info = gamedb.GAME_DB.get(number)
        if info is not None:
            hook_class(info.gameclass)
            done.append(number)
    return done + register_always_solvable(gamedb.GAME_DB, gamedb.GameInfo, gamedb.registerGame)


def hook_class(cls: type) -> None:
    """Put wedlock's hint class, Hint button, Demo step and menu entries in a game class,
    keeping what each replaces for the games wedlock does not play (a subclass that
    inherits an attribute already hooked is left as it is)."""
    hooks: dict[str, Any] = {}  # all found before any is set: a class is hooked whole or not at all
    hint_class = cls.Hint_Class  # type: ignore[attr-defined]
    if hint_class is not None and not getattr(hint_class, HOOKED, False):
        hooks["Hint_Class"] = wedlock_hint_class(hint_class)
    for name, make in (("showHint", _show_hint), ("playOneDemoMove", _demo_step), ("createGame", _create_game)):
        original = getattr(cls, name)
        if not getattr(original, HOOKED, False):
            hooks[name] = _marked(make(original))
    for name, hook in hooks.items():
        setattr(cls, name, hook)


def _marked(function: Callable[..., Any]) -> Callable[..., Any]:
    setattr(function, HOOKED, True)
    return function


# The hint class


def wedlock_hint_class(original: type) -> type:
    """A subclass of a PySolFC hint class whose hints are wedlock's next move, where
    wedlock knows it, and the original's otherwise."""

    def computeHints(self: Any) -> None:  # noqa: N802 (PySolFC's name)
        action = advised_action(self.game, self.level)
        if action is None:
            original.computeHints(self)  # type: ignore[attr-defined]
        elif isinstance(action, Drag):
            self.addHint(SCORE, action.ncards, self.game.allstacks[action.source], self.game.allstacks[action.target])
        elif self.level >= LEVEL_DEMO:  # PySolFC takes a click on the stock only from the Demo
            self.addHint(SCORE, 0, self.game.s.talon, None)

    name = "Wedlock" + original.__name__
    return type(name, (original,), {"computeHints": computeHints, HOOKED: True, "__module__": __name__, "__qualname__": name})


def advised_action(game: Any, level: int) -> Drag | StockClick | None:
    """wedlock's next move in a game as a PySolFC action, when wedlock has already proven
    a win from the position (the Hint button and the Demo ask before PySolFC asks its
    hint class); None when it has not, or the game is none of its own. PySolFC's other
    checks, such as the one for a stuck game, always get None."""
    names = names_of(game)
    if names is None or level < 0:
        return None
    try:
        advice = ADVISOR.known(position_of(game))
    except NotReadable:
        return None
    if advice is None or advice.verdict != Verdict.WON:
        return None
    return action_of(names[0], advice.next)


def _ask(game: Any, seconds: float, wait: float | None) -> Advice | None:
    """wedlock's answer for the game's position (None: the search goes on); a position
    the plugin cannot read is an unknown one."""
    try:
        position = position_of(game)
    except NotReadable as err:
        return Advice(Verdict.UNKNOWN, reason=str(err))
    return ADVISOR.ask(position, seconds, wait)


def _windowed(game: Any) -> bool:
    """Whether the game has a Tk window whose event loop can call back later (without
    one, as in PySolFC's engine run without its window, the plugin waits for its searches)."""
    return bool(game.top) and callable(getattr(game.top, "after", None))


# The Hint button


def _show_hint(original: Callable[..., Any]) -> Callable[..., Any]:
    def showHint(self: Any, level: int = 0, sleep: float = 1.5, taken_hint: Any = None) -> Any:  # noqa: N802
        names = names_of(self)
        if names is None or level >= LEVEL_DEMO or level < 0:
            return original(self, level, sleep, taken_hint)
        advice = _ask(self, HINT_SECONDS, GRACE if _windowed(self) else None)
        if advice is None:  # the window works on; the hint shows when the search ends
            _hint_later(self)
            return None
        if advice.verdict == Verdict.LOST:
            say(self, "wedlock: this game can no longer be won from here.", dialog=True)
            return None
        if advice.failed:
            say(self, f"{advice.reason}: PySolFC's own hint.", seconds=sleep)
        elif advice.verdict == Verdict.UNKNOWN:
            say(self, "wedlock found no winning line in time: PySolFC's own hint.", seconds=sleep)
        elif isinstance(action_of(names[0], advice.next), StockClick):
            return _show_stock_click(self, sleep)
        return original(self, level, sleep, taken_hint)

    return showHint


def _show_stock_click(game: Any, sleep: float) -> tuple[Any, ...]:
    """Show "click the stock" as PySolFC frames a stack, and say it; the hint in
    PySolFC's form (a 0-card move from the talon)."""
    talon = game.s.talon
    say(game, "wedlock: click the stock.", seconds=sleep)
    frame = getattr(game, "_highlightEmptyStack", None)  # PySolFC's own, for a stack with or without cards
    if sleep > 0 and frame is not None:
        frame([(talon, game.app.opt.colors["hintarrow"])], sleep)
    return (SCORE, 0, 0, talon, None, "black", None)


def _hint_later(game: Any) -> None:
    """Show the hint once its search ends, if the game still stands where it was asked."""
    if game in _waiting:
        return
    _waiting.add(game)
    say(game, SEARCHING)
    try:
        key = position_key(position_of(game))
    except NotReadable:
        _waiting.discard(game)
        return

    def then() -> None:
        game.hints.list = None
        if game.showHint(0, game.app.opt.timeouts["hint"]):
            game.stats.hints += 1  # as the Hint button counts a hint shown

    _when_found(game, key, HINT_SECONDS, then, lambda: _waiting.discard(game))


def _when_found(game: Any, key: Any, seconds: float, then: Callable[[], None], finally_: Callable[[], None] = lambda: None) -> None:
    """Call `then` through the window's event loop once the search for the position `key`
    ends, unless the game has moved on (another game, another position, a Demo)."""
    deadline = time.monotonic() + seconds + 2 * GRACE

    def look() -> None:
        try:
            here = position_of(game)
        except NotReadable:
            finally_()
            return
        gone = game.app.game is not game or game.demo or position_key(here) != key
        if gone or ADVISOR.known(here, seconds) is not None or time.monotonic() > deadline:
            unsay(game, SEARCHING)
            finally_()
            if not gone:
                then()
            return
        game.top.after(POLL_MS, look)

    game.top.after(POLL_MS, look)


_said: dict[int, str] = {}  # what wedlock last put in each window's status bar, by the app's id


def say(game: Any, text: str, *, dialog: bool = False, seconds: float = 0.0) -> None:
    """Tell the player something, as PySolFC does: in its status bar (for `seconds`, when
    given; else until `unsay`), and in a message box when `dialog`. The status bar's
    field grows to the text, as it does for PySolFC's own texts."""
    app = game.app
    if _status(app, text) and seconds > 0 and _windowed(game):
        game.top.after(int(seconds * 1000), lambda: unsay(game, text))
    if dialog and _windowed(game):
        from pysollib.pysoltk import MfxMessageDialog  # noqa: PLC0415 (only inside PySolFC)

        MfxMessageDialog(game.top, title="wedlock", text=text, bitmap="info", strings=("&OK",))


def unsay(game: Any, text: str | None = None) -> None:
    """Take wedlock's text out of the status bar (only `text`, when given), if nothing
    has replaced it since."""
    said = _said.get(id(game.app))
    if said is not None and (text is None or said == text):
        _status(game.app, "")


def _status(app: Any, text: str) -> bool:
    """Put a text in the status bar's field for information (False: there is none)."""
    bar = app.statusbar
    if not (bar and app.opt.statusbar and hasattr(bar, "updateText")):  # Tk's status bar
        return False
    bar.updateText(info=text)
    if text:
        _said[id(app)] = text
    else:
        _said.pop(id(app), None)
    return True


# The Demo


def _demo_step(original: Callable[..., Any]) -> Callable[..., Any]:
    def playOneDemoMove(self: Any, demo: Any) -> int:  # noqa: N802
        if names_of(self) is None:
            return original(self, demo)
        seconds = HINT_SECONDS if demo in _cut else DEMO_SECONDS
        advice = _ask(self, seconds, DEMO_WAIT if _windowed(self) else None)
        if advice is None:  # still searching: no move now; the Demo asks again
            say(self, SEARCHING)
            return 0
        unsay(self, SEARCHING)
        if advice.verdict == Verdict.LOST:
            return 1  # the Demo's own end: "This won't come out..."
        if advice.verdict != Verdict.WON:
            _cut.add(demo)  # from now on, PySolFC's own moves, with a short look for a win before each
            return original(self, demo)
        hint = self.showHint(demo.level, demo.sleep)  # wedlock's move, drawn as the Demo draws its moves
        demo.hint = None
        if not hint:
            return 1
        ncards, source, target = hint[2:5]
        if ncards == 0:
            self.dealCards()  # may deal nothing (a Weddings slide, a redeal of an empty pile): no reason to stop
        else:
            source.moveMove(ncards, target, frames=-1)
        return 0

    return playOneDemoMove


# The Assist menu


def _create_game(original: Callable[..., Any]) -> Callable[..., Any]:
    def createGame(self: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N802
        made = original(self, *args, **kwargs)
        if names_of(self) is not None:
            add_menu_entries(self.app)
        return made

    return createGame


def add_menu_entries(app: Any) -> bool:
    """Add the plugin's entries to PySolFC's Assist menu, once (False: the menu bar is
    not one the plugin knows)."""
    paths = getattr(app.menubar, "menupath", None)
    entry = paths.get(ASSIST_MENU) if isinstance(paths, dict) else None
    if entry is None or entry[2] is None:
        return False
    menu = entry[2]
    if any(m is menu for m in _menus):
        return True
    _menus.append(menu)
    menu.add_separator()
    menu.add_command(label="Play &wedlock's solution", command=lambda: play_solution(app.game))
    menu.add_command(label="Winnable deal (wedlock)", command=lambda: winnable_deal(app.game))
    return True


def play_solution(game: Any) -> None:
    """Play wedlock's winning line from the game's position, a move at a time, as the
    player's own moves (each counted as a hint taken)."""
    if names_of(game) is None:
        say(game, f"wedlock plays {GAMES_TEXT}.", dialog=True)
        return
    if game.demo or game.pause:
        return
    advice = _ask(game, DEMO_SECONDS, GRACE if _windowed(game) else None)
    if advice is None:
        say(game, SEARCHING)
        _when_found(game, position_key(position_of(game)), DEMO_SECONDS, lambda: play_solution(game))
    elif advice.verdict == Verdict.LOST:
        say(game, "wedlock: this game can no longer be won from here.", dialog=True)
    elif advice.failed:
        say(game, f"{advice.reason}.", dialog=True)
    elif advice.verdict == Verdict.UNKNOWN:
        say(game, f"wedlock found no winning line ({advice.reason}).", dialog=True)
    else:
        _play_on(game)


def _play_on(game: Any) -> None:
    """Play the next move of the line the game stands on, then the next, and so on: one
    each tick of the window's event loop (all at once without a window)."""
    while not (game.demo or game.pause or game.isGameWon()) and _play_one(game):
        if _windowed(game) and not game.isGameWon():
            game.top.after(int(game.app.opt.timeouts["demo"] * 1000), lambda: _play_on(game))
            return


def _play_one(game: Any) -> bool:
    """Make wedlock's next move as a player would; False when the game is off any line
    wedlock knows (the player moved meanwhile) or PySolFC refuses it."""
    names = names_of(game)
    try:
        advice = ADVISOR.known(position_of(game), DEMO_SECONDS)
    except NotReadable:
        return False
    if names is None or advice is None or advice.verdict != Verdict.WON:
        return False
    action = action_of(names[0], advice.next)
    if isinstance(action, StockClick):
        game.dealCards()
    else:
        source, target = game.allstacks[action.source], game.allstacks[action.target]
        if not target.acceptsCards(source, source.cards[-action.ncards :]):
            return False
        source.playMoveMove(action.ncards, target)
    game.stats.hints += 1
    return True


def winnable_deal(game: Any) -> None:
    """Start a deal of the game proven winnable, drawn from wedlock's shipped tables."""
    names = names_of(game)
    if names is None:
        say(game, f"wedlock has winnable deals of {GAMES_TEXT}.", dialog=True)
        return
    try:
        number = winnable_number(*names, game.app.gamerandom)
    except NoWinnableDeal as err:
        say(game, f"wedlock: {err}.", dialog=True)
        return
    if game.changed() and not game.areYouSure("Winnable deal (wedlock)"):
        return
    from pysollib.pysolrandom import construct_random  # noqa: PLC0415 (only inside PySolFC)

    game.endGame()
    game.newGame(random=construct_random(str(number)))

"""PySolFC's own game engine, without its window: for the checks of this folder, which run
where a PySolFC source tree is given (WEDLOCK_PYSOLFC_SRC=/path/to/PySolFC).

PySolFC draws through one module, `pysollib.pysoltk`, which the engine imports for its
view: the canvas, card images, dialogs, timers. Here that module is a stand-in whose
every drawing call does nothing, set in `sys.modules` before any of PySolFC is imported.
Nothing else is replaced: games, stacks, moves, hints, the save and load code and the
rules that accept or refuse a move are PySolFC's own. The engine needs the two packages
PySolFC lists besides pysol-cards: attrs and configobj (`pip install attrs configobj`).

Nothing of PySolFC is copied here; it is imported from the tree given, at test time.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from pathlib import Path
from typing import Any

SOURCE_VARIABLE = "WEDLOCK_PYSOLFC_SRC"
# PySolFC's id of each of its four games, by wedlock's game and rule set
GAME_IDS = {("monte-carlo", "pysol"): 89, ("monte-carlo", "weddings"): 212, ("monte-carlo", "2decks"): 216, ("matrimony", "pysol"): 424}


def source() -> Path | None:
    """The PySolFC source tree named by WEDLOCK_PYSOLFC_SRC, if it is one."""
    named = os.environ.get(SOURCE_VARIABLE, "")
    if not named or not (Path(named) / "pysollib" / "game").is_dir():
        return None
    return Path(named)


def why_not() -> str | None:
    """Why the engine cannot run here (None: it can)."""
    if source() is None:
        return f"no PySolFC source tree: set {SOURCE_VARIABLE} to one (a checkout of github.com/shlomif/PySolFC)"
    for needed in ("attr", "configobj", "pysol_cards"):
        try:
            importlib.import_module(needed)
        except ImportError:
            return f"PySolFC's engine needs {needed!r} (pip install attrs configobj)"
    return None


class Nothing:
    """What every drawing call gets and gives: callable, any attribute, zero as a number,
    empty as a container, false as a truth."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __call__(self, *args: Any, **kwargs: Any) -> Nothing:
        return Nothing()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return Nothing()

    def __bool__(self) -> bool:
        return False

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0

    def __int__(self) -> int:
        return 0

    def __index__(self) -> int:
        return 0

    def __float__(self) -> float:
        return 0.0

    def __getitem__(self, key: Any) -> Nothing:
        return Nothing()

    def _number(self, other: Any) -> int:
        return 0

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __floordiv__ = _number

    def __lt__(self, other: Any) -> bool:
        return False

    __gt__ = __le__ = __ge__ = __lt__

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Nothing)

    def __hash__(self) -> int:
        return 0


def _view_module() -> types.ModuleType:
    """A stand-in for `pysollib.pysoltk`: constants as their names, classes and functions
    that draw nothing, and the few values the engine computes with."""
    view = types.ModuleType("pysollib.pysoltk")

    def anything(name: str) -> Any:
        if name.startswith("__"):  # `__file__` and the like: absent, as tools that walk sys.modules expect
            raise AttributeError(name)
        return name if name.isupper() else Nothing

    view.__getattr__ = anything  # type: ignore[attr-defined]
    view.TOOLKIT = "tk"
    view.STATUSBAR_ITEMS = ()
    view.TOOLBAR_BUTTONS = ()
    view.EVENT_HANDLED, view.EVENT_PROPAGATE = 1, 0
    view.TclError = RuntimeError
    for name in ("after", "after_idle", "after_cancel", "bind", "unbind_destroy", "wm_map", "wm_withdraw", "get_text_width"):
        setattr(view, name, lambda *args, **kwargs: 0)
    view.markImage = lambda image: image
    return view


def _card_class(abstract: type) -> type:
    """PySolFC's card without its picture: where it lies and which face shows."""

    class Card(abstract):  # type: ignore[misc, valid-type]
        def __init__(self, id: int, deck: int, suit: int, rank: int, game: Any, x: int = 0, y: int = 0) -> None:
            abstract.__init__(self, id, deck, suit, rank, game, x=x, y=y)
            self.item = Nothing()

        def moveTo(self, x: int, y: int) -> None:  # noqa: N802 (PySolFC's names)
            self.x, self.y = x, y

        def moveBy(self, dx: int, dy: int) -> None:  # noqa: N802
            self.x, self.y = self.x + dx, self.y + dy

        def showFace(self, unhide: int = 1) -> None:  # noqa: N802
            self.face_up = 1

        def showBack(self, unhide: int = 1) -> None:  # noqa: N802
            self.face_up = 0

        def animatedFlip(self, *args: Any, **kwargs: Any) -> bool:  # noqa: N802
            return False

        def __getattr__(self, name: str) -> Any:  # every other drawing method
            if name.startswith("__"):
                raise AttributeError(name)
            return lambda *args, **kwargs: None

    return Card


class Images(Nothing):
    """Card sizes the layouts compute with; every picture is nothing."""

    CARDW, CARDH, CARD_XOFFSET, CARD_YOFFSET = 73, 97, 14, 18
    SHADOW_XOFFSET = SHADOW_YOFFSET = CARD_DX = CARD_DY = reduced = 0

    def getSize(self) -> tuple[int, int]:  # noqa: N802
        return self.CARDW, self.CARDH

    def getOffsets(self, *args: Any) -> tuple[int, int]:  # noqa: N802
        return 0, self.CARD_YOFFSET

    def getDelta(self) -> tuple[int, int]:  # noqa: N802
        return 0, 0


_loaded: dict[str, Any] = {}


def load() -> Any:
    """The engine's modules (`pysollib`), imported once from the tree given."""
    if "pysollib" in _loaded:
        return _loaded["pysollib"]
    tree = source()
    if tree is None:
        raise RuntimeError(why_not() or "no PySolFC source tree")
    sys.path.insert(0, str(tree))
    sys.modules["pysollib.pysoltk"] = view = _view_module()
    acard = importlib.import_module("pysollib.acard")
    view.Card = _card_class(acard.AbstractCard)
    importlib.import_module("pysollib.games")  # registers the built-in games
    _loaded["pysollib"] = importlib.import_module("pysollib")
    return _loaded["pysollib"]


class App(Nothing):
    """The few parts of PySolFC's application a game reads as values: its options, its
    statistics, its images; the rest (menus, toolbar, canvas) draws nothing."""

    def __init__(self) -> None:
        load()
        options = importlib.import_module("pysollib.options")
        statistics = importlib.import_module("pysollib.app_statistics")
        mfxutil = importlib.import_module("pysollib.mfxutil")
        self.opt = options.Options()
        # No animation: it only moves pictures, and waits between its frames to do so.
        self.opt.animations = 0
        self.opt.redeal_animation = self.opt.win_animation = self.opt.flip_animation = False
        self.stats = statistics.Statistics()
        self.images = Images()
        self.intro = mfxutil.Struct(progress=None)
        self.gamerandom = importlib.import_module("pysollib.pysolrandom").PysolRandom()
        self.debug = 0
        self.audio = None


def new_game(game_id: int, number: str | int | None = None) -> Any:
    """A PySolFC game of `game_id` (89 Monte Carlo, 212 Weddings, 216 Monte Carlo (2
    Decks), 424 Matrimony), dealt as "Select game by number" deals `number` (a fresh
    random deal when None)."""
    load()
    gamedb = importlib.import_module("pysollib.gamedb")
    random = importlib.import_module("pysollib.pysolrandom")
    info = gamedb.GAME_DB.get(game_id)
    game = info.gameclass(info)
    game.create(App())
    game.newGame(random=None if number is None else random.construct_random(str(number)))
    return game


def load_plugins(folder: Path) -> None:
    """Load the plugins of a folder as PySolFC does at its start: its application's own
    `loadPlugins`, which runs each `*.py` of the folder (after the built-in games are
    registered, as here)."""
    load()
    application = importlib.import_module("pysollib.app").Application
    application.__new__(application).loadPlugins(str(folder))


def demo_struct(game: Any) -> Any:
    """What `Game.startDemo` sets up for a Demo (it needs a window to start one itself),
    with no pause between moves: the pause only shows the hint arrow."""
    mfxutil = importlib.import_module("pysollib.mfxutil")
    return mfxutil.Struct(
        level=2, mixed=0, sleep=0, last_deal=[], snapshots=[], hint=None, keypress=None, start_demo_moves=game.stats.demo_moves, info_text=None
    )


def run_demo(game: Any) -> bool:
    """Play the game with PySolFC's Demo until it wins or gives up, as `Game.demoEvent`
    does: a move at a time, each finished, until `isGameWon` or the move says it is
    finished (the Demo's "This won't come out..."). Whether the Demo won."""
    game.demo = demo_struct(game)
    try:
        while True:
            finished = game.playOneDemoMove(game.demo)
            game.finishMove()
            game.hints.list = None
            if game.isGameWon():
                return True
            if finished:
                return False
    finally:
        game.demo = None


def card_text(card: Any) -> str:
    """A PySolFC card in wedlock's notation: `QD`."""
    return "A23456789TJQK"[card.rank] + "CSHD"[card.suit]

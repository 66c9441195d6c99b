"""A stand-in for the few parts of PySolFC's games, stacks and application that wedlock's
plugin uses, for the tests that run without PySolFC.

Each class offers the names tests/golden/pysolfc-plugin-names.json lists for its kind of
object and no other (the classes have slots), so the plugin cannot use more unnoticed;
their helpers are named `_si_...`. Where PySolFC's rules decide a move, the stand-in asks
wedlock's referee: the checks of tests/pysolfc/ run the plugin in PySolFC's own engine.
The stand-in's own hint class and Demo play as simply as PySolFC's do: its hints are the
first legal move it finds, and its Demo gives up when a click on the stock deals nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import wedlock
from wedlock.games.matrimony import moves as matrimony_moves
from wedlock.games.montecarlo import moves as monte_carlo_moves
from wedlock.pysolfc.ids import GAMES_BY_ID, MATRIMONY_FOUNDATIONS, MATRIMONY_PILES

NAMES = json.loads((Path(__file__).parent.parent / "golden" / "pysolfc-plugin-names.json").read_text())


class Card:
    __slots__ = ("rank", "suit")

    def __init__(self, card: wedlock.Card) -> None:
        self.rank, self.suit = card.rank - 1, card.suit


class Stack:
    __slots__ = ("_si_game", "_si_id", "cards")

    def __init__(self, game: Game, number: int) -> None:
        self._si_game, self._si_id, self.cards = game, number, []

    def acceptsCards(self, from_stack: Stack, cards: list[Card]) -> bool:  # noqa: N802
        return self._si_game._si_drag(from_stack, self, len(cards), make=False)

    def moveMove(self, ncards: int, to_stack: Stack, frames: int = -1, shadow: int = -1) -> None:  # noqa: N802
        if not self._si_game._si_drag(self, to_stack, ncards, make=True):
            raise AssertionError(f"the stand-in refuses the drag from stack {self._si_id} to {to_stack._si_id}")

    def playMoveMove(self, ncards: int, to_stack: Stack, frames: int = -1, shadow: int = -1, sound: bool = True) -> None:  # noqa: N802
        self.moveMove(ncards, to_stack)


class Talon(Stack):
    __slots__ = ("round",)

    def __init__(self, game: Game, number: int) -> None:
        super().__init__(game, number)
        self.round = 1


class Stacks:
    __slots__ = ("foundations", "rows", "talon")


class Options:
    __slots__ = ("colors", "statusbar", "timeouts")

    def __init__(self) -> None:
        self.colors, self.statusbar, self.timeouts = {"hintarrow": "#303030"}, True, {"hint": 1.0, "demo": 1.0}


class StatusBar:
    __slots__ = ("_si_texts",)

    def __init__(self) -> None:
        self._si_texts: list[str] = []

    def updateText(self, **kw: Any) -> None:  # noqa: N802
        assert set(kw) == {"info"}
        self._si_texts.append(kw["info"])


class Menu:
    __slots__ = ("_si_entries",)

    def __init__(self) -> None:
        self._si_entries: list[tuple[str, Callable[[], None] | None]] = []

    def add_separator(self) -> None:
        self._si_entries.append(("-", None))

    def add_command(self, label: str, command: Callable[[], None]) -> None:
        self._si_entries.append((label, command))


class MenuBar:
    __slots__ = ("menupath",)

    def __init__(self) -> None:
        self.menupath = {".menubar.assist": (None, 0, Menu())}


class Top:
    """A window's event loop: `after` queues a call, `_si_run` makes the queued calls."""

    __slots__ = ("_si_calls",)

    def __init__(self) -> None:
        self._si_calls: list[Callable[[], None]] = []

    def after(self, ms: int, callback: Callable[[], None]) -> None:
        self._si_calls.append(callback)

    def _si_run(self, most: int = 10_000) -> int:
        made = 0
        while self._si_calls and made < most:
            self._si_calls.pop(0)()
            made += 1
        return made


class App:
    __slots__ = ("game", "gamerandom", "menubar", "opt", "statusbar")

    def __init__(self, gamerandom: Any = None) -> None:
        self.game: Any = None
        self.gamerandom, self.menubar, self.opt, self.statusbar = gamerandom, MenuBar(), Options(), StatusBar()


class Hints:
    __slots__ = ("_si_index", "_si_level", "list")

    def __init__(self) -> None:
        self.list: list[tuple[Any, ...]] | None = None
        self._si_level, self._si_index = -1, 0


class Stats:
    __slots__ = ("hints",)

    def __init__(self) -> None:
        self.hints = 0


class Demo:
    __slots__ = ("__weakref__", "hint", "level", "sleep")

    def __init__(self) -> None:
        self.hint, self.level, self.sleep = None, 2, 0.0


class Hint:
    """The stand-in's hint class: as PySolFC's, a list of 7-tuples built by `addHint`
    from `computeHints`, and at the Demo's level a click on the stock last."""

    __slots__ = ("_si_hints", "game", "level")

    def __init__(self, game: Game, level: int) -> None:
        self.game, self.level, self._si_hints = game, level, []

    def addHint(self, score: int, ncards: int, from_stack: Any, to_stack: Any, text_color: Any = None, forced_move: Any = None) -> None:  # noqa: N802
        self._si_hints.append((score, -len(self._si_hints), ncards, from_stack, to_stack, "black", None))

    def computeHints(self) -> None:  # noqa: N802
        move = self.game._si_first_drag()
        if move is not None:
            self.addHint(1, *move)

    def _si_get(self) -> list[tuple[Any, ...]]:
        self.computeHints()
        if self.level >= 2 and self.game._si_can_deal():
            self.addHint(0, 0, self.game.s.talon, None)
        return sorted(self._si_hints, key=lambda h: h[:2], reverse=True)


class Game:
    """One of the four games, or a game of another id (which the plugin leaves alone)."""

    __slots__ = ("__weakref__", "_si_highlighted", "_si_position", "_si_random", "allstacks", "app", "demo", "hints", "id", "pause", "s", "stats", "top")
    Hint_Class: Any = Hint

    def __init__(self, game_id: int, number: int | str, app: App | None = None, windowed: bool = False) -> None:
        self.id, self.app, self.top = game_id, app or App(), Top() if windowed else None
        self.app.game = self
        self.demo: Any = None
        self.hints, self.stats, self.pause = Hints(), Stats(), False
        self._si_highlighted: list[Any] = []
        self._si_random: Any = None
        self.createGame()
        self._si_deal(number)

    # what PySolFC's game offers

    def createGame(self) -> None:  # noqa: N802
        self.s = Stacks()
        matrimony = self._si_names()[0] == "matrimony"
        count = 25 if matrimony else 27
        self.allstacks: list[Stack] = [Talon(self, 0) if (matrimony and n == 0) or (not matrimony and n == 26) else Stack(self, n) for n in range(count)]
        if matrimony:
            self.s.talon, self.s.foundations, self.s.rows = self.allstacks[0], self.allstacks[1:9], self.allstacks[9:]
        else:
            self.s.rows, self.s.foundations, self.s.talon = self.allstacks[:25], [self.allstacks[25]], self.allstacks[26]

    def createRandom(self, random: Any) -> None:  # noqa: N802
        self._si_random = random

    def showHint(self, level: int = 0, sleep: float = 1.5, taken_hint: Any = None) -> Any:  # noqa: N802
        if level != self.hints._si_level:
            self.hints._si_level, self.hints.list = level, None
        if self.hints.list is None:
            self.hints.list, self.hints._si_index = self.Hint_Class(self, level)._si_get(), 0
        if not self.hints.list:
            return None
        hint = self.hints.list[self.hints._si_index % len(self.hints.list)]
        self.hints._si_index += 1
        if hint[2] == 0:
            assert level >= 2, "PySolFC's showHint takes a click on the stock only at the Demo's level"
            assert hint[3] is self.s.talon
        else:
            assert hint[4].acceptsCards(hint[3], hint[3].cards[-hint[2] :])
        return hint

    def playOneDemoMove(self, demo: Any) -> int:  # noqa: N802
        hint = self.showHint(demo.level, demo.sleep, taken_hint=demo.hint)
        demo.hint = hint
        if not hint:
            return 1
        if hint[2] == 0:
            return 1 if self.dealCards() == 0 else 0
        hint[3].moveMove(hint[2], hint[4])
        return 0

    def dealCards(self) -> int:  # noqa: N802
        if not self._si_can_deal():
            return 0
        before = sum(len(s.cards) for s in self.allstacks if s is not self.s.talon and s not in self.s.foundations)
        stock = len(self.s.talon.cards)
        self._si_play(self._si_stock_move())
        after = sum(len(s.cards) for s in self.allstacks if s is not self.s.talon and s not in self.s.foundations)
        return stock - len(self.s.talon.cards) if stock else max(0, after - before)

    def isGameWon(self) -> bool:  # noqa: N802
        return self._si_position.seen.cards_left() == 0

    def _highlightEmptyStack(self, info: list[tuple[Any, str]], sleep: float = 1.5) -> int:  # noqa: N802
        self._si_highlighted.append((info, sleep))
        return 1

    def endGame(self) -> None:  # noqa: N802
        pass

    def newGame(self, random: Any = None) -> None:  # noqa: N802
        self.createRandom(random)
        self._si_deal(random[1])

    def changed(self) -> bool:
        return False

    def areYouSure(self, title: str | None = None) -> bool:  # noqa: N802
        return True

    # the stand-in's workings

    def _si_names(self) -> tuple[str, str]:
        return GAMES_BY_ID.get(self.id, ("monte-carlo", "pysol"))

    def _si_deal(self, number: int | str) -> None:
        name, rules = self._si_names()
        self._si_position = wedlock.position(name, number, rules)
        self._si_lay()

    def _si_lay(self) -> None:
        seen = self._si_position.seen
        if self._si_names()[0] == "matrimony":
            for stack, cards in zip(self.s.rows, seen.piles):
                stack.cards = [Card(c) for c in cards]
            for stack, cards in zip(self.s.foundations, seen.foundations):
                stack.cards = [Card(c) for c in cards]
            self.s.talon.round = seen.redeals + 1
        else:
            for stack, card in zip(self.s.rows, seen.grid):
                stack.cards = [] if card is None else [Card(card)]
            self.s.foundations[0].cards = [Card(c) for c in seen.removed]
        self.s.talon.cards = [Card(c) for c in reversed(seen.stock)]

    def _si_move(self, source: Stack, target: Stack, ncards: int) -> Any:
        """wedlock's move for a drag of the stand-in's, or None."""
        if ncards != 1 or not source.cards or not target.cards and self._si_names()[0] != "matrimony":
            return None
        seen, a, b = self._si_position.seen, source._si_id, target._si_id
        if self._si_names()[0] != "matrimony":
            if max(a, b) >= 25:
                return None
            return monte_carlo_moves.Pair((a, b), (seen.grid[a], seen.grid[b]))
        if b not in MATRIMONY_FOUNDATIONS:
            return None
        if a in MATRIMONY_PILES:
            return matrimony_moves.Play(MATRIMONY_PILES.index(a), seen.piles[MATRIMONY_PILES.index(a)][-1], MATRIMONY_FOUNDATIONS.index(b))
        if a in MATRIMONY_FOUNDATIONS:
            card = seen.foundations[MATRIMONY_FOUNDATIONS.index(a)][-1]
            return matrimony_moves.Shift(MATRIMONY_FOUNDATIONS.index(a), MATRIMONY_FOUNDATIONS.index(b), card)
        return None

    def _si_drag(self, source: Stack, target: Stack, ncards: int, make: bool) -> bool:
        move = self._si_move(source, target, ncards)
        if move is None or not self._si_legal(move):
            return False
        if make:
            self._si_play(move)
        return True

    def _si_legal(self, move: Any) -> bool:
        chosen = self._si_position.deal
        try:
            chosen.game.after(chosen.rules, self._si_position.seen, move)
        except wedlock.WedlockError:
            return False
        return True

    def _si_play(self, move: Any) -> None:
        self._si_position = wedlock.Position(
            self._si_position.deal, self._si_position.deal.game.after(self._si_position.deal.rules, self._si_position.seen, move)
        )
        self.hints.list = None
        self._si_lay()

    def _si_stock_move(self) -> Any:
        seen = self._si_position.seen
        if self._si_names()[0] != "matrimony":
            return monte_carlo_moves.Consolidate()
        return matrimony_moves.Deal() if seen.stock else matrimony_moves.Redeal(15 - seen.redeals)

    def _si_can_deal(self) -> bool:
        return self._si_legal(self._si_stock_move())

    def _si_first_drag(self) -> tuple[int, Stack, Stack] | None:
        for source in self.allstacks:
            for target in self.allstacks:
                if source is not target and self._si_drag(source, target, 1, make=False):
                    return 1, source, target
        return None


KINDS: dict[str, type] = {
    "game": Game,
    "stacks": Stacks,
    "stack": Stack,
    "card": Card,
    "app": App,
    "options": Options,
    "statusbar": StatusBar,
    "menubar": MenuBar,
    "menu": Menu,
    "top": Top,
    "hints": Hints,
    "stats": Stats,
    "demo": Demo,
    "hint_class": Hint,
}


def offered(cls: type) -> set[str]:
    """The names a stand-in class offers PySolFC's way: its slots and its methods and class
    attributes, less Python's own and the stand-in's helpers."""
    names: set[str] = set()
    for klass in cls.__mro__[:-1]:
        names |= set(getattr(klass, "__slots__", ())) | set(vars(klass))
    return {n for n in names if not n.startswith(("__", "_si_"))}

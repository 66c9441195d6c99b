"""Reading a game PySolFC saved (File > Save, a `.pso` file) without PySolFC, and without
running anything the file names.

A save is a run of pickles, read by one unpickler (later pickles refer back to values of
earlier ones). A pickle can name any function for the unpickler to call, so this reader
first reads the file's opcodes and refuses those a save never holds, then unpickles with
`find_class` answering only for the classes a save of these games names, each mapped to
a record of wedlock's own that keeps its attributes as data and does nothing else. What
comes out is checked value by value: the game, its number, every stack's cards, the
history. Anything else (another game, a version whose format is not known, a damaged or
crafted file) is a SavedGameError in one line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..basics.errors import OutOfTime, SavedGameError
from ..basics.input_files import MOST_BYTES, UNREADABLE, read_bytes, why_unreadable
from ..basics.numbering import MS_LIMIT, MS_MAX_SEED, GameNumber
from ..basics.printable import printable
from . import ids
from .atomic import Atomic, Flip, Layout, MoveCards, NextRound, Step, UpdateStack
from .pickle_reader import Made, Named, PickleReader, crafted

MAGIC = "PySolFC"
# The versions whose save format is known: 3.2.0 first saves the Microsoft generator's
# state as a pair, and nothing of the format changed from there to 3.6.1 (master too).
OLDEST, NEWEST = (3, 2, 0), (3, 6, 1)
GAME_VERSION = 1  # the four games' own save format
MS_LONG_BIT = 1 << 1000  # marks a number dealt by the Microsoft generator
CUSTOM_BIT = 1 << 999  # with it: a deal PySolFC did not number
NUMBER_BITS = 1001  # the game's number: MS_LONG_BIT and a seed below it
MOST_MT_SEED = 10**20  # the largest number PySolFC's Mersenne Twister deals take
KNOWN = "Monte Carlo (89), Weddings (212), Monte Carlo (2 Decks) (216) and Matrimony (424)"


@dataclass(frozen=True)
class Shape:
    """What a save of one of PySolFC's games holds: the game's title, its stacks, its decks, the last round
    its talon reaches, and the longest history it may keep (docs/PYSOLFC.md, "How long a
    history can be")."""

    title: str
    stacks: int
    decks: int
    last_round: int
    most_steps: int


# A Monte Carlo game removes 2 cards a step, and each consolidation needs a pair before it.
# Matrimony: 124 plays, deals and redeals, and between two of them at most 13 shifts of each
# of the 4 suits before a suit's split repeats: 124 + 125 * 4 * 13.
MATRIMONY_MOST_STEPS = 124 + 125 * 4 * 13
SHAPES = {
    89: Shape("Monte Carlo", 27, 1, 1, 52),
    212: Shape("Weddings", 27, 1, 1, 52),
    216: Shape("Monte Carlo (2 Decks)", 27, 2, 1, 104),
    424: Shape("Matrimony", 25, 2, 17, MATRIMONY_MOST_STEPS),
}
# The most atomic moves one step records: a Matrimony redeal of a pile of 102 cards moves
# and flips each card back to the talon and out again (4 each), and advances the round.
MOST_ATOMICS = 4 * 102 + 1


class _Object(Made):
    """An object of one of PySolFC's classes, kept as its attributes: nothing of it runs."""

    __slots__ = ("kind", "attributes")

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind
        self.attributes: dict[str, Any] | None = None

    def set_state(self, state: Any) -> None:
        if type(state) is not dict or not all(type(key) is str for key in state):
            raise SavedGameError(f"damaged: a {self.kind} whose attributes are not named")
        self.attributes = state


class _Class(Named):
    """One of PySolFC's classes whose objects a save holds (made with no arguments)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __str__(self) -> str:
        return self.kind

    def new(self, args: tuple[Any, ...]) -> _Object:
        if args:
            raise crafted(f"it makes a {self.kind} with arguments, which a saved game never does")
        return _Object(self.kind)


class _Random(Made):
    """PySolFC's Mersenne Twister generator, which a save holds only for its state: that
    state is dropped (the game's number says all there is to know)."""

    __slots__ = ()
    atom = True

    def set_state(self, state: Any) -> None:
        pass


class _RandomClass(Named):
    """The generator's class, which a save calls with no arguments."""

    def __str__(self) -> str:
        return "pysol_cards.random.MTRandom"

    def call(self, args: tuple[Any, ...]) -> _Random:
        if args:
            raise crafted("it makes a random generator with arguments, which a saved game never does")
        return _Random()


class _RandomSeed(Made):
    """What the generator's `seed` attribute stands for in a save: nothing to keep."""

    __slots__ = ()
    atom = True


class _Getattr(Named):
    """The one attribute lookup a save asks for (`getattr(generator, "seed")`), as a record."""

    def __str__(self) -> str:
        return "builtins.getattr"

    def call(self, args: tuple[Any, ...]) -> _RandomSeed:
        if len(args) != 2 or type(args[0]) is not _Random or args[1] != "seed":
            raise crafted("it looks up an attribute a saved game never does")
        return _RandomSeed()


GAME_RECORDS = ("GameSaveInfo", "GameGlobalSaveInfo", "GameMoves", "GameGlobalStatsStruct", "GameStatsStruct")
MOVE_RECORDS = ("AMoveMove", "AFlipMove", "ANextRoundMove", "AUpdateStackMove")
ALLOWED: dict[tuple[str, str], Named] = {
    **{("pysollib.game", name): _Class(name) for name in GAME_RECORDS},
    **{("pysollib.move", name): _Class(name) for name in MOVE_RECORDS},
    ("pysol_cards.random", "MTRandom"): _RandomClass(),
    ("builtins", "getattr"): _Getattr(),
}


@dataclass(frozen=True)
class SavedGame:
    """What a save says: the PySolFC version that wrote it, the game and its number, every
    stack's cards, and the history (steps past `index` are undone moves, for Redo)."""

    version: tuple[int, ...]
    game_id: int
    number: GameNumber
    layout: Layout
    finished: bool
    history: tuple[Step, ...]
    index: int

    @property
    def names(self) -> tuple[str, str]:
        """wedlock's game and rule set."""
        return ids.GAMES_BY_ID[self.game_id]


def read(source: str | Path | bytes, deadline: float | None = None) -> SavedGame:
    """The save at a path (or its bytes); a SavedGameError says in one line why it cannot
    be read. A `deadline` (`time.monotonic()`'s clock) stops the read with OutOfTime."""
    if isinstance(source, bytes):
        return parse(source, deadline)
    if not isinstance(source, (str, Path)):
        raise SavedGameError(f"a saved game is named by its path, not {type(source).__name__}")
    try:
        data = read_bytes(source, deadline)
    except UNREADABLE as err:
        raise SavedGameError(f"cannot read '{printable(str(source))}': {why_unreadable(err)}") from None
    try:
        return parse(data, deadline)
    except SavedGameError as err:
        raise type(err)(f"'{printable(str(source))}': {err}") from None


def parse(data: bytes, deadline: float | None = None) -> SavedGame:
    """The save these bytes hold (see `read`)."""
    if len(data) > MOST_BYTES:
        raise SavedGameError(f"{len(data):,} bytes, more than the {MOST_BYTES:,} a saved game may hold")
    if not data:
        raise SavedGameError("an empty file, not a saved game")
    if not data.startswith(b"\x80"):  # every pickle of a save starts by naming its protocol
        raise SavedGameError("not a game PySolFC saved")
    return _Reader(data, deadline).saved_game()


class _Reader:
    """The pickles of one save, read in their order by one reader (pickle_reader.py)."""

    def __init__(self, data: bytes, deadline: float | None) -> None:
        self.pickles = PickleReader(data, ALLOWED, deadline)
        self.deadline = deadline

    def next(self, what: str, most_bits: int | None = None) -> Any:
        """The next pickle's value."""
        if self.pickles.at_end:
            raise SavedGameError(f"damaged: it ends before {what}")
        return self.pickles.load() if most_bits is None else self.pickles.load(most_bits)

    def whole(self, what: str, low: int, high: int) -> int:
        """The next pickle, a whole number from low to high."""
        value = self.next(what)
        if type(value) is bool:
            value = int(value)
        if type(value) is not int or not low <= value <= high:
            raise SavedGameError(f"damaged: {what} is {_shown(value)}, not a number from {low} to {high}")
        return value

    def saved_game(self) -> SavedGame:
        if self.next("its name") != MAGIC:
            raise SavedGameError("not a game PySolFC saved")
        version = _version(self.next("its version"), self.next("its version"))
        bookmark = self.whole("its kind", 0, 2)
        if bookmark == 2:
            raise SavedGameError("a bookmark, not a saved game")
        game_version = self.whole("the game's save format", 0, 2**31)
        game_id = self.whole("the game's id", 0, 2**31)
        if game_id not in ids.GAMES_BY_ID:
            raise SavedGameError(f"a save of PySolFC's game {game_id}; wedlock reads its games {KNOWN}")
        if game_version != GAME_VERSION:
            raise SavedGameError(f"game {game_id} saved in its format {game_version}, which wedlock does not know")
        number = _number(self.next("the game's number", NUMBER_BITS))
        self.next("the shuffle's state")
        shape = SHAPES[game_id]
        layout = self.layout(shape)
        finished = self.whole("whether the game is over", 0, 1)
        if bookmark <= 1:
            self.record("GameSaveInfo", {"stack_caps": []})
            self.record("GameGlobalSaveInfo")
        history, index = self.moves(shape)
        if type(self.next("the positions seen")) is not list:
            raise SavedGameError("damaged: the positions seen are not a list")
        if bookmark <= 1:
            self.record("GameGlobalStatsStruct")
            self.record("GameStatsStruct")
        if self.next("its end") != "EOF" or not self.pickles.at_end:
            raise SavedGameError("damaged: it does not end where a saved game ends")
        return SavedGame(version, game_id, number, layout, bool(finished), history, index)

    def layout(self, shape: Shape) -> Layout:
        """Every stack's cards, and the talon's round."""
        count = self.whole("the number of stacks", 0, 2**31)
        if count != shape.stacks:
            raise SavedGameError(f"damaged: {count} stacks, where the game has {shape.stacks}")
        cards = 52 * shape.decks
        stacks = []
        for stack in range(count):
            n = self.whole(f"stack {stack}'s card count", 0, cards)
            stacks.append(tuple((self.whole("a card", 0, cards - 1), bool(self.whole("a card's side", 0, 1))) for _ in range(n)))
        held = sorted(card for stack in stacks for card, _ in stack)
        if held != list(range(cards)):
            raise SavedGameError(f"damaged: the stacks do not hold the {cards} cards of the game once each")
        return Layout(tuple(stacks), self.whole("the talon's round", 1, shape.last_round))

    def record(self, kind: str, exactly: dict[str, Any] | None = None) -> dict[str, Any]:
        """The attributes of the next pickle, an object of PySolFC's class `kind`."""
        value = self.next(f"its {kind}")
        if not isinstance(value, _Object) or value.kind != kind:
            raise SavedGameError(f"damaged: where its {kind} belongs it holds {_shown(value)}")
        if value.attributes is None:
            raise SavedGameError(f"damaged: its {kind} is empty (it was never given its attributes)")
        for name, wanted in (exactly or {}).items():
            if value.attributes.get(name) != wanted:
                raise SavedGameError(f"its {kind} holds what wedlock does not know for these games ({name})")
        return value.attributes

    def moves(self, shape: Shape) -> tuple[tuple[Step, ...], int]:
        """The history's steps, and how many of them are played."""
        attributes = self.record("GameMoves")
        history, index = attributes.get("history"), attributes.get("index")
        if type(history) is not list or not all(type(step) is list for step in history):
            raise SavedGameError("damaged: its history is not a list of steps")
        if len(history) > shape.most_steps:
            raise SavedGameError(
                f"its history holds {len(history):,} moves, more than the {shape.most_steps:,} any game of {shape.title} "
                "can take without going round in circles"
            )
        if any(len(step) > MOST_ATOMICS for step in history):
            raise SavedGameError(f"damaged: a move of its history records more than the {MOST_ATOMICS} card movements any move makes")
        if type(index) is not int or not 0 <= index <= len(history):
            raise SavedGameError("damaged: its history's place is not in the history")
        steps = []
        for step in history:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise OutOfTime("the time limit ran out while the saved game was read")
            steps.append(tuple(_atomic(a) for a in step))
        return tuple(steps), index


def _version(text: Any, version: Any) -> tuple[int, ...]:
    """The version of PySolFC that wrote a save, from its text and its tuple, which agree."""
    if type(version) is not tuple or not 1 <= len(version) <= 4 or not all(type(v) is int and 0 <= v < 1000 for v in version):
        raise SavedGameError("damaged: its version is not a version")
    if type(text) is not str or text != _dotted(version):
        raise SavedGameError(f"damaged: its version is written {_shown(text)} and {_dotted(version)}, which do not agree")
    if not OLDEST <= version <= NEWEST:
        raise SavedGameError(f"saved by PySolFC {text}; wedlock reads the saves of PySolFC {_dotted(OLDEST)} to {_dotted(NEWEST)}")
    return version


ATOMIC_FIELDS = {
    "AMoveMove": ("ncards", "from_stack_id", "to_stack_id", "frames", "shadow"),
    "AFlipMove": ("stack_id",),
    "ANextRoundMove": ("stack_id",),
    "AUpdateStackMove": ("stack_id", "flags"),
}


def _atomic(value: Any) -> Atomic:
    """One of PySolFC's atomic moves, as wedlock's value."""
    kind = value.kind if isinstance(value, _Object) else ""
    attributes = value.attributes if isinstance(value, _Object) else None
    if kind not in ATOMIC_FIELDS or attributes is None:
        raise SavedGameError(f"damaged: its history holds {_shown(value)}, which is no move of these games")
    fields = ATOMIC_FIELDS[kind]
    if set(attributes) != set(fields) or not all(type(attributes[f]) is int and -(2**31) <= attributes[f] < 2**31 for f in fields):
        raise SavedGameError(f"damaged: a {kind} in its history is not made of its numbers")
    got = [attributes[f] for f in fields]
    if kind == "AMoveMove":
        return MoveCards(*got)
    if kind == "AFlipMove":
        return Flip(*got)
    if kind == "ANextRoundMove":
        return NextRound(*got)
    return UpdateStack(*got)


def _number(value: Any) -> GameNumber:
    """The game number PySolFC saves: a Microsoft deal's marked by MS_LONG_BIT."""
    if type(value) is not int or value <= 0:
        raise SavedGameError("damaged: the game's number is not a number")
    if value & MS_LONG_BIT:
        if value & CUSTOM_BIT:
            raise SavedGameError("a deal PySolFC did not number (a custom game): wedlock cannot know its cards")
        seed = value - MS_LONG_BIT
        if not 1 <= seed <= MS_MAX_SEED:
            raise SavedGameError("damaged: its Microsoft deal number is out of range")
        return GameNumber(seed, True)
    if not MS_LIMIT <= value <= MOST_MT_SEED:
        raise SavedGameError("damaged: the game's number is out of PySolFC's range")
    return GameNumber(value, False)


def _shown(value: Any) -> str:
    """A value read from a file, as an error line shows it: its kind, or a short number or text."""
    if type(value) is int and abs(value) < 10**12:
        return str(value)
    if type(value) is str:
        return repr(printable(value[:20]))
    return f"a {type(value).__name__}" if not isinstance(value, _Object) else f"a {value.kind}"


def _dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))

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

import io
import pickle
import pickletools
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SavedGameError
from ..input_files import MOST_BYTES, UNREADABLE, read_bytes, why_unreadable
from ..numbering import MS_LIMIT, MS_MAX_SEED, GameNumber
from ..shown import printable
from . import ids
from .atomic import Atomic, Flip, Layout, MoveCards, NextRound, Step, UpdateStack

MAGIC = "PySolFC"
# The versions whose save format is known: 3.2.0 first saves the Microsoft generator's
# state as a pair, and nothing of the format changed from there to 3.6.1 (master too).
OLDEST, NEWEST = (3, 2, 0), (3, 6, 1)
GAME_VERSION = 1  # the four games' own save format
MS_LONG_BIT = 1 << 1000  # marks a number dealt by the Microsoft generator
CUSTOM_BIT = 1 << 999  # with it: a deal PySolFC did not number
MOST_MT_SEED = 10**20  # the largest number PySolFC's Mersenne Twister deals take

# The opcodes of the pickles a save holds: PySolFC's (protocol 5) and wedlock's (4).
OPCODES = frozenset(
    "PROTO FRAME STOP MARK POP POP_MARK DUP NONE NEWTRUE NEWFALSE BININT BININT1 BININT2 LONG1 LONG4 "
    "BINFLOAT SHORT_BINUNICODE BINUNICODE BINUNICODE8 SHORT_BINBYTES BINBYTES BINBYTES8 EMPTY_TUPLE TUPLE "
    "TUPLE1 TUPLE2 TUPLE3 EMPTY_LIST APPEND APPENDS LIST EMPTY_DICT SETITEM SETITEMS DICT MEMOIZE BINPUT "
    "LONG_BINPUT BINGET LONG_BINGET STACK_GLOBAL NEWOBJ REDUCE BUILD".split()
)
PUTS = ("BINPUT", "LONG_BINPUT")
KNOWN = "Monte Carlo (89), Weddings (212), Monte Carlo (2 Decks) (216) and Matrimony (424)"
# Each game's stacks, decks, and the last round its talon reaches, by PySolFC's id.
SHAPES = {89: (27, 1, 1), 212: (27, 1, 1), 216: (27, 2, 1), 424: (25, 2, 17)}


class _Object:
    """An object of one of PySolFC's classes, kept as its attributes: nothing of it runs."""

    __slots__ = ("attributes",)
    kind = ""

    def __setstate__(self, state: object) -> None:
        if type(state) is not dict or not all(type(key) is str for key in state):
            raise SavedGameError(f"damaged: a {self.kind} whose attributes are not named")
        self.attributes = state


def _object_class(kind: str) -> type[_Object]:
    return type(kind, (_Object,), {"__slots__": (), "kind": kind})


class _Random:
    """PySolFC's Mersenne Twister generator, which a save holds only for its state: that
    state is dropped (the game's number says all there is to know)."""

    __slots__ = ()

    def __setstate__(self, state: object) -> None:
        pass


class _RandomSeed:
    """What the generator's `seed` attribute stands for in a save: nothing to keep."""

    __slots__ = ()


def _attribute(owner: object, name: object) -> _RandomSeed:
    """The one attribute lookup a save asks for (`getattr(generator, "seed")`), as a record."""
    if type(owner) is not _Random or name != "seed":
        raise SavedGameError("damaged or crafted: it looks up an attribute a saved game never does")
    return _RandomSeed()


GAME_RECORDS = ("GameSaveInfo", "GameGlobalSaveInfo", "GameMoves", "GameGlobalStatsStruct", "GameStatsStruct")
MOVE_RECORDS = ("AMoveMove", "AFlipMove", "ANextRoundMove", "AUpdateStackMove")
ALLOWED: dict[tuple[str, str], Any] = {
    **{("pysollib.game", name): _object_class(name) for name in GAME_RECORDS},
    **{("pysollib.move", name): _object_class(name) for name in MOVE_RECORDS},
    ("pysol_cards.random", "MTRandom"): _Random,
    ("builtins", "getattr"): _attribute,
}


class _Unpickler(pickle.Unpickler):
    """An unpickler that knows only the names in ALLOWED, and maps them to wedlock's records."""

    def find_class(self, module: str, name: str) -> Any:
        found = ALLOWED.get((module, name))
        if found is None:
            shown = printable(f"{module}.{name}"[:80])
            raise SavedGameError(f"damaged or crafted: it names {shown}, which a saved game of these games never does")
        return found


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


def read(source: str | Path | bytes) -> SavedGame:
    """The save at a path (or its bytes); a SavedGameError says in one line why it cannot
    be read."""
    if isinstance(source, bytes):
        return parse(source)
    if not isinstance(source, (str, Path)):
        raise SavedGameError(f"a saved game is named by its path, not {type(source).__name__}")
    try:
        data = read_bytes(source)
    except UNREADABLE as err:
        raise SavedGameError(f"cannot read '{printable(str(source))}': {why_unreadable(err)}") from None
    try:
        return parse(data)
    except SavedGameError as err:
        raise SavedGameError(f"'{printable(str(source))}': {err}") from None


def parse(data: bytes) -> SavedGame:
    """The save these bytes hold (see `read`)."""
    if len(data) > MOST_BYTES:
        raise SavedGameError(f"{len(data):,} bytes, more than the {MOST_BYTES:,} a saved game may hold")
    if not data:
        raise SavedGameError("an empty file, not a saved game")
    if not data.startswith(b"\x80"):  # every pickle of a save starts by naming its protocol
        raise SavedGameError("not a game PySolFC saved")
    _scan(data)
    return _Reader(data).saved_game()


def _scan(data: bytes) -> None:
    """Refuse opcodes a save never holds, and memo places past what the file could fill,
    before anything is unpickled."""
    stream, ops = io.BytesIO(data), 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # pickletools on an old string opcode's odd escapes
        try:
            while stream.tell() < len(data):
                for op, arg, _ in pickletools.genops(stream):
                    ops += 1
                    if op.name not in OPCODES:
                        raise SavedGameError(f"damaged or crafted: it holds the pickle opcode {op.name}, which a saved game never does")
                    if op.name in PUTS and isinstance(arg, int) and arg > ops:
                        raise SavedGameError("damaged or crafted: a pickle keeps a value far past its size")
        except SavedGameError:
            raise
        except (ValueError, EOFError):  # what pickletools says of bytes that are no pickle
            raise SavedGameError(_damaged(data, stream.tell())) from None


def _damaged(data: bytes, where: int) -> str:
    if not data.startswith(b"\x80"):
        return "not a game PySolFC saved"
    return f"damaged: the file breaks off or goes wrong at byte {where:,} of {len(data):,}"


class _Reader:
    """The pickles of one save, read in their order with one unpickler."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.stream = io.BytesIO(data)
        self.unpickler = _Unpickler(self.stream, fix_imports=False)

    def next(self, what: str) -> Any:
        """The next pickle's value."""
        if self.stream.tell() >= len(self.data):
            raise SavedGameError(f"damaged: it ends before {what}")
        try:
            return self.unpickler.load()
        except SavedGameError:
            raise
        except Exception:  # whatever a damaged or crafted pickle makes the unpickler raise
            raise SavedGameError(_damaged(self.data, self.stream.tell())) from None

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
        version_text = self.next("its version")
        version = self.next("its version")
        if type(version) is not tuple or not 1 <= len(version) <= 4 or not all(type(v) is int for v in version):
            raise SavedGameError("damaged: its version is not a version")
        if not OLDEST <= version <= NEWEST:
            shown = printable(version_text[:20]) if isinstance(version_text, str) else ".".join(map(str, version))
            raise SavedGameError(f"saved by PySolFC {shown}; wedlock reads the saves of PySolFC {_dotted(OLDEST)} to {_dotted(NEWEST)}")
        bookmark = self.whole("its kind", 0, 2)
        if bookmark == 2:
            raise SavedGameError("a bookmark, not a saved game")
        game_version = self.whole("the game's save format", 0, 2**31)
        game_id = self.whole("the game's id", 0, 2**31)
        if game_id not in ids.GAMES_BY_ID:
            raise SavedGameError(f"a save of PySolFC's game {game_id}; wedlock reads its games {KNOWN}")
        if game_version != GAME_VERSION:
            raise SavedGameError(f"game {game_id} saved in its format {game_version}, which wedlock does not know")
        number = _number(self.next("the game's number"))
        self.next("the shuffle's state")
        layout = self.layout(*SHAPES[game_id])
        finished = self.whole("whether the game is over", 0, 1)
        if bookmark <= 1:
            self.record("GameSaveInfo", {"stack_caps": []})
            self.record("GameGlobalSaveInfo")
        history, index = self.moves()
        if type(self.next("the positions seen")) is not list:
            raise SavedGameError("damaged: the positions seen are not a list")
        if bookmark <= 1:
            self.record("GameGlobalStatsStruct")
            self.record("GameStatsStruct")
        if self.next("its end") != "EOF" or self.stream.tell() != len(self.data):
            raise SavedGameError("damaged: it does not end where a saved game ends")
        return SavedGame(version, game_id, number, layout, bool(finished), history, index)

    def layout(self, stacks_wanted: int, decks: int, last_round: int) -> Layout:
        """Every stack's cards, and the talon's round."""
        count = self.whole("the number of stacks", 0, 2**31)
        if count != stacks_wanted:
            raise SavedGameError(f"damaged: {count} stacks, where the game has {stacks_wanted}")
        stacks = []
        for stack in range(count):
            n = self.whole(f"stack {stack}'s card count", 0, 52 * decks)
            stacks.append(tuple((self.whole("a card", 0, 52 * decks - 1), bool(self.whole("a card's side", 0, 1))) for _ in range(n)))
        held = sorted(card for stack in stacks for card, _ in stack)
        if held != list(range(52 * decks)):
            raise SavedGameError(f"damaged: the stacks do not hold the {52 * decks} cards of the game once each")
        return Layout(tuple(stacks), self.whole("the talon's round", 1, last_round))

    def record(self, kind: str, exactly: dict[str, Any] | None = None) -> dict[str, Any]:
        """The attributes of the next pickle, an object of PySolFC's class `kind`."""
        value = self.next(f"its {kind}")
        attributes = _attributes(value)
        if type(value) is not ALLOWED["pysollib.game", kind] or attributes is None:
            raise SavedGameError(f"damaged: where its {kind} belongs it holds {_shown(value)}")
        for name, wanted in (exactly or {}).items():
            if attributes.get(name) != wanted:
                raise SavedGameError(f"its {kind} holds what wedlock does not know for these games ({name})")
        return attributes

    def moves(self) -> tuple[tuple[Step, ...], int]:
        """The history's steps, and how many of them are played."""
        attributes = self.record("GameMoves")
        history, index = attributes.get("history"), attributes.get("index")
        if type(history) is not list or not all(type(step) is list for step in history):
            raise SavedGameError("damaged: its history is not a list of steps")
        if type(index) is not int or not 0 <= index <= len(history):
            raise SavedGameError("damaged: its history's place is not in the history")
        return tuple(tuple(_atomic(a) for a in step) for step in history), index


ATOMIC_FIELDS = {
    "AMoveMove": ("ncards", "from_stack_id", "to_stack_id", "frames", "shadow"),
    "AFlipMove": ("stack_id",),
    "ANextRoundMove": ("stack_id",),
    "AUpdateStackMove": ("stack_id", "flags"),
}


def _atomic(value: Any) -> Atomic:
    """One of PySolFC's atomic moves, as wedlock's value."""
    kind = value.kind if isinstance(value, _Object) else ""
    attributes = _attributes(value)
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


def _attributes(value: Any) -> dict[str, Any] | None:
    """A record's attributes, None when it has none (an object the file never gave them)."""
    return getattr(value, "attributes", None) if isinstance(value, _Object) else None


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

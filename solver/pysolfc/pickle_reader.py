"""A reader of pickle opcodes of wedlock's own, for PySolFC's saves: linear in the file,
bounded in depth and memory, and running nothing.

Python's unpickler builds whatever a file describes before anyone can look at it: a tuple
nested 200,000 deep that it hashes recursively (a crash), a dict of ints that all hash
alike (quadratic, inside C, where no signal reaches). This reader steps through the
opcodes in Python, so Ctrl-C and a deadline stop it at once, and refuses as soon as the
file asks for what no save of these games holds:

- an opcode outside the few a save of protocol 2 to 5 is written with;
- what Python's pickler never writes: a pickle that does not start with its protocol, a
  value kept in the memo twice, a list or dict filled otherwise than in its batches, an
  object given its state twice;
- a container nested more than MOST_DEPTH deep, a dict of more than MOST_KEYS items, a dict
  key that is not a name or a small number, a pickle of more than MOST_STACK values at once;
- an int of more than `most_bits` bits (the caller lifts it for the game's number, which
  PySolFC marks with bit 1,000);
- a list, dict, tuple or object taken back from the memo: a save refers back only to
  names, classes and its random generator, so its values are a tree. A container is in
  one place only, and is whole before it gets there (it leaves the stack when it is put
  somewhere, and nothing brings it back), so a list cannot hold itself, nor be filled
  after it was put in a thousand places, and each container's depth is known when it is
  made;
- more memory than MOST_WEIGHT bytes for each byte of the file (and MOST_WEIGHT_FLOOR
  besides): each value is counted at about what Python takes for it, and a value taken
  back from the memo as a copy of it (a text as a copy of its characters).

So the values read, and the work after the read, are linear in the file. The clock, the
stack and the memory counted are looked at every CHECK_EVERY bytes, whatever the opcodes.
The slowest 4 MiB file (a list of four million Nones) reads in about 0.7 s of processor
time; a run of one opcode is refused within its first 12 KB. What a file
names (`module.name`) comes from `classes`, which the caller fills with records of its own
(`Named`); nothing else is looked up.
"""

from __future__ import annotations

import struct
import sys
import time
from collections.abc import Mapping
from typing import Any

from ..basics.errors import OutOfTime, SavedGameError
from ..basics.printable import printable

MOST_DEPTH = 8  # a save nests 6 deep: GameMoves, its attributes, the history, a step, a move, its attributes
MOST_KEYS = 64  # a save's widest dict is GameStatsStruct's attributes: 17 items
MOST_STACK = 4096  # a pickler writes at most 1,000 items a batch; a save's widest tuple is 625 ints
MOST_BITS = 256  # a save's largest int outside the game's number is a 64-bit snapshot hash
MOST_KEY = 2**31  # dict keys that are numbers (bookmarks' 0-8) stay below this
BATCH = 1000  # the items Python's pickler writes in one APPENDS
ATOMS = {0x4E: None, 0x88: True, 0x89: False, 0x29: ()}  # NONE, NEWTRUE, NEWFALSE, EMPTY_TUPLE
_NO_ATOM = object()
PLAIN = frozenset({type(None), bool, int, float, str, bytes})  # values that hold no others
CHECK_EVERY = 4096  # bytes read between two looks at the clock, the stack and the memory counted
# The memory a file's values may take: MOST_WEIGHT bytes for each of its bytes, and
# MOST_WEIGHT_FLOOR besides. PySolFC's saves take 3 to 13.3 for each of their bytes (its
# saves of whole wins, 12 to 36 KB, 10 to 13.3; a history of small objects about 15), the
# 4 MiB list of Nones 8. The longest history a game of Matrimony can hold, 6,624 steps at
# some 124 bytes a step, would take about 12 MB of the 18 allowed for its 820 KB.
MOST_WEIGHT = 12
MOST_WEIGHT_FLOOR = 8 * 1024 * 1024

# What each value is counted at, in bytes: about what CPython takes for it, its collector's
# header included (sys.getsizeof, then 16).
LIST = 72
DICT = 80  # empty; a dict's items are counted at its size once they are set
TUPLE = 56  # and a slot for each item
OBJECT = 72  # a record made by a class of the file's
SLOT = 8  # a list's or tuple's item, a place in the memo
NUMBER = 32  # an int past those Python keeps made, a float
TEXT = 56  # a str or bytes, and a byte for each of its bytes (four for text that is not ASCII)


class Named:
    """What a file may name: a class or function of PySolFC's, as wedlock's record of it.

    `call` answers REDUCE and `new` NEWOBJ, each given the arguments' tuple; each returns
    the value made (a `Made`, or a plain value), or raises SavedGameError."""

    def call(self, args: tuple[Any, ...]) -> Any:
        raise SavedGameError(f"damaged or crafted: it calls {self}, which a saved game never does")

    def new(self, args: tuple[Any, ...]) -> Any:
        raise SavedGameError(f"damaged or crafted: it makes {self}, which a saved game never does")


def crafted(why: str) -> SavedGameError:
    """The error for a file no save of PySolFC's looks like."""
    return SavedGameError(f"damaged or crafted: {why}")


class Made:
    """An object a `Named` made. BUILD gives it its state, once; an `atom` keeps none (it
    may then appear in several places, as a save's random generator does)."""

    __slots__ = ("built",)
    atom = False

    def __init__(self) -> None:
        self.built = False

    def set_state(self, state: Any) -> None:
        raise crafted(f"it gives a state to {type(self).__name__}, which takes none")


CONTAINERS = (tuple, list, dict)


def _holds(value: Any) -> bool:
    """Whether a value is a container (or an object that keeps its state): what may be in
    one place only, and counts as a level of depth."""
    return isinstance(value, CONTAINERS) or (isinstance(value, Made) and not value.atom)


def _shared(value: Any) -> bool:
    """Whether a value may be taken back from the memo: a name, a number, a class, the
    random generator, the empty tuple; never a container or an object with a state."""
    return (
        type(value) in PLAIN
        or isinstance(value, Named)
        or (isinstance(value, Made) and value.atom)
        or (type(value) is tuple and not value)
    )


def _copy_weight(value: Any) -> int:
    """What a value taken back from the memo is counted at: a copy of it."""
    kind = type(value)
    if kind is str:
        return SLOT + (len(value) if value.isascii() else 4 * len(value))
    if kind is bytes:
        return SLOT + len(value)
    if kind is float or (kind is int and not -5 <= value <= 256):
        return SLOT + NUMBER + (value.bit_length() // 8 if kind is int else 0)
    return SLOT


class PickleReader:
    """The pickles of one file, read one after another with one memo (a save's later
    pickles refer back to values of earlier ones)."""

    def __init__(self, data: bytes, classes: Mapping[tuple[str, str], Named], deadline: float | None = None) -> None:
        """`deadline`, on `time.monotonic()`'s clock: past it, OutOfTime."""
        self.data = data
        self.pos = 0
        self.classes = classes
        self.deadline = deadline
        self.memo: list[Any] = []  # what MEMOIZE and BINPUT keep, by place
        self.depth: dict[int, int] = {}  # id of a container on the stack that holds containers -> how deep
        self.weight = 0  # the memory counted so far, in bytes
        self.most_weight = MOST_WEIGHT_FLOOR + MOST_WEIGHT * len(data)
        self.next_check = CHECK_EVERY  # the byte past which the clock, stack and memory are looked at

    @property
    def at_end(self) -> bool:
        """Whether every byte has been read."""
        return self.pos >= len(self.data)

    def load(self, most_bits: int = MOST_BITS) -> Any:
        """The next pickle's value."""
        if self.at_end:
            raise SavedGameError("damaged: it ends before a value it should hold")
        value = self._run(most_bits)
        self.depth.pop(id(value), None)
        self._check(1)
        return value

    def _run(self, most_bits: int) -> Any:
        try:
            return self._opcodes(most_bits)
        except (IndexError, struct.error, UnicodeDecodeError):
            raise SavedGameError(f"damaged: the file breaks off or goes wrong at byte {min(self.pos, len(self.data)):,} of {len(self.data):,}") from None

    # One loop over the opcodes, the commonest first; each refuses what Python's pickler
    # never writes, so that no opcode can be repeated for nothing: a value is kept in the
    # memo once, APPEND and SETITEM start a list or dict of one item, APPENDS and SETITEMS
    # take at least one item and come in the pickler's batches of 1,000, BUILD gives an
    # object its state once, PROTO starts a pickle. Every CHECK_EVERY bytes the clock, the
    # stack's size and the memory counted (`weight`) are looked at.
    def _opcodes(self, most_bits: int) -> Any:  # noqa: C901
        data, memo = self.data, self.memo
        stack: list[Any] = []
        push = stack.append
        marks: list[int] = []  # where each open MARK sits on the stack
        pos = self.pos
        weight, next_check = self.weight, self.next_check
        if data[pos] != 0x80 or data[pos + 1] not in (2, 3, 4, 5):
            self.pos = pos
            raise crafted(f"a pickle at byte {pos:,} that does not start with a protocol a saved game is written in")
        pos += 2
        while True:
            if pos >= next_check:
                self.pos, self.weight = pos, weight
                self._check(len(stack) + len(marks))
                next_check = pos + CHECK_EVERY
            self.pos = pos
            op = data[pos]
            pos += 1
            atom = ATOMS.get(op, _NO_ATOM)
            if atom is not _NO_ATOM:
                push(atom)
            elif op == 0x68:  # BINGET
                value = self._get(data[pos])
                weight += _copy_weight(value)
                push(value)
                pos += 1
            elif op == 0x94:  # MEMOIZE
                if not stack or (memo and memo[-1] is stack[-1]):
                    raise crafted("it keeps a value in the memo that it has not made")
                memo.append(stack[-1])
                weight += SLOT
            elif op == 0x4B:  # BININT1
                push(data[pos])
                pos += 1
            elif op == 0x8C:  # SHORT_BINUNICODE
                n = data[pos]
                raw = data[pos + 1 : pos + 1 + n]
                if len(raw) != n:
                    raise IndexError
                text = raw.decode("utf-8", "surrogatepass")
                weight += TEXT + (n if text.isascii() else 4 * n)
                push(text)
                pos += 1 + n
            elif op == 0x81:  # NEWOBJ
                args = stack.pop()
                named = stack.pop()
                if type(args) is not tuple or not isinstance(named, Named):
                    raise crafted("it makes an object of something that is no class")
                self.depth.pop(id(args), None)
                push(named.new(args))
                weight += OBJECT
            elif op == 0x7D:  # EMPTY_DICT
                push({})
                weight += DICT
            elif op == 0x5D:  # EMPTY_LIST
                push([])
                weight += LIST
            elif op == 0x28:  # MARK
                marks.append(len(stack))
                if len(marks) + len(stack) > MOST_STACK:
                    raise crafted(f"a pickle holds more than {MOST_STACK:,} values at once")
            elif op == 0x75 or op == 0x73:  # SETITEMS, SETITEM
                if op == 0x75:
                    items = self._pop_mark(stack, marks)
                else:
                    items = stack[-2:]
                    del stack[-2:]
                if not items or len(items) % 2 or not stack or type(stack[-1]) is not dict:
                    raise crafted("it sets items of something that is not a dict, or sets none")
                if stack[-1]:
                    raise crafted("it adds items to a dict after its first batch, which Python's pickler never does")
                weight += self._setitems(stack[-1], items)
            elif op == 0x62:  # BUILD
                state = stack.pop()
                target = stack[-1]
                if not isinstance(target, Made):
                    raise crafted("it gives a state to what is not a new object of a saved game")
                if target.built:
                    raise crafted("it gives an object its state twice, which a saved game never does")
                if target.atom:  # its state is dropped
                    self.depth.pop(id(state), None)
                else:
                    self._put(target, (state,))
                target.set_state(state)
                target.built = True
            elif op == 0x65 or op == 0x61:  # APPENDS, APPEND
                items = self._pop_mark(stack, marks) if op == 0x65 else [stack.pop()]
                if not items or not stack or type(stack[-1]) is not list:
                    raise crafted("it appends to something that is not a list, or appends nothing")
                target = stack[-1]
                if target and (op == 0x61 or len(target) % BATCH):
                    raise crafted("it appends to a list otherwise than in the batches Python's pickler writes")
                self._put(target, items)
                target.extend(items)
                weight += SLOT * len(items)
            elif op == 0x4A:  # BININT
                raw = data[pos : pos + 4]
                if len(raw) != 4:
                    raise IndexError
                push(int.from_bytes(raw, "little", signed=True))
                weight += NUMBER
                pos += 4
            elif op == 0x4D:  # BININT2
                raw = data[pos : pos + 2]
                if len(raw) != 2:
                    raise IndexError
                push(int.from_bytes(raw, "little"))
                weight += NUMBER
                pos += 2
            elif op == 0x8A or op == 0x8B:  # LONG1, LONG4
                size = 1 if op == 0x8A else 4
                n = int.from_bytes(data[pos : pos + size], "little", signed=True)
                pos += size
                if n < 0 or n * 8 > most_bits + 8:
                    raise crafted(f"it holds a number of {max(n, 0) * 8:,} bits, where a saved game's are at most {most_bits:,}")
                raw = data[pos : pos + n]
                if len(raw) != n:
                    raise IndexError
                value = int.from_bytes(raw, "little", signed=True)
                if value.bit_length() > most_bits:
                    raise crafted(f"it holds a number of {value.bit_length():,} bits, where a saved game's are at most {most_bits:,}")
                push(value)
                weight += NUMBER + n
                pos += n
            elif op == 0x85 or op == 0x86 or op == 0x87:  # TUPLE1, TUPLE2, TUPLE3
                n = op - 0x84
                if len(stack) - (marks[-1] if marks else 0) < n:
                    raise crafted("it makes a tuple of values it has not made")
                items = stack[-n:]
                del stack[-n:]
                push(self._tuple(items))
                weight += TUPLE + SLOT * n
            elif op == 0x74:  # TUPLE
                items = self._pop_mark(stack, marks)
                push(self._tuple(items))
                weight += TUPLE + SLOT * len(items)
            elif op == 0x47:  # BINFLOAT
                raw = data[pos : pos + 8]
                push(struct.unpack(">d", raw)[0])
                weight += NUMBER
                pos += 8
            elif op == 0x93:  # STACK_GLOBAL
                name = stack.pop()
                module = stack.pop()
                if type(module) is not str or type(name) is not str:
                    raise crafted("it names a class by what is not a name")
                found = self.classes.get((module, name))
                if found is None:
                    shown = printable(f"{module[:40]}.{name[:40]}")
                    raise crafted(f"it names {shown}, which a saved game of these games never does")
                push(found)
            elif op == 0x52:  # REDUCE
                args = stack.pop()
                named = stack.pop()
                if type(args) is not tuple or not isinstance(named, Named):
                    raise crafted("it calls something that is no function of a saved game")
                self.depth.pop(id(args), None)
                push(named.call(args))
                weight += OBJECT
            elif op == 0x6A:  # LONG_BINGET
                raw = data[pos : pos + 4]
                if len(raw) != 4:
                    raise IndexError
                value = self._get(int.from_bytes(raw, "little"))
                weight += _copy_weight(value)
                push(value)
                pos += 4
            elif op == 0x71 or op == 0x72:  # BINPUT, LONG_BINPUT
                size = 1 if op == 0x71 else 4
                raw = data[pos : pos + size]
                if len(raw) != size:
                    raise IndexError
                key = int.from_bytes(raw, "little")
                pos += size
                if not stack or key > len(memo):
                    raise crafted("it keeps a value past the places it has filled")
                if key == len(memo):
                    memo.append(stack[-1])
                    weight += SLOT
                elif memo[key] is stack[-1]:
                    raise crafted("it keeps a value in the memo that it has not made")
                else:
                    memo[key] = stack[-1]
            elif op == 0x58 or op == 0x42 or op == 0x43:  # BINUNICODE, BINBYTES, SHORT_BINBYTES
                size = 1 if op == 0x43 else 4
                raw = data[pos : pos + size]
                if len(raw) != size:
                    raise IndexError
                n = int.from_bytes(raw, "little")
                pos += size
                raw = data[pos : pos + n]
                if len(raw) != n:
                    raise IndexError
                if op == 0x58:
                    text = raw.decode("utf-8", "surrogatepass")
                    weight += TEXT + (n if text.isascii() else 4 * n)
                    push(text)
                else:
                    weight += TEXT + n
                    push(bytes(raw))
                pos += n
            elif op == 0x95:  # FRAME: a length the reader does not need
                raw = data[pos : pos + 8]
                if len(raw) != 8 or int.from_bytes(raw, "little") > len(data) - pos - 8:
                    raise IndexError
                pos += 8
            elif op == 0x2E:  # STOP
                self.pos, self.weight, self.next_check = pos, weight, next_check
                if len(stack) != 1 or marks:
                    raise crafted("a pickle that does not end with one value")
                return stack[0]
            else:
                raise crafted(f"it holds the pickle opcode {op:#04x} at byte {pos - 1:,}, which a saved game never does")

    def _check(self, on_stack: int) -> None:
        """Past the deadline, OutOfTime; past the stack's bound or the memory's, refused."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime("the time limit ran out while the saved game was read")
        if on_stack > MOST_STACK:
            raise crafted(f"a pickle holds more than {MOST_STACK:,} values at once")
        if self.weight > self.most_weight:
            raise crafted(
                f"its values would take more than {self.most_weight:,} bytes of memory, "
                f"where a saved game's take at most {MOST_WEIGHT} times its size"
            )

    def _get(self, key: int) -> Any:
        try:
            value = self.memo[key]
        except IndexError:
            raise crafted("it refers back to a value it never kept") from None
        if not _shared(value):
            raise crafted("it puts one value in two places, which a saved game never does")
        return value

    def _pop_mark(self, stack: list[Any], marks: list[int]) -> list[Any]:
        """The items above the last mark, taken off the stack (the stack's size is checked
        here, where a pickle's values pile up)."""
        if len(stack) > MOST_STACK:
            raise crafted(f"a pickle holds more than {MOST_STACK:,} values at once")
        if not marks:
            raise crafted("it takes items back to a mark it never set")
        at = marks.pop()
        items = stack[at:]
        del stack[at:]
        return items

    def _tuple(self, items: list[Any]) -> tuple[Any, ...]:
        made = tuple(items)
        self._put(made, items)
        return made

    def _setitems(self, target: dict[Any, Any], items: list[Any]) -> int:
        """Fill a new dict with `items` (keys and values in turn); the memory its items take."""
        for i in range(0, len(items), 2):
            key = items[i]
            if not (type(key) is str or (type(key) is int and -MOST_KEY < key < MOST_KEY)):
                raise crafted("a dict whose key is neither a name nor a small number")
        if len(items) > 2 * MOST_KEYS:
            raise crafted(f"a dict of more than {MOST_KEYS} items, where a saved game's hold at most a few dozen")
        self._put(target, items[1::2])
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]
        return sys.getsizeof(target) - sys.getsizeof({})

    def _put(self, container: Any, items: list[Any] | tuple[Any, ...]) -> None:
        """Record that `items` now lie in `container`, which is as deep as its deepest item
        makes it. Each item has left the stack for good, and with it its depth's record."""
        deepest = 0
        depth = self.depth
        for item in items:
            if type(item) not in PLAIN and _holds(item):
                deepest = max(deepest, depth.pop(id(item), 0) + 1)
        if deepest:
            key = id(container)
            deepest = max(deepest, depth.get(key, 0))
            if deepest > MOST_DEPTH:
                raise crafted(f"values nested more than {MOST_DEPTH} deep, where a saved game's are at most 6")
            depth[key] = deepest

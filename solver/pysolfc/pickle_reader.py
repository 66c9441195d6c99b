"""A reader of pickle opcodes of wedlock's own, for PySolFC's saves: linear in the file,
bounded in depth, and running nothing.

Python's unpickler builds whatever a file describes before anyone can look at it: a tuple
nested 200,000 deep that it hashes recursively (a crash), a dict of ints that all hash
alike (quadratic, inside C, where no signal reaches). This reader steps through the
opcodes in Python, so Ctrl-C and a deadline stop it at once, and refuses as soon as the
file asks for what no save of these games holds:

- an opcode outside the few a save of protocol 2 to 5 is written with;
- what Python's pickler never writes: a pickle that does not start with its protocol, a
  value kept in the memo twice, a list or dict filled otherwise than in its batches;
- a container nested more than MOST_DEPTH deep, a dict of more than MOST_KEYS items, a dict
  key that is not a name or a small number, a pickle of more than MOST_STACK values at once;
- an int of more than `most_bits` bits (the caller lifts it for the game's number, which
  PySolFC marks with bit 1,000);
- a container that appears in two places (through the memo), or changed after it was put
  somewhere: a save's values are a tree, so the work after the read stays linear in the
  file too.

So no opcode can be repeated for nothing, and the slowest file of 4 MiB (a list of four
million Nones) is read in under a second. What a file names (`module.name`) comes from
`classes`, which the caller fills with records of its own (`Named`); nothing else is
looked up.
"""

from __future__ import annotations

import struct
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
    """An object a `Named` made. BUILD gives it its state; an `atom` keeps none (it may
    then appear in several places, as a save's random generator does)."""

    __slots__ = ()
    atom = False

    def set_state(self, state: Any) -> None:
        raise crafted(f"it gives a state to {type(self).__name__}, which takes none")


CONTAINERS = (tuple, list, dict)


def _tracked(value: Any) -> bool:
    """Whether a value may appear in one place only: a container with items, or an object
    that keeps its state."""
    return (isinstance(value, CONTAINERS) and bool(value)) or (isinstance(value, Made) and not value.atom)


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
        self.depth: dict[int, int] = {}  # id of a container that holds containers -> how deep
        self.placed: set[int] = set()  # ids of the containers already put somewhere
        self.sealed: set[int] = set()  # ids of the objects whose state was given
        self.kept: list[Any] = []  # every container whose id is recorded, kept alive so no id is reused

    @property
    def at_end(self) -> bool:
        """Whether every byte has been read."""
        return self.pos >= len(self.data)

    def load(self, most_bits: int = MOST_BITS) -> Any:
        """The next pickle's value."""
        if self.at_end:
            raise SavedGameError("damaged: it ends before a value it should hold")
        value = self._run(most_bits)
        self._place(value)
        return value

    def _run(self, most_bits: int) -> Any:
        try:
            return self._opcodes(most_bits)
        except (IndexError, struct.error, UnicodeDecodeError):
            raise SavedGameError(f"damaged: the file breaks off or goes wrong at byte {min(self.pos, len(self.data)):,} of {len(self.data):,}") from None

    # One loop over the opcodes, the commonest first; each refuses what Python's pickler
    # never writes, so that no opcode can be repeated for nothing: a value is kept in the
    # memo once, APPEND and SETITEM start a list or dict of one item, APPENDS and SETITEMS
    # take at least one item and come in the pickler's batches of 1,000, PROTO starts a
    # pickle. The clock is read at each container made, where the values pile up.
    def _opcodes(self, most_bits: int) -> Any:  # noqa: C901
        data, memo = self.data, self.memo
        stack: list[Any] = []
        push = stack.append
        marks: list[int] = []  # where each open MARK sits on the stack
        pos = self.pos
        if data[pos] != 0x80 or data[pos + 1] not in (2, 3, 4, 5):
            self.pos = pos
            raise crafted(f"a pickle at byte {pos:,} that does not start with a protocol a saved game is written in")
        pos += 2
        while True:
            self.pos = pos
            op = data[pos]
            pos += 1
            atom = ATOMS.get(op, _NO_ATOM)
            if atom is not _NO_ATOM:
                push(atom)
            elif op == 0x68:  # BINGET
                push(self._get(data[pos]))
                pos += 1
            elif op == 0x94:  # MEMOIZE
                if not stack or (memo and memo[-1] is stack[-1]):
                    raise crafted("it keeps a value in the memo that it has not made")
                memo.append(stack[-1])
            elif op == 0x4B:  # BININT1
                push(data[pos])
                pos += 1
            elif op == 0x8C:  # SHORT_BINUNICODE
                n = data[pos]
                text = data[pos + 1 : pos + 1 + n]
                if len(text) != n:
                    raise IndexError
                push(text.decode("utf-8", "surrogatepass"))
                pos += 1 + n
            elif op == 0x81:  # NEWOBJ
                args = stack.pop()
                named = stack.pop()
                if type(args) is not tuple or not isinstance(named, Named):
                    raise crafted("it makes an object of something that is no class")
                self._place(args)
                push(named.new(args))
            elif op == 0x7D:  # EMPTY_DICT
                push({})
            elif op == 0x5D:  # EMPTY_LIST
                push([])
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
                self._setitems(stack[-1], items)
            elif op == 0x62:  # BUILD
                state = stack.pop()
                target = stack[-1]
                self._put(target, (state,))
                if not isinstance(target, Made) or id(target) in self.sealed or id(target) in self.placed:
                    raise crafted("it gives a state to what is not a new object of a saved game")
                target.set_state(state)
                if not target.atom:
                    self.sealed.add(id(target))
                    self.kept.append(target)
            elif op == 0x65 or op == 0x61:  # APPENDS, APPEND
                items = self._pop_mark(stack, marks) if op == 0x65 else [stack.pop()]
                if not items or not stack or type(stack[-1]) is not list:
                    raise crafted("it appends to something that is not a list, or appends nothing")
                target = stack[-1]
                if target and (op == 0x61 or len(target) % BATCH):
                    raise crafted("it appends to a list otherwise than in the batches Python's pickler writes")
                self._put(target, items)
                if id(target) in self.placed:  # after the items: a list put in itself is refused too
                    raise crafted("it changes a list after putting it somewhere")
                target.extend(items)
            elif op == 0x4A:  # BININT
                raw = data[pos : pos + 4]
                if len(raw) != 4:
                    raise IndexError
                push(int.from_bytes(raw, "little", signed=True))
                pos += 4
            elif op == 0x4D:  # BININT2
                raw = data[pos : pos + 2]
                if len(raw) != 2:
                    raise IndexError
                push(int.from_bytes(raw, "little"))
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
                pos += n
            elif op == 0x85 or op == 0x86 or op == 0x87:  # TUPLE1, TUPLE2, TUPLE3
                n = op - 0x84
                if len(stack) - (marks[-1] if marks else 0) < n:
                    raise crafted("it makes a tuple of values it has not made")
                items = stack[-n:]
                del stack[-n:]
                push(self._tuple(items))
            elif op == 0x74:  # TUPLE
                push(self._tuple(self._pop_mark(stack, marks)))
            elif op == 0x47:  # BINFLOAT
                raw = data[pos : pos + 8]
                push(struct.unpack(">d", raw)[0])
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
                self._place(args)
                push(named.call(args))
            elif op == 0x6A:  # LONG_BINGET
                raw = data[pos : pos + 4]
                if len(raw) != 4:
                    raise IndexError
                push(self._get(int.from_bytes(raw, "little")))
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
                push(raw.decode("utf-8", "surrogatepass") if op == 0x58 else bytes(raw))
                pos += n
            elif op == 0x95:  # FRAME: a length the reader does not need
                raw = data[pos : pos + 8]
                if len(raw) != 8 or int.from_bytes(raw, "little") > len(data) - pos - 8:
                    raise IndexError
                pos += 8
                self._check_time()
            elif op == 0x2E:  # STOP
                self.pos = pos
                if len(stack) != 1 or marks:
                    raise crafted("a pickle that does not end with one value")
                return stack[0]
            else:
                raise crafted(f"it holds the pickle opcode {op:#04x} at byte {pos - 1:,}, which a saved game never does")

    def _check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime("the time limit ran out while the saved game was read")

    def _get(self, key: int) -> Any:
        try:
            return self.memo[key]
        except IndexError:
            raise crafted("it refers back to a value it never kept") from None

    def _pop_mark(self, stack: list[Any], marks: list[int]) -> list[Any]:
        """The items above the last mark, taken off the stack (the clock and the stack's
        size are checked here, where a pickle's values pile up)."""
        self._check_time()
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

    def _setitems(self, target: dict[Any, Any], items: list[Any]) -> None:
        for i in range(0, len(items), 2):
            key = items[i]
            if not (type(key) is str or (type(key) is int and -MOST_KEY < key < MOST_KEY)):
                raise crafted("a dict whose key is neither a name nor a small number")
        if len(items) > 2 * MOST_KEYS:
            raise crafted(f"a dict of more than {MOST_KEYS} items, where a saved game's hold at most a few dozen")
        self._put(target, items[1::2])
        if id(target) in self.placed:  # after the values: a dict put in itself is refused too
            raise crafted("it changes a dict after putting it somewhere")
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]

    def _place(self, value: Any) -> None:
        """Record that a value was put somewhere: a container only once."""
        if type(value) not in PLAIN and _tracked(value):
            key = id(value)
            if key in self.placed:
                raise crafted("it puts one value in two places, which a saved game never does")
            self.placed.add(key)
            self.kept.append(value)

    def _put(self, container: Any, items: list[Any] | tuple[Any, ...]) -> None:
        """Record that `items` now lie in `container`: each container among them put in
        one place only, and `container` as deep as its deepest item makes it."""
        deepest = 0
        placed, depth = self.placed, self.depth
        for item in items:
            if type(item) in PLAIN or not _tracked(item):
                continue
            key = id(item)
            if key in placed:
                raise crafted("it puts one value in two places, which a saved game never does")
            placed.add(key)
            self.kept.append(item)
            deepest = max(deepest, depth.get(key, 0) + 1)
        if deepest:
            key = id(container)
            deepest = max(deepest, depth.get(key, 0))
            if deepest > MOST_DEPTH:
                raise crafted(f"values nested more than {MOST_DEPTH} deep, where a saved game's are at most 6")
            depth[key] = deepest
            self.kept.append(container)

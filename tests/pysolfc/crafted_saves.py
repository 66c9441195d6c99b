"""Saves made to hurt a reader: the files of the attacks tried on wedlock's reader of
PySolFC's saves, each built here (none is shipped), for tests/pysolfc/test_save_attacks.py."""

from __future__ import annotations

import io
import pickletools
from functools import cache

import wedlock
from wedlock.basics.input_files import MOST_BYTES
from wedlock.basics.numbering import GameNumber
from wedlock.pysolfc.atomic import Step, UpdateStack, played
from wedlock.pysolfc.history import step_for
from wedlock.pysolfc.layout import start_layout, talon_of
from wedlock.pysolfc.pickles import Instance, Op, Template, dumps, get, put
from wedlock.pysolfc.writer import _instance, save_bytes, save_of

MATRIMONY = 424
SHIFTS_AFTER = 45  # game 1's win first shifts a card (6D from F8 to F4) with its 45th move


def segments(data: bytes) -> list[bytes]:
    """A save's pickles, each as its bytes."""
    stream, out = io.BytesIO(data), []
    while stream.tell() < len(data):
        start = stream.tell()
        for _ in pickletools.genops(stream):
            pass
        out.append(data[start : stream.tell()])
    return out


@cache
def monte_carlo_save() -> bytes:
    """The save wedlock writes of game 12345's win (its pickles share no memo)."""
    return save_bytes(wedlock.solve("monte-carlo", 12345))


def with_pickle(index: int, pickled: bytes) -> bytes:
    """Monte Carlo 12345's save with its pickle at `index` replaced by these bytes."""
    parts = segments(monte_carlo_save())
    parts[index] = pickled
    return b"".join(parts)


def nested_key(depth: int) -> bytes:
    """A dict whose key is a tuple nested `depth` deep: Python's unpickler hashes it
    recursively and crashes past some 100,000."""
    return b"\x80\x04})" + b"\x85" * depth + b"Ns."


def colliding_dict(keys: int, batch: int | None = None) -> bytes:
    """A dict of ints that all hash to 0 (multiples of 2**61 - 1): quadratic to build.
    Its items are set in one SETITEMS, or `batch` at a time."""
    out = bytearray(b"\x80\x04}(")
    for k in range(1, keys + 1):
        data = (k * (2**61 - 1)).to_bytes(12, "little", signed=True)
        out += b"\x8a\x0c" + data + b"N"
        if batch and k % batch == 0:
            out += b"u("
    return bytes(out + b"u.")


def wide_dict(keys: int, batch: bool = True) -> bytes:
    """A dict of `keys` small int keys, set in one SETITEMS (or one SETITEM at a time)."""
    if batch:
        return b"\x80\x04}(" + b"".join(b"J" + k.to_bytes(4, "little") + b"N" for k in range(keys)) + b"u."
    return b"\x80\x04}" + b"".join(b"J" + k.to_bytes(4, "little") + b"Ns" for k in range(keys)) + b"."


def nones(batches: int) -> bytes:
    """A list of `batches` times 1,000 Nones, in the batches Python's pickler writes: the
    most opcodes a file can make the reader run for a value it takes."""
    return b"\x80\x04]" + (b"(" + b"N" * 1000 + b"e") * batches + b"."


def huge_version() -> bytes:
    """A save whose version text is a number and whose version tuple holds an int of 4,500
    digits (more than Python writes as text)."""
    data = with_pickle(1, dumps(7))
    return b"".join([*segments(data)[:2], dumps((3, 10**4500, 1)), *segments(data)[3:]])


@cache
def _shift_steps() -> tuple[GameNumber, object, list[Step], Step, Step]:
    """Matrimony game 1's first 45 moves as PySolFC records them, the layout after them,
    and the steps of a shift of 6D back (F4 to F8) and forth (F8 to F4)."""
    chosen = wedlock.deal("matrimony", 1)
    game, rules = chosen.game, chosen.rules
    moves = wedlock.solve("matrimony", 1).moves.raw()[:SHIFTS_AFTER]
    seen = game.opening(rules, chosen.cards)
    layout = start_layout(chosen)
    steps = []
    for move in moves:
        step = step_for(rules, layout, move)
        layout = played(layout, step, *talon_of(seen))
        seen = game.after(rules, seen, move)
        steps.append(step)
    back = game.parse_move_text(rules, "shift 6D from F4 (J♦ down) to F8 (Q♦ up)")
    forth = game.parse_move_text(rules, "shift 6D from F8 (Q♦ up) to F4 (J♦ down)")
    step_back = step_for(rules, layout, back)
    step_forth = step_for(rules, played(layout, step_back, *talon_of(seen)), forth)
    return GameNumber.parse("1"), layout, steps, step_back, step_forth


def shifting(pairs: int, shared: bool = False) -> bytes:
    """Matrimony game 1 after 45 real moves and then `pairs` times a shift of 6D back and
    forth: every step legal, the history as long as one asks. `shared`: the two shifts'
    steps written once and referred back to (as Python's pickler writes a list that holds
    the same objects again), 5 bytes a step, in batches of 1,000 as it writes them."""
    number, layout, steps, back, forth = _shift_steps()
    history = steps + [back, forth] * pairs
    if not shared:
        return save_of(MATRIMONY, number, layout, history, len(history))  # type: ignore[arg-type]
    parts = segments(save_of(MATRIMONY, number, layout, steps, len(steps)))  # type: ignore[arg-type]
    items: list[object] = [[_instance(a) for a in step] for step in steps]
    items += [[_instance(a) for a in back], put(0), [_instance(a) for a in forth], put(1)]
    for i in range(pairs - 1):
        items += [get(0), get(1)]
        if i % 500 == 499:
            items.append(Op(b"e("))
    history_value = Template((Op(b"]("), *items, Op(b"e")))
    moves = Instance("pysollib.game", "GameMoves", {"current": [], "history": history_value, "index": len(history), "state": 64})
    at = len(parts) - 5
    parts[at] = dumps(moves)
    return b"".join(parts)


def empty_moves() -> bytes:
    """Monte Carlo 12345's save whose GameMoves was never given its attributes."""
    parts = segments(monte_carlo_save())
    at = len(parts) - 5  # the moves record: then the positions seen, two statistics records, "EOF"
    empty = dumps(Instance("pysollib.game", "GameMoves", {}))
    empty = empty.replace(b"}b.", b".")  # the object made, and no BUILD
    parts[at] = empty
    return b"".join(parts)


BATCH = 1000  # the items Python's pickler writes in one APPENDS
GENERATOR = b"\x8c\x12pysol_cards.random\x8c\x08MTRandom\x93)R"  # PySolFC's generator, made


def filled(opcode: bytes) -> bytes:
    """A save whose generator's state is None followed by `opcode` as many times as fit in
    4 MiB."""
    head = len(with_pickle(7, b"\x80\x04N."))
    return with_pickle(7, b"\x80\x04N" + opcode * ((MOST_BYTES - head - 1) // len(opcode)) + b".")


def slowest() -> bytes:
    """A save whose generator's state is a list of Nones filling 4 MiB (a state wedlock
    drops, whatever it is): the most opcodes a file can make the reader take."""
    head = len(with_pickle(7, nones(0)))
    return with_pickle(7, nones((MOST_BYTES - head) // 1002))


def in_batches(item: bytes, size: int = MOST_BYTES) -> bytes:
    """A save of about `size` bytes whose generator's state is a list of `item`s, in the
    batches Python's pickler writes: as many values as the file can hold, each kept."""
    head = len(with_pickle(7, b"\x80\x04]."))
    batch = b"(" + item * BATCH + b"e"
    return with_pickle(7, b"\x80\x04]" + batch * ((size - head - 1) // len(batch)) + b".")


def rebuilt_generator(times: int | None = None) -> bytes:
    """A save whose generator is made, then given an empty list as its state `times` times
    (as many as fit in 4 MiB when None): opcodes that pile nothing up, with no MARK or
    FRAME among them."""
    if times is None:
        times = (MOST_BYTES - len(with_pickle(7, b"\x80\x04" + GENERATOR + b"."))) // 2
    return with_pickle(7, b"\x80\x04" + GENERATOR + b"]b" * times + b".")


def outside_in(depth: int | None = None) -> bytes:
    """A save whose generator is given as its state, again and again, a list that an empty
    list is then put in, which in turn is given and filled: a list nested `depth` deep (as
    deep as 4 MiB holds when None), built from the outside in through the memo."""
    head, level = b"\x80\x04" + GENERATOR + b"]q\x00b", b"h\x00]q\x00ab"
    if depth is None:
        depth = (MOST_BYTES - len(with_pickle(7, head + b"."))) // len(level)
    return with_pickle(7, head + level * depth + b".")


def shared_empty_step(shifts: bool = False, steps: int = 124 + 125 * 4 * 13) -> bytes:
    """Matrimony game 1's save whose history is `steps` references (6,624, the most a game
    of Matrimony may hold) to one step, a list that is empty when it is kept in the memo
    and that a later field of the record fills with 409 atomic moves (or, `shifts`, 408
    moves of 6D between F4 and F8, each one legal), after the first 45 moves of a win: 40
    to 57 KB that stand for 2.7 million atomic moves, if the reader lets an empty list be
    shared."""
    number, layout, start, back, forth = _shift_steps()
    parts = segments(save_of(MATRIMONY, number, layout, start, len(start)))  # type: ignore[arg-type]
    step = [_instance(a) for a in (*back, *forth)] * 204 if shifts else [_instance(UpdateStack(0, 0))] * 409
    refs: list[object] = [Op(b"]("), Op(b"]"), put(0)]
    for i in range(1, steps):
        refs.append(get(0))
        if i % BATCH == BATCH - 1:
            refs.append(Op(b"e("))
    history = Template((*refs, Op(b"e")))
    filling = Template((get(0), Op(b"("), *step, Op(b"e")))
    moves = Instance("pysollib.game", "GameMoves", {"history": history, "index": steps, "state": 64, "current": filling})
    parts[len(parts) - 5] = dumps(moves)
    return b"".join(parts)

"""Pickles of PySolFC's objects, written opcode by opcode without its classes.

Python's own pickler looks up every class it names, which would need PySolFC installed;
this writer only names them. A value is None, a bool, an int, a float, a str, a tuple, a
list, a dict of such values, or an `Instance`: an object of a class given by its module
and name, pickled as Python pickles a plain object (the class called with no arguments,
then given its attributes). `Template` covers the one value of PySolFC's saves that is
neither (see `writer`). Each pickle is protocol 4, which every Python 3 reads.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any

PROTOCOL = b"\x80\x04"
STOP = b"."
BATCH = 1000  # a list's or dict's items per APPENDS or SETITEMS, as Python's pickler writes them


@dataclass(frozen=True)
class Instance:
    """An object of the class `module.name`, with these attributes."""

    module: str
    name: str
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Global:
    """The class or function `module.name` itself."""

    module: str
    name: str


@dataclass(frozen=True)
class Template:
    """A value whose pickle is given as opcodes: `Op`s and values, in order."""

    parts: tuple[Any, ...]


@dataclass(frozen=True)
class Op:
    """Opcodes written as they are."""

    code: bytes


def dumps(value: Any) -> bytes:
    """One pickle of `value`."""
    out = bytearray(PROTOCOL)
    _write(out, value)
    out += STOP
    return bytes(out)


def put(index: int) -> Op:
    """Keep the value on top of the stack in the unpickler's memo, at `index` (< 256)."""
    return Op(b"q" + bytes([index]))


def get(index: int) -> Op:
    """Push the value kept in the memo at `index` (< 256)."""
    return Op(b"h" + bytes([index]))


REDUCE = Op(b"R")  # call the callable under the top of the stack with the tuple on top
BUILD = Op(b"b")  # give the object under the top of the stack the state on top
TUPLE2 = Op(b"\x86")


def _write(out: bytearray, value: Any) -> None:
    if value is None:
        out += b"N"
    elif value is True or value is False:
        out += b"\x88" if value else b"\x89"
    elif isinstance(value, int):
        _int(out, value)
    elif isinstance(value, float):
        out += b"G" + struct.pack(">d", value)
    elif isinstance(value, str):
        _str(out, value)
    elif isinstance(value, tuple):
        _tuple(out, value)
    elif isinstance(value, list):
        out += b"]"
        for start in range(0, len(value), BATCH):
            out += b"("
            for item in value[start : start + BATCH]:
                _write(out, item)
            out += b"e"
    elif isinstance(value, dict):
        out += b"}"
        pairs = list(value.items())
        for start in range(0, len(pairs), BATCH):
            out += b"("
            for key, item in pairs[start : start + BATCH]:
                _write(out, key)
                _write(out, item)
            out += b"u"
    elif isinstance(value, Instance):
        _global(out, value.module, value.name)
        out += b")\x81"  # called with no arguments (NEWOBJ)
        _write(out, value.attributes)
        out += b"b"
    elif isinstance(value, Global):
        _global(out, value.module, value.name)
    elif isinstance(value, Template):
        for part in value.parts:
            if isinstance(part, Op):
                out += part.code
            else:
                _write(out, part)
    else:
        raise TypeError(f"no pickle for {type(value).__name__}")


def _int(out: bytearray, value: int) -> None:
    if 0 <= value < 0x100:
        out += b"K" + bytes([value])
    elif 0 <= value < 0x10000:
        out += b"M" + value.to_bytes(2, "little")
    elif -(2**31) <= value < 2**31:
        out += b"J" + value.to_bytes(4, "little", signed=True)
    else:
        data = value.to_bytes(value.bit_length() // 8 + 1, "little", signed=True)
        if len(data) < 0x100:
            out += b"\x8a" + bytes([len(data)]) + data
        else:
            out += b"\x8b" + len(data).to_bytes(4, "little") + data


def _str(out: bytearray, value: str) -> None:
    data = value.encode("utf-8", "surrogatepass")
    if len(data) < 0x100:
        out += b"\x8c" + bytes([len(data)]) + data
    else:
        out += b"X" + len(data).to_bytes(4, "little") + data


def _tuple(out: bytearray, value: tuple[Any, ...]) -> None:
    if not value:
        out += b")"
        return
    if len(value) <= 3:
        for item in value:
            _write(out, item)
        out += (b"\x85", b"\x86", b"\x87")[len(value) - 1]
        return
    out += b"("
    for item in value:
        _write(out, item)
    out += b"t"


def _global(out: bytearray, module: str, name: str) -> None:
    _str(out, module)
    _str(out, name)
    out += b"\x93"  # STACK_GLOBAL

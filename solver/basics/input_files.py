"""Reading the files a user names (deals, moves, positions, lists of game numbers), stdin,
and the text the Python API is given, within bounds that are all set here.

A moves, position, deal or numbers file, stdin, or a text argument holds at most
MOST_BYTES, and each of its lines at most MOST_LINE characters; past either it is refused
in one line before any of it is parsed, so that no input costs more than a few megabytes
and a parse of them. A JSON document (text that starts with `{` or `[`, as `solve --json`
and `deal --json` print) is exempt from the line bound: `solve --json` writes a whole
winning line on one line, and the JSON reader is linear whatever the length.

A results file is large by nature and is read a line at a time (`records`); each line
holds at most MOST_RESULTS_LINE bytes.

A device such as /dev/zero, which never ends, is refused before a byte is read (but
/dev/null, which ends at once). Pipes (`/dev/stdin` fed by a shell) are read as files are,
within the same bounds. Given a deadline (a command's time limit), a FIFO, a pipe or stdin
is waited on until then and no longer: one that no program writes to, or whose writer
stops half way, is an OutOfTime at the deadline, where it held the command for as long
as the writer waited.
"""

from __future__ import annotations

import errno
import os
import select
import stat
import time
from pathlib import Path
from typing import BinaryIO

from .errors import InputTooLarge, OutOfTime
from .printable import printable

# A long Matrimony win printed with `solve --board` takes about 90 kB.
MOST_BYTES = 4 * 1024 * 1024
# The longest line wedlock writes in a text moves, position or deal file is about 100
# characters; a deal's 104 cards on one line about 420.
MOST_LINE = 10_000
# The longest results line a batch writes, a Matrimony win of 156 moves with --solutions,
# takes about 8 kB.
MOST_RESULTS_LINE = 1024 * 1024

UNREADABLE = (OSError, UnicodeDecodeError, InputTooLarge)  # what `read_text` raises


def open_file(path: str | Path, waiting: bool = True) -> BinaryIO:
    """The file at `path`, open for reading bytes; an OSError, with its `strerror` fit to
    show a user, when it cannot be read or is a device. Not `waiting`, a FIFO is opened
    without waiting for its writer, and read without blocking."""
    try:
        if waiting:
            f = open(path, "rb")
        else:
            f = os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)), "rb")
    except ValueError:  # a NUL in the name, or a character the file system cannot hold
        raise OSError(errno.EINVAL, "not a name a file can have", str(path)) from None
    mode = os.fstat(f.fileno()).st_mode
    if (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) and not os.path.samefile(path, os.devnull):  # /dev/null ends at once
        f.close()
        raise OSError(errno.EINVAL, "a device, not a file", str(path))
    return f


def read_bytes(path: str | Path, deadline: float | None = None) -> bytes:
    """The bytes of the file at `path` (see `open_file`); InputTooLarge past MOST_BYTES,
    which a plain file's size tells before it is read. Given a `deadline`
    (`time.monotonic()`'s clock), a FIFO, pipe or socket is waited on until then, past which
    OutOfTime: opening a FIFO does not wait for its writer, nor reading it for more than
    the time left."""
    waiting = deadline is None or not _CAN_WAIT
    with open_file(path, waiting) as f:
        mode = os.fstat(f.fileno())
        if not stat.S_ISREG(mode.st_mode) and deadline is not None and not waiting:
            return _read_by(f.fileno(), deadline, f"'{printable(str(path))}'")
        if stat.S_ISREG(mode.st_mode) and mode.st_size > MOST_BYTES:
            raise InputTooLarge(_too_many_bytes(mode.st_size))
        if not waiting:
            os.set_blocking(f.fileno(), True)
        return read_stream(f)


def read_stream(stream: BinaryIO, deadline: float | None = None) -> bytes:
    """The bytes of a stream (stdin), read no further than one byte past MOST_BYTES; a
    pipe waited on no later than `deadline`, past which OutOfTime."""
    if deadline is not None and _CAN_WAIT:
        fd = _fd_of(stream)
        if fd is not None and not stat.S_ISREG(os.fstat(fd).st_mode):
            return _read_by(fd, deadline, "stdin")
    data = stream.read(MOST_BYTES + 1)
    if len(data) > MOST_BYTES:
        raise InputTooLarge(_too_many_bytes(None))
    return data


_CAN_WAIT = hasattr(select, "poll") and hasattr(os, "O_NONBLOCK")  # not on Windows: there, reads wait as they always did


def _fd_of(stream: BinaryIO) -> int | None:
    """The descriptor under a stream (stdin, read once and from its start), if it has one."""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # a stream in memory (a test's stdin)
        return None


def _read_by(fd: int, deadline: float, what: str) -> bytes:
    """The bytes of a pipe, each wait for more bounded by the time left to `deadline`."""
    waiting = select.poll()
    waiting.register(fd, select.POLLIN | select.POLLPRI)
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not waiting.poll(left * 1000):
            raise OutOfTime(f"the time limit ran out while waiting for {what} to end")
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:  # woken for nothing
            continue
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MOST_BYTES:
            raise InputTooLarge(_too_many_bytes(None))


def read_text(path: str | Path) -> str:
    """The text of a UTF-8 file (see `decoded`), within the bounds (see `bounded`); a
    UnicodeDecodeError when it is not UTF-8."""
    return bounded(decoded(read_bytes(path)))


def read_text_from(stream: BinaryIO) -> str:
    """The text of a stream such as stdin, as `read_text` reads a file's."""
    return bounded(decoded(read_stream(stream)))


def decoded(data: bytes) -> str:
    """UTF-8 bytes as text, a leading byte-order mark dropped and line ends made "\\n"."""
    return data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


def bounded(text: str, what: str = "") -> str:
    """The text, when it holds at most MOST_BYTES characters and, unless it is a JSON
    document, no line of more than MOST_LINE; else InputTooLarge, which says where (after
    `what`, when given: `the moves: line 3 holds ...`)."""
    first = f"{what}: " if what else ""
    if len(text) > MOST_BYTES:
        raise InputTooLarge(first + _too_many_bytes(len(text), "characters"))
    if text.lstrip()[:1] in ("{", "["):
        return text
    for n, line in enumerate(text.splitlines(), 1):
        if len(line) > MOST_LINE:
            raise InputTooLarge(f"{first}line {n:,} holds {len(line):,} characters, more than the {MOST_LINE:,} a line may hold")
    return text


def _too_many_bytes(size: int | None, unit: str = "bytes") -> str:
    if size is None:  # a stream, read no further than the bound
        return f"more than the {MOST_BYTES:,} bytes an input may hold"
    return f"{size:,} {unit}, more than the {MOST_BYTES:,} an input may hold"


def why_unreadable(err: OSError | UnicodeDecodeError | InputTooLarge) -> str:
    """What stopped `read_bytes` or `read_text`, in words for an error line."""
    if isinstance(err, UnicodeDecodeError):
        return f"not UTF-8 text (byte {err.start + 1:,})"
    if isinstance(err, InputTooLarge):
        return str(err)
    return getattr(err, "strerror", None) or str(err)

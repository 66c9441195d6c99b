"""Reading the files a user names: deals, moves, lists of game numbers, results.

Each is read whole, so a device such as /dev/zero, which never ends, is refused before a
byte is read rather than filling the memory (but /dev/null, which ends at once). Pipes (`/dev/stdin` fed by a shell) are files
that end and are read as usual.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO


def open_file(path: str | Path) -> BinaryIO:
    """The file at `path`, open for reading bytes; an OSError, with its `strerror` fit to
    show a user, when it cannot be read or is a device."""
    f = open(path, "rb")
    mode = os.fstat(f.fileno()).st_mode
    if (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) and not os.path.samefile(path, os.devnull):  # /dev/null ends at once
        f.close()
        raise OSError(errno.EINVAL, "a device, not a file", str(path))
    return f


def read_bytes(path: str | Path) -> bytes:
    """The bytes of the file at `path` (see `open_file`)."""
    with open_file(path) as f:
        return f.read()


def read_text(path: str | Path) -> str:
    """The text of a UTF-8 file (a leading byte-order mark dropped, line ends made "\\n");
    a UnicodeDecodeError when it is not UTF-8."""
    text = read_bytes(path).decode("utf-8-sig")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def why_unreadable(err: OSError | UnicodeDecodeError) -> str:
    """What stopped `read_bytes` or `read_text`, in words for an error line."""
    if isinstance(err, UnicodeDecodeError):
        return f"not UTF-8 text (byte {err.start + 1:,})"
    return getattr(err, "strerror", None) or str(err)

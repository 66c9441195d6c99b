"""Other programs' saved games: where a position can come from and a solution go to.

The pipeline knows such a format only by its name. The package that knows the format (for
PySolFC's `.pso` files, `wedlock.pysolfc`) is above the pipeline, so the face of the
library, `wedlock/__init__.py`, registers its reader and writer here as it loads; then
`position(pysolfc_save=...)` and `Solution.to_pysolfc` reach them without the pipeline
importing a layer above it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Source = str | Path | bytes  # a save's path, or its bytes
# A save and a deadline (time.monotonic's clock) -> the position it holds (a solving.Position);
# this module sits below solving.py, which uses it, so it names the types only in words.
Reader = Callable[[Source, float | None], Any]
Writer = Callable[[Any], bytes]  # a won solution (a solving.Solution) -> the bytes of its save

READERS: dict[str, Reader] = {}
WRITERS: dict[str, Writer] = {}


def register(name: str, reader: Reader, writer: Writer) -> None:
    """Make a format's reader and writer known by its name."""
    READERS[name] = reader
    WRITERS[name] = writer


def reader(name: str) -> Reader:
    """The reader of a format (a KeyError names a format nobody registered)."""
    return READERS[name]


def writer(name: str) -> Writer:
    """The writer of a format (a KeyError names a format nobody registered)."""
    return WRITERS[name]



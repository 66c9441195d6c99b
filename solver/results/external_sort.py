"""Sorting more items than should be held in memory: sorted runs spill to temporary files
and are merged back one item at a time."""

from __future__ import annotations

import heapq
import pickle
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, Any

BLOCK = 2_000  # items pickled together: fewer calls, still little memory when read back


class SpillSort:
    """Collects items, then gives them back in order (`sorted()`), holding at most `run`
    of them in memory while collecting and one block of each run while merging."""

    def __init__(self, key: Callable[[Any], Any] | None = None, run: int = 100_000) -> None:
        self.key, self.run = key, run
        self.items: list[Any] = []
        self.files: list[IO[bytes]] = []

    def add(self, item: Any) -> None:
        self.items.append(item)
        if len(self.items) >= self.run:
            self._spill()

    def _spill(self) -> None:
        self.items.sort(key=self.key)
        f = tempfile.TemporaryFile()
        for i in range(0, len(self.items), BLOCK):
            pickle.dump(self.items[i : i + BLOCK], f, pickle.HIGHEST_PROTOCOL)
        f.seek(0)
        self.files.append(f)
        self.items = []

    def sorted(self) -> Iterator[Any]:
        """Every item added, in order (by `key`); once."""
        self.items.sort(key=self.key)
        runs = [_read(f) for f in self.files] + [iter(self.items)]
        try:
            yield from heapq.merge(*runs, key=self.key)
        finally:
            for f in self.files:
                f.close()
            self.files, self.items = [], []


def _read(f: IO[bytes]) -> Iterator[Any]:
    while True:
        try:
            block = pickle.load(f)
        except EOFError:
            return
        yield from block

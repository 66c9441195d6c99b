"""A status line on stderr while one deal is solved: which of the solver's searches runs.

A PySolFC Matrimony deal that the first quick searches do not win may search for many
minutes at the default limits (game 763: 20 minutes, won by the 24th of its searches); the
line says which search runs (`Progress` in solver/games/protocol.py), how many there are, and how
long it has been, its clock ticking while one search runs."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING

from .stopping import CAUGHT

if TYPE_CHECKING:
    from tqdm import tqdm

TICK = 1.0  # seconds between redraws of the clock while one search runs
FORMAT = "[{elapsed}] {desc}"  # no rate or time left: searches differ too much in cost


class SearchBar:
    """The `Progress` a command hands to `Game.solve`: a tqdm bar with a step per search and
    the running search's label after it. Disabled, it draws nothing."""

    def __init__(self, enabled: bool, desc: str) -> None:
        self.enabled, self.desc = enabled, desc
        self.bar: tqdm | None = None
        self.stop = threading.Event()
        self.ticker: threading.Thread | None = None

    def __call__(self, done: int, total: int, label: str) -> None:
        if not self.enabled:
            return
        line = f"{self.desc}, search {done + 1} of {total}: {label}"
        if self.bar is None:
            from tqdm import tqdm  # loaded only once a bar is drawn: most solves end first

            with _signals_held():  # a bar drawn is always one that __exit__ can wipe
                self.bar = tqdm(total=total, desc=line, file=sys.stderr, leave=False, bar_format=FORMAT)
                self.ticker = threading.Thread(target=self._tick, args=(self.bar,), daemon=True)
                self.ticker.start()  # with the signals held: they go to the main thread
        self.bar.set_description_str(line, refresh=False)
        self.bar.update(done - self.bar.n)
        self.bar.refresh()

    def _tick(self, bar: tqdm) -> None:
        while not self.stop.wait(TICK):
            bar.refresh()

    def __enter__(self) -> SearchBar:
        return self

    def __exit__(self, kind: type | None, err: BaseException | None, trace: TracebackType | None) -> None:
        self.stop.set()
        if self.ticker is not None:  # a Ctrl-C inside a redraw can leave tqdm's lock taken:
            self.ticker.join(2 * TICK)  # then the ticker never ends, but it is a daemon
        if self.bar is not None:
            self.bar.close()


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait for the end of the block (where the system can hold
    them), so that none lands between the drawing of a bar and its keeping."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = {signal.SIGINT, *CAUGHT}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)

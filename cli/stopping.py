"""Ending on a signal. Ctrl-C (SIGINT), SIGTERM and SIGHUP end a command the same way: an
exception unwinds through every clean-up (a batch's worker processes, a file's temporary
name), then one line on stderr and the status a shell gives a process the signal killed,
128 + its number (130, 143, 129). This module imports nothing of wedlock's, so that the
command line can take a signal from its first moment."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

# How the line on stderr begins after each signal (SIGHUP is not everywhere).
NAMES = {"SIGINT": "Interrupted", "SIGTERM": "Terminated", "SIGHUP": "Hung up"}
WORDS = {getattr(signal, name): word for name, word in NAMES.items() if hasattr(signal, name)}
CAUGHT = tuple(signum for signum in WORDS if signum != signal.SIGINT)  # those that kill unless caught


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where Ctrl-C raises KeyboardInterrupt, so that whatever
    cleans up after Ctrl-C cleans up after them too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def catch_stop_signals() -> None:
    """From now on SIGTERM and SIGHUP raise Stopped, and Ctrl-C KeyboardInterrupt, each
    once: a second signal while the first is cleaned up after is ignored (Ctrl-\\ still
    kills). A signal that is ignored (under `nohup`, say) stays ignored."""
    for signum in (signal.SIGINT, *CAUGHT):
        if signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler):
            signal.signal(signum, _stop)


def _stop(signum: int, frame: FrameType | None) -> None:
    for caught in (signal.SIGINT, *CAUGHT):
        if signal.getsignal(caught) is _stop:
            signal.signal(caught, signal.SIG_IGN)
    raise Stopped(signum) if signum != signal.SIGINT else KeyboardInterrupt


def status(stop: KeyboardInterrupt) -> int:
    """The exit status after a stop: 128 + the signal's number."""
    return 128 + (stop.signum if isinstance(stop, Stopped) else signal.SIGINT)


def word(stop: KeyboardInterrupt) -> str:
    """What stopped the command, as the line on stderr begins: `Interrupted`, `Terminated`."""
    return WORDS.get(stop.signum if isinstance(stop, Stopped) else signal.SIGINT, "Stopped")


def tell(line: str) -> None:
    """The line a command ends with, on stderr, which may no longer take it (a full disk, a
    terminal gone with SIGHUP): then it is dropped, and stderr pointed at the null device,
    so that the exit does not fail on it again."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
        except (OSError, ValueError, AttributeError):
            pass

"""The wedlock command line: a thin layer over the library."""

from __future__ import annotations

import signal

from . import stopping


def run() -> None:
    """The `wedlock` command (and `python -m wedlock`). SIGTERM and SIGHUP stop it as Ctrl-C
    does, and a stop while it loads, before any command runs, is one line too."""
    stopping.catch_stop_signals()
    try:
        try:
            from .main import cli
        except KeyboardInterrupt as stop:
            stopping.tell(f"{stopping.word(stop)}.")
            raise SystemExit(stopping.status(stop)) from None
        cli()
    finally:
        # The command has ended and its status is set: a late Ctrl-C changes nothing, and
        # SIGTERM or SIGHUP end the process as they would any other.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for signum in stopping.CAUGHT:
            if signal.getsignal(signum) is not signal.SIG_IGN:
                signal.signal(signum, signal.SIG_DFL)

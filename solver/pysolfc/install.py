"""The plugin file wedlock puts in PySolFC's plugins folder, and where that folder is.

PySolFC runs every `*.py` file of its plugins folder as it starts, once its own games are
registered (`App.loadPlugins`): on Linux and macOS `~/.PySolFC/plugins`, on Windows
`%APPDATA%\\PySolFC\\plugins`. The file is a few lines anyone can read: it imports wedlock
from the Python that runs PySolFC and calls `wedlock.pysolfc.plugin.hook()`; where wedlock
cannot be imported it does nothing, and PySolFC plays as it did.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

from ..basics.version import __version__

PLUGIN_FILE = "wedlock_plugin.py"
PROGRAMS = ("pysol", "pysol.py", "pysolfc", "PySolFC")  # the names PySolFC's installs give its program
MARK = "# Written by `wedlock pysolfc install`"  # the line that tells wedlock's file from another

PLUGIN_TEXT = f'''{MARK} (wedlock {{version}}); `wedlock pysolfc uninstall` removes it.
# It makes PySolFC's Hint button, its Demo and two entries of its Assist menu ask wedlock,
# the solver of Monte Carlo, Weddings, Monte Carlo (2 Decks) and Matrimony, and adds those
# games' "Always Solvable" versions. Without wedlock, it does nothing.
try:
    from wedlock.pysolfc import plugin
except ImportError:
    plugin = None
if plugin is not None:
    plugin.hook()
'''


def plugin_text() -> str:
    """The plugin file's text."""
    return PLUGIN_TEXT.format(version=__version__)


def default_folder() -> Path:
    """PySolFC's own plugins folder for this user."""
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home())
        return Path(base) / "PySolFC" / "plugins"
    return Path.home() / ".PySolFC" / "plugins"


def is_wedlocks(text: str) -> bool:
    """Whether a plugin file's text is one wedlock wrote."""
    return text.startswith(MARK)


def pysolfc_found() -> bool:
    """Whether PySolFC is on this machine, as far as can be seen from here: its package
    `pysollib` in this Python, or its program on the PATH."""
    try:
        if importlib.util.find_spec("pysollib") is not None:
            return True
    except (ImportError, ValueError):  # a broken or odd `pysollib` on the path: look further
        pass
    return any(shutil.which(name) is not None for name in PROGRAMS)

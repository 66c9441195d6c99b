"""Which search runs: the compiled core (`wedlock._core`, C) or the pure-Python reference.

The core is built by `pip install .` wherever a C compiler is found, and skipped without
one. Where it exists, `search.solve` hands it the spaces it knows (a space offers itself
through `native`); it searches exactly as search/exhaustive.py does, so verdicts and state counts are
the same either way (tests/search/test_core.py). Setting WEDLOCK_PURE=1 runs the pure-Python
search even where the core was built.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def _load() -> ModuleType | None:
    try:
        return importlib.import_module("wedlock._core")
    except ImportError:  # built without a compiler
        return None


_core = _load()

PURE_VARIABLE = "WEDLOCK_PURE"

# The environment as os.environ keeps it (its keys and values encoded as the system's), read
# directly: a deal asks for the core several times, and os.environ.get costs a microsecond.
# Setting os.environ (as a test's monkeypatch does) changes it too.
_ENVIRON = getattr(os.environ, "_data", None)
_PURE_KEY = os.environ.encodekey(PURE_VARIABLE) if _ENVIRON is not None else None
_NOT_PURE = tuple(os.environ.encodevalue(v) for v in ("", "0")) if _ENVIRON is not None else ()


def compiled_core() -> ModuleType | None:
    """The compiled core, or None when it was not built or WEDLOCK_PURE asks for pure Python."""
    if _ENVIRON is not None:
        if _ENVIRON.get(_PURE_KEY, _NOT_PURE[0]) not in _NOT_PURE:
            return None
    elif os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None
    return _core


def description() -> str:
    """Which search runs, in words: what `wedlock --version` says."""
    if _core is None:
        return "pure Python search: no compiled core was built"
    if compiled_core() is None:
        return f"pure Python search: {PURE_VARIABLE} is set"
    return "compiled search core"

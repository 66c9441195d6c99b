"""wedlock: exact solvers for the patience games Monte Carlo and Matrimony.

Deals are numbered as in PySolFC. The functions here are the whole of what a program
needs; the command line (`wedlock`, or `python -m wedlock`) is built on them.

>>> import wedlock
>>> result = wedlock.solve("monte-carlo", 12345)
>>> print(result.verdict)
won
>>> print(result.moves.text().splitlines()[0])
1. A1 QC + B1 QH
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

__version__ = "0.6.0"

# Each name of the API and the module that holds it. They are imported when first used,
# so that `import wedlock` is quick: the command line's own start (and a Ctrl-C during it)
# comes before the searches, networkx and the games are loaded.
_HOMES = {
    "Card": "cards",
    "WedlockError": "errors",
    "Replay": "game",
    "Hint": "hints",
    "hint": "hints",
    "Line": "lines",
    "Move": "lines",
    "Analysis": "luck",
    "analyze": "luck",
    "Deal": "pipeline",
    "Position": "pipeline",
    "Solution": "pipeline",
    "SolverFault": "pipeline",
    "deal": "pipeline",
    "deal_from_file": "pipeline",
    "solve": "pipeline",
    "verify": "pipeline",
    "Played": "players",
    "play": "players",
    "position": "positions",
    "Verdict": "search",
    "lookup": "tables",
    "winnable": "winnable",
}

if TYPE_CHECKING:
    from .cards import Card
    from .errors import WedlockError
    from .game import Replay
    from .hints import Hint, hint
    from .lines import Line, Move
    from .luck import Analysis, analyze
    from .pipeline import Deal, Position, Solution, SolverFault, deal, deal_from_file, solve, verify
    from .players import Played, play
    from .positions import position
    from .search import Verdict
    from .tables import lookup
    from .winnable import winnable


class _Package(ModuleType):
    """The package: a name of the API stays the function it names when the module of the
    same name (`wedlock.winnable`) is imported, which would otherwise replace it."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _HOMES and isinstance(value, ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> object:
    """A name of the API, imported from its module the first time it is used."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'wedlock' has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "Analysis",
    "Card",
    "Deal",
    "Hint",
    "Line",
    "Move",
    "Played",
    "Position",
    "Replay",
    "Solution",
    "SolverFault",
    "Verdict",
    "WedlockError",
    "__version__",
    "analyze",
    "deal",
    "deal_from_file",
    "hint",
    "lookup",
    "play",
    "position",
    "solve",
    "verify",
    "winnable",
]

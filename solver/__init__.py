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

from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING

from .basics.version import __version__
from .pipeline import save_formats as _save_formats

# Each name of the API and the module that holds it. They are imported when first used,
# so that `import wedlock` is quick: the command line's own start (and a Ctrl-C during it)
# comes before the searches, networkx and the games are loaded.
_HOMES = {
    "Card": "basics.cards",
    "WedlockError": "basics.errors",
    "Replay": "games.protocol",
    "Line": "games.lines",
    "Move": "games.lines",
    "Deal": "pipeline.solving",
    "Position": "pipeline.solving",
    "Solution": "pipeline.solving",
    "SolverFault": "pipeline.solving",
    "deal": "pipeline.solving",
    "deal_from_file": "pipeline.solving",
    "solve": "pipeline.solving",
    "verify": "pipeline.solving",
    "position": "pipeline.positions",
    "Verdict": "search.exhaustive",
    "Hint": "playing.hints",
    "hint": "playing.hints",
    "Played": "playing.players",
    "play": "playing.players",
    "Analysis": "luck.analysis",
    "analyze": "luck.analysis",
    "lookup": "results.tables",
    "winnable": "results.winnable",
}

if _TYPE_CHECKING:
    from .basics.cards import Card
    from .basics.errors import WedlockError
    from .games.lines import Line, Move
    from .games.protocol import Replay
    from .luck.analysis import Analysis, analyze
    from .pipeline.positions import position
    from .pipeline.solving import Deal, Position, Solution, SolverFault, deal, deal_from_file, solve, verify
    from .playing.hints import Hint, hint
    from .playing.players import Played, play
    from .results.tables import lookup
    from .results.winnable import winnable
    from .search.exhaustive import Verdict


def _read_pysolfc(source: _save_formats.Source, deadline: float | None) -> Position:
    from .pysolfc.saved_positions import saved_position  # PySolFC's formats, only for a saved game

    return saved_position(source, deadline)


def _write_pysolfc(solution: Solution) -> bytes:
    from .pysolfc.writer import save_bytes  # PySolFC's formats, only for a save to write

    return save_bytes(solution)


# The face reads and writes PySolFC's saves for the pipeline, which names the format only.
_save_formats.register("pysolfc", _read_pysolfc, _write_pysolfc)


def __getattr__(name: str) -> object:
    """A name of the API, imported from its module the first time it is used."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'wedlock' has no attribute {name!r}")
    value = getattr(_import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The API, and nothing else."""
    return sorted(__all__)


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

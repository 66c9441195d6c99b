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

__version__ = "0.4.0"

from .cards import Card  # noqa: E402
from .errors import WedlockError  # noqa: E402
from .game import Replay  # noqa: E402
from .hints import Hint, hint  # noqa: E402
from .lines import Line, Move  # noqa: E402
from .luck import Analysis, analyze  # noqa: E402
from .pipeline import Deal, Position, Solution, SolverFault, deal, deal_from_file, solve, verify  # noqa: E402
from .players import Played, play  # noqa: E402
from .positions import position  # noqa: E402
from .search import Verdict  # noqa: E402
from .tables import lookup  # noqa: E402
from .winnable import winnable  # noqa: E402

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

"""The named errors that bad input raises; only the CLI turns them into exit codes."""


class WedlockError(ValueError):
    """Base class for every input error a user can cause."""


class CardError(WedlockError):
    """A card's text could not be read."""


class GameNumberError(WedlockError):
    """A game number is not one PySolFC could deal."""


class DealError(WedlockError):
    """A deal (from a file or elsewhere) does not hold the right cards."""


class MoveSyntaxError(WedlockError):
    """A move's text or JSON could not be read."""


class IllegalMoveError(WedlockError):
    """A move was read but is not legal in the position it is played in."""


class PositionError(WedlockError):
    """A position typed from the screen that cannot be read, or cannot arise from its deal."""


class LimitError(WedlockError):
    """A time, node or state limit that is not one."""


class RulesError(WedlockError):
    """An unknown game or rule-set name."""


class MissingExtra(WedlockError):
    """An option needs a package that is an extra of wedlock's and is not installed."""


class InputTooLarge(WedlockError):
    """A file, stdin or text argument past the size or line length the readers take
    (`input_files`)."""


class ArgumentError(WedlockError):
    """An argument of the Python API of a kind it cannot take (a progress that is not callable)."""


class SavedGameError(WedlockError):
    """A PySolFC saved game wedlock cannot read (another game or version, a damaged or
    crafted file) or cannot write (a game PySolFC does not have, a deal that is not won)."""


class OutOfTime(WedlockError):
    """A time limit ran out while an input was still being read (a command answers
    unknown, not bad input)."""


class CheckpointError(WedlockError):
    """A checkpoint that cannot be kept: asked of a search that keeps none, or without the
    compiled core; a path no checkpoint can be written at; a file there that is not the
    search's own."""


class CheckpointNotWritten(CheckpointError):
    """A search could not write its checkpoint (a full disk, a folder gone)."""

"""What the commands share: the command class, the game and deal arguments, limits, the
progress option, files written whole or not at all, and turning input errors into exit 2,
a refused output into exit 5 and Ctrl-C into exit 130."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import math
import os
import re
import secrets
import shlex
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import click

from wedlock.basics.errors import OutOfTime, WedlockError
from wedlock.basics.input_files import UNREADABLE, read_stream, read_text, read_text_from, why_unreadable
from wedlock.basics.numbering import GameNumber
from wedlock.basics.printable import printable
from wedlock.basics.words import counted
from wedlock.games.registry import RuleSetNotGame, catalogue, game_named, pysolfc_named, rules_of
from wedlock.pipeline.move_files import named_in
from wedlock.pipeline.positions import position
from wedlock.pipeline.solving import Deal, Position, deal, deal_from_file
from wedlock.playing.players import MOST_SAMPLES, SAMPLE_SECONDS, SAMPLES
from wedlock.search.exhaustive import MOST, Limits, limit_reached

from . import stopping

BAD_INPUT = 2
UNKNOWN_STATUS = 3  # as a verdict of unknown exits
CANNOT_WRITE = 5  # an output the system refused: never a verdict's status
SOLVE_SECONDS = 120  # the default --time-limit of solve and analyze: an answer within minutes
COUNT = click.IntRange(min=1, max=MOST)  # a count a limit gives: what the search can count to

GAMES_HELP = (
    "\b\nGames and their rule sets (--rules; any case), PySolFC's own by its names, which\n"
    "GAME takes too (weddings is monte-carlo --rules weddings):\n" + "\n".join("  " + line for line in catalogue())
)


class BadInput(click.ClickException):
    """One line on stderr and exit status 2."""

    exit_code = BAD_INPUT


_DASH_NUMBER = re.compile(r"-[0-9]")


class Command(click.Command):
    """A wedlock command: its help ends with the games and rule sets, a game number that
    starts with a dash is a bad game number (not an unknown option), and a rule set typed
    where the game belongs gets the command line to type instead."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("epilog", GAMES_HELP)
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value = {name for p in self.params if isinstance(p, click.Option) and not p.is_flag for name in p.opts}
        positional = []
        for i, token in enumerate(args):
            if token == "--":
                break
            if i and args[i - 1] in takes_value:
                continue
            if _DASH_NUMBER.match(token):
                try:
                    GameNumber.parse(token)
                except WedlockError as err:
                    raise BadInput(str(err)) from None
            if not token.startswith("-"):
                positional.append(i)
        if positional and self.params and self.params[0].name == "game_name":
            args = self._game_args(ctx, args, positional[0])
        return super().parse_args(ctx, args)

    def _game_args(self, ctx: click.Context, args: list[str], at: int) -> list[str]:
        """The arguments with the game read: PySolFC's name of one of its games (`weddings`,
        `Monte Carlo (2 Decks)`) is wedlock's game and that rule set, which `--rules`, when
        given, must name too; a rule set typed for the game gets the line to type instead."""
        try:
            game_named(args[at])
            return args
        except RuleSetNotGame as err:
            failed: WedlockError = err
        except WedlockError as err:
            failed = err
        named = pysolfc_named(args[at])
        if named is not None:
            game, implied = named
            given = _rules_given(args)
            if given is None:
                return [*args[:at], game.name, *args[at + 1 :], "--rules", implied.name]
            try:
                agrees = rules_of(game, given) is implied
            except WedlockError:
                agrees = False
            if not agrees:
                raise BadInput(f"{printable(args[at])} is PySolFC's {implied.pysolfc}: {game.name} under its {implied.name} rules, not --rules {printable(given)}")
            return [*args[:at], game.name, *args[at + 1 :]]
        if isinstance(failed, RuleSetNotGame):
            rest = _without_rules([a for i, a in enumerate(args) if i != at])
            line = shlex.join([*ctx.command_path.split(), failed.game, *rest, "--rules", failed.rules])
            raise BadInput(f"{failed.rules} is a rule set of {failed.game}: {line}") from None
        return args  # an unknown game: the command says so, with the list of games


def _rules_given(args: list[str]) -> str | None:
    """The value of `--rules` among the arguments, if it is given."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--rules" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--rules="):
            return arg[len("--rules=") :]
    return None


def _without_rules(args: list[str]) -> list[str]:
    """The arguments without a `--rules` option (the rule set comes from the game typed)."""
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--rules":
            skip = True
        elif not arg.startswith("--rules="):
            out.append(arg)
    return out


class OutOfTimeReading(click.ClickException):
    """The time limit ran out while the input was read: one line, and exit 3 (unknown)."""

    exit_code = UNKNOWN_STATUS
    heading = ""  # an answer (unknown), not an error: no "Error: " before it


def input_errors(command: Callable) -> Callable:
    """Turn the library's named input errors into a one-line message and exit 2 (3 when a
    time limit ran out while the input was read)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except OutOfTime as err:
            raise OutOfTimeReading(f"unknown: {err}") from None
        except WedlockError as err:
            raise BadInput(str(err)) from None

    return wrapper


def deadline_after(seconds: float | None) -> float | None:
    """When a time limit that starts now runs out (`time.monotonic()`'s clock): a command's
    limit covers reading its input too."""
    return None if seconds is None else time.monotonic() + seconds


def time_left(deadline: float | None) -> float | None:
    """The seconds left before a deadline (0 once it has passed)."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())


SPENT_TIME = re.compile(r"\btime limit \S+ reached")


def as_set(found: Any, time_limit: float | None) -> Any:
    """`found` (a frozen answer with a `reason`) naming the time limit its command was
    given: its search had what reading the start left of it (`time_left`), and the words
    would otherwise name that share."""
    if time_limit is None or not SPENT_TIME.search(found.reason):
        return found
    return dataclasses.replace(found, reason=SPENT_TIME.sub(limit_reached("time_limit", Limits(time_limit=time_limit)), found.reason, count=1))


ANSWERING = "wedlock.answering"  # in a command's context: its answer is going out


def interruptible(command: Callable) -> Callable:
    """Ctrl-C: one line and exit 130, which no verdict uses (click's own answer is exit 1,
    which `solve` uses for lost); SIGTERM and SIGHUP alike, with 143 and 129. The line
    says whether the answer had begun to go out (`answering`)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt as stop:
            ctx = click.get_current_context(silent=True)
            answered = ctx is not None and ctx.meta.get(ANSWERING, False)
            stopping.tell(f"{stopping.word(stop)}{'' if answered else ' before an answer'}.")
            sys.exit(stopping.status(stop))

    return wrapper


def answering() -> None:
    """Mark that the command's answer goes out now: a Ctrl-C from here on no longer says
    that there is none."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[ANSWERING] = True


def progress_option(command: Callable) -> Callable:
    """--progress/--no-progress: the status line of cli/progress.py (default: on a terminal)."""
    return click.option(
        "--progress/--no-progress",
        default=None,
        help="Show which search runs, on stderr (default: when stderr is a terminal).",
    )(command)


def shows_progress(flag: bool | None) -> bool:
    if sys.stderr is None:  # closed: nowhere to show it
        return False
    return sys.stderr.isatty() if flag is None else flag


class FilePath(click.Path):
    """A file's path, which must not be empty (an empty one would otherwise read as "none
    given": --out '' would write to stdout, --dot '' nothing at all)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(dir_okay=False, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("a file name cannot be empty", param, ctx)
        return super().convert(value, param, ctx)


class FolderPath(click.Path):
    """A folder's path, which must not be empty (an empty one would be the current folder)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(path_type=Path, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("a folder's name cannot be empty", param, ctx)
        return super().convert(value, param, ctx)


class Seconds(click.ParamType):
    """Seconds, 0 or more, or `none` for no limit: never NaN, which compares false with
    every limit and so would never stop a search."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value is None or isinstance(value, float):
            return value
        text = str(value).strip().lower()
        if text in ("none", "no", "off"):
            return None
        try:
            seconds = float(text)
        except ValueError:
            self.fail(f"{value!r} is not a number of seconds (or 'none')", param, ctx)
        if math.isnan(seconds) or seconds < 0:
            self.fail(f"{value!r} is not a number of seconds, 0 or more (or 'none')", param, ctx)
        return seconds


game_argument = click.argument("game_name", metavar="GAME")
number_argument = click.argument("number", metavar="[N]", required=False)
deal_file_option = click.option(
    "--deal-file",
    type=FilePath(),
    help="Read the deal from a file: the cards in dealing order, first dealt first (QD TS 10s ah ...).",
)
rules_option = click.option("--rules", "rules_name", help="Rule set (default: PySolFC's; see below).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def count_option(name: str, default: int, help: str) -> Callable:
    """An option taking a positive whole number, its default shown in --help."""
    return click.option(name, type=COUNT, default=default, help=f"{help} [default: {default:,}]")


def no_peek_options(when: str) -> Callable:
    """--samples and --sample-time: the orderings of the unseen cards a no-peek decision
    weighs, and the limit of each search in one; `when` starts their help."""

    def add(command: Callable) -> Callable:
        command = click.option(
            "--sample-time",
            type=Seconds(),
            default=f"{SAMPLE_SECONDS:g}",
            show_default=True,
            help=f"{when} each search of a choice in an ordering; past it, no win is counted; 'none' for no limit.",
        )(command)
        return click.option(
            "--samples",
            type=click.IntRange(min=1, max=MOST_SAMPLES),
            default=SAMPLES,
            show_default=True,
            help=f"{when} orderings of the unseen cards a decision weighs.",
        )(command)

    return add


def playouts_option(help: str) -> Callable:
    """--playouts: games each player plays out when a state graph is too big (seeded)."""
    return count_option("--playouts", 2_000, help)


def time_limit_option(default: float | None, help: str = "Give up (unknown) after S seconds; 'none' for no limit.") -> Callable:
    """--time-limit S, or `none`; the default shown in --help."""
    shown = "none" if default is None else f"{default:g}"
    return click.option("--time-limit", type=Seconds(), default=shown, show_default=True, help=help)


def limit_options(default_seconds: float | None, held: str = "") -> Callable:
    """--node-limit, --time-limit (this default) and --max-states (`held` ends its help)."""

    def add(command: Callable) -> Callable:
        command = click.option(
            "--max-states",
            type=COUNT,
            default=20_000_000,
            help=f"Give up (unknown) when the search holds this many states.{held} [default: 20,000,000]",
        )(command)
        command = time_limit_option(default_seconds)(command)
        return click.option("--node-limit", type=COUNT, help="Give up (unknown) after N states.")(command)

    return add


def choose_deal(game_name: str, number: str | None, deal_file: str | None, rules_name: str | None) -> tuple[Deal, str]:
    """The deal named on the command line (a game number or a deal file, not both), and
    how the output names it: `game 12345` or `the deal in FILE`."""
    if (number is None) == (deal_file is None):
        raise BadInput("give either a game number N or --deal-file F")
    if deal_file is not None:
        return deal_from_file(game_name, deal_file, rules_name), f"the deal in {printable(deal_file)}"
    chosen = deal(game_name, GameNumber.parse(number or ""), rules_name)
    return chosen, chosen.label


def header(chosen: Deal, label: str) -> str:
    """The first line of a text answer: the game and rule set in a player's words, once."""
    return f"# {chosen.title}, {label}"


after_option = click.option(
    "--after",
    "after_file",
    type=FilePath(),
    help="Start from the position after these moves (a moves file, as verify reads it; - for stdin).",
)
position_option = click.option(
    "--position",
    "position_file",
    type=FilePath(),
    help="Start from a position typed from the screen (see `deal --position-out` for the form).",
)


pysolfc_save_option = click.option(
    "--pysolfc-save",
    "pysolfc_save",
    type=FilePath(),
    help="Start from a game PySolFC saved (File > Save, a .pso file): its game, number and moves; GAME may be left out.",
)
start_game_argument = click.argument("game_name", metavar="GAME", required=False)  # a save may name it


def start_options(command: Callable) -> Callable:
    """GAME [N], --deal-file, --rules, --after, --position and --pysolfc-save: where a
    command starts, as `choose_start` reads them (the options in this order in --help)."""
    for option in (pysolfc_save_option, position_option, after_option, rules_option, deal_file_option, number_argument, start_game_argument):
        command = option(command)
    return command


def choose_start(
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None = None,
    position_file: str | None = None,
    pysolfc_save: str | None = None,
    deadline: float | None = None,
) -> tuple[Deal | Position, str]:
    """The deal named on the command line, or the position of a game under way: a typed
    position or a game PySolFC saved (read by `deadline`), then the moves of --after; and
    how the output names it."""
    if pysolfc_save is not None:
        return saved_start(game_name, number, deal_file, rules_name, after_file, position_file, pysolfc_save, deadline)
    if game_name is None:
        raise click.UsageError("Missing argument 'GAME' (or give --pysolfc-save FILE, a game PySolFC saved).")
    typed = None
    if position_file is not None:
        typed = _read(position_file, "position")
        with naming(position_file):
            named = named_in(game_named(game_name), typed)
        if number is None and deal_file is None and named.game_number is not None:
            number = named.game_number
        if rules_name is None:
            rules_name = named.rules
    chosen, label = choose_deal(game_name, number, deal_file, rules_name)
    if typed is None and after_file is None:
        return chosen, label
    if position_file is not None:
        with naming(position_file):
            start = position(chosen.game, chosen, text=typed)
        label += f", the position in {shown_name(position_file)}"
    else:
        start = position(chosen.game, chosen)
    if after_file is not None:
        start = _played_after(start, after_file)
        label += f", after {counted(len(start.moves), 'move')}"
    return start, label


def saved_start(
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    position_file: str | None,
    pysolfc_save: str,
    deadline: float | None = None,
) -> tuple[Position, str]:
    """The position of a game PySolFC saved (GAME, N and --rules, when given, must agree
    with it), read by `deadline`, then the moves of --after."""
    for given, option in ((deal_file, "--deal-file"), (position_file, "--position")):
        if given is not None:
            raise BadInput(f"give --pysolfc-save or {option}, not both: each says where the game starts")
    if pysolfc_save == "-" and after_file == "-":
        raise BadInput("stdin can give the saved game or the moves of --after, not both")
    source: str | bytes = pysolfc_save
    if pysolfc_save == "-":
        try:
            source = read_stream(stdin_bytes(), deadline)
        except UNREADABLE as err:
            raise BadInput(f"cannot read stdin: {why_unreadable(err)}") from None
    start = position(game_name, number, rules_name, pysolfc_save=source, time_limit=time_left(deadline))
    if start.typed:  # a save wedlock wrote of a game under way: its history starts there
        label = f"{start.deal.label}, the position saved in {shown_name(pysolfc_save)}"
        if start.moves:
            label += f", then {counted(len(start.moves), 'move')}"
    else:
        label = f"{start.deal.label}, saved in {shown_name(pysolfc_save)} after {counted(len(start.moves), 'move')}"
    if after_file is not None:
        saved = len(start.moves)
        start = _played_after(start, after_file)
        label += f", then {counted(len(start.moves) - saved, 'move')}"
    return start, label


def _played_after(start: Position, after_file: str) -> Position:
    """The position after the moves of the --after file; what is wrong with them names it."""
    moves = _read(after_file, "moves")
    with naming(after_file):
        return position(start.deal.game, start, after=moves)


@contextlib.contextmanager
def naming(path: str) -> Iterator[None]:
    """What the library finds wrong with a file the command line names is said with the
    file's name, as verify says it of its --moves file: one line and exit 2."""
    try:
        yield
    except OutOfTime:
        raise
    except WedlockError as err:
        raise BadInput(f"{shown_name(path)}: {err}") from None


def start_game(start: Deal | Position) -> Any:
    """The game a start (a deal or a position) is of."""
    return start.deal.game if isinstance(start, Position) else start.game


def check_writable(path: str) -> None:
    """Before any work: a file the command is to write needs an existing folder, and a
    path that leads somewhere (not a loop of symbolic links)."""
    if _link_loop(path):
        raise BadInput(f"cannot write {printable(path)}: its symbolic links go round in a loop")
    target = Path(path)
    if target.is_dir():
        raise BadInput(f"cannot write {printable(path)}: it is a folder")
    if not target.parent.is_dir():
        raise BadInput(f"cannot write {printable(path)}: there is no folder {printable(str(target.parent))}")


class CannotWrite(click.ClickException):
    """An output the system refused (a full or read-only disk): one line on stderr and exit
    5; what was printed before stands."""

    exit_code = CANNOT_WRITE


def write_file(path: str, write: Callable[[str], Any]) -> None:
    """Make the file at `path` whole or not at all: `write(name)` writes it under a
    temporary name in the same folder, which is renamed to `path` once it is whole and
    removed if anything goes wrong. A disk that refuses it is a CannotWrite; Ctrl-C (or
    SIGTERM, SIGHUP) says which file it stopped. A path that is no regular file (/dev/stdout,
    a pipe) is written as it is."""
    target = os.path.realpath(path)  # through a link: the link stays, its file is replaced
    temporary = None
    if _link_loop(path):  # realpath gives such a path back as it is: the link would be replaced
        raise CannotWrite(f"cannot write {printable(path)}: its symbolic links go round in a loop")
    try:
        if os.path.exists(target) and not os.path.isfile(target):
            with _reader_of(path, target):
                write(target)
            return
        temporary = _new_file_beside(target)
        write(temporary)
        with open(temporary, "rb") as done:  # on the disk before the rename makes it the file
            os.fsync(done.fileno())
        os.replace(temporary, target)
        temporary = None
    except OSError as err:
        raise CannotWrite(f"cannot write {printable(path)}: {err.strerror or err}") from None
    except KeyboardInterrupt as stop:
        stopping.tell(f"{stopping.word(stop)}: {printable(path)} not written.")
        raise click.exceptions.Exit(stopping.status(stop)) from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.remove(temporary)


@contextlib.contextmanager
def _reader_of(path: str, target: str) -> Iterator[None]:
    """While a FIFO is written, a hold on it that makes sure a program reads it: opening
    one that nothing reads would wait for a reader until Ctrl-C, so it is refused at once.
    The hold keeps the FIFO open till the write is done, so its reader sees one end only."""
    if not stat.S_ISFIFO(os.stat(target).st_mode) or not hasattr(os, "O_NONBLOCK"):
        yield
        return
    try:
        held = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise CannotWrite(f"cannot write {printable(path)}: it is a pipe that no program reads") from None
        raise
    try:
        yield
    finally:
        os.close(held)


def _link_loop(path: str) -> bool:
    """Whether the symbolic links of a path go round in a loop."""
    try:
        os.path.realpath(path, strict=True)
    except FileNotFoundError:  # a new file, or a link to one
        return False
    except OSError as err:
        return err.errno == errno.ELOOP
    return False


def _new_file_beside(target: str) -> str:
    """A new, empty file in `target`'s folder, hidden, named after it."""
    folder, name = os.path.split(target)
    while True:
        temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            return temporary
        except FileExistsError:
            continue


def write_page(path: str, text: str) -> None:
    """Write a page's text (see `write_file`)."""
    write_file(path, lambda target: Path(target).write_text(text, encoding="utf-8"))


def _read(path: str, what: str) -> str:
    """The text of a file the command line names (`-`: stdin), within the bounds of
    `input_files`, or one line and exit 2."""
    try:
        if path == "-":
            return read_text_from(stdin_bytes())
        return read_text(path)
    except UNREADABLE as err:
        source = "stdin" if path == "-" else f"{what} file '{printable(path)}'"
        raise BadInput(f"cannot read {source}: {why_unreadable(err)}") from None


def shown_name(path: str) -> str:
    """A file the command line names, as output shows it: `stdin` for `-`."""
    return "stdin" if path == "-" else printable(path)


def stdin_bytes() -> BinaryIO:
    """Standard input as bytes; one line and exit 2 when there is none."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise BadInput("- reads stdin, and there is none")
    return stream

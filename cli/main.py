"""The `wedlock` command group: every error one line on stderr, and exit statuses a script
can rely on."""

from __future__ import annotations

import errno
import io
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import Any

import click

from wedlock.basics import compiled as core
from wedlock.basics.printable import printable
from wedlock.basics.version import __version__
from wedlock.pipeline.solving import SolverFault

from . import stopping
from .common import CANNOT_WRITE, GAMES_HELP

# Each command and the module that defines it, imported when the command runs (or --help
# lists them all): `wedlock solve` never loads the analysis, networkx or the batch runners.
COMMANDS = {
    "deal": ("deal_cmd", "deal_command"),
    "solve": ("solve_cmd", "solve_command"),
    "hint": ("hint_cmd", "hint_command"),
    "play": ("play_cmd", "play_command"),
    "show": ("show_cmd", "show_command"),
    "verify": ("verify_cmd", "verify_command"),
    "batch": ("batch_cmd", "batch_command"),
    "stats": ("stats_cmd", "stats_command"),
    "analyze": ("analyze_cmd", "analyze_command"),
    "winnable": ("winnable_cmd", "winnable_command"),
    "pysolfc": ("pysolfc_cmd", "pysolfc_group"),
    "web": ("web_cmd", "web_command"),
}

# `wedlock` with no command (click 8.2 and later; older ones print the help themselves)
NO_COMMAND = getattr(click.exceptions, "NoArgsIsHelpError", ())
# stdout refused: a full disk (/dev/full), a device's error, a descriptor closed or not open for writing
OUTPUT_REFUSED = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF, errno.EROFS)
PIPE_CLOSED = 128 + 13  # the status of a process killed by SIGPIPE, as `cmd | head` expects
SOLVER_FAULT = 4  # the referee rejected a win: a bug to report, never a verdict


@contextmanager
def _pipe_closes_quietly() -> Iterator[None]:
    """A closed output pipe (`| head -1`) ends the command as SIGPIPE would: status 141,
    nothing printed."""
    try:
        yield
    except OSError as err:
        if err.errno != errno.EPIPE:
            raise
        _quiet_stdout()
        raise click.exceptions.Exit(PIPE_CLOSED) from None


@contextmanager
def _stops_in_one_line() -> Iterator[None]:
    """Ctrl-C, SIGTERM or SIGHUP where no command says more: one line, and 128 + the signal."""
    try:
        yield
    except KeyboardInterrupt as stop:
        stopping.tell(f"{stopping.word(stop)}.")
        raise click.exceptions.Exit(stopping.status(stop)) from None


class _ClosedStdout(io.TextIOBase):
    """Stands for a stdout closed before wedlock started (`>&-`): writing to it fails as
    on any other output that refuses it, rather than vanishing."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the exit does not try again to flush what
    could not be written (and print a second error about it)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _utf8_if_needed() -> None:
    """Write UTF-8 where the locale's encoding has no suit symbols (a file redirected under
    a Latin-1 or Windows code page): what wedlock reads back, rather than a crash."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if encoding and isinstance(stream, io.TextIOWrapper):
            try:
                "♠♥♦♣".encode(encoding)
            except (UnicodeEncodeError, LookupError):
                stream.reconfigure(encoding="utf-8")


def _one_line(text: str, most: int = 300) -> str:
    """An error message on one line (click lays out some on several, indented with tabs),
    cut to a readable length, however long the input it quotes."""
    text = re.sub(r"\s*\n\s*", " ", text)
    return text if len(text) <= most else f"{text[: most - 60]} ... ({len(text):,} characters) ... {text[-40:]}"


class OneLineErrors(click.Group):
    """A group whose every usage error is one line on stderr, with exit status 2, that ends
    quietly with 141 on a closed output pipe, with 5 when the output cannot be written, and
    with one line and 130 on Ctrl-C (143 on SIGTERM, 129 on SIGHUP)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command called `name`, its module imported the first time it is asked for."""
        if name not in self.commands and name in COMMANDS:
            module, attribute = COMMANDS[name]
            self.add_command(getattr(import_module(f".{module}", __package__), attribute), name)
        return self.commands.get(name)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _stops_in_one_line(), _pipe_closes_quietly():  # `wedlock --help | true`
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _stops_in_one_line(), _pipe_closes_quietly():
            return super().invoke(ctx)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            self._main(*args, **kwargs)
        except KeyboardInterrupt as stop:  # between the command's end and the exit
            stopping.tell(f"{stopping.word(stop)}.")
            sys.exit(stopping.status(stop))

    def _main(self, *args: Any, **kwargs: Any) -> None:
        kwargs["standalone_mode"] = False
        if sys.stdout is None:
            sys.stdout = _ClosedStdout()
        _utf8_if_needed()
        try:
            status = super().main(*args, **kwargs)
        except NO_COMMAND as err:  # `wedlock` alone: the help, as it is, not squeezed onto a line
            stopping.tell(err.format_message())
            sys.exit(err.exit_code)
        except click.ClickException as err:
            hint = ""
            if isinstance(err, click.UsageError) and err.ctx is not None:
                hint = f" (see '{err.ctx.command_path} --help')"
            heading = getattr(err, "heading", "Error: ")
            stopping.tell(printable(_one_line(f"{heading}{err.format_message()}")) + hint)
            sys.exit(err.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except SolverFault as err:
            stopping.tell(f"Error: internal fault, please report it: {err}")
            sys.exit(SOLVER_FAULT)
        except OSError as err:
            if err.errno not in OUTPUT_REFUSED:
                raise
            _quiet_stdout()
            stopping.tell(f"Error: cannot write the output: {err.strerror}")
            sys.exit(CANNOT_WRITE)
        sys.exit(status if isinstance(status, int) else 0)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """`--version`: the version, and whether the compiled search core or pure Python runs."""
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"wedlock, version {__version__} ({core.description()})")
    ctx.exit()


@click.group(cls=OneLineErrors, epilog=GAMES_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
    help="Show the version and which search runs (compiled core or pure Python), then exit.",
)
def cli() -> None:
    """Exact solver for the patience games Monte Carlo and Matrimony.

    Deals are numbered as in PySolFC, so `wedlock solve monte-carlo 12345` answers for
    the game PySolFC calls #12345.
    """

"""The `wedlock` command group: every error one line on stderr, and exit statuses a script
can rely on."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

import click

from wedlock import __version__
from wedlock.pipeline import SolverFault

from .analyze_cmd import analyze_command
from .batch_cmd import batch_command
from .common import GAMES_HELP
from .deal_cmd import deal_command
from .solve_cmd import solve_command
from .stats_cmd import stats_command
from .verify_cmd import verify_command
from .winnable_cmd import winnable_command

# `wedlock` with no command (click 8.2 and later; older ones print the help themselves)
NO_COMMAND = getattr(click.exceptions, "NoArgsIsHelpError", ())
OUTPUT_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)  # stdout on a disk that is full
PIPE_CLOSED = 128 + 13  # the status of a process killed by SIGPIPE, as `cmd | head` expects
SOLVER_FAULT = 4  # the referee rejected a win: a bug to report, never a verdict


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the exit does not try again to flush what
    could not be written (and print a second error about it)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class OneLineErrors(click.Group):
    """A group whose every usage error is one line on stderr, with exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as err:
            if err.errno != errno.EPIPE:
                raise
            _quiet_stdout()  # the reader went away (`| head -1`): end as SIGPIPE would, quietly
            raise click.exceptions.Exit(PIPE_CLOSED) from None

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            status = super().main(*args, **kwargs)
        except NO_COMMAND as err:  # `wedlock` alone: the help, as it is, not squeezed onto a line
            click.echo(err.format_message(), err=True)
            sys.exit(err.exit_code)
        except click.ClickException as err:
            hint = ""
            if isinstance(err, click.UsageError) and err.ctx is not None:
                hint = f" (see '{err.ctx.command_path} --help')"
            click.echo(f"Error: {err.format_message()}{hint}".replace("\n", " "), err=True)
            sys.exit(err.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except SolverFault as err:
            click.echo(f"Error: internal fault, please report it: {err}", err=True)
            sys.exit(SOLVER_FAULT)
        except OSError as err:
            if err.errno not in OUTPUT_FULL:
                raise
            _quiet_stdout()
            click.echo(f"Error: cannot write the output: {err.strerror}", err=True)
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


@click.group(cls=OneLineErrors, epilog=GAMES_HELP)
@click.version_option(__version__, prog_name="wedlock")
def cli() -> None:
    """Exact solver for the patience games Monte Carlo and Matrimony.

    Deals are numbered as in PySolFC, so `wedlock solve monte-carlo 12345` answers for
    the game PySolFC calls #12345.
    """


for command in (deal_command, solve_command, verify_command, batch_command, stats_command, analyze_command, winnable_command):
    cli.add_command(command)

"""The `wedlock` command group."""

from __future__ import annotations

import click

from solver import __version__

from .deal_cmd import deal_command
from .solve_cmd import solve_command
from .verify_cmd import verify_command


@click.group()
@click.version_option(__version__, prog_name="wedlock")
def cli() -> None:
    """Exact solver for the patience games Monte Carlo and Matrimony.

    Deals are numbered as in PySolFC, so `wedlock solve monte-carlo 12345` answers for
    the game PySolFC calls #12345.
    """


cli.add_command(deal_command)
cli.add_command(solve_command)
cli.add_command(verify_command)

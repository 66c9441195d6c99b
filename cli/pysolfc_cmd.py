"""`wedlock pysolfc`: wedlock and PySolFC, the program most players of these games use."""

from __future__ import annotations

import click

from .pysolfc_seeds_cmd import seeds_command


@click.group("pysolfc")
def pysolfc_group() -> None:
    """wedlock inside PySolFC: its plugin, and seed pools of winnable deals in its format."""


pysolfc_group.add_command(seeds_command)

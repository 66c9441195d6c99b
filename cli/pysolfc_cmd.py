"""`wedlock pysolfc`: wedlock and PySolFC, the program most players of these games use."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import click

from wedlock.basics.printable import printable
from wedlock.pysolfc.install import PLUGIN_FILE, default_folder, is_wedlocks, plugin_text, pysolfc_found

from .common import BadInput, FolderPath, interruptible, write_file
from .pysolfc_seeds_cmd import seeds_command

DIR_HELP = "PySolFC's plugins folder (default: ~/.PySolFC/plugins; on Windows %APPDATA%\\PySolFC\\plugins)."


@click.group("pysolfc")
def pysolfc_group() -> None:
    """wedlock inside PySolFC: its plugin, and seed pools of winnable deals in its format."""


@pysolfc_group.command("install")
@click.option("--dir", "folder", type=FolderPath(), help=DIR_HELP)
@interruptible
def install_command(folder: Path | None) -> None:
    """Put wedlock's plugin in PySolFC's plugins folder; PySolFC loads it as it next starts.

    In Monte Carlo, Weddings, Monte Carlo (2 Decks) and Matrimony the Hint button then
    shows a move that keeps the win (or says the game can no longer be won), the Demo plays
    wedlock's solution, and the Assist menu plays it for you or deals a winnable game.
    PySolFC must run on a Python where wedlock is installed; elsewhere the plugin does
    nothing. Where no PySolFC can be found, the plugin is installed all the same, and the
    command says that PySolFC is needed to use it.

    \b
    Example:
      wedlock pysolfc install
    """
    where = _folder(folder, make=True)
    target = where / PLUGIN_FILE
    before = _written_by_wedlock(target)
    write_file(str(target), lambda name: Path(name).write_text(plugin_text(), encoding="utf-8"))
    done = "updated" if before else "installed"
    if pysolfc_found():
        click.echo(f"{done} wedlock's plugin: {printable(str(target))} (PySolFC loads it as it starts)")
        return
    click.echo(f"{done} wedlock's plugin: {printable(str(target))}")
    click.echo(
        "PySolFC was not found on this machine (no pysollib in this Python, no pysol program on the PATH): "
        "to use the plugin, install PySolFC on a Python where wedlock is installed; PySolFC loads it as it starts"
    )


@pysolfc_group.command("uninstall")
@click.option("--dir", "folder", type=FolderPath(), help=DIR_HELP)
@interruptible
def uninstall_command(folder: Path | None) -> None:
    """Take wedlock's plugin out of PySolFC's plugins folder.

    \b
    Example:
      wedlock pysolfc uninstall
    """
    where = _folder(folder, make=False)
    target = where / PLUGIN_FILE
    if not _written_by_wedlock(target):
        click.echo(f"wedlock's plugin is not installed in {printable(str(where))}")
        return
    try:
        target.unlink()
    except OSError as err:
        raise BadInput(f"cannot remove {printable(str(target))}: {err.strerror or err}") from None
    for cached in (where / "__pycache__").glob(f"{target.stem}.*.pyc"):  # what Python compiled of it
        with contextlib.suppress(OSError):
            cached.unlink()
    click.echo(f"removed wedlock's plugin: {printable(str(target))}")


def _folder(folder: Path | None, make: bool) -> Path:
    """The plugins folder, made when `make` and it is missing; one that cannot be made or
    written in is bad input."""
    where = folder if folder is not None else default_folder()
    shown = printable(str(where))
    if where.exists() and not where.is_dir():
        raise BadInput(f"{shown} is not a folder")
    if make:
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise BadInput(f"cannot make the folder {shown}: {err.strerror or err}") from None
    if where.is_dir() and not os.access(where, os.W_OK | os.X_OK):
        raise BadInput(f"cannot write in the folder {shown}")
    return where


def _written_by_wedlock(target: Path) -> bool:
    """Whether the plugin file is there and wedlock's; a file of that name that is
    someone else's is bad input, left alone."""
    if not target.exists():
        return False
    try:
        with open(target, encoding="utf-8", errors="replace") as file:
            start = file.read(200)
    except OSError as err:
        raise BadInput(f"cannot read {printable(str(target))}: {err.strerror or err}") from None
    if not is_wedlocks(start):
        raise BadInput(f"{printable(str(target))} is not wedlock's plugin: left alone")
    return True


pysolfc_group.add_command(seeds_command)

"""`wedlock web`: write the static site of the page that deals and solves in the browser."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from wedlock.basics.memory import size_text
from wedlock.basics.printable import printable
from wedlock.basics.words import counted

from .common import BadInput, Command, FolderPath, input_errors, json_option, write_file


@click.command("web", cls=Command)
@click.argument("folder", metavar="DIR", type=FolderPath(file_okay=False))
@json_option
@input_errors
def web_command(folder: Path, as_json: bool) -> None:
    """Write into DIR a static site where a player picks a game, its rules and a number,
    and the browser deals it as PySolFC does, solves it (at solve's default limits) and
    plays the win back; it gives hints for a game under way too. Serve DIR with any
    static file server and open index.html; once loaded it needs no network. A URL such
    as index.html#game=matrimony&n=1 (&rules=arnold) opens that deal and solves it.

    Example: wedlock web site && python3 -m http.server -d site
    """
    from wedlock.web.site import site_files, site_size  # the site's 13 MB, read only here

    if not folder.parent.is_dir():
        raise BadInput(f"cannot write {printable(str(folder))}: there is no folder {printable(str(folder.parent))}")
    files = site_files()
    try:
        folder.mkdir(exist_ok=True)
        (folder / "pyodide").mkdir(exist_ok=True)
    except OSError as err:
        raise BadInput(f"cannot write {printable(str(folder))}: {err.strerror or err}") from None
    for name, data in files.items():
        write_file(str(folder / name), _writer(data))
    if as_json:
        click.echo(json.dumps({"folder": str(folder), "bytes": site_size(files), "files": {n: len(d) for n, d in files.items()}}))
        return
    click.echo(f"{printable(str(folder))}: {counted(len(files), 'file')}, {size_text(site_size(files))}")
    click.echo(f"serve it: python3 -m http.server -d {printable(str(folder))}, then open http://localhost:8000/")


def _writer(data: bytes) -> Callable[[str], int]:
    """What `write_file` calls to write these bytes."""
    return lambda target: Path(target).write_bytes(data)

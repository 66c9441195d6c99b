"""The files of the page that solves in the browser, made from what the package ships.

The site is static: `index.html` and its script and styles (`page/`), a Web Worker that
runs wedlock under Pyodide (`pyodide/`, its distribution from the npm registry, unchanged),
and `wedlock.zip`, the package's own Python files with the compiled core built for
Pyodide (`core/core.wasm`, see build.py) and pysol_cards, the one library a solve needs.
Everything comes from the installed package: making a site needs no network and no
compiler. docs/WEB.md says how it works and what it costs.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import io
import json
import zipfile
from importlib import metadata, resources
from importlib.resources.abc import Traversable
from pathlib import PurePosixPath

from ..basics.version import __version__
from .answer import games
from .build import EXTENSION

PAGE_FILES = ("index.html", "app.js", "app.css", "worker.js")
PYODIDE_FILES = (
    "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
    "LICENSE-Apache-2.0", "LICENSE-MPL-2.0", "LICENSE-Python.txt", "NOTICE.md",
)
PACKAGE_SUFFIXES = (".py", ".bits", ".html", ".css", ".js", ".typed")
LEFT_OUT = ("cli", "web/pyodide", "web/page", "web/core", "_core")  # not for the browser: the command line, the site itself, C sources
ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # every member's date: the same package makes the same zip
PACKED = ".gz"  # the suffix of a file of Pyodide's the package keeps gzipped (the 9 MB wasm: 2.9 MB so)


def pyodide_file(name: str) -> bytes:
    """One of Pyodide's files as npm ships it, from the package (uncompressed when it is
    kept gzipped)."""
    folder = _web().joinpath("pyodide")
    packed = folder.joinpath(name + PACKED)
    if packed.is_file():
        return gzip.decompress(packed.read_bytes())
    return folder.joinpath(name).read_bytes()


def _web() -> Traversable:
    return resources.files(__package__)


def _walk(folder: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    """Every file under `folder`, with its path from there, in name order."""
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__" and name not in LEFT_OUT:
                out += _walk(entry, name + "/")
        elif entry.name.endswith(PACKAGE_SUFFIXES):
            out.append((name, entry))
    return out


def _member(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data, compresslevel=9)


def package_zip() -> bytes:
    """wedlock's Python files as Pyodide unpacks them into its site-packages, with the
    core built for it and pysol_cards beside."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, entry in _walk(resources.files("wedlock")):
            _member(archive, f"wedlock/{name}", entry.read_bytes())
        _member(archive, f"wedlock/{EXTENSION}", _web().joinpath("core", "core.wasm").read_bytes())
        cards = metadata.distribution("pysol-cards")
        for path in sorted(cards.files or [], key=str):
            parts = PurePosixPath(str(path)).parts
            if parts[0] == "pysol_cards" and path.suffix == ".py" and "tests" not in parts:
                _member(archive, str(PurePosixPath(*parts)), path.read_binary())
            elif path.name == "LICENSE":
                _member(archive, "pysol_cards/LICENSE", path.read_binary())
    return buffer.getvalue()


def site_files() -> dict[str, bytes]:
    """Each file of the site by its path in the site's folder."""
    web = _web()
    files: dict[str, bytes] = {}
    for name in PAGE_FILES:
        files[name] = web.joinpath("page", name).read_bytes()
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = pyodide_file(name)
    files["wedlock.zip"] = package_zip()
    stamp = hashlib.sha256(files["wedlock.zip"]).hexdigest()[:16]  # a new package is fetched anew, never an old one cached
    shown = json.dumps({"games": games(), "version": __version__, "package": f"wedlock.zip?{stamp}"}).replace("</", "<\\/")
    files["index.html"] = files["index.html"].decode().replace("{{version}}", html.escape(__version__)).replace("{{setup}}", shown).encode()
    return files


def site_size(files: dict[str, bytes]) -> int:
    """The bytes of a site's files."""
    return sum(len(data) for data in files.values())

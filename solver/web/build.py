"""The compiled core for the page: solver/_core/ built as a Pyodide extension module.

The site ships this build (`core/core.wasm`, with `core/core.json` naming the sources it
came from), so that neither `wedlock web` nor CI needs a WebAssembly toolchain. Rebuild it
after changing the C sources, with Debian's emscripten (`apt-get install emscripten`):

    python -m wedlock.web.build        # from a checkout; rewrites solver/web/core/

The core is linked as an emscripten side module (`-sSIDE_MODULE=1`), which Pyodide's
interpreter loads as it loads any compiled extension. The Python headers are this
interpreter's own (3.11, the Python of the shipped Pyodide), configured for wasm32 from
the `_sysconfigdata` that Pyodide's standard library carries: the values CPython's
configure found when it was built for the browser.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent  # the checkout's folder, also under an editable install of links
CORE = HERE / "core"
PYODIDE = HERE / "pyodide"
SOURCES = ["module.c", "search.c", "montecarlo.c", "arnold.c", "graph.c", "pysol_dead.c", "pysol.c", "referee.c", "pysol_rollouts.c"]
FLAGS = ["-O2", "-std=c11", "-fPIC", "-sSIDE_MODULE=1", "-sWASM_BIGINT"]
# What a plain CPython build defines in pyconfig.h and the sysconfig data leaves out.
FEATURES = [
    "_ALL_SOURCE 1", "_GNU_SOURCE 1", "_TANDEM_SOURCE 1", "__EXTENSIONS__ 1", "_DARWIN_C_SOURCE 1", "_FILE_OFFSET_BITS 64",
    "_LARGEFILE_SOURCE 1", "_NETBSD_SOURCE 1", "_POSIX_C_SOURCE 200809L", "_XOPEN_SOURCE 700", "_XOPEN_SOURCE_EXTENDED 1",
]
MAKEFILE_ONLY = {"DIRMODE", "EXEMODE", "FILEMODE", "TESTTIMEOUT"}  # numbers of the Makefile, not of pyconfig.h
SYSCONFIG = "_sysconfigdata__emscripten_wasm32-emscripten.py"
EXTENSION = "_core.cpython-311-wasm32-emscripten.so"  # the name Pyodide's Python imports wedlock._core by


def source_folder() -> Path:
    """solver/_core/ of the checkout this module lies in."""
    return HERE.parent / "_core"


def source_digest(folder: Path | None = None) -> str:
    """The SHA-256 of the C sources and headers (names and bytes, in name order) and the flags."""
    folder = folder or source_folder()
    digest = hashlib.sha256(" ".join(FLAGS).encode())
    for path in sorted(folder.glob("*.[ch]")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def pyconfig() -> str:
    """pyconfig.h for wasm32, from the configure results in Pyodide's standard library."""
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as stdlib:
        code = stdlib.read(SYSCONFIG).decode()
    found: dict = {}
    exec(compile(code, SYSCONFIG, "exec"), found)
    lines = ["#ifndef Py_PYCONFIG_H", "#define Py_PYCONFIG_H"]
    for name, value in sorted(found["build_time_vars"].items()):
        if isinstance(value, int) and value and name not in MAKEFILE_ONLY and name.replace("_", "").isalnum() and not name[0].islower():
            lines.append(f"#define {name} {value}")
    lines += [f"#define {feature}" for feature in FEATURES]
    lines.append("#endif")
    return "\n".join(lines) + "\n"


def build(out: Path = CORE, emcc: str = "emcc", folder: Path | None = None) -> dict:
    """Compile the core from `folder` (solver/_core/ by default) into `out` (core.wasm and
    core.json); returns what core.json holds."""
    if sys.version_info[:2] != (3, 11):
        raise RuntimeError("the shipped Pyodide runs Python 3.11: build the core with a Python 3.11's headers")
    with tempfile.TemporaryDirectory() as work:
        headers = Path(work) / "python3.11"
        shutil.copytree(sysconfig.get_paths()["include"], headers)
        (headers / "pyconfig.h").write_text(pyconfig())  # Python.h includes it from its own folder first
        target = Path(work) / EXTENSION
        folder = folder or source_folder()
        places = [f"-ffile-prefix-map={work}=.", f"-ffile-prefix-map={folder}=_core"]  # the same bytes from any folder
        sources = [str(folder / s) for s in SOURCES]
        subprocess.run([emcc, *FLAGS, *places, f"-I{headers}", *sources, "-o", str(target)], check=True)
        version = subprocess.run([emcc, "--version"], check=True, capture_output=True, text=True).stdout.splitlines()[0]
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(target, out / "core.wasm")
    record = {
        "sources": source_digest(folder),
        "flags": FLAGS,
        "compiler": version,
        "wasm": hashlib.sha256((out / "core.wasm").read_bytes()).hexdigest(),
    }
    (out / "core.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


if __name__ == "__main__":
    if not (source_folder() / "module.c").is_file():
        sys.exit(f"no C sources in {source_folder()}: build the page's core from a checkout of wedlock (pip install -e)")
    if shutil.which("emcc") is None:
        sys.exit("no emcc on the PATH: install Debian's emscripten (apt-get install emscripten)")
    build()

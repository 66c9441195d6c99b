"""The site `wedlock web` writes, without a browser: what it holds and weighs, the shipped
artefacts held to what they came from, and the worker's answers held to the command line's.
tests/web/test_browser.py runs the site itself in Chromium."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

import wedlock
from tests.cli.test_cli import assert_bad_input, run
from wedlock.web import answer, build
from wedlock.web.site import pyodide_file, site_files, site_size

ROOT = Path(__file__).parent.parent.parent
WEB = ROOT / "solver" / "web"
SOURCES = ROOT / "solver" / "_core"  # the checkout's: an installed package holds no C sources
MOST_BYTES = 15_000_000  # the site's budget (docs/WEB.md)


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    return site_files()


def test_the_shipped_core_was_built_from_these_sources() -> None:
    """core/core.wasm is the build of solver/_core/ as it is now: after a change to the C
    sources, `python -m wedlock.web.build` makes it again (docs/WEB.md)."""
    record = json.loads((WEB / "core" / "core.json").read_text())
    assert record["sources"] == build.source_digest(SOURCES), "solver/_core changed: rebuild the page's core with python -m wedlock.web.build"
    assert record["flags"] == build.FLAGS
    assert record["wasm"] == hashlib.sha256((WEB / "core" / "core.wasm").read_bytes()).hexdigest()


@pytest.mark.slow
def test_building_the_core_again_gives_the_same_bytes(tmp_path: Path) -> None:
    if shutil.which("emcc") is None:
        pytest.skip("no emscripten on this machine (apt-get install emscripten)")
    record = build.build(tmp_path, folder=SOURCES)
    assert (tmp_path / "core.wasm").read_bytes() == (WEB / "core" / "core.wasm").read_bytes()
    assert record["sources"] == json.loads((WEB / "core" / "core.json").read_text())["sources"]


def test_the_shipped_pyodide_is_the_npm_package_unchanged() -> None:
    manifest = json.loads((WEB / "pyodide" / "manifest.json").read_text())
    assert manifest["package"] == "pyodide" and manifest["python"].startswith("3.11.")
    for name, digest in manifest["files"].items():
        assert hashlib.sha256(pyodide_file(name)).hexdigest() == digest, name
    lock = json.loads((WEB / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == manifest["version"]
    for licence in ("LICENSE-Apache-2.0", "LICENSE-MPL-2.0", "LICENSE-Python.txt", "NOTICE.md"):
        assert (WEB / "pyodide" / licence).stat().st_size > 500


def test_the_site_holds_the_page_pyodide_and_the_package_within_its_budget(files: dict[str, bytes]) -> None:
    assert {"index.html", "app.js", "app.css", "worker.js", "wedlock.zip", "pyodide/pyodide.asm.wasm"} <= set(files)
    assert site_size(files) < MOST_BYTES
    index = files["index.html"].decode()
    assert "{{" not in index and wedlock.__version__ in index
    with zipfile.ZipFile(io.BytesIO(files["wedlock.zip"])) as package:
        names = set(package.namelist())
    assert {f"wedlock/{build.EXTENSION}", "wedlock/web/answer.py", "wedlock/pictures/viewer/viewer.js", "pysol_cards/random.py"} <= names
    assert not any(n.startswith(("wedlock/cli/", "wedlock/web/pyodide/", "wedlock/_core/")) or "__pycache__" in n for n in names)
    assert site_files()["wedlock.zip"] == files["wedlock.zip"]  # the same package makes the same zip


def test_the_worker_uses_the_command_lines_default_limits() -> None:
    from wedlock.cli.common import SOLVE_SECONDS

    assert answer.SOLVE_SECONDS == SOLVE_SECONDS
    assert answer.MAX_STATES == 20_000_000  # --max-states' default (cli/common.py)
    assert answer.seconds_given(None) == answer.seconds_given("") == SOLVE_SECONDS
    assert answer.seconds_given("none") is None and answer.seconds_given("2.5") == 2.5


CASES = [("monte-carlo", "12345", None), ("monte-carlo", "6", "weddings"), ("monte-carlo", "3", "thirteens"), ("matrimony", "2", "arnold")]


@pytest.mark.parametrize("game, number, rules", CASES)
def test_the_workers_answer_is_solves_json(game: str, number: str, rules: str | None) -> None:
    args = ["solve", game, number, "--json"] + (["--rules", rules] if rules else [])
    printed = json.loads(run(*args).stdout)
    found = answer.solved(game, number, rules)
    given = dict(found["answer"])
    assert given.pop("seconds") >= 0 and printed.pop("seconds") >= 0
    assert given == printed
    assert found["verdict"] == printed["verdict"] and found["summary"].startswith(printed["verdict"])
    assert 'id="data"' in found["page"]


def test_pysolfcs_name_of_a_game_is_that_rule_set() -> None:
    assert answer.solved("weddings", "6")["answer"]["rules"] == "weddings"
    assert "PySolFC's Weddings" in answer.solved("weddings", "6", "pysol")["error"]


@pytest.mark.parametrize(
    "game, number, rules, words",
    [
        ("chess", "1", None, "unknown game 'chess'"),
        ("matrimony", "0", None, "bad game number '0'"),
        ("matrimony", "abc", None, "bad game number 'abc'"),
        ("matrimony", "", None, "give a game number"),
        ("monte-carlo", "1", "arnold", "arnold is a rule set of matrimony"),
    ],
)
def test_bad_input_is_one_sentence(game: str, number: str, rules: str | None, words: str) -> None:
    said = answer.solved(game, number, rules)["error"]
    assert said.startswith(words) and said.endswith(".") and "\n" not in said


def test_a_hint_from_a_moves_file_and_from_a_position(tmp_path: Path) -> None:
    line = run("solve", "monte-carlo", "12345").stdout.splitlines()
    moves = "\n".join(line[:12])  # the header and the first ten moves
    found = answer.hinted("monte-carlo", "12345", moves=moves)
    assert found["verdict"] == "won" and found["heading"].endswith("after 10 moves")
    assert found["lines"][0].startswith("next: ") and any("keeps the win" in x for x in found["lines"])
    hint = json.loads(run("hint", "monte-carlo", "12345", "--after", _file(tmp_path, moves), "--json").stdout)
    given = dict(found["answer"])
    given.pop("seconds"), hint.pop("seconds")
    assert given == hint
    seen = run("deal", "monte-carlo", "12345", "--after", _file(tmp_path, moves), "--position-out").stdout
    typed = answer.hinted("monte-carlo", "12345", seen=seen)
    assert typed["verdict"] == "won" and typed["lines"] == found["lines"]
    garbage = answer.hinted("monte-carlo", "12345", moves="this is no moves file")
    assert garbage["error"].startswith("line 1: not a Monte Carlo move") and garbage["error"].endswith(".")
    assert answer.hinted("monte-carlo", "12345")["error"].startswith("paste a moves file")


def _file(folder: Path, text: str) -> Path:
    path = folder / "moves.txt"
    path.write_text(text)
    return path


def test_wedlock_web_writes_the_site(tmp_path: Path, files: dict[str, bytes]) -> None:
    folder = tmp_path / "site"
    result = run("web", folder)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == f"{folder}: {len(files)} files, 12 MB"
    assert "python3 -m http.server -d" in result.stdout
    written = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert written == files
    again = json.loads(run("web", folder, "--json").stdout)  # again, over its own files
    assert again == {"folder": str(folder), "bytes": site_size(files), "files": {n: len(d) for n, d in files.items()}}


def test_wedlock_web_refuses_a_folder_it_cannot_make(tmp_path: Path) -> None:
    assert_bad_input(run("web", tmp_path / "no" / "site"), "there is no folder")
    (tmp_path / "file").write_text("")
    assert run("web", tmp_path / "file").exit_code == 2

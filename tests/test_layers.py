"""The layers of docs/DESIGN.md, kept by import-linter's contracts (pyproject.toml): the
package is laid out as it installs (solver/ as wedlock, cli/ as wedlock.cli) in a
temporary folder, so that the check reads this source tree whatever is installed, and an
import planted there shows that each contract fails when it should."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
LINT = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The package as it installs: wedlock/ (solver/) with wedlock/cli/ (cli/)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "_core", "pyodide")  # no Python in the page's Pyodide
    shutil.copytree(ROOT / "solver", tmp_path / "wedlock", ignore=ignore)
    shutil.copytree(ROOT / "cli", tmp_path / "wedlock" / "cli", ignore=ignore)
    return tmp_path


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([LINT, "--no-cache", "--config", str(ROOT / "pyproject.toml")], env=env, capture_output=True, text=True, timeout=120)


def plant(tree: Path, module: str, line: str) -> None:
    path = tree / (module.replace(".", "/") + ".py")
    path.write_text(path.read_text() + f"\n{line}\n")


def test_every_contract_is_kept(tree: Path) -> None:
    result = lint(tree)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    "module, line, broken",
    [
        ("wedlock.basics.cards", "from ..pipeline import solving", "The layers"),
        ("wedlock.search.beam", "def later():\n    from ..games import registry", "The layers"),  # lazily, too
        ("wedlock.games.montecarlo.play", "from ..matrimony import rules", "The games"),
        ("wedlock.games.protocol", "from . import registry", "The games"),
        ("wedlock.results.stats", "import wedlock.pysolfc.saves", "PySolFC's formats"),
        ("wedlock.pipeline.solving", "from ..luck import analysis", "The layers"),
    ],
)
def test_an_import_up_a_layer_breaks_a_contract(tree: Path, module: str, line: str, broken: str) -> None:
    plant(tree, module, line)
    result = lint(tree)
    assert result.returncode == 1
    assert f"{broken}" in result.stdout and "BROKEN" in result.stdout


def test_nothing_imports_the_face(tree: Path) -> None:
    """The package's __init__ is the API: the layers import from their own folders, never
    from it (the version lives in basics)."""
    script = "import grimp\nprint(sorted(grimp.build_graph('wedlock', cache_dir=None).find_modules_that_directly_import('wedlock')))"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    found = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120, check=True)
    assert found.stdout == "[]\n"
    plant(tree, "wedlock.results.records", "from .. import __version__")
    found = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120, check=True)
    assert found.stdout == "['wedlock.results.records']\n"


def test_at_most_ten_modules_sit_at_the_top() -> None:
    top = sorted(p.stem for p in (ROOT / "solver").glob("*.py") if p.stem not in ("__init__", "__main__"))
    assert len(top) <= 10, top
    layers = {p.name for p in (ROOT / "solver").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert layers == {"basics", "search", "games", "pipeline", "playing", "luck", "results", "pictures", "pysolfc", "web"}

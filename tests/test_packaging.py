"""What `pip install .` puts in place: one import package, `wedlock`, and no heavy extras."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def installed() -> metadata.Distribution:
    """wedlock as pip installed it (not the build's metadata left in the checkout)."""
    (dist,) = metadata.Distribution.discover(name="wedlock", path=[p for p in sys.path if "-packages" in p])
    return dist


def test_the_distribution_installs_one_top_level_package() -> None:
    dist = installed()
    assert (dist.read_text("top_level.txt") or "").split() == ["wedlock"]
    if json.loads(dist.read_text("direct_url.json") or "{}").get("dir_info", {}).get("editable"):
        pytest.skip("an editable install points at the folders; CI installs the package itself")
    files = [str(f) for f in dist.files or []]
    ours = [f for f in files if not f.startswith(("wedlock-", "__editable__", "../")) and f.endswith(".py")]
    assert ours and all(f.startswith("wedlock/") for f in ours), ours[:5]


def test_dask_and_matplotlib_are_extras_not_everyones_install() -> None:
    required = installed().requires or []
    plain = [r for r in required if "extra ==" not in r]
    assert not any(r.startswith(("distributed", "dask", "matplotlib")) for r in plain), plain
    assert any(r.startswith("distributed") and 'extra == "dask"' in r for r in required)


def test_pyproject_maps_the_folders_onto_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["tool"]["setuptools"]["package-dir"] == {"wedlock": "solver", "wedlock.cli": "cli"}
    data = project["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["wedlock"] and "*.bits" in data["wedlock.results.published"]
    assert project["project"]["scripts"] == {"wedlock": "wedlock.cli:run"}


def test_the_installed_version_is_the_package_version() -> None:
    import wedlock

    assert metadata.version("wedlock") == wedlock.__version__


def test_the_suite_refuses_an_installed_wedlock_that_is_not_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import wedlock
    import wedlock.cli
    from tests.conftest import stale_files

    copy = tmp_path / "wedlock"
    for folder, inside in ((ROOT / "solver", copy), (ROOT / "cli", copy / "cli")):
        for source in folder.rglob("*.py"):
            target = inside / source.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    monkeypatch.setattr(wedlock, "__file__", str(copy / "__init__.py"))
    monkeypatch.setattr(wedlock.cli, "__file__", str(copy / "cli" / "__init__.py"))
    assert stale_files() == []  # an install of this very checkout
    (copy / "search" / "exhaustive.py").write_text("# an older solver\n")
    (copy / "cli" / "solve_cmd.py").unlink()
    (copy / "_core.cpython-test.so").write_bytes(b"")
    old = (ROOT / "solver" / "_core" / "search.c").stat().st_mtime - 10
    os.utime(copy / "_core.cpython-test.so", (old, old))
    assert stale_files() == ["solver/search/exhaustive.py", "cli/solve_cmd.py", "the compiled core (_core.cpython-test.so, older than solver/_core/)"]

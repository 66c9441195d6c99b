"""What `pip install .` puts in place: one import package, `wedlock`, and no heavy extras."""

from __future__ import annotations

import json
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

"""Settings for the whole suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

import wedlock
import wedlock.cli
from tests.tiers import QUICK_VARIABLE, examples

CHECKOUT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """`-m "not slow"` is the quick tier: fewer examples for the large property tests, and a
    quarter of hypothesis's default for the others (set before the test modules are
    imported, in each test process). The suite tests the checkout: it stops at once when
    the wedlock it imports differs from it."""
    if "".join(str(config.getoption("markexpr", "")).split()) == "notslow":
        os.environ[QUICK_VARIABLE] = "1"
        settings.register_profile("quick", max_examples=examples(settings.default.max_examples))
        settings.load_profile("quick")  # property tests that name no count of their own
    stale = stale_files()
    if stale:
        shown = ", ".join(stale[:5]) + (f" and {len(stale) - 5} more" if len(stale) > 5 else "")
        raise pytest.UsageError(
            f"the wedlock these tests import ({Path(wedlock.__file__).parent}) is not this checkout: {shown} differ. "
            "Install the checkout editable, pip install -e '.[test]' --config-settings editable_mode=strict (again after adding a file), "
            "or again, pip install '.[test]'."
        )


def stale_files() -> list[str]:
    """The checkout's sources (solver/ and cli/) that the imported wedlock holds otherwise,
    or not at all; and the compiled core, when one of its C sources is newer than it."""
    installed = Path(wedlock.__file__).resolve().parent
    commands = Path(wedlock.cli.__file__).resolve().parent  # solver/ and cli/ are one package installed
    out = []
    for folder, inside in ((CHECKOUT / "solver", installed), (CHECKOUT / "cli", commands)):
        for source in sorted(folder.rglob("*.py")):
            copy = inside / source.relative_to(folder)
            if not copy.is_file() or copy.read_bytes() != source.read_bytes():
                out.append(str(source.relative_to(CHECKOUT)))
    built = list(installed.glob("_core*.so")) + list(installed.glob("_core*.pyd"))
    if built and (CHECKOUT / "solver" / "_core").is_dir():
        newest = max(p.stat().st_mtime for p in (CHECKOUT / "solver" / "_core").iterdir())
        if newest > min(p.stat().st_mtime for p in built):
            out.append(f"the compiled core ({built[0].name}, older than solver/_core/)")
    return out

"""Settings for the whole suite."""

from __future__ import annotations

import os

import pytest

from tests.tiers import QUICK_VARIABLE


def pytest_configure(config: pytest.Config) -> None:
    """`-m "not slow"` is the quick tier: fewer examples for the large property tests (set
    before the test modules are imported, in each test process)."""
    if "".join(str(config.getoption("markexpr", "")).split()) == "notslow":
        os.environ[QUICK_VARIABLE] = "1"

"""The real browser the page tests drive: Debian's chromium, by playwright.

Where no browser is installed the tests that need one are skipped, saying why; under CI
(CI=true) a missing browser fails them instead."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("WEDLOCK_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]


def launched() -> Iterator[Any]:
    """A chromium to open pages in, closed after (a fixture yields from this)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "the playwright package is not installed (pip install '.[test]')"
    else:
        missing = "" if CHROMIUM else "no chromium on this machine (apt-get install chromium)"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs the browser tests: {missing}")
        pytest.skip(missing)
    with sync_playwright() as p:
        found = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield found
        found.close()

"""The checks against PySolFC's own engine run only where a PySolFC source tree is given;
elsewhere each is skipped, saying why (engine.py)."""

from __future__ import annotations

from typing import Any

import engine
import pytest


@pytest.fixture(scope="session")
def pysolfc() -> Any:
    """PySolFC's engine (see engine.py), or a skip saying why it cannot run here."""
    why = engine.why_not()
    if why is not None:
        pytest.skip(why)
    engine.load()
    return engine

"""The two tiers of the suite: `pytest` runs everything; `pytest -m "not slow"` (the quick
tier) leaves out the tests marked slow and runs a quarter of the examples of each large
property test (at least 25), which still draw fresh examples at every run."""

from __future__ import annotations

import os

QUICK_VARIABLE = "WEDLOCK_QUICK_TIER"  # set by conftest.py when the quick tier runs


def examples(count: int) -> int:
    """A property test's examples: `count`, or in the quick tier a quarter of it (at least 25)."""
    if os.environ.get(QUICK_VARIABLE):
        return min(count, max(25, count // 4))
    return count

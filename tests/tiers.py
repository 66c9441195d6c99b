"""The two tiers of the suite: `pytest` runs everything; `pytest -m "not slow"` (the quick
tier) leaves out the tests marked slow and runs a quarter of the examples of each large
property test (at least 25), which still draw fresh examples at every run."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest

QUICK_VARIABLE = "WEDLOCK_QUICK_TIER"  # set by conftest.py when the quick tier runs


def examples(count: int) -> int:
    """A property test's examples: `count`, or in the quick tier a quarter of it (at least 25)."""
    if os.environ.get(QUICK_VARIABLE):
        return min(count, max(25, count // 4))
    return count


def first_quick(cases: Sequence[Any], keep: int = 1, *, spread: bool = True) -> list[Any]:
    """A parametrized test's cases: the first `keep` run in both tiers, the others only in
    the full suite (marked slow). A case is a tuple of the test's arguments (with `spread`;
    without, a tuple is the one argument), or one argument."""
    out = []
    for i, case in enumerate(cases):
        if i < keep:
            out.append(case)
        elif spread and isinstance(case, tuple):
            out.append(pytest.param(*case, marks=pytest.mark.slow))
        else:
            out.append(pytest.param(case, marks=pytest.mark.slow))
    return out

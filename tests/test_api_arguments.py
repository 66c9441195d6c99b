"""Every public function of the API, given any value for any of its arguments, answers or
raises a `WedlockError` naming the problem: never another exception (a TypeError deep in
the solver, an OverflowError from the core, a UnicodeEncodeError from a seed).

The values mix what a caller might plausibly pass with what no one should: NaN and
infinities, integers past 64 bits, strings with NUL or lone surrogates, paths that cannot
exist, containers of junk. Limits that would make a search long are kept small, since the
point here is the arguments, not the search.
"""

from __future__ import annotations

import inspect
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wedlock

ODD_TEXT = ["", " ", "\x00", "a\x00b", "\ud800", "\udfff x", "12\ud800", "ms\x00", "9" * 5000, "é", "♠", "\n", "-1", "0"]
ODD_NUMBERS = [0, -1, 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63), 10**30, float("nan"), float("inf"), -float("inf"), -0.0, 1e308, 0.5]

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from(ODD_NUMBERS)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(ODD_TEXT)
    | st.text(max_size=12)
    | st.binary(max_size=8)
    | st.just(object())
    | st.sampled_from([Path("a\x00b"), Path("/nonexistent/x"), Path("/"), Path(".")]),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=5,
)


def no_long_searches(value: Any) -> bool:
    """Whether a limit value keeps a search short (or is not a limit at all)."""
    if value is None:
        return False
    return not (isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0.2)


short_limit = st.sampled_from([0, 0.01, 0.1]) | junk.filter(no_long_searches)
games = st.sampled_from(["monte-carlo", "matrimony", "Monte Carlo", "MATRIMONY", "weddings", "chess"]) | junk
rules = st.sampled_from([None, "pysol", "strict", "weddings", "2decks", "thirteens", "5x4", "arnold", "Weddings (PySolFC)", "no"]) | junk
sources = (
    st.integers(1, 10**6)
    | st.sampled_from(["12345", "ms7", "#1,234", "QD TS", "monte-carlo", ["QD", "TS"], list("AH 2H 3H".split())])
    | junk
)
move_lists = st.lists(st.sampled_from(["A1 QC + B1 QH", "consolidate", "deal", "pile 3: JC to F1", "B2 4S + B3 4D", "X"]) | junk, max_size=4)

STRATEGIES: dict[str, st.SearchStrategy] = {
    "game": games,
    "source": sources,
    "rules": rules,
    "time_limit": short_limit,
    "sample_seconds": short_limit,
    "patience": short_limit,
    "node_limit": st.sampled_from([1, 10, 1000, 2**63 - 1]) | junk,
    "max_states": st.sampled_from([1, 10, 1000, "auto", 2**63 - 1]) | junk,
    "max_memory": st.sampled_from([2**30, "auto", 1]) | junk,
    "playouts": st.sampled_from([0, 1, 10, 10**12]) | junk,
    "samples": st.sampled_from([1, 2, 10**12]) | junk,
    "player": st.sampled_from(["random", "greedy", "perfect", "no-peek", "lucky"]) | junk,
    "seed": junk,
    "after": move_lists | junk,
    "moves": move_lists | st.sampled_from(["A1 QC + B1 QH\n", "1. consolidate", '{"moves": []}']) | junk,
    "text": junk,
    "path": st.sampled_from(["/nonexistent", "/", "a\x00b", "\ud800"]) | junk,
    "number": st.integers(-5, 10**7) | junk,
    "progress": st.sampled_from([None, print, lambda *told: None]) | junk,
    "count": st.sampled_from([1, 3, 2**63]) | junk,
    "lost": junk,
    "random": junk,
    "start": st.integers(-5, 10**6) | junk,
    "stop": st.integers(-5, 10**6) | junk,
    "skipped": st.sampled_from([None, []]) | junk,
}

FUNCTIONS = [name for name in wedlock.__all__ if inspect.isfunction(getattr(wedlock, name))]


def test_every_argument_of_every_public_function_has_a_strategy() -> None:
    for name in FUNCTIONS:
        for param in inspect.signature(getattr(wedlock, name)).parameters:
            assert param in STRATEGIES, (name, param)


def call(function: Any, arguments: dict[str, Any]) -> None:
    """Call `function` with `arguments` (its own parameter names); anything but an answer
    or a WedlockError fails the test."""
    try:
        answer = function(**arguments)
        if inspect.isgenerator(answer) or hasattr(answer, "__next__"):
            list(itertools.islice(answer, 3))
    except wedlock.WedlockError as err:
        message = str(err)
        assert message.strip() and "\n" not in message.strip(), repr(message)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_any_value_of_any_argument_gives_an_answer_or_a_wedlock_error(name: str) -> None:
    function = getattr(wedlock, name)
    parameters = inspect.signature(function).parameters
    required = [p for p, info in parameters.items() if info.default is inspect.Parameter.empty]
    optional = [p for p, info in parameters.items() if info.default is not inspect.Parameter.empty]
    limits = [p for p in ("time_limit", "sample_seconds", "patience") if p in parameters]

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        arguments = {p: data.draw(STRATEGIES[p], label=p) for p in required}
        for p in optional:
            if p in limits or data.draw(st.booleans(), label=f"give {p}"):
                arguments[p] = data.draw(STRATEGIES[p], label=p)
        call(function, arguments)

    check()

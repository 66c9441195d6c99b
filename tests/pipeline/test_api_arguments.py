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
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wedlock
from tests.tiers import examples

ODD_TEXT = ["", " ", "\x00", "a\x00b", "\ud800", "\udfff x", "12\ud800", "ms\x00", "9" * 5000, "é", "♠", "\n", "-1", "0"]
ODD_NUMBERS = [0, -1, 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63), 10**30, float("nan"), float("inf"), -float("inf"), -0.0, 1e308, 0.5]

odd_values = st.sampled_from(ODD_TEXT + ODD_NUMBERS)
junk = odd_values | odd_values | st.recursive(
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

SAVES = sorted((Path(__file__).parent.parent / "data" / "pysolfc").glob("monte-carlo-*.pso"))  # games PySolFC saved

# For each argument: values a caller would pass (quick to answer), and the same mixed with junk.
VALID: dict[str, st.SearchStrategy] = {
    "game": st.sampled_from(["monte-carlo", "Monte Carlo", "matrimony"]),
    "source": st.integers(1, 10**6) | st.sampled_from(["12345", "ms7", "#1,234"]),
    "rules": st.sampled_from([None, "pysol", "strict", "weddings", "2decks", "thirteens", "5x4", "arnold", "Weddings (PySolFC)"]),
    "time_limit": st.sampled_from([0, 0.01, 0.1]),
    "sample_seconds": st.sampled_from([0, 0.01]),
    "patience": st.sampled_from([0, 0.1]),
    "node_limit": st.sampled_from([None, 1, 10, 1000, 2**63 - 1]),
    "max_states": st.sampled_from([1, 10, 1000, 2**63 - 1]),
    "max_memory": st.sampled_from([2**30, "auto", None, 1]),
    "playouts": st.sampled_from([0, 1, 10, 10**12]),
    "samples": st.sampled_from([1, 2]),
    "player": st.sampled_from(["random", "greedy", "perfect", "no-peek"]),
    "seed": st.integers(-(2**70), 2**70) | st.text(max_size=6),
    "after": st.sampled_from([None, [], ["A1 QC + B1 QH"], ["deal"], "consolidate\n"]),
    "moves": st.sampled_from([[], ["A1 QC + B1 QH"], "A1 QC + B1 QH\n", "1. consolidate", '{"moves": []}', ["deal"]]),
    "text": st.sampled_from([None, "stock (27)", "A QC TS QD 7H 6C"]),
    "path": st.sampled_from(["/nonexistent", "/", "/dev/null"]),
    "number": st.integers(1, 10**7) | st.sampled_from(["12345", "ms7"]),
    "progress": st.sampled_from([None, lambda *told: None]),
    "checkpoint": st.sampled_from([None, None, Path(tempfile.gettempdir()) / "wedlock-test-api-arguments.levels"]),
    "checkpoint_every": st.sampled_from([600, 60.5]),  # never 0: no search here lasts to its first checkpoint
    "solving": st.sampled_from([None, lambda *told: None]),
    "count": st.sampled_from([1, 3, 2**63 - 1]),
    "lost": st.booleans(),
    "random": st.booleans(),
    "start": st.integers(1, 10**6),
    "stop": st.none() | st.integers(1, 10**6),
    "skipped": st.sampled_from([None, []]),
    "pysolfc_save": st.sampled_from([None, *SAVES, *map(str, SAVES), SAVES[0].read_bytes()]),
}
ANY: dict[str, st.SearchStrategy] = {
    name: valid | (short_limit if name in ("time_limit", "sample_seconds", "patience") else junk) for name, valid in VALID.items()
}
for name in ("source", "after", "moves"):  # cards and moves in their other forms
    ANY[name] = ANY[name] | st.lists(st.sampled_from(["QD", "TS", "A1 QC + B1 QH", "consolidate", "pile 3: JC to F1", "X"]) | junk, max_size=4)

FUNCTIONS = [name for name in wedlock.__all__ if inspect.isfunction(getattr(wedlock, name))]


def test_every_argument_of_every_public_function_has_a_strategy() -> None:
    for name in FUNCTIONS:
        for param in inspect.signature(getattr(wedlock, name)).parameters:
            assert param in VALID, (name, param)


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


def check_calls(name: str, odd: str | None, examples: int) -> None:
    """Call function `name` with `odd` given any value (or, with None, every argument any
    value) and the other arguments as a caller would give them."""
    function = getattr(wedlock, name)
    parameters = inspect.signature(function).parameters
    required = [p for p, info in parameters.items() if info.default is inspect.Parameter.empty]
    limits = [p for p in ("time_limit", "sample_seconds", "patience") if p in parameters]

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        arguments = {}
        for p in parameters:
            if p in required or p in limits or p == odd or data.draw(st.booleans(), label=f"give {p}"):
                if odd is None:
                    strategy = ANY[p]
                elif p != odd:
                    strategy = VALID[p]
                else:
                    strategy = short_limit if p in limits else odd_values | junk
                arguments[p] = data.draw(strategy, label=p)
        call(function, arguments)

    check()


ONE_ODD = [(name, p) for name in FUNCTIONS for p in inspect.signature(getattr(wedlock, name)).parameters]

# What a caller would give, for the deterministic sweep below: a quick Monte Carlo deal
# and a quick Matrimony one.
PLAIN = [
    {"game": "monte-carlo", "source": 12345, "rules": None, "time_limit": 0.02, "sample_seconds": 0.01, "patience": 0.02,
     "player": "random", "moves": ["A1 QC + B1 QH"], "after": ["A1 QC + B1 QH"], "path": "/nonexistent", "number": 12345,
     "text": None, "count": 2, "seed": 1},
    {"game": "matrimony", "source": 2, "rules": "arnold", "time_limit": 0.02, "sample_seconds": 0.01, "patience": 0.02,
     "player": "no-peek", "moves": ["deal"], "after": ["deal"], "path": "/", "number": 2, "text": None, "count": 2, "seed": "s"},
]  # fmt: skip
ODD_CONTAINERS = [[], [None], ["\ud800"], {"move": "\ud800"}, (1,), [float("nan")], {"": None}, b"\x00", object()]


@pytest.mark.parametrize(("name", "odd"), ONE_ODD, ids=[f"{n}-{p}" for n, p in ONE_ODD])
def test_every_odd_value_of_each_argument_gives_an_answer_or_a_wedlock_error(name: str, odd: str) -> None:
    function = getattr(wedlock, name)
    parameters = inspect.signature(function).parameters
    for plain in PLAIN:
        given = {p: plain[p] for p in parameters if p in plain}
        for value in [*ODD_TEXT, *ODD_NUMBERS, *ODD_CONTAINERS, None, True]:
            if odd in ("time_limit", "sample_seconds", "patience") and not no_long_searches(value):
                continue
            call(function, {**given, odd: value})


@pytest.mark.slow  # the quick tier keeps the sweep of odd values above and the fuzz of all arguments below
@pytest.mark.parametrize(("name", "odd"), ONE_ODD, ids=[f"{n}-{p}" for n, p in ONE_ODD])
def test_any_value_of_one_argument_gives_an_answer_or_a_wedlock_error(name: str, odd: str) -> None:
    check_calls(name, odd, 60)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_any_values_of_all_arguments_give_an_answer_or_a_wedlock_error(name: str) -> None:
    check_calls(name, None, examples(150))

"""The compiled search core against the pure-Python search it twins.

Wherever the core runs, it must answer as search/exhaustive.py does over the Python space: the same
verdict, the same winning steps, the same counts of states and nodes, the same limit
reached. Compared here on whole deals and on random positions of every rule set the core
holds, under limits that end the search in each of its ways, and against the published
verdict tables.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.positions import late_position
from tests.tiers import examples
from wedlock.basics import compiled as core
from wedlock.basics.deals import numbered_deal
from wedlock.basics.numbering import GameNumber
from wedlock.games.matrimony import GAME as MATRIMONY
from wedlock.games.matrimony.arnold_space import ArnoldSpace
from wedlock.games.matrimony.play import Table as MatrimonyTable
from wedlock.games.matrimony.rules import RULE_SETS as MATRIMONY_RULES
from wedlock.games.montecarlo.play import Table
from wedlock.games.montecarlo.rules import RULE_SETS, SLIDE
from wedlock.games.montecarlo.spaces import ColumnSpace, SequenceSpace
from wedlock.results.tables import lookup
from wedlock.search.exhaustive import Limits, Outcome, solve

MONTE_CARLO = sorted(RULE_SETS)  # the core holds every Monte Carlo rule set's space
WHOLE_DEALS = {"weddings": 40}
needs_core = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")


@pytest.fixture(autouse=True)
def core_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare both paths, so the core runs even where WEDLOCK_PURE is set."""
    monkeypatch.delenv(core.PURE_VARIABLE, raising=False)


def test_the_core_is_built_where_a_c_compiler_is() -> None:
    compiler = os.environ.get("CC", "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip("no C compiler here: the pure path is the one to test")
    assert core._core is not None, "pip install found a compiler but did not build wedlock._core"


def test_pure_python_is_forced_by_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    space = SequenceSpace(Table(RULE_SETS["pysol"], tuple(numbered_deal(GameNumber.parse("1"), 1))))
    monkeypatch.setenv(core.PURE_VARIABLE, "1")
    assert core.compiled_core() is None and space.native() is None
    assert "WEDLOCK_PURE is set" in core.description() or "no compiled core" in core.description()
    monkeypatch.setenv(core.PURE_VARIABLE, "0")
    assert core.compiled_core() is core._core


def mc_space(table: Table, pos=None) -> SequenceSpace | ColumnSpace:
    """The space the solver uses for a Monte Carlo rule set (the columns of Weddings)."""
    return SequenceSpace(table, pos) if table.rules.consolidation == SLIDE else ColumnSpace(table, pos)


def both(space: SequenceSpace | ColumnSpace | ArnoldSpace, limits: Limits) -> tuple[Outcome, Outcome]:
    """The pure search and the compiled one, on one space."""
    assert space.native() is not None, "the compiled core does not take this space"
    return solve(space, limits, compiled=False), solve(space, limits)


def assert_same(pure: Outcome, native: Outcome, what: object) -> None:
    assert (native.verdict, native.states, native.nodes, native.limit, native.reason) == (
        pure.verdict, pure.states, pure.nodes, pure.limit, pure.reason,
    ), what
    assert native.steps == pure.steps, what


@needs_core
@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**64 - 1), n=st.integers(0, 70))
def test_the_cores_shuffle_is_pythons(seed: int, n: int) -> None:
    expected = list(range(n))
    random.Random(seed).shuffle(expected)
    assert core._core.shuffled(seed, n) == expected


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("name", MONTE_CARLO)
def test_same_answers_on_whole_deals_and_random_lines(name: str) -> None:
    """200 numbered deals (Weddings, slow in pure Python: 40) and 200 positions along random
    lines, for each rule set."""
    rules = RULE_SETS[name]
    rng = random.Random(name)
    for _ in range(WHOLE_DEALS.get(name, 200)):
        number = rng.randrange(1, 10**9)
        table = Table(rules, tuple(numbered_deal(GameNumber.parse(str(number)), rules.decks)))
        assert_same(*both(mc_space(table), Limits()), (name, number))
    for seed in range(200):
        table, pos, _ = late_position(rules, seed, rng.randrange(8, rules.cards))
        assert_same(*both(mc_space(table, pos), Limits()), (name, seed))


LIMITS = st.one_of(
    st.builds(Limits, first_pass=st.sampled_from([1, 2, 5, 64, None])),
    st.builds(Limits, node_limit=st.integers(1, 300)),
    st.builds(Limits, max_states=st.integers(1, 300)),
    st.builds(Limits, max_states=st.integers(1, 300), first_pass=st.sampled_from([1, 3, None])),
)


@pytest.mark.slow
@needs_core
@settings(max_examples=examples(300), deadline=None)
@given(name=st.sampled_from(MONTE_CARLO), seed=st.integers(0, 10**6), left=st.integers(4, 104), limits=LIMITS)
def test_same_answers_under_every_limit(name: str, seed: int, left: int, limits: Limits) -> None:
    """Cut short by nodes or states, restarted early and often, or one plain pass."""
    table, pos, _ = late_position(RULE_SETS[name], seed, left)
    assert_same(*both(mc_space(table, pos), limits), (name, seed, left, limits))


@needs_core
def test_a_time_limit_ends_the_compiled_search_as_unknown() -> None:
    rules = RULE_SETS["2decks"]
    for number in range(1, 100):  # a deal whose search reaches the first clock check (64 nodes)
        table = Table(rules, tuple(numbered_deal(GameNumber.parse(str(number)), 2)))
        if solve(SequenceSpace(table), Limits(first_pass=None), compiled=False).nodes > 64:
            break
    out = solve(SequenceSpace(table), Limits(time_limit=0.0, first_pass=None))
    assert out.verdict == "unknown" and out.limit == "time_limit" and out.reason == "time limit 0s reached"


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("name", MONTE_CARLO)
def test_the_published_verdicts_for_a_sample_of_each_table(name: str) -> None:
    """The shipped one-bit tables hold the verdicts of data/; the core must agree with them."""
    rules = RULE_SETS[name]
    rng = random.Random(f"{name} tables")
    checked = 0
    for number in rng.sample(range(1, 10_001), 150):
        published = lookup("monte-carlo", number, rules=name)
        if published is None:
            continue
        table = Table(rules, tuple(numbered_deal(GameNumber.parse(str(number)), rules.decks)))
        out = solve(mc_space(table), Limits())
        assert out.verdict == published, (name, number)
        checked += 1
    assert checked >= 100, f"{name}: only {checked} numbers in the published table"


ARNOLD = MATRIMONY_RULES["arnold"]


def arnold_position(number: int, seed: int | None = None) -> ArnoldSpace:
    """Matrimony deal `number` under Arnold's rules, from its start or (given a seed) from a
    phase start along a random line."""
    table = MatrimonyTable(ARNOLD, tuple(MATRIMONY.numbered_deal(ARNOLD, str(number))))
    space = ArnoldSpace(table)
    if seed is None:
        return space
    rng = random.Random(seed)
    state = space.start()
    for _ in range(rng.randrange(1, 25)):
        ahead = list(space.successors(state))
        if not ahead:
            break
        state = rng.choice(ahead)[1]
    return ArnoldSpace(table, state)


@pytest.mark.slow
@needs_core
def test_same_answers_on_arnolds_matrimony() -> None:
    """300 numbered deals from their start and 300 positions along random lines."""
    rng = random.Random("arnold")
    for _ in range(300):
        number = rng.randrange(1, 10**9)
        assert_same(*both(arnold_position(number), Limits()), number)
        assert_same(*both(arnold_position(number, rng.randrange(1, 10**6)), Limits()), number)


@pytest.mark.slow
@needs_core
@settings(max_examples=examples(150), deadline=None)
@given(number=st.integers(1, 10**9), seed=st.integers(1, 10**6), limits=LIMITS)
def test_same_answers_on_arnolds_matrimony_under_every_limit(number: int, seed: int, limits: Limits) -> None:
    assert_same(*both(arnold_position(number, seed), limits), (number, seed, limits))


@pytest.mark.slow
@needs_core
def test_arnolds_published_verdicts_for_a_sample() -> None:
    rng = random.Random("arnold tables")
    for number in rng.sample(range(1, 100_001), 300):
        published = lookup("matrimony", number, rules="arnold")
        assert published is not None, number
        out = solve(arnold_position(number), Limits())
        assert out.verdict == published, number


def long_search() -> SequenceSpace:
    """A deal whose one-pass compiled search takes a few tenths of a second (2 decks, game 22:
    about 230,000 states)."""
    rules = RULE_SETS["2decks"]
    return SequenceSpace(Table(rules, tuple(numbered_deal(GameNumber.parse("22"), 2))))


ONE_PASS = Limits(first_pass=None, max_states=None)


@needs_core
def test_ctrl_c_stops_the_compiled_search_and_the_next_search_is_whole() -> None:
    space = long_search()

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.01)
        with pytest.raises(KeyboardInterrupt):
            solve(space, ONE_PASS)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    again, whole = solve(space, ONE_PASS), solve(space, ONE_PASS)  # the second never interrupted
    assert (again.verdict, again.states, again.nodes) == (whole.verdict, whole.states, whole.nodes)


@needs_core
def test_the_compiled_search_lets_other_threads_run() -> None:
    """With a switch interval far longer than the test, the main thread can wake from its
    short waits only when the searching thread lets go of the GIL, which the core does
    while it searches (taking it back for a moment every 64 states)."""
    space = long_search()
    done = threading.Event()
    found: list = []

    def search() -> None:
        found.append(solve(space, ONE_PASS))
        done.set()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        worker = threading.Thread(target=search)
        worker.start()
        turns = 0
        while not done.wait(0.001):
            turns += 1
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert found[0].verdict == "won" and turns >= 10, turns


# --- what the core refuses --------------------------------------------------------------

LIMIT_ARGS = {"node_limit": 2000, "time_limit": 1.0, "max_states": 2000, "first_pass": 64}


def refused_or_answered(call) -> None:
    """A call into the core either refuses its input with ValueError or answers; it never
    crashes the process (which would fail the test run)."""
    try:
        verdict, steps, states, nodes, limit = call()
    except ValueError:
        return
    assert verdict in ("won", "lost", "unknown") and isinstance(steps, list) and states >= 0 and nodes >= 0


@needs_core
@settings(max_examples=examples(300), deadline=None)
@given(ranks=st.binary(max_size=120), rows=st.integers(-1, 9), cols=st.integers(-1, 9), flags=st.tuples(st.booleans(), st.booleans()))
def test_the_core_refuses_what_no_sliding_deal_looks_like(ranks: bytes, rows: int, cols: int, flags: tuple[bool, bool]) -> None:
    refused_or_answered(lambda: core._core.search_slide(ranks, rows, cols, *flags, **LIMIT_ARGS))


@needs_core
@settings(max_examples=examples(300), deadline=None)
@given(state=st.binary(max_size=40), deal=st.binary(min_size=1, max_size=60), rows=st.integers(0, 9), cols=st.integers(0, 9))
def test_the_core_refuses_what_no_weddings_position_looks_like(state: bytes, deal: bytes, rows: int, cols: int) -> None:
    refused_or_answered(lambda: core._core.search_columns(state, deal, rows, cols, False, **LIMIT_ARGS))


@needs_core
@settings(max_examples=examples(200), deadline=None)
@given(number=st.integers(1, 10**6), data=st.data())
def test_the_core_refuses_what_no_arnold_position_looks_like(number: int, data: st.DataObject) -> None:
    """Arguments of a real deal and position, with one of them replaced by junk."""
    space = arnold_position(number)
    call = space.native()
    assert call is not None
    args = list(call.args)
    k = data.draw(st.sampled_from([0, 1, 2, 3, 4, 5]))
    args[k] = data.draw(st.binary(max_size=140) if k < 4 else st.integers(-3, 10))
    refused_or_answered(lambda: call.func(*args, **LIMIT_ARGS))


def lost_spaces(count: int, least: int) -> list[tuple[object, int]]:
    """Spaces of known size: `count` lost positions (Monte Carlo, each rule set, and Arnold's
    Matrimony) whose exhaustive search holds at least `least` states, with that number."""
    found: list[tuple[object, int]] = []
    rng = random.Random("known sizes")
    makers = [lambda seed, name=name: mc_space(*late_position(RULE_SETS[name], seed, rng.randrange(12, 40))[:2]) for name in MONTE_CARLO]
    makers.append(lambda seed: arnold_position(rng.randrange(1, 10**6), seed))
    for make in makers:
        kept = 0
        for seed in range(400):
            space = make(seed)
            whole = solve(space, Limits(max_states=None), compiled=False)
            if whole.verdict == "lost" and whole.states >= least:
                found.append((space, whole.states))
                kept += 1
                if kept == count:
                    break
    return found


@needs_core
def test_max_states_holds_exactly_that_many_states_in_both_searches() -> None:
    """On lost positions of known size (every state is searched), a state limit below the
    size stops both searches at exactly that many distinct states, and one at the size
    does not stop them."""
    spaces = lost_spaces(3, 20)
    assert len(spaces) >= 15
    rng = random.Random("caps")
    for space, size in spaces:
        for first_pass in (None, 1, 64):
            for cap in {1, 2, size - 1, rng.randrange(1, size)}:
                pure, native = both(space, Limits(max_states=cap, first_pass=first_pass))
                assert_same(pure, native, (size, cap))
                assert pure.verdict == "unknown" and pure.states == cap, (size, cap, first_pass)
            pure, native = both(space, Limits(max_states=size, first_pass=first_pass))
            assert_same(pure, native, size)
            assert pure.verdict == "lost" and pure.states == size

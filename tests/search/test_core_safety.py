"""The compiled core is safe from any caller.

Every function of `wedlock._core`, and every method of the objects it makes, either answers
or raises a Python exception of a class that says what was wrong (ValueError, TypeError,
OverflowError, MemoryError, IndexError for a graph's state number): never a crash, whatever
the integers (the edges of every C type), buffers (empty, long, junk, mutable) and objects it
is given. The tests run in this process, so a crash ends the test run and fails it.

While a search runs without the GIL, other threads may change what the caller passed (a
bytearray, the list of a puzzle's piles): the core answers for what it was given when it was
called. Out of memory is MemoryError, told apart from input the core cannot read.
`.ci/sanitize` runs these tests with the core built under AddressSanitizer and UBSan.
"""

from __future__ import annotations

import ctypes
import gc
import math
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.positions import late_position
from tests.games.test_core_pysol_dead import good_arguments
from tests.games.test_matrimony_spaces import random_line
from tests.tiers import examples
from wedlock.basics import compiled as core
from wedlock.basics.deals import numbered_deal
from wedlock.basics.numbering import GameNumber
from wedlock.games.matrimony import GAME as MATRIMONY
from wedlock.games.matrimony.arnold_space import ArnoldSpace
from wedlock.games.matrimony.play import Table as MatrimonyTable
from wedlock.games.matrimony.pysol_space import PysolSpace
from wedlock.games.matrimony.rollouts import position_bytes
from wedlock.games.matrimony.rules import RULE_SETS as MATRIMONY_RULES
from wedlock.games.montecarlo.play import GAP, Position, Table
from wedlock.games.montecarlo.rules import COLUMNS, RULE_SETS, THIRTEEN
from wedlock.games.montecarlo.spaces import ColumnSpace, SequenceSpace
from wedlock.search.exhaustive import Limits, solve

needs_core = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")
pytestmark = needs_core

EXAMPLES = int(os.environ.get("WEDLOCK_FUZZ_EXAMPLES", examples(150)))  # a fuzz's examples for each entry point
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
REFUSALS = (ValueError, TypeError, OverflowError, MemoryError)  # what bad arguments may raise
VERDICTS = ("won", "lost", "unknown")
LIMIT_NAMES = (None, "node_limit", "time_limit", "max_states")
NO_LIMITS = {"node_limit": None, "time_limit": None, "max_states": None, "first_pass": 64}


@pytest.fixture(autouse=True)
def core_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core runs here even where WEDLOCK_PURE is set."""
    monkeypatch.delenv(core.PURE_VARIABLE, raising=False)


def the_core() -> Any:
    assert core._core is not None
    return core._core


# --- good arguments for each entry point ------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """An entry point of the core with good arguments, each with its kind (what junk to try)."""

    name: str
    call: Callable[..., Any]
    args: tuple[tuple[str, Any], ...]  # (kind, good value), in the order the call takes them

    def values(self) -> list[Any]:
        return [value for _, value in self.args]


def limits_args(**given: Any) -> tuple[tuple[str, Any], ...]:
    chosen = NO_LIMITS | given
    return (
        ("count", chosen["node_limit"]),
        ("seconds", chosen["time_limit"]),
        ("count", chosen["max_states"]),
        ("count", chosen["first_pass"]),
    )


def search_entry(name: str, native: Any, kinds: str, **limits: Any) -> Entry:
    """A search's entry from a space's `native()` (its function and leading arguments)."""
    assert native is not None and len(kinds.split()) == len(native.args)
    return Entry(name, native.func, tuple(zip(kinds.split(), native.args, strict=True)) + limits_args(**limits))


def monte_carlo_table(name: str, number: int) -> Table:
    rules = RULE_SETS[name]
    return Table(rules, tuple(numbered_deal(GameNumber.parse(str(number)), rules.decks)))


@cache
def matrimony_table(rules: str, number: int) -> MatrimonyTable:
    chosen = MATRIMONY_RULES[rules]
    return MatrimonyTable(chosen, tuple(MATRIMONY.numbered_deal(chosen, str(number))))


@cache
def late_pysol_space(number: int, rounds: int) -> PysolSpace:
    """PySolFC's Matrimony after `rounds` redeals of random play: searched in full at once."""
    table = matrimony_table("pysol", number)
    pos, _ = random_line(table, random.Random(number), rounds)
    return PysolSpace(table, pos)


@cache
def quick_entries() -> tuple[Entry, ...]:
    """Each search from a position it searches in full within milliseconds, whatever the limits."""
    slide_table, slide_pos, _ = late_position(RULE_SETS["thirteens"], 0, 30)
    columns_table, columns_pos, _ = late_position(RULE_SETS["weddings"], 1, 30)
    return (
        search_entry("search_slide", SequenceSpace(slide_table, slide_pos).native(), "buffer int int flag flag"),
        search_entry("search_columns", ColumnSpace(columns_table, columns_pos).native(), "buffer buffer int int flag"),
        search_entry(
            "search_arnold", ArnoldSpace(matrimony_table("arnold", 3)).native(), "buffer buffer buffer buffer int int object object"
        ),
        search_entry("search_pysol", late_pysol_space(2, 15).native(), "buffer buffer buffer buffer buffer int int flag object object"),
    )


@cache
def long_entries() -> tuple[Entry, ...]:
    """Each search from a position that takes some milliseconds, in many short passes (each
    reading its start again)."""
    return (
        search_entry(
            "search_slide",
            SequenceSpace(monte_carlo_table("2decks", 22)).native(),
            "buffer int int flag flag",
            first_pass=1,
            node_limit=20_000,
        ),
        search_entry("search_columns", ColumnSpace(monte_carlo_table("weddings", 65)).native(), "buffer buffer int int flag", first_pass=1),
        search_entry(
            "search_arnold",
            ArnoldSpace(matrimony_table("arnold", 8)).native(),
            "buffer buffer buffer buffer int int object object",
            first_pass=1,
        ),
        search_entry(
            "search_pysol",
            PysolSpace(matrimony_table("pysol", 2)).native(),
            "buffer buffer buffer buffer buffer int int flag object object",
            node_limit=3_000,
        ),
    )


def phases_entry() -> Entry:
    rules = late_pysol_space(2, 15).core_rules()
    kinds = "buffer buffer buffer buffer int int flag object object int int".split()
    return Entry("pysol_phases", the_core().pysol_phases, tuple(zip(kinds, (*rules, 300, -1), strict=True)))


def phase_state(rounds: int = 8) -> bytes:
    space = late_pysol_space(2, rounds)
    key = space.key(space.start())
    assert isinstance(key, bytes)
    return key


@cache
def dead_entry() -> Entry:
    good = good_arguments()
    kinds = "buffer buffer buffer int int piles buffer int int buffer buffer flag flag".split()
    return Entry("pysol_dead", the_core().pysol_dead, tuple(zip(kinds, good.values(), strict=True)))


def core_cells(pos: Position) -> tuple[bytes, int]:
    """A position as the graph takes it (wedlock.games.montecarlo.player's: 255 for a gap)."""
    return bytes(255 if c == GAP else c for c in pos.cells), pos.stock


GRAPH_MOST = 200_000  # the most states a fuzzed graph may hold


def graph_entry(left: int = 20, max_states: int = -1) -> Entry:
    table, pos, _ = late_position(RULE_SETS["pysol"], 3, left)
    rules = table.rules
    cells, stock = core_cells(pos)
    values = (
        bytes(table.rank_of[:-1]),
        rules.rows,
        rules.cols,
        rules.pairing == THIRTEEN,
        rules.strict,
        rules.consolidation == COLUMNS,
        cells,
        stock,
        max_states,
        -1.0,
    )
    kinds = "buffer int int flag flag flag buffer int count64 seconds".split()
    return Entry("graph_montecarlo", the_core().graph_montecarlo, tuple(zip(kinds, values, strict=True)))


# --- junk --------------------------------------------------------------------------------------

EDGES = [
    0,
    1,
    -1,
    2**7,
    2**8,
    2**15,
    2**16,
    2**31 - 1,
    2**31,
    -(2**31),
    -(2**31) - 1,
    2**32 - 1,
    2**32,
    2**63 - 1,
    2**63,
    -(2**63),
    -(2**63) - 1,
    2**64 - 1,
    2**64,
    10**30,
    -(10**30),
]
WRONG = [None, "7", b"7", 1.5, [], object()]


def buffers(good: bytes) -> st.SearchStrategy[Any]:
    """A good buffer, or one a little or very wrong, or something else altogether."""
    changed = st.tuples(st.integers(0, max(len(good) - 1, 0)), st.integers(0, 255)).map(
        lambda at: good[: at[0]] + bytes([at[1]]) + good[at[0] + 1 :] if good else bytes([at[1]])
    )
    return st.one_of(
        st.just(good),
        changed,
        st.sampled_from(
            [
                b"",
                good[:-1],
                good + b"\0",
                good + good,
                b"\xff" * len(good),
                bytes(len(good)),
                bytes(300),
                bytes(70_000),
                bytearray(good),
                memoryview(good),
            ]
        ),
        st.binary(max_size=400),
        st.sampled_from([None, "text", 7, [1, 2]]),
    )


def counts() -> st.SearchStrategy[Any]:
    return st.one_of(st.sampled_from(EDGES), st.integers(-3, 300), st.sampled_from([None, 1.5, "3", True]))


def seconds() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from([None, math.nan, math.inf, -math.inf, -1.0, -0.0, 0.0, 1e-9, 0.001, 1e308, 2**1024, "1", True]),
        st.floats(allow_nan=True, allow_infinity=True),
    )


def piles(good: list[bytes]) -> st.SearchStrategy[Any]:
    junk_pile = st.one_of(st.binary(max_size=120), st.sampled_from([b"", bytes(105), bytearray(3), "x", None]))
    return st.one_of(
        st.just(good),
        st.lists(junk_pile, min_size=15, max_size=17),
        st.lists(st.binary(max_size=20).map(lambda b: bytes(x % 52 for x in b)), min_size=16, max_size=16),
        st.sampled_from([None, 7, "x" * 16, tuple(good), iter(good)]),
    )


def junk(kind: str, good: Any) -> st.SearchStrategy[Any]:
    """The good value, or junk of its kind."""
    if kind == "buffer":
        return buffers(good)
    if kind == "int":
        return st.one_of(st.just(good), st.sampled_from(EDGES), st.integers(-3, 30), st.sampled_from(WRONG))
    if kind == "count":  # a limit: None (no limit) or a count
        return st.one_of(st.just(good), counts())
    if kind == "count64":  # the graph's: a count, negative for no limit
        return st.one_of(st.just(good), st.sampled_from(EDGES), st.integers(-3, 500), st.sampled_from(WRONG))
    if kind == "seconds":
        return st.one_of(st.just(good), seconds())
    if kind == "flag":
        return st.one_of(st.just(good), st.booleans(), st.sampled_from(WRONG))
    if kind == "piles":
        return piles(good)
    assert kind == "object"
    return st.one_of(st.just(good), st.sampled_from([None, 7, "text", tuple]))


def arguments(entry: Entry) -> st.SearchStrategy[list[Any]]:
    """The entry's arguments, each left good or swapped for junk."""
    return st.tuples(*(st.one_of(st.just(good), junk(kind, good)) for kind, good in entry.args)).map(list)


def answered_or_refused(call: Callable[[], Any], check: Callable[[Any], None], also: tuple[type[BaseException], ...] = ()) -> None:
    """The call answers (and `check` accepts the answer) or raises one of the refusals."""
    try:
        answer = call()
    except REFUSALS + also:
        return
    check(answer)


def a_search_answer(answer: Any) -> None:
    verdict, steps, states, nodes, limit = answer
    assert verdict in VERDICTS and isinstance(steps, list) and states >= 0 and nodes >= 0 and limit in LIMIT_NAMES


# --- the fuzz ----------------------------------------------------------------------------------


@cache
def rollouts_entry() -> Entry:
    """pysol_rollouts on game 15, NRPA at level 2, bounded: at most 20 playouts, a second."""
    table = matrimony_table("pysol", 15)
    rules = table.rules
    takes = bytes(code for codes in rules.takes for code in codes)
    kinds = ("buffer", "buffer", "buffer", "buffer", "buffer", "int", "int", "int", "int", "flag", "object", "seconds", "int", "fixed", "fixed", "fixed")
    values = (table.codes, takes, bytes(rules.jack_down), bytes(rules.queen_up), position_bytes(table.start()), 1, 0, 2, 3, False)
    return Entry("pysol_rollouts", the_core().pysol_rollouts, tuple(zip(kinds, (*values, (2.0, 0.0, 1.0, 0.0), 0.3, 1, 1.0, 20, None), strict=True)))


def a_rollout_answer(answer: Any) -> None:
    score, moves, playouts, held, stopped = answer
    assert 0 <= score <= 104 and isinstance(moves, bytes) and all(m <= 16 for m in moves) and playouts >= 0 and held >= 1
    assert stopped in (None, "time_limit", "node_limit", "max_states")


@FUZZ
@given(data=st.data())
def test_pysol_rollouts_answers_or_refuses_any_arguments(data: st.DataObject) -> None:
    entry = rollouts_entry()
    args = [good if kind == "fixed" else data.draw(st.one_of(st.just(good), junk(kind, good))) for kind, good in entry.args]
    answered_or_refused(lambda: entry.call(*args), a_rollout_answer)




@pytest.mark.parametrize("name", ["search_slide", "search_columns", "search_arnold", "search_pysol"])
def test_the_searches_answer_or_refuse_any_arguments(name: str) -> None:
    entry = next(e for e in quick_entries() if e.name == name)

    @FUZZ
    @given(args=arguments(entry))
    def fuzz(args: list[Any]) -> None:
        answered_or_refused(lambda: entry.call(*args), a_search_answer)

    fuzz()


def phase_ends(answer: Any) -> None:
    assert isinstance(answer, list) and all(isinstance(s, bytes) and isinstance(e, bytes) for s, e in answer)


METHOD_CALLS = {
    "phase": (lambda state, flag: (state, flag), phase_ends),
    "greedy": (lambda state, flag: (state,), phase_ends),
    "viable": (lambda state, flag: (state,), lambda answer: isinstance(answer, bool)),
    "won": (lambda state, flag: (state,), lambda answer: isinstance(answer, bool)),
    "cards_down": (lambda state, flag: (state,), lambda answer: 0 <= answer <= 104),
    "exact_steps": (lambda state, flag: (state,), lambda answer: isinstance(answer, list)),
}


@FUZZ
@given(data=st.data())
def test_pysol_phases_and_its_methods_answer_or_refuse_any_arguments(data: st.DataObject) -> None:
    entry = phases_entry()
    args = data.draw(arguments(entry))
    try:
        phases = entry.call(*args)
    except REFUSALS:
        phases = entry.call(*entry.values())
    good = phase_state()
    states = st.one_of(buffers(good), st.sampled_from([phase_state(rounds) for rounds in (0, 2, 16)]))
    for _ in range(data.draw(st.integers(1, 4))):
        method = data.draw(st.sampled_from(sorted(METHOD_CALLS)))
        pick, check = METHOD_CALLS[method]
        call_args = pick(data.draw(states), data.draw(junk("flag", True)))
        answered_or_refused(lambda method=method, call_args=call_args: getattr(phases, method)(*call_args), check)


@FUZZ
@given(data=st.data())
def test_pysol_dead_answers_or_refuses_any_arguments(data: st.DataObject) -> None:
    entry = dead_entry()
    args = data.draw(arguments(entry))
    answered_or_refused(lambda: entry.call(*args), lambda answer: isinstance(answer, bool))


def graph_calls(graph: Any, size: int) -> st.SearchStrategy[tuple[str, tuple]]:
    node = st.one_of(st.integers(-2, size + 2), st.sampled_from(EDGES), st.sampled_from(WRONG))
    cells = buffers(bytes(range(25)))
    return st.one_of(
        st.tuples(st.sampled_from(["position", "key", "successors"]), st.tuples(node)),
        st.tuples(st.just("index"), st.tuples(cells, junk("int", 25))),
        st.tuples(st.sampled_from(["won", "frontier", "edge_count", "figures"]), st.just(())),
        st.tuples(st.just("add_node"), st.tuples(cells, junk("int", 25))),
        st.tuples(st.just("add_edge"), st.tuples(node, node, junk("int", 1))),
        st.tuples(st.just("has_edge"), st.tuples(node, node)),
    )


@FUZZ
@given(data=st.data())
def test_graph_montecarlo_and_its_methods_answer_or_refuse_any_arguments(data: st.DataObject) -> None:
    entry = graph_entry()
    args = data.draw(arguments(entry))
    if type(args[8]) is int and not 0 <= args[8] <= GRAPH_MOST:
        # "no limit" (or a huge one) on a grid the junk made large is a graph of gigabytes:
        # a good answer, but not one to wait for
        args[8] = GRAPH_MOST
    try:
        graph = entry.call(*args)
    except REFUSALS:
        graph = entry.call(*graph_entry(left=30, max_states=50).values())
    for _ in range(data.draw(st.integers(1, 6))):
        method, call_args = data.draw(graph_calls(graph, len(graph)))
        answered_or_refused(
            lambda method=method, call_args=call_args: getattr(graph, method)(*call_args), lambda answer: None, also=(IndexError,)
        )


def test_a_graph_refuses_an_edge_back_and_its_figures_stay_whole() -> None:
    """Every phase takes cards away: an edge to a node with as many cards or more would
    close a cycle, which the figures once followed until memory ran out."""
    entry = graph_entry(left=30, max_states=50)
    graph = entry.call(*entry.values())
    v = next(v for v in range(1, len(graph)) if graph.successors(v))
    w = graph.successors(v)[0]
    for back in [(w, v), (v, v), (w, 0)]:
        with pytest.raises(ValueError, match="fewer cards"):
            graph.add_edge(*back, 1)
    assert isinstance(graph.figures(), tuple)  # the figures, not a limit's name


@FUZZ
@given(
    seed=st.one_of(st.sampled_from(EDGES), st.integers(0, 2**64 - 1), st.sampled_from(WRONG)),
    n=st.one_of(st.sampled_from([e for e in EDGES if not 2**20 <= e < 2**32]), st.integers(-5, 200), st.sampled_from(WRONG)),
)
def test_shuffled_answers_or_refuses_any_arguments(seed: Any, n: Any) -> None:
    """(n from 2**20 to 2**32 - 1 asks for a list of gigabytes: a good answer, but not one to wait for)"""
    answered_or_refused(lambda: the_core().shuffled(seed, n), lambda answer: sorted(answer) == list(range(n)))


@cache
def won_line(name: str, number: int) -> tuple[bytes, list[tuple[int, ...]], list[tuple[tuple[int, int], ...]], bytes]:
    """A won deal of a sliding rule set: its card codes, its coded line, the search's steps,
    and the codes of its start state."""
    table = monte_carlo_table(name, number)
    space = SequenceSpace(table)
    out = solve(space, Limits(max_states=None))
    assert out.verdict == "won"
    codes = bytes(card.code for card in table.deal)
    return codes, space.codes(out.steps), list(out.steps), bytes(codes[i] for i in space.start())


def lines(good: list[Any], item: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A good line, one with an item changed, a line of junk, or no line at all."""
    changed = st.tuples(st.integers(0, len(good) - 1), item).map(lambda at: good[: at[0]] + [at[1]] + good[at[0] + 1 :])
    return st.one_of(
        st.just(good), changed, st.lists(item, max_size=30), st.sampled_from([None, 7, "text", tuple(good), iter(good), [good]])
    )


MOVE_INTS = st.one_of(st.integers(-3, 120), st.sampled_from(EDGES), st.sampled_from(WRONG))
MOVES = st.one_of(st.lists(MOVE_INTS, max_size=6).map(tuple), st.lists(st.integers(-3, 60), max_size=5), st.sampled_from(WRONG))


@FUZZ
@given(data=st.data(), name=st.sampled_from(["pysol", "thirteens", "2decks"]))
def test_the_referee_answers_or_refuses_any_arguments(data: st.DataObject, name: str) -> None:
    rules = RULE_SETS[name]
    codes, line, _, _ = won_line(name, 2 if name == "thirteens" else 1)
    entry = Entry(
        "referee_montecarlo",
        the_core().referee_montecarlo,
        (("buffer", codes), ("int", rules.rows), ("int", rules.cols), ("int", rules.decks), ("flag", rules.pairing == THIRTEEN))
        + (("flag", rules.consolidation == COLUMNS), ("flag", rules.strict), ("line", line)),
    )
    args = [data.draw(lines(line, MOVES)) if kind == "line" else data.draw(junk(kind, good)) for kind, good in entry.args]

    def a_replay(answer: Any) -> None:
        won, played = answer
        assert isinstance(won, bool) and 0 <= played and (won or played < 1000)
        if isinstance(args[7], (list, tuple)):
            assert played <= len(args[7])

    answered_or_refused(lambda: entry.call(*args), a_replay)


@FUZZ
@given(data=st.data())
def test_the_coding_of_a_sliding_line_answers_or_refuses_any_arguments(data: st.DataObject) -> None:
    _, line, steps, start = won_line("pysol", 1)
    pairs = st.lists(st.lists(MOVE_INTS, max_size=3).map(tuple), max_size=3).map(tuple)
    args = [data.draw(buffers(start)), data.draw(junk("int", 25)), data.draw(lines(steps, st.one_of(pairs, st.sampled_from(WRONG))))]

    def a_line(answer: Any) -> None:
        assert isinstance(answer, list) and all(isinstance(move, tuple) and len(move) in (0, 2, 4) for move in answer)

    answered_or_refused(lambda: the_core().slide_codes(*args), a_line)
    assert the_core().slide_codes(start, 25, steps) == line


# --- each case of the issue --------------------------------------------------------------------


@pytest.mark.parametrize(
    "grid", [(3, 1431655766), (1431655766, 3), (65536, 65536), (2**31 - 1, 2**31 - 1), (-65536, -65536), (5, 6), (1, 26)]
)
def test_a_grid_whose_size_overflows_an_int_is_refused(grid: tuple[int, int]) -> None:
    """rows x cols compared with the grid's cells one side at a time: 3 x 1431655766 wrapped to 2."""
    with pytest.raises(ValueError, match="grid"):
        the_core().search_slide(bytes([1, 1, 2, 2]), *grid, False, False, node_limit=100, time_limit=1.0, max_states=100, first_pass=None)


BAD_LIMITS = [
    ({"node_limit": -1}, ValueError),
    ({"node_limit": -(2**63)}, ValueError),
    ({"max_states": -1}, ValueError),
    ({"first_pass": 0}, ValueError),  # a first pass of 0 was cut at once, and so was every pass after it
    ({"first_pass": -1}, ValueError),
    ({"time_limit": math.nan}, ValueError),
    ({"time_limit": -1.0}, ValueError),
    ({"time_limit": -math.inf}, ValueError),
    ({"node_limit": 2**63}, OverflowError),
    ({"max_states": 2**64}, OverflowError),
    ({"first_pass": -(2**63) - 1}, OverflowError),
    ({"node_limit": 1.5}, TypeError),
    ({"time_limit": "1"}, TypeError),
]


@pytest.mark.parametrize(("limits", "error"), BAD_LIMITS)
@pytest.mark.parametrize("name", ["search_slide", "search_columns", "search_arnold", "search_pysol"])
def test_limits_that_search_limits_refuses_the_core_refuses(name: str, limits: dict, error: type[Exception]) -> None:
    entry = next(e for e in long_entries() if e.name == name)
    given = {"node_limit": None, "time_limit": 0.5, "max_states": None, "first_pass": 64} | limits  # so that every search ends
    with pytest.raises(error):
        entry.call(*entry.values()[:-4], **given)


@pytest.mark.parametrize("name", ["search_slide", "search_columns", "search_arnold", "search_pysol"])
def test_the_edges_of_the_limits_that_are_taken(name: str) -> None:
    entry = next(e for e in long_entries() if e.name == name)
    leading = entry.values()[:-4]
    for limits in ({"node_limit": 0}, {"max_states": 0}, {"time_limit": 0.0}):
        verdict, _, _, _, limit = entry.call(*leading, **(NO_LIMITS | limits))
        assert verdict == "unknown" and (limit == next(iter(limits)) or limits == {"time_limit": 0.0}), (limits, verdict, limit)
    for limits in ({"time_limit": math.inf}, {"node_limit": 2**63 - 1, "max_states": 2**63 - 1, "first_pass": 2**63 - 1}):
        assert entry.call(*leading, **(NO_LIMITS | limits))[0] in ("won", "lost"), limits


def test_a_graph_refuses_nan_seconds() -> None:
    """No deadline compares with NaN: it built the whole graph."""
    entry = graph_entry()
    args = entry.values()
    args[-1] = math.nan
    with pytest.raises(ValueError, match="NaN"):
        entry.call(*args)


def test_a_negative_count_to_shuffle_is_refused() -> None:
    with pytest.raises(ValueError):
        the_core().shuffled(1, -5)
    assert the_core().shuffled(1, 0) == []


def test_a_weddings_position_with_a_rank_five_times_is_refused() -> None:
    """A child of it would hold more of a rank than the dead-position tests count (they gave
    up with RuntimeError in the middle of the search)."""
    state, deal, rows, cols, dead = ColumnSpace(monte_carlo_table("weddings", 65)).native().args
    kings = state[: 1 + cols] + bytes([13]) * (len(state) - 1 - cols)
    with pytest.raises(ValueError, match="not a Weddings deal and position"):
        the_core().search_columns(kings, deal, rows, cols, False, **NO_LIMITS)


def test_a_position_past_what_a_space_holds_is_a_value_error() -> None:
    """Eight cards of a rank side by side under strict rules: more matchings than the space lists."""
    ranks = bytes([1, 1, 1, 2, 3, 1, 1, 1, 4, 5, 1, 1, 6, 7, 8, 9, 10, 11, 12, 13, 2, 3, 4, 5, 6])
    with pytest.raises(ValueError, match="too many matchings"):
        the_core().search_slide(ranks, 5, 5, False, True, **NO_LIMITS)


class CLimits(ctypes.Structure):
    _fields_ = [
        ("node_limit", ctypes.c_longlong),
        ("time_limit", ctypes.c_double),
        ("max_states", ctypes.c_longlong),
        ("first_pass", ctypes.c_longlong),
    ]


def test_the_search_refuses_a_state_longer_than_its_table_records() -> None:
    """The table keeps a state's length in 16 bits (so that it holds 20 million states in
    480 MB): a longer state is refused, not stored cut short. No space makes one, so the
    search is called through its C entry, on a sliding state with 70,000 bytes of tail."""
    lib = ctypes.PyDLL(the_core().__file__)
    if not hasattr(lib, "core_run"):
        pytest.skip("the core's C functions are not exported here")
    lib.slide_space_new.restype = ctypes.c_void_p
    lib.slide_space_new.argtypes = [ctypes.c_int] * 4
    lib.core_run.restype = ctypes.py_object
    lib.core_run.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(CLimits)]
    no_limits = CLimits(-1, -1.0, -1, -1)
    short = bytes([4, 0x11, 0x22])  # four cards, two ranks a byte: 1 1 2 2
    assert lib.core_run(lib.slide_space_new(2, 2, 0, 0), short, len(short), ctypes.byref(no_limits))[0] == "won"
    long = short + bytes(70_000)
    with pytest.raises(ValueError, match="65,535"):
        lib.core_run(lib.slide_space_new(2, 2, 0, 0), long, len(long), ctypes.byref(no_limits))


# --- no memory ---------------------------------------------------------------------------------

MALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
CALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)
REALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


class Allocator(ctypes.Structure):
    """PyMemAllocatorEx."""

    _fields_ = [("ctx", ctypes.c_void_p), ("malloc", MALLOC), ("calloc", CALLOC), ("realloc", REALLOC), ("free", FREE)]


RAW = 0  # PYMEM_DOMAIN_RAW: the core's own memory (PyMem_RawMalloc and its kin)


@contextmanager
def raw_memory_fails_after(allowed: int) -> Iterator[list[int]]:
    """Python's raw allocator, with every request of this thread after the first `allowed`
    failing; yields a list that holds the number of requests refused when the block ends."""
    original = Allocator()
    ctypes.pythonapi.PyMem_GetAllocator(RAW, ctypes.byref(original))
    me, made, refused = threading.get_ident(), [0], [0]

    def fails() -> bool:
        if threading.get_ident() != me:
            return False
        made[0] += 1
        if made[0] <= allowed:
            return False
        refused[0] += 1
        return True

    hooks = Allocator(
        original.ctx,
        MALLOC(lambda ctx, size: None if fails() else original.malloc(ctx, size)),
        CALLOC(lambda ctx, n, size: None if fails() else original.calloc(ctx, n, size)),
        REALLOC(lambda ctx, block, size: None if fails() else original.realloc(ctx, block, size)),
        original.free,
    )
    ctypes.pythonapi.PyMem_SetAllocator(RAW, ctypes.byref(hooks))
    try:
        yield refused
    finally:
        ctypes.pythonapi.PyMem_SetAllocator(RAW, ctypes.byref(original))


@pytest.mark.parametrize("name", ["search_slide", "search_columns", "search_arnold", "search_pysol", "pysol_dead", "pysol_phases", "pysol_rollouts"])
def test_memory_running_out_at_any_request_is_a_memory_error(name: str) -> None:
    """Each request for memory the core makes fails in turn: the call raises MemoryError, or
    (when it could do without: a scratch list that need not grow) answers as it would have.
    The first request of a sliding or Weddings search makes its space, which was reported as
    a grid or a position the core cannot read."""
    if name == "pysol_dead":
        entry = dead_entry()
    elif name == "pysol_phases":
        entry = phases_entry()
    elif name == "pysol_rollouts":
        entry = rollouts_entry()
    else:
        entry = next(e for e in quick_entries() if e.name == name)
    state = phase_state()

    def call() -> Any:
        made = entry.call(*entry.values())
        return made.phase(state, True) if name == "pysol_phases" else made

    expected = call()
    for allowed in range(10_000):
        with raw_memory_fails_after(allowed) as refused:
            try:
                answer = call()
            except MemoryError:
                answer = MemoryError
        assert answer in (expected, MemoryError), allowed
        if allowed == 0 and name in ("search_slide", "search_columns"):
            assert answer is MemoryError
        if not refused[0]:
            break
    assert allowed > 0 and not refused[0], "every request the call makes was tried"


# --- threads -----------------------------------------------------------------------------------


@contextmanager
def changing(buffers: list[bytearray], piles: list[list[bytes]]) -> Iterator[None]:
    """Another thread writes junk into the bytearrays and swaps the piles of the lists (freeing
    the old ones) as fast as it can, for as long as the block runs. It gets the GIL only when
    the searching thread lets go of it, which that thread does only inside the core's searches:
    the switch interval is far longer than the test."""
    stop = threading.Event()
    written = [0]

    def meddle() -> None:
        rng = random.Random(1)
        while not stop.is_set():
            if buffers:
                target = rng.choice(buffers)
                target[rng.randrange(len(target))] = rng.randrange(256)
            if piles:
                target_piles = rng.choice(piles)
                target_piles[rng.randrange(len(target_piles))] = bytes(rng.randrange(60) for _ in range(rng.randrange(110)))
            written[0] += 1
            time.sleep(0)  # lets go of the GIL: the search takes it back for a moment every 64 states

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    meddler = threading.Thread(target=meddle)
    meddler.start()
    try:
        yield
    finally:
        stop.set()
        sys.setswitchinterval(interval)
        meddler.join()
    assert written[0] > 0


def fresh(pile: bytes) -> bytes:
    """A bytes object of its own, freed when the list that holds it lets go of it."""
    return bytes(bytearray(pile))


def mutable(values: list[Any]) -> list[Any]:
    """The arguments with each bytes object a bytearray."""
    return [bytearray(v) if isinstance(v, bytes) else v for v in values]


def made_good(args: list[Any], good: list[Any]) -> list[Any]:
    """The arguments' bytearrays (or lists of piles) given their good contents again, in place."""
    for arg, value in zip(args, good, strict=True):
        if isinstance(arg, bytearray):
            arg[:] = value
        elif isinstance(arg, list):
            arg[:] = [fresh(p) for p in value]
    return args


def test_searches_answer_for_their_arguments_as_they_were_while_another_thread_changes_them() -> None:
    """Each search, and the dead test of PySolFC's Matrimony, is handed bytearrays (or a list
    of piles) that another thread changes while it runs: each answers exactly as it does for
    untouched arguments. A graph is built from bytearrays too (it keeps the GIL: the other
    thread only changes them between builds)."""
    cases: list[tuple[Entry, Callable[[], Any]]] = []
    for entry in long_entries():
        cases.append((entry, lambda entry=entry: entry.call(*entry.values())))
    dead = dead_entry()
    graph = graph_entry(left=26)
    expected = {entry.name: call() for entry, call in cases}
    expected["pysol_dead"] = dead.call(*dead.values())
    expected["graph_montecarlo"] = len(graph.call(*graph.values()))
    arrays = [mutable(entry.values()) for entry, _ in cases]
    graph_args = mutable(graph.values())
    dead_args = dead.values()
    dead_args[5] = [fresh(p) for p in dead_args[5]]
    changed = [a for args in [*arrays, graph_args] for a in args if isinstance(a, bytearray)]
    with changing(changed, [dead_args[5]]):
        # Each call's arguments are made good just before it (the other thread waits for the GIL)
        for _ in range(12):
            for (entry, _), args in zip(cases, arrays, strict=True):
                assert entry.call(*made_good(args, entry.values())) == expected[entry.name], entry.name
            for _ in range(40):
                assert dead.call(*made_good(dead_args, dead.values())) == expected["pysol_dead"]
            assert len(graph.call(*made_good(graph_args, graph.values()))) == expected["graph_montecarlo"]


def test_two_threads_walking_phases_of_one_pysol_phases_get_their_own_answers() -> None:
    entry = phases_entry()
    phases = entry.call(*entry.values())
    states = [phase_state(rounds) for rounds in (0, 2, 5, 8, 16)]
    expected = {s: (phases.phase(s, True), phases.greedy(s), phases.viable(s)) for s in states}
    wrong: list[Any] = []

    def walk(order: list[bytes]) -> None:
        for _ in range(40):
            for s in order:
                got = (phases.phase(s, True), phases.greedy(s), phases.viable(s))
                if got != expected[s]:
                    wrong.append(s)

    threads = [threading.Thread(target=walk, args=(order,)) for order in (states, states[::-1])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong


def test_a_pysol_phases_called_again_in_the_middle_of_a_call_refuses_and_the_first_call_is_whole() -> None:
    """Python code may run inside a method (here a garbage collection's callback, run as the
    walk makes its answer's pairs); a call it makes on the same object is refused, and the
    walk under way gives the answer it gives alone (it gave a third of its ends)."""
    entry = phases_entry()
    phases = entry.call(*entry.values())
    state, other = phase_state(0), phase_state(8)
    expected = (phases.phase(state, True), phases.greedy(state))
    inner: list[Any] = []

    def reenter(stage: str, info: dict) -> None:
        if stage != "start" or len(inner) >= 200:
            return
        for method, args in (("phase", (other, True)), ("greedy", (other,)), ("viable", (other,)), ("won", (other,))):
            try:
                inner.append(getattr(phases, method)(*args))
            except RuntimeError as refused:
                inner.append(refused)

    threshold = gc.get_threshold()
    held = [(i, -i) for i in range(5_000)]  # no pair left in the free list: the walk's pairs are new objects, counted by the collector
    gc.callbacks.append(reenter)
    gc.set_threshold(1)
    try:
        got = (phases.phase(state, True), phases.greedy(state))
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(reenter)
    del held
    assert got == expected
    assert any(isinstance(answer, RuntimeError) for answer in inner), "a call came in while one was under way"


@pytest.mark.parametrize("rows, cols", [(-(2**31), 3), (3, -(2**31)), (2**31 - 1, 2**31 - 1), (-(2**31), -(2**31))])
def test_the_referee_refuses_a_grid_whose_size_overflows(rows: int, cols: int) -> None:
    # The referee multiplied the sizes before checking them (UBSan, under .ci/sanitize: signed overflow).
    codes, line, _, _ = won_line("pysol", 1)
    try:
        answer = the_core().referee_montecarlo(codes, rows, cols, 1, False, False, False, line)
    except ValueError as err:
        assert str(err).startswith("a grid of 1 to 10 rows and 1 to 9 columns")
    else:
        assert answer == (False, 0)

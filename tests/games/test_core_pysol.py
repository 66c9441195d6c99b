"""The compiled twin of PySolFC's exact Matrimony space against the Python space.

The core must search `PysolSpace` exactly as search/exhaustive.py does over the Python space: the same
verdict, winning steps, counts of states and nodes, and limit reached, with the lost tests
(one suit, the redeals ahead, two suits tangled) cutting the same states. Compared on
positions after every number of redeals, on and off winning lines, at the hand-overs of the
finishing beams, under every kind of limit, and on the deals of the published table. Its
phases (`NativePhaseSpace`, for the beams of the quick stages) must end where the Python
phases end, in the same order, so that every beam keeps the same states.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.test_matrimony_spaces import on_and_off_line, random_line
from tests.search.test_core import assert_same, both
from tests.tiers import examples, first_quick
from wedlock.basics import compiled as core
from wedlock.games.matrimony import GAME
from wedlock.games.matrimony.moves import Deal, Move
from wedlock.games.matrimony.play import Position, Table
from wedlock.games.matrimony.pysol_finish import ExactFrom, NativeFinishSpace, PysolFinishSpace, finishing_beam
from wedlock.games.matrimony.pysol_native import NativePhaseSpace
from wedlock.games.matrimony.pysol_space import PysolPhaseSpace, PysolSpace, PysolState
from wedlock.games.matrimony.quick_stages import Stage
from wedlock.games.matrimony.rules import DECK, PILES, RULE_SETS
from wedlock.games.matrimony.verify import referee
from wedlock.results.tables import lookup
from wedlock.search.beam import beam_search
from wedlock.search.exhaustive import LOST, UNKNOWN, WON, Limits, solve

PYSOL = RULE_SETS["pysol"]
needs_core = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")
pytestmark = needs_core


@pytest.fixture(autouse=True)
def core_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare both paths, so the core runs even where WEDLOCK_PURE is set."""
    monkeypatch.delenv(core.PURE_VARIABLE, raising=False)


@cache
def table_of(number: int) -> Table:
    return Table(PYSOL, tuple(GAME.numbered_deal(PYSOL, str(number))))


def random_position(number: int, seed: int, rounds: int) -> tuple[Table, Position, list[Move]]:
    """Deal `number` played at random until `rounds` redeals are made (`random_line`)."""
    table = table_of(number)
    pos, line = random_line(table, random.Random(seed), rounds)
    return table, pos, line


def test_the_phase_spaces_are_not_taken_for_the_exact_one() -> None:
    table = table_of(1)
    assert PysolPhaseSpace(table).native() is None and PysolFinishSpace(table).native() is None


@pytest.mark.slow
def test_same_answers_after_every_number_of_redeals() -> None:
    """Positions along random lines of 68 deals, four after each number of redeals (0-16),
    each searched within 600 nodes (most of the late ones end sooner)."""
    verdicts = {WON: 0, LOST: 0, UNKNOWN: 0}
    rng = random.Random("pysol positions")
    for n in range(68):
        number, rounds = rng.randrange(1, 10**6), n % (PILES + 1)
        table, pos, _ = random_position(number, n, rounds)
        pure, native = both(PysolSpace(table, pos), Limits(node_limit=600))
        assert_same(pure, native, (number, n, rounds))
        verdicts[pure.verdict] += 1
    assert verdicts[LOST] >= 12 and verdicts[UNKNOWN] >= 12, verdicts


@cache
def winning_line(number: int, seconds: float = 60) -> tuple[Move, ...] | None:
    """The solver's win of deal `number`, or None if it finds none in time."""
    out = GAME.solve(PYSOL, table_of(number).deal, Limits(time_limit=seconds))
    return tuple(out.moves) if out.verdict == WON else None


@pytest.mark.slow
def test_same_wins_on_and_off_winning_lines() -> None:
    """Positions right after each of the last six deals and redeals of a win, and a few
    random plays away from them: many are won, and the winning steps must be the same and
    replay to a win."""
    won = 0
    for number in (1, 2, 3, 5):
        for table, pos, moves in on_and_off_line(PYSOL, number, 6):
            space = PysolSpace(table, pos)
            pure, native = both(space, Limits(node_limit=5_000))
            assert_same(pure, native, (number, len(moves)))
            if native.verdict == WON:
                won += 1
                assert referee(PYSOL, table.deal, moves + space.moves(native.steps)).won, (number, len(moves))
    assert won >= 10, won


@pytest.mark.slow  # the quick tier keeps the finishing beam's compiled phases, below
def test_same_answers_at_the_finishing_beams_hand_overs() -> None:
    """ExactFrom, the finishing beam's exact search, from states right after the last deal."""
    checked = 0
    for number in range(1, 9):
        space = PysolFinishSpace(table_of(number))
        state = space.start()
        while state.pos.stock < DECK:
            step = next(space.greedy_phase(state), None)
            if step is None:
                break
            state = step[1]
        if state.pos.stock < DECK:
            continue
        root = PysolState(state.pos, frozenset(), frozenset())
        assert_same(*both(ExactFrom(space, root), Limits(node_limit=1_500)), number)
        checked += 1
    assert checked >= 6, checked


COMPACT = 50_000_000  # states from which a single-pass search keeps them as 12-byte fingerprints (search.c)


@pytest.mark.slow  # a search of 50 million states' room
def test_the_compact_table_answers_as_the_full_one() -> None:
    """A search allowed COMPACT states or more keeps fingerprints, not states: on positions
    of random lines and on and off winning lines, it answers with the same verdict, states,
    nodes and winning steps as the full table (within a node limit, so that both end)."""
    compared = {WON: 0, LOST: 0, UNKNOWN: 0}
    rng = random.Random("compact")
    cases = [random_position(rng.randrange(1, 10**6), n, n % (PILES + 1))[:2] for n in range(34)]
    cases += [(table, pos) for number in (1, 2) for table, pos, _ in on_and_off_line(PYSOL, number, 4)]
    for table, pos in cases:
        space = PysolSpace(table, pos)
        full = solve(space, Limits(max_states=COMPACT - 1, node_limit=20_000))
        compact = solve(space, Limits(max_states=COMPACT, node_limit=20_000))
        assert (full.verdict, full.states, full.nodes, full.steps, full.limit) == (
            compact.verdict, compact.states, compact.nodes, compact.steps, compact.limit)  # fmt: skip
        compared[full.verdict] += 1
    assert compared[WON] >= 3 and compared[LOST] >= 10 and compared[UNKNOWN] >= 3, compared


LIMITS = st.one_of(
    st.builds(Limits, node_limit=st.integers(1, 400)),
    st.builds(Limits, max_states=st.integers(1, 400)),
    st.builds(Limits, max_states=st.integers(1, 400), node_limit=st.integers(1, 400)),
)


@pytest.mark.slow
@settings(max_examples=examples(120), deadline=None)
@given(number=st.integers(1, 10**9), seed=st.integers(0, 10**6), rounds=st.integers(0, PILES), limits=LIMITS)
def test_same_answers_under_every_limit(number: int, seed: int, rounds: int, limits: Limits) -> None:
    table, pos, _ = random_position(number, seed, rounds)
    assert_same(*both(PysolSpace(table, pos), limits), (number, seed, rounds, limits))


def test_a_time_limit_ends_the_compiled_search_as_unknown() -> None:
    out = solve(PysolSpace(table_of(8)), Limits(time_limit=0.0))
    assert out.verdict == UNKNOWN and out.limit == "time_limit" and out.reason == "time limit 0s reached"


@pytest.mark.slow
def test_the_published_verdicts_for_a_sample() -> None:
    """Deals of the published table that it says are won: the solver wins them with the
    compiled core, and from the position right after the last deal of that win both searches
    find the same win."""
    rng = random.Random("pysol tables")
    checked = 0
    for number in rng.sample(range(1, 1_001), 40):
        if lookup("matrimony", number, rules="pysol") != WON or checked == 4:
            continue
        table, line = table_of(number), winning_line(number, 3)
        if line is None:
            continue  # a deal the solver takes long over: others check the same
        assert referee(PYSOL, table.deal, line).won, number
        last = max(i for i, move in enumerate(line) if isinstance(move, Deal))
        pos = table.start()
        for move in line[: last + 1]:
            pos = table.apply(pos, move)
        pure, native = both(PysolSpace(table, pos), Limits(node_limit=5_000))
        assert_same(pure, native, number)
        assert native.verdict in (WON, UNKNOWN), number
        checked += 1
    assert checked == 4, checked


# --- what the core refuses --------------------------------------------------------------

LIMIT_ARGS = {"node_limit": 500, "time_limit": 1.0, "max_states": 500, "first_pass": None}


@settings(max_examples=examples(200), deadline=None)
@given(number=st.integers(1, 10**6), data=st.data())
def test_the_core_refuses_what_no_pysol_position_looks_like(number: int, data: st.DataObject) -> None:
    """The arguments of a real deal and position, one of them replaced by junk or damaged:
    the core refuses with ValueError or answers, and never crashes."""
    call = PysolSpace(table_of(number % 50 + 1)).native()
    assert call is not None
    args = list(call.args)
    k = data.draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4]))
    if k == 0 and data.draw(st.booleans()):
        state = bytearray(args[0])
        for _ in range(data.draw(st.integers(1, 4))):
            state[data.draw(st.integers(0, len(state) - 1))] = data.draw(st.integers(0, 255))
        args[0] = bytes(state)
    else:
        args[k] = data.draw(st.binary(max_size=200))
    try:
        verdict, steps, states, nodes, limit = call.func(*args, **LIMIT_ARGS)
    except ValueError:
        return
    assert verdict in ("won", "lost", "unknown") and isinstance(steps, list) and states >= 0 and nodes >= 0


# --- a phase at a time, for the beams ---------------------------------------------------


def phase_states(number: int, seed: int) -> list[PysolState]:
    """States a beam meets: phase ends along a random line of phases from the deal's start."""
    space, rng = PysolPhaseSpace(table_of(number)), random.Random(seed)
    state, out = space.start(), []
    for _ in range(rng.randrange(1, 30)):
        ends = list(space.successors(state))
        if not ends:
            break
        state = rng.choice(ends)[1]
        out.append(state)
    return out


def ends_of(space: PysolPhaseSpace | NativePhaseSpace, state: object, check_ends: bool) -> list[tuple[list, bytes]]:
    """A phase's ends as (the exact steps, the end's key): comparable across the two spaces."""
    out = []
    for step, end in space.phase(state, check_ends):
        exact = list(step) if isinstance(space, PysolPhaseSpace) else space.core.exact_steps(step)
        out.append((exact, space.key(end)))
    return out


@pytest.mark.parametrize(("holds", "outcomes"), first_quick([(None, 300), (2, 5), (1, 300), (3, 40)], keep=2))
def test_the_compiled_phases_end_where_the_python_ones_do(holds: int | None, outcomes: int) -> None:
    """Every end of every phase, in order, with its steps: from states along random lines,
    with and without the ends' lost test; the first line (for playouts) and the tests too."""
    compared = 0
    for number in range(1, 5):
        table = table_of(number)
        pure = PysolPhaseSpace(table, outcomes=outcomes, holds=holds)
        native = NativePhaseSpace(table, outcomes=outcomes, holds=holds)
        assert native.start() == pure.key(pure.start())
        for state in phase_states(number, number)[:8]:
            key = pure.key(state)
            for check_ends in (True, False):
                assert ends_of(native, key, check_ends) == ends_of(pure, state, check_ends), (number, key)
            greedy = [(list(step), pure.key(end)) for step, end in pure.greedy_phase(state)]
            assert [(native.core.exact_steps(step), end) for step, end in native.greedy_phase(key)] == greedy
            assert (native.viable(key), native.is_won(key), native.cards_down(key)) == (
                pure.viable(state), pure.is_won(state), pure.cards_down(state),
            )
            compared += 1
    assert compared >= 20, compared


@pytest.mark.slow
@pytest.mark.parametrize(("width", "holds", "playouts", "seed"), [(4, 2, True, 0), (16, 2, True, 0), (32, 1, False, 1), (8, None, False, 2)])
def test_beams_over_the_compiled_phases_are_the_python_beams(width: int, holds: int | None, playouts: bool, seed: int) -> None:
    """The same verdict, nodes and winning moves, deal by deal (the beams of the quick stages)."""
    won = 0
    for number in (3, 9, 10, 13):  # each of these beams wins two or three of them within the limit
        table = table_of(number)
        outs = []
        for space in (PysolPhaseSpace(table, holds=holds), NativePhaseSpace(table, holds=holds)):
            playout = space.greedy_phase if playouts else None
            out = beam_search(space, space.cards_down, width, Limits(node_limit=6_000), seed, space.deferred(), playout)
            outs.append((out.verdict, out.nodes, out.limit, space.moves(out.steps)))
        assert outs[0] == outs[1], (number, width)
        if outs[1][0] == WON:
            won += 1
            assert referee(PYSOL, table.deal, outs[1][3]).won, number
    assert won >= 2, won


@pytest.mark.slow  # the quick tier keeps the compiled phases, below
def test_finishing_beams_over_the_compiled_phases_are_the_python_ones() -> None:
    """The hand-overs to the exact search happen at the same states, with the same results."""
    handed = 0
    for number in (8, 9, 10):
        table = table_of(number)
        outs = []
        for space in (PysolFinishSpace(table, holds=3), NativeFinishSpace(table, holds=3)):
            out = finishing_beam(space, 2, Limits(node_limit=100_000), 0, True, 1_500)
            outs.append((out.verdict, out.nodes, out.states, [o.verdict for o in space.finished], space.moves(out.steps)))
        assert outs[0] == outs[1], number
        handed += len(outs[1][3])
    assert handed >= 2, handed


@pytest.mark.slow
def test_the_quick_stages_run_over_the_compiled_phases_and_find_the_same_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    for number in (1, 7, 8):
        cards = table_of(number).deal
        monkeypatch.setenv(core.PURE_VARIABLE, "1")
        pure = GAME.solve(PYSOL, cards, Limits(node_limit=8_000))
        monkeypatch.delenv(core.PURE_VARIABLE)
        native = GAME.solve(PYSOL, cards, Limits(node_limit=8_000))
        assert (native.verdict, native.states, native.moves, native.found_by) == (pure.verdict, pure.states, pure.moves, pure.found_by)
    assert isinstance(Stage("beam", PysolPhaseSpace, 4, holds=2).build(table_of(1)), NativePhaseSpace)


@settings(max_examples=examples(150), deadline=None)
@given(number=st.integers(1, 50), junk=st.binary(max_size=300), cut=st.integers(0, 400))
def test_the_compiled_phases_refuse_what_no_state_of_the_deal_looks_like(number: int, junk: bytes, cut: int) -> None:
    space = NativePhaseSpace(table_of(number))
    start = space.start()
    for state in (junk, start[:cut] + junk):
        try:
            ends = space.core.phase(state, True)
        except ValueError:
            continue
        assert all(isinstance(step, bytes) and isinstance(end, bytes) for step, end in ends)


def test_a_state_with_holds_out_of_order_or_twice_is_refused() -> None:
    """PysolSpace.key writes each list of holds sorted, one hold a place: anything else is
    not a state (and would leave no room for the next hold)."""
    space = PysolSpace(table_of(1))
    native = NativePhaseSpace(table_of(1))
    start = space.key(space.start())
    assert isinstance(start, bytes)
    base = start[:-1]  # the start holds nothing: its frozen list's end is the last byte
    twice_frozen = base + bytes([0, 0, 0]) * 104 + bytes([255])
    twice_passed = base + bytes([255]) + bytes([0, 0]) * 104
    out_of_order = base + bytes([255, 1, 0, 0, 0])
    for state in (twice_frozen, twice_passed, out_of_order):
        call = space.native()
        assert call is not None
        with pytest.raises(ValueError):
            call.func(state, *call.args[1:], **LIMIT_ARGS)
        with pytest.raises(ValueError):
            native.core.phase(state, True)
    with pytest.raises(ValueError):
        NativePhaseSpace(table_of(1), holds=-1)


def test_max_states_holds_exactly_that_many_states_in_both_searches() -> None:
    """Lost positions late in random lines (every state searched, so of known size): a state
    limit below the size stops both searches at exactly that many distinct states."""
    rng = random.Random("pysol known sizes")
    sizes = []
    for n in range(400):
        table, pos, _ = random_position(rng.randrange(1, 10**6), n, rng.randrange(PILES - 4, PILES + 1))
        whole = solve(PysolSpace(table, pos), Limits(max_states=None, node_limit=20_000), compiled=False)
        if whole.verdict != LOST or whole.states < 20:
            continue
        sizes.append(whole.states)
        for cap in {1, 2, whole.states - 1, rng.randrange(1, whole.states)}:
            pure, native = both(PysolSpace(table, pos), Limits(max_states=cap))
            assert_same(pure, native, (n, cap))
            assert pure.verdict == UNKNOWN and pure.states == cap
        pure, native = both(PysolSpace(table, pos), Limits(max_states=whole.states))
        assert pure.verdict == native.verdict == LOST and pure.states == native.states == whole.states
        if len(sizes) == 8:
            break
    assert len(sizes) == 8, sizes


@pytest.mark.slow
def test_the_census_counts_every_state_a_lost_search_expands_and_changes_nothing() -> None:
    """The census benchmarks/proof_cost.py asks of the core (states by deals and redeals,
    cards down and holds) leaves the search's answer as it is, and a single pass that
    proves a position lost counts each state it holds once."""
    lost = 0
    for n in range(40):
        table, pos, _ = random_position(1 + n * 7919, n, 4 + n % 8)
        space = PysolSpace(table, pos)
        args = (space.key(space.start()), *space.core_rules())
        limits = {"node_limit": 50_000, "time_limit": None, "max_states": None, "first_pass": None}
        plain = core._core.search_pysol(*args, **limits)
        counted, counts = core._core.search_pysol(*args, **limits, census=True)
        assert counted == plain
        cells = memoryview(counts).cast("q")
        assert len(cells) == (6 + 16 + 1) * (DECK + 1) * 4 and min(cells) >= 0
        if plain[0] == LOST.value:
            lost += 1
            assert sum(cells) == plain[2], (n, sum(cells), plain[2])
    assert lost >= 5, lost

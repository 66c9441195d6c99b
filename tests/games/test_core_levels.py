"""The search by levels (pysol_levels.py) against the depth-first exact search: the same
verdict and, for a loss, the same states, while holding fewer; its limits; its checkpoints,
resumed after a stop or a kill -9 to the same proof; bad input."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.test_core_pysol import random_position, table_of
from tests.tiers import examples
from wedlock.basics import compiled as core
from wedlock.games.matrimony.deal import LAYOUT
from wedlock.games.matrimony.play import Position, Table
from wedlock.games.matrimony.pysol_levels import search_by_levels
from wedlock.games.matrimony.pysol_space import PysolPhaseSpace, PysolSpace
from wedlock.games.matrimony.rules import PILES
from wedlock.search.exhaustive import LOST, WON, Limits, solve

pytestmark = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")
ONE_PASS = Limits(max_states=None, node_limit=60_000, first_pass=None)


@pytest.fixture(autouse=True)
def core_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(core.PURE_VARIABLE, raising=False)


@settings(max_examples=examples(60), deadline=None)
@given(number=st.integers(1, 10**9), seed=st.integers(0, 10**6), rounds=st.integers(3, PILES))
def test_the_same_verdict_as_the_depth_first_search_and_for_a_loss_the_same_states(number: int, seed: int, rounds: int) -> None:
    table, pos, _ = random_position(number, seed, rounds)
    deep = solve(PysolSpace(table, pos), ONE_PASS)
    wide = search_by_levels(PysolSpace(table, pos), Limits(max_states=None, node_limit=300_000))
    assert 1 <= wide.peak <= wide.states
    if deep.verdict == LOST:
        assert (wide.verdict, wide.states, wide.limit) == ("lost", deep.states, None)
    elif deep.verdict == WON:
        assert wide.verdict in ("won", "unknown")  # never lost where a win exists
        assert wide.verdict == "won" or wide.limit == "node_limit"


def test_losses_of_thousands_of_states_agree_and_hold_a_fraction() -> None:
    """Positions of random lines a few redeals in, proven lost by both: the same states,
    and the levels held at once are fewer than all of them."""
    rng = random.Random("levels")
    big = 0
    for n in range(200):
        table, pos, _ = random_position(rng.randrange(1, 10**6), n, rng.randrange(1, 5))
        deep = solve(PysolSpace(table, pos), Limits(max_states=None, node_limit=300_000, first_pass=None))
        if deep.verdict != LOST or deep.states < 2_000:
            continue
        wide = search_by_levels(PysolSpace(table, pos), Limits(max_states=None))
        assert (wide.verdict, wide.states) == ("lost", deep.states)
        assert wide.peak < deep.states / 2, (wide.peak, deep.states)
        big += 1
        if big == 3:
            break
    assert big == 3


def test_max_states_bounds_the_states_held_and_time_ends_it_unknown() -> None:
    rng = random.Random("levels limits")
    for n in range(200):
        table, pos, _ = random_position(rng.randrange(1, 10**6), n, 2)
        whole = search_by_levels(PysolSpace(table, pos), Limits(max_states=None, node_limit=200_000))
        if whole.verdict == "lost" and whole.peak >= 50:
            break
    else:
        pytest.fail("no lost position held 50 states")
    cut = search_by_levels(PysolSpace(table, pos), Limits(max_states=whole.peak - 1))
    assert (cut.verdict, cut.limit) == ("unknown", "max_states") and cut.peak == whole.peak - 1
    room = search_by_levels(PysolSpace(table, pos), Limits(max_states=whole.peak + 1))
    assert (room.verdict, room.states) == ("lost", whole.states)
    ended = search_by_levels(PysolSpace(table_of(12), None), Limits(time_limit=0, max_states=None))
    assert ended.verdict in ("unknown", "won") and (ended.verdict == "won" or ended.limit in ("time_limit", None))


def test_a_bad_state_is_refused() -> None:
    space = PysolSpace(table_of(1))
    with pytest.raises(ValueError):
        core._core.search_pysol(b"\x01\x02", *space.core_rules(), node_limit=None, time_limit=None, max_states=None, first_pass=None, layered=True)
    with pytest.raises(ValueError, match="census"):
        core._core.search_pysol(
            space.key(space.start()), *space.core_rules(), node_limit=1, time_limit=None, max_states=None, first_pass=None, census=True, layered=True
        )


def greedy_position(number: int, deals: int) -> tuple[Table, Position]:
    """Deal `number` after `deals` deals of the exact space's first (greedy) line."""
    table = table_of(number)
    space = PysolPhaseSpace(table)
    state = space.start()
    while state.pos.stock < LAYOUT + PILES * deals:
        state = next(space.greedy_phase(state))[1]
    return table, state.pos


def test_a_search_stopped_again_and_again_resumes_to_the_same_proof(tmp_path: Path) -> None:
    table, pos = greedy_position(2224, 5)
    straight = search_by_levels(PysolSpace(table, pos), Limits(max_states=None))
    assert straight.verdict == "lost" and straight.states > 100_000
    checkpoint, stops = tmp_path / "proof.levels", 0
    for limit in range(20_000, straight.states, 40_000):
        cut = search_by_levels(PysolSpace(table, pos), Limits(max_states=None, node_limit=limit), checkpoint, every=0)
        assert cut.verdict == "unknown" and checkpoint.exists()
        stops += 1
    resumed = search_by_levels(PysolSpace(table, pos), Limits(max_states=None), checkpoint, every=0)
    assert resumed == straight and stops >= 3
    assert not checkpoint.exists()  # a verdict ends the checkpoint's use


KILLED = """
import sys
from pathlib import Path
from tests.games.test_core_levels import greedy_position
from wedlock.games.matrimony.pysol_levels import search_by_levels
from wedlock.games.matrimony.pysol_space import PysolSpace
from wedlock.search.exhaustive import Limits
table, pos = greedy_position(2224, 5)
search_by_levels(PysolSpace(table, pos), Limits(max_states=None), Path(sys.argv[1]), every=0)
"""


def test_a_search_killed_outright_resumes_from_its_last_checkpoint(tmp_path: Path) -> None:
    table, pos = greedy_position(2224, 5)
    straight = search_by_levels(PysolSpace(table, pos), Limits(max_states=None))
    checkpoint = tmp_path / "proof.levels"
    child = subprocess.Popen([sys.executable, "-c", KILLED, str(checkpoint)], cwd=Path(__file__).resolve().parents[2])
    ends = time.monotonic() + 60
    while not checkpoint.exists() and child.poll() is None and time.monotonic() < ends:
        time.sleep(0.01)
    time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert checkpoint.exists(), "the search ended before its first checkpoint"
    resumed = search_by_levels(PysolSpace(table, pos), Limits(max_states=None), checkpoint, every=0)
    assert resumed == straight


def test_a_file_that_is_not_this_searchs_checkpoint_is_refused(tmp_path: Path) -> None:
    table, pos = greedy_position(2224, 5)
    other = tmp_path / "other.levels"
    search_by_levels(PysolSpace(table, pos), Limits(max_states=None, node_limit=30_000), other, every=0)
    _, elsewhere = greedy_position(2224, 4)
    with pytest.raises(ValueError, match="is not a checkpoint of this search"):
        search_by_levels(PysolSpace(table, elsewhere), Limits(max_states=None), other)
    junk = tmp_path / "junk.levels"
    for text in (b"", b"WDLKLV01", b"not a checkpoint at all" * 10, other.read_bytes()[:-9]):
        junk.write_bytes(text)
        with pytest.raises(ValueError, match="is not a checkpoint of this search"):
            search_by_levels(PysolSpace(table, pos), Limits(max_states=None), junk)
    with pytest.raises(OSError, match="could not write the checkpoint"):
        search_by_levels(PysolSpace(table, pos), Limits(max_states=None), tmp_path / "no such folder" / "x.levels", every=0)

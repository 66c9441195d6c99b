"""The beam search: it finds wins a narrower beam misses, its playouts find more, and it never claims a loss."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wedlock.search import beam
from wedlock.search.beam import Deferred, beam_search
from wedlock.search.exhaustive import LOST, UNKNOWN, WON, Limits, solve


class Ladder:
    """States (depth, rungs): each step adds 0, 1 or 2 rungs; a state is won at depth
    `depth` with exactly `goal` rungs. Scoring by rungs leads a narrow beam astray when
    the goal is low."""

    acyclic = True  # every step goes one deeper

    def __init__(self, depth: int, goal: int) -> None:
        self.depth, self.goal = depth, goal

    def start(self) -> tuple[int, int]:
        return (0, 0)

    def successors(self, state):
        d, r = state
        if d < self.depth:
            for up in (2, 1, 0):
                yield up, (d + 1, r + up)

    def is_won(self, state) -> bool:
        return state == (self.depth, self.goal)

    def key(self, state):
        return state


def rungs(state) -> float:
    return state[1]


def replay(space: Ladder, steps) -> tuple[int, int]:
    d, r = space.start()
    for up in steps:
        d, r = d + 1, r + up
    return d, r


def test_a_wider_beam_finds_what_a_narrow_one_misses() -> None:
    space = Ladder(depth=6, goal=1)
    narrow = beam_search(space, rungs, width=1)
    assert narrow.verdict == UNKNOWN and "found no win" in narrow.reason
    wide = beam_search(space, rungs, width=13)  # every (depth, rungs) of a layer
    assert wide.verdict == WON
    assert replay(space, wide.steps) == (6, 1)


def test_no_win_is_unknown_never_lost() -> None:
    space = Ladder(depth=4, goal=99)
    assert solve(space, Limits(first_pass=None)).verdict == LOST
    out = beam_search(space, rungs, width=100)
    assert out.verdict == UNKNOWN


def test_limits_stop_a_beam() -> None:
    out = beam_search(Ladder(depth=50, goal=-1), rungs, width=100, limits=Limits(node_limit=40))
    assert out.verdict == UNKNOWN and out.reason == "node limit 40 reached" and out.limit == "node_limit"
    assert out.nodes == 40
    out = beam_search(Ladder(depth=10_000, goal=-1), rungs, width=100, limits=Limits(time_limit=0.0))
    assert out.verdict == UNKNOWN and out.reason.startswith("time limit") and out.limit == "time_limit"


def test_the_exact_search_names_the_limit_that_stopped_it() -> None:
    space = Ladder(depth=12, goal=-1)  # 169 distinct states, no win
    whole = solve(space, Limits(first_pass=None))
    assert (whole.verdict, whole.limit) == (LOST, None)
    for limits, name in (
        (Limits(node_limit=10), "node_limit"),
        (Limits(max_states=50), "max_states"),
        (Limits(time_limit=0.0), "time_limit"),
    ):
        out = solve(space, replace(limits, first_pass=None))
        assert (out.verdict, out.limit) == (UNKNOWN, name)


def test_max_states_bounds_every_state_a_beam_generates() -> None:
    # A beam keeps no table: each state it generates counts as one, as the portfolio adds them up.
    space = Ladder(depth=50, goal=-1)
    free = beam_search(space, rungs, width=100)
    assert free.reason == "a beam 100 wide found no win" and free.states == free.nodes
    for cap in (1, 100, free.nodes - 1):
        out = beam_search(space, rungs, width=100, limits=Limits(max_states=cap))
        assert (out.verdict, out.reason, out.limit) == (UNKNOWN, f"state limit {cap:,} reached", "max_states")
        assert out.states == out.nodes == cap
    assert beam_search(space, rungs, width=100, limits=Limits(max_states=free.nodes + 1)).reason == free.reason


def test_a_playout_stops_at_the_state_limit() -> None:
    # One playout here passes 29 states: at max_states=20 it ends there, and the beam with it.
    space = Ladder(depth=30, goal=-1)
    free = beam_search(space, rungs, width=2, playout=climbing_first(space, 1))
    assert free.reason == "a beam 2 wide found no win" and free.nodes > 40
    capped = beam_search(space, rungs, width=2, limits=Limits(max_states=20), playout=climbing_first(space, 1))
    assert (capped.limit, capped.states, capped.nodes) == ("max_states", 20, 20)


def test_a_zero_width_is_refused() -> None:
    with pytest.raises(ValueError):
        beam_search(Ladder(3, 0), rungs, width=0)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.integers(0, 14), st.integers(1, 20), st.integers(0, 5))
def test_beam_wins_are_wins_and_a_full_width_beam_is_exhaustive(depth: int, goal: int, width: int, seed: int) -> None:
    space = Ladder(depth, goal)
    winnable = 0 <= goal <= 2 * depth
    out = beam_search(space, rungs, width, seed=seed)
    assert out.verdict in (WON, UNKNOWN)
    if out.verdict == WON:
        assert winnable and replay(space, out.steps) == (depth, goal)
    if width >= 2 * depth + 1:  # no layer holds more states than that: nothing is dropped
        assert out.verdict == (WON if winnable else UNKNOWN)
    again = beam_search(space, rungs, width, seed=seed)
    assert (again.verdict, again.steps) == (out.verdict, out.steps)


class FencedLadder(Ladder):
    """The ladder without its states above `fence` rungs, which cannot be won."""

    def __init__(self, depth: int, goal: int, fence: int) -> None:
        super().__init__(depth, goal)
        self.fence = fence

    def viable(self, state) -> bool:
        return state[1] <= self.fence

    def open_successors(self, state):
        return super().successors(state)

    def successors(self, state):
        return (edge for edge in self.open_successors(state) if self.viable(edge[1]))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.integers(0, 14), st.integers(1, 6), st.integers(0, 14))
def test_a_deferred_test_keeps_the_layers_the_filtered_space_gives(depth: int, goal: int, width: int, fence: int) -> None:
    # One layer's states differ in rungs, so no tie-break can tell the two beams apart.
    fenced = FencedLadder(depth, goal, fence)
    filtered = beam_search(fenced, rungs, width)
    deferred = beam_search(fenced, rungs, width, deferred=Deferred(fenced.open_successors, fenced.viable))
    assert (deferred.verdict, deferred.steps) == (filtered.verdict, filtered.steps)


def test_a_deferred_test_runs_only_on_the_states_a_beam_keeps() -> None:
    space = Ladder(depth=6, goal=-1)
    tested = []

    def viable(state) -> bool:
        tested.append(state)
        return True

    assert beam_search(space, rungs, width=2, deferred=Deferred(space.successors, viable)).verdict == UNKNOWN
    # Six layers (depths 1-6), each with more than two states, of which the beam keeps two.
    assert sorted(tested) == [(d, r) for d in range(1, 7) for r in (2 * d - 1, 2 * d)]


def climbing_first(space: Ladder, climb: int):
    """A playout rule for the ladder: the step of `climb` rungs first (its successors try
    two first)."""

    def rule(state):
        return sorted(space.successors(state), key=lambda edge: edge[0] != climb)

    return rule


def test_playouts_find_the_win_a_plain_beam_of_the_same_width_misses() -> None:
    space = Ladder(depth=6, goal=6)
    assert beam_search(space, rungs, width=1).verdict == UNKNOWN  # it keeps climbing two rungs
    out = beam_search(space, rungs, width=1, playout=climbing_first(space, 1))
    assert out.verdict == WON
    assert replay(space, out.steps) == (6, 6)
    assert out.nodes == 2 * (1 + 5)  # children (1, 2) and (1, 1), each with a five-step playout


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.integers(0, 14), st.integers(1, 20), st.integers(0, 5), st.sampled_from([0, 1, 2]))
def test_playout_wins_are_wins_and_a_full_width_beam_stays_exhaustive(depth, goal, width, seed, climb) -> None:
    space = Ladder(depth, goal)
    winnable = 0 <= goal <= 2 * depth
    out = beam_search(space, rungs, width, seed=seed, playout=climbing_first(space, climb))
    assert out.verdict in (WON, UNKNOWN)
    if out.verdict == WON:
        assert winnable and replay(space, out.steps) == (depth, goal)
    if width >= 2 * depth + 1:
        assert out.verdict == (WON if winnable else UNKNOWN)


def test_playouts_count_towards_the_node_limit() -> None:
    space = Ladder(depth=50, goal=-1)
    out = beam_search(space, rungs, width=1, limits=Limits(node_limit=20), playout=climbing_first(space, 1))
    assert out.verdict == UNKNOWN and out.reason == "node limit 20 reached"
    assert 20 <= out.nodes < 20 + 50  # the first child's playout alone is 49 steps


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.integers(0, 14), st.integers(1, 6), st.integers(0, 3))
def test_forgetting_playout_ends_changes_no_answer(depth: int, goal: int, width: int, seed: int) -> None:
    # The playout ends are a cache, cleared when it grows past PLAYOUT_ENDS_KEPT.
    space = Ladder(depth, goal)
    kept = beam_search(space, rungs, width, seed=seed, playout=climbing_first(space, 1))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(beam, "PLAYOUT_ENDS_KEPT", 2)
        forgetful = beam_search(space, rungs, width, seed=seed, playout=climbing_first(space, 1))
    assert (forgetful.verdict, forgetful.steps) == (kept.verdict, kept.steps)
    assert forgetful.nodes >= kept.nodes

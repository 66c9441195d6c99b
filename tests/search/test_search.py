"""The game-agnostic search: restarts only where the space says it has no cycles."""

from __future__ import annotations

import pytest

from wedlock.basics.errors import LimitError
from wedlock.search.exhaustive import LOST, UNKNOWN, Limits, solve


class Ring:
    """States 0..size-1 on a ring (each leads to the next two, the last back to the first):
    nothing wins, and every state can come back to itself. `root_visits` counts how often
    the search asks for the start's successors: once per search pass."""

    def __init__(self, size: int, acyclic: bool) -> None:
        self.size, self.acyclic, self.root_visits = size, acyclic, 0

    def start(self) -> int:
        return 0

    def successors(self, state: int):
        if state == 0:
            self.root_visits += 1
        return [(1, (state + 1) % self.size), (2, (state + 2) % self.size)]

    def is_won(self, state: int) -> bool:
        return False

    def key(self, state: int) -> int:
        return state


def test_a_space_with_cycles_is_searched_in_one_pass_whatever_the_limits_say() -> None:
    ring = Ring(1_000, acyclic=False)
    out = solve(ring, Limits(first_pass=16))
    assert out.verdict == LOST and out.states == 1_000
    assert ring.root_visits == 1


def test_an_acyclic_space_is_searched_with_restarts() -> None:
    ring = Ring(1_000, acyclic=True)  # a false claim, to see the restarts it allows
    solve(ring, Limits(first_pass=16))
    assert ring.root_visits > 1


class Tree:
    """A full binary tree of `size` states (1 is the root, n leads to 2n and 2n + 1):
    nothing wins, so an exhaustive search holds every state."""

    acyclic = True

    def __init__(self, size: int) -> None:
        self.size = size

    def start(self) -> int:
        return 1

    def successors(self, state: int):
        return [(child, child) for child in (2 * state, 2 * state + 1) if child <= self.size]

    def is_won(self, state: int) -> bool:
        return False

    def key(self, state: int) -> int:
        return state


@pytest.mark.parametrize("first_pass", [None, 1, 64])
@pytest.mark.parametrize("cap", [1, 2, 3, 1_000, 8_190])
def test_max_states_holds_exactly_that_many_distinct_states(cap: int, first_pass: int | None) -> None:
    whole = solve(Tree(8_191), Limits(max_states=None, first_pass=first_pass))
    assert whole.verdict == LOST and whole.states == 8_191
    out = solve(Tree(8_191), Limits(max_states=cap, first_pass=first_pass))
    assert out.verdict == UNKNOWN and out.limit == "max_states" and out.states == cap


def test_a_state_limit_the_space_fits_in_is_no_limit() -> None:
    assert solve(Tree(8_191), Limits(max_states=8_191)).verdict == LOST


@pytest.mark.parametrize(
    "limits",
    [{"first_pass": 0}, {"first_pass": -1}, {"max_states": -1}, {"node_limit": 2**63}, {"max_states": 1.5},
     {"time_limit": float("nan")}, {"time_limit": -1}, {"time_limit": "1"}, {"first_pass": True}],
)
def test_limits_that_cannot_be_kept_are_refused(limits: dict) -> None:
    with pytest.raises(LimitError):
        Limits(**limits)

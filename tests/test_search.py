"""The game-agnostic search: restarts only where the space says it has no cycles."""

from __future__ import annotations

from wedlock.search import LOST, Limits, solve


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

"""The two-suit relaxation (pysol_tangle.py) against a brute force of the same puzzle.

The relaxation's search plays some cards without branching and prefers a pile's copy to an
outside one; the brute force below tries every play at every step. On small random puzzles
(two suits near the end, their cards spread over a few settled piles and the outside) the
two must give the same answer.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tiers import examples
from wedlock.games.matrimony.pysol_dead import _after, _wanted
from wedlock.games.matrimony.pysol_tangle import DONE, Tangles
from wedlock.games.matrimony.rules import RULE_SETS

PYSOL = RULE_SETS["pysol"]


def tangles() -> Tangles:
    rules = PYSOL
    rank_in = [[255] * 52 for _ in rules.takes]
    for f, codes in enumerate(rules.takes):
        for k, code in enumerate(codes):
            rank_in[f][code] = k
    return Tangles(rules.jack_down, rules.queen_up, rank_in, budget=10**9)


def brute_force(puzzle: Tangles, chains: tuple[bytes, ...], suits: tuple, cap: int = 200_000) -> bool | None:
    """Whether every card can be played, trying every play; None past `cap` states."""
    free = tuple(puzzle._free(chains, suits))
    seen: set = set()

    def solvable(taken: tuple, suits: tuple, free: tuple) -> bool:
        if all(s == DONE for s in suits):
            return True
        if (taken, suits, free) in seen:
            return False
        if len(seen) > cap:
            raise OverflowError
        seen.add((taken, suits, free))
        for s, (d, u) in enumerate(suits):
            if (d, u) == DONE:
                continue
            for x in _wanted(d, u):
                code = puzzle.code[s][x]
                after = suits[:s] + (_after(d, u, x),) + suits[s + 1 :]
                for i, chain in enumerate(chains):
                    if taken[i] < len(chain) and chain[taken[i]] == code:
                        if solvable(taken[:i] + (taken[i] + 1,) + taken[i + 1 :], after, free):
                            return True
                if free[code] and solvable(taken, after, free[:code] + (free[code] - 1,) + free[code + 1 :]):
                    return True
        return False

    try:
        return solvable(tuple(0 for _ in chains), suits, free)
    except OverflowError:
        return None


def suit_state(rng: random.Random, left: int) -> tuple[int, int]:
    """Counts (down, up) with about `left` cards of the suit still to play."""
    total = 26 - left
    if total == 13:
        return (0, 13)
    if total < 13:
        d = rng.randint(0, total)
        return (d, total - d)
    d = rng.randint(total - 13, 13)
    return (d, total - d)


def play_order(puzzle: Tangles, rng: random.Random, suits: tuple) -> list[int]:
    """The codes of one random order in which the foundations could take the suits' cards."""
    order, suits = [], list(suits)
    while any(s != DONE for s in suits):
        s = rng.choice([s for s in range(4) if suits[s] != DONE])
        x = rng.choice(_wanted(*suits[s]))
        order.append(puzzle.code[s][x])
        suits[s] = _after(*suits[s], x)
    return order


@settings(max_examples=examples(500), deadline=None)
@given(st.integers(0, 10**9), st.integers(8, 18), st.integers(2, 4), st.booleans())
def test_the_relaxation_agrees_with_a_brute_force(seed: int, left: int, piles: int, swap: bool) -> None:
    # Two suits' cards go into the piles so that one order of play works (each pile's top
    # card comes first in it); then, half the time, two cards change places.
    rng = random.Random(seed)
    puzzle = tangles()
    pair = rng.sample(range(4), 2)
    suits = tuple(suit_state(rng, left if s == pair[0] else rng.randint(3, left)) if s in pair else DONE for s in range(4))
    stacks: list[list[int]] = [[] for _ in range(piles)]
    for code in reversed(play_order(puzzle, rng, suits)):
        where = rng.randrange(piles + 1)
        if where < piles:
            stacks[where].append(code)  # bottom first; else the card stays outside the piles
    cards = [(i, j) for i, stack in enumerate(stacks) for j in range(len(stack))]
    if swap and len(cards) >= 2:
        (i, j), (k, m) = rng.sample(cards, 2)
        stacks[i][j], stacks[k][m] = stacks[k][m], stacks[i][j]
    chains = tuple(sorted(bytes(reversed(stack)) for stack in stacks if stack))
    expected = brute_force(puzzle, chains, suits)
    if expected is not None:
        assert puzzle._solvable(chains, suits) == expected, (chains, suits)

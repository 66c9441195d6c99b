"""A sound "lost" test for PySolFC's Matrimony: one suit at a time, over the settled piles.

Settled piles. Once the stock is empty and a pile's redeal turn has passed, the pile is
never picked up again: cards leave it only by being played, from the top, and new cards
only land on top. So of two cards in it now, the upper one is played first, whatever
happens later.

The relaxation. Take one suit. Keep, of every settled pile, the suit's cards in their
order (the upper one must be played first); let every other card of the suit (in the
stock or in a pile still to be redealt) be playable at any moment; forget the other suits.
Every winning line of the real game, read for this suit only, is a line of this puzzle:
its plays of the suit come in an order the foundations take, and each card from a settled
pile comes after the suit's cards above it there. So if the puzzle cannot be solved for
some suit, the position is lost.

The puzzle is solved by a small depth-first search over (cards taken from each settled
pile, free copies left, the suit's foundation counts); `_solvable` says which plays it
makes without branching, and why.
"""

from __future__ import annotations

from typing import Sequence

from .play import Position
from .rules import DECK, FOUNDATION_CARDS, PILES

Chains = tuple[bytes, ...]  # per settled pile holding the suit: its places (0..12), top card first


class SuitPuzzle:
    """The one-suit relaxation for every suit of one rule set's foundations."""

    def __init__(self, down: Sequence[int], up: Sequence[int], rank_in: Sequence[Sequence[int]]) -> None:
        # place[code]: where the card stands in the up foundation's order Q K A 2 .. J (0..12).
        self.down, self.up = list(down), list(up)
        self.place = [rank_in[up[code // 13]][code] for code in range(52)]
        self._cache: dict = {}

    def dead(self, pos: Position) -> bool:
        """Whether some suit cannot be finished even in the one-suit relaxation."""
        if pos.stock < DECK or not pos.rounds:
            return False  # no pile is settled yet
        settled = pos.piles[PILES - pos.rounds :]
        counts = pos.foundations
        place = self.place
        for s in range(4):
            d, u = counts[self.down[s]], counts[self.up[s]]
            if d == u == FOUNDATION_CARDS:
                continue
            low, high = 13 * s, 13 * s + 13
            chains = tuple(
                bytes(place[c] for c in reversed(pile) if low <= c < high) for pile in settled
            )
            chains = tuple(sorted(c for c in chains if c))
            key = (chains, d, u)
            answer = self._cache.get(key)
            if answer is None:
                free = _free_copies(chains, d, u)
                answer = free is not None and _solvable(chains, free, d, u)
                if len(self._cache) > 200_000:
                    self._cache.clear()
                self._cache[key] = answer
            if not answer:
                return True
        return False


def _on_foundations(d: int, u: int) -> list[int]:
    """Copies of each place on the suit's foundations, from its (down, up) counts: up holds
    places 0..u-1, down places 12 down to 13-d (past the centre the two overlap)."""
    return [(x < u) + (x >= 13 - d) for x in range(13)]


def _free_copies(chains: Chains, d: int, u: int) -> list[int] | None:
    """Copies of each place neither on the foundations nor in a settled pile (None if the
    counts are impossible, which never happens in a real position)."""
    free = [2 - n for n in _on_foundations(d, u)]
    for chain in chains:
        for x in chain:
            free[x] -= 1
    return None if min(free) < 0 else free


def _wanted(d: int, u: int) -> tuple[int, ...]:
    """The places the suit's foundations take next; at exactly 13 cards, any place."""
    if d + u == FOUNDATION_CARDS:
        return tuple(range(13))
    out = []
    if u < 13:
        out.append(u)
    if d < 13 and 12 - d != u:
        out.append(12 - d)
    return tuple(out)


def _after(d: int, u: int, x: int) -> tuple[int, int]:
    """The counts once a card at place x (wanted) is played; 13 cards are written (0, 13)."""
    if d + u == FOUNDATION_CARDS:
        return 13 - x, x + 1
    if x == u:
        u += 1
    else:
        d += 1
    return (0, 13) if d + u == FOUNDATION_CARDS else (d, u)


def _solvable(chains: Chains, free: list[int], d: int, u: int) -> bool:
    """Whether every card of the suit can be played: chains from the top, free cards at will.

    A free copy is played only when no chain's top card holds that place: playing the
    chain's copy instead never does worse. (Proof: take a solution that plays the free copy
    now; play the chain's copy now instead, and later, where that solution plays the chain's
    copy, play the free one, which is still free. The foundations go through the same counts,
    and the chain is uncovered sooner.) Everything else branches: which end, which chain
    top of a place, and at 13 cards which place becomes the centre.
    """
    seen: set = set()
    todo = [(tuple(0 for _ in chains), tuple(free), d, u)]
    while todo:
        taken, free_t, d, u = todo.pop()
        if (d, u) == (13, 13):
            return True
        state = (taken, free_t, d, u)
        if state in seen:
            continue
        seen.add(state)
        for x in _wanted(d, u):
            tops = [i for i, chain in enumerate(chains) if taken[i] < len(chain) and chain[taken[i]] == x]
            if tops:
                for i in tops:
                    todo.append((taken[:i] + (taken[i] + 1,) + taken[i + 1 :], free_t, *_after(d, u, x)))
            elif free_t[x]:
                todo.append((taken, free_t[:x] + (free_t[x] - 1,) + free_t[x + 1 :], *_after(d, u, x)))
    return False

"""A sound "lost" test for PySolFC's Matrimony that sees across suits: two suits at a
time over the settled piles.

pysol_dead.py looks at one suit at a time, so it misses a tangle of two suits such as
this one: a settled pile holds 2♦ above J♣ above 4♠, another holds 7♠ above J♥ above 3♦,
and both other copies of the cards involved are gone. 2♦ waits for 3♦, which waits for 7♠
to leave, which waits for 4♠, which lies under 2♦.

The relaxation. Take two suits. Keep, of every settled pile (see pysol_dead.py), the two
suits' cards in their order; let every other card of the two suits (in the stock or in a
pile still to be redealt) be playable at any moment; forget the other suits and the holds
of PysolSpace (which only forbid lines). Every winning line of the real game, read for the
two suits, is a line of this puzzle, so if the puzzle has no solution for some pair of
suits, the position is lost. (All four suits at once would see more, but their puzzle
grows as the product of four suits' progress; two suits keep it small.)

The search. Depth-first over (cards taken from each settled pile, each suit's counts), with
three kinds of play made without branching (`_forced`):
- past a suit's centre, a card its foundations take next: only one copy of it is left,
  so every solution plays this one there, and playing it sooner neither changes what the
  suit's other end takes nor covers anything;
- below 13 cards, a card X one end takes next that is in no settled pile: the place can
  only be filled by a copy from outside the piles, any solution may as well use it now
  (the free copy changes nothing in the piles), and the other end takes other cards;
- below 13 cards, a card X one end takes next, on top of a settled pile, whose other copy
  is outside the piles: a solution uses the two copies for X's place now or later and for
  X's second copy; give the pile's copy the first use, now, and the outside copy the other
  one, which it can fill at any time. The pile is uncovered sooner, and filling X's place
  sooner changes nothing at the suit's other end.
Everything else branches: for each place a suit takes next, each settled pile whose top
card is that card, or when no top is, a copy from outside (taking a pile's copy rather
than an outside one never does worse: the outside copy can stand in for it later, and the
pile is uncovered sooner). At exactly 13 cards, any place of the suit may be the centre.
The search gives up (cutting nothing) after TANGLE_STATES states.
"""

from __future__ import annotations

from collections.abc import Sequence

from .play import Position
from .pysol_dead import _after, _on_foundations, _wanted
from .rules import DECK, FOUNDATION_CARDS, PILES

TANGLE_STATES = 3_000  # puzzle states one test may visit before it gives up (and cuts nothing)
DONE = (FOUNDATION_CARDS, FOUNDATION_CARDS)
EMPTY = 255  # the top of a pile with nothing left
PAIRS = tuple((a, b) for a in range(4) for b in range(a + 1, 4))


class Tangles:
    """The two-suit relaxation for one rule set's foundations."""

    def __init__(self, down: Sequence[int], up: Sequence[int], rank_in: Sequence[Sequence[int]], budget: int = TANGLE_STATES) -> None:
        self.down, self.up = list(down), list(up)
        self.code = [[0] * 13 for _ in range(4)]  # code[suit][place in the up order Q K A .. J]
        for code in range(52):
            self.code[code // 13][rank_in[up[code // 13]][code]] = code
        self.budget = budget
        self._cache: dict = {}

    def dead(self, pos: Position) -> bool:
        """Whether the settled piles tangle two suits so that no line can win."""
        if pos.stock < DECK or pos.rounds < 2:
            return False  # one settled pile is the one-suit test's business
        settled = [bytes(reversed(pile)) for pile in pos.piles[PILES - pos.rounds :]]
        suits = tuple((pos.foundations[self.down[s]], pos.foundations[self.up[s]]) for s in range(4))
        for pair in PAIRS:
            if any(suits[s] == DONE for s in pair):
                continue
            chains = tuple(sorted(c for c in (bytes(x for x in pile if x // 13 in pair) for pile in settled) if c))
            if len(chains) < 2:
                continue  # a tangle needs two piles
            kept = tuple(suits[s] if s in pair else DONE for s in range(4))
            key = (chains, kept)
            answer = self._cache.get(key)
            if answer is None:
                answer = not self._solvable(chains, kept)
                if len(self._cache) > 100_000:
                    self._cache.clear()
                self._cache[key] = answer
            if answer:
                return True
        return False

    def _free(self, chains: tuple[bytes, ...], suits: tuple) -> list[int]:
        """Copies of each card neither on the foundations nor in a settled pile."""
        free = [2] * 52
        for s, (d, u) in enumerate(suits):
            for x, down in enumerate(_on_foundations(d, u)):
                free[self.code[s][x]] -= down
        for chain in chains:
            for code in chain:
                free[code] -= 1
        return free

    def _solvable(self, chains: tuple[bytes, ...], suits: tuple) -> bool:
        free = self._free(chains, suits)
        if min(free) < 0:
            return True  # not a position of the game: cut nothing
        inchains = [0] * 52
        for chain in chains:
            for code in chain:
                inchains[code] += 1
        # A state: cards taken from each pile, the pile tops (EMPTY when none), the suits'
        # counts, copies outside the piles, copies in the piles.
        start = (bytes(len(chains)), bytes(chain[0] for chain in chains), suits, bytes(free), bytes(inchains))
        seen: set = set()
        todo = [start]
        code_of = self.code
        while todo:
            taken, tops, suits, free_b, inch = self._forced(chains, *todo.pop())
            if all(s == DONE for s in suits):
                return True
            if (taken, suits) in seen:
                continue
            if len(seen) >= self.budget:
                return True  # undecided: never cut on a guess
            seen.add((taken, suits))
            outside, inside = [], []  # plays of outside copies first, so pile plays pop first
            for s, (d, u) in enumerate(suits):
                if (d, u) == DONE:
                    continue
                for x in _wanted(d, u):
                    code = code_of[s][x]
                    after = suits[:s] + (_after(d, u, x),) + suits[s + 1 :]
                    if code in tops:
                        less = bytearray(inch)
                        less[code] -= 1
                        less_b = bytes(less)
                        i = tops.find(code)
                        while i >= 0:
                            inside.append((*_take(chains, taken, tops, i), after, free_b, less_b))
                            i = tops.find(code, i + 1)
                    elif free_b[code]:
                        fewer = bytearray(free_b)
                        fewer[code] -= 1
                        outside.append((taken, tops, after, bytes(fewer), inch))
            todo += outside
            todo += inside
        return False

    def _forced(self, chains: tuple[bytes, ...], taken: bytes, tops: bytes, suits: tuple, free: bytes, inch: bytes) -> tuple:
        """The state after the plays that need no choice (see the module docstring)."""
        code_of = self.code
        taken_a, tops_a, free_a, inch_a = bytearray(taken), bytearray(tops), bytearray(free), bytearray(inch)
        suits_l = list(suits)
        moved = True
        while moved:
            moved = False
            for s in range(4):
                d, u = suits_l[s]
                while (d, u) != DONE and d + u != FOUNDATION_CARDS:
                    past = d + u > FOUNDATION_CARDS
                    for x in _wanted(d, u):
                        code = code_of[s][x]
                        if free_a[code] and (past or not inch_a[code]):
                            free_a[code] -= 1
                            break
                        if (past or (free_a[code] and inch_a[code] == 1)) and code in tops_a:
                            _pop(chains, taken_a, tops_a, tops_a.index(code))
                            inch_a[code] -= 1
                            break
                    else:
                        break
                    d, u = _after(d, u, x)
                    suits_l[s] = (d, u)
                    moved = True
        return bytes(taken_a), bytes(tops_a), tuple(suits_l), bytes(free_a), bytes(inch_a)


def _take(chains: tuple[bytes, ...], taken: bytes, tops: bytes, i: int) -> tuple[bytes, bytes]:
    """(taken, tops) once pile i's top card is played."""
    taken_a, tops_a = bytearray(taken), bytearray(tops)
    _pop(chains, taken_a, tops_a, i)
    return bytes(taken_a), bytes(tops_a)


def _pop(chains: tuple[bytes, ...], taken: bytearray, tops: bytearray, i: int) -> None:
    """Play pile i's top card: one more taken, and the card under it on top."""
    taken[i] += 1
    tops[i] = chains[i][taken[i]] if taken[i] < len(chains[i]) else EMPTY

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

With the redeals ahead (`dead(..., ahead=True)`, used right after a deal or redeal) the
puzzle also keeps the suit's cards in the piles still to be redealt, in their order, and
plays out each redeal: `_solvable_ahead` says where the cards go and why that is still
no more than the real game demands. It stops undecided (cutting nothing) after
AHEAD_STATES states, or the budget its caller sets.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .play import Position
from .rules import DECK, FOUNDATION_CARDS, PILES

Chains = tuple[bytes, ...]  # per settled pile holding the suit: place + hold mark, top card first
AHEAD_STATES = 2_000  # puzzle states `_solvable_ahead` may visit before it gives up (and cuts nothing)
PASSED = 64  # hold mark: not the centre; 16 * (n + 1): not while n copies are down


class SuitPuzzle:
    """The one-suit relaxation for every suit of one rule set's foundations."""

    def __init__(
        self, down: Sequence[int], up: Sequence[int], rank_in: Sequence[Sequence[int]], ahead_states: int = AHEAD_STATES
    ) -> None:
        self.ahead_states = ahead_states
        # place[code]: where the card stands in the up foundation's order Q K A 2 .. J (0..12).
        self.down, self.up = list(down), list(up)
        self.place = [rank_in[up[code // 13]][code] for code in range(52)]
        self.to_place = bytes(self.place + [0] * (256 - 52))
        self.other_suits = [bytes(c for c in range(52) if c // 13 != s) for s in range(4)]
        self._cache: dict = {}
        self._ahead: dict = {}
        self._waiting: dict[tuple[int, bytes], tuple[bytes, ...]] = {}

    def dead(self, pos: Position, frozen: Iterable = (), passed: Iterable = (), ahead: bool = False) -> bool:
        """Whether some suit cannot be finished even in the one-suit relaxation.

        `frozen` and `passed` are the holds of PysolSpace: (pile, height, copies down) for a
        card that may not be played while that many of its copies are on the foundations,
        and (pile, height) for one that may not be the centre. A held card in a settled pile
        keeps its hold in the puzzle (so the answer is about the lines that respect them);
        elsewhere holds are forgotten, which only helps.
        """
        if pos.stock < DECK or not pos.rounds:
            return False  # no pile is settled yet
        first = PILES - pos.rounds
        marks: dict[tuple[int, int], int] = {}
        for p, h, n in frozen:
            if p >= first:
                marks[p, h] = 16 * (n + 1)
        for p, h in passed:
            if p >= first:
                marks[p, h] = PASSED
        counts = pos.foundations
        settled = self.settled_chains(pos.piles, first, marks)
        for s in range(4):
            d, u = counts[self.down[s]], counts[self.up[s]]
            if d == u == FOUNDATION_CARDS:
                continue
            chains = tuple(sorted(c for c in settled[s] if c))
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
        if not ahead:
            return False
        waiting = self.waiting_chains(pos.piles, first)
        return any(self.dead_ahead(counts, s, (b"",) * first + settled[s], waiting[s]) for s in range(4))

    def settled_chains(self, piles: Sequence[bytes], first: int, marks: dict) -> list[Chains]:
        """`_chains` of the settled piles; without marks read in C (each pile reversed, the
        other suits deleted, codes turned to places), as the dead test runs on every state."""
        if marks:
            return _chains(self.place, piles, first, PILES, marks)
        tops = [piles[p][::-1] for p in range(first, PILES)]
        return [tuple(pile.translate(self.to_place, other) for pile in tops) for other in self.other_suits]

    def waiting_chains(self, piles: Sequence[bytes], first: int) -> list[Chains]:
        """`_chains` of the piles still to be redealt (0..first-1), each pile's remembered:
        such a pile changes only at its top between two deals or redeals, and the dead
        test reads them all after every one."""
        rows = []
        for p in range(first):
            key = (p, piles[p])
            row = self._waiting.get(key)
            if row is None:
                row = tuple(suit[0] for suit in _chains(self.place, piles, p, p + 1, None))
                if len(self._waiting) > 200_000:
                    self._waiting.clear()
                self._waiting[key] = row
            rows.append(row)
        return [tuple(row[s] for row in rows) for s in range(4)]

    def dead_ahead(self, counts: Sequence[int], s: int, settled: Chains, waiting: Chains) -> bool:
        """The puzzle of suit s with the redeals still to come (see `_solvable_ahead`), from
        its chains in every pile (empty for the piles still to be redealt) and in those piles."""
        d, u = counts[self.down[s]], counts[self.up[s]]
        if d == u == FOUNDATION_CARDS or not any(waiting):
            return False  # no redeal ahead moves a card of the suit: `dead` has settled it
        key = (settled, waiting, d, u)
        answer = self._ahead.get(key)
        if answer is None:
            free = _free_copies(settled + tuple(bytes(x & 15 for x in w) for w in waiting), d, u)
            answer = free is not None and _solvable_ahead(settled, waiting, free, d, u, self.ahead_states)
            if len(self._ahead) > 200_000:
                self._ahead.clear()
            self._ahead[key] = answer
        return not answer


def _chains(place: Sequence[int], piles: Sequence[bytes], first: int, end: int, marks: dict | None) -> list[Chains]:
    """For each suit, its cards in each of piles first..end-1, top first, by place: with
    their hold marks when `marks` is given (settled piles), else with 16 * the pile each
    lands on at its pile's redeal (piles still to be redealt: see `_solvable_ahead`)."""
    lists: list[list[list[int]]] = [[[] for _ in range(first, end)] for _ in range(4)]
    for p in range(first, end):
        pile = piles[p]
        for h in range(len(pile) - 1, -1, -1):
            c = pile[h]
            extra = 16 * ((p + h) % PILES) if marks is None else marks.get((p, h), 0)
            lists[c // 13][p - first].append(place[c] + extra)
    return [tuple(bytes(chain) for chain in suit) for suit in lists]


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
            free[x & 15] -= 1
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


def _may_play(mark: int, x: int, d: int, u: int) -> bool:
    """Whether a chain card at place x with this hold mark may be played now (see `dead`):
    marks n + 1 bind while n copies are down, mark 4 (PASSED) while the suit holds 13."""
    if not mark:
        return True
    if d + u == FOUNDATION_CARDS:
        return mark != 4 and mark != 2  # at 13 one copy of every place is down
    return mark == 4 or mark - 1 != (x < u) + (x >= 13 - d)


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
            tops = [
                i
                for i, chain in enumerate(chains)
                if taken[i] < len(chain) and chain[taken[i]] & 15 == x and _may_play(chain[taken[i]] >> 4, x, d, u)
            ]
            if tops:
                for i in tops:
                    todo.append((taken[:i] + (taken[i] + 1,) + taken[i + 1 :], free_t, *_after(d, u, x)))
            elif free_t[x]:
                todo.append((taken, free_t[:x] + (free_t[x] - 1,) + free_t[x + 1 :], *_after(d, u, x)))
    return False


def _solvable_ahead(settled: Chains, waiting: Chains, free: list[int], d: int, u: int, budget: int = AHEAD_STATES) -> bool:
    """The one-suit puzzle with the coming redeals: whether every card can be played.

    `settled[p]`: the suit's cards in settled pile p, top first, with their hold marks.
    `waiting[p]`: those in pile p that is still to be redealt (piles 0 .. len(waiting)-1,
    redealt from the last down), top first, each as place + 16 * the pile it lands on.
    Until its redeal such a pile gives up its cards from the top. Its redeal deals what is
    left bottom first onto the pile the card's height fixes, (p + height) mod 16: cards
    below it never leave first, so that height is the card's height now. A card landing on
    a settled pile (or on p itself) goes on top of what the suit still has there; a card
    landing on a pile still to be redealt becomes free, as every card outside the piles
    is: the height it will be dealt from is not known. Each of these is what the real game
    does or less, so every winning line, read for the suit, solves this puzzle.
    The free-copy rule of `_solvable` holds here too (the card it plays now is one fewer
    card to land on a pile later, which only helps).

    One play is made without branching, before any redeal: not at 13 cards, a card X that
    one end takes next when no other copy of X lies in a pile (past the centre X is the
    last copy; below 13 the other copy is free or gone). Proof: a solution fills X's place
    with some copy at some later moment; by the free-copy exchange it may as well be this
    one; playing it sooner changes nothing at the suit's other end, and a card taken from
    a pile sooner only uncovers cards sooner and lands nowhere at a redeal.
    """
    inpiles = [0] * 13  # copies of each place in the piles (settled or waiting)
    for chain in settled:
        for x in chain:
            inpiles[x & 15] += 1
    for chain in waiting:
        for x in chain:
            inpiles[x & 15] += 1
    seen: set = set()
    todo = [(settled, tuple(0 for _ in waiting), len(waiting) - 1, tuple(free), tuple(inpiles), d, u)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        if len(seen) >= budget:
            return True  # not decided: never cut on a guess
        seen.add(state)
        chains, taken, q, free_t, inp, d, u = state
        if (d, u) == (13, 13):
            return True
        wanted = _wanted(d, u)
        moves = []
        for x in wanted:
            after = _after(d, u, x)
            less = inp[:x] + (inp[x] - 1,) + inp[x + 1 :]
            found = []
            for i, chain in enumerate(chains):
                if chain and chain[0] & 15 == x and _may_play(chain[0] >> 4, x, d, u):
                    found.append((chains[:i] + (chain[1:],) + chains[i + 1 :], taken, q, free_t, less, *after))
            for i in range(q + 1):
                chain = waiting[i]
                if taken[i] < len(chain) and chain[taken[i]] & 15 == x:
                    found.append((chains, taken[:i] + (taken[i] + 1,) + taken[i + 1 :], q, free_t, less, *after))
            others = inp[x] - 1 if found else inp[x]  # copies of x in piles besides the one played
            if not found and free_t[x]:
                found.append((chains, taken, q, free_t[:x] + (free_t[x] - 1,) + free_t[x + 1 :], inp, *after))
            if found and not others and d + u != FOUNDATION_CARDS:  # forced: see the docstring
                moves = [found[0]]
                break
            moves.extend(found)
        else:
            if q >= 0:  # the next redeal, tried after the plays (pushed first, popped last)
                grown, more, left = list(chains), list(free_t), list(inp)
                for x in reversed(waiting[q][taken[q] :]):  # bottom card first
                    dest = x >> 4
                    if dest >= q:
                        grown[dest] = bytes([x & 15]) + grown[dest]
                    else:
                        more[x & 15] += 1
                        left[x & 15] -= 1
                todo.append((tuple(grown), taken[:q], q - 1, tuple(more), tuple(left), d, u))
        todo.extend(moves)
    return False

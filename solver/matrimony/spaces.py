"""Matrimony as search spaces: the plain one (one primitive move per edge) and the spaces the
solver uses. Every space turns the steps of a winning line back into primitive moves with
`moves`.

Why Arnold's game is searched phase by phase. Under Arnold's rules a deal or redeal step
happens only when no card can be played, and then it is forced: there is exactly one. So
the game is a chain of phases, "forced step, then plays until none is left", and the only
choices are the plays of each phase. `ArnoldSpace` makes one search edge of each phase: from
the position after a forced step it finds every distinct stuck position the plays can reach
(`settle`), and applies the next forced step to each.

Inside a phase a play is made at once, without branching, when it is *safe*: when every
maximal sequence of plays from the position contains it and it can be moved to the front
without changing where the sequence ends (up to the canonical key). See `ArnoldSpace.safe`
for the conditions and their proof. Everything else is searched as in the plain space.
"""

from __future__ import annotations

from typing import Hashable, Iterator, Sequence

from .moves import Deal, Move, Play, Redeal
from .play import Position, Table, canonical_foundations
from .rules import DECK, DIAMONDS, FOUNDATION_CARDS, PILES, ROUNDS, card_of

NONE = 255  # the card a full foundation "takes": no card has this code
PlayStep = tuple[int, int, int]  # (pile, card code, foundation) in the phase's own frame


class PlainSpace:
    """Every primitive move is one edge: the reference the faster spaces are checked against.

    Under PySolFC's rules shifts make cycles, so an exact verdict from this space needs a
    single search pass (`Limits(first_pass=None)`).
    """

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        self._start = start if start is not None else table.start()
        self.is_won = table.is_won
        self.key = table.key

    def start(self) -> Position:
        return self._start

    def successors(self, pos: Position) -> Iterator[tuple[Move, Position]]:
        for move in self.table.legal_moves(pos):
            yield move, self.table.apply(pos, move)

    def moves(self, steps: Sequence[Move]) -> list[Move]:
        return list(steps)


class ArnoldSpace:
    """Arnold's rules, one edge per phase: the plays of a phase, then the forced step.

    A state is a Position with canonical foundation counts (twins sorted), taken right after
    a forced step (or at the start): the plays of the coming phase are still to be chosen.
    A step is the phase's plays (pile, card code, foundation) followed by the forced move.
    """

    def __init__(self, table: Table, start: Position | None = None) -> None:
        rules = table.rules
        if not rules.forced_steps:
            raise ValueError(f"{rules.name} rules do not force deals")
        self.table = table
        self.rules = rules
        self._start = start if start is not None else table.start()
        self.next_code = [list(codes) + [NONE] for codes in rules.takes]
        self.rank_in = [[NONE] * 52 for _ in rules.takes]  # rank_in[f][code]: its place on f
        for f, codes in enumerate(rules.takes):
            for k, code in enumerate(codes):
                self.rank_in[f][code] = k
        self.homes = [rules.of_suit[code // 13] for code in range(52)]
        self.twin = [-1] * len(rules.foundations)
        for a, b in rules.twins:
            self.twin[a], self.twin[b] = b, a
        where: list[list[int]] = [[] for _ in range(52)]
        for index, code in enumerate(table.codes):
            where[code].append(index)
        self.deal_index = [tuple(w) for w in where]  # the two copies' places in the deal
        self.diamonds = rules.of_suit[DIAMONDS]

    def start(self) -> Position:
        pos = self._start
        return pos._replace(foundations=canonical_foundations(self.rules, pos.foundations))

    def is_won(self, pos: Position) -> bool:
        return all(n == FOUNDATION_CARDS for n in pos.foundations)

    def key(self, pos: Position) -> Hashable:
        return pos

    def successors(self, pos: Position) -> Iterator[tuple[tuple, Position]]:
        for plays, piles, counts in self.settle(pos):
            stuck = Position(piles, canonical_foundations(self.rules, tuple(counts)), pos.stock, pos.rounds)
            if self.is_won(stuck):
                yield (plays, None), stuck
            elif stuck.stock < DECK:
                yield (plays, Deal()), self.table.deal_round(stuck)
            elif stuck.rounds < ROUNDS:
                yield (plays, Redeal(PILES - 1 - stuck.rounds)), self.table.redeal(stuck)

    # --- one phase ------------------------------------------------------------------------

    def settle(self, pos: Position) -> list[tuple[tuple[PlayStep, ...], tuple[bytes, ...], list[int]]]:
        """Every distinct stuck position the plays from `pos` can reach, with plays that reach it."""
        found: dict = {}
        seen: set = set()
        todo = [((), list(pos.piles), list(pos.foundations))]
        while todo:
            plays, piles, counts = todo.pop()
            plays = list(plays)
            options = self.play_safe(piles, counts, pos.stock, plays)
            if not options:
                key = (tuple(piles), canonical_foundations(self.rules, tuple(counts)))
                if key not in found:
                    found[key] = (tuple(plays), key[0], counts)
                continue
            for p, f in options:
                after_piles, after_counts = piles[:], counts[:]
                code = after_piles[p][-1]
                after_piles[p] = after_piles[p][:-1]
                after_counts[f] += 1
                key = (tuple(after_piles), canonical_foundations(self.rules, tuple(after_counts)))
                if key in seen:
                    continue
                seen.add(key)
                todo.append(((*plays, (p, code, f)), after_piles, after_counts))
        return list(found.values())

    def play_safe(self, piles: list[bytes], counts: list[int], stock: int, plays: list[PlayStep]) -> list[tuple[int, int]]:
        """Make safe plays until none is left; then the plays that remain, as (pile, foundation)."""
        next_code = self.next_code
        while True:
            wanted = [next_code[f][n] for f, n in enumerate(counts)]
            options: list[tuple[int, int]] = []
            progress = False
            for p, pile in enumerate(piles):
                if not pile or pile[-1] not in wanted:
                    continue
                code = pile[-1]
                takers = [f for f in self.homes[code] if wanted[f] == code]
                safe = self.safe(piles, counts, stock, p, code, takers)
                if safe is None:
                    for f in takers:
                        options.append((p, f))
                    continue
                for q, f in safe:
                    plays.append((q, code, f))
                    piles[q] = piles[q][:-1]
                    counts[f] += 1
                    wanted[f] = next_code[f][counts[f]]
                progress = True
            if not progress:
                return options

    def safe(
        self, piles: list[bytes], counts: list[int], stock: int, p: int, code: int, takers: list[int]
    ) -> list[tuple[int, int]] | None:
        """The plays to make at once for the top card `code` of pile p, or None to branch.

        Call X the card `code`, and P the position. Nothing is added to a pile during a
        phase, and only an X can go onto a foundation that waits for an X. So while the
        X on pile p stays unplayed it stays on top, and a foundation that waits for X keeps
        waiting unless the *other* X is played onto it.

        (a) Twins that both wait for X: the X on p is played in every maximal sequence S
            (one twin still waits for it however the other X is placed), say S = A, X->g, B.
            Playing it first onto either twin, then A and B with the twins swapped where
            needed (they hold the same cards at P), ends in the same position up to the
            order of the twins.
        (b) One foundation f takes X, and the other X is in no pile but p (in the stock,
            under this X, or on a foundation), so it cannot be played in this phase before
            this one. Then f waits for X until this X is played, which S therefore does:
            S = A, X->g, B. If g = f, or g is f's twin holding as many cards as f at that
            moment, X->f, A, B (twins swapped in B where needed) is legal and ends the same,
            since A touches neither pile p nor f. The only other foundation that could take
            X is the other diamond one, and only if it can come to wait for X during A:
            that needs the cards on its way to X, so it cannot when one of them has no copy
            in a pile but p.
        (c) Both diamond foundations wait for X and the other X tops another pile: each X
            goes to one of them in every S; playing both first gives the same position
            whichever way round (the copies are the same card).
        Otherwise the choice is real (which X goes first, or which diamond foundation
        takes it) and the caller branches.
        """
        if len(takers) == 2:
            if self.twin[takers[0]] == takers[1]:
                return [(p, takers[0])]  # (a)
            other = self.exposed_copy(piles, p, code)  # (c)
            return None if other is None else [(p, takers[0]), (other, takers[1])]
        f = takers[0]
        if self.copies_in_other_piles(piles, counts, stock, p, code):
            return None
        if code // 13 == DIAMONDS and self.may_come_to_take(piles, counts, stock, p, code, f):
            return None
        return [(p, f)]  # (b)

    def copies_in_other_piles(self, piles: list[bytes], counts: list[int], stock: int, p: int, code: int) -> int:
        """How many copies of `code` lie in piles other than p."""
        on_foundations = sum(counts[f] > self.rank_in[f][code] for f in self.homes[code])
        in_stock = sum(i >= stock for i in self.deal_index[code])
        return 2 - on_foundations - in_stock - piles[p].count(code)

    def exposed_copy(self, piles: list[bytes], p: int, code: int) -> int | None:
        """Another pile whose top card is `code`, if any."""
        for q, pile in enumerate(piles):
            if q != p and pile and pile[-1] == code:
                return q
        return None

    def may_come_to_take(self, piles: list[bytes], counts: list[int], stock: int, p: int, code: int, f: int) -> bool:
        """Whether the other diamond foundation might wait for `code` before pile p's copy is played."""
        (g,) = [x for x in self.diamonds if x != f]
        reach = self.rank_in[g][code]
        if reach < counts[g]:
            return False  # it is past that rank already
        return all(self.copies_in_other_piles(piles, counts, stock, p, c) for c in self.rules.takes[g][counts[g] : reach])

    # --- winning lines back to primitive moves ------------------------------------------

    def moves(self, steps: Sequence[tuple]) -> list[Move]:
        """The primitive moves of a winning line, foundations renumbered as in the real game."""
        table, pos, out = self.table, self._start, []
        for plays, forced in steps:
            for p, code, f in plays:
                twin = self.twin[f]
                if twin >= 0 and self.next_code[f][pos.foundations[f]] != code:
                    f = twin
                move = Play(p, card_of(code), f)
                out.append(move)
                pos = table.apply(pos, move)
            if forced is not None:
                out.append(forced)
                pos = table.apply(pos, forced)
        return out

"""Arnold's Matrimony searched phase by phase, with safe plays made at once and dead lines cut.

Why phases. Under Arnold's rules a deal or redeal step happens only when no card can be
played, and then exactly one is possible. So the game is a chain of phases, "plays until
none is left, then the forced step", and the only choices are the plays of each phase. A
search edge is a whole phase: from the position after a forced step, every distinct stuck
position the plays can reach (`settle`), each followed by the next forced step.

Inside a phase a play is made at once, without branching, when it is *safe* (`safe`):
when every maximal sequence of plays contains it and it can be moved to the front without
changing where the sequence ends, up to the canonical key. Other plays branch as in the
plain space.

A line is cut when it is dead (`dead`): two cards in a pile that is never picked up again
must leave it in an order the foundations forbid.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import partial

from ...basics.compiled import compiled_core
from .moves import DEAL, PLAY, REDEAL, Coded, Deal, Move, Redeal, move_of
from .play import Position, Table, canonical_foundations
from .rules import DECK, DIAMONDS, FOUNDATION_CARDS, PILES, ROUNDS

NONE = 255  # what a full foundation "takes" and an empty pile "shows": no card has this code
PlayStep = tuple[int, int, int]  # (pile, card code, foundation), foundations in the phase's frame
Options = list[tuple[int, int]]  # plays still open at a branch point, as (pile, foundation)
ALL_DOWN = (FOUNDATION_CARDS,) * 8  # the foundation counts of a won game


class ArnoldSpace:
    """Arnold's rules, one edge per phase: the plays of a phase, then the forced step.

    A state is a Position with canonical foundation counts (twins sorted), taken right after
    a forced step (or at the start): the plays of the coming phase are still to be chosen.
    A step is the phase's plays followed by the forced move (None when the plays win).
    """

    acyclic = True  # every step deals or redeals
    dead_tests = "the settled-pile test"  # how a lost answer names what cut it (`dead`)

    def __init__(self, table: Table, start: Position | None = None) -> None:
        rules = table.rules
        if not rules.forced_steps or rules.twins != ((2, 3), (4, 5), (6, 7)):
            raise ValueError(f"{rules.name} rules are not Arnold's")
        self.table = table
        self.rules = rules
        self._start = start if start is not None else table.start()
        self.takes = rules.takes
        self.next_code = [list(codes) + [NONE] for codes in rules.takes]
        self.rank_in = [[NONE] * 52 for _ in rules.takes]  # rank_in[f][code]: its place on f
        for f, codes in enumerate(rules.takes):
            for k, code in enumerate(codes):
                self.rank_in[f][code] = k
        self.homes = [rules.of_suit[code // 13] for code in range(52)]
        self.twin = [-1] * 8
        for a, b in rules.twins:
            self.twin[a], self.twin[b] = b, a
        where: list[list[int]] = [[] for _ in range(52)]
        for index, code in enumerate(table.codes):
            where[code].append(index)
        self.deal_index = [tuple(w) for w in where]  # the two copies' places in the deal
        self.up, self.down = rules.of_suit[DIAMONDS]  # Q♦ up, J♦ down
        if rules.foundations[self.up].step != 1:
            self.up, self.down = self.down, self.up
        self._chains: dict[tuple[int, ...], bytes] = {}
        self._floors: tuple[Position | None, list[int], bytes] = (None, [], b"")

    def canonical(self, counts: list[int]) -> tuple[int, ...]:
        """Foundation counts with each pair of twins sorted (twins are 2-3, 4-5, 6-7)."""
        a, b, c, d, e, f, g, h = counts
        return (a, b, *((c, d) if c <= d else (d, c)), *((e, f) if e <= f else (f, e)), *((g, h) if g <= h else (h, g)))

    def start(self) -> Position:
        pos = self._start
        return pos._replace(foundations=canonical_foundations(self.rules, pos.foundations))

    def native(self) -> Callable[..., tuple] | None:
        """The compiled core's search of this space (see basics/compiled.py), when it was built. Its
        state: stock, redeals, the foundation counts, the pile lengths, then the piles."""
        core = compiled_core()
        if core is None:
            return None
        pos = self.start()
        state = bytes([pos.stock, pos.rounds, *pos.foundations, *map(len, pos.piles)]) + b"".join(pos.piles)
        takes = bytes(code for codes in self.takes for code in codes)
        homes = bytes(f for code in range(52) for f in self.homes[code])
        return partial(core.search_arnold, state, self.table.codes, takes, homes, self.up, self.down, Deal(), Redeal)

    def is_won(self, pos: Position) -> bool:
        return pos.foundations == ALL_DOWN

    def key(self, pos: Position) -> Hashable:
        return pos

    def successors(self, pos: Position) -> Iterator[tuple[tuple, Position]]:
        table = self.table
        for plays, piles, counts in self.settle(pos):
            stuck = Position(piles, self.canonical(counts), pos.stock, pos.rounds)
            if self.is_won(stuck):
                yield (plays, None), stuck
            elif stuck.stock < DECK:
                yield (plays, Deal()), table.deal_round(stuck)
            elif stuck.rounds < ROUNDS:
                after = table.redeal(stuck)
                if not self.dead(after):
                    yield (plays, Redeal(PILES - 1 - stuck.rounds)), after

    # --- one phase ------------------------------------------------------------------------

    def settle(self, pos: Position) -> list[tuple[tuple[PlayStep, ...], tuple[bytes, ...], list[int]]]:
        """Every distinct stuck position the plays from `pos` can reach, with plays that reach it."""
        piles, counts = list(pos.piles), list(pos.foundations)
        plays: list[PlayStep] = []
        options: Options | None = self.play_safe(piles, counts, pos, plays)
        if not options:
            return [(tuple(plays), tuple(piles), counts)]  # no choice at all: the usual case
        found: dict = {}
        seen: set = set()
        canonical = self.canonical
        todo: list[tuple[list[PlayStep], list[bytes], list[int], Options | None]] = [(plays, piles, counts, options)]
        while todo:
            plays, piles, counts, options = todo.pop()
            if options is None:
                options = self.play_safe(piles, counts, pos, plays)
            if not options:
                key = (tuple(piles), canonical(counts))
                if key not in found:
                    found[key] = (tuple(plays), key[0], counts)
                continue
            for p, f in options:
                after_piles, after_counts = piles[:], counts[:]
                code = after_piles[p][-1]
                after_piles[p] = after_piles[p][:-1]
                after_counts[f] += 1
                key = (tuple(after_piles), canonical(after_counts))
                if key not in seen:
                    seen.add(key)
                    todo.append(([*plays, (p, code, f)], after_piles, after_counts, None))
        return list(found.values())

    def play_safe(self, piles: list[bytes], counts: list[int], phase: Position, plays: list[PlayStep]) -> Options:
        """Make safe plays until none is left; then the plays that remain (`phase`: the
        position the phase started from)."""
        next_code, homes = self.next_code, self.homes
        tops = bytearray([pile[-1] if pile else NONE for pile in piles])
        while True:
            options: Options = []
            wanted = {codes[n] for codes, n in zip(next_code, counts)}
            wanted.discard(NONE)
            for code in sorted(wanted):  # a fixed order, which the compiled core follows
                p = tops.find(code)
                while p >= 0:
                    takers = [f for f in homes[code] if next_code[f][counts[f]] == code]
                    safe = self.safe(piles, counts, phase, p, code, takers)
                    if safe is not None:
                        break
                    options.extend((p, f) for f in takers)
                    p = tops.find(code, p + 1)
                else:
                    continue
                for q, f in safe:
                    plays.append((q, code, f))
                    piles[q] = pile = piles[q][:-1]
                    tops[q] = pile[-1] if pile else NONE
                    counts[f] += 1
                break  # the foundations have moved on: scan again
            else:
                return options

    def safe(self, piles: list[bytes], counts: list[int], phase: Position, p: int, code: int, takers: list[int]) -> Options | None:
        """The plays to make at once for the top card `code` of pile p, or None to branch.

        Call X the card `code`. Nothing is added to a pile during a phase, and only an X
        can go onto a foundation that waits for an X. So while pile p's X is unplayed it
        stays on top, and a foundation that waits for X keeps waiting unless the *other* X
        is played onto it. Let S be any maximal sequence of plays from here. The forced step
        that ends the phase depends only on the stuck position S reaches, so two sequences
        that end alike (up to the canonical key) lead to the same next state.

        (a) Twins that both wait for X: S plays pile p's X (one twin still waits for it
            however the other X is placed), say S = A, X->g, B. Playing it first onto
            either twin, then A and B with the twins swapped where needed (they hold the
            same cards now), ends in the same position up to the order of the twins.
        (b) One foundation f takes X, and the other X cannot be played in this phase before
            this one: it is in the stock, under this X, on a foundation (which it never
            leaves), or in another pile under a card no play of this phase removes
            (`may_be_played`). Then f waits for X until this X is played, which S therefore
            does: S = A, X->g, B. If g = f, or g is f's twin holding as many cards as f at
            that moment, X->f, A, B (twins swapped in B where needed) is legal and ends the
            same, since A touches neither pile p nor f. The only other foundation that
            could take X is the other diamond one, and only if it can come to wait for X
            during A: that needs every card on its way to X played during A, so it cannot
            when one of them cannot be played but from pile p (a copy on a foundation is
            on f, as the other foundation has not reached it yet, and foundation cards
            never move).
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
        if self.may_be_played(piles, counts, phase, p, code):
            return None
        if code // 13 == DIAMONDS and self.may_come_to_take(piles, counts, phase, p, code, f):
            return None
        return [(p, f)]  # (b)

    def may_be_played(self, piles: list[bytes], counts: list[int], phase: Position, p: int, code: int) -> bool:
        """Whether a copy of `code` in a pile other than p might be played in this phase:
        one lies there at or above the pile's floor (`floors`)."""
        others = self.copies_in_other_piles(piles, counts, phase.stock, p, code)
        if not others:
            return False
        floors, buried = self.floors(phase)
        return others > buried.count(code) - piles[p].count(code, 0, floors[p])

    def floors(self, phase: Position) -> tuple[list[int], bytes]:
        """floors[q]: no play of the phase that starts at `phase` uncovers a card of pile q
        below this height; and the cards below the floors, every pile's in one string.

        A card is played in a phase only after every card on its foundation's way to it,
        each from the top of a pile. So every card the phase may play is in the set M
        built here: a foundation's next card joins M when some copy of it lies on top of
        a pile once the cards of M above it are gone, and the foundation's walk goes on
        from there (copies are one card in M, which only makes it larger). The topmost
        card of a pile that is not in M stays for the whole phase, and so does everything
        under it: that card's height is the floor. Cards leave a pile only from the top,
        so what lies below a floor stays as it was all phase. The last phase's floors are
        kept, since one phase asks for them many times."""
        known, floors, buried = self._floors
        if known is phase:
            return floors, buried
        piles, takes = phase.piles, self.takes
        in_m: set[int] = set()
        reach = list(phase.foundations)
        tops = [len(pile) - 1 for pile in piles]  # the topmost card of each pile not in M
        exposed = {pile[-1] for pile in piles if pile}  # cards with a copy on top once M's cards above it are gone
        grew = True
        while grew:
            grew = False
            for f, k in enumerate(reach):
                way = takes[f]
                while k < FOUNDATION_CARDS and (way[k] in in_m or way[k] in exposed):
                    if way[k] not in in_m:
                        in_m.add(way[k])
                        grew = True
                    k += 1
                reach[f] = k
            if grew:
                for q, pile in enumerate(piles):
                    t = tops[q]
                    if t >= 0 and pile[t] in in_m:
                        t -= 1
                        while t >= 0 and pile[t] in in_m:
                            t -= 1
                        tops[q] = t
                        if t >= 0:
                            exposed.add(pile[t])
        floors = [t if t > 0 else 0 for t in tops]
        buried = b"".join([pile[:floor] for pile, floor in zip(piles, floors)])
        self._floors = (phase, floors, buried)
        return floors, buried

    def copies_in_other_piles(self, piles: list[bytes], counts: list[int], stock: int, p: int, code: int) -> int:
        """How many copies of `code` lie in piles other than p."""
        a, b = self.homes[code]
        rank_in = self.rank_in
        first, second = self.deal_index[code]
        on_foundations = (counts[a] > rank_in[a][code]) + (counts[b] > rank_in[b][code])
        return 2 - on_foundations - (first >= stock) - (second >= stock) - piles[p].count(code)

    @staticmethod
    def exposed_copy(piles: list[bytes], p: int, code: int) -> int | None:
        """Another pile whose top card is `code`, if any."""
        for q, pile in enumerate(piles):
            if q != p and pile and pile[-1] == code:
                return q
        return None

    def may_come_to_take(self, piles: list[bytes], counts: list[int], phase: Position, p: int, code: int, f: int) -> bool:
        """Whether the other diamond foundation might wait for `code` before pile p's copy is played."""
        g = self.down if f == self.up else self.up
        reach = self.rank_in[g][code]
        if reach < counts[g]:
            return False  # it is past that rank already
        return all(self.may_be_played(piles, counts, phase, p, c) for c in self.takes[g][counts[g] : reach])

    # --- dead lines -----------------------------------------------------------------------

    def dead(self, pos: Position) -> bool:
        """Whether some pile that is never picked up again holds two cards it can never give up.

        Once a pile's turn to be redealt has passed, cards leave it only by being played,
        from the top, and new cards only land on top; so of two cards in it, the upper one
        is played first. A *chain* is a list of cards that each have one copy left and must
        go, in that order, onto one foundation (`chain_marks`). Two cards of one chain in
        such a pile, the later one above the earlier, can therefore never both be played,
        and the game is lost.
        """
        if pos.stock < DECK or not pos.rounds:
            return False
        marks = self.chain_marks(pos.foundations)
        for pile in pos.piles[PILES - pos.rounds :]:
            lowest: dict[int, int] = {}  # chain -> the earliest place among cards below
            for mark in pile.translate(marks):
                if mark == NONE:
                    continue
                chain = mark >> 4
                below = lowest.get(chain)
                if below is None or mark < below:
                    lowest[chain] = mark
                elif mark > below:
                    return True
        return False

    def chain_marks(self, counts: tuple[int, ...]) -> bytes:
        """A byte per card code: 16*chain + place for a card on a chain, else NONE.

        Twins holding a <= b cards: the fuller twin has taken one copy of each of the cards
        at places a..b-1 of their sequence; the other copy of each must go to the emptier
        twin, in that order. Diamonds: Q♦ up takes Q K A .. J, J♦ down the same ranks
        backwards, so the ranks J♦ down holds are the last ones Q♦ up will need, and only
        one copy of each is left (the same the other way round).
        """
        marks = self._chains.get(counts)
        if marks is not None:
            return marks
        takes, up, down = self.takes, self.up, self.down
        chains = [
            takes[up][max(counts[up], FOUNDATION_CARDS - counts[down]) :],
            takes[down][max(counts[down], FOUNDATION_CARDS - counts[up]) :],
            *(takes[a][counts[a] : counts[b]] for a, b in self.rules.twins),
        ]
        table = bytearray([NONE] * 256)
        for c, chain in enumerate(chains):
            for place, code in enumerate(chain):
                table[code] = 16 * c + place
        marks = self._chains[counts] = bytes(table)
        return marks

    # --- winning lines back to primitive moves ------------------------------------------

    def moves(self, steps: Sequence[tuple]) -> list[Move]:
        """The primitive moves of a winning line, foundations renumbered as in the real game."""
        return [move_of(c) for c in self.codes(steps)]

    def codes(self, steps: Sequence[tuple]) -> list[Coded]:
        """A winning line as coded moves (`moves.Coded`), foundations renumbered as in the
        real game: a play the phase's frame gives to one of two twins goes to the one that
        takes the card now."""
        counts, out = list(self._start.foundations), list[Coded]()
        for plays, forced in steps:
            for p, code, f in plays:
                twin = self.twin[f]
                if twin >= 0 and self.next_code[f][counts[f]] != code:
                    f = twin
                out.append((PLAY, p, code, f))
                counts[f] += 1
            if isinstance(forced, Deal):
                out.append((DEAL,))
            elif forced is not None:
                out.append((REDEAL, forced.pile))
        return out

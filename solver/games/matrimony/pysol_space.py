"""PySolFC's Matrimony as search spaces, shifts folded into plays.

Suits. A suit's state is the multiset of its cards on the foundations. PySolFC gives each
suit a Jack building down and a Queen building up over the same ranks in opposite
directions (Q K A .. J read one way or the other). While they hold at most 13 cards between
them they hold one copy each of a run of ranks from each end of that sequence; at exactly
13 (one copy of every rank) shifts move the boundary between them freely, so any card of the
suit can go next (after the right shifts); after that the second copies spread out from
that card, the *centre*, in both directions. Which foundation holds which card never
matters beyond that, so the key keeps the two counts with every split of 13 merged, and a
step "play X" stands for the shifts that make room for X and X's play (`primitive_play`).

Two cards of one suit that can both be played extend its runs at different ends, except
the two copies of one card (same end) and any two cards at 13 (the first one sets the
centre). So, below and above 13, a multiset that two different cards extend stays
reachable in either order: within a stretch of play with no deal or redeal, a play can be
made earlier without harm, unless it is a copy competing with its twin or a centre.

Spaces. `PysolSpace` is exact: one decision per edge, "play this card now" or "hold it
back", with the deal or redeal once nothing is left to decide. `PysolGreedySpace` searches
only the lines that play until nothing more can be played before each deal or redeal: it is
much smaller and finds most of the wins there are quickly, but its "lost" proves nothing,
so the solver tries it first and then the exact space. `PysolHoldSpace` adds the line that
holds back everything but the safe plays before each deal or redeal; `PysolPhaseSpace` is
the exact space a whole phase at a time, cut to its first outcomes, for beams (search/beam.py).
The quick spaces only look for wins, where a node is worth more than a long proof that a
position is dead: their dead test gives up on the redeals ahead sooner (QUICK_AHEAD_STATES)
and skips the two-suit puzzle, which cuts less but never wrongly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import partial
from typing import Any, NamedTuple

from ...basics.compiled import compiled_core
from ...search.beam import Deferred
from .moves import Deal, Move, Play, Redeal, Shift
from .play import Position, Table, settled_foundations
from .pysol_dead import AHEAD_STATES, SuitPuzzle
from .pysol_tangle import Tangles
from .rules import DECK, FOUNDATION_CARDS, PILES, ROUNDS, card_of

NONE = 255
SETTLE_NODES = 2_000  # branch points one phase of the quick searches may explore
QUICK_AHEAD_STATES = 15  # the quick spaces' dead test: puzzle states for the redeals ahead
PlayStep = tuple[int, int]  # (pile, card code)
Piles = tuple[bytes, ...]
Counts = tuple[int, ...]
Held = frozenset  # cards held back, by place: (pile, height), or (pile, height, copies down)


class PysolSuits:
    """What both PySolFC spaces share: the suits' states, the key, and winning lines."""

    AHEAD_STATES = AHEAD_STATES  # what the dead test may spend on the redeals ahead
    TANGLES = True  # whether the dead test looks for two suits tangled (pysol_tangle.py)
    dead_tests = "the suit and tangle tests"  # how a lost answer names what cut it (`dead`)

    def __init__(self, table: Table, start: Position | None = None) -> None:
        rules = table.rules
        if rules.forced_steps or not rules.shifts:
            raise ValueError(f"{rules.name} rules are not PySolFC's")
        self.table = table
        self.rules = rules
        self.takes = rules.takes
        self.next_code = [list(codes) + [NONE] for codes in rules.takes]
        self.rank_in = [[NONE] * 52 for _ in rules.takes]
        for f, codes in enumerate(rules.takes):
            for k, code in enumerate(codes):
                self.rank_in[f][code] = k
        # down[s], up[s]: the foundations of suit s building down from J and up from Q.
        self.down, self.up = rules.jack_down, rules.queen_up
        where: list[list[int]] = [[] for _ in range(52)]
        for index, code in enumerate(table.codes):
            where[code].append(index)
        self.deal_index = [tuple(w) for w in where]  # the two copies' places in the deal
        self._real_start = start if start is not None else table.start()
        self._start = self.canonical(self._real_start)
        self.suit_puzzle = SuitPuzzle(self.down, self.up, self.rank_in, self.AHEAD_STATES)
        self.tangles = Tangles(self.down, self.up, self.rank_in)
        self._accepted: dict[Counts, dict[int, tuple[tuple[int, int], int]]] = {}

    def dead(self, pos: Position, frozen: Held = frozenset(), passed: Held = frozenset(), ahead: bool = False) -> bool:
        """Whether no line that keeps the holds can win from `pos`: some suit cannot be
        finished (pysol_dead.py), or, with `ahead` (after a deal or redeal), some suit cannot
        be finished with the redeals to come, or the settled piles tangle the suits
        (pysol_tangle.py: dearer, so only where the settled piles change most)."""
        return self.suit_puzzle.dead(pos, frozen, passed, ahead) or (ahead and self.TANGLES and self.tangles.dead(pos))

    def canonical(self, pos: Position) -> Position:
        """The position with each suit holding 13 cards written as (down 0, up 13)."""
        return pos._replace(foundations=settled_foundations(self.rules, pos.foundations))

    def start(self) -> Position:
        return self._start

    def deferred(self) -> Deferred | None:
        """The successors and dead test apart, for a beam (beam.Deferred), or None."""
        return None

    def is_won(self, pos: Position) -> bool:
        return all(n == FOUNDATION_CARDS for n in pos.foundations)

    def cards_down(self, pos: Position) -> int:
        """Cards on the foundations: what the beams keep the most of."""
        return sum(pos.foundations)

    def key(self, pos: Position) -> Hashable:
        return pos

    def event(self, pos: Position) -> Move | None:
        """The deal or redeal that may come next, or None when none is left."""
        if pos.stock < DECK:
            return Deal()
        if pos.rounds < ROUNDS:
            return Redeal(PILES - 1 - pos.rounds)
        return None

    # --- what a card does to its suit ---------------------------------------------------

    def after_play(self, counts: Sequence[int], code: int) -> tuple[int, int] | None:
        """The suit's (down, up) counts once `code` is played, or None if it cannot be."""
        s = code // 13
        d, u = self.down[s], self.up[s]
        held_down, held_up = counts[d], counts[u]
        if held_down + held_up == FOUNDATION_CARDS:
            return self.rank_in[d][code] + 1, self.rank_in[u][code] + 1
        if self.next_code[u][held_up] == code:
            held_up += 1
        elif self.next_code[d][held_down] == code:
            held_down += 1
        else:
            return None
        if held_down + held_up == FOUNDATION_CARDS:
            return 0, FOUNDATION_CARDS
        return held_down, held_up

    def at_thirteen(self, counts: Sequence[int], code: int) -> bool:
        s = code // 13
        return counts[self.down[s]] + counts[self.up[s]] == FOUNDATION_CARDS

    def play(self, plays: tuple, piles: Piles, counts: Counts, p: int, after: tuple[int, int]) -> tuple:
        """(plays, piles, counts) after pile p's top card is played, leaving its suit at `after`."""
        code = piles[p][-1]
        s = code // 13
        new_counts = list(counts)
        new_counts[self.down[s]], new_counts[self.up[s]] = after
        return plays + ((p, code),), piles[:p] + (piles[p][:-1],) + piles[p + 1 :], tuple(new_counts)

    def copies_elsewhere(self, piles: Piles, counts: Counts, stock: int, p: int, code: int) -> int:
        """Copies of `code` in piles other than p (its suit not at 13; the stock starts at `stock`)."""
        s = code // 13
        d, u = self.down[s], self.up[s]
        on_foundations = (counts[d] > self.rank_in[d][code]) + (counts[u] > self.rank_in[u][code])
        first, second = self.deal_index[code]
        return 2 - on_foundations - (first >= stock) - (second >= stock) - piles[p].count(code)

    def playable(self, piles: Piles, counts: Counts) -> list[tuple[int, tuple[int, int]]]:
        """(pile, suit counts after) for every pile whose top card can be played."""
        takes = self.accepted(counts)
        return [(p, takes[pile[-1]][0]) for p, pile in enumerate(piles) if pile and pile[-1] in takes]

    def accepted(self, counts: Counts) -> dict[int, tuple[tuple[int, int], int]]:
        """The cards the foundations take at these counts, each with its suit's counts
        after it (`after_play`) and its `role`, remembered: the searches ask for the same
        counts often."""
        takes = self._accepted.get(counts)
        if takes is None:
            takes = {}
            for s in range(4):
                d, u = self.down[s], self.up[s]
                wanted: Sequence[int]
                if counts[d] + counts[u] == FOUNDATION_CARDS:
                    wanted = range(13 * s, 13 * s + 13)
                else:
                    wanted = (self.next_code[u][counts[u]], self.next_code[d][counts[d]])
                for code in wanted:
                    if code != NONE:
                        after = self.after_play(counts, code)
                        assert after is not None  # the next card at one end, or any at 13
                        takes[code] = after, self.role(counts, code)
            if len(self._accepted) > 100_000:
                self._accepted.clear()
            self._accepted[counts] = takes
        return takes

    def settle(self, pos: Position, plays: tuple = ()) -> Iterator[tuple[tuple, Piles, Counts]]:
        """Every distinct stuck position the plays from `pos` can reach (no deal or redeal).

        A card is played at once, without branching, when its suit is not at 13 and its
        other copy is in no other pile: nothing else can take its place at its end of the
        suit, so every maximal run of plays plays it, and playing it first changes nothing
        (see the module docstring). Any other playable card Y is either played now or kept
        from its present role (a copy filling its place, or the centre at 13) as long as the
        role lasts: a run that plays Y in that role later plays it as well now (nothing else
        can fill Y's place at its end meanwhile, or be a centre before it). A line that
        keeps a card still playable in its role at the end is not stuck, and is dropped.
        The quick searches only look for wins, so a phase with very many stuck positions is
        cut short after SETTLE_NODES branch points.
        """
        seen: set = set()
        done: set = set()
        todo: list[tuple[tuple, Piles, Counts, frozenset]] = [(plays, pos.piles, pos.foundations, frozenset())]
        while todo and len(seen) < SETTLE_NODES:
            plays, piles, counts, kept = todo.pop()
            takes = self.accepted(counts)
            choice: Any = None  # None: no card to choose over; False: one kept back; else (pile, after, spot)
            for p, pile in enumerate(piles):
                if not pile or pile[-1] not in takes:
                    continue
                code = pile[-1]
                after, role = takes[code]
                if kept and (p, len(pile) - 1, role) in kept:  # kept from the role it has now
                    choice = choice or False
                    continue
                if role != -1 and not self.copies_elsewhere(piles, counts, pos.stock, p, code):
                    todo.append((*self.play(plays, piles, counts, p, after), kept))
                    break
                if not choice:
                    choice = (p, after, (p, len(pile) - 1, role))
            else:
                if choice is None:
                    if (piles, counts) not in done:
                        done.add((piles, counts))
                        yield plays, piles, counts
                elif choice:
                    p, after, spot = choice
                    held: tuple[Piles, Counts, frozenset] = (piles, counts, kept | {spot})
                    if held not in seen:
                        seen.add(held)
                        todo.append((plays, *held))
                    node = (*self.play(plays, piles, counts, p, after), kept)
                    if node[1:] not in seen:
                        seen.add(node[1:])
                        todo.append(node)

    def role(self, counts: Counts, code: int) -> int:
        """What playing `code` now would be: a centre (-1) or its n-th copy down (n = 0, 1)."""
        return -1 if self.at_thirteen(counts, code) else self.copies_down(counts, code)

    def copies_down(self, counts: Counts, code: int) -> int:
        """How many copies of `code` are on the foundations."""
        s = code // 13
        d, u = self.down[s], self.up[s]
        if counts[d] + counts[u] == FOUNDATION_CARDS:
            return 1
        return (counts[d] > self.rank_in[d][code]) + (counts[u] > self.rank_in[u][code])

    # --- plays that need no choice ----------------------------------------------------

    def binding(self, frozen: Held, piles: Piles, counts: Counts, redealt: int = -1) -> Held:
        """The frozen holds that still bind: the card's other copy has not gone down since,
        and its pile has not been redealt (a freed card may have been played since)."""
        return frozenset(
            (p, h, n)
            for p, h, n in frozen
            if p != redealt and h < len(piles[p]) and self.copies_down(counts, piles[p][h]) == n
        )

    def play_safe(self, pos: Position, plays: tuple, piles: Piles, counts: Counts, frozen: Held) -> tuple:
        """Make the safe plays (`safe`) as long as there are any; a held card is set free
        when its other copy goes down."""
        while True:
            spots = {(p, h) for p, h, _ in self.binding(frozen, piles, counts)} if frozen else set()
            for p, after in self.playable(piles, counts):
                if (p, len(piles[p]) - 1) not in spots and self.safe(pos, piles, counts, p):
                    plays, piles, counts = self.play(plays, piles, counts, p, after)
                    break
            else:
                return plays, piles, counts

    def safe(self, pos: Position, piles: Piles, counts: Counts, p: int) -> bool:
        """Whether playing pile p's top card X now is never worse than keeping it.

        Conditions: the stock is empty; X's suit does not hold 13 cards; the other copy of
        X is not in another pile; and either p has been redealt already, or nothing can land
        on p before its redeal, the other copy is not under X in p, and X, dealt last from
        p, would land on a pile that has been redealt (its own, or one after it).
        Proof: take a line L that wins from here and drop its play of X: the result L'
        wins after playing X now. Until L plays X, X stays in p (or, after p's redeal, on a
        pile never picked up again); any card L puts on X leaves before X, so L' takes the
        same cards off the same tops; no redeal sees X under other cards (p is never
        redealt again, or X is its top card when it is, and the last card dealt shifts no
        other); the other X cannot be played first, being on a foundation already or under
        X in a pile never picked up again; and every card of X's suit that L plays before X
        still fits with X down, since below and above 13 cards each card extends one end of
        its suit's runs, and two cards at one end are the two copies.
        The other copy under X in a pile still to be redealt breaks the proof: the redeal
        deals the two out onto different piles, and L may play that copy first, onto the
        foundation L' has given X (tests/games/test_matrimony_spaces.py has such a position).
        """
        if pos.stock < DECK:
            return False
        code = piles[p][-1]
        if self.at_thirteen(counts, code) or self.copies_elsewhere(piles, counts, DECK, p, code):
            return False
        next_redeal = PILES - 1 - pos.rounds
        if p > next_redeal:
            return True
        if piles[p].count(code) > 1:
            return False
        return p + len(piles[p]) - 1 < PILES and not self.may_land_on(piles, p, next_redeal)

    @staticmethod
    def may_land_on(piles: Piles, p: int, next_redeal: int) -> bool:
        """Whether a redeal before pile p's own might put a card on p.

        Piles next_redeal, next_redeal-1, ..., p+1 are redealt before p, in that order; a
        pile q dealt out with n cards reaches a lower pile r when n > 16 + r - q. Piles only
        grow by such landings, so `most[q]` bounds q's length when its turn comes.
        """
        most: dict[int, int] = {}
        for q in range(next_redeal, p - 1, -1):
            n = len(piles[q])
            for q2, n2 in most.items():
                first = PILES + q - q2  # the height in q2 whose card lands on q
                if n2 > first:
                    n += (n2 - first - 1) // PILES + 1
            if q == p:
                return n > len(piles[p])
            most[q] = n
        return False

    # --- winning lines back to primitive moves ------------------------------------------

    def moves(self, steps: Sequence[tuple]) -> list[Move]:
        """The primitive moves of a winning line: shifts where a play needs them, then the play."""
        table, pos, out = self.table, self._real_start, []
        for plays, event in steps:
            for p, code in plays:
                for move in self.primitive_play(pos, p, code):
                    out.append(move)
                    pos = table.apply(pos, move)
            if event is not None:
                out.append(event)
                pos = table.apply(pos, event)
        return out

    def primitive_play(self, pos: Position, p: int, code: int) -> list[Move]:
        """The shifts (if any) and the play that put `code` from pile p on a foundation."""
        counts = list(pos.foundations)
        for f in self.rules.of_suit[code // 13]:
            if self.next_code[f][counts[f]] == code:
                return [Play(p, card_of(code), f)]
        s = code // 13
        d, u = self.down[s], self.up[s]
        want = self.rank_in[u][code]  # cards on the up foundation when it waits for `code`
        out: list[Move] = []
        while counts[u] > want:
            out.append(Shift(u, d, card_of(self.takes[u][counts[u] - 1])))
            counts[u] -= 1
            counts[d] += 1
        while counts[u] < want:
            out.append(Shift(d, u, card_of(self.takes[d][counts[d] - 1])))
            counts[d] -= 1
            counts[u] += 1
        out.append(Play(p, card_of(code), u))
        return out


class PysolGreedySpace(PysolSuits):
    """Only the lines that deal and redeal once nothing can be played: a quick way to a win.

    One edge per phase, as under Arnold's rules: every distinct stuck position the plays can
    reach, then the next deal or redeal. A win here is a win of the real game; a loss here
    proves nothing.
    """

    label = "greedy"  # how a quick stage over this space is named (Stage.label)
    acyclic = True  # every step deals or redeals

    AHEAD_STATES = QUICK_AHEAD_STATES
    TANGLES = False

    def successors(self, pos: Position) -> Iterator[tuple[tuple, Position]]:
        return (edge for edge in self.open_successors(pos) if self.viable(edge[1]))

    def open_successors(self, pos: Position) -> Iterator[tuple[tuple, Position]]:
        """The successors before their dead test (`viable`): beams test only the ones
        they would keep (beam.Deferred)."""
        event = self.event(pos)
        for plays, piles, counts in self.settle(pos):
            stuck = Position(piles, counts, pos.stock, pos.rounds)
            if self.is_won(stuck):
                yield (plays, None), stuck
            elif event is not None:
                yield (plays, event), self.table.apply(stuck, event)

    def viable(self, pos: Position) -> bool:
        """Whether a successor may still be won: won, or not dead with the redeals ahead."""
        return self.is_won(pos) or not self.dead(pos, ahead=True)

    def deferred(self) -> Deferred:
        return Deferred(self.open_successors, self.viable)


class PysolHoldSpace(PysolGreedySpace):
    """The greedy lines and, at each deal or redeal, also the line that makes only the safe
    plays (`safe`) before it and holds every other card back. A win is a win; a loss here
    proves nothing.
    """

    label = "hold"  # how a quick stage over this space is named (Stage.label)

    def open_successors(self, pos: Position) -> Iterator[tuple[tuple, Position]]:
        yield from super().open_successors(pos)
        event = self.event(pos)
        if event is not None and self.playable(pos.piles, pos.foundations):
            plays, piles, counts = self.play_safe(pos, (), pos.piles, pos.foundations, frozenset())
            yield (plays, event), self.table.apply(Position(piles, counts, pos.stock, pos.rounds), event)


class PysolState(NamedTuple):
    """A position and the cards the line has decided to hold back (see PysolSpace)."""

    pos: Position
    frozen: Held  # cards that wait for their other copy's play or their pile's redeal
    passed: Held  # cards that will not start their suit's second copies from where they lie


class PysolSpace(PysolSuits):
    """PySolFC's rules, exactly: one decision per edge.

    A state is a canonical Position with the cards the line holds back. After the safe
    plays (`safe`), the first card that can be played and is not held back is either
    played now or held back; when no such card is left, the next deal or redeal comes (and
    with none left, the line ends). "Play" is tried first, so the first line is greedy.

    Holding a card X back is for good: X may not be played until its other copy has been
    played or its pile has been picked up for a redeal. No win is lost: a line that keeps X
    and still plays it from the same pile before both does no better than playing X now,
    by the argument of `safe` (its suit cannot reach 13 cards without X or its copy, so
    every card of the suit played in between extends the other end). So the lines that
    keep X are exactly those that need to: X's copy goes first, or X is still in its pile,
    under later cards, when the pile is dealt out again. A step "hold" moves no card.

    At 13 cards any card of the suit can be played, as the centre of its second copies: the
    first such card is played now, or passed over as the centre (until another card sets
    it, or its pile is redealt); setting it later from the same place, with nothing of its
    suit played in between, is the same as setting it now.
    """

    label = "exact"  # how a quick stage over this space is named (Stage.label)

    acyclic = False  # one pass, exact on any graph: no proof here that no line returns to a state

    def start(self) -> PysolState:  # type: ignore[override]
        return PysolState(self._start, frozenset(), frozenset())

    def is_won(self, state: PysolState) -> bool:  # type: ignore[override]
        return all(n == FOUNDATION_CARDS for n in state[0].foundations)

    def cards_down(self, state: PysolState) -> int:  # type: ignore[override]
        return sum(state.pos.foundations)

    def key(self, state: PysolState) -> Hashable:  # type: ignore[override]
        """The state packed into bytes, a fifth of the memory of the tuples (a search keeps
        millions). It reads back one way only: each pile's codes ended by 255 (no code or
        height is 255), the foundations, stock and rounds (ten bytes), the sorted frozen
        holds (three bytes each) ended by 255, then the sorted passed holds (two bytes each)."""
        pos, frozen, passed = state
        packed = bytearray()
        for pile in pos.piles:
            packed += pile
            packed.append(NONE)
        packed += bytes(pos.foundations)
        packed.append(pos.stock)
        packed.append(pos.rounds)
        for hold in sorted(frozen):
            packed += bytes(hold)
        packed.append(NONE)
        for hold in sorted(passed):
            packed += bytes(hold)
        return bytes(packed)

    def successors(self, state: PysolState) -> Iterator[tuple[tuple, PysolState]]:
        return self.edges(state, check_ends=True)

    @staticmethod
    def position_of(key: bytes) -> Position:
        """The position a state's key (`key`) holds, without its holds."""
        piles, at = [], 0
        for _ in range(PILES):
            end = key.index(NONE, at)
            piles.append(key[at:end])
            at = end + 1
        return Position(tuple(piles), tuple(key[at : at + 8]), key[at + 8], key[at + 9])

    def native(self) -> Callable[..., tuple] | None:
        """The compiled core's search of this space (see basics/compiled.py), when it was built."""
        return self.native_from(self.start())

    def native_from(self, root: PysolState) -> Callable[..., tuple] | None:
        """The compiled search of this space from `root` (its state is `key(root)`), or None
        without the core."""
        core = compiled_core()
        if core is None:
            return None
        return partial(core.search_pysol, self.key(root), *self.core_rules())

    def core_rules(self) -> tuple:
        """The deal and the rules as the compiled core reads them (search_pysol and
        pysol_phases take them in this order): the deal's codes, each foundation's codes in
        order, each suit's Jack-down and Queen-up foundations, the lost tests' budgets and
        whether the two-suit one runs, and the step objects for a deal and a redeal."""
        takes = bytes(code for codes in self.takes for code in codes)
        return (self.table.codes, takes, bytes(self.down), bytes(self.up), self.AHEAD_STATES, self.tangles.budget, self.TANGLES, Deal(), Redeal)

    def edges(self, state: PysolState, check_ends: bool) -> Iterator[tuple[tuple, PysolState]]:
        """The successors; without `check_ends`, a deal or redeal's result comes without its
        dead test (`viable`)."""
        pos, frozen, passed = state
        plays, piles, counts = self.play_safe(pos, (), pos.piles, pos.foundations, frozen)
        after = Position(piles, counts, pos.stock, pos.rounds)
        if all(n == FOUNDATION_CARDS for n in counts):
            yield (plays, None), PysolState(after, frozenset(), frozenset())
            return
        _, frozen, passed = self.held(after, frozen, passed)  # the safe plays may free some
        choice = self.first_choice(piles, counts, frozen, passed)
        if choice is None:
            event = self.event(pos)
            if event is not None:
                redealt = event.pile if isinstance(event, Redeal) else -1
                dealt = self.held(self.table.apply(after, event), frozen, passed, redealt)
                if not check_ends or self.viable(dealt):
                    yield (plays, event), dealt
            return
        p, result = choice
        code = piles[p][-1]
        spot = (p, len(piles[p]) - 1)
        played = self.play(plays, piles, counts, p, result)
        child = Position(played[1], played[2], pos.stock, pos.rounds)
        yield from self.alive((played[0], None), self.held(child, frozen, passed))
        if self.at_thirteen(counts, code):
            yield from self.alive((plays, None), self.held(after, frozen, passed | {spot}))
        else:
            yield from self.alive((plays, None), self.held(after, frozen | {(*spot, self.copies_down(counts, code))}, passed))

    def alive(self, step: tuple, state: PysolState) -> Iterator[tuple[tuple, PysolState]]:
        """The step and its state, unless no line that keeps the state's holds can win from
        it (pysol_dead.py)."""
        if not self.dead(*state):
            yield step, state

    def viable(self, state: PysolState) -> bool:
        """Whether a deal or redeal's result may still be won: as `alive`, and with the
        redeals to come too."""
        return self.is_won(state) or not self.dead(*state, ahead=True)

    def held(self, pos: Position, frozen: Held, passed: Held, redealt: int = -1) -> PysolState:
        """The state with holds that no longer bind dropped: the other copy has been played,
        the suit has left 13, or the pile has been redealt."""
        piles, counts = pos.piles, pos.foundations
        if frozen:
            frozen = self.binding(frozen, piles, counts, redealt)
        if passed:
            passed = frozenset((p, h) for p, h in passed if p != redealt and self.at_thirteen(counts, piles[p][h]))
        return PysolState(pos, frozen, passed)

    def first_choice(self, piles: Piles, counts: Counts, frozen: Held, passed: Held) -> tuple[int, tuple[int, int]] | None:
        """The first pile whose top card can be played and is not held back, with what it does."""
        spots = {(p, h) for p, h, _ in frozen}
        for p, after in self.playable(piles, counts):
            spot = (p, len(piles[p]) - 1)
            if spot not in spots and not (spot in passed and self.at_thirteen(counts, piles[p][-1])):
                return p, after
        return None


class PysolPhaseSpace(PysolSpace):
    """The exact space seen one phase at a time, for beams: a step is everything a line
    does up to and including its next deal or redeal (or its win).

    A state's successors are the distinct states the exact space reaches right after its
    next deal or redeal, at most `outcomes` of them: a beam compares states after the same
    number of deals and redeals, which the exact space's single decisions would not let it
    do. The walk is depth-first and takes the last decision first, so the line that holds
    back every card it may comes first and the greedy line last: the hold space's beams
    have the greedy lines already. With `holds`, a phase holds back at most that many cards
    (the lines that stray least from the greedy one: far fewer outcomes, spread over the
    whole phase). Cut, this space only finds wins.

    A beam takes the phase's ends before their dead test (`open_successors`) and tests only
    the ones it would keep. The cap then counts ends before that test, so a cut phase may
    keep fewer live ends than `successors` gives. On games 41-48 the cap bound in none of
    the 12,883 phases of the one- and two-hold beams, in 51 of 6,485 with three holds and
    in 329 of 7,056 with any number.
    """

    label = "phase"  # how a quick stage over this space is named (Stage.label)
    acyclic = True  # every step deals or redeals

    def __init__(self, table: Table, start: Position | None = None, outcomes: int = 300, holds: int | None = None) -> None:
        super().__init__(table, start)
        self.outcomes = outcomes
        self.holds = holds

    def successors(self, state: PysolState) -> Iterator[tuple[tuple, PysolState]]:
        return self.phase(state, check_ends=True)

    def native(self) -> None:
        """None: the compiled core holds the exact space, not its phases."""
        return None

    def open_successors(self, state: PysolState) -> Iterator[tuple[tuple, PysolState]]:
        """The successors before the dead test of each phase's end (`viable`): beams test
        only the ones they would keep (beam.Deferred)."""
        return self.phase(state, check_ends=False)

    def deferred(self) -> Deferred:
        return Deferred(self.open_successors, self.viable)

    def greedy_phase(self, state: PysolState) -> Iterator[tuple[tuple, PysolState]]:
        """The exact space's first line through the phase, and its end before the dead test:
        at each choice the play, or the hold where the play is dead (nothing when both are).
        The line a beam's playouts follow (search/beam.py)."""
        steps = []
        while True:
            edge = next(self.edges(state, check_ends=False), None)
            if edge is None:
                return
            step, state = edge
            steps.append(step)
            if self.ends_phase(step, state):
                yield tuple(steps), state
                return

    def ends_phase(self, step: tuple, state: PysolState) -> bool:
        """Whether an edge ends its phase: a deal or redeal, or a win."""
        return step[1] is not None or self.is_won(state)

    def phase(self, state: PysolState, check_ends: bool) -> Iterator[tuple[tuple, PysolState]]:
        """The ends of the phase from `state` (see the class docstring)."""
        inner: dict = {}  # states inside the phase, with the fewest holds a line reached them with
        ends: set = set()
        found = 0
        todo: list[tuple[PysolState, tuple, int]] = [(state, (), 0)]
        while todo:
            here, steps, holds = todo.pop()
            for step, child in self.edges(here, check_ends):
                k = self.key(child)
                if not self.ends_phase(step, child):
                    # A step that holds a card back adds a hold; a play only drops holds.
                    more = holds + (not (child.frozen <= here.frozen and child.passed <= here.passed))
                    if self.holds is None:
                        if k in inner:
                            continue
                    elif more > self.holds or inner.get(k, more + 1) <= more:
                        continue  # a state reached again with fewer holds goes on again: more lines do
                    inner[k] = more
                    todo.append((child, (*steps, step), more))
                    continue
                if k in ends:
                    continue
                ends.add(k)
                yield (*steps, step), child
                found += 1
                if found == self.outcomes:
                    return

    def moves(self, steps: Sequence[tuple]) -> list[Move]:
        return super().moves([step for phase in steps for step in phase])

"""The compiled "lost" tests of PySolFC's Matrimony (solver/_core/pysol_dead.c) against the
Python ones they twin: pysol_dead.py's SuitPuzzle and pysol_tangle.py's Tangles, combined
as PysolSuits.dead combines them.

Two of the searches give up "undecided" after a budget of states, so the C code must tell
states apart and count them exactly as Python does for a budget to cut the same searches.
The positions are the ones where that bites: late positions of random lines of real deals
(stock empty, several redeals made) with random holds, the positions a real search of the
exact space tests, and two suits tangled in the settled piles, each under the default
budgets, the quick one and tiny ones. The tests count the answers that were True, the
searches a budget cut short and the cases where the budget changed the answer, and insist
on enough of each, so that they cannot pass by comparing only easy answers.
"""

from __future__ import annotations

import builtins
import ctypes
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tiers import examples
from wedlock.basics import compiled as core
from wedlock.basics.numbering import GameNumber
from wedlock.games.matrimony import pysol_dead, pysol_tangle
from wedlock.games.matrimony.deal import numbered_deal
from wedlock.games.matrimony.moves import Play, Shift
from wedlock.games.matrimony.play import Position, Table
from wedlock.games.matrimony.pysol_dead import AHEAD_STATES, SuitPuzzle
from wedlock.games.matrimony.pysol_space import QUICK_AHEAD_STATES, PysolSpace
from wedlock.games.matrimony.pysol_tangle import TANGLE_STATES, Tangles
from wedlock.games.matrimony.rules import DECK, PILES, RULE_SETS

pytestmark = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")

PYSOL = RULE_SETS["pysol"]
# (SuitPuzzle's ahead_states, Tangles' budget): the defaults, the quick spaces' value, and
# tiny ones that cut often.
BUDGETS = ((AHEAD_STATES, TANGLE_STATES), (QUICK_AHEAD_STATES, TANGLE_STATES), (1, 1), (3, 3), (10, 10), (QUICK_AHEAD_STATES, 10))
FLAGS = ((False, False), (True, False), (True, True), (False, True))  # (ahead, tangles)


def rank_in() -> list[list[int]]:
    """PysolSuits.rank_in: where each card stands in each foundation's order."""
    table = [[255] * 52 for _ in PYSOL.takes]
    for f, codes in enumerate(PYSOL.takes):
        for k, code in enumerate(codes):
            table[f][code] = k
    return table


RANK_IN = rank_in()
DOWN, UP = bytes(PYSOL.jack_down), bytes(PYSOL.queen_up)
PLACE = bytes(RANK_IN[UP[code // 13]][code] for code in range(52))
Holds = tuple[Sequence[tuple[int, int, int]], Sequence[tuple[int, int]]]


def compiled(pos: Position, frozen: Sequence, passed: Sequence, ahead: bool, tangles: bool, budgets: tuple[int, int]) -> bool:
    return core._core.pysol_dead(
        down=DOWN,
        up=UP,
        place=PLACE,
        ahead_states=budgets[0],
        tangle_states=budgets[1],
        piles=list(pos.piles),
        counts=bytes(pos.foundations),
        stock=pos.stock,
        rounds=pos.rounds,
        frozen=bytes(x for hold in frozen for x in hold),
        passed=bytes(x for hold in passed for x in hold),
        ahead=ahead,
        tangles=tangles,
    )


class Reference:
    """PysolSuits.dead in Python, for each pair of budgets, counting what it answers.

    A search is cut short when it finds `len(seen) >= budget`; `len` is looked up in the
    modules' globals first, so a counting `len` installed there (`install`) sees the sizes
    the budgets are compared with, and nothing else changes."""

    def __init__(self) -> None:
        self.puzzles = {b: (SuitPuzzle(DOWN, UP, RANK_IN, b[0]), Tangles(DOWN, UP, RANK_IN, budget=b[1])) for b in BUDGETS}
        self.most_seen = {"ahead": 0, "tangle": 0}
        self.checks = self.true = self.cuts = self.budget_mattered = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def counting(which: str):
            def counting_len(x) -> int:
                n = builtins.len(x)
                if type(x) is set:
                    self.most_seen[which] = max(self.most_seen[which], n)
                return n

            return counting_len

        monkeypatch.setattr(pysol_dead, "len", counting("ahead"), raising=False)
        monkeypatch.setattr(pysol_tangle, "len", counting("tangle"), raising=False)

    def dead(self, pos: Position, frozen: Sequence, passed: Sequence, ahead: bool, tangles: bool, budgets: tuple[int, int]) -> bool:
        suit_puzzle, tangle_puzzle = self.puzzles[budgets]
        self.most_seen.update(ahead=0, tangle=0)
        answer = suit_puzzle.dead(pos, frozen, passed, ahead) or (ahead and tangles and tangle_puzzle.dead(pos))
        self.checks += 1
        self.true += answer
        self.cuts += self.most_seen["ahead"] >= budgets[0] or self.most_seen["tangle"] >= budgets[1]
        return answer

    def compare(self, pos: Position, frozen: Sequence = (), passed: Sequence = (), flags: Sequence = FLAGS) -> None:
        """C against Python under every pair of budgets and flags; `budget_mattered` counts
        the flags under which the budgets gave different answers."""
        for ahead, tangles in flags:
            answers = set()
            for budgets in BUDGETS:
                expected = self.dead(pos, frozen, passed, ahead, tangles, budgets)
                what = (pos, frozen, passed, ahead, tangles, budgets)
                assert compiled(pos, frozen, passed, ahead, tangles, budgets) == expected, what
                answers.add(expected)
            self.budget_mattered += len(answers) > 1


@pytest.fixture
def reference(monkeypatch: pytest.MonkeyPatch) -> Reference:
    ref = Reference()
    ref.install(monkeypatch)
    return ref


def table_of(game: int) -> Table:
    return Table(PYSOL, tuple(numbered_deal(GameNumber.parse(str(game)))))


def late_positions(table: Table, rng: random.Random, rounds: int) -> list[Position]:
    """The positions of a random line once the stock is empty, until `rounds` redeals are
    made. Plays come four times out of five, and a shift now and then, so that the suits'
    counts are not always written one way."""
    pos, out = table.start(), []
    while pos.rounds < rounds:
        moves = [m for m in table.legal_moves(pos) if not isinstance(m, Shift) or rng.random() < 0.05]
        if not moves:
            break
        plays = [m for m in moves if isinstance(m, Play)]
        events = [m for m in moves if not isinstance(m, (Play, Shift))]
        pos = table.apply(pos, rng.choice(plays) if plays and (not events or rng.random() < 0.8) else rng.choice(moves))
        if pos.stock == DECK and pos.rounds:
            out.append(pos)
    return out


def copies_down(counts: Sequence[int], code: int) -> int:
    """PysolSpace.copies_down: copies of the card on the foundations (1 for a suit at 13)."""
    d, u = DOWN[code // 13], UP[code // 13]
    if counts[d] + counts[u] == 13:
        return 1
    return (counts[d] > RANK_IN[d][code]) + (counts[u] > RANK_IN[u][code])


def random_holds(rng: random.Random, pos: Position) -> Holds:
    """Holds as PysolSpace makes them, mostly on settled piles: frozen cards (pile, height,
    copies down) and passed ones (pile, height), some on pile tops with their true copies
    down, some anywhere."""
    first = PILES - pos.rounds
    spots = [(p, h) for p in range(PILES) for h in range(len(pos.piles[p]))]
    settled = [(p, h) for p, h in spots if p >= first]
    frozen: list[tuple[int, int, int]] = []
    passed: list[tuple[int, int]] = []
    if not spots:
        return frozen, passed
    for _ in range(rng.randrange(4)):
        p, h = rng.choice(settled if settled and rng.random() < 0.8 else spots)
        frozen.append((p, h, rng.randrange(2)))
    tops = [p for p in range(first, PILES) if pos.piles[p]]
    if tops and rng.random() < 0.5:
        p = rng.choice(tops)
        frozen.append((p, len(pos.piles[p]) - 1, copies_down(pos.foundations, pos.piles[p][-1])))
    for _ in range(rng.randrange(3)):
        passed.append(rng.choice(settled if settled and rng.random() < 0.8 else spots))
    return frozen, passed


@pytest.mark.slow
@pytest.mark.parametrize("games", [range(1, 9), range(9, 17), range(17, 25), range(25, 33)])
def test_late_positions_of_random_lines(games: range, reference: Reference) -> None:
    rng = random.Random(games.start)
    for game in games:
        table = table_of(game)
        for rounds in (rng.randint(2, 8), rng.randint(9, 16)):
            positions = late_positions(table, rng, rounds)
            for pos in rng.sample(positions, min(6, len(positions))):
                for frozen, passed in (((), ()), random_holds(rng, pos)):
                    reference.compare(pos, frozen, passed)
    assert reference.checks > 3000
    assert reference.true > reference.checks // 10, "too few positions are lost to test the cuts"
    assert reference.cuts > reference.checks // 20, "too few searches are cut short by their budget"
    assert reference.budget_mattered > 5, "the budgets change too few answers"


class Recording(PysolSpace):
    """The exact space, keeping every dead test it makes."""

    calls: list[tuple[Position, tuple, tuple, bool]]

    def dead(self, pos: Position, frozen=frozenset(), passed=frozenset(), ahead: bool = False) -> bool:
        self.calls.append((pos, tuple(frozen), tuple(passed), ahead))
        return super().dead(pos, frozen, passed, ahead)


def search_calls(table: Table, start: Position, states: int) -> Iterator[tuple[Position, tuple, tuple, bool]]:
    """The dead tests of a depth-first walk of the exact space over `states` states."""
    space = Recording(table, start)
    space.calls = []
    todo, seen = [space.start()], set()
    while todo and len(seen) < states:
        state = todo.pop()
        if space.key(state) in seen:
            continue
        seen.add(space.key(state))
        todo.extend(child for _, child in space.successors(state))
    return iter(space.calls)


@pytest.mark.slow
@pytest.mark.parametrize("games", [(2, 4, 6, 8, 10), (12, 14, 16, 18, 20)])
def test_positions_a_real_search_tests(games: tuple[int, ...], reference: Reference) -> None:
    rng = random.Random(games[0])
    for game in games:
        table = table_of(game)
        for rounds in (rng.randint(1, 6), rng.randint(7, 14)):
            positions = [pos for pos in late_positions(table, rng, rounds) if pos.rounds == rounds]
            if not positions:
                continue
            calls = list(search_calls(table, positions[0], 60))
            for pos, frozen, passed, ahead in rng.sample(calls, min(60, len(calls))):
                flags = [(ahead, False), (ahead, True)]  # as the search asks, with and without the two-suit puzzle
                reference.compare(pos, frozen, passed, flags)
    assert reference.checks > 1000
    assert reference.true > reference.checks // 20
    assert reference.cuts > reference.checks // 50
    assert reference.budget_mattered > 5


class SharedChecker:
    """One compiled checker kept across many checks, as the compiled search keeps it, so
    that its caches answer some of them. _core.pysol_dead makes a fresh one per call, so
    this calls the C functions the extension exports (pysol_dead.h) through ctypes."""

    def __init__(self, budgets: tuple[int, int]) -> None:
        lib = ctypes.CDLL(core._core.__file__)
        self.new, self.check, self.free = lib.pysol_dead_new, lib.pysol_dead_check, lib.pysol_dead_free
        self.new.restype = ctypes.c_void_p
        self.new.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
        self.check.restype = ctypes.c_int
        self.check.argtypes = [ctypes.c_void_p, ctypes.c_char_p * PILES, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
        self.check.argtypes += [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        self.free.argtypes = [ctypes.c_void_p]
        self.handle = self.new(DOWN, UP, PLACE, *budgets)
        assert self.handle

    def dead(self, pos: Position, frozen: Sequence, passed: Sequence, ahead: bool, tangles: bool) -> bool:
        piles = (ctypes.c_char_p * PILES)(*pos.piles)
        frozen_b, passed_b = bytes(x for hold in frozen for x in hold), bytes(x for hold in passed for x in hold)
        lens = bytes(len(pile) for pile in pos.piles)
        answer = self.check(
            self.handle,
            piles,
            lens,
            bytes(pos.foundations),
            pos.stock,
            pos.rounds,
            frozen_b,
            len(frozen),
            passed_b,
            len(passed),
            ahead,
            tangles,
        )
        assert answer in (0, 1)
        return bool(answer)

    def close(self) -> None:
        self.free(self.handle)


@pytest.mark.slow
def test_one_checker_answers_alike_across_many_checks() -> None:
    if not hasattr(ctypes.CDLL(core._core.__file__), "pysol_dead_check"):
        pytest.skip("the extension does not export the C functions")
    reference = Reference()
    checkers = {budgets: SharedChecker(budgets) for budgets in ((AHEAD_STATES, TANGLE_STATES), (3, 3))}
    rng = random.Random(7)
    try:
        for game in (21, 22, 23, 24):
            table = table_of(game)
            positions = late_positions(table, rng, 16)
            for pos in positions[:: max(1, len(positions) // 60)]:
                frozen, passed = random_holds(rng, pos)
                for budgets, checker in checkers.items():
                    for ahead, tangles in FLAGS:
                        expected = reference.dead(pos, frozen, passed, ahead, tangles, budgets)
                        assert checker.dead(pos, frozen, passed, ahead, tangles) == expected, (pos, frozen, passed, ahead, tangles, budgets)
                        assert checker.dead(pos, (), (), ahead, tangles) == reference.dead(pos, (), (), ahead, tangles, budgets)
    finally:
        for checker in checkers.values():
            checker.close()
    assert reference.true > reference.checks // 10


def two_suit_position(rng: random.Random) -> Position:
    """Every pile settled and two suits near their end, the others finished. Each suit's
    cards still to play go, in an order its foundations take, into a few piles (each
    pile's top card first) or stay outside them, so each suit alone can be finished; the
    two suits' cards are then shuffled together in each pile, keeping each suit's order,
    which tangles them now and then: the two-suit puzzle's business, with searches of
    every size."""
    counts = [13] * 8
    used = rng.sample(range(PILES), rng.randint(2, 5))
    stacks: dict[int, list[list[int]]] = {p: [] for p in used}  # per pile, each suit's cards bottom first
    for s in rng.sample(range(4), 2):
        total = rng.randint(4, 20)
        d = rng.randint(max(0, total - 13), min(13, total))
        counts[DOWN[s]], counts[UP[s]] = suit = (0, 13) if total == 13 else (d, total - d)
        mine: dict[int, list[int]] = {p: [] for p in used}
        while suit != (13, 13):
            x = rng.choice(pysol_dead._wanted(*suit))
            if rng.random() < 0.85:
                mine[rng.choice(used)].insert(0, next(code for code in range(13 * s, 13 * s + 13) if PLACE[code] == x))
            suit = pysol_dead._after(*suit, x)
        for p in used:
            stacks[p].append(mine[p])
    piles = [b""] * PILES
    for p, (first, second) in stacks.items():
        slots = sorted(rng.sample(range(len(first) + len(second)), len(first)))
        merged, i, j = [], 0, 0
        for k in range(len(first) + len(second)):
            if i < len(slots) and slots[i] == k:
                merged.append(first[i])
                i += 1
            else:
                merged.append(second[j])
                j += 1
        piles[p] = bytes(merged)
    return Position(tuple(piles), tuple(counts), DECK, 16)


def test_two_suit_puzzles(reference: Reference) -> None:
    rng = random.Random(11)
    for _ in range(400):
        reference.compare(two_suit_position(rng), flags=[(True, True)])
    assert reference.true > reference.checks // 20
    assert reference.cuts > reference.checks // 10
    assert reference.budget_mattered > 20


@st.composite
def any_position(draw) -> tuple[Position, Holds]:
    """Positions no game reaches: any cards in any piles (a card more often than the game
    has it, too), any counts, with holds anywhere."""
    piles = draw(st.lists(st.binary(max_size=9).map(lambda b: bytes(x % 52 for x in b)), min_size=16, max_size=16))
    counts = draw(st.lists(st.sampled_from([0, 13]) | st.integers(0, 13), min_size=8, max_size=8))
    pos = Position(tuple(piles), tuple(counts), draw(st.sampled_from([DECK, DECK, DECK, 60])), draw(st.integers(0, 16)))
    spots = [(p, h) for p in range(PILES) for h in range(len(piles[p]))]
    if not spots:
        return pos, ((), ())
    spot = st.sampled_from(spots)
    frozen = draw(st.lists(st.tuples(spot, st.integers(0, 2)).map(lambda t: (*t[0], t[1])), max_size=4))
    passed = draw(st.lists(spot, max_size=3))
    return pos, (frozen, passed)


@settings(max_examples=examples(150), deadline=None)
@given(any_position())
def test_any_position(case: tuple[Position, Holds]) -> None:
    pos, (frozen, passed) = case
    Reference().compare(pos, frozen, passed)


def good_arguments() -> dict:
    pos = late_positions(table_of(3), random.Random(3), 4)[-1]
    return dict(
        down=DOWN,
        up=UP,
        place=PLACE,
        ahead_states=10,
        tangle_states=10,
        piles=list(pos.piles),
        counts=bytes(pos.foundations),
        stock=DECK,
        rounds=pos.rounds,
        frozen=b"",
        passed=b"",
        ahead=True,
        tangles=True,
    )


def test_good_arguments_are_taken() -> None:
    assert core._core.pysol_dead(**good_arguments()) in (True, False)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(down=b"\0\1\2"), "down must be 4 bytes"),
        (dict(up=bytes([0, 1, 2, 9])), r"up\[3\] is 9"),
        (dict(place=PLACE[:51]), "place must be 52 bytes"),
        (dict(place=bytes(52)), "place must give suit 0"),
        (dict(counts=bytes([14] * 8)), r"counts\[0\] is 14"),
        (dict(counts=bytes(7)), "counts must be 8 bytes"),
        (dict(piles=[b""] * 15), "must be 16 piles"),
        (dict(piles=[b""] * 15 + [bytes([52])]), "not a card code"),
        (dict(piles=[b""] * 15 + ["x"]), "pile 15 must be bytes"),
        (dict(piles=[b""] * 15 + [bytes(105)]), "more than 104"),
        (dict(piles=7), "piles must be a sequence"),
        (dict(frozen=b"\0\0"), "3 bytes per hold"),
        (dict(frozen=bytes([0, 200, 0])), "not a card in the piles"),
        (dict(frozen=bytes([16, 0, 0])), "not a card in the piles"),
        (dict(frozen=bytes([15, 0, 3])), "at most 2"),
        (dict(passed=b"\0"), "2 bytes per hold"),
        (dict(passed=bytes([3, 99])), "not a card in the piles"),
        (dict(stock=105), "stock must be 0..104"),
        (dict(rounds=17), "rounds 0..16"),
        (dict(ahead_states=-1), "must be >= 0"),
    ],
)
def test_bad_input_is_refused(change: dict, message: str) -> None:
    arguments = good_arguments()
    arguments["piles"] = [bytes([5])] * 16
    arguments.update(change)
    with pytest.raises(ValueError, match=message):
        core._core.pysol_dead(**arguments)

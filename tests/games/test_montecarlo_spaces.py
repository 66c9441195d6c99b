"""The solver's Monte Carlo search spaces agree with the plain search over single moves.

Each reduction the solver uses (phases, dropping split phases, the Weddings dead-rank cut
and its end-game parts) is a claim; here the verdict of every space is compared with the
plain space's on many positions small enough to search in full, and every win is replayed
by the independent referee from the deal's first card.
"""

from __future__ import annotations

import random

import pytest

from tests.games.positions import cards_left, late_position, near_win_position, stored_win
from tests.games.test_montecarlo_verify import play_out, slip
from tests.tiers import first_quick
from wedlock.basics.compiled import compiled_core
from wedlock.basics.deals import numbered_deal
from wedlock.basics.numbering import GameNumber
from wedlock.games.montecarlo import GAME
from wedlock.games.montecarlo.moves import Consolidate, coded
from wedlock.games.montecarlo.rules import RULE_SETS, SLIDE
from wedlock.games.montecarlo.spaces import ColumnSpace, PhaseSpace, SequenceSpace
from wedlock.games.montecarlo.verify import referee, replay_codes
from wedlock.games.plain_space import PlainSpace
from wedlock.search.exhaustive import LOST, WON, Limits, solve

EXHAUSTIVE = Limits(max_states=None)
SIZES = {"pysol": 36, "strict": 40, "5x4": 34, "thirteens": 30, "weddings": 32, "2decks": 44}
# Deals whose late positions test the Weddings stuck-card cut hard: some need a stock
# partner for a card that has a grid partner in reach (78, 138), some live only through a
# rank's second or third pairing (21, 40). Wrong `_pairings` or per-rank checks lose them.
MORE_GAMES = {"weddings": (21, 40, 78, 138)}


def fast_space(table, pos):
    """The space the solver itself uses for these rules."""
    return SequenceSpace(table, pos) if table.rules.consolidation == SLIDE else ColumnSpace(table, pos)


def positions(name: str):
    """Random late positions, and positions near the winning lines of a few real deals."""
    rules = RULE_SETS[name]
    for seed in range(60):
        yield late_position(rules, seed, SIZES[name] - seed % 12)
    for game in (9, 13, 19, 20):
        deal, win = _won_deal(rules, game)
        if win.verdict != WON:
            continue
        for seed in range(10):
            yield near_win_position(rules, deal, win.moves, seed, SIZES[name] - 2 * seed)
    for game in MORE_GAMES.get(name, ()):
        deal, line = stored_win(rules, game)
        assert referee(rules, deal, line).won, game
        for seed in range(10):
            yield near_win_position(rules, deal, line, seed, 30 - 2 * (seed % 2))


def _won_deal(rules, game: int):
    """The deal of `game` and the solver's answer for it."""
    deal = tuple(numbered_deal(GameNumber.parse(str(game)), rules.decks))
    return deal, GAME.solve(rules, deal, Limits(time_limit=10))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_solver_spaces_agree_with_plain_search(name: str) -> None:
    rules = RULE_SETS[name]
    verdicts = {WON: 0, LOST: 0}
    for seed, (table, pos, played) in enumerate(positions(name)):
        plain = solve(PlainSpace(table, pos), EXHAUSTIVE)
        for space in (PhaseSpace(table, pos), fast_space(table, pos)):
            found = solve(space, EXHAUSTIVE)
            assert found.verdict == plain.verdict, (name, seed, type(space).__name__)
            if found.verdict == WON:
                line = played + space.moves(found.steps)
                assert referee(rules, table.deal, line).won, (name, seed, type(space).__name__)
        verdicts[plain.verdict] += 1
    # The comparison means something only if both verdicts come up.
    assert verdicts[WON] >= 5 and verdicts[LOST] >= 5, verdicts


def test_weddings_dead_positions_are_lost() -> None:
    rules = RULE_SETS["weddings"]
    dead_seen = 0
    for seed in range(200):
        table, pos, _ = late_position(rules, seed, 30 - seed % 20)
        space = ColumnSpace(table, pos)
        if space.dead(*space.start()):
            dead_seen += 1
            assert solve(PlainSpace(table, pos), EXHAUSTIVE).verdict == LOST, seed
    assert dead_seen >= 20


def test_restarts_do_not_change_verdicts() -> None:
    rules = RULE_SETS["pysol"]
    for seed in range(40):
        table, pos, _ = late_position(rules, seed, 40)
        single = solve(SequenceSpace(table, pos), Limits(first_pass=None))
        restarting = solve(SequenceSpace(table, pos), Limits(first_pass=1))
        assert single.verdict == restarting.verdict


def test_late_positions_are_what_they_claim() -> None:
    rules = RULE_SETS["pysol"]
    table, pos, played = late_position(rules, 3, 20)
    assert cards_left(table, pos) <= 20
    assert not table.can_consolidate(pos)
    assert referee(rules, table.deal, played).moves_played == len(played)


@pytest.mark.parametrize("name", first_quick(sorted(RULE_SETS), keep=3))
def test_coded_wins_replay_alike_with_their_slips(name: str) -> None:
    """The solver's wins, as coded moves, win in the referee's replay on ints; with a move
    dropped, or a slip or a consolidation put in, it stops where the reference stops."""
    rules, rng, won = RULE_SETS[name], random.Random(name), 0
    for number in range(1, 25):
        cards = GAME.numbered_deal(rules, str(number))
        space = GAME.space(rules, cards)
        out = solve(space, Limits(max_states=100_000))
        if out.verdict != WON:
            continue
        won += 1
        codes, moves = space.codes(out.steps), space.moves(out.steps)
        assert [coded(m) for m in moves] == codes
        if isinstance(space, SequenceSpace):
            assert space.codes_python(out.steps) == codes
        assert replay_codes(rules, cards, codes) == (True, len(codes)) and referee(rules, cards, moves).won
        for _ in range(8):
            k = rng.randrange(len(moves))
            grid = list(play_out(rules, cards, moves[:k]).grid)
            for line in (moves[:k] + moves[k + 1 :], moves[:k] + [slip(rules, grid, rng)] + moves[k:], moves[:k] + [Consolidate()] + moves[k:]):
                verdict = referee(rules, cards, line)
                assert replay_codes(rules, cards, [coded(m) for m in line]) == (verdict.won, verdict.moves_played), (number, k)  # type: ignore[misc]
    assert won >= 5


def test_the_compiled_coding_of_steps_refuses_cells_the_state_lacks() -> None:
    core = compiled_core()
    if core is None:
        pytest.skip("the compiled core was not built, or WEDLOCK_PURE is set")
    rules = RULE_SETS["pysol"]
    space = GAME.space(rules, GAME.numbered_deal(rules, "1"))
    assert isinstance(space, SequenceSpace)
    for steps in [[((0, 52),)], [((-1, 1),)], [()], [((0, 1, 2),)], [[(0, 1)]], [((0, "1"),)], [((0, 2**70),)], 5]:
        with pytest.raises((ValueError, TypeError)):
            core.slide_codes(bytes(range(52)), rules.cells, steps)

    class Emptying:
        """An int-like that empties the steps when read: no int is, so it is refused unread."""

        def __index__(self) -> int:
            steps.clear()
            return 0

    steps: list = [((Emptying(), 1),) + tuple((i, i) for i in range(2, 26))]
    with pytest.raises(ValueError):
        core.slide_codes(bytes(range(52)), rules.cells, steps)
    assert steps  # never read
    # cards 0 and 1 at cells 0 and 1 go, then the stock fills the gaps
    assert core.slide_codes(bytes(range(52)), rules.cells, [((0, 1),)]) == [(0, 0, 1, 1), ()]

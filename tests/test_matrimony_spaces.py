"""The solver's Matrimony search spaces agree with the plain search over single moves.

Every reduction (phases, safe plays, the dead-line cut, the canonical keys) is a claim;
here each space's verdict is compared with the plain space's on many positions small enough
to search in full: late positions reached by random play from real deals, and positions on
and just off the winning lines of won deals. Every win is replayed by the independent
referee from the deal's first card.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from solver.matrimony import GAME
from solver.matrimony.arnold_space import ArnoldSpace
from solver.matrimony.deal import numbered_deal
from solver.matrimony.moves import Deal, Move, Play, Redeal
from solver.matrimony.play import Position, Table
from solver.matrimony.rules import RULE_SETS
from solver.matrimony.spaces import PlainSpace
from solver.matrimony.verify import referee
from solver.numbering import GameNumber
from solver.search import LOST, WON, Limits, solve

ARNOLD = RULE_SETS["arnold"]
EXHAUSTIVE = Limits(max_states=None, first_pass=None)
WON_ARNOLD = (2, 36)  # deals Arnold's rules win, found by the solver and replayed below


def deal_of(game: int) -> tuple:
    return tuple(numbered_deal(GameNumber.parse(str(game))))


def random_line(table: Table, rng: random.Random, rounds: int) -> tuple[Position, list[Move]]:
    """Random legal play until `rounds` redeals are made (or the game ends)."""
    pos, line = table.start(), []
    while pos.rounds < rounds:
        moves = table.legal_moves(pos)
        if not moves:
            break
        move = rng.choice(moves)
        pos = table.apply(pos, move)
        line.append(move)
    return pos, line


@lru_cache(maxsize=None)
def winning_line(game: int) -> tuple[Move, ...]:
    solution = GAME.solve(ARNOLD, deal_of(game), Limits())
    assert solution.verdict == WON, game
    return tuple(solution.moves)


def arnold_positions():
    """(table, position, moves that reach it): random late positions, and positions on and
    just off winning lines."""
    for seed in range(40):
        table = Table(ARNOLD, deal_of(seed + 1))
        pos, line = random_line(table, random.Random(seed), 10 + seed % 7)
        yield table, pos, line
    for game in WON_ARNOLD:
        table = Table(ARNOLD, deal_of(game))
        win = winning_line(game)
        redeals = [i for i, m in enumerate(win) if isinstance(m, (Redeal, Deal))]
        for seed, cut in enumerate(redeals[-12:]):
            pos, line = table.start(), list(win[: cut + 1])
            for move in line:
                pos = table.apply(pos, move)
            # Off the line: a few random plays where the line had a choice.
            rng = random.Random(seed)
            for _ in range(seed % 3):
                plays = [m for m in table.legal_moves(pos) if isinstance(m, Play)]
                if not plays:
                    break
                move = rng.choice(plays)
                pos, line = table.apply(pos, move), line + [move]
            yield table, pos, line


def test_arnold_space_agrees_with_plain_search() -> None:
    verdicts = {WON: 0, LOST: 0}
    for n, (table, pos, line) in enumerate(arnold_positions()):
        plain = solve(PlainSpace(table, pos), EXHAUSTIVE)
        space = ArnoldSpace(table, pos)
        fast = solve(space, Limits(max_states=None))
        assert fast.verdict == plain.verdict, n
        if fast.verdict == WON:
            assert referee(ARNOLD, table.deal, line + space.moves(fast.steps)).won, n
        verdicts[plain.verdict] += 1
    assert verdicts[WON] >= 10 and verdicts[LOST] >= 20, verdicts


@pytest.mark.parametrize("game", range(1, 41))
def test_arnold_whole_games_agree_with_plain_search(game: int) -> None:
    table = Table(ARNOLD, deal_of(game))
    plain = solve(PlainSpace(table), Limits(max_states=None))
    space = ArnoldSpace(table)
    fast = solve(space, Limits(max_states=None))
    assert fast.verdict == plain.verdict
    if fast.verdict == WON:
        assert referee(ARNOLD, table.deal, space.moves(fast.steps)).won


def test_dead_positions_are_lost() -> None:
    dead_seen = 0
    for seed in range(300):
        table = Table(ARNOLD, deal_of(seed + 100))
        pos, _ = random_line(table, random.Random(seed), 8 + seed % 9)
        if ArnoldSpace(table, pos).dead(pos):
            dead_seen += 1
            assert solve(PlainSpace(table, pos), EXHAUSTIVE).verdict == LOST, seed
    assert dead_seen >= 30


@pytest.mark.parametrize("game", WON_ARNOLD)
def test_known_wins_replay(game: int) -> None:
    assert referee(ARNOLD, deal_of(game), winning_line(game)).won

"""Small reachable Monte Carlo positions for comparing search spaces."""

from __future__ import annotations

import random

from solver.cards import full_deck
from solver.montecarlo.moves import Consolidate, Move
from solver.montecarlo.play import GAP, Position, Table
from solver.montecarlo.rules import MonteCarloRules


def cards_left(table: Table, pos: Position) -> int:
    """Cards on the grid and in the stock."""
    return sum(c != GAP for c in pos.cells) + len(table.deal) - pos.stock


def late_position(rules: MonteCarloRules, seed: int, left: int) -> tuple[Table, Position, list[Move]]:
    """A random deal played at random until at most `left` cards remain (or play stops).

    The position is then consolidated when the rules allow, so that it can start a phase.
    Random play keeps the rank counts of a real game, so both won and lost positions come
    up. Returns the table, the position and the moves that reached it.
    """
    rng = random.Random(seed)
    deal = full_deck(rules.decks)
    rng.shuffle(deal)
    table = Table(rules, tuple(deal))
    pos, played = table.start(), []
    while cards_left(table, pos) > left:
        moves = table.legal_moves(pos)
        if not moves:
            break
        pairs = [m for m in moves if not isinstance(m, Consolidate)]
        move = rng.choice(pairs) if pairs and rng.random() < 0.8 else rng.choice(moves)
        pos = table.apply(pos, move)
        played.append(move)
    while table.can_consolidate(pos):
        removals = list(table.removals(pos))
        if rules.strict and removals:
            move = removals[0]
        else:
            move = Consolidate()
        pos = table.apply(pos, move)
        played.append(move)
    return table, pos, played


def near_win_position(
    rules: MonteCarloRules, deal: tuple, winning_line: list[Move], seed: int, left: int
) -> tuple[Table, Position, list[Move]]:
    """A position on a winning line once at most `left` cards remain, then a few random moves.

    Random play rarely keeps a Weddings game alive; starting from a known win and straying
    from it at random gives positions of both verdicts.
    """
    rng = random.Random(seed)
    table = Table(rules, deal)
    pos, played = table.start(), []
    for move in winning_line:
        if cards_left(table, pos) <= left and not table.can_consolidate(pos):
            break
        pos = table.apply(pos, move)
        played.append(move)
    for _ in range(rng.randrange(4)):
        moves = table.legal_moves(pos)
        if not moves:
            break
        move = rng.choice(moves)
        pos = table.apply(pos, move)
        played.append(move)
    while table.can_consolidate(pos):
        removals = list(table.removals(pos))
        move = removals[0] if rules.strict and removals else Consolidate()
        pos = table.apply(pos, move)
        played.append(move)
    return table, pos, played

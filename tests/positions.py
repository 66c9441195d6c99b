"""Small reachable Monte Carlo positions for comparing search spaces."""

from __future__ import annotations

import random

from solver.cards import full_deck
from solver.montecarlo.moves import Consolidate
from solver.montecarlo.play import GAP, Position, Table
from solver.montecarlo.rules import MonteCarloRules


def cards_left(table: Table, pos: Position) -> int:
    return sum(c != GAP for c in pos.cells) + len(table.deal) - pos.stock


def late_position(rules: MonteCarloRules, seed: int, left: int) -> tuple[Table, Position]:
    """A random deal played at random until at most `left` cards remain (or play stops).

    The position is then consolidated when the rules allow, so that it can start a phase.
    Random play keeps the rank counts of a real game, so both won and lost positions come up.
    """
    rng = random.Random(seed)
    deal = full_deck(rules.decks)
    rng.shuffle(deal)
    table = Table(rules, tuple(deal))
    pos = table.start()
    while cards_left(table, pos) > left:
        moves = table.legal_moves(pos)
        if not moves:
            break
        pairs = [m for m in moves if not isinstance(m, Consolidate)]
        move = rng.choice(pairs) if pairs and rng.random() < 0.8 else rng.choice(moves)
        pos = table.apply(pos, move)
    if table.can_consolidate(pos) and not (rules.strict and any(True for _ in table.removals(pos))):
        pos = table.consolidate(pos)
    return table, pos

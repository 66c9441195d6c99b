"""Small reachable Monte Carlo positions for comparing search spaces."""

from __future__ import annotations

import random

from wedlock.basics.cards import full_deck
from wedlock.basics.deals import numbered_deal
from wedlock.basics.numbering import GameNumber
from wedlock.games.montecarlo.moves import Consolidate, Move, parse_move
from wedlock.games.montecarlo.play import GAP, Position, Table
from wedlock.games.montecarlo.rules import MonteCarloRules


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


# Winning Weddings lines (found once by the solver; the tests replay them through the
# referee), so that positions near them do not depend on the cuts under test.
WEDDINGS_WINS: dict[int, str] = {
    21: (
        "A4 7S + B5 7C; D4 2C + E4 2H; B2 KS + C3 KC; consolidate; C1 5D + D2 5C; D4 JC + D5 "
        "JH; E3 AD + E4 AH; consolidate; C5 9S + D4 9C; consolidate; B5 QH + C5 QC; "
        "consolidate; E2 KH + E3 KD; C3 4H + D4 4C; consolidate; C3 JD + D3 JS; D5 3H + E5 "
        "3D; consolidate; E4 6C + E5 6D; D2 TC + E3 TD; A4 9D + B5 9H; consolidate; B2 TH + "
        "C3 TS; consolidate; A3 5S + B2 5H; consolidate; A4 8C + B3 8H; consolidate; B1 QS + "
        "B2 QD; consolidate; A1 AS + B1 AC; consolidate; A1 8D + A2 8S; consolidate; A1 3C + "
        "A2 3S; A3 7D + B4 7H; consolidate; A4 6S + B4 6H; A5 2D + B5 2S; consolidate; A5 4D "
        "+ B5 4S"
    ),
    40: (
        "A4 QH + B3 QD; D3 2D + E4 2S; consolidate; B4 7S + C3 7C; D5 4S + E5 4C; "
        "consolidate; E3 AH + E4 AC; C3 9H + D2 9C; consolidate; A5 KC + B4 KS; D4 TC + E4 "
        "TS; consolidate; B4 7H + C4 7D; consolidate; D1 TD + E2 TH; consolidate; B5 JH + C4 "
        "JC; D2 5C + E1 5D; consolidate; A3 3D + B4 3S; consolidate; B4 5S + C4 5H; C1 8D + "
        "D1 8C; D5 6S + E5 6D; consolidate; B3 3C + C4 3H; consolidate; A3 AD + B3 AS; "
        "consolidate; A2 JS + A3 JD; consolidate; A1 4D + B2 4H; consolidate; A2 KH + B2 KD; "
        "consolidate; A1 QC + A2 QS; consolidate; A1 9S + B1 9D; A3 6C + A4 6H; consolidate; "
        "A4 8H + B5 8S; consolidate; A5 2C + B5 2H"
    ),
    78: (
        "A4 9S + A5 9C; consolidate; C3 TS + C4 TH; consolidate; B4 KS + C4 KC; consolidate; "
        "A2 5H + A3 5S; consolidate; E1 7D + E2 7S; B1 QH + C2 QS; consolidate; C2 KH + D2 "
        "KD; consolidate; D3 5D + E4 5C; consolidate; C4 3C + C5 3H; consolidate; D1 6S + D2 "
        "6H; consolidate; B5 QD + C4 QC; consolidate; D3 8D + E2 8C; consolidate; D2 AD + E2 "
        "AS; D4 4D + E5 4C; consolidate; C5 6C + D4 6D; consolidate; A4 8H + B5 8S; "
        "consolidate; B3 JS + C4 JD; consolidate; A3 7H + B3 7C; consolidate; A4 2H + B5 2C; "
        "consolidate; B2 2S + B3 2D; consolidate; C1 4H + D2 4S; consolidate; C2 JH + D1 JC; "
        "B1 TC + C1 TD; A2 AH + A3 AC; consolidate; A1 9D + A2 9H; A4 3D + A5 3S"
    ),
    138: (
        "C3 JH + D2 JD; C5 4H + D4 4C; A1 6D + B1 6S; consolidate; B2 8S + C1 8C; D1 5S + E2 "
        "5H; consolidate; B1 3S + C1 3D; D3 9H + E3 9C; consolidate; A2 5D + B1 5C; B2 KH + "
        "C1 KS; consolidate; A1 7C + B2 7H; C3 2S + D4 2H; consolidate; D3 KC + E4 KD; "
        "consolidate; A3 QC + B2 QS; consolidate; A3 7S + B3 7D; C2 TS + D3 TD; A1 4D + B2 "
        "4S; C3 6C + D4 6H; D1 AD + E2 AH; consolidate; B1 JC + B2 JS; consolidate; A1 2D + "
        "B1 2C; B3 QD + C4 QH; consolidate; A2 TH + A3 TC; B5 AS + C4 AC; consolidate; A4 9D "
        "+ B5 9S; consolidate; A5 3H + B5 3C; consolidate; A4 8D + A5 8H"
    ),
}


def stored_win(rules: MonteCarloRules, game: int) -> tuple[tuple, list[Move]]:
    """The deal of Weddings game `game` and its line in WEDDINGS_WINS."""
    deal = tuple(numbered_deal(GameNumber.parse(str(game)), rules.decks))
    return deal, [parse_move(text, rules.cols) for text in WEDDINGS_WINS[game].split("; ")]

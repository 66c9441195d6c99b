"""Matrimony (Peter Arnold's rules and PySolFC's): the game as the CLI sees it."""

from __future__ import annotations

from typing import Any, Sequence

from ..cards import Card
from ..errors import DealError
from ..game import Replay, Solution
from ..numbering import GameNumber
from ..search import Limits, solve
from . import board, verify
from .deal import hooked, numbered_deal
from .moves import Move, move_from_json, parse_move
from .play import Table
from .rules import DEFAULT_RULES, RULE_SETS, MatrimonyRules
from .arnold_space import ArnoldSpace
from .spaces import PlainSpace


class Matrimony:
    """Matrimony behind the Game protocol."""

    name = "matrimony"
    title = "Matrimony"
    rule_sets = RULE_SETS
    default_rules = DEFAULT_RULES

    def decks(self, rules: MatrimonyRules) -> int:
        return 2

    def numbered_deal(self, rules: MatrimonyRules, number: str) -> list[Card]:
        return numbered_deal(GameNumber.parse(number))

    def check_deal(self, rules: MatrimonyRules, cards: Sequence[Card]) -> list[Card]:
        """The deal with its first J♦ and Q♦ moved to the top (a no-op on `deal --json` output)."""
        if len(cards) != 104:
            raise DealError(f"Matrimony needs 104 cards, got {len(cards)}")
        return hooked(cards)

    def space(self, rules: MatrimonyRules, cards: Sequence[Card]) -> ArnoldSpace | PlainSpace:
        """The search space the solver uses for these rules."""
        table = Table(rules, tuple(cards))
        return ArnoldSpace(table) if rules.forced_steps else PlainSpace(table)

    def solve(self, rules: MatrimonyRules, cards: Sequence[Card], limits: Limits) -> Solution:
        space = self.space(rules, cards)
        out = solve(space, limits)
        return Solution(out.verdict, space.moves(out.steps), out.states, out.seconds, out.reason)

    def referee(self, rules: MatrimonyRules, cards: Sequence[Card], moves: Sequence[Move]) -> Replay:
        v = verify.referee(rules, cards, moves)
        return Replay(v.won, v.moves_played, v.problem)

    def move_text(self, rules: MatrimonyRules, move: Move) -> str:
        return move.text(rules)

    def parse_move_text(self, rules: MatrimonyRules, text: str) -> Move:
        return parse_move(text, rules)

    def move_json(self, move: Move) -> dict[str, Any]:
        return move.to_json()

    def parse_move_json(self, obj: Any) -> Move:
        return move_from_json(obj)

    def board(self, rules: MatrimonyRules, cards: Sequence[Card]) -> str:
        return _draw(rules, verify.deal_table(rules, cards))

    def boards(self, rules: MatrimonyRules, cards: Sequence[Card], moves: Sequence[Move]) -> list[str]:
        """The board after each move (the moves must be legal)."""
        table, out = verify.deal_table(rules, cards), []
        for move in moves:
            table = verify.apply(rules, table, move)
            out.append(_draw(rules, table))
        return out


def _draw(rules: MatrimonyRules, table: verify.Table) -> str:
    return board.draw(rules, table.piles, table.foundations, table.stock, table.redeals)


GAME = Matrimony()

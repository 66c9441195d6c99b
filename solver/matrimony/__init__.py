"""Matrimony (Peter Arnold's rules and PySolFC's): the game as the CLI sees it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from ..errors import DealError
from ..game import EXACT_LABEL, Answer, Progress, Replay, no_progress
from ..numbering import GameNumber
from ..portfolio import Budget
from ..search import WON, Limits, solve
from . import board, quick_stages, verify
from .arnold_space import ArnoldSpace
from .deal import hooked, numbered_deal
from .moves import Move, move_from_json, parse_move
from .play import Table
from .player import PlayerView
from .pysol_space import PysolSpace
from .rules import DEFAULT_RULES, RULE_SETS, MatrimonyRules


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

    def solve(
        self, rules: MatrimonyRules, cards: Sequence[Card], limits: Limits, progress: Progress | None = None
    ) -> Answer:
        """Arnold: the phase space. PySolFC: quick searches that only find wins (two
        depth-first, then beams), then the exact space (see pysol_space.py)."""
        table = Table(rules, tuple(cards))
        tell = progress or no_progress
        if rules.forced_steps:
            phases = ArnoldSpace(table)
            tell(0, 1, EXACT_LABEL)
            out = solve(phases, limits)
            return Answer(out.verdict, phases.moves(out.steps), out.states, out.seconds, out.reason)
        budget = Budget(limits)
        quick = quick_stages.quick_win(table, budget, tell)
        if quick is not None:
            out, space, label = quick
            return Answer(WON, space.moves(out.steps), budget.states, budget.seconds, found_by=label)
        space = PysolSpace(table)
        stages = len(quick_stages.QUICK_STAGES)
        tell(stages, stages + 1, EXACT_LABEL)
        out = budget.add(solve(space, budget.left()))
        if out.verdict == WON:
            return Answer(WON, space.moves(out.steps), budget.states, budget.seconds, found_by=EXACT_LABEL)
        return Answer(out.verdict, [], budget.states, budget.seconds, budget.reason(out))

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

    def player(self, rules: MatrimonyRules, cards: Sequence[Card]) -> PlayerView:
        return PlayerView(Table(rules, tuple(cards)))


def _draw(rules: MatrimonyRules, table: verify.Table) -> str:
    return board.draw(rules, table.piles, table.foundations, table.stock, table.redeals)


GAME = Matrimony()

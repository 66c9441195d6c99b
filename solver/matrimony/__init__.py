"""Matrimony (Peter Arnold's rules and PySolFC's): the game as the CLI sees it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from ..cards import Card
from ..errors import DealError
from ..game import Replay, Solution
from ..numbering import GameNumber
from ..search import UNKNOWN, WON, Limits, Outcome, solve
from . import board, verify
from .arnold_space import ArnoldSpace
from .deal import hooked, numbered_deal
from .moves import Move, move_from_json, parse_move
from .play import Table
from .pysol_space import PysolGreedySpace, PysolSpace
from .rules import DEFAULT_RULES, RULE_SETS, MatrimonyRules

GREEDY_NODES = 20_000  # what the quick first search under PySolFC's rules may cost


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

    def solve(self, rules: MatrimonyRules, cards: Sequence[Card], limits: Limits) -> Solution:
        """Arnold: the phase space. PySolFC: a quick greedy search, then the exact space."""
        table = Table(rules, tuple(cards))
        if rules.forced_steps:
            space = ArnoldSpace(table)
            out = solve(space, limits)
            return Solution(out.verdict, space.moves(out.steps), out.states, out.seconds, out.reason)
        greedy = PysolGreedySpace(table)
        quick = solve(greedy, replace(limits, node_limit=min(GREEDY_NODES, limits.node_limit or GREEDY_NODES)))
        if quick.verdict == WON:
            return Solution(WON, greedy.moves(quick.steps), quick.states, quick.seconds)
        if quick.verdict == UNKNOWN and quick.reason and "node limit" not in quick.reason:
            return _solution(quick, [])  # a limit of the caller's: time or memory
        exact = PysolSpace(table)
        out = solve(exact, _after(limits, quick))
        reason = out.reason
        if reason.startswith("time limit"):
            reason = f"time limit {limits.time_limit}s reached"
        elif reason.startswith("node limit"):
            reason = f"node limit {limits.node_limit} reached"
        return Solution(out.verdict, exact.moves(out.steps), quick.states + out.states, quick.seconds + out.seconds, reason)

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


def _after(limits: Limits, spent: Outcome) -> Limits:
    """What is left of `limits` after a search that cost `spent`; one pass (see PysolSpace)."""
    nodes = None if limits.node_limit is None else max(1, limits.node_limit - spent.nodes)
    seconds = None if limits.time_limit is None else max(0.0, limits.time_limit - spent.seconds)
    return replace(limits, node_limit=nodes, time_limit=seconds, first_pass=None)


def _solution(out: Outcome, moves: list) -> Solution:
    return Solution(out.verdict, moves, out.states, out.seconds, out.reason)


def _draw(rules: MatrimonyRules, table: verify.Table) -> str:
    return board.draw(rules, table.piles, table.foundations, table.stock, table.redeals)


GAME = Matrimony()

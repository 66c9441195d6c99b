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
from .player import PlayerView
from .pysol_space import PysolGreedySpace, PysolHoldSpace, PysolSpace
from .rules import DEFAULT_RULES, RULE_SETS, MatrimonyRules

# What the two quick searches under PySolFC's rules may cost before the exact one starts.
GREEDY_NODES = 20_000
HOLD_NODES = 40_000


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
        """Arnold: the phase space. PySolFC: two quick searches that only find wins, then the
        exact space (see pysol_space.py)."""
        table = Table(rules, tuple(cards))
        if rules.forced_steps:
            space = ArnoldSpace(table)
            out = solve(space, limits)
            return Solution(out.verdict, space.moves(out.steps), out.states, out.seconds, out.reason)
        spent: list[Outcome] = []
        stages = ((PysolGreedySpace(table), GREEDY_NODES), (PysolHoldSpace(table), HOLD_NODES), (PysolSpace(table), None))
        for space, budget in stages:
            out = solve(space, _after(limits, spent, budget, single_pass=budget is None))
            spent.append(out)
            states, seconds = _sum(spent, "states"), _sum(spent, "seconds")
            if out.verdict == WON:
                return Solution(WON, space.moves(out.steps), states, seconds)
            if budget is None or (out.verdict == UNKNOWN and "node limit" not in out.reason):
                break  # the exact verdict, or a limit of the caller's
        reason = ""
        if out.verdict == UNKNOWN:
            reason = f"time limit {limits.time_limit}s reached" if out.reason.startswith("time") else out.reason
            if out.reason.startswith("node limit"):
                reason = f"node limit {limits.node_limit} reached"
        return Solution(out.verdict, [], states, seconds, reason)

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


def _after(limits: Limits, spent: list[Outcome], budget: int | None, single_pass: bool = False) -> Limits:
    """What is left of `limits` after the searches `spent`, capped at `budget` nodes."""
    nodes = limits.node_limit
    if nodes is not None:
        nodes = max(1, nodes - _sum(spent, "nodes"))
    if budget is not None:
        nodes = budget if nodes is None else min(nodes, budget)
    seconds = limits.time_limit
    if seconds is not None:
        seconds = max(0.0, seconds - _sum(spent, "seconds"))
    return replace(limits, node_limit=nodes, time_limit=seconds, first_pass=None if single_pass else limits.first_pass)


def _sum(outcomes: list[Outcome], field: str):
    return sum(getattr(o, field) for o in outcomes)


def _draw(rules: MatrimonyRules, table: verify.Table) -> str:
    return board.draw(rules, table.piles, table.foundations, table.stock, table.redeals)


GAME = Matrimony()

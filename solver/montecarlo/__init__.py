"""Monte Carlo and its family (Weddings, Thirteens, ...): the game as the CLI sees it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from ..deals import numbered_deal
from ..errors import DealError
from ..game import EXACT_LABEL, Answer, Progress, Replay, no_progress
from ..numbering import GameNumber
from ..search import Limits, solve
from . import board, verify
from .moves import Move, move_from_json, parse_move
from .play import Table
from .player import PlayerView
from .rules import DEFAULT_RULES, RULE_SETS, SLIDE, MonteCarloRules
from .spaces import ColumnSpace, SequenceSpace


class MonteCarlo:
    """The Monte Carlo game family behind the Game protocol."""

    name = "monte-carlo"
    title = "Monte Carlo"
    rule_sets = RULE_SETS
    default_rules = DEFAULT_RULES

    def decks(self, rules: MonteCarloRules) -> int:
        return rules.decks

    def numbered_deal(self, rules: MonteCarloRules, number: str) -> list[Card]:
        return numbered_deal(GameNumber.parse(number), rules.decks)

    def check_deal(self, rules: MonteCarloRules, cards: Sequence[Card]) -> list[Card]:
        if len(cards) != rules.cards:
            raise DealError(f"{rules.name} rules need {rules.cards} cards, got {len(cards)}")
        return list(cards)

    def space(self, rules: MonteCarloRules, cards: Sequence[Card]) -> SequenceSpace | ColumnSpace:
        """The search space the solver uses for these rules."""
        table = Table(rules, tuple(cards))
        return SequenceSpace(table) if rules.consolidation == SLIDE else ColumnSpace(table)

    def solve(
        self, rules: MonteCarloRules, cards: Sequence[Card], limits: Limits, progress: Progress | None = None
    ) -> Answer:
        space = self.space(rules, cards)
        (progress or no_progress)(0, 1, EXACT_LABEL)
        out = solve(space, limits)
        return Answer(out.verdict, space.moves(out.steps), out.states, out.seconds, out.reason)

    def referee(self, rules: MonteCarloRules, cards: Sequence[Card], moves: Sequence[Move]) -> Replay:
        v = verify.referee(rules, cards, moves)
        return Replay(v.won, v.moves_played, v.problem)

    def move_text(self, rules: MonteCarloRules, move: Move) -> str:
        return move.text(rules.cols)

    def parse_move_text(self, rules: MonteCarloRules, text: str) -> Move:
        return parse_move(text, rules.cols)

    def move_json(self, move: Move) -> dict[str, Any]:
        return move.to_json()

    def parse_move_json(self, obj: Any) -> Move:
        return move_from_json(obj)

    def board(self, rules: MonteCarloRules, cards: Sequence[Card]) -> str:
        table = verify.deal_table(rules, cards)
        return board.draw(rules.rows, rules.cols, table.grid, table.stock)

    def boards(self, rules: MonteCarloRules, cards: Sequence[Card], moves: Sequence[Move]) -> list[str]:
        """The board after each move (the moves must be legal)."""
        table, out = verify.deal_table(rules, cards), []
        for move in moves:
            table = verify.apply(rules, table, move)
            out.append(board.draw(rules.rows, rules.cols, table.grid, table.stock))
        return out

    def player(self, rules: MonteCarloRules, cards: Sequence[Card]) -> PlayerView:
        return PlayerView(Table(rules, tuple(cards)))


GAME = MonteCarlo()

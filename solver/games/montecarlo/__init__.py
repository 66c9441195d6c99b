"""Monte Carlo and its family (Weddings, Thirteens, ...): the game as the CLI sees it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...basics.cards import Card
from ...basics.deals import numbered_deal
from ...basics.errors import DealError
from ...basics.numbering import GameNumber
from ...search.exhaustive import Limits, solve
from ..lines import CodedLine, codes_of
from ..protocol import EXACT_LABEL, Answer, Checkpoint, Progress, Replay, no_progress, proven
from . import board, verify
from . import seen as positions
from .moves import Consolidate, King, Move, Pair, coded, move_from_json, move_of, parse_move
from .play import GAP, Table
from .rules import DEFAULT_RULES, RULE_SETS, SLIDE, MonteCarloRules
from .spaces import ColumnSpace, SequenceSpace

if TYPE_CHECKING:
    from .player import PlayerView


class MonteCarlo:
    """The Monte Carlo game family behind the Game protocol."""

    name = "monte-carlo"
    title = "Monte Carlo"
    rule_sets = RULE_SETS
    default_rules = DEFAULT_RULES

    def decks(self, rules: MonteCarloRules) -> int:
        return rules.decks

    def numbered_deal(self, rules: MonteCarloRules, number: str | GameNumber) -> list[Card]:
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
        self,
        rules: MonteCarloRules,
        cards: Sequence[Card],
        limits: Limits,
        progress: Progress | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> Answer:
        space = self.space(rules, cards)
        (progress or no_progress)(0, 1, EXACT_LABEL)
        out = solve(space, limits)
        line = CodedLine(space.codes(out.steps), move_of) if out.steps else ()
        return Answer(out.verdict, line, out.states, out.seconds, out.reason, limit=out.limit, proof=proven(space, out))

    def why_no_checkpoints(self, rules: MonteCarloRules) -> str:
        return f"the searches of {rules.title} are short and keep no checkpoints"

    def referee(self, rules: MonteCarloRules, cards: Sequence[Card], moves: Sequence[Move]) -> Replay:
        """A win is told by the replay on small ints; the words for any other line come
        from the referee's reference replay."""
        codes = codes_of(moves, coded)
        if codes is not None and verify.replay_codes(rules, cards, codes)[0]:
            return Replay(True, len(codes), "")
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
        return self.board_of(rules, self.opening(rules, cards))

    def boards(self, rules: MonteCarloRules, cards: Sequence[Card], moves: Sequence[Move]) -> list[str]:
        """The board after each move (the moves must be legal)."""
        seen, out = self.opening(rules, cards), []
        for move in moves:
            seen = self.after(rules, seen, move)
            out.append(self.board_of(rules, seen))
        return out

    def player(self, rules: MonteCarloRules, cards: Sequence[Card], seen: verify.Table | None = None) -> PlayerView:
        from .player import PlayerView  # with the analysis it needs, only for those who play or analyse

        table = Table(rules, tuple(cards))
        return PlayerView(table, None if seen is None else positions.play_position(table, seen))

    def opening(self, rules: MonteCarloRules, cards: Sequence[Card]) -> verify.Table:
        return verify.deal_table(rules, cards)

    def after(self, rules: MonteCarloRules, seen: verify.Table, move: Move) -> verify.Table:
        return verify.apply(rules, seen, move)

    def board_of(self, rules: MonteCarloRules, seen: verify.Table) -> str:
        return board.draw(rules.rows, rules.cols, seen.grid, seen.stock)

    def position_text(self, rules: MonteCarloRules, seen: verify.Table) -> str:
        return positions.position_text(rules, seen)

    def parse_position(self, rules: MonteCarloRules, cards: Sequence[Card], text: str) -> verify.Table:
        return positions.parse_position(rules, cards, text)

    def choices(self, rules: MonteCarloRules, cards: Sequence[Card], seen: verify.Table) -> list[tuple[Move, ...]]:
        view = self.player(rules, cards, seen)
        return list(view.choices(view.start()))

    def visible(self, rules: MonteCarloRules, seen: verify.Table) -> positions.Visible:
        return positions.visible(seen)

    def unseen(self, rules: MonteCarloRules, view: positions.Visible) -> list[Card]:
        return positions.unseen(rules, view)

    def imagined(self, rules: MonteCarloRules, view: positions.Visible, stock: Sequence[Card]) -> tuple[list[Card], verify.Table]:
        return positions.imagined(view, stock)

    def takes_cards(self, choice: Sequence[Move]) -> bool:
        return any(not isinstance(move, Consolidate) for move in choice)

    def layout(self, rules: MonteCarloRules, seen: verify.Table) -> dict[str, Any]:
        """The grid row by row (None for a gap), the stock's count, the cards out."""
        grid = [None if c is None else str(c) for c in seen.grid]
        return {"kind": "grid", "rows": rules.rows, "cols": rules.cols, "cells": grid, "stock": len(seen.stock), "out": len(seen.removed)}

    def touches(self, rules: MonteCarloRules, seen: verify.Table, move: Move) -> list[dict[str, Any]]:
        if isinstance(move, Pair):
            return [{"cell": c} for c in move.cells]
        if isinstance(move, King):
            return [{"cell": move.cell}]
        return [{"stock": True}]

    def same_position(self, rules: MonteCarloRules, cards: Sequence[Card], a: verify.Table, b: verify.Table) -> bool:
        return (a.grid, a.stock) == (b.grid, b.stock)

    def solve_from(
        self,
        rules: MonteCarloRules,
        cards: Sequence[Card],
        seen: verify.Table,
        limits: Limits,
        progress: Progress | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> Answer:
        """From a phase's start the rule set's own space; from inside a phase, single moves
        up to its consolidation first (`positions.FromPosition`)."""
        table = Table(rules, tuple(cards))
        pos = positions.play_position(table, seen)
        make = SequenceSpace if rules.consolidation == SLIDE else ColumnSpace
        (progress or no_progress)(0, 1, EXACT_LABEL)
        space: Any = None
        if GAP not in pos.cells or pos.stock == len(cards):  # else the gaps still wait for the stock
            try:
                space = make(table, pos)
            except ValueError:  # cards after a gap: inside a phase
                pass
        if space is None:
            space = positions.FromPosition(table, pos, make)
        out = solve(space, limits)
        return Answer(out.verdict, space.moves(out.steps), out.states, out.seconds, out.reason, limit=out.limit, proof=proven(space, out))


GAME = MonteCarlo()

"""Matrimony (Peter Arnold's rules and PySolFC's): the game as the CLI sees it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...basics import compiled
from ...basics.cards import Card
from ...basics.errors import DealError
from ...basics.numbering import GameNumber
from ...search.exhaustive import WON, Limits, solve
from ..lines import CodedLine, codes_of
from ..protocol import EXACT_LABEL, Answer, Checkpoint, Progress, Replay, no_progress, proven
from . import board, verify
from . import seen as positions
from .arnold_space import ArnoldSpace
from .deal import hooked, numbered_deal
from .moves import Move, Play, Redeal, Shift, coded, move_from_json, move_of, parse_move
from .play import Position, Table
from .rules import DEFAULT_RULES, ROUNDS, RULE_SETS, MatrimonyRules

if TYPE_CHECKING:
    from .player import PlayerView


class Matrimony:
    """Matrimony behind the Game protocol."""

    name = "matrimony"
    title = "Matrimony"
    rule_sets = RULE_SETS
    default_rules = DEFAULT_RULES

    def decks(self, rules: MatrimonyRules) -> int:
        return 2

    def numbered_deal(self, rules: MatrimonyRules, number: str | GameNumber) -> list[Card]:
        return numbered_deal(GameNumber.parse(number))

    def check_deal(self, rules: MatrimonyRules, cards: Sequence[Card]) -> list[Card]:
        """The deal with its first J♦ and Q♦ moved to the top (a no-op on `deal --json` output)."""
        if len(cards) != 104:
            raise DealError(f"Matrimony needs 104 cards, got {len(cards)}")
        return hooked(cards)

    def solve(
        self,
        rules: MatrimonyRules,
        cards: Sequence[Card],
        limits: Limits,
        progress: Progress | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> Answer:
        """Arnold: the phase space. PySolFC: the quick stages (quick_stages.py: a
        beam, the exact search's first states, searches by playouts, more beams), then the
        exact space (pysol_space.py); with a checkpoint, the exact space searched by levels
        (pysol_levels.py), and with no quick stages when the checkpoint is already there:
        they ran and found nothing before it was written."""
        return self._solve(Table(rules, tuple(cards)), None, limits, progress, checkpoint)

    def solve_from(
        self,
        rules: MatrimonyRules,
        cards: Sequence[Card],
        seen: verify.Table,
        limits: Limits,
        progress: Progress | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> Answer:
        table = Table(rules, tuple(cards))
        return self._solve(table, positions.play_position(table, seen), limits, progress, checkpoint)

    def why_no_checkpoints(self, rules: MatrimonyRules) -> str:
        if rules.forced_steps:
            return f"the searches of {rules.title} are short and keep no checkpoints"
        if compiled.compiled_core() is None:
            return f"the search that keeps checkpoints runs in the compiled core, not in the {compiled.description()}"
        return ""

    def _solve(self, table: Table, start: Position | None, limits: Limits, progress: Progress | None, checkpoint: Checkpoint | None) -> Answer:
        rules = table.rules
        tell = progress or no_progress
        if rules.forced_steps:
            phases = ArnoldSpace(table, start)
            tell(0, 1, EXACT_LABEL)
            out = solve(phases, limits)
            line = CodedLine(phases.codes(out.steps), move_of) if out.steps else ()
            return Answer(out.verdict, line, out.states, out.seconds, out.reason, limit=out.limit, proof=proven(phases, out))
        # PySolFC's rules: the quick stages and the exact space, loaded when first needed.
        from ...search.portfolio import Budget
        from . import quick_stages
        from .pysol_space import PysolSpace

        budget = Budget(limits)
        if checkpoint is None or not checkpoint.path.exists():
            quick = quick_stages.quick_win(table, budget, tell, start)
            if quick is not None:
                out, space, label = quick
                if out.verdict != WON:  # the exact probe searched the whole space
                    return Answer(out.verdict, [], budget.states, budget.seconds, budget.reason(out), limit=out.limit, proof=proven(space, out), playouts=budget.playouts)
                return Answer(WON, space.moves(out.steps), budget.states, budget.seconds, found_by=label, playouts=budget.playouts)
            if budget.stopped is not None:  # a limit the exact search shares ran out in a quick stage
                out = budget.stopped
                return Answer(out.verdict, [], budget.states, budget.seconds, budget.reason(out), limit=out.limit, playouts=budget.playouts)
        space = PysolSpace(table, start)
        stages = len(quick_stages.QUICK_STAGES)
        tell(stages, stages + 1, EXACT_LABEL)
        if checkpoint is not None:
            from .pysol_levels import prove_by_levels

            return prove_by_levels(space, budget, checkpoint)
        out = budget.add(solve(space, budget.left()))
        if out.verdict == WON:
            return Answer(WON, space.moves(out.steps), budget.states, budget.seconds, found_by=EXACT_LABEL, playouts=budget.playouts)
        return Answer(out.verdict, [], budget.states, budget.seconds, budget.reason(out), limit=out.limit, proof=proven(space, out), playouts=budget.playouts)

    def referee(self, rules: MatrimonyRules, cards: Sequence[Card], moves: Sequence[Move]) -> Replay:
        """A win is told by the replay on small ints; the words for any other line come
        from the referee's reference replay."""
        codes = codes_of(moves, coded)
        if codes is not None and verify.replay_codes(rules, cards, codes)[0]:
            return Replay(True, len(codes), "")
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

    def player(self, rules: MatrimonyRules, cards: Sequence[Card], seen: verify.Table | None = None) -> PlayerView:
        from .player import PlayerView  # only for those who play or analyse

        table = Table(rules, tuple(cards))
        return PlayerView(table, None if seen is None else positions.play_position(table, seen))

    def opening(self, rules: MatrimonyRules, cards: Sequence[Card]) -> verify.Table:
        return verify.deal_table(rules, cards)

    def after(self, rules: MatrimonyRules, seen: verify.Table, move: Move) -> verify.Table:
        return verify.apply(rules, seen, move)

    def board_of(self, rules: MatrimonyRules, seen: verify.Table) -> str:
        return _draw(rules, seen)

    def position_text(self, rules: MatrimonyRules, seen: verify.Table) -> str:
        return positions.position_text(rules, seen)

    def parse_position(self, rules: MatrimonyRules, cards: Sequence[Card], text: str) -> verify.Table:
        return positions.parse_position(rules, cards, text)

    def choices(self, rules: MatrimonyRules, cards: Sequence[Card], seen: verify.Table) -> list[tuple[Move, ...]]:
        """The player view's choices; under PySolFC's rules, a choice that uses a full suit
        whose foundations are split otherwise than the view keeps them (Jack-down empty)
        first makes the shifts that bring them there."""
        from .player import PlayerView

        table = Table(rules, tuple(cards))
        pos = positions.play_position(table, seen)
        view = PlayerView(table, pos)
        settle = positions.settling_shifts(rules, pos)
        out = []
        for choice in view.choices(view.start()):
            suits = sorted({rules.foundations[f].suit for move in choice for f in _foundations_of(move)})
            out.append(tuple(m for s in suits for m in settle.get(s, ())) + choice)
        return out

    def visible(self, rules: MatrimonyRules, seen: verify.Table) -> positions.Visible:
        return positions.visible(seen)

    def unseen(self, rules: MatrimonyRules, view: positions.Visible) -> list[Card]:
        return positions.unseen(view)

    def imagined(self, rules: MatrimonyRules, view: positions.Visible, stock: Sequence[Card]) -> tuple[list[Card], verify.Table]:
        return positions.imagined(view, stock)

    def takes_cards(self, choice: Sequence[Move]) -> bool:
        return any(isinstance(move, Play) for move in choice)

    def layout(self, rules: MatrimonyRules, seen: verify.Table) -> dict[str, Any]:
        """The foundations (label, cards), the piles bottom card first, the stock's count,
        and whose redeal turn is next once the stock is empty."""
        nxt = None
        if not seen.stock:
            nxt = f"next redeal: pile {ROUNDS - seen.redeals}" if seen.redeals < ROUNDS else f"all {ROUNDS} redeals made"
        return {
            "kind": "matrimony",
            "foundations": [
                {"name": f"F{f + 1}", "label": found.label, "cards": [str(c) for c in cards]}
                for f, (found, cards) in enumerate(zip(rules.foundations, seen.foundations))
            ],
            "piles": [[str(c) for c in pile] for pile in seen.piles],
            "stock": len(seen.stock),
            "redeals": seen.redeals,
            "next": nxt,
        }

    def touches(self, rules: MatrimonyRules, seen: verify.Table, move: Move) -> list[dict[str, Any]]:
        if isinstance(move, Play):
            return [{"pile": move.pile + 1, "top": True}]
        if isinstance(move, Shift):
            return [{"foundation": move.source + 1, "top": True}]
        if isinstance(move, Redeal):
            return [{"pile": move.pile + 1}]
        return [{"stock": True}]

    def same_position(self, rules: MatrimonyRules, cards: Sequence[Card], a: verify.Table, b: verify.Table) -> bool:
        return positions.same_position(a, b)


def _foundations_of(move: Move) -> tuple[int, ...]:
    """The foundations a move puts a card on or takes one from."""
    if isinstance(move, Play):
        return (move.to,)
    if isinstance(move, Shift):
        return (move.source, move.to)
    return ()


def _draw(rules: MatrimonyRules, table: verify.Table) -> str:
    return board.draw(rules, table.piles, table.foundations, table.stock, table.redeals)


GAME = Matrimony()

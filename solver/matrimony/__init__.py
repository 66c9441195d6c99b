"""Matrimony (Peter Arnold's rules and PySolFC's): the game as the CLI sees it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple, Sequence

from ..beam import beam_search
from ..cards import Card
from ..errors import DealError
from ..game import EXACT_LABEL, Progress, Replay, Solution, no_progress
from ..numbering import GameNumber
from ..search import WON, Limits, Outcome, solve
from . import board, verify
from .arnold_space import ArnoldSpace
from .deal import hooked, numbered_deal
from .moves import Move, move_from_json, parse_move
from .play import Table
from .player import PlayerView
from .pysol_finish import FINISH_NODES, PysolFinishSpace, finishing_beam
from .pysol_space import PysolGreedySpace, PysolHoldSpace, PysolPhaseSpace, PysolSpace
from .rules import DEFAULT_RULES, RULE_SETS, MatrimonyRules


class Stage(NamedTuple):
    """One search under PySolFC's rules that only looks for wins (see `_quick_win`)."""

    kind: str  # "dfs": depth-first with a budget of `size` states; "beam": `size` wide;
    # "finish": a beam `size` wide that hands over to the exact search (pysol_finish.py)
    space: type
    size: int
    holds: int | None = None  # PysolPhaseSpace only: the cards a phase may hold back
    seed: int = 0  # beams: the seed of the random tie-break between equal scores
    playouts: bool = False  # PysolPhaseSpace beams: rank states by their greedy playouts
    budget: int | None = None  # "finish": the states of each exact search (FINISH_NODES if None)

    @property
    def label(self) -> str:
        """The stage in a few words, as `solve` and batch records name the search that won."""
        if self.kind == "dfs":
            return f"{self.space.label} depth-first, {self.size} states"
        words = [f"{self.space.label} beam {self.size} wide"]
        if issubclass(self.space, PysolPhaseSpace):
            words.append("any holds" if self.holds is None else f"holds up to {self.holds}")
        if self.playouts:
            words.append("playouts")
        if self.seed:
            words.append(f"seed {self.seed}")
        if self.budget is not None:
            words.append(f"{self.budget} states a hand-over")
        return ", ".join(words)

    def build(self, table: Table) -> Any:
        """The stage's space over the deal (stages of one space and holds share it: `run`
        sets what is a stage's own)."""
        options: dict[str, int] = {}
        if self.holds is not None:
            options["holds"] = self.holds
        return self.space(table, **options)

    def run(self, space: Any, limits: Limits) -> Outcome:
        """The stage's search over its space, within `limits` (a depth-first one also
        within its `size` states: running out of those is not the caller's node limit)."""
        if self.kind == "dfs":
            own = limits.node_limit is None or self.size < limits.node_limit
            out = solve(space, replace(limits, node_limit=self.size if own else limits.node_limit))
            if own and out.limit == "node_limit":
                return replace(out, reason=f"{self.size} states searched depth-first found no win", limit=None)
            return out
        if self.kind == "finish":
            nodes = FINISH_NODES if self.budget is None else self.budget
            return finishing_beam(space, self.size, limits, self.seed, self.playouts, nodes)
        playout = space.greedy_phase if self.playouts else None
        return beam_search(space, space.cards_down, self.size, limits, self.seed, space.deferred(), playout)


# Cheapest per win first. The first four are phase beams (two cards held back a phase at
# most) that rank a position by where its greedy playout ends (beam.py): alone on games
# 41-100 (8 s cap) the 4-wide one wins 39 of the 60 deals in 0.39 s a deal on average, the
# 64-wide one 55; the whole solver of session 6 won 46 of them within 10 s. Widths 4, 16,
# 64 came from those runs (2 first, or 8, did no better in a simulation over them), and were
# checked on games 101-160, held out, at 10 s a deal: 50 won against 41, the median deal at
# 0.92 s against 2.60 s. The stages after them are the solver's stages before playouts, in
# their order (chosen on games 1-100 and checked on 121-180): they rank by cards down only,
# and win some deals by other lines when the time allows. The 1,024-wide beam holding back
# three cards won 11 of the 33 deals of games 1-120 that 10 s left unknown (18 s a deal);
# a beam keeps one of many equally scored states at random, so the 256-wide one under
# seeds 1 and 2 keeps other lines; each won one deal more. The last five are for the
# deals that 30 s left unknown in games 1-1,000. Alone (40 s cap), the 1,024-wide beams
# with any holds and with three under seed 1 won 8 and 6 of the 46 of them that 60 s had
# not won (16-20 s a deal); under other seeds they won 9 and 5, all but one of them deals
# already won, so a 4,096-wide one follows instead. The playout beams with three holds
# came last, and first in line for being cheapest: alone (60 s cap), of the 29 deals
# that all the other stages left at 180 s, the 64-wide one won 2 (8.5 s a deal on
# average), the 256-wide one 4 others of the 27 left (29 s a deal). In the whole solver
# at 300 s a deal, those 29 gave 6 wins to them, 2 to the 4,096-wide beam and 1 to the
# exact search (data/README.md). The finishing beam comes last: the exact search from up
# to 16 positions after the last deal may cost minutes, but alone (two minutes a deal)
# it won 5 of the 20 deals every stage before it left at 300 s (pysol_finish.py). A 64-wide
# one follows: alone, with exact searches of 50,000 states, (150 s a deal) it won 3 of the
# 15 that all of that left at 300-600 s (211, 439 and 763); on the 7 others timed, it got
# through 8-13 of its 64 positions in that time. In the whole solver it was meant to keep
# that budget, but it shares the 16-wide one's space, and until session 15 the space kept
# the budget of the stage that built it: every run of the whole solver gave it 100,000
# states a hand-over, so that is what it keeps (its label, and the found_by of the
# published lines, said 50000). In the whole solver at 900 s a deal
# it won none of the 15: it runs after every other stage (data/README.md). At the default
# limits it won each of 763, 211, 439, 15, 48 and 407, six of the 15 (16-43 minutes a deal;
# alone it won three of them in 31-133 s); for the other nine the exact search after it
# filled --max-states. So a 256-wide one, 50,000 states a hand-over, comes last: alone it
# won 137, one of those nine, in 118 s (session 15).
QUICK_STAGES = (
    Stage("beam", PysolPhaseSpace, 4, holds=2, playouts=True),
    Stage("beam", PysolPhaseSpace, 16, holds=2, playouts=True),
    Stage("beam", PysolPhaseSpace, 64, holds=2, playouts=True),
    Stage("beam", PysolPhaseSpace, 256, holds=2, playouts=True),
    Stage("beam", PysolHoldSpace, 32),
    Stage("dfs", PysolGreedySpace, 20_000),
    Stage("beam", PysolHoldSpace, 128),
    Stage("dfs", PysolHoldSpace, 3_000),
    Stage("beam", PysolPhaseSpace, 64, holds=1),
    Stage("beam", PysolHoldSpace, 512),
    Stage("beam", PysolPhaseSpace, 128, holds=1),
    Stage("beam", PysolPhaseSpace, 64, holds=3),
    Stage("beam", PysolPhaseSpace, 256, holds=2),
    Stage("beam", PysolPhaseSpace, 256),
    Stage("beam", PysolPhaseSpace, 1024, holds=3),
    Stage("beam", PysolPhaseSpace, 256, holds=2, seed=1),
    Stage("beam", PysolPhaseSpace, 256, holds=2, seed=2),
    Stage("beam", PysolPhaseSpace, 64, holds=3, playouts=True),
    Stage("beam", PysolPhaseSpace, 256, holds=3, playouts=True),
    Stage("beam", PysolPhaseSpace, 1024),
    Stage("beam", PysolPhaseSpace, 1024, holds=3, seed=1),
    Stage("beam", PysolPhaseSpace, 4096),
    Stage("finish", PysolFinishSpace, 16, holds=3, playouts=True),
    Stage("finish", PysolFinishSpace, 64, holds=3, playouts=True),
    Stage("finish", PysolFinishSpace, 256, holds=3, playouts=True, budget=50_000),
)


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
    ) -> Solution:
        """Arnold: the phase space. PySolFC: quick searches that only find wins (two
        depth-first, then beams), then the exact space (see pysol_space.py)."""
        table = Table(rules, tuple(cards))
        tell = progress or no_progress
        if rules.forced_steps:
            space = ArnoldSpace(table)
            tell(0, 1, EXACT_LABEL)
            out = solve(space, limits)
            return Solution(out.verdict, space.moves(out.steps), out.states, out.seconds, out.reason)
        spent: list[Outcome] = []
        won = _quick_win(table, limits, spent, tell)
        if won is not None:
            return won
        space = PysolSpace(table)
        tell(len(QUICK_STAGES), len(QUICK_STAGES) + 1, EXACT_LABEL)
        out = solve(space, _after(limits, spent, single_pass=True))
        spent.append(out)
        states, seconds = _sum(spent, "states"), _sum(spent, "seconds")
        if out.verdict == WON:
            return Solution(WON, space.moves(out.steps), states, seconds, found_by=EXACT_LABEL)
        reason = out.reason  # the limits the caller set, not what the last search had left of them
        if out.limit == "time_limit":
            reason = f"time limit {limits.time_limit}s reached"
        elif out.limit == "node_limit":
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


def _quick_win(table: Table, limits: Limits, spent: list[Outcome], tell: Progress = no_progress) -> Solution | None:
    """A win found by the searches that only look for wins (QUICK_STAGES), or None.

    The spaces (pysol_space.py): the greedy lines; those and the safe-plays-only line at
    each deal and redeal (hold); the exact space a phase at a time, cut to its first few
    hundred outcomes or to the lines that hold back at most one to three cards (phase). The
    beams keep the positions with the most cards on the foundations, or whose greedy
    playouts end with the most (`Stage.playouts`). A stage's own "lost" proves nothing.
    Each runs within what the stages before left of the caller's limits; one that hits the
    time or node limit ends them all (`_stops_the_rest`)."""
    spaces: dict = {}
    for n, stage in enumerate(QUICK_STAGES):
        tell(n, len(QUICK_STAGES) + 1, stage.label)  # the exact search is the last
        which = (stage.space, stage.holds)
        if which not in spaces:  # one of each, so that later stages reuse its caches
            spaces[which] = stage.build(table)
        space = spaces[which]
        out = stage.run(space, _after(limits, spent))
        spent.append(out)
        if out.verdict == WON:
            return Solution(WON, space.moves(out.steps), _sum(spent, "states"), _sum(spent, "seconds"), found_by=stage.label)
        if _stops_the_rest(out):
            return None
    return None


def _stops_the_rest(out: Outcome) -> bool:
    """Whether a stage ended on the time or node limit that the stages after it share.
    `max_states` (the memory of one search; the next stage starts afresh) leaves the next
    stage its turn, as does a stage's own end (a beam's last layer, a depth-first stage's
    size: see `Stage.run`)."""
    return out.limit in ("time_limit", "node_limit")


def _after(limits: Limits, spent: list[Outcome], single_pass: bool = False) -> Limits:
    """What is left of `limits` after the searches `spent`."""
    nodes = limits.node_limit
    if nodes is not None:
        nodes = max(1, nodes - _sum(spent, "nodes"))
    seconds = limits.time_limit
    if seconds is not None:
        seconds = max(0.0, seconds - _sum(spent, "seconds"))
    return replace(limits, node_limit=nodes, time_limit=seconds, first_pass=None if single_pass else limits.first_pass)


def _sum(outcomes: list[Outcome], field: str):
    return sum(getattr(o, field) for o in outcomes)


def _draw(rules: MatrimonyRules, table: verify.Table) -> str:
    return board.draw(rules, table.piles, table.foundations, table.stock, table.redeals)


GAME = Matrimony()

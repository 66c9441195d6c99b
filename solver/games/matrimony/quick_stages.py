"""The quick stages of PySolFC's Matrimony: searches that can only find wins, tried in
order before the exact search, cheapest per win first."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

from ...basics.compiled import compiled_core
from ...search.beam import beam_search
from ...search.exhaustive import WON, Limits, Outcome, solve
from ...search.portfolio import Budget, stops_the_rest
from ..protocol import Progress, no_progress
from .play import Position, Table
from .pysol_finish import FINISH_NODES, NativeFinishSpace, PysolFinishSpace, finishing_beam
from .pysol_native import NativePhaseSpace
from .pysol_space import PysolGreedySpace, PysolHoldSpace, PysolPhaseSpace
from .rollouts import Rollout, RolloutSpace, rollout_search

COMPILED = {PysolPhaseSpace: NativePhaseSpace, PysolFinishSpace: NativeFinishSpace}  # their twins over the core


class Stage(NamedTuple):
    """One search under PySolFC's rules that only looks for wins (see `quick_win`)."""

    kind: str  # "dfs": depth-first with a budget of `size` states; "beam": `size` wide;
    # "finish": a beam `size` wide that hands over to the exact search (pysol_finish.py);
    # "rollout": a search by playouts (rollouts.py), `rollout` saying which
    space: type[PysolGreedySpace | PysolPhaseSpace | RolloutSpace]
    size: int
    holds: int | None = None  # PysolPhaseSpace only: the cards a phase may hold back
    seed: int = 0  # beams: the seed of the random tie-break between equal scores
    playouts: bool = False  # PysolPhaseSpace beams: rank states by their greedy playouts
    budget: int | None = None  # "finish": the states of each exact search (FINISH_NODES if None)
    rollout: Rollout | None = None  # "rollout": the search

    @property
    def label(self) -> str:
        """The stage in a few words, as `solve` and batch records name the search that won."""
        if self.rollout is not None:
            return self.rollout.label
        if self.kind == "dfs":
            return f"{self.space.label} depth-first, {self.size:,} states"
        words = [f"{self.space.label} beam {self.size:,} wide"]
        if issubclass(self.space, PysolPhaseSpace):
            words.append("any holds" if self.holds is None else f"holds up to {self.holds}")
        if self.playouts:
            words.append("playouts")
        if self.seed:
            words.append(f"seed {self.seed}")
        if self.budget is not None:
            words.append(f"{self.budget:,} states a hand-over")
        return ", ".join(words)

    def build(self, table: Table, start: Position | None = None) -> Any:
        """The stage's space over the deal, from `start` when given (stages of one space and
        holds share it: `run` sets what is a stage's own). The phase spaces are walked by
        the compiled core where it runs (the same states, the same order)."""
        kind: Any = self.space
        if kind is RolloutSpace:
            return RolloutSpace(table, start)
        if kind in COMPILED and compiled_core() is not None:
            kind = COMPILED[kind]
        if self.holds is None:
            return kind(table, start)
        return kind(table, start, holds=self.holds)

    def run(self, space: Any, limits: Limits) -> Outcome:
        """The stage's search over its space, within `limits` (a depth-first one also
        within its `size` states: running out of those is not the caller's node limit)."""
        if self.kind == "dfs":
            own = limits.node_limit is None or self.size < limits.node_limit
            out = solve(space, replace(limits, node_limit=self.size if own else limits.node_limit))
            if own and out.limit == "node_limit":
                return replace(out, reason=f"{self.size:,} states searched depth-first found no win", limit=None)
            return out
        if self.kind == "finish":
            nodes = FINISH_NODES if self.budget is None else self.budget
            return finishing_beam(space, self.size, limits, self.seed, self.playouts, nodes)
        if self.rollout is not None:
            return rollout_search(space, self.rollout, limits)
        playout = space.greedy_phase if self.playouts else None
        return beam_search(space, space.cards_down, self.size, limits, self.seed, space.deferred(), playout)


# Cheapest per win first, as each stage measured alone over a range of games ranks them
# (benchmarks/quick_stages.py; docs/SOLVER.md has the figures):
# - phase beams 4, 16, 64 and 256 wide, at most two cards held back a phase, that rank a
#   position by where its greedy playout ends: alone on games 41-100 (8 s a deal) the
#   4-wide one wins 39 of the 60 deals in 0.39 s a deal on average, the 64-wide one 55
#   (widths chosen there, checked on games 101-160);
# - the searches that rank by cards down only, which win some deals by other lines when
#   time allows: hold beams, the greedy and hold depth-first searches, phase beams with
#   one to three holds (chosen on games 1-100, checked on games 121-180), and beams under
#   other seeds (a beam keeps one of many equally scored positions at random, so another
#   seed keeps other lines);
# - for the deals that 30 s leave unknown: playout beams holding back three cards, then
#   phase beams 1,024 and 4,096 wide;
# - last, the finishing beams (pysol_finish.py), which hand each position they keep right
#   after the last deal to the exact search: 16 and 64 wide with 100,000 states a
#   hand-over, then 256 wide with 50,000 (alone, it won game 137 in 118 s, which every
#   other stage left unknown at the default limits), then 1,024 wide with 20,000 (over the
#   compiled core, alone: game 15 in 12 s, which the narrower ones leave unknown).
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
    Stage("finish", PysolFinishSpace, 1024, holds=3, playouts=True, budget=20_000),
)


def quick_win(table: Table, budget: Budget, tell: Progress = no_progress, start: Position | None = None) -> tuple[Outcome, Any, str] | None:
    """The first win of the searches that only look for wins (QUICK_STAGES): its outcome,
    the space whose steps it holds, and the stage's label; None when none wins.

    The spaces (pysol_space.py): the greedy lines; those and the safe-plays-only line at
    each deal and redeal (hold); the exact space a phase at a time, cut to its first few
    hundred outcomes or to the lines that hold back at most one to three cards (phase). The
    beams keep the positions with the most cards on the foundations, or whose greedy
    playouts end with the most (`Stage.playouts`). A stage's own "lost" proves nothing.
    Each runs within what the stages before left of the caller's limits; one that hits the
    time or node limit ends them all (`stops_the_rest`)."""
    spaces: dict = {}
    for n, stage in enumerate(QUICK_STAGES):
        tell(n, len(QUICK_STAGES) + 1, stage.label)  # the exact search is the last
        which = (stage.space, stage.holds)
        if which not in spaces:  # one of each, so that later stages reuse its caches
            spaces[which] = stage.build(table, start)
        space = spaces[which]
        out = budget.add(stage.run(space, budget.left()))
        if out.verdict == WON:
            return out, space, stage.label
        if stops_the_rest(out):
            return None
    return None

"""The quick stages of PySolFC's Matrimony: searches that can only find wins, tried in
order before the exact search, cheapest per win first."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

from ...basics.compiled import compiled_core
from ...search.beam import beam_search
from ...search.exhaustive import LOST, WON, Limits, Outcome, solve
from ...search.portfolio import Budget, stops_the_rest
from ..protocol import Progress, no_progress
from .play import Position, Table
from .pysol_finish import FINISH_NODES, NativeFinishSpace, PysolFinishSpace, finishing_beam
from .pysol_native import NativePhaseSpace
from .pysol_space import PysolGreedySpace, PysolHoldSpace, PysolPhaseSpace, PysolSpace
from .rollouts import Rollout, RolloutSpace, restarts_label, rollout_restarts, rollout_search

COMPILED = {PysolPhaseSpace: NativePhaseSpace, PysolFinishSpace: NativeFinishSpace}  # their twins over the core


class Stage(NamedTuple):
    """One search under PySolFC's rules that only looks for wins (see `quick_win`)."""

    kind: str  # "dfs": depth-first with a budget of `size` states; "beam": `size` wide;
    # "exact": the exact search cut at `size` states, whose "lost" is a proof;
    # "finish": a beam `size` wide that hands over to the exact search (pysol_finish.py);
    # "rollout": a search by playouts (rollouts.py), `rollout` saying which, within `size`
    # playouts of its own (0: as many as the search makes); "restarts": `rollout` run
    # `size` times under new seeds, models and biases
    space: type[PysolGreedySpace | PysolPhaseSpace | PysolSpace | RolloutSpace]
    size: int
    holds: int | None = None  # PysolPhaseSpace only: the cards a phase may hold back
    seed: int = 0  # beams: the seed of the random tie-break between equal scores
    playouts: bool = False  # PysolPhaseSpace beams: rank states by their greedy playouts
    budget: int | None = None  # "finish": the states of each exact search (FINISH_NODES if None)
    rollout: Rollout | None = None  # "rollout": the search

    @property
    def label(self) -> str:
        """The stage in a few words, as `solve` and batch records name the search that won."""
        if self.kind == "restarts" and self.rollout is not None:
            return restarts_label(self.rollout, self.size)
        if self.rollout is not None:
            return self.rollout.label
        if self.kind == "exact":
            return f"{self.space.label} search, first {self.size:,} states"
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
        if self.kind in ("dfs", "exact"):
            own = limits.node_limit is None or self.size < limits.node_limit
            out = solve(space, replace(limits, node_limit=self.size if own else limits.node_limit))
            if own and out.limit == "node_limit":
                searched = "of the exact search" if self.kind == "exact" else "searched depth-first"
                return replace(out, reason=f"{self.size:,} states {searched} found no win", limit=None)
            return out
        if self.kind == "finish":
            nodes = FINISH_NODES if self.budget is None else self.budget
            return finishing_beam(space, self.size, limits, self.seed, self.playouts, nodes)
        if self.kind == "restarts" and self.rollout is not None:
            return rollout_restarts(space, self.rollout, self.size, limits)
        if self.rollout is not None:
            own = self.size > 0 and (limits.node_limit is None or self.size < limits.node_limit)
            if not own:
                return rollout_search(space, self.rollout, limits)
            out = rollout_search(space, self.rollout, replace(limits, node_limit=self.size))
            if out.limit == "node_limit":  # the stage's own playouts, not the caller's node limit
                return replace(out, reason=f"{self.label}: {self.size:,} playouts found no win", limit=None)
            return out
        playout = space.greedy_phase if self.playouts else None
        return beam_search(space, space.cards_down, self.size, limits, self.seed, space.deferred(), playout)


# Cheapest per win first, as each stage measured alone ranks them (benchmarks/stage_cover.py
# over the 371 games of 1-10,000 that the beams and the exact search left unknown at 10 s a
# deal, and over samples of the others; docs/SOLVER.md has the figures):
# - the phase beam 4 wide that ranks positions by their greedy playouts: the cheapest win of
#   the easy deals (0.013 s at the median);
# - the exact search's first PROBE_STATES states (0.02 s): it decides a position late in a
#   game, won or lost, before the searches that can only win spend their time on it;
# - NRPA at level 3, 30 iterations a level, under four seeds and both models: 0.05-0.5 s
#   each, and together they win 190 of the 371 and 97 of 100 deals the old beams needed 16
#   wide or more for; a seed matters (one of them wins 122 of the 371, another 23 more);
# - NRPA at level 3 with 50 iterations, more seeds, NMCS at level 3, NRPA at level 4 with 20:
#   each a second or two, with fewer new wins each;
# - NRPA at level 3, 30 iterations a level, restarted up to RESTARTS times under new
#   seeds, models and biases (about 0.6 s a try): of the 53 deals of the 371 that every
#   stage before left at 20-30 s, it wins a third within 30 s; then NMCS at level 4, the
#   best of the long single searches, within NMCS4_PLAYOUTS (about 75 s: with solve's two
#   minutes the time runs out first; with no time limit it would run for many minutes);
# - then the searches of earlier versions, for what is left of the time: the playout beams
#   16, 64 and 256 wide, the searches ranked by cards down (hold beams, depth-first searches,
#   phase beams with one to three holds and under other seeds), the widest phase beams, and
#   last the finishing beams (pysol_finish.py), which hand each position they keep right
#   after the last deal to the exact search.
PROBE_STATES = 10_000
RESTARTS = 100
NMCS4_PLAYOUTS = 20_000_000
NRPA = (
    Rollout("nrpa", "free", 3, 30),
    Rollout("nrpa", "decisions", 3, 30, seed=2),
    Rollout("nrpa", "decisions", 3, 30, seed=3),
    Rollout("nrpa", "decisions", 3, 30),
    Rollout("nrpa", "free", 3, 50),
    Rollout("nrpa", "decisions", 3, 50),
    Rollout("nrpa", "decisions", 3, 50, seed=2),
    Rollout("nrpa", "decisions", 3, 50, seed=3),
    Rollout("nrpa", "free", 3, 30, seed=2),
    *(Rollout("nrpa", "decisions", 3, 30, seed=s) for s in (8, 6, 7, 4, 5)),
    Rollout("nmcs", "decisions", 3),
    Rollout("nmcs", "decisions", 3, greedy=True),
    Rollout("nrpa", "decisions", 4, 20),
)
QUICK_STAGES = (
    Stage("beam", PysolPhaseSpace, 4, holds=2, playouts=True),
    Stage("exact", PysolSpace, PROBE_STATES),
    *(Stage("rollout", RolloutSpace, 0, rollout=r) for r in NRPA),
    Stage("restarts", RolloutSpace, RESTARTS, rollout=Rollout("nrpa", "decisions", 3, 30)),
    Stage("rollout", RolloutSpace, NMCS4_PLAYOUTS, rollout=Rollout("nmcs", "decisions", 4)),
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
    """The first win of the quick searches (QUICK_STAGES), or the exact probe's proof of a
    loss: its outcome, the space whose steps it holds, and the stage's label; None when
    none decides.

    The spaces (pysol_space.py): the greedy lines; those and the safe-plays-only line at
    each deal and redeal (hold); the exact space a phase at a time, cut to its first few
    hundred outcomes or to the lines that hold back at most one to three cards (phase). The
    beams keep the positions with the most cards on the foundations, or whose greedy
    playouts end with the most (`Stage.playouts`). A stage's own "lost" proves nothing,
    but for the exact probe's, which searched the whole exact space.
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
        if out.verdict == WON or (out.verdict == LOST and stage.kind == "exact"):
            return out, space, stage.label
        if stops_the_rest(out):
            return None
    return None

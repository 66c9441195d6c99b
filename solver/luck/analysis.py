"""How much of a deal is luck: its state graph, its figures, and the random and greedy
players' odds, exact when the graph is whole and estimated by playouts when it was cut.

`analyze` is what `wedlock analyze` shows; `luck_figures` is what `batch --analyze` adds to
a deal's results line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

import networkx as nx

from ..basics import compiled as core
from ..basics import memory
from ..basics.errors import LimitError
from ..basics.printable import shortened
from ..basics.words import counted
from ..games.lines import Line
from ..pipeline.line_layouts import start_of
from ..pipeline.solving import Deal, DealSource, Position, checked_limits, deal, solve
from ..search import state_graph as analysis
from ..search.exhaustive import Verdict
from . import playouts as playing
from .graph_report import export_graph, figures_data

DEFAULT_MAX_STATES = 10_000  # in pure Python: Monte Carlo game 1 (a dense start) in about 30 s
COMPILED_MAX_STATES = 3_000_000  # in the compiled core: game 1's whole graph (1.9 million) in under a minute, 0.6 GB
DEFAULT_PLAYOUTS = 2_000
PLAYERS = ("random", "greedy")
# Under a time limit: the share of the time left after the solver that the playouts keep,
# the share the first graph is built in (its figures tell what a bigger one would cost),
# and how much dearer than that a bigger graph's figures are allowed to turn out.
PLAYOUT_SHARE = 0.1
FIRST_BUILD_SHARE = 1 / 32
FIGURES_MARGIN = 1.5
FIGURES_ALWAYS = 256  # a graph this small gets its figures whatever the limits


@dataclass(frozen=True)
class Analysis:
    """A deal's state graph and what it says (see `analysis` for every figure)."""

    deal: Deal
    graph: analysis.Graph
    figures: analysis.Figures
    # When the graph was cut: per player, the playouts' estimate of its odds
    # ({"games", "value", "low", "high"}, within the bounds the cut graph proves).
    estimates: dict[str, dict[str, Any]]
    seconds: float
    position: Position | None = None  # the position of a game under way it starts from, if any
    # When the graph was cut: the solver's verdict on the deal (a win's line is then in the
    # graph; a loss makes every player's odds 0).
    solver_verdict: Verdict | None = None
    # When the graph was cut: what cut it ("time_limit", "memory" or "max_states"), and the
    # memory bound it was built within (bytes; None: none).
    cut_by: str | None = None
    max_memory: int | None = None
    max_states: int | None = None  # the bound on the graph's states it was built within

    @property
    def complete(self) -> bool:
        """Whether the whole graph was explored (else every figure is a bound)."""
        return self.figures.complete

    @property
    def shortest_win(self) -> Line:
        """A shortest winning line (in primitive moves), or an empty one."""
        return Line.of(self.deal.game, self.deal.rules, self.figures.shortest_win)

    def to_json(self) -> dict[str, Any]:
        """What `analyze --json` prints."""
        names = self.deal._names() if self.position is None else self.position._names()
        data = {**names, **figures_data(self.deal.game, self.deal.rules, self.figures)}
        for who, guess in self.estimates.items():
            data[f"{who}_player"]["playouts"] = guess
        if self.solver_verdict is not None:
            data["solver_verdict"] = self.solver_verdict.value
        if self.cut_by is not None:
            data["cut_by"] = self.cut_by
        data["seconds"] = round(self.seconds, 4)
        return data

    def __str__(self) -> str:
        """`Monte Carlo (PySolFC), game 12345: a state graph of 1,203 states and 4,711 edges, 12 won`."""
        f = self.figures
        where = self.deal.label if self.position is None else self.position.label
        cut = "" if f.complete else f" (cut by {(self.cut_by or 'a limit').replace('_', ' ')}: counts are lower bounds)"
        return f"{self.deal.title}, {shortened(where)}: a state graph of {counted(f.states, 'state')} and {counted(f.edges, 'edge')}, {f.won_states:,} won{cut}"

    def __repr__(self) -> str:
        where = self.deal.label if self.position is None else self.position.label
        return f"<Analysis {self.deal.title}, {shortened(where)}: {counted(self.figures.states, 'state')}{'' if self.complete else ', cut'}>"

    def exported(self, deadline: float | None = None) -> nx.DiGraph:
        """The graph with plain attributes, for GraphML, DOT and pictures; past `deadline`
        (a `time.perf_counter()` reading) the states not reached keep no edges (see
        `graph_report.export_graph`)."""
        return export_graph(self.deal.game, self.deal.rules, self.graph, self.figures, deadline)


def analyze(
    game: str,
    source: DealSource | Position,
    rules: str | None = None,
    *,
    max_states: int | None | Literal["auto"] = "auto",
    playouts: int = DEFAULT_PLAYOUTS,
    time_limit: float | None = None,
    max_memory: int | None | Literal["auto"] = "auto",
) -> Analysis:
    """Explore a deal's state graph, or a position's (`wedlock.position`), and compute its
    figures, all within `time_limit` seconds (the solver's search, the graph, its figures
    and the playouts), `max_states` states and `max_memory` bytes held by the process.
    `max_states` "auto" is `default_max_states(game)`; `max_memory` "auto" a quarter of the
    machine's memory; None sets no limit. A limit cuts the graph (then its counts are lower
    bounds and its odds ranges); it is never passed.

    >>> a = analyze("monte-carlo", 2, rules="strict")
    >>> a.complete, a.figures.states, a.figures.sequences
    (True, 17, 221184)
    >>> a.figures.random  # the chance that a player who picks at random wins, exactly
    (Fraction(1, 2), Fraction(1, 2))
    >>> print(a.shortest_win[0])
    A1 QD + A2 QC
    """
    started = time.perf_counter()
    checked_limits(time_limit=time_limit)
    if max_states != "auto":
        checked_limits(max_states=max_states)
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 0:
        raise LimitError(f"playouts is a whole number, 0 or more; not {playouts!r}")
    if max_memory == "auto":
        max_memory = memory.default_bound()
    elif max_memory is not None and (isinstance(max_memory, bool) or not isinstance(max_memory, int) or not 1 <= max_memory < 2**63):
        raise LimitError(f"max_memory is a number of bytes, 1 or more, \"auto\" or None; not {max_memory!r}")
    deadline = None if time_limit is None else started + time_limit
    if isinstance(source, Position):
        chosen, seen, after = source.deal, source.seen, f"/after {len(source.moves)}"
    else:
        chosen, seen, after = deal(game, source, rules), None, ""
    play = chosen.game.player(chosen.rules, chosen.cards, seen)
    if max_states == "auto":
        max_states = default_max_states(chosen.game.name)
    # The solver goes first, with the whole time limit, so that a cut graph holds a win
    # whenever `solve` (given the same limit) finds one; the graph has the time left.
    solved, line_keys, line = _solve_first(source if isinstance(source, Position) else chosen, time_limit)
    graph, fig, walked = _explore(play, max_states, deadline, max_memory, line_keys)
    verdict = None if graph.complete else solved  # a whole graph says it all
    if line and (not fig.shortest_win or len(line) < len(fig.shortest_win)):
        fig = replace(fig, shortest_win=line, on_shortest=set(walked))
    if verdict == Verdict.LOST:  # no player wins a lost deal
        fig = replace(fig, random=(Fraction(0), Fraction(0)), greedy=(Fraction(0), Fraction(0)))
    estimates = {}
    if not fig.complete and verdict != Verdict.LOST:
        seed = f"{chosen.game.name}/{chosen.rules.name}/{chosen.number or 'file'}{after}"
        for n, (who, bounds) in enumerate(zip(PLAYERS, (fig.random, fig.greedy))):
            until = None if deadline is None else deadline - (deadline - time.perf_counter()) * (len(PLAYERS) - n - 1) / (len(PLAYERS) - n)
            estimates[who] = playing.estimate(play, bounds, playouts, seed, who == "greedy", until)
    position = source if isinstance(source, Position) else None
    cut_by = None if graph.complete else graph.stopped
    return Analysis(chosen, graph, fig, estimates, time.perf_counter() - started, position, verdict, cut_by, max_memory, max_states)


def _explore(
    play: analysis.Play, max_states: int | None, deadline: float | None, max_memory: int | None, line_keys: list[Any]
) -> tuple[analysis.Graph, analysis.Figures, list[int]]:
    """The biggest graph whose figures fit in the time and memory given, with its figures,
    and the states a winning line adds to it when it is cut.

    The graph is built breadth first, so a smaller one is the start of a bigger one. Under
    a time limit a first graph is built in a small share of the time; how long its
    figures took says how big a second one can be for its figures to end in time. Any
    graph whose figures a limit stops makes way for the last one whose figures were done
    (or, for the first, for one a quarter its size). The build keeps within a third of the
    memory bound, so that its figures, which hold about twice as much, fit in the rest.
    """
    now = time.perf_counter()
    playouts_from = None if deadline is None else deadline - PLAYOUT_SHARE * max(0.0, deadline - now)
    build_memory = None
    if max_memory is not None:
        baseline = memory.resident()
        build_memory = baseline + max(0, max_memory - baseline) // 3
    build_until = None if playouts_from is None else now + FIRST_BUILD_SHARE * (playouts_from - now)
    best = None
    cause = None  # the limit that stopped a bigger graph's figures, when one did
    while True:
        began = time.perf_counter()
        graph = analysis.build(play, max_states, build_until, build_memory)
        built = time.perf_counter()
        walked = analysis.include_line(play, graph, line_keys) if line_keys and not graph.complete else []
        small = len(graph) <= FIGURES_ALWAYS  # so that some graph always gets its figures
        try:
            fig = analysis.figures(play, graph, None if small else playouts_from, None if small else max_memory)
        except analysis.FiguresCut as cut:
            if best is not None:
                return best
            cause = cut.args[0]
            max_states = min(max_states or len(graph), max(1, len(graph) // 4))
            build_until = None  # the next graph is built to its size
            continue
        if cause is not None and not graph.complete:
            graph.stopped = cause  # what made this graph small
        best = graph, fig, walked
        # A graph full at max_states goes on adding the edges among its states: when its
        # build ran to its deadline, the time may have cut those, and it says max_states.
        timed = graph.stopped == "time_limit" or (build_until is not None and built >= build_until)
        if not timed or playouts_from is None:
            return best
        # The time cut this graph: build a bigger one if its figures, as dear a state as
        # these were (and a margin), leave it more than twice the time this one had.
        summed = time.perf_counter()
        left = playouts_from - summed
        ratio = FIGURES_MARGIN * (summed - built) / max(built - began, 1e-3)
        build_seconds = left / (1 + ratio)
        if build_seconds < 2 * (built - began):
            return best
        del graph, fig, walked  # the next graph is built in the memory these held
        build_until = summed + build_seconds


def default_max_states(game: str) -> int:
    """The states `analyze` explores unless told: millions where the compiled core holds
    the graph (Monte Carlo), thousands in pure Python."""
    compiled = core.compiled_core() is not None and game == "monte-carlo"
    return COMPILED_MAX_STATES if compiled else DEFAULT_MAX_STATES


def _solve_first(start: Deal | Position, time_limit: float | None) -> tuple[Verdict, list[Any], list[Any]]:
    """The solver's verdict on the deal or position, and when it wins, the state graph's
    key of every position along its line (the start's first) and the line's moves."""
    chosen, seen = start_of(start)
    result = solve(chosen.game, start, time_limit=time_limit)
    if result.verdict != Verdict.WON:
        return result.verdict, [], []
    game, rules = chosen.game, chosen.rules
    keys = [_key(game, chosen, seen)]
    for move in result.moves.raw():
        seen = game.after(rules, seen, move)
        keys.append(_key(game, chosen, seen))
    return result.verdict, keys, list(result.moves.raw())


def _key(game: Any, chosen: Deal, seen: Any) -> Any:
    """The state graph's key of a referee's position."""
    view = game.player(chosen.rules, chosen.cards, seen)
    return view.key(view.start())


def luck_figures(chosen: Deal, max_states: int, games: int, verdict: Verdict) -> dict[str, Any]:
    """The luck figures of one deal for its results line (`batch --analyze`):
    `{"complete","states","playouts","random","greedy","seconds"}`.

    Exact when the state graph fits in `max_states` (and then it must agree with the
    solver's verdict); otherwise each player plays `games` seeded games, and its odds are
    the share won with the Wilson 95% interval, within the bounds the cut graph proves.
    """
    started = time.perf_counter()
    play = chosen.game.player(chosen.rules, chosen.cards)
    graph = analysis.build(play, max_states)
    fig = analysis.figures(play, graph)
    if fig.complete and verdict != Verdict.UNKNOWN and fig.can_win[graph.start] != (verdict == Verdict.WON):
        raise RuntimeError(f"{chosen.label}: the state graph and the solver disagree on whether it can be won")
    out: dict[str, Any] = {"complete": fig.complete, "states": fig.states, "playouts": 0}
    for who, (low, high) in zip(PLAYERS, (fig.random, fig.greedy)):
        if fig.complete:
            out[who] = {"value": float(low), "low": float(low), "high": float(high)}
            continue
        seed = f"{chosen.game.name}/{chosen.rules.name}/{chosen.number}"
        guess = playing.estimate(play, (low, high), games, seed, who == "greedy")
        out[who] = {k: guess[k] for k in ("value", "low", "high")}
        out["playouts"] = games
    out["seconds"] = round(time.perf_counter() - started, 4)
    return out

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

from . import analysis, core
from . import playouts as playing
from .frames import start_of
from .graph_report import export_graph, figures_data
from .lines import Line
from .pipeline import Deal, DealSource, Position, deal, solve
from .search import Verdict

DEFAULT_MAX_STATES = 10_000  # in pure Python: Monte Carlo game 1 (a dense start) in about 30 s
COMPILED_MAX_STATES = 3_000_000  # in the compiled core: game 1's whole graph (1.9 million) in under a minute, 0.6 GB
DEFAULT_PLAYOUTS = 2_000
PLAYERS = ("random", "greedy")


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
        data["seconds"] = round(self.seconds, 4)
        return data

    def exported(self) -> nx.DiGraph:
        """The graph with plain attributes, for GraphML, DOT and pictures."""
        return export_graph(self.deal.game, self.deal.rules, self.graph, self.figures)


def analyze(
    game: str,
    source: DealSource | Position,
    rules: str | None = None,
    *,
    max_states: int | None | Literal["auto"] = "auto",
    playouts: int = DEFAULT_PLAYOUTS,
    time_limit: float | None = None,
) -> Analysis:
    """Explore a deal's state graph, or a position's (`wedlock.position`), up to
    `max_states` states and `time_limit` seconds shared with the playouts, and compute its
    figures. `max_states` "auto" is `default_max_states(game)`; None sets no limit.

    >>> a = analyze("monte-carlo", 2, rules="strict")
    >>> a.complete, a.figures.states, a.figures.sequences
    (True, 17, 221184)
    >>> a.figures.random  # the chance that a player who picks at random wins, exactly
    (Fraction(1, 2), Fraction(1, 2))
    >>> print(a.shortest_win[0])
    A1 QD + A2 QC
    """
    started = time.perf_counter()
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
    graph = analysis.build(play, max_states, deadline)
    walked: list[int] = []
    verdict = None if graph.complete else solved  # a whole graph says it all
    if line_keys and not graph.complete:
        walked = analysis.include_line(play, graph, line_keys)
    fig = analysis.figures(play, graph)
    if line and (not fig.shortest_win or len(line) < len(fig.shortest_win)):
        fig = replace(fig, shortest_win=line, on_shortest=set(walked))
    if verdict == Verdict.LOST:  # no player wins a lost deal
        fig = replace(fig, random=(Fraction(0), Fraction(0)), greedy=(Fraction(0), Fraction(0)))
    estimates = {}
    if not fig.complete and verdict != Verdict.LOST:
        seed = f"{chosen.game.name}/{chosen.rules.name}/{chosen.number or 'file'}{after}"
        for who, bounds in zip(PLAYERS, (fig.random, fig.greedy)):
            estimates[who] = playing.estimate(play, bounds, playouts, seed, who == "greedy", deadline)
    position = source if isinstance(source, Position) else None
    return Analysis(chosen, graph, fig, estimates, time.perf_counter() - started, position, verdict)


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

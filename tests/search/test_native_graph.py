"""The compiled state graph (solver/_core/graph.c) against the pure-Python analysis it twins.

Wherever the core runs, a Monte Carlo deal's graph is built in its arrays and its figures
are summed there. Both paths must give the same graph (states in the same order, with the
same keys, positions, flags and edges) and the same figures, exact odds included, whole or
cut, with a winning line added or not, for every rule set.
"""

from __future__ import annotations

import random
import signal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wedlock
from tests.games.positions import cards_left, late_position
from wedlock.basics import compiled as core
from wedlock.basics.deals import numbered_deal
from wedlock.basics.numbering import GameNumber
from wedlock.games.montecarlo.moves import Consolidate
from wedlock.games.montecarlo.play import Position, Table
from wedlock.games.montecarlo.player import PlayerView
from wedlock.games.montecarlo.rules import RULE_SETS, MonteCarloRules
from wedlock.search import state_graph as analysis

MONTE_CARLO = sorted(RULE_SETS)
needs_core = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")
pytestmark = needs_core


def both(monkeypatch: pytest.MonkeyPatch, table: Table, pos: Position, max_states: int | None, line: bool = False):
    """(pure graph, pure figures), (native graph, native figures) for one position."""
    out = []
    for pure in ("1", ""):
        monkeypatch.setenv(core.PURE_VARIABLE, pure)
        play = PlayerView(table, pos)
        graph = analysis.build(play, max_states)
        assert isinstance(graph, analysis.StateGraph if pure else analysis.NativeGraph)
        if line:
            whole = analysis.figures(play, analysis.build(play, None)) if pure else None
            if pure:
                keys = keys_along(play, whole.shortest_win)
            analysis.include_line(play, graph, keys)
        out.append((graph, analysis.figures(play, graph)))
    return out


def keys_along(play, moves) -> list:
    at = play.start()
    keys = [play.key(at)]
    for move in moves:
        at = play.apply(at, (move,))
        keys.append(play.key(at))
    return keys


def same_figures(a: analysis.Figures, b: analysis.Figures) -> None:
    assert (a.complete, a.states, a.edges, a.won_states, a.dead_ends, a.winning_states) == (
        b.complete,
        b.states,
        b.edges,
        b.won_states,
        b.dead_ends,
        b.winning_states,
    )
    assert a.sequences == b.sequences
    assert a.random == b.random and a.greedy == b.greedy
    assert a.shortest_win == b.shortest_win and a.on_shortest == b.on_shortest
    assert a.decisions == b.decisions
    assert [bool(x) for x in a.can_win] == [bool(x) for x in b.can_win]


def same_graph(a: analysis.Graph, b: analysis.Graph) -> None:
    assert len(a) == len(b) and a.edge_count() == b.edge_count()
    assert [bool(x) for x in a.won] == [bool(x) for x in b.won]
    assert [bool(x) for x in a.frontier] == [bool(x) for x in b.frontier]
    for v in range(len(a)):
        assert a.key(v) == b.key(v) and a.position(v) == b.position(v)
        assert a.successors(v) == b.successors(v)
        assert b.index(b.key(v)) == v
    for v in random.Random(len(a)).sample(range(len(a)), min(len(a), 30)):
        assert a.out_edges(v) == b.out_edges(v)


def late_on_a_win(rules: MonteCarloRules, number: int, left: int) -> tuple[Table, Position] | None:
    """The first phase start with at most `left` cards left along the solver's win of a
    deal (None when it is not won): random play never wins a late Weddings position."""
    result = wedlock.solve("monte-carlo", number, rules=rules.name)
    if result.verdict != wedlock.Verdict.WON:
        return None
    table = Table(rules, tuple(numbered_deal(GameNumber.parse(str(number)), rules.decks)))
    pos = table.start()
    for move in result.moves.raw():
        pos = table.apply(pos, move)
        if isinstance(move, Consolidate) and cards_left(table, pos) <= left:
            return table, pos
    return None


@pytest.mark.slow
@pytest.mark.parametrize("name", MONTE_CARLO)
def test_whole_graphs_of_late_positions_are_the_same(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    rules = RULE_SETS[name]
    left = 16 if rules.decks == 1 else 18
    won = 0
    starts = [late_position(rules, seed, left)[:2] for seed in range(20)]
    starts += [s for s in (late_on_a_win(rules, number, left) for number in range(1, 6)) if s]
    for table, pos in starts:
        (pure, a), (native, b) = both(monkeypatch, table, pos, None)
        assert a.complete
        same_graph(pure, native)
        same_figures(a, b)
        won += bool(a.shortest_win)
    assert won, "the positions include wins"


@pytest.mark.slow
@pytest.mark.parametrize("name", MONTE_CARLO)
def test_cut_graphs_of_whole_deals_are_the_same(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    rules = RULE_SETS[name]
    for number in (1, 2, 3):
        table = Table(rules, tuple(numbered_deal(GameNumber.parse(str(number)), rules.decks)))
        for size in (1, 2, 60, 300):
            (pure, a), (native, b) = both(monkeypatch, table, table.start(), size)
            same_graph(pure, native)
            same_figures(a, b)


def test_exact_odds_outgrow_a_machine_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """A graph whose odds have denominators past 2**64: still the same."""
    table, pos, _ = late_position(RULE_SETS["pysol"], 1, left=26)
    (_, a), (_, b) = both(monkeypatch, table, pos, None)
    same_figures(a, b)
    assert a.random[0].denominator > 2**64


def test_a_winning_line_added_to_a_cut_graph_gives_the_same_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = 0
    for seed in range(12):
        table, pos, _ = late_position(RULE_SETS["pysol"], seed, left=18)
        monkeypatch.setenv(core.PURE_VARIABLE, "1")
        whole = analysis.figures(PlayerView(table, pos), analysis.build(PlayerView(table, pos)))
        if not whole.shortest_win or whole.states < 8:
            continue
        for size in (1, 3, whole.states // 2):
            (pure, a), (native, b) = both(monkeypatch, table, pos, size, line=True)
            same_graph(pure, native)
            same_figures(a, b)
            assert not b.complete and b.shortest_win
        checked += 1
    assert checked >= 2


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(MONTE_CARLO),
    seed=st.integers(0, 10**6),
    left=st.integers(6, 22),
    size=st.one_of(st.none(), st.integers(1, 400)),
)
def test_any_position_and_cut_gives_the_same_figures(name: str, seed: int, left: int, size: int | None) -> None:
    rules = RULE_SETS[name]
    table, pos, _ = late_position(rules, seed, left=left + (4 if rules.decks == 2 else 0))
    with pytest.MonkeyPatch.context() as monkeypatch:
        (pure, a), (native, b) = both(monkeypatch, table, pos, size)
        same_graph(pure, native)
        same_figures(a, b)


def test_the_whole_graph_is_whole_and_its_odds_are_probabilities(monkeypatch: pytest.MonkeyPatch) -> None:
    table, pos, _ = late_position(RULE_SETS["pysol"], 3, left=24)
    monkeypatch.delenv(core.PURE_VARIABLE, raising=False)
    play = PlayerView(table, pos)
    graph = analysis.build(play)
    fig = analysis.figures(play, graph)
    assert isinstance(graph, analysis.NativeGraph) and fig.complete
    assert fig.random[0] == fig.random[1] and Fraction(0) <= fig.random[0] <= 1
    assert fig.greedy[0] == fig.greedy[1] and Fraction(0) <= fig.greedy[0] <= 1
    assert fig.can_win[graph.start] == (fig.sequences > 0)


def test_the_core_refuses_what_it_cannot_read() -> None:
    made = core._core
    ranks = bytes(c.rank for c in numbered_deal(GameNumber.parse("1"), 1))
    start = bytes(range(25)), 25
    with pytest.raises(ValueError):
        made.graph_montecarlo(ranks[:10], 5, 5, False, False, False, *start, -1, -1.0)  # too few cards
    with pytest.raises(ValueError):
        made.graph_montecarlo(bytes([14]) * 52, 5, 5, False, False, False, *start, -1, -1.0)  # no rank 14
    with pytest.raises(ValueError):
        made.graph_montecarlo(ranks, 6, 6, False, False, False, *start, -1, -1.0)  # a grid too big
    with pytest.raises(ValueError):
        made.graph_montecarlo(ranks, 5, 858993460, False, False, False, *start, -1, -1.0)  # rows x cols wraps
    with pytest.raises(ValueError):
        made.graph_montecarlo(ranks, 5, 5, False, False, False, bytes(range(24)), 25, -1, -1.0)  # cells missing
    with pytest.raises(ValueError):
        made.graph_montecarlo(ranks, 5, 5, False, False, False, bytes(range(1, 26)), 25, -1, -1.0)  # a card not dealt yet
    with pytest.raises(ValueError):
        made.graph_montecarlo(ranks, 5, 5, False, False, False, bytes([0] * 25), 25, -1, -1.0)  # a card dealt twice
    graph = made.graph_montecarlo(ranks, 5, 5, False, False, False, *start, 3, -1.0)
    assert len(graph) == 3
    with pytest.raises(IndexError):
        graph.position(3)
    with pytest.raises(ValueError):
        graph.add_node(bytes(range(25)), 25)  # the start is there already
    with pytest.raises(ValueError):
        graph.add_edge(0, 1, 0)  # no line of no moves
    with pytest.raises(ValueError):
        graph.add_edge(0, graph.successors(0)[0], 2)  # there already
    assert graph.index(b"\x00" * 25, 52) is None and graph.index(b"\x00", 99) is None


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
@pytest.mark.parametrize("stage", ["build", pytest.param("figures", marks=pytest.mark.slow)])
def test_ctrl_c_stops_the_graph_and_the_next_one_is_whole(stage: str) -> None:
    """Game 6's graph takes seconds to build and to sum up; Ctrl-C stops either."""
    table = Table(RULE_SETS["pysol"], tuple(numbered_deal(GameNumber.parse("6"), 1)))

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.delenv(core.PURE_VARIABLE, raising=False)
        play = PlayerView(table)
        graph = analysis.build(play, None) if stage == "figures" else None
        previous = signal.signal(signal.SIGALRM, interrupt)
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            with pytest.raises(KeyboardInterrupt):
                if graph is None:
                    analysis.build(play, None)
                else:
                    analysis.figures(play, graph)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        small = analysis.build(play, 500)
        assert len(small) == 500 and analysis.figures(play, small).states == 500


@pytest.mark.slow  # game 6's graph, whole
def test_the_graph_cannot_change_while_it_is_summed_up() -> None:
    """Python code run during the sum (here a signal handler) cannot add to the graph."""
    table = Table(RULE_SETS["pysol"], tuple(numbered_deal(GameNumber.parse("6"), 1)))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.delenv(core.PURE_VARIABLE, raising=False)
        graph = analysis.build(PlayerView(table), None)
    assert isinstance(graph, analysis.NativeGraph)

    def meddle(signum, frame):
        graph.core.add_edge(0, len(graph) - 1, 1)

    previous = signal.signal(signal.SIGALRM, meddle)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(RuntimeError, match="being built or summed up"):
            graph.core.figures()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert not graph.has_edge(0, len(graph) - 1)


def test_a_compiled_graph_copied_to_plain_lists_gives_the_same_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure figures' fallback (a state added with a winning line whose phase the core
    cannot walk) over the compiled graph's copy: the same as the core's own."""
    table, pos, _ = late_position(RULE_SETS["pysol"], 1, left=26)
    monkeypatch.setenv(core.PURE_VARIABLE, "1")
    play = PlayerView(table, pos)
    whole = analysis.figures(play, analysis.build(play))
    assert whole.shortest_win
    monkeypatch.delenv(core.PURE_VARIABLE)
    for size in (None, 2, whole.states // 3):
        play = PlayerView(table, pos)
        graph = analysis.build(play, size)
        if size is not None:
            analysis.include_line(play, graph, keys_along(play, whole.shortest_win))
        assert isinstance(graph, analysis.NativeGraph)
        plain = graph.plain()
        same_graph(plain, graph)
        same_figures(analysis.figures(play, plain), analysis.figures(play, graph))

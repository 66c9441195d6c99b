"""The finishing beam (pysol_finish.py): at a hand-over state it answers as the exact
search does, cut short it is the phase space again, and it keeps within the caller's limits."""

from __future__ import annotations

import pytest

from tests.games.test_matrimony_spaces import EXHAUSTIVE, PYSOL, deal_of, pysol_positions
from wedlock.games.matrimony.play import Table
from wedlock.games.matrimony.pysol_finish import FINISH_NODES, PysolFinishSpace
from wedlock.games.matrimony.pysol_space import PysolPhaseSpace, PysolSpace
from wedlock.games.matrimony.quick_stages import Stage
from wedlock.games.matrimony.rules import DECK
from wedlock.games.matrimony.verify import referee
from wedlock.search.exhaustive import LOST, WON, Limits, solve


def redeal_phase_positions():
    """Late positions of pysol_positions() in the redeal phase (every one of them is)."""
    for table, pos, line in pysol_positions():
        if pos.stock == DECK:
            yield table, pos, line


def test_a_hand_over_state_has_the_exact_verdict_as_its_successors() -> None:
    verdicts = {WON: 0, LOST: 0}
    for n, (table, pos, line) in enumerate(redeal_phase_positions()):
        exact = solve(PysolSpace(table, pos), EXHAUSTIVE)
        space = PysolFinishSpace(table, pos, at_round=pos.rounds)
        children = list(space.open_successors(space.start()))
        if exact.verdict == LOST:
            assert children == [], n
        else:
            ((step, child),) = children
            assert space.is_won(child), n
            assert referee(PYSOL, table.deal, line + space.moves([step])).won, n
        verdicts[exact.verdict] += 1
    assert verdicts[WON] >= 5 and verdicts[LOST] >= 20, verdicts


def test_cut_short_or_elsewhere_it_is_the_phase_space() -> None:
    cut = 0
    for table, pos, _ in redeal_phase_positions():
        phases = PysolPhaseSpace(table, pos, holds=2)
        expected = list(phases.open_successors(phases.start()))
        elsewhere = PysolFinishSpace(table, pos, holds=2, at_round=pos.rounds + 1)  # not a hand-over state
        assert list(elsewhere.open_successors(elsewhere.start())) == expected
        short = PysolFinishSpace(table, pos, holds=2, nodes=1, at_round=pos.rounds)
        children = list(short.open_successors(short.start()))
        (search,) = short.finished
        if search.limit is not None:  # cut short (else one state decided it)
            assert children == expected
            cut += bool(expected)
    assert cut >= 3


@pytest.mark.parametrize("node_limit", [2_000, 20_000])
def test_a_finishing_stage_keeps_within_the_node_limit(node_limit: int) -> None:
    stage = Stage("finish", PysolFinishSpace, 4, holds=3, playouts=True)
    table = Table(PYSOL, deal_of(100))
    space = stage.build(table)
    out = stage.run(space, Limits(node_limit=node_limit))
    searches = len(space.finished)
    assert out.nodes <= node_limit + searches  # a search stops one state past its share
    assert out.nodes == out.states
    if node_limit == 20_000:
        assert searches > 0  # the beam got to the redeal phase and handed over


def test_out_of_time_it_searches_nothing_exactly() -> None:
    table, pos, _ = next(redeal_phase_positions())
    space = PysolFinishSpace(table, pos, at_round=pos.rounds)
    space.share(Limits(time_limit=0.0))
    phases = PysolPhaseSpace(table, pos)
    assert list(space.open_successors(space.start())) == list(phases.open_successors(phases.start()))
    assert space.finished == []
    stage = Stage("finish", PysolFinishSpace, 4, holds=3, playouts=True)
    out = stage.run(stage.build(table), Limits(time_limit=0.0))
    assert out.limit == "time_limit"


def test_a_stage_budget_bounds_each_exact_search() -> None:
    stage = Stage("finish", PysolFinishSpace, 4, holds=3, playouts=True, budget=300)
    table = Table(PYSOL, deal_of(100))
    space = stage.build(table)
    stage.run(space, Limits(node_limit=40_000))
    assert space.finished, "the beam got to the redeal phase and handed over"
    assert all(search.nodes <= 301 for search in space.finished)  # one state past the budget
    assert any(search.limit == "node_limit" for search in space.finished)
    assert "300 states a hand-over" in stage.label


def test_stages_that_share_a_space_each_keep_their_own_budget() -> None:
    # The solver builds one space per (space, holds) and lets later stages reuse it: a
    # stage's budget must still be its own, whichever stage built the space.
    table = Table(PYSOL, deal_of(100))
    small = Stage("finish", PysolFinishSpace, 4, holds=3, playouts=True, budget=300)
    plain = Stage("finish", PysolFinishSpace, 4, holds=3, playouts=True)
    space = plain.build(table)
    small.run(space, Limits(node_limit=40_000))
    assert space.finished and all(search.nodes <= 301 for search in space.finished)
    plain.run(space, Limits(node_limit=40_000))
    assert space.nodes == FINISH_NODES

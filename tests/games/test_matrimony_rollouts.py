"""The searches by playouts of PySolFC's Matrimony (rollouts.py): the compiled core and its
Python twin make the same draws and find the same lines, each win is one the referee
accepts, from the deal or from a position under way, and their limits keep what they say."""

from __future__ import annotations

from typing import Any

import pytest

import wedlock
from tests.tiers import first_quick
from wedlock.basics import compiled as core
from wedlock.games.matrimony import GAME, quick_stages, rollouts
from wedlock.games.matrimony.play import Table
from wedlock.games.matrimony.quick_stages import Stage
from wedlock.games.matrimony.rollouts import (
    MODELS,
    RESTART_BIASES,
    RESTART_MODELS,
    Rollout,
    RolloutSpace,
    position_bytes,
    restart,
    restarts_label,
    rollout_search,
)
from wedlock.games.matrimony.rules import RULE_SETS
from wedlock.search.exhaustive import UNKNOWN, WON, Limits

PYSOL = RULE_SETS["pysol"]
needs_core = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")


def table_of(number: int) -> Table:
    return Table(PYSOL, tuple(GAME.numbered_deal(PYSOL, str(number))))


def searched(number: int, search: Rollout, limits: Limits, pure: bool, monkeypatch: pytest.MonkeyPatch, start: Any = None) -> tuple[RolloutSpace, Any]:
    """The space and the search's outcome, compiled or pure."""
    with monkeypatch.context() as patch:
        if pure:
            patch.setenv(core.PURE_VARIABLE, "1")
        else:
            patch.delenv(core.PURE_VARIABLE, raising=False)
        space = RolloutSpace(table_of(number), start)
        return space, rollout_search(space, search, limits)


SEARCHES = [
    Rollout("nrpa", "decisions", 1, 10),
    Rollout("nrpa", "free", 2, 5, seed=3),
    Rollout("nrpa", "decisions", 2, 8, bias=(1.0, 0.5, 2.0, 0.25), seed=11),
    Rollout("nmcs", "decisions", 1),
    Rollout("nmcs", "free", 1, greedy=True),
    Rollout("nmcs", "decisions", 2, seed=7, bias=(1.5, 0.5, 2.0, 0.1)),
    Rollout("uct", "decisions", seed=5),
    Rollout("uct", "free", greedy=True, exploration=1.0),
]


@needs_core
@pytest.mark.parametrize("search", SEARCHES, ids=[s.label for s in SEARCHES])
@pytest.mark.parametrize("number", first_quick([1, 15, 48]))
def test_the_core_and_its_python_twin_find_the_same_lines(number: int, search: Rollout, monkeypatch: pytest.MonkeyPatch) -> None:
    limits = Limits(node_limit=200)
    _, compiled = searched(number, search, limits, False, monkeypatch)
    _, pure = searched(number, search, limits, True, monkeypatch)
    assert (compiled.verdict, compiled.states, compiled.steps, compiled.reason) == (pure.verdict, pure.states, pure.steps, pure.reason)


@needs_core
@pytest.mark.parametrize(
    "number, search",
    [(11, Rollout("nrpa", "decisions", 2, 20)), (12, Rollout("nrpa", "decisions", 2, 20)), (16, Rollout("nrpa", "free", 2, 20)), (2, Rollout(greedy=True, level=1))],
)
def test_the_twins_find_the_same_wins(number: int, search: Rollout, monkeypatch: pytest.MonkeyPatch) -> None:
    _, compiled = searched(number, search, Limits(), False, monkeypatch)
    space, pure = searched(number, search, Limits(), True, monkeypatch)
    assert compiled.verdict == pure.verdict == WON
    assert compiled.steps == pure.steps and compiled.states == pure.states
    moves = space.moves(pure.steps)
    assert GAME.referee(PYSOL, table_of(number).deal, moves).won


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("number", [1, 2, 3, 5980])
def test_every_win_is_a_line_the_referee_accepts(number: int, model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    space, out = searched(number, Rollout("nmcs", model, 2, seed=number), Limits(time_limit=30, node_limit=50_000), False, monkeypatch)
    if out.verdict == WON:
        moves = space.moves(out.steps)
        assert GAME.referee(PYSOL, table_of(number).deal, moves).won
    else:
        assert out.verdict == UNKNOWN and out.reason


def test_a_search_from_a_position_under_way_wins_from_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten moves of game 3's win made, the playouts go on from the position they reach (the
    start position's cards get labels of their own)."""
    start = wedlock.position("matrimony", 3, after=wedlock.solve("matrimony", 3).moves.raw()[:10])
    monkeypatch.setattr(quick_stages, "QUICK_STAGES", (Stage("rollout", RolloutSpace, 0, rollout=Rollout(level=2)),))
    answer = wedlock.solve("matrimony", start)
    assert answer.verdict == "won" and answer.found_by == "NMCS search, level 2, drawn base, decisions"
    assert wedlock.verify("matrimony", start, answer.moves).won


@pytest.mark.parametrize("pure", [False, True])
def test_a_cut_search_names_its_limit_and_counts_its_playouts(pure: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not pure and core._core is None:
        pytest.skip("no compiled core was built")
    _, out = searched(15, Rollout("nmcs", "decisions", 3), Limits(node_limit=123), pure, monkeypatch)
    assert (out.verdict, out.limit, out.nodes, out.states, out.reason) == (UNKNOWN, "node_limit", 123, 4, "node limit 123 reached")
    _, out = searched(15, Rollout("nrpa", "decisions", 3), Limits(time_limit=0.0), pure, monkeypatch)
    assert (out.verdict, out.limit) == (UNKNOWN, "time_limit") and out.nodes <= 32
    _, out = searched(15, Rollout("uct", "decisions"), Limits(max_states=50), pure, monkeypatch)
    assert (out.verdict, out.limit, out.reason) == (UNKNOWN, "max_states", "state limit 50 reached") and out.states <= 50


def test_a_search_that_ends_says_how_far_its_best_line_went(monkeypatch: pytest.MonkeyPatch) -> None:
    _, out = searched(15, Rollout("nmcs", "decisions", 1), Limits(), False, monkeypatch)
    assert out.verdict == UNKNOWN and out.limit is None
    assert out.reason.startswith("NMCS search, level 1, drawn base, decisions: its best line put ") and out.reason.endswith(" cards down")


def test_labels_name_what_sets_a_search_apart() -> None:
    assert Rollout().label == "NMCS search, level 3, drawn base, decisions"
    assert Rollout("nrpa", "free", 3, 50, seed=4).label == "NRPA search, level 3, 50 iterations a level, free moves, seed 4"
    assert Rollout(greedy=True, bias=(1, 0, 2, 0.5)).label == "NMCS search, level 3, greedy base, decisions, bias 1/0/2/0.5"
    assert Rollout("uct", exploration=0.5).label == "UCT search, exploration 0.5, drawn base, decisions"
    assert Rollout("nrpa", "pruned", 3, 30).label == "NRPA search, level 3, 30 iterations a level, decisions, lost lines cut"


def test_an_unknown_method_or_model_is_refused() -> None:
    space = RolloutSpace(table_of(1))
    with pytest.raises(ValueError):
        rollout_search(space, Rollout(method="mcts"), Limits())
    with pytest.raises(ValueError):
        rollout_search(space, Rollout(model="both"), Limits())


@needs_core
def test_the_core_refuses_what_it_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    table = table_of(1)
    rules = table.rules
    takes = bytes(code for codes in rules.takes for code in codes)
    start = position_bytes(table.start())
    good = [table.codes, takes, bytes(rules.jack_down), bytes(rules.queen_up), start, 1, 0, 1, 5, False, (2.0, 0.0, 1.0, 0.0), 0.3, 1, None, 10, None]
    assert core._core.pysol_rollouts(*good)[2:4] == (5, 2)
    nan = float("nan")
    for at, value in [(5, 3), (6, 3), (7, 7), (8, 0), (10, (nan, 0.0, 0.0, 0.0)), (11, -1.0), (11, nan), (0, bytes(103)), (4, start[:-1])]:
        bad = list(good)
        bad[at] = value
        with pytest.raises(ValueError):
            core._core.pysol_rollouts(*bad)


def test_restarts_take_each_model_and_bias_in_turn_under_seeds_of_their_own() -> None:
    base = Rollout("nrpa", "decisions", 3, 30)
    tries = [restart(base, i) for i in range(len(RESTART_MODELS) * len(RESTART_BIASES) + 1)]
    assert {(t.model, t.bias) for t in tries[:-1]} == {(m, b) for m in RESTART_MODELS for b in RESTART_BIASES}
    assert (tries[-1].model, tries[-1].bias) == (tries[0].model, tries[0].bias) and len({t.seed for t in tries}) == len(tries)
    assert all((t.method, t.level, t.iterations) == ("nrpa", 3, 30) for t in tries)
    assert restarts_label(base, 200) == "NRPA search, level 3, 30 iterations a level, 200 restarts under new seeds, models and biases"


def test_restarts_end_at_the_first_win_with_that_try_s_line(monkeypatch: pytest.MonkeyPatch) -> None:
    base = Rollout("nrpa", "decisions", 2, 10)
    space = RolloutSpace(table_of(5))  # the first tries find no win
    tried: list[Rollout] = []
    real = rollouts.rollout_search

    def counted(space: RolloutSpace, search: Rollout, limits: Limits) -> Any:
        tried.append(search)
        return real(space, search, limits)

    monkeypatch.setattr(rollouts, "rollout_search", counted)
    out = rollouts.rollout_restarts(space, base, 50, Limits())
    assert out.verdict == WON and len(tried) > 3 and tried == [restart(base, i) for i in range(len(tried))]
    assert out.steps == real(space, tried[-1], Limits()).steps
    assert wedlock.verify("matrimony", 5, space.moves(out.steps)).won


def test_restarts_share_the_callers_limits_and_say_which_ended_them() -> None:
    base = Rollout("nrpa", "decisions", 2, 10)
    space = RolloutSpace(table_of(107))
    out = rollouts.rollout_restarts(space, base, 1000, Limits(node_limit=250))
    assert (out.verdict, out.limit, out.nodes) == (UNKNOWN, "node_limit", 250)
    assert out.reason == "node limit 250 reached"
    out = rollouts.rollout_restarts(space, base, 3, Limits())
    assert out.verdict == UNKNOWN and out.limit is None and out.nodes == 3 * 10 * 10
    assert out.reason == f"{restarts_label(base, 3)}: no win"
    stage = Stage("restarts", RolloutSpace, 3, rollout=base)
    assert stage.label == restarts_label(base, 3) and stage.run(stage.build(table_of(107)), Limits()).nodes == 300

"""`wedlock.solve(..., checkpoint=PATH)`: PySolFC's Matrimony proves by levels, keeps its
work in the checkpoint, and a later call goes on from it to the verdict a search that ran
straight through gives; a win the levels find gets its line from the depth-first search;
every other game, and a path no checkpoint can be kept at, is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import wedlock
from wedlock.basics import compiled as core
from wedlock.basics.errors import CheckpointError, CheckpointNotWritten
from wedlock.games.matrimony import quick_stages
from wedlock.games.matrimony import seen as positions
from wedlock.games.matrimony.deal import LAYOUT
from wedlock.games.matrimony.play import Table
from wedlock.games.matrimony.pysol_levels import search_by_levels
from wedlock.games.matrimony.pysol_space import PysolPhaseSpace, PysolSpace
from wedlock.games.protocol import EXACT_LABEL
from wedlock.search.exhaustive import Limits

needs_core = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")


@pytest.fixture(autouse=True)
def core_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(core.PURE_VARIABLE, raising=False)


@pytest.fixture
def no_quick_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick stages find nothing at once, so that a solve goes straight to its proof."""
    monkeypatch.setattr(quick_stages, "QUICK_STAGES", ())


def greedy_position(number: int, redeals: int) -> wedlock.Position:
    """Deal `number` of PySolFC's Matrimony after `redeals` redeals of the exact space's first line."""
    chosen = wedlock.deal("matrimony", number, "pysol")
    space = PysolPhaseSpace(Table(chosen.rules, chosen.cards))
    state, steps = space.start(), []
    while state.pos.stock < LAYOUT or state.pos.rounds < redeals:
        step, state = next(space.greedy_phase(state))
        steps.append(step)
    return wedlock.position(chosen.game, chosen, after=space.moves(steps))


def levels_alone(start: wedlock.Position) -> tuple[str, int]:
    """The verdict and the states generated of the search by levels from `start`, straight through."""
    table = Table(start.deal.rules, start.deal.cards)
    found = search_by_levels(PysolSpace(table, positions.play_position(table, start.seen)), Limits(max_states=None, node_limit=300_000))
    return found.verdict, found.nodes


def won_position(number: int, least: int) -> tuple[wedlock.Position, int]:
    """A position on the line that wins deal `number`, the latest at least five moves apart
    whose search by levels wins after `least` states or more, and the states that takes."""
    line = list(wedlock.solve("matrimony", number, "pysol").moves)
    for played in range(len(line) - 5, 0, -5):
        start = wedlock.position("matrimony", number, "pysol", after=line[:played])
        verdict, nodes = levels_alone(start)
        if verdict == "won" and nodes >= least:
            return start, nodes
    raise AssertionError(f"no position of game {number}'s win needs {least:,} states of the search by levels")


@needs_core
def test_a_proof_stopped_and_gone_on_with_ends_with_the_states_of_the_exact_search(tmp_path: Path, no_quick_stages: None) -> None:
    start = greedy_position(2224, 2)
    plain = wedlock.solve("matrimony", start)  # the depth-first exact search, with no quick stage before it
    assert plain.verdict == "lost" and plain.states > 3_000
    checkpoint = tmp_path / "proof.levels"
    cut = wedlock.solve("matrimony", start, node_limit=plain.states // 3, checkpoint=checkpoint, checkpoint_every=0)
    assert cut.verdict == "unknown" and cut.limit == "node_limit" and checkpoint.exists()
    assert cut.reason.endswith("the search by levels keeps a checkpoint")
    done = wedlock.solve("matrimony", start, checkpoint=checkpoint, checkpoint_every=0)
    assert (done.verdict, done.states) == ("lost", plain.states)  # the proof's whole count, its first run's states too
    assert done.proof.endswith("(the search by levels went on from a checkpoint)")
    assert not checkpoint.exists()


@needs_core
def test_a_win_the_levels_find_is_played_by_the_depth_first_search_within_what_is_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start, nodes = won_position(1, 500)
    checkpoint = tmp_path / "win.levels"
    for limit, verdict in ((None, "won"), (nodes + 1, "unknown")):
        with monkeypatch.context() as patch:
            patch.setattr(quick_stages, "QUICK_STAGES", ())
            cut = wedlock.solve("matrimony", start, node_limit=nodes // 2, checkpoint=checkpoint, checkpoint_every=0)
        assert cut.verdict == "unknown" and checkpoint.exists()
        found = wedlock.solve("matrimony", start, node_limit=limit, checkpoint=checkpoint)  # no quick stage: the checkpoint is there
        assert found.verdict == verdict and not checkpoint.exists()
        if verdict == "won":  # pipeline.solve had the referee replay it
            assert found.found_by == EXACT_LABEL and wedlock.verify("matrimony", start, found.moves).won
        else:
            assert found.limit == "node_limit"
            assert found.reason == f"a win exists (the search by levels found one), but its line was not found within the limits: node limit {nodes + 1:,} reached"


@needs_core
def test_a_checkpoint_that_cannot_be_written_is_said_so(no_quick_stages: None) -> None:
    sysfs = Path("/sys")  # a folder that takes no new file, even root's
    try:
        (sysfs / "wedlock.probe").touch()
    except OSError:
        pass
    else:
        pytest.skip("no sysfs here")
    with pytest.raises(CheckpointNotWritten, match="could not write the checkpoint /sys/proof.levels"):
        wedlock.solve("matrimony", greedy_position(2224, 2), checkpoint=sysfs / "proof.levels", checkpoint_every=0)


@pytest.mark.parametrize(
    "game, rules, fragment",
    [
        ("monte-carlo", None, "the searches of Monte Carlo (PySolFC) are short and keep no checkpoints"),
        ("matrimony", "arnold", "the searches of Matrimony (Peter Arnold's rules) are short and keep no checkpoints"),
    ],
)
def test_a_game_that_keeps_no_checkpoints_refuses_one(tmp_path: Path, game: str, rules: str | None, fragment: str) -> None:
    with pytest.raises(CheckpointError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        wedlock.solve(game, 1, rules, checkpoint=tmp_path / "x.levels")
    assert not any(tmp_path.iterdir())


def test_without_the_compiled_core_a_checkpoint_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(core.PURE_VARIABLE, "1")
    with pytest.raises(CheckpointError, match="the search that keeps checkpoints runs in the compiled core, not in the pure Python search"):
        wedlock.solve("matrimony", 1, checkpoint=tmp_path / "x.levels")


@needs_core
def test_a_path_no_checkpoint_can_be_kept_at_is_refused(tmp_path: Path) -> None:
    for path, fragment in (
        (tmp_path, "is a folder; a checkpoint is a file"),
        (tmp_path / "no such folder" / "x.levels", "no folder"),
        ("", "cannot name a checkpoint file"),
        ("a\0b", "cannot name a checkpoint file"),
        (b"x.levels", "a checkpoint is named by its path, not bytes"),
    ):
        with pytest.raises(CheckpointError, match=fragment):
            wedlock.solve("matrimony", 1, checkpoint=path)
    for every in (-1, float("nan"), float("inf"), True, "600"):
        with pytest.raises(CheckpointError, match="checkpoint_every is a number of seconds"):
            wedlock.solve("matrimony", 1, checkpoint=tmp_path / "x.levels", checkpoint_every=every)

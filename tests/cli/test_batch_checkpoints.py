"""`wedlock batch ... --checkpoints DIR`: a proof of PySolFC's Matrimony cut short keeps a
checkpoint per deal, which `--resume --retry-unknown` goes on from without the quick
stages; a folder that cannot take them, a file there that is not the deal's checkpoint,
another game or no compiled core: one line and a non-zero exit, the results kept."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from tests.cli.test_cli import assert_bad_input, run
from wedlock.basics import compiled as core
from wedlock.cli import batch_cmd
from wedlock.games.matrimony import quick_stages

needs_core = pytest.mark.skipif(core._core is None, reason="no compiled core was built (no C compiler)")
DEALS = ("94", "95")


@pytest.fixture(autouse=True)
def core_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(core.PURE_VARIABLE, raising=False)


@pytest.fixture
def no_quick_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick stages find nothing at once, so that each deal goes straight to its proof."""
    monkeypatch.setattr(quick_stages, "QUICK_STAGES", ())


def batch(out: Path, folder: Path, *args: str, deals: str = ",".join(DEALS), jobs: str = "1"):
    return run(
        "batch", "matrimony", deals, "--rules", "pysol", "--out", out, "--quiet", "--jobs", jobs,
        "--checkpoints", folder, "--checkpoint-every", "0", *args,
    )  # fmt: skip


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def checkpoint_of(folder: Path, number: str) -> Path:
    return folder / f"matrimony-pysol-{number}.levels"


@needs_core
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_proof_cut_short_keeps_a_checkpoint_that_a_retry_goes_on_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_quick_stages: None, jobs: str
) -> None:
    if jobs != "1" and multiprocessing.get_start_method() != "fork":
        pytest.skip("the pool's workers must inherit the quick stages left out here")
    out, folder = tmp_path / "r.jsonl", tmp_path / "proofs"
    folder.mkdir()
    first = batch(out, folder, "--node-limit", "20000", jobs=jobs)
    assert first.exit_code == 0, first.output
    before = {r["game_number"]: r for r in lines_of(out)}
    assert sorted(folder.iterdir()) == sorted(checkpoint_of(folder, n) for n in DEALS)  # one file a deal, named by it
    assert all(r["verdict"] == "unknown" and r["reason"] == "node limit 20,000 reached; the search by levels keeps a checkpoint" for r in before.values())
    written = {n: checkpoint_of(folder, n).read_bytes() for n in DEALS}

    def quick_win(*args: object) -> None:
        raise AssertionError("the quick stages ran on a deal whose checkpoint is there")

    monkeypatch.setattr(quick_stages, "quick_win", quick_win)
    again = batch(out, folder, "--node-limit", "60000", "--resume", "--retry-unknown", jobs=jobs)
    assert again.exit_code == 0, again.output
    after = {r["game_number"]: r for r in lines_of(out)[len(DEALS) :]}
    for n in DEALS:
        assert after[n]["verdict"] == "unknown"
        assert after[n]["reason"] == "node limit 60,000 reached; the search by levels went on from a checkpoint, which it keeps"
        assert after[n]["states"] > before[n]["states"]  # the proof's whole count so far
        assert checkpoint_of(folder, n).read_bytes() != written[n]  # gone on, and written again


@needs_core
def test_a_deal_a_quick_stage_wins_leaves_no_checkpoint(tmp_path: Path) -> None:
    out, folder = tmp_path / "r.jsonl", tmp_path / "proofs"
    folder.mkdir()
    result = batch(out, folder, deals="93")
    assert result.exit_code == 0, result.output
    (record,) = lines_of(out)
    assert record["found_by"] in {stage.label for stage in quick_stages.QUICK_STAGES}
    assert not any(folder.iterdir())


SYSFS = Path("/sys")  # a folder that takes no new file, even root's


def takes_no_file(folder: Path) -> bool:
    try:
        (folder / ".probe").touch()
    except OSError:
        return folder.is_dir()
    (folder / ".probe").unlink()
    return False


def unwritable(tmp_path: Path) -> Path:
    """A folder no file can be made in: read-only, or for a user whom modes do not stop
    (root), sysfs; the test is skipped where there is neither."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    for candidate in (folder, SYSFS):
        if takes_no_file(candidate):
            return candidate
    pytest.skip("no folder here refuses a new file")


@needs_core
@pytest.mark.parametrize("kind", ["missing", "a file", "unwritable"])
def test_a_folder_that_cannot_take_checkpoints_is_one_line_before_any_deal(tmp_path: Path, kind: str) -> None:
    out = tmp_path / "r.jsonl"
    assert batch(out, tmp_path, deals="93").exit_code == 0
    kept = out.read_bytes()
    folder = {"missing": tmp_path / "nowhere", "a file": out, "unwritable": None}[kind] or unwritable(tmp_path)
    fragment = {"missing": "no folder", "a file": "is not a folder", "unwritable": "cannot write in"}[kind]
    result = batch(out, folder, "--resume", deals="93,94")
    assert_bad_input(result, "--checkpoints: ", fragment)
    assert out.read_bytes() == kept  # nothing solved, nothing mended


@needs_core
def test_a_file_that_is_not_the_deals_checkpoint_stops_the_batch_with_one_line(tmp_path: Path, no_quick_stages: None) -> None:
    out, folder = tmp_path / "r.jsonl", tmp_path / "proofs"
    folder.mkdir()
    assert batch(out, folder, "--node-limit", "5000", deals=DEALS[0]).exit_code == 0
    foreign = checkpoint_of(folder, DEALS[1])
    for text in (b"not a checkpoint", checkpoint_of(folder, DEALS[0]).read_bytes()):  # junk, then another deal's
        foreign.write_bytes(text)
        kept = out.read_bytes()
        result = batch(out, folder, "--node-limit", "10000", "--resume", "--retry-unknown")
        assert result.exit_code == 2 and result.stdout == ""
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"Error: {foreign} is not a checkpoint of this search")
        assert line.endswith("remove it to start this proof again; 1 result written; --resume continues.")
        assert out.read_bytes().startswith(kept) and len(lines_of(out)) == len(kept.splitlines()) + 1  # the other deal's line, written first
        assert foreign.read_bytes() == text


@needs_core
def test_a_checkpoint_that_cannot_be_written_stops_the_batch_with_exit_5(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_quick_stages: None) -> None:
    folder = SYSFS
    if not takes_no_file(folder):
        pytest.skip("no sysfs here")
    monkeypatch.setattr(batch_cmd, "check_checkpoints", lambda *args: None)  # as if the folder had changed since the batch began
    result = batch(tmp_path / "r.jsonl", folder, "--node-limit", "20000", deals=DEALS[0])
    assert result.exit_code == 5 and result.stdout == ""
    assert result.stderr == f"Error: could not write the checkpoint {checkpoint_of(folder, DEALS[0])}; 0 results written; --resume continues.\n"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["monte-carlo", "1-3"], "--checkpoints: the searches of Monte Carlo (PySolFC) are short and keep no checkpoints"),
        (["matrimony", "1-3", "--rules", "arnold"], "--checkpoints: the searches of Matrimony (Peter Arnold's rules) are short"),
    ],
)
def test_a_game_that_keeps_no_checkpoints_is_refused(tmp_path: Path, args: list[str], fragment: str) -> None:
    assert_bad_input(run("batch", *args, "--out", tmp_path / "r.jsonl", "--checkpoints", tmp_path), fragment)
    assert not any(tmp_path.iterdir())


def test_without_the_compiled_core_checkpoints_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(core.PURE_VARIABLE, "1")
    result = run("batch", "matrimony", "1-3", "--out", tmp_path / "r.jsonl", "--checkpoints", tmp_path)
    assert_bad_input(result, "--checkpoints: the search that keeps checkpoints runs in the compiled core, not in the pure Python search")


def test_checkpoint_every_needs_checkpoints_and_a_number_of_seconds(tmp_path: Path) -> None:
    assert_bad_input(run("batch", "matrimony", "1", "--checkpoint-every", "5"), "--checkpoint-every needs --checkpoints DIR")
    assert_bad_input(run("batch", "matrimony", "1", "--checkpoints", tmp_path, "--checkpoint-every", "nan"), "--checkpoint-every takes seconds")


@pytest.mark.slow
@needs_core
def test_dask_workers_go_on_from_the_checkpoints_in_a_folder_they_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    out, folder = tmp_path / "r.jsonl", tmp_path / "proofs"
    folder.mkdir()
    with monkeypatch.context() as patch:
        patch.setattr(quick_stages, "QUICK_STAGES", ())
        assert batch(out, folder, "--node-limit", "20000").exit_code == 0
    before = {r["game_number"]: r["states"] for r in lines_of(out)}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True) as cluster:
        result = run(*batch_args(out, folder), "--node-limit", "60000", "--resume", "--retry-unknown", "--scheduler", cluster.scheduler_address)
    assert result.exit_code == 0, result.output
    for record in lines_of(out)[len(DEALS) :]:  # workers that ran the quick stages would have won these deals
        assert "went on from a checkpoint" in record["reason"] and record["states"] > before[record["game_number"]]


def batch_args(out: Path, folder: Path) -> list[object]:
    return ["batch", "matrimony", ",".join(DEALS), "--rules", "pysol", "--out", out, "--quiet", "--checkpoints", folder, "--checkpoint-every", "0"]


def test_the_option_is_in_the_help() -> None:
    shown = " ".join(run("batch", "--help").stdout.split())
    assert "--checkpoints" in shown and "--checkpoint-every" in shown and "[default: 600]" in shown
    assert "With --checkpoints, the proof by levels' own limit: the states it holds at once." in shown
    assert "matrimony-pysol-N.levels" in shown  # a deal's file, as the batch names it

"""Batch classification and stats: ranges, resume after a kill, torn lines, Wilson intervals, Dask."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from wedlock.basics.intervals import wilson
from wedlock.cli.main import cli
from wedlock.results import batch
from wedlock.results.ranges import RangeError, parse_range
from wedlock.results.records import RECORD_KEYS, ResultsFileError, mend, read_results, to_resume
from wedlock.results.stats import summarize


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@given(st.integers(1, 31000), st.integers(0, 60))
def test_range_a_to_b_is_inclusive(a: int, span: int) -> None:
    assert parse_range(f"{a}-{a + span}") == [str(n) for n in range(a, a + span + 1)]


def test_range_forms(tmp_path: Path) -> None:
    listed = tmp_path / "numbers.txt"
    listed.write_text("5\n# a comment\n\n7\n5\nms40000\n")
    assert parse_range("3,1,2") == ["3", "1", "2"]
    assert parse_range(f"@{listed}") == ["5", "7", "ms40000"]
    assert parse_range("31998-32001") == ["31998", "31999", "32000", "32001"]
    assert parse_range("9") == ["9"]
    listed.write_text("1-3   # a range\n8,2\n3\n")
    assert parse_range(f"@{listed}") == ["1", "2", "3", "8"]  # each once, in order
    listed.write_text("4\n5-x\n")
    with pytest.raises(RangeError, match="numbers.txt line 2"):
        parse_range(f"@{listed}")
    listed.write_text(f"@{listed}\n")
    with pytest.raises(RangeError, match="cannot name another"):
        parse_range(f"@{listed}")


@pytest.mark.parametrize("text", ["5-3", "0-3", "a-b", "1,x", "@/no/such/file", "1-2-3", "ms0"])
def test_bad_ranges(text: str) -> None:
    with pytest.raises((RangeError, ValueError)):
        parse_range(text)


def test_batch_writes_one_record_per_deal(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = run("batch", "monte-carlo", "1-30", "--out", str(out), "--jobs", "2", "--quiet")
    assert result.exit_code == 0, result.output
    records = lines_of(out)
    assert sorted(int(r["game_number"]) for r in records) == list(range(1, 31))
    for r in records:
        assert set(r) == set(RECORD_KEYS)
        assert (r["verdict"] == "won") == (r["moves"] > 0)
    single = run("batch", "monte-carlo", "1-30", "--jobs", "1", "--quiet")
    assert sorted(single.stdout.splitlines()) != []
    by_number = {r["game_number"]: r["verdict"] for r in map(json.loads, single.stdout.splitlines())}
    assert by_number == {r["game_number"]: r["verdict"] for r in records}


def test_batch_solutions_replay(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-6", "--out", str(out), "--solutions", "--quiet", "--jobs", "1").exit_code == 0
    won = [r for r in lines_of(out) if r["verdict"] == "won"]
    assert won
    for r in won:
        assert len(r["solution"]) == r["moves"]
        moves = tmp_path / f"{r['game_number']}.json"
        moves.write_text(json.dumps(r["solution"]))
        assert run("verify", "monte-carlo", r["game_number"], "--moves", str(moves)).exit_code == 0


def test_a_range_is_some_deals_and_not_too_many(tmp_path: Path) -> None:
    (tmp_path / "none.txt").write_text("# only a comment\n\n")
    for text, fragment in ((f"@{tmp_path / 'none.txt'}", "no game number"), ("1-10000001", "10,000,000"), ("ms1-ms10000001", "split it")):
        with pytest.raises(RangeError, match=fragment):
            parse_range(text)


def test_existing_results_need_resume(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-3", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    before = out.read_text()
    again = run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--jobs", "1")
    assert again.exit_code == 2 and "--resume" in again.stderr
    assert out.read_text() == before
    resumed = run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--resume", "--jobs", "1")
    assert resumed.exit_code == 0
    assert sorted(int(r["game_number"]) for r in lines_of(out)) == [1, 2, 3, 4, 5]


def test_a_resumed_bar_counts_the_verdicts_already_in_the_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    strict = ("--rules", "strict", "--out", str(out), "--jobs", "1")
    assert run("batch", "monte-carlo", "1-3", *strict, "--quiet").exit_code == 0  # won, won, lost
    assert run("batch", "monte-carlo", "4", *strict, "--quiet", "--resume", "--node-limit", "1").exit_code == 0  # unknown
    resumed = run("batch", "monte-carlo", "1-6", *strict, "--resume")  # 5 lost, 6 won
    assert resumed.exit_code == 0, resumed.output
    drawn = [frame.strip() for frame in resumed.stderr.split("\r") if frame.strip()]
    assert any(f.startswith("67%") and "4/6 [" in f and f.endswith("won=2, lost=1, unknown=1]") for f in drawn)  # before any new deal
    assert "6/6 [" in drawn[-1] and drawn[-1].endswith(", won=3, lost=2, unknown=1]")


def test_torn_last_line_is_repaired_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-4", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    text = out.read_text()
    out.write_text(text + text.splitlines()[0][:17])  # a kill in the middle of a write
    assert len(read_results(out)) == 4
    resumed = run("batch", "monte-carlo", "1-6", "--out", str(out), "--quiet", "--resume", "--jobs", "1")
    assert resumed.exit_code == 0, resumed.output
    assert sorted(int(r["game_number"]) for r in lines_of(out)) == [1, 2, 3, 4, 5, 6]


class FillingDisk:
    """A results file on a disk that fills up: its third line is cut short, then refused."""

    def __init__(self, path: Path) -> None:
        self.file = open(path, "a", encoding="utf-8")
        self.lines = 0

    def write(self, text: str) -> None:
        self.lines += 1
        if self.lines == 3:
            self.file.write(text[:9])
            self.file.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        self.file.write(text)

    def flush(self) -> None:
        self.file.flush()

    def close(self) -> None:
        self.file.close()
        raise OSError(errno.ENOSPC, "No space left on device")  # as a close that flushes would


def test_full_disk_stops_the_batch_with_one_line_and_loses_nothing(tmp_path: Path, monkeypatch) -> None:
    import wedlock.cli.batch_cmd as batch_cmd

    out = tmp_path / "r.jsonl"
    monkeypatch.setattr(batch_cmd, "open", lambda path, *_, **__: FillingDisk(Path(path)), raising=False)
    result = run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--jobs", "1")
    assert result.exit_code == 5 and result.stdout == ""
    assert isinstance(result.exception, SystemExit)  # an exit, not a traceback
    assert result.stderr.strip() == f"Error: cannot write {out}: No space left on device; 2 results written; --resume continues."
    assert len(read_results(out)) == 2  # the two lines reported written, and a torn third
    monkeypatch.undo()
    resumed = run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--resume", "--jobs", "1")
    assert resumed.exit_code == 0, resumed.output
    assert sorted(int(r["game_number"]) for r in lines_of(out)) == [1, 2, 3, 4, 5]


def test_results_file_that_cannot_be_made_or_is_gzip_is_bad_input(tmp_path: Path) -> None:
    for out, fragment in ((tmp_path / "no-such-folder" / "r.jsonl", "No such file"), (tmp_path / "r.jsonl.gz", "without .gz")):
        result = run("batch", "monte-carlo", "1-2", "--out", str(out), "--quiet", "--jobs", "1")
        assert result.exit_code == 2 and result.stdout == ""
        (line,) = [line for line in result.stderr.splitlines() if line.strip()]
        assert line.startswith("Error: ") and fragment in line
        assert not out.exists()


def test_bad_line_in_the_middle_is_reported_with_its_number(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-3", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    lines = out.read_text().splitlines()
    out.write_text("\n".join([lines[0], "garbage", *lines[1:]]) + "\n")
    before = out.read_text()
    for args in (("stats", str(out)), ("batch", "monte-carlo", "1-5", "--out", str(out), "--resume", "--quiet")):
        result = run(*args)
        assert result.exit_code == 2
        assert "line 2" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert out.read_text() == before
    with pytest.raises(ResultsFileError, match="line 2"):
        read_results(out)
    out.write_text(json.dumps({"game": "x"}) + "\n")
    assert "line 1" in run("stats", str(out)).stderr


def test_batch_killed_mid_run_resumes_to_exactly_one_line_each(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "wedlock", "batch", "monte-carlo", "1-5000", "--out", str(out), "--jobs", "2", "--quiet"]
    proc = subprocess.Popen(command, start_new_session=True, cwd=Path(__file__).parent.parent.parent)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or len(out.read_bytes().splitlines()) < 20):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    written = len(out.read_bytes().splitlines())
    assert 20 <= written < 5_000, written  # it really was killed mid-run
    resumed = run("batch", "monte-carlo", "1-5000", "--out", str(out), "--resume", "--quiet", "--jobs", "2")
    assert resumed.exit_code == 0, resumed.output
    numbers = [int(r["game_number"]) for r in lines_of(out)]
    assert sorted(numbers) == list(range(1, 5_001))


def test_stats_counts_and_interval(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    records = [
        {"game": "monte-carlo", "rules": "pysol", "game_number": str(n), "verdict": v, "moves": 0, "states": 1, "seconds": s, "version": "0"}
        for n, v, s in [(1, "won", 0.5), (2, "lost", 1.5), (3, "unknown", 3.0), (4, "won", 0.1)]
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = run("stats", str(out), str(out), "--json")
    assert result.exit_code == 0
    (row,) = json.loads(result.stdout)
    assert (row["deals"], row["won"], row["lost"], row["unknown"]) == (4, 2, 1, 1)
    assert row["win_rate"] == 0.5
    assert row["low"] == pytest.approx(wilson(2, 4)[0])
    assert row["high"] == 3 / 4  # with a deal unknown: the share not proven lost
    assert (row["median_seconds"], row["worst_seconds"]) == (1.0, 3.0)
    text = run("stats", str(out))
    assert "| Monte Carlo (PySolFC) | 4 | 2 | 1 | 1 | 50.00% |" in text.stdout


def record(number: int, verdict: str, line: int = 0) -> dict:
    """A result line of Monte Carlo game `number`; `states` carries `line` to tell lines apart."""
    fields = {"game_number": str(number), "verdict": verdict, "moves": 0, "states": line, "seconds": 0.0}
    return {"game": "monte-carlo", "rules": "pysol", **fields, "version": "0"}


# Each deal's true verdict, then lines (deal, decided?) that give it or "unknown".
deals_and_lines = st.lists(st.sampled_from(["won", "lost"]), min_size=1, max_size=5).flatmap(
    lambda truth: st.tuples(st.just(truth), st.lists(st.tuples(st.integers(0, len(truth) - 1), st.booleans()), max_size=20))
)


@given(deals_and_lines, st.randoms(use_true_random=False))
def test_a_deals_decided_line_counts_else_its_longest_search_in_any_order(case, rng) -> None:
    truth, lines = case
    # Line i searched for i + 1 seconds: the seconds a deal's summary gives name its line.
    records = [{**record(n, truth[n] if decided else "unknown", i), "seconds": i + 1.0} for i, (n, decided) in enumerate(lines)]
    rng.shuffle(records)
    for n in {m for m, _ in lines}:
        mine = [i for i, (m, _) in enumerate(lines) if m == n]
        decided = [i for i in mine if lines[i][1]]
        (summary,) = summarize(r for r in records if r["game_number"] == str(n))
        counted = {"won": summary.won, "lost": summary.lost, "unknown": summary.unknown}
        assert summary.deals == 1 and counted[truth[n] if decided else "unknown"] == 1
        assert summary.worst_seconds == (decided[-1] if decided else mine[-1]) + 1
    pending = to_resume([str(n) for n in range(len(truth))], records, "monte-carlo", "pysol", retry_unknown=True).numbers
    assert pending == [str(n) for n in range(len(truth)) if not any(d for m, d in lines if m == n)]


def test_a_deal_both_won_and_lost_is_a_bad_results_file(tmp_path: Path) -> None:
    with pytest.raises(ResultsFileError, match="game 3 is won in one line and lost"):
        summarize([record(3, "won"), record(3, "unknown"), record(3, "lost")])
    with pytest.raises(ResultsFileError, match="game 3 is won in one line and lost"):
        to_resume(["3"], [record(3, "won"), record(3, "lost")], "monte-carlo", "pysol")
    out = tmp_path / "r.jsonl"
    out.write_text(json.dumps(record(3, "won")) + "\n")
    other = tmp_path / "s.jsonl"
    other.write_text(json.dumps(record(3, "lost")) + "\n")
    result = run("stats", str(out), str(other))
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "won in one line and lost in another" in result.stderr


def test_retry_unknown_solves_the_unknown_deals_again(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    quick = run("batch", "monte-carlo", "1-4", "--out", str(out), "--quiet", "--jobs", "1", "--node-limit", "2")
    assert quick.exit_code == 0
    first = lines_of(out)
    assert {(r["verdict"], r["reason"]) for r in first} == {("unknown", "node limit 2 reached")}
    alone = run("batch", "monte-carlo", "1-4", "--out", str(out), "--quiet", "--retry-unknown")
    assert alone.exit_code == 2 and "--resume" in alone.stderr
    plain = run("batch", "monte-carlo", "1-4", "--out", str(out), "--quiet", "--jobs", "1", "--resume")
    assert plain.exit_code == 0 and len(lines_of(out)) == 4  # an unknown line is a result
    again = run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--jobs", "1", "--resume", "--retry-unknown")
    assert again.exit_code == 0, again.output
    lines = lines_of(out)
    assert lines[:4] == first and len(lines) == 9  # old lines kept, 4 retried, 5 new
    assert sorted(int(r["game_number"]) for r in lines[4:]) == [1, 2, 3, 4, 5]
    assert all(r["verdict"] != "unknown" and "reason" not in r for r in lines[4:])
    (row,) = json.loads(run("stats", str(out), "--json").stdout)
    assert row["deals"] == 5 and row["unknown"] == 0
    before = out.read_text()
    assert run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--resume", "--retry-unknown").exit_code == 0
    assert out.read_text() == before  # nothing left to retry


def test_stats_reads_gzip_files(tmp_path: Path) -> None:
    import gzip

    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    packed = tmp_path / "r.jsonl.gz"
    packed.write_bytes(gzip.compress(out.read_bytes()))
    assert json.loads(run("stats", str(packed), "--json").stdout) == json.loads(run("stats", str(out), "--json").stdout)
    (tmp_path / "bad.gz").write_bytes(b"not gzip")
    assert run("stats", str(tmp_path / "bad.gz")).exit_code == 2


def test_stats_refuses_a_file_that_is_not_there(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-2", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    for missing in (tmp_path / "typo.jsonl", tmp_path):  # a mistyped name, a folder
        result = run("stats", str(out), str(missing))
        assert result.exit_code == 2 and result.stdout == ""
        (line,) = [line for line in result.stderr.splitlines() if line.strip()]
        assert line.startswith("Error: ") and missing.name in line


def test_wilson_interval_known_values() -> None:
    low, high = wilson(90, 100)
    assert low == pytest.approx(0.8256, abs=1e-4) and high == pytest.approx(0.9448, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_the_rate(k: int, n: int) -> None:
    k = min(k, n)
    low, high = wilson(k, n)
    assert 0 <= low <= k / n <= high <= 1


def test_dask_local_cluster_matches_local_run(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local = tmp_path / "local.jsonl"
    remote = tmp_path / "dask.jsonl"
    assert run("batch", "monte-carlo", "1-40", "--out", str(local), "--quiet", "--jobs", "2").exit_code == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True) as cluster:
        result = run("batch", "monte-carlo", "1-40", "--out", str(remote), "--quiet", "--scheduler", cluster.scheduler_address)
        assert result.exit_code == 0, result.output

    def comparable(path: Path) -> list[str]:
        return sorted(json.dumps({k: v for k, v in r.items() if k != "seconds"}, sort_keys=True) for r in lines_of(path))

    assert comparable(local) == comparable(remote)


def test_a_scheduler_nobody_runs_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")  # its defaults join Dask's config before the config is changed below
    monkeypatch.setattr(batch, "CONNECT_SECONDS", 1)  # the client's own timeout, past Dask's connect timeout
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-2", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    before = out.read_text()
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        for address, fragment in (("tcp://127.0.0.1:1", "Timed out"), ("no-port-here", "port")):
            result = run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--resume", "--scheduler", address)
            assert result.exit_code == 2 and result.stdout == ""
            (line,) = [line for line in result.stderr.splitlines() if line.strip()]
            assert line.startswith(f"Error: cannot reach a Dask scheduler at {address!r}") and fragment in line
    assert out.read_text() == before  # the results already written are untouched
    fresh = tmp_path / "new.jsonl"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = run("batch", "monte-carlo", "1-5", "--out", str(fresh), "--scheduler", "no-port-here")  # a progress bar asked for
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1  # no bar drawn before the error
    assert not fresh.exists()


def test_resume_keeps_a_whole_last_line_that_lacks_its_newline(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-3", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    out.write_text(out.read_text().rstrip("\n"))  # a kill between a line and its newline
    assert len(read_results(out)) == 3
    again = run("batch", "monte-carlo", "4", "--out", str(out), "--quiet", "--jobs", "1")
    assert again.exit_code == 2 and "--resume" in again.stderr  # never glued onto that line
    resumed = run("batch", "monte-carlo", "1-4", "--out", str(out), "--quiet", "--resume", "--jobs", "1")
    assert resumed.exit_code == 0, resumed.output
    assert [int(r["game_number"]) for r in lines_of(out)] == [1, 2, 3, 4]


def test_resume_changes_nothing_in_a_file_it_refuses(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-3", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    good = out.read_text()
    cases = {
        "a bad line, then a torn one": good + "BAD LINE\n" + good[:20],
        "not a results file at all": "line one of notes\nline two, no newline",
        "a whole last line that is no record": good + '{"game": "monte-carlo"}',
    }
    for case, text in cases.items():
        out.write_text(text)
        result = run("batch", "monte-carlo", "1-5", "--out", str(out), "--quiet", "--resume", "--jobs", "1")
        assert result.exit_code == 2, case
        assert out.read_text() == text, case


def test_only_a_torn_start_of_a_line_is_cut(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text("notes without a newline")
    with pytest.raises(ResultsFileError, match="line 1"):
        read_results(out)
    assert out.read_text() == "notes without a newline"
    out.write_text('{"ga')  # killed a few bytes into the first line
    assert read_results(out) == []
    mend(out)
    assert out.read_text() == ""
    whole = json.dumps(record(1, "won"))
    out.write_text(whole + "\n" + whole)  # a whole last line without its newline counts
    assert len(read_results(out)) == 2
    mend(out)
    assert out.read_text() == whole + "\n" + whole + "\n"


def test_stats_on_files_without_a_result_says_so(tmp_path: Path) -> None:
    empty, torn = tmp_path / "empty.jsonl", tmp_path / "torn.jsonl"
    empty.write_text("")
    torn.write_text('{"game": "monte-car')
    result = run("stats", str(empty), str(torn))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == f"Error: no results in {empty}, {torn}"


def test_corrupt_gzip_is_a_bad_results_file(tmp_path: Path) -> None:
    import gzip

    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-40", "--out", str(out), "--quiet", "--jobs", "1").exit_code == 0
    packed = bytearray(gzip.compress(out.read_bytes()))
    for i in (20, 21, 25):
        packed[i] ^= 0xFF
    (tmp_path / "bad.jsonl.gz").write_bytes(bytes(packed))
    result = run("stats", str(tmp_path / "bad.jsonl.gz"))
    assert result.exit_code == 2 and "gzip" in result.stderr and len(result.stderr.strip().splitlines()) == 1


GOOD_RECORD = {"game": "monte-carlo", "rules": "pysol", "game_number": "7", "verdict": "won", "moves": 40, "states": 15, "seconds": 0.5, "version": "0.1.0"}


@pytest.mark.parametrize(
    "change",
    [
        {"game": ["x"]}, {"rules": {"a": 1}}, {"game_number": "abc"}, {"game_number": ""}, {"game_number": 7},
        {"verdict": ["won"]}, {"moves": -1}, {"states": 2.5}, {"states": True}, {"seconds": -1}, {"seconds": 10**400},
        {"seconds": float("nan")}, {"seconds": float("inf")}, {"seconds": True}, {"version": None},
        {"analysis": {"playouts": -4, "random": {"low": 0, "value": 0, "high": 0}, "greedy": {"low": 0, "value": 0, "high": 0}}},
        {"analysis": {"playouts": 10**400, "random": {"low": 0, "value": 0, "high": 0}, "greedy": {"low": 0, "value": 0, "high": 0}}},
    ],
)  # fmt: skip
def test_records_of_the_wrong_type_are_refused_with_their_line(tmp_path: Path, change: dict) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text(json.dumps(GOOD_RECORD) + "\n" + json.dumps({**GOOD_RECORD, **change}) + "\n")
    result = run("stats", str(out))
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = [line for line in result.stderr.splitlines() if line.strip()]
    assert line.startswith("Error: ") and "line 2" in line


def test_a_game_number_counts_as_one_deal_however_it_is_written(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text(json.dumps(GOOD_RECORD) + "\n" + json.dumps({**GOOD_RECORD, "game_number": "ms7", "verdict": "lost"}) + "\n")
    result = run("stats", str(out))
    assert result.exit_code == 2 and "game 7 is won in one line and lost in another" in result.stderr
    out.write_text(json.dumps({**GOOD_RECORD, "game_number": "#7"}) + "\n")
    assert read_results(out)[0]["game_number"] == "7"


class _SchedulerThatGoesAway:
    """Stands in for a Dask client whose scheduler dies after the first task: that task's
    records arrive, every later one is cancelled the way distributed cancels them."""

    def __init__(self, address: str, timeout: float | None = None) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass

    def nthreads(self) -> dict[str, int]:
        return {"worker": 1}

    def map(self, fn, *columns, pure: bool = True) -> list:
        return [_Future(fn, args) for args in zip(*columns)]

    def cancel(self, futures) -> None:
        pass


class _Future:
    done = 0

    def __init__(self, fn, args) -> None:
        self.fn, self.args = fn, args

    def result(self):
        from distributed.client import FutureCancelledError

        _Future.done += 1
        if _Future.done > 1:
            raise FutureCancelledError("solve_chunk-1", "scheduler-connection-lost", "Client lost the connection to the scheduler.")
        return self.fn(*self.args)


def test_a_scheduler_lost_mid_batch_keeps_what_was_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(distributed, "Client", _SchedulerThatGoesAway)
    monkeypatch.setattr(distributed, "as_completed", iter)
    monkeypatch.setattr(_Future, "done", 0)
    out = tmp_path / "r.jsonl"
    result = run("batch", "monte-carlo", "1-8", "--out", str(out), "--quiet", "--scheduler", "tcp://10.0.0.5:8786")
    written = lines_of(out)
    assert result.exit_code == 6 and written and len(written) < 8
    assert result.stderr.strip() == f"Error: lost the connection to the Dask scheduler; {len(written)} results written; --resume continues."
    assert run("batch", "monte-carlo", "1-8", "--out", str(out), "--quiet", "--resume").exit_code == 0
    assert sorted(int(r["game_number"]) for r in lines_of(out)) == list(range(1, 9))


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid` (read from Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether a process is still there and not a zombie."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_workers_die_with_a_batch_killed_at_once(tmp_path: Path) -> None:
    # Games 107 and 319 each take minutes: the workers are in the middle of a deal.
    command = [sys.executable, "-m", "wedlock", "batch", "matrimony", "107,319", "--out", str(tmp_path / "r.jsonl"), "--jobs", "2", "--quiet"]
    proc = subprocess.Popen(command, start_new_session=True, cwd=Path(__file__).parent.parent.parent)
    deadline = time.time() + 30
    workers: set[int] = set()
    while time.time() < deadline and len(workers) < 2:
        time.sleep(0.1)
        workers = children_of(proc.pid)
    assert len(workers) >= 2
    time.sleep(1.0)  # each worker is in its deal's search by now
    os.kill(proc.pid, signal.SIGKILL)  # the batch alone: nothing of it runs to end the pool
    proc.wait()
    deadline = time.time() + 1.0
    while time.time() < deadline and any(alive(w) for w in workers):
        time.sleep(0.05)
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left

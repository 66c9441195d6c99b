"""Outputs that cannot be written, and commands stopped by a signal: every file a command
writes appears whole or not at all, an output the system refuses is one line and exit 5
(never 1, which says lost), and Ctrl-C, SIGTERM and SIGHUP at any moment are one line and
exit 130, 143 or 129, a batch's worker processes ending with it."""

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

from tests.cli.test_cli import run
from tests.tiers import first_quick
from wedlock.cli import analyze_cmd

ROOT = Path(__file__).parent.parent.parent
SMALL = ("monte-carlo", "2", "--rules", "strict")  # a 17-state graph with a win
SLOW = ("matrimony", "319", "--time-limit", "60")  # a search of minutes
FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")


def wedlock(*args: str, **kwargs) -> subprocess.Popen:
    """`python -m wedlock ARGS`, in its own session, taking Ctrl-C as a terminal's program does."""
    return subprocess.Popen(
        [sys.executable, *kwargs.pop("python", []), "-m", "wedlock", *args],
        cwd=ROOT,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **kwargs,
    )


def left_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def writes_half_then(trouble: BaseException):
    """A writer that writes half a file, then meets `trouble` (a full disk, Ctrl-C)."""

    def write(graph, path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write("<graphml")
            f.flush()
            raise trouble

    return write


# --- files: whole or not at all, and exit 5 -----------------------------------------------


@pytest.mark.parametrize("option", ["--graphml", "--dot", "--png"])
def test_an_export_the_disk_refuses_is_one_line_and_exit_5_leaving_no_file(option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer = {"--graphml": "write_graphml", "--dot": "write_dot", "--png": "draw_analysis"}[option]
    monkeypatch.setattr(analyze_cmd, writer, writes_half_then(OSError(errno.ENOSPC, "No space left on device")))
    target = tmp_path / "export"
    result = run("analyze", *SMALL, option, target)
    assert result.exit_code == 5
    assert result.stdout.startswith("# Monte Carlo, strict, game 2: the whole state graph\n")  # the answer stands
    assert result.stderr == f"Error: cannot write {target}: No space left on device\n"
    assert left_in(tmp_path) == []  # neither the file nor a temporary


def test_a_file_that_fails_leaves_the_one_before_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "g.graphml"
    assert run("analyze", *SMALL, "--graphml", target).exit_code == 0
    before = target.read_bytes()
    monkeypatch.setattr(analyze_cmd, "write_graphml", writes_half_then(OSError(errno.EIO, "Input/output error")))
    assert run("analyze", *SMALL, "--graphml", target).exit_code == 5
    assert target.read_bytes() == before and left_in(tmp_path) == ["g.graphml"]


def test_ctrl_c_while_an_export_is_written_after_the_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyze_cmd, "write_graphml", writes_half_then(KeyboardInterrupt()))
    target = tmp_path / "g.graphml"
    result = run("analyze", *SMALL, "--graphml", target)
    assert result.exit_code == 130
    assert result.stdout.startswith("# Monte Carlo, strict, game 2: the whole state graph\n")
    assert result.stderr == f"Interrupted: {target} not written.\n"  # not "before an answer"
    assert left_in(tmp_path) == []


def test_ctrl_c_after_the_answer_does_not_say_there_is_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self, deadline=None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(analyze_cmd.Analysis, "exported", interrupted)  # the graph made ready for export
    result = run("analyze", *SMALL, "--dot", tmp_path / "g.dot")
    assert (result.exit_code, result.stderr) == (130, "Interrupted.\n")
    assert "shortest win:" in result.stdout and left_in(tmp_path) == []


def test_a_written_file_is_whole_and_readable_as_any_other(tmp_path: Path) -> None:
    target = tmp_path / "g.graphml"
    assert run("analyze", *SMALL, "--graphml", target).exit_code == 0
    assert left_in(tmp_path) == ["g.graphml"]
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert target.read_text().rstrip().endswith("</graphml>")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_link_to_a_file_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "real.dot").write_text("old")
    (tmp_path / "link.dot").symlink_to("real.dot")
    assert run("analyze", *SMALL, "--dot", tmp_path / "link.dot").exit_code == 0
    assert (tmp_path / "link.dot").is_symlink() and (tmp_path / "real.dot").read_text().startswith("digraph")


@needs_full
def test_solve_html_on_a_full_disk_prints_the_answer_then_exit_5() -> None:
    plain = run("solve", "monte-carlo", "12345")
    result = run("solve", "monte-carlo", "12345", "--html", FULL)
    assert result.exit_code == 5
    assert result.stdout.splitlines()[2:] == plain.stdout.splitlines()[2:]  # the verdict and its moves
    assert result.stderr == "Error: cannot write /dev/full: No space left on device\n"


def test_solve_html_that_fails_leaves_no_page_and_the_answer_stands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", _full)  # as a disk that fills up says so when the file is synced
    page = tmp_path / "lost.html"
    result = run("solve", "monte-carlo", "5", "--rules", "weddings", "--html", page)  # lost
    assert (result.exit_code, result.stderr) == (5, f"Error: cannot write {page}: No space left on device\n")
    assert "# lost" in result.stdout and left_in(tmp_path) == []


def test_solve_says_on_stderr_which_files_it_wrote_and_what_they_hold(tmp_path: Path) -> None:
    page, save = tmp_path / "win.html", tmp_path / "win.pso"
    plain = run("solve", "monte-carlo", "12345")
    result = run("solve", "monte-carlo", "12345", "--html", page, "--pysolfc-out", save)
    assert result.exit_code == 0 and result.stdout == plain.stdout  # the moves file stays as verify reads it
    assert result.stderr.splitlines() == [
        f"{page} written: a page that plays the win back (open it in a browser)",
        f"{save} written: open it in PySolFC (File > Open), and Redo plays the win a move at a time",
    ]
    assert page.stat().st_size > 0 and save.stat().st_size > 0
    lost = run("solve", "weddings", "5", "--html", page, "--json")
    assert lost.exit_code == 1 and json.loads(lost.stdout)["verdict"] == "lost"
    assert lost.stderr == f"{page} written: a page that shows the start and says it is lost (open it in a browser)\n"


def _full(*args: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_show_and_stats_on_a_refused_disk_exit_5(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    moves = tmp_path / "win.txt"
    moves.write_text(run("solve", "monte-carlo", "12345").stdout)
    results = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-5", "--quiet", "--jobs", "1", "--out", results).exit_code == 0
    monkeypatch.setattr(os, "fsync", _full)
    shown = run("show", moves, "--html", tmp_path / "p.html")
    assert (shown.exit_code, shown.stdout, shown.stderr) == (5, "", f"Error: cannot write {tmp_path / 'p.html'}: No space left on device\n")
    pytest.importorskip("matplotlib")
    plotted = run("stats", results, "--plot", tmp_path / "s.png")
    assert (plotted.exit_code, plotted.stderr) == (5, f"Error: cannot write {tmp_path / 's.png'}: No space left on device\n")
    assert left_in(tmp_path) == ["r.jsonl", "win.txt"]


def test_a_results_file_the_system_refuses_is_exit_5_and_a_wrong_path_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import wedlock.cli.batch_cmd as batch_cmd

    def refused(path, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(batch_cmd, "open", refused, raising=False)
    result = run("batch", "monte-carlo", "1-3", "--quiet", "--jobs", "1", "--out", tmp_path / "r.jsonl")
    assert (result.exit_code, result.stdout) == (5, "")
    assert result.stderr == f"Error: cannot write '{tmp_path / 'r.jsonl'}': Permission denied\n"
    monkeypatch.undo()
    missing = run("batch", "monte-carlo", "1-3", "--quiet", "--jobs", "1", "--out", tmp_path / "no" / "r.jsonl")
    assert missing.exit_code == 2


# --- stdout that cannot be written --------------------------------------------------------


@pytest.mark.parametrize(
    "stdout, says",
    [
        pytest.param("/dev/full", "No space left on device", marks=needs_full),
        ("read-only", "Bad file descriptor"),  # stdout open for reading only: `1</dev/null`
        ("closed", "Bad file descriptor"),  # `>&-`
    ],
)
@pytest.mark.parametrize(
    "args", first_quick([["solve", "monte-carlo", "12345"], ["batch", "monte-carlo", "1-3", "--quiet", "--jobs", "1"], ["deal", "matrimony", "5"], ["--help"]], keep=2)
)
def test_stdout_that_cannot_be_written_is_one_line_and_exit_5(args: list[str], stdout: str, says: str) -> None:
    command = [sys.executable, "-m", "wedlock", *args]
    if stdout == "closed":
        done = subprocess.run(command, cwd=ROOT, stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
    else:
        with open(stdout, "w") if stdout == "/dev/full" else open(os.devnull) as out:
            done = subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 5
    (line,) = done.stderr.splitlines()
    assert line.startswith("Error: cannot write ") and says in line


# --- signals ------------------------------------------------------------------------------


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid`, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for no one to reap it has ended)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")
@pytest.mark.parametrize(
    "signum, status, word", [(signal.SIGTERM, 143, "Terminated"), pytest.param(signal.SIGHUP, 129, "Hung up", marks=pytest.mark.slow)]
)
def test_sigterm_and_sighup_end_a_batch_and_its_workers_within_a_second(tmp_path: Path, signum: int, status: int, word: str) -> None:
    out = tmp_path / "m.jsonl"
    deals = ("matrimony", "1-24", "--time-limit", "1", "--jobs", "2", "--quiet", "--out", str(out))
    proc = wedlock("batch", *deals, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or len(out.read_bytes().splitlines()) < 3):
        time.sleep(0.02)
    workers = children_of(proc.pid)
    assert len(workers) >= 2
    sent = time.monotonic()
    os.kill(proc.pid, signum)  # the batch alone, as `kill` or a closing terminal's session leader does
    _, stderr = proc.communicate(timeout=30)
    while any(map(running, workers)) and time.monotonic() - sent < 5:
        time.sleep(0.01)
    took = time.monotonic() - sent
    assert not any(map(running, workers)) and took < 1.5, f"workers still running {took:.2f} s after the signal"
    written = len(out.read_bytes().splitlines())
    assert 3 <= written < 24  # it was stopped mid-run
    assert proc.returncode == status
    assert stderr.decode() == f"{word}: {written} results written; --resume continues.\n"
    resumed = run("batch", *deals, "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    numbers = [json.loads(line)["game_number"] for line in out.read_text().splitlines()]
    assert sorted(map(int, numbers)) == list(range(1, 25))


@pytest.mark.parametrize("signum, status, word", first_quick([(signal.SIGTERM, 143, "Terminated"), (signal.SIGHUP, 129, "Hung up"), (signal.SIGINT, 130, "Interrupted")]))
def test_a_signal_during_a_search_is_one_line(signum: int, status: int, word: str) -> None:
    proc = wedlock("solve", *SLOW, "--progress", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    said = b""
    while b"search 1 of" not in said:  # the status line is up: the search runs
        more = os.read(proc.stderr.fileno(), 4096)
        assert more, said
        said += more
    sent = time.monotonic()
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 2
    assert (proc.returncode, stdout) == (status, b"")
    assert (said + stderr).decode().rsplit("\r", 1)[1] == f"{word} before an answer.\n"  # after the status line, wiped


def test_ctrl_c_while_wedlock_loads_is_one_line() -> None:
    """Ctrl-C in the first moments, while the modules load (here, as the pipeline is imported)."""
    stops_at_the_pipeline = (
        "import builtins, runpy\n"
        "real = builtins.__import__\n"
        "def stop(name, *args, **kwargs):\n"
        "    if name == 'wedlock.pipeline.solving':\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *args, **kwargs)\n"
        "builtins.__import__ = stop\n"
        "runpy.run_module('wedlock', run_name='__main__', alter_sys=True)\n"
    )
    done = subprocess.run([sys.executable, "-c", stops_at_the_pipeline, "solve", "monte-carlo", "1"], cwd=ROOT, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "Interrupted.\n")


def test_a_real_ctrl_c_while_wedlock_loads_is_one_line() -> None:
    proc = wedlock("solve", *SLOW, python=["-X", "importtime"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = []
    for line in proc.stderr:  # each import as it is done: click comes early, wedlock's own modules after it
        said.append(line)
        if line.split("|")[-1].strip() == "click":
            proc.send_signal(signal.SIGINT)
            break
    rest = proc.stderr.read()
    proc.wait(timeout=30)
    lines = [line for line in rest.splitlines() if not line.startswith("import time:")]
    assert proc.returncode == 130 and lines in (["Interrupted."], ["Interrupted before an answer."]), (proc.returncode, rest[-2000:])


class _Cluster:
    """Stands in for a Dask client: the second task's wait is cut by SIGTERM."""

    cancelled: list = []
    closed = False

    def __init__(self, address: str, timeout: float | None = None) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        _Cluster.closed = True

    def nthreads(self) -> dict[str, int]:
        return {"worker": 1}

    def map(self, fn, *columns, pure: bool = True) -> list:
        return [_Task(i, fn, args) for i, args in enumerate(zip(*columns))]

    def cancel(self, futures) -> None:
        _Cluster.cancelled = list(futures)


class _Task:
    def __init__(self, index: int, fn, args) -> None:
        self.index, self.fn, self.args = index, fn, args

    def result(self):
        if self.index:
            from wedlock.cli.stopping import Stopped

            raise Stopped(signal.SIGTERM)  # as the handler raises it in the waiting thread
        return self.fn(*self.args)


def test_sigterm_in_a_dask_batch_cancels_its_tasks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(distributed, "Client", _Cluster)
    monkeypatch.setattr(distributed, "as_completed", iter)
    out = tmp_path / "r.jsonl"
    result = run("batch", "monte-carlo", "1-300", "--out", out, "--quiet", "--scheduler", "tcp://10.0.0.5:8786")
    written = len(out.read_text().splitlines())
    assert (result.exit_code, result.stderr) == (143, f"Terminated: {written} results written; --resume continues.\n")
    assert _Cluster.closed and len(_Cluster.cancelled) > 1  # every task, on the scheduler too


@needs_full
@pytest.mark.parametrize("args", [["solve", "monte-carlo", "1"], ["solve", "monte-carlo", "1", "--html", "/dev/full"]])
def test_stdout_and_stderr_both_refused_is_still_exit_5(args: list[str]) -> None:
    with open(FULL, "w") as full:
        done = subprocess.run([sys.executable, "-m", "wedlock", *args], cwd=ROOT, stdout=full, stderr=full)
    assert done.returncode == 5

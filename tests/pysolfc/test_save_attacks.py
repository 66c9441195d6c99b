"""Saves crafted to hurt the reader, and the bounds that answer them: each file is made by
tests/pysolfc/crafted_saves.py, read through the command line (one line, exit 2, in bounded time)
and through the API (a SavedGameError), with and without the compiled core. Then saves that
come down a FIFO or stdin that stalls, and one written to a FIFO that no program reads."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import wedlock
from tests.pysolfc import crafted_saves as crafted
from wedlock.basics.errors import InputTooLarge, OutOfTime, SavedGameError
from wedlock.basics.input_files import MOST_BYTES
from wedlock.cli.main import cli
from wedlock.pictures.page import page
from wedlock.pysolfc import saves
from wedlock.pysolfc.atomic import MoveCards
from wedlock.pysolfc.pickle_reader import MOST_DEPTH, MOST_KEYS, MOST_STACK, MOST_WEIGHT, MOST_WEIGHT_FLOOR, PickleReader
from wedlock.pysolfc.saved_positions import position_of

SECONDS = 3.0  # a crafted file of up to 4 MiB is answered within this
DATA = Path(__file__).parent.parent / "data" / "pysolfc"


filled, slowest = crafted.filled, crafted.slowest
SHARED = "puts one value in two places"
PILED = f"more than {MOST_STACK:,} values at once"


ATTACKS = {
    # a tuple nested 200,000 deep as a dict key: Python's unpickler crashed on it (SIGSEGV)
    "nested key": (lambda: crafted.with_pickle(7, crafted.nested_key(200_000)), f"nested more than {MOST_DEPTH} deep"),
    "nested key alone": (lambda: crafted.nested_key(200_000), f"nested more than {MOST_DEPTH} deep"),
    # a version tuple with an int of 4,500 digits, and a version text that is no text
    "huge version": (crafted.huge_version, "a number of 14,952 bits, where a saved game's are at most 256"),
    # ints that all hash alike: quadratic inside the C unpickler, where no signal reached
    "colliding keys": (lambda: crafted.with_pickle(7, crafted.colliding_dict(270_000)), f"more than {MOST_STACK:,} values at once"),
    "colliding keys in batches": (lambda: crafted.with_pickle(7, crafted.colliding_dict(20_000, 1_000)), "neither a name nor a small number"),
    "a wide dict": (lambda: crafted.with_pickle(7, crafted.wide_dict(100)), f"a dict of more than {MOST_KEYS} items"),
    "a dict set an item at a time": (lambda: crafted.with_pickle(7, crafted.wide_dict(20_000, batch=False)), "adds items to a dict after"),
    "a list appended an item at a time": (lambda: crafted.with_pickle(7, b"\x80\x04]" + b"Na" * 1_000_000 + b"."), "appends to a list otherwise"),
    "a value kept again and again": (lambda: filled(b"\x94"), "keeps a value in the memo that it has not made"),
    # 45 real moves, then 380,000 pairs of shifts back and forth, each step referred back to
    "shared history": (lambda: crafted.shifting(380_000, shared=True), "puts one value in two places"),
    # legal steps, each written out: the history's bound
    "long history": (lambda: crafted.shifting(3_500), "its history holds 7,045 moves, more than the 6,624 any game of Matrimony"),
    "GameMoves with no attributes": (crafted.empty_moves, "its GameMoves is empty"),
    # 40 KB: an empty step kept in the memo, put in the history 6,624 times, then filled
    "an empty step shared, filled after": (crafted.shared_empty_step, SHARED),
    "an empty step shared, filled with legal shifts": (lambda: crafted.shared_empty_step(shifts=True), SHARED),
    # lists filled from the outside in, each given to the generator: 600,000 deep
    "a list nested from the outside in": (crafted.outside_in, SHARED),
    # no MARK or FRAME in 4 MiB: the generator given its state two million times, values piled up
    "the generator given its state again and again": (crafted.rebuilt_generator, "gives an object its state twice"),
    "four million empty dicts": (lambda: filled(b"}"), PILED),
    "four million empty lists": (lambda: filled(b"]"), PILED),
    "two million tuples of None": (lambda: filled(b"N\x85"), PILED),
    "two million zeros of no bytes": (lambda: filled(b"\x8a\x00"), PILED),
}


@pytest.fixture(params=[False, pytest.param(True, marks=pytest.mark.slow)], ids=["core", "pure"])  # the quick tier: the core's
def pure(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    if request.param:
        monkeypatch.setenv("WEDLOCK_PURE", "1")
    return request.param


@pytest.mark.parametrize("name", ATTACKS)
def test_a_crafted_save_is_one_line_and_exit_2_within_seconds(tmp_path: Path, name: str, pure: bool) -> None:
    make, words = ATTACKS[name]
    path = tmp_path / "crafted.pso"
    path.write_bytes(make())
    assert path.stat().st_size <= MOST_BYTES
    for args in (["solve", "--pysolfc-save", str(path)], ["hint", "--pysolfc-save", str(path), "--time-limit", "1"]):
        started = time.monotonic()
        result = CliRunner().invoke(cli, args)
        assert time.monotonic() - started < SECONDS
        assert result.exit_code == 2, result.output
        assert words in result.output and result.output.count("\n") == 1 and result.output.startswith("Error: ")
    with pytest.raises(SavedGameError, match=words.replace("(", r"\(")):
        wedlock.position(pysolfc_save=path)


@pytest.mark.parametrize("opcode", [b"N", b"\x95\x00\x00\x00\x00\x00\x00\x00\x00", b")"], ids=["none", "frame", "empty tuple"])
def test_a_file_of_one_opcode_is_answered_within_seconds(opcode: bytes) -> None:
    data = filled(opcode)
    started = time.monotonic()
    try:
        saves.parse(data)  # frames are only lengths: a state of None read in 466,000 of them is still None
    except SavedGameError:
        assert opcode != b"\x95"
    assert time.monotonic() - started < SECONDS


def test_the_most_opcodes_a_save_can_hold_are_read_within_seconds() -> None:
    data = slowest()
    assert len(data) > MOST_BYTES - 1002
    started = time.monotonic()
    assert saves.parse(data).number.seed == 12345  # a generator's state of 4 million Nones is dropped like any other
    assert time.monotonic() - started < SECONDS


def test_the_longest_history_a_save_may_hold_is_read_and_replayed() -> None:
    data = crafted.shifting(3_000)  # 6,045 legal moves: under the bound
    start = wedlock.position(pysolfc_save=data)
    assert len(start.moves) == 6_045
    assert len(saves.parse(crafted.shifting((saves.MATRIMONY_MOST_STEPS - crafted.SHIFTS_AFTER) // 2)).history) <= saves.MATRIMONY_MOST_STEPS


def test_a_page_refuses_a_line_longer_than_it_can_show(tmp_path: Path) -> None:
    path = tmp_path / "long.pso"
    path.write_bytes(crafted.shifting(1_000))
    result = CliRunner().invoke(cli, ["show", "--pysolfc-save", str(path), "--html", str(tmp_path / "page.html")])
    assert result.exit_code == 2 and "a page plays back at most 2,000 moves, and this line has 2,045" in result.output
    assert not (tmp_path / "page.html").exists()
    start = wedlock.position(pysolfc_save=path)
    with pytest.raises(InputTooLarge):
        page(start.deal, start.moves, "2,045 moves")


def test_the_time_limit_covers_reading_the_save(tmp_path: Path) -> None:
    path = tmp_path / "slow.pso"
    path.write_bytes(slowest())  # about 0.7 s to read
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["solve", "--pysolfc-save", str(path), "--time-limit", "0.02"])
    assert time.monotonic() - started < 0.02 + 1
    assert result.exit_code == 3 and result.stderr == "unknown: the time limit ran out while the saved game was read\n"
    with pytest.raises(OutOfTime):
        wedlock.position(pysolfc_save=path, time_limit=0.02)
    assert wedlock.position(pysolfc_save=path, time_limit=None).deal.number == "12345"
    saved = saves.parse(crafted.shifting(3_000))
    with pytest.raises(OutOfTime, match="replayed"):
        position_of(saved, deadline=time.monotonic())


def test_a_signal_stops_the_read_within_a_second(tmp_path: Path) -> None:
    path = tmp_path / "slow.pso"
    path.write_bytes(slowest())
    script = f"import wedlock\nwhile True:\n    wedlock.position(pysolfc_save={str(path)!r})\n"
    child = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE)
    time.sleep(1.5)  # well inside a read
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    child.wait(timeout=5)
    assert time.monotonic() - sent < 1.0
    assert child.returncode != 0 and b"KeyboardInterrupt" in child.stderr.read()  # type: ignore[union-attr]


def test_error_messages_show_only_bounded_values() -> None:
    data = crafted.huge_version()
    with pytest.raises(SavedGameError) as err:
        saves.parse(data)
    assert len(str(err.value)) < 200
    reader = PickleReader(b"\x80\x04" + b"\x8c\xff" + b"x" * 255 + b"\x8c\x05hello\x93.", saves.ALLOWED)
    with pytest.raises(SavedGameError) as err:
        reader.load()
    assert len(str(err.value)) < 200 and "x" * 41 not in str(err.value)


@pytest.mark.parametrize("max_states", [1_000, pytest.param(10_000, marks=pytest.mark.slow)])  # 27 s in pure Python
def test_max_states_holds_over_every_matrimony_stage(tmp_path: Path, max_states: int, pure: bool) -> None:
    # Game 107 takes every quick stage and 62 million states of the exact search to win.
    answer = wedlock.solve("matrimony", 107, max_states=max_states, time_limit=60)
    assert answer.verdict == "unknown" and answer.states == max_states
    assert answer.reason == f"state limit {max_states:,} reached"
    out = tmp_path / "107.jsonl"
    result = CliRunner().invoke(cli, ["batch", "matrimony", "107", "--max-states", str(max_states), "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    line = json.loads(out.read_text())
    assert (line["verdict"], line["states"]) == ("unknown", max_states)


# --- found at the edges: sharing, runs with no MARK, memory, waiting ------------------------


def within(seconds: float) -> float:
    """The most a command given `seconds` may take, however loaded the machine."""
    return 3 * seconds + 2


@pytest.mark.parametrize("pickled", [b"\x80\x04]\x94h\x00a.", b"\x80\x04]\x94(h\x00\x85e."], ids=["L = [L]", "L = [(L,)]"])
def test_a_list_cannot_hold_itself(pickled: bytes) -> None:
    with pytest.raises(SavedGameError, match=SHARED):
        PickleReader(pickled, saves.ALLOWED).load()


def test_what_a_save_may_take_back_from_the_memo_is_a_name_a_class_or_the_generator() -> None:
    # As PySolFC's saves do: a class and a key named once and taken back, the generator given to getattr.
    name = b"\x8c\x0dpysollib.move\x94\x8c\x09AFlipMove\x94\x93\x94"
    flip = b")\x81}\x8c\x08stack_id\x94K\x03sb"
    steps = PickleReader(b"\x80\x04](" + name + flip + b"h\x02)\x81}h\x03K\x04sbe.", saves.ALLOWED).load()
    assert [s.attributes for s in steps] == [{"stack_id": 3}, {"stack_id": 4}]
    seed = b"\x8c\x04seed\x86R"
    generator = b"\x8c\x08builtins\x8c\x07getattr\x93\x94" + crafted.GENERATOR + b"\x94" + seed + b"h\x00h\x01" + seed + b"\x86."
    assert [type(s) for s in PickleReader(b"\x80\x04" + generator, saves.ALLOWED).load()] == [saves._RandomSeed] * 2


@pytest.mark.parametrize("limit", [0.05, 1.0])
def test_a_shared_step_is_refused_well_within_the_time_limit(tmp_path: Path, limit: float) -> None:
    path = tmp_path / "shared.pso"
    path.write_bytes(crafted.shared_empty_step())  # 6,624 steps of 409 atomic moves, were the step copied
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["solve", "--pysolfc-save", str(path), "--time-limit", str(limit)])
    assert time.monotonic() - started < within(limit)
    assert result.exit_code == 2 and SHARED in result.output and result.output.count("\n") == 1
    started = time.monotonic()
    with pytest.raises(SavedGameError, match=SHARED):
        wedlock.position(pysolfc_save=path, time_limit=limit)
    assert time.monotonic() - started < within(limit)


def test_the_generator_given_its_state_again_and_again_is_refused_within_the_time_limit(tmp_path: Path) -> None:
    path = tmp_path / "rebuilt.pso"
    path.write_bytes(crafted.rebuilt_generator())
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["solve", "--pysolfc-save", str(path), "--time-limit", "0.05"])
    assert time.monotonic() - started < within(0.05)
    assert result.exit_code == 2 and "gives an object its state twice" in result.output


@pytest.mark.parametrize("opcode", [b"N\x85", b"]", b"\x8a\x00", b"}"], ids=["tuples", "lists", "zeros", "dicts"])
def test_the_clock_is_read_in_a_run_of_opcodes_with_no_mark_or_frame(opcode: bytes) -> None:
    with pytest.raises(OutOfTime, match="while the saved game was read"):
        saves.parse(filled(opcode), deadline=time.monotonic())


def test_the_clock_is_read_while_the_history_is_taken_in() -> None:
    reader = saves._Reader(crafted.shifting(500), None)  # the pickles read with no deadline ...
    reader.deadline = time.monotonic()  # ... and their atomic moves taken in past one
    with pytest.raises(OutOfTime, match="while the saved game was read"):
        reader.saved_game()


def test_the_clock_is_read_while_the_moves_are_taken_back() -> None:
    saved = saves.parse(crafted.shifting(500))
    wrong = (MoveCards(1, 0, 999),)  # the first step, taken back last, names a stack the game lacks
    with pytest.raises(SavedGameError, match="not where its moves put them"):
        position_of(dataclasses.replace(saved, history=(wrong, *saved.history[1:])))
    with pytest.raises(OutOfTime, match="replayed"):
        position_of(dataclasses.replace(saved, history=(wrong, *saved.history[1:])), deadline=time.monotonic())


def test_the_memory_a_files_values_may_take_is_bounded_by_its_size() -> None:
    data = crafted.in_batches(b"}", 1024 * 1024)  # a million empty dicts, in a list
    most = MOST_WEIGHT_FLOOR + MOST_WEIGHT * len(data)
    with pytest.raises(SavedGameError, match=f"would take more than {most:,} bytes of memory"):
        saves.parse(data)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="a process's peak memory is read from /proc")
@pytest.mark.parametrize("name", ["dicts", "lists", "dicts in batches", "nones"])
def test_a_process_reading_one_of_the_heaviest_files_stays_under_20_times_its_size(tmp_path: Path, name: str) -> None:
    make = {"dicts": lambda: filled(b"}"), "lists": lambda: filled(b"]"), "dicts in batches": lambda: crafted.in_batches(b"}"), "nones": slowest}
    path = tmp_path / "heavy.pso"
    path.write_bytes(make[name]())
    script = (  # the peak of the process's own memory (getrusage's would count the test's, which it was forked from)
        "import sys, wedlock\n"
        "from wedlock.basics.errors import SavedGameError\n"
        "try:\n"
        "    wedlock.position(pysolfc_save=sys.argv[1])\n"
        "except SavedGameError:\n"
        "    pass\n"
        "print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=120, check=True)
    assert int(done.stdout) * 1024 < 20 * MOST_BYTES  # the interpreter and wedlock take about 22 MB of it


fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


class Pipe:
    """A FIFO and a program at its other end, played by a thread. A writer comes after
    `late` seconds, once the other end is open, writes `data` and then holds the FIFO open
    for `hold` seconds; a reader (`reads`) comes after `hold` seconds and reads it to its
    end. Either gives up when the test ends (a late one, then, never comes)."""

    def __init__(self, path: Path, data: bytes = b"", hold: float = 8.0, reads: bool = False, late: float = 0.0) -> None:
        os.mkfifo(path)
        self.path, self.data, self.hold, self.reads, self.late = path, data, hold, reads, late
        self.done = threading.Event()
        self.got = b""
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Pipe:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join(timeout=10)

    def _open(self) -> int | None:
        flags = (os.O_RDONLY if self.reads else os.O_WRONLY) | os.O_NONBLOCK
        while not self.done.wait(0.02):
            try:
                return os.open(self.path, flags)
            except OSError:  # no reader yet
                continue
        return None

    def _run(self) -> None:
        if self.reads:  # opening to read never waits, so a reader that comes late is one that waits first
            self.done.wait(self.hold)
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
            waiting = select.poll()
            waiting.register(fd, select.POLLIN)
            while True:
                if not waiting.poll(50):
                    if self.done.is_set():
                        break
                    continue
                with contextlib.suppress(BlockingIOError):
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:  # every writer is done
                        break
                    self.got += chunk
            os.close(fd)
            return
        if self.done.wait(self.late):
            return
        fd = self._open()
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.set_blocking(fd, True)
            os.write(fd, self.data)
            self.done.wait(self.hold)
        os.close(fd)


@fifos
def test_a_fifo_no_program_writes_to_ends_at_the_time_limit(tmp_path: Path) -> None:
    with Pipe(tmp_path / "save.pso", late=8) as pipe:  # a writer that comes, if the read still waits, after 8 s
        path = pipe.path
        started = time.monotonic()
        with pytest.raises(OutOfTime, match="waiting for"):
            wedlock.position(pysolfc_save=path, time_limit=0.5)
        assert time.monotonic() - started < within(0.5)
    child = subprocess.Popen([sys.executable, "-m", "wedlock", "solve", "--pysolfc-save", str(path), "--time-limit", "1"], stderr=subprocess.PIPE, text=True)
    try:
        assert child.wait(timeout=within(1) + 1) == 3
    finally:
        child.kill()
    assert child.stderr is not None and child.stderr.read() == f"unknown: the time limit ran out while waiting for '{path}' to end\n"


@fifos
def test_a_writer_that_stops_half_way_holds_a_read_no_longer_than_the_time_limit(tmp_path: Path) -> None:
    save = (DATA / "monte-carlo-start.pso").read_bytes()
    with Pipe(tmp_path / "api.pso", save[:100]) as pipe:
        started = time.monotonic()
        with pytest.raises(OutOfTime, match="waiting for"):
            wedlock.position(pysolfc_save=pipe.path, time_limit=0.5)
        assert time.monotonic() - started < within(0.5)
    with Pipe(tmp_path / "cli.pso", save[:100]) as pipe:
        started = time.monotonic()
        result = CliRunner().invoke(cli, ["hint", "--pysolfc-save", str(pipe.path), "--time-limit", "0.5"])
        assert time.monotonic() - started < within(0.5)
        assert result.exit_code == 3 and result.output.count("\n") == 1 and "waiting for" in result.output
    with Pipe(tmp_path / "whole.pso", save, hold=0) as pipe:  # a writer that ends: the save as a file gives it
        assert wedlock.position(pysolfc_save=pipe.path, time_limit=5).deal.number == "12345"


def test_stdin_that_stops_half_way_holds_a_read_no_longer_than_the_time_limit() -> None:
    command = [sys.executable, "-m", "wedlock", "solve", "--pysolfc-save", "-", "--time-limit", "1"]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=False)
    assert child.stdin is not None and child.stderr is not None
    try:
        child.stdin.write((DATA / "monte-carlo-start.pso").read_bytes()[:100])
        child.stdin.flush()
        assert child.wait(timeout=within(1) + 1) == 3
    finally:
        child.kill()
        child.stdin.close()
    assert child.stderr.read() == b"unknown: the time limit ran out while waiting for stdin to end\n"


@fifos
def test_a_save_written_to_a_fifo_that_no_program_reads_is_one_line_at_once(tmp_path: Path) -> None:
    with Pipe(tmp_path / "out.pso", reads=True) as pipe:  # a reader that comes only after 8 s
        started = time.monotonic()
        result = CliRunner().invoke(cli, ["solve", "monte-carlo", "12345", "--pysolfc-out", str(pipe.path), "--time-limit", "5"])
        assert time.monotonic() - started < within(1)
        assert result.exit_code == 5 and result.stderr == f"Error: cannot write {pipe.path}: it is a pipe that no program reads\n"
    with Pipe(tmp_path / "read.pso", reads=True, hold=0) as pipe:  # one that reads: it gets the save whole
        time.sleep(0.1)  # the reader's end open
        result = CliRunner().invoke(cli, ["solve", "monte-carlo", "12345", "--pysolfc-out", str(pipe.path), "--time-limit", "5"])
        assert result.exit_code == 0
        pipe.thread.join(timeout=10)
        assert saves.parse(pipe.got).number.seed == 12345

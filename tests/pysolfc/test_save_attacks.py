"""Saves crafted to hurt the reader, and the bounds that answer them: each file is made by
tests/pysolfc/crafted_saves.py, read through the command line (one line, exit 2, in bounded time)
and through the API (a SavedGameError), with and without the compiled core."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
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
from wedlock.pysolfc.pickle_reader import MOST_DEPTH, MOST_KEYS, MOST_STACK, PickleReader
from wedlock.pysolfc.saved_positions import position_of

SECONDS = 3.0  # a crafted file of up to 4 MiB is answered within this


def filled(opcode: bytes) -> bytes:
    """A save whose generator's state is None followed by `opcode` as many times as fit in
    4 MiB."""
    head = len(crafted.with_pickle(7, b"\x80\x04N."))
    return crafted.with_pickle(7, b"\x80\x04N" + opcode * ((MOST_BYTES - head - 1) // len(opcode)) + b".")


def slowest() -> bytes:
    """A save whose generator's state is a list of Nones filling 4 MiB (a state wedlock
    drops, whatever it is): the most opcodes a file can make the reader take."""
    head = len(crafted.with_pickle(7, crafted.nones(0)))
    return crafted.with_pickle(7, crafted.nones((MOST_BYTES - head) // 1002))


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
}


@pytest.fixture(params=[False, True], ids=["core", "pure"])
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
    path.write_bytes(slowest())  # a few tenths of a second to read
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

"""The documents say what the code does: every `wedlock` line of the README parses, the
blocks marked `<!-- runs -->` run (a console block's output is compared with what the
command prints), and data/README's table is what the files in data/ hold."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

from wedlock.cli.main import cli

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"(?P<mark><!-- runs -->\n)?```(?P<kind>\w+)\n(?P<body>.*?)```", re.S)
DECIMAL = re.compile(r"\d[\d,]*\.\d+")  # seconds and rates that vary from run to run


def blocks(kind: str, runs: bool | None = None) -> list[str]:
    return [m["body"] for m in BLOCK.finditer(README) if m["kind"] == kind and (runs is None or bool(m["mark"]) == runs)]


def wedlock_lines() -> list[str]:
    """Every `wedlock` command of the README's shell and console blocks."""
    lines = []
    for body in blocks("sh") + blocks("console"):
        for line in body.splitlines():
            line = line.removeprefix("$ ")
            for part in re.split(r"&&|\|", line.split("  #")[0]):
                part = part.strip().split(" > ")[0]
                if part.startswith("wedlock "):
                    lines.append(part)
    return lines


HISTORY = re.compile(r"\bsessions?\b|\b[0-9a-f]{7,40}\b(?<!\d{7})", re.I)  # how the work was done: git's, not the product's
WRITTEN = sorted([*ROOT.glob("docs/*.md"), ROOT / "data" / "README.md", ROOT / "CHANGELOG.md", *ROOT.glob("contrib/*/README.md")])


def test_the_readme_is_for_users_and_short() -> None:
    assert len(README.splitlines()) <= 250
    assert not HISTORY.search(README)


@pytest.mark.parametrize("path", WRITTEN, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_documents_speak_of_the_product_and_hold_no_runaway_text(path: Path) -> None:
    """No session or commit hash; no paragraph written over and over (a bad edit once
    wrote one of docs/PYSOLFC.md's paragraphs between every two of its characters)."""
    text = path.read_text(encoding="utf-8")
    assert not HISTORY.search(text)
    paragraphs = [p for p in text.split("\n\n") if len(p) > 200]
    assert len(paragraphs) == len(set(paragraphs))
    assert len(text) < 200_000


@pytest.mark.parametrize("line", wedlock_lines())
def test_every_wedlock_line_of_the_readme_parses(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = shlex.split(line)[1:]
    for arg in args:
        if re.fullmatch(r"[\w-]+\.(jsonl|txt|gz)", arg):
            Path(arg).touch()  # a file an earlier line of the README would have made
    command = cli.get_command(click.Context(cli), args[0])
    assert command is not None, args[0]
    try:
        command.make_context(args[0], args[1:])
    except click.exceptions.Exit:
        pass


def shell(line: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run a README line with `wedlock` as this Python's `-m wedlock`."""
    command = re.sub(r"(^|[|&;]\s*)wedlock\b", rf"\1{shlex.quote(sys.executable)} -m wedlock", line)
    return subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_runnable_blocks_run(tmp_path: Path) -> None:
    for body in blocks("sh", runs=True):
        for line in body.splitlines():
            line = line.split("  #")[0].strip()
            if line:
                done = shell(line, tmp_path)
                assert done.returncode == 0, (line, done.stderr)
    for body in blocks("console", runs=True):
        command, *expected = body.splitlines()
        assert command.startswith("$ ")
        done = shell(command[2:], tmp_path)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stderr)
        shown = [DECIMAL.sub("N", x) for x in expected]
        printed = [DECIMAL.sub("N", x) for x in done.stdout.splitlines()]
        if shown and shown[-1] == "...":
            shown, printed = shown[:-1], printed[: len(shown) - 1]
        assert printed == shown, command


def test_the_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    (code,) = blocks("python", runs=True)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "won" and printed[1] == "1. A1 QC + B1 QH" and printed[-1] == "won"


def load_table_script():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import data_table
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return data_table


@pytest.mark.slow
def test_data_readme_table_is_what_the_files_hold() -> None:
    data_table = load_table_script()
    text = (ROOT / "data" / "README.md").read_text(encoding="utf-8")
    files, players = text.split("\n## Perfect play beside players", 1)
    table = [line for line in files.splitlines() if line.startswith("|")]
    assert table == data_table.table_lines(sorted((ROOT / "data").glob("*.jsonl.gz")))
    assert [line for line in players.splitlines() if line.startswith("|")] == data_table.players_lines(
        sorted((ROOT / "data").glob("*.jsonl.gz"))
    )
    listed = {re.match(r"\| `([^`]+)`", line)[1] for line in table[2:]}
    assert listed == {p.name for p in (ROOT / "data").glob("*.jsonl.gz")}

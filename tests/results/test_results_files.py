"""Results files as `batch --resume` and `stats` meet them: zero bytes a crash left at the
end, a byte-order mark, a line too long to hold, lines of another game, rule set or
version, stdout and stdin as `-`, and names from files that must not reach a terminal
as they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.basics.test_input_bounds import quickly
from tests.cli.test_cli import RUNNER, assert_bad_input, run
from wedlock import __version__
from wedlock.basics.input_files import MOST_RESULTS_LINE
from wedlock.cli.main import cli
from wedlock.results.records import ResultsFileError, ResultsWriter, read_results, to_resume


def record(number: int, verdict: str = "won", version: str = __version__, game: str = "monte-carlo", rules: str = "pysol") -> dict:
    return {"game": game, "rules": rules, "game_number": str(number), "verdict": verdict, "moves": 0, "states": 1, "seconds": 0.5, "version": version}


def results(*records: dict) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def numbers_in(path: Path) -> list[int]:
    return [int(json.loads(line)["game_number"]) for line in path.read_text(encoding="utf-8-sig").splitlines()]


def batch(path: Path, numbers: str, *more: str):
    return run("batch", "monte-carlo", numbers, "--out", path, "--quiet", "--jobs", "1", *more)


@pytest.mark.parametrize("torn", [b"", b'{"game": "monte-carlo", "ru'])
@pytest.mark.parametrize("zeros", [1, 4096, 3 * MOST_RESULTS_LINE])
def test_zero_bytes_a_crash_left_at_the_end_are_skipped_and_cut_on_resume(tmp_path: Path, torn: bytes, zeros: int) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results(record(1), record(2)) + torn + b"\0" * zeros)
    assert len(read_results(out)) == 2
    assert json.loads(run("stats", out, "--json").stdout)[0]["deals"] == 2
    assert batch(out, "1-3", "--resume").exit_code == 0
    assert numbers_in(out) == [1, 2, 3]  # the zeros and the torn line gone, deal 3 appended
    assert b"\0" not in out.read_bytes()


def test_a_whole_last_line_before_zero_bytes_counts(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results(record(1)) + json.dumps(record(2)).encode() + b"\0" * 100)
    assert len(read_results(out)) == 2
    assert batch(out, "1-3", "--resume").exit_code == 0
    assert numbers_in(out) == [1, 2, 3]


def test_zero_bytes_inside_a_file_are_a_bad_line(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    text = results(record(1)) + b"\0" * 10 + b"\n" + results(record(2))
    out.write_bytes(text)
    assert_bad_input(run("stats", out), "line 2")
    assert_bad_input(batch(out, "1-3", "--resume"), "line 2")
    assert out.read_bytes() == text


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(b"\xef\xbb\xbf" + results(record(1), record(2)))
    assert json.loads(run("stats", out, "--json").stdout)[0]["deals"] == 2
    assert batch(out, "1-3", "--resume").exit_code == 0
    assert numbers_in(out) == [1, 2, 3]
    out.write_bytes(b"\xef\xbb\xbf" + b'{"game": "mon')  # a mark, then a torn first line
    assert batch(out, "4", "--resume").exit_code == 0
    assert numbers_in(out) == [4]


def test_a_line_too_long_for_a_results_file_is_refused_without_being_held(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    huge = {**record(2), "solution": ["x" * 100] * (MOST_RESULTS_LINE // 100)}
    text = results(record(1), huge, record(3))
    out.write_bytes(text)
    for args in (("stats", out), ("batch", "monte-carlo", "1-4", "--out", out, "--resume", "--quiet")):
        with quickly():
            assert_bad_input(run(*args), "line 2 is longer than 1,048,576 bytes")
    assert out.read_bytes() == text
    out.write_bytes(b"7" * (10 * MOST_RESULTS_LINE))  # no newline at all
    with quickly():
        assert_bad_input(run("stats", out), "line 1 is longer")


def test_the_longest_lines_a_batch_writes_are_well_within_the_bound(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "matrimony", "2", "--solutions", "--out", out, "--quiet", "--jobs", "1").exit_code == 0
    assert 2_000 < len(out.read_bytes()) < MOST_RESULTS_LINE // 50
    assert len(read_results(out)) == 1


@pytest.mark.parametrize("other", [{"game": "matrimony"}, {"rules": "strict"}])
def test_resume_refuses_a_file_of_another_game_or_rule_set(tmp_path: Path, other: dict) -> None:
    out = tmp_path / "r.jsonl"
    text = results(record(1), {**record(2), **other})
    out.write_bytes(text + b'{"game": "mon')  # with a torn line, which a resume would cut
    before = out.read_bytes()
    assert_bad_input(batch(out, "1-5", "--resume"), str(out), "not of monte-carlo (pysol)", "--resume continues a file of one game and rule set")
    assert out.read_bytes() == before


@pytest.mark.parametrize("name", [{"game": "patience-9"}, {"rules": "pysol-2"}, {"game": "x\x1b[2J"}])
def test_a_line_of_a_game_or_rule_set_wedlock_does_not_know_is_a_bad_line(tmp_path: Path, name: dict) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results(record(1), {**record(2), **name}))
    line = assert_bad_input(run("stats", out), "line 2")
    assert "\x1b" not in line
    with pytest.raises(ResultsFileError, match="line 2"):
        read_results(out)


def test_players_wedlock_does_not_know_are_a_bad_line(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    played = {"won": True, "moves": 3, "seconds": 0.1}
    out.write_bytes(results({**record(1), "players": {"greedy": played}}, {**record(2), "players": {"someone": played}}))
    assert_bad_input(run("stats", out), "line 2", "players")


def test_resume_names_the_deals_only_another_version_solved_and_retry_version_solves_them(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results(record(1, version="0.3.1"), record(2, version="0.3.1"), record(3, version=__version__), record(4, "unknown", "0.2.0")))
    resumed = batch(out, "1-5", "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.stderr.strip() == f"3 deals of {out} have lines only from wedlock 0.3.1 (2), 0.2.0 (1) (kept; --retry-version solves them again)"
    assert numbers_in(out) == [1, 2, 3, 4, 5]
    retried = batch(out, "1-5", "--resume", "--retry-version")
    assert retried.exit_code == 0 and "(kept; solved again now)" in retried.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [int(r["game_number"]) for r in lines] == [1, 2, 3, 4, 5, 1, 2, 4]  # the old lines kept
    assert all(r["version"] == __version__ for r in lines[4:])
    again = batch(out, "1-5", "--resume", "--retry-version")
    assert again.exit_code == 0 and again.stderr == ""
    assert len(out.read_text().splitlines()) == 8  # nothing left to solve again
    assert_bad_input(batch(out, "1-5", "--retry-version"), "--retry-version needs --resume")


def test_to_resume_counts_versions_in_little_memory() -> None:
    done = [record(n, version=f"0.{n}") for n in range(1, 2_000)] + [record(1)]
    found = to_resume(["1", "2", "3", "4000"], done, "monte-carlo", "pysol", retry_version=True)
    assert found.older == 1_998 and len(found.versions) == 3
    assert found.numbers == ["2", "3", "4000"]


def test_out_dash_is_stdout_and_resume_refuses_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("batch", "monte-carlo", "1-3", "--out", "-", "--quiet", "--jobs", "1")
    assert result.exit_code == 0
    assert [json.loads(line)["game_number"] for line in result.stdout.splitlines()] == ["1", "2", "3"]
    assert not (tmp_path / "-").exists()
    assert_bad_input(run("batch", "monte-carlo", "1-3", "--out", "-", "--resume"), "--resume", "not - (stdout)")
    assert not (tmp_path / "-").exists()


def test_stats_dash_reads_stdin(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results(record(1), record(2, "lost")))
    piped = RUNNER.invoke(cli, ["stats", "-", "--json"], input=out.read_bytes())
    assert piped.exit_code == 0, piped.stderr
    assert json.loads(piped.stdout) == json.loads(run("stats", out, "--json").stdout)
    bad = RUNNER.invoke(cli, ["stats", "-"], input=b"garbage\n")
    assert_bad_input(bad, "stdin: line 1")


def test_names_from_files_and_the_command_line_reach_the_terminal_escaped(tmp_path: Path) -> None:
    odd = "deal\x1b[2J\nfile.txt"
    deal = tmp_path / odd
    deal.write_text(run("deal", "monte-carlo", "5", "--json").stdout)
    shown = run("deal", "monte-carlo", "--deal-file", deal)
    assert shown.exit_code == 0
    assert shown.stdout.splitlines()[0] == f"# Monte Carlo (PySolFC), the deal in {tmp_path}/deal\\x1b[2J\\nfile.txt"
    assert "\x1b" not in shown.stdout
    for args in (
        ["stats", tmp_path / "no\x1b[31mfile.jsonl"],
        ["verify", "monte-carlo", "5", "--moves", tmp_path / "no\x1b[31mfile.txt"],
        ["batch", "monte-carlo", "1", "--out", tmp_path / "x\x1b[31m.jsonl.gz"],
        ["batch", "monte-carlo", f"@{tmp_path}/no\x1b[31m\nfile"],
    ):
        line = assert_bad_input(run(*args), "\\x1b[31m")
        assert "\x1b" not in line
    (tmp_path / "empty\x07.jsonl").write_text("")
    line = assert_bad_input(run("stats", tmp_path / "empty\x07.jsonl"), "no results in", "empty\\x07.jsonl")
    assert "\x07" not in line


def test_a_writer_stopped_in_the_middle_of_a_line_counts_it_as_the_file_has_it(tmp_path: Path) -> None:
    """A signal may come while a line is written: the count then looks at the file's end."""
    path = tmp_path / "r.jsonl"
    with path.open("a", encoding="utf-8") as stream:
        writer = ResultsWriter(stream)
        writer.write({"n": 1})
        writer.write({"n": 2})
        assert writer.lines(str(path)) == 2 and writer.state == (2, None)
        line = json.dumps({"n": 3}) + "\n"
        writer.state = (2, line)  # caught before the line went out
        assert writer.lines(str(path)) == 2
        stream.write(line)
        stream.flush()  # caught after it went out, before the count
        assert writer.lines(str(path)) == 3 and writer.lines(None) == 2
        stream.write(line[:5])  # half of it out
        stream.flush()
        assert writer.lines(str(path)) == 2


def test_game_numbers_are_json_strings_and_data_readme_says_why(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    past_doubles = str(2**53 + 1)  # a double would hold it as 2**53, another deal
    assert batch(out, f"ms40000,ms123,{past_doubles}").exit_code == 0
    assert [json.loads(line)["game_number"] for line in out.read_text().splitlines()] == ["ms40000", "123", past_doubles]
    bad = tmp_path / "number.jsonl"
    bad.write_text(json.dumps({**record(1), "game_number": 1}) + "\n")
    assert_bad_input(run("stats", bad), "game_number and version must be text")
    paragraphs = [" ".join(p.split()) for p in (Path(__file__).parents[2] / "data" / "README.md").read_text(encoding="utf-8").split("\n\n")]
    (said,) = [p for p in paragraphs if p.startswith("In each line `game_number` is a JSON string, never a JSON number")]
    for reason in ("`ms40000` is deal 40,000 of the Microsoft generator", "`ms123` is written `123`", "up to 4,300 digits", "2^53"):
        assert reason in said, reason

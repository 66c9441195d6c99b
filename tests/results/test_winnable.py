"""The shipped verdict tables and `wedlock winnable`: the tables say what data/ says, and the
numbers printed are proven winnable (or lost)."""

from __future__ import annotations

import json
from itertools import chain
from pathlib import Path

import pytest

import wedlock
from tests.cli.test_cli import assert_bad_input, run
from wedlock.results.records import iter_results
from wedlock.results.tables import Table, TableError, build, file_name, lookup, table
from wedlock.search.exhaustive import Verdict

DATA = Path(__file__).parent.parent.parent / "data"
PAIRS = [("monte-carlo", r) for r in ("pysol", "strict", "5x4", "thirteens", "weddings", "2decks")] + [
    ("matrimony", "arnold"),
    ("matrimony", "pysol"),
]


@pytest.mark.slow
@pytest.mark.parametrize("game, rules", PAIRS)
def test_each_shipped_table_is_what_its_results_files_say(game: str, rules: str) -> None:
    shipped = table(game, rules)
    assert shipped is not None and shipped.sources
    paths = [DATA.parent / source for source in shipped.sources]
    rebuilt = build(game, rules, chain.from_iterable(iter_results(p) for p in paths), shipped.sources)
    assert rebuilt.to_bytes() == shipped.to_bytes()
    # and the files of data/ that hold this game and rule set are all among its sources
    for path in DATA.glob("*.jsonl.gz"):
        first = next(iter_results(path))
        if (first["game"], first["rules"]) == (game, rules):
            assert f"data/{path.name}" in shipped.sources


def test_the_monte_carlo_table_takes_a_bit_a_deal() -> None:
    shipped = table("monte-carlo", "pysol")
    assert (shipped.first, shipped.last) == (1, 1_000_000)
    assert len(shipped.won) == 125_000 and shipped.decided is None
    assert shipped.counts() == {"won": 888_174, "lost": 111_826, "unknown": 0}


def test_a_table_round_trips_and_says_unknown_where_a_deal_is() -> None:
    lines = [{"game": "g", "rules": "r", "game_number": str(n), "verdict": v, "version": "0"} for n, v in enumerate(["won", "lost", "unknown", "won", "unknown"], 1)]
    lines.append({**lines[2], "verdict": "lost"})  # a retry decides game 3
    made = build("g", "r", lines)
    again = Table.from_bytes(made.to_bytes())
    assert again == made
    assert [again.verdict(n) for n in range(0, 7)] == [None, Verdict.WON, Verdict.LOST, Verdict.LOST, Verdict.WON, Verdict.UNKNOWN, None]
    assert again.counts() == {"won": 2, "lost": 2, "unknown": 1}
    with pytest.raises(TableError):
        Table.from_bytes(b"not a table")
    with pytest.raises(wedlock.WedlockError, match="won in one line and lost"):
        build("g", "r", [*lines, {**lines[0], "verdict": "lost"}])


def test_lookup_agrees_with_the_solver_on_a_few_deals() -> None:
    for game, rules, number in (("monte-carlo", "pysol", 12345), ("monte-carlo", "strict", 3), ("matrimony", "arnold", 2), ("monte-carlo", "weddings", 8)):
        assert lookup(game, number, rules) == wedlock.solve(game, number, rules).verdict
    assert lookup("monte-carlo", 1_000_001, "pysol") is None
    assert file_name("monte-carlo", "pysol") == "monte-carlo-pysol.bits"


def numbers_of(stdout: str) -> list[int]:
    return [int(line.split("#")[0]) for line in stdout.splitlines() if line.strip() and not line.startswith("#")]


def test_winnable_prints_numbers_the_table_proves_won() -> None:
    result = run("winnable", "monte-carlo", "--count", "5")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "# Monte Carlo (PySolFC): game numbers proven winnable (published table of games 1-1,000,000)"
    numbers = numbers_of(result.stdout)
    assert numbers == [n for n in range(1, 100) if lookup("monte-carlo", n, "pysol") == Verdict.WON][:5]


def test_winnable_lost_and_json() -> None:
    data = json.loads(run("winnable", "monte-carlo", "--rules", "thirteens", "--lost", "--count", "4", "--json").stdout)
    assert (data["game"], data["rules"], data["title"], data["verdict"]) == ("monte-carlo", "thirteens", "Monte Carlo Thirteens", "lost")
    assert len(data["numbers"]) == 4 and data["from_table"] == 4 and data["solved"] == 0
    for number in data["numbers"]:
        assert wedlock.solve("monte-carlo", number, "thirteens").verdict == Verdict.LOST


def test_winnable_at_random_is_seeded() -> None:
    first = numbers_of(run("winnable", "matrimony", "--rules", "arnold", "--random", "--seed", "1", "--count", "6").stdout)
    assert first == numbers_of(run("winnable", "matrimony", "--rules", "arnold", "--random", "--seed", "1", "--count", "6").stdout)
    assert first != numbers_of(run("winnable", "matrimony", "--rules", "arnold", "--random", "--seed", "2", "--count", "6").stdout)
    assert len(set(first)) == 6 and all(lookup("matrimony", n, "arnold") == Verdict.WON for n in first)
    assert first != sorted(first)


def test_past_the_table_it_solves_and_the_wins_replay() -> None:
    result = run("winnable", "monte-carlo", "--rules", "strict", "--from", "9999", "--count", "4", "--json")
    data = json.loads(result.stdout)
    assert data["solved"] >= 1 and data["table"] == {"first": 1, "last": 10_000}
    for number in data["numbers"]:
        assert wedlock.solve("monte-carlo", number, "strict").verdict == Verdict.WON
    text = run("winnable", "monte-carlo", "--rules", "strict", "--from", "10001", "--count", "2").stdout
    assert all("# solved now, " in line for line in text.splitlines()[1:])


def test_solving_past_the_table_draws_a_bar_on_stderr_that_quiet_silences() -> None:
    result = run("winnable", "monte-carlo", "--rules", "strict", "--from", "10000", "--count", "3")
    assert result.exit_code == 0
    numbers = numbers_of(result.stdout)
    assert numbers[0] == 10_000 and len(numbers) == 3  # the table's last number, then two solved
    frames = [frame.strip() for frame in result.stderr.split("\r") if frame.strip()]
    assert frames[0].startswith("33%|") and frames[0].endswith("| 1/3 [00:00<?, ?number/s, solving game 10,001]")
    assert all(f"solving game {n:,}]" in result.stderr for n in range(10_001, numbers[-1] + 1))
    assert frames[-1].startswith("100%|") and "| 3/3 [" in frames[-1]
    assert result.stdout.count("\n") == 4  # the bar never lands on stdout
    quiet = run("winnable", "monte-carlo", "--rules", "strict", "--from", "10000", "--count", "3", "--quiet")
    assert (quiet.exit_code, numbers_of(quiet.stdout), quiet.stderr) == (0, numbers, "")
    assert run("winnable", "monte-carlo", "--count", "3").stderr == ""  # the table answers at once: no bar


def test_unknown_deals_are_passed_over_and_named() -> None:
    last = max(n for n in range(1, 10_001) if lookup("matrimony", n, "pysol") == Verdict.UNKNOWN)
    window = range(last - 10, last + 1)  # eleven deals of the table, the last one unknown
    data = json.loads(run("winnable", "matrimony", "--from", str(window[0]), "--to", str(last), "--count", "20", "--json").stdout)
    assert data["passed_over"] == [n for n in window if lookup("matrimony", n, "pysol") == Verdict.UNKNOWN]
    assert last in data["passed_over"]
    assert data["numbers"] == [n for n in window if lookup("matrimony", n, "pysol") == Verdict.WON]


def test_winnable_output_is_a_numbers_file_for_batch(tmp_path: Path) -> None:
    listed = tmp_path / "numbers.txt"
    listed.write_text(run("winnable", "monte-carlo", "--rules", "strict", "--lost", "--count", "3").stdout)
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", f"@{listed}", "--rules", "strict", "--out", out, "--quiet", "--jobs", "1").exit_code == 0
    assert [json.loads(x)["verdict"] for x in out.read_text().splitlines()] == ["lost"] * 3


def test_winnable_bad_input() -> None:
    assert_bad_input(run("winnable", "patience"), "unknown game")
    assert_bad_input(run("winnable", "monte-carlo", "--count", "0"), "--count")

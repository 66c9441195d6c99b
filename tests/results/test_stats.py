"""`wedlock stats`: the same table whatever the order of the files and lines, and memory that
does not grow with the number of lines."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.test_cli import run
from tests.test_docs import load_table_script
from wedlock.basics.intervals import wilson
from wedlock.results import external_sort as spill
from wedlock.results.records import iter_results
from wedlock.results.stats import summarize

ROOT = Path(__file__).parent.parent.parent


def line(number: int, verdict: str, seconds: float, states: int = 1, luck: tuple[float, float, int] | None = None, game: str = "monte-carlo", rules: str = "pysol") -> dict:
    record = {"game": game, "rules": rules, "game_number": str(number), "verdict": verdict, "moves": 0, "states": states, "seconds": seconds, "version": "0"}
    if luck is not None:
        r, g, games = luck
        record["analysis"] = {"complete": games == 0, "states": 1, "playouts": games, "random": {"low": 0, "value": r, "high": 1}, "greedy": {"low": 0, "value": g, "high": 1}, "seconds": 0.0}
    return record


odds = st.sampled_from([0.0, 0.125, 0.5, 0.75, 1.0])
records = st.lists(
    st.builds(
        line,
        st.integers(1, 8),
        st.sampled_from(["won", "unknown"]),
        st.sampled_from([0.001, 0.5, 2.0, 30.0]),
        st.integers(1, 5),
        st.none() | st.tuples(odds, odds, st.sampled_from([0, 200])),
        st.just("monte-carlo"),
        st.sampled_from(["pysol", "strict"]),
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=40, deadline=None)
@given(records, st.randoms(use_true_random=False), st.integers(1, 3))
def test_the_same_lines_in_any_order_and_files_give_the_same_table(tmp_path_factory, lines, rng, files) -> None:
    folder = tmp_path_factory.mktemp("stats")

    def table(ordered: list[dict]) -> str:
        paths = [folder / f"{i}-{rng.random()}.jsonl" for i in range(files)]
        for i, path in enumerate(paths):
            path.write_text("".join(json.dumps(r) + "\n" for r in ordered[i::files]))
        result = run("stats", *paths)
        assert result.exit_code == 0, result.stderr
        return result.stdout

    before = table(lines)
    shuffled = lines[:]
    rng.shuffle(shuffled)
    assert table(shuffled) == before


def test_a_proven_loss_keeps_the_high_end_below_100_percent(tmp_path: Path) -> None:
    """As in PySolFC's Matrimony 1-10,000, one deal proven lost and some unknown: the high
    end is the share not proven lost, where Wilson's, with the unknown deals won, showed
    100.00%."""
    verdicts = ["lost"] + ["unknown"] * 17 + ["won"] * 4_982
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(line(n, v, 0.5, game="matrimony")) + "\n" for n, v in enumerate(verdicts, 1)))
    result = run("stats", path)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[2] == "| Matrimony (PySolFC) | 5,000 | 4,982 | 1 | 17 | 99.64% | 99.43% - 99.98% | 0.5000 | 0.50 |"
    (summary,) = summarize(iter_results(path))
    assert (summary.low, summary.high) == (pytest.approx(wilson(4_982, 5_000)[0]), 4_999 / 5_000)
    assert load_table_script().holds(summary, 1, 5_000) == "Matrimony (PySolFC), games 1-5,000: won 99.43% - 99.98%"
    # with nothing proven lost the unknown deals may all be won; with nothing unknown, Wilson's interval
    (open_ended,) = summarize([line(1, "unknown", 0.5), line(2, "won", 0.5)])
    (decided,) = summarize([line(1, "lost", 0.5), line(2, "won", 0.5)])
    assert (open_ended.high, decided.high) == (1.0, wilson(1, 2)[1])


def test_spilled_runs_come_back_in_order() -> None:
    rng = random.Random(5)
    items = [rng.randrange(1000) for _ in range(2_500)]
    sorter = spill.SpillSort(run=300)
    for item in items:
        sorter.add(item)
    assert len(sorter.files) == 8  # seven runs of 300 spilled, 2,500 - 2,400 held
    assert list(sorter.sorted()) == sorted(items)


def test_a_summary_over_spilled_deals_equals_one_held_in_memory(monkeypatch) -> None:
    rng = random.Random(7)
    lines = [line(rng.randrange(1, 900), rng.choice(["won", "lost"]), rng.random(), luck=(rng.random(), rng.random(), 0)) for _ in range(2_000)]
    lines = list({r["game_number"]: r for r in lines}.values())  # one verdict a deal
    held = summarize(lines)
    monkeypatch.setattr(spill.SpillSort.__init__, "__defaults__", (None, 97))
    assert summarize(lines) == held


def peak_memory_of_stats(path: Path) -> int:
    """The peak resident memory, in kB, of `wedlock stats PATH` in a process of its own."""
    code = (
        "import resource, sys\n"
        "from wedlock.cli.main import cli\n"
        "try:\n    cli(['stats', sys.argv[1]])\n"
        "except SystemExit:\n    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True, check=True)
    return int(done.stdout.splitlines()[-1])


@pytest.mark.slow
def test_stats_memory_does_not_grow_with_the_lines(tmp_path: Path) -> None:
    rng = random.Random(3)
    sizes = {}
    for count in (50_000, 400_000):
        path = tmp_path / f"{count}.jsonl"
        with open(path, "w") as f:
            for n in range(1, count + 1):
                f.write(json.dumps(line(n, rng.choice(["won", "lost"]), round(rng.random(), 4), rng.randrange(1, 10_000))) + "\n")
        sizes[count] = peak_memory_of_stats(path)
    # Eight times the lines; the memory may grow by what one spilled run holds, not eightfold.
    assert sizes[400_000] - sizes[50_000] < 40_000, sizes


def test_stats_memory_does_not_grow_with_the_names_a_file_gives(tmp_path: Path) -> None:
    """A name that is no game or rule set of wedlock's is a bad line, refused, never a new
    table row: 50,000 distinct names cost what one good line costs."""
    small, crafted = tmp_path / "small.jsonl", tmp_path / "names.jsonl"
    small.write_text(json.dumps(line(1, "won", 0.5)) + "\n")
    with open(crafted, "w") as f:
        f.write(json.dumps(line(1, "won", 0.5)) + "\n")
        for n in range(50_000):
            f.write(json.dumps(line(n, "won", 0.5, rules=f"rules-{n}")) + "\n")
    result = run("stats", crafted)
    assert result.exit_code == 2 and "line 2" in result.stderr and "rules-0" in result.stderr
    assert peak_memory_of_stats(crafted) - peak_memory_of_stats(small) < 20_000

"""The pictures: `analyze --png` and `stats --plot` write PNGs of a sensible size, refuse
before the work what they cannot do, and draw from figures that add up."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.cli.test_cli import assert_bad_input, run
from tests.results.test_stats import line
from tests.tiers import first_quick
from wedlock.luck import analysis as luck
from wedlock.pictures.charts import MOST_BOARDS, chosen_boards
from wedlock.results.stats import TIME_EDGES, summarize, time_bin

PNG = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height in pixels, from its header."""
    data = path.read_bytes()
    assert data[:8] == PNG and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.parametrize(
    "deal",
    first_quick(
        [
            ("monte-carlo", "1", "--max-states", "30", "--playouts", "10"),  # cut: the solver's line
            ("monte-carlo", "5", "--rules", "weddings", "--max-states", "3"),  # lost: no line to draw
            ("monte-carlo", "2", "--rules", "strict"),  # a whole small graph, drawn
            ("matrimony", "2", "--max-states", "30", "--playouts", "10"),
        ],
        keep=2,
        spread=False,
    ),
)
def test_analyze_draws_a_picture_a_screen_can_show(tmp_path: Path, deal: tuple[str, ...]) -> None:
    picture = tmp_path / "deal.png"
    result = run("analyze", *deal, "--png", picture)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == run("analyze", *deal).stdout  # the picture changes no figure
    width, height = png_size(picture)
    assert 600 <= width <= 2500 and 200 <= height <= 12000
    assert picture.stat().st_size < 3_000_000


def test_stats_plot_draws_the_summaries_and_prints_the_same_table(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    out = run("batch", "monte-carlo", "1-4", "--rules", "strict", "--jobs", "1", "--quiet", "--analyze", "--out", results)
    assert out.exit_code == 0, out.stderr
    picture = tmp_path / "stats.png"
    plotted = run("stats", results, "--plot", picture)
    assert plotted.exit_code == 0, plotted.stderr
    assert plotted.stdout == run("stats", results).stdout
    width, height = png_size(picture)
    assert 600 <= width <= 2000 and 300 <= height <= 4000


def test_stats_plot_into_no_folder_is_refused_before_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_reading(*args, **kwargs):
        raise AssertionError("the results were read before --plot was refused")

    monkeypatch.setattr("wedlock.cli.stats_cmd.iter_results", no_reading)
    results = tmp_path / "r.jsonl"
    results.write_text("")
    assert_bad_input(run("stats", results, "--plot", tmp_path / "missing" / "s.png"), "cannot write", "missing")


@pytest.mark.parametrize("command", ["analyze", "stats"])
def test_without_matplotlib_a_picture_is_refused_in_one_line_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    def no_work(*args, **kwargs):
        raise AssertionError("the work began before the picture was refused")

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    monkeypatch.setattr(luck.analysis, "build", no_work)
    monkeypatch.setattr("wedlock.cli.stats_cmd.iter_results", no_work)
    results = tmp_path / "r.jsonl"
    results.write_text("")
    args = {"analyze": ["analyze", "monte-carlo", "2", "--png"], "stats": ["stats", results, "--plot"]}[command]
    result = run(*args, tmp_path / "p.png")
    assert_bad_input(result, "matplotlib", "pip install")
    assert not (tmp_path / "p.png").exists()


@given(st.integers(0, 400), st.lists(st.integers(1, 400), max_size=40))
def test_the_boards_drawn_hold_the_deal_the_end_and_every_decision(moves: int, decisions: list[int]) -> None:
    decisions = [d for d in decisions if d <= moves]
    boards = chosen_boards(moves, decisions)
    assert boards == sorted(set(boards)) and boards[0] == 0 and boards[-1] == moves
    assert all(0 <= b <= moves for b in boards) and len(boards) <= MOST_BOARDS
    if moves + 1 <= MOST_BOARDS:
        assert boards == list(range(moves + 1))
    elif len({d - 1 for d in decisions} | {0, moves}) < MOST_BOARDS:
        assert {d - 1 for d in decisions} <= set(boards)


@given(st.floats(0, 1e7, allow_nan=False))
def test_a_solve_time_falls_in_its_bin(seconds: float) -> None:
    b = time_bin(seconds)
    assert 0 <= b < len(TIME_EDGES) - 1
    if TIME_EDGES[0] * 1.0001 < seconds < TIME_EDGES[-1]:
        assert TIME_EDGES[b] * 0.9999 <= seconds < TIME_EDGES[b + 1] * 1.0001


@given(st.lists(st.tuples(st.integers(1, 30), st.sampled_from([0.0, 0.0004, 0.02, 3.0, 9e6]), st.sampled_from(["pysol", "strict"])), min_size=1))
def test_the_time_histogram_counts_each_deal_once(deals: list[tuple[int, float, str]]) -> None:
    summaries = summarize(line(n, "won", seconds, rules=rules) for n, seconds, rules in deals)
    for s in summaries:
        assert sum(s.seconds_histogram) == s.deals == len({n for n, _, r in deals if r == s.rules})

"""CliRunner tests of `wedlock analyze`: text, JSON, exports, cut graphs and bad input."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest

from tests.cli.test_cli import assert_bad_input, run
from tests.tiers import first_quick
from wedlock.cli import analyze_cmd as cli_analyze
from wedlock.luck import analysis as luck

# Monte Carlo game 2 under strict rules has a 17-state graph with a win; Matrimony game 2
# under Arnold's rules a 2,553-state one.
SMALL = ("monte-carlo", "2", "--rules", "strict")


def analyze_json(*args: object) -> dict:
    result = run("analyze", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_text_report_lists_every_figure_and_the_shortest_win() -> None:
    result = run("analyze", *SMALL)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("# Monte Carlo") and lines[0].endswith("game 2: the whole state graph")
    data = analyze_json(*SMALL)
    assert f"states:             {data['states']:,} ({data['edges']:,} edges)" in lines
    assert f"winning sequences:  {data['winning_sequences']:,}" in lines
    assert any(line.startswith("random player wins: ") and "exactly" in line for line in lines)
    moves = [re.sub(r"^  \d+\. ", "", line) for line in lines if re.match(r"^  \d+\. ", line)]
    assert moves == data["shortest_win"]
    assert f"critical decisions on the shortest win: {len(data['critical_decisions'])}" in lines


def test_json_figures_are_consistent(tmp_path: Path) -> None:
    data = analyze_json(*SMALL)
    assert data["game"] == "monte-carlo" and data["rules"] == "strict" and data["game_number"] == "2"
    assert data["complete"] is True
    assert 0 < data["won_states"] <= data["winning_states"] <= data["states"]
    assert data["winning_sequences"] > 0
    for player in ("random_player", "greedy_player"):
        num, _, den = data[player]["exact"].partition("/")
        assert abs(int(num) / int(den or 1) - data[player]["value"]) < 1e-12
    assert data["critical_decisions"], "this deal has decisions that lose"
    for decision in data["critical_decisions"]:
        assert decision["keep"] and decision["lose"]
        assert 1 <= decision["move_number"] <= len(data["shortest_win"])
    # The shortest win is a legal win by the referee.
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(data["shortest_win"]) + "\n")
    verified = run("verify", "monte-carlo", "2", "--rules", "strict", "--moves", moves)
    assert verified.exit_code == 0, verified.stdout


def test_matrimony_shortest_win_replays(tmp_path: Path) -> None:
    data = analyze_json("matrimony", "2", "--rules", "arnold")
    assert data["complete"] and data["random_player"]["exact"] == data["greedy_player"]["exact"]
    assert "playouts" not in data["random_player"]  # a whole graph needs no estimate
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(data["shortest_win"]) + "\n")
    assert run("verify", "matrimony", "2", "--rules", "arnold", "--moves", moves).exit_code == 0


def test_a_cut_graph_says_its_figures_are_bounds_and_holds_the_solvers_win(tmp_path: Path) -> None:
    data = analyze_json("monte-carlo", "1", "--max-states", "50")
    assert data["complete"] is False and data["solver_verdict"] == "won"
    assert 50 <= data["states"] <= 50 + len(data["shortest_win"])
    low, high = data["random_player"]["range"]
    assert 0 < low <= high <= 1 and data["random_player"]["value"] is None  # the line is a way to win
    assert data["critical_decisions"] == []
    guess = data["random_player"]["playouts"]
    assert guess["games"] == 2000 and low <= guess["low"] <= guess["value"] <= guess["high"] <= high
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(data["shortest_win"]) + "\n")
    assert run("verify", "monte-carlo", "1", "--moves", moves).exit_code == 0
    lines = run("analyze", "monte-carlo", "1", "--max-states", "50", "--playouts", "100").stdout.splitlines()
    assert lines[0].endswith("game 1: the state graph was cut at 50 states (--max-states): counts are lower bounds, odds are ranges")
    assert any(re.match(r"random player wins: between [\d.]+% and [\d.]+%; about [\d.]+% in 100 games played out", x) for x in lines)
    assert "solver:             wins the deal; its line is in the graph" in lines
    assert f"shortest win:       {len(data['shortest_win'])} moves (the shortest found)" in lines


@pytest.mark.parametrize(
    "deal",
    [("monte-carlo", "1"), ("monte-carlo", "12345", "--rules", "2decks"), ("matrimony", "2"), ("matrimony", "1")],
)
def test_a_cut_graph_of_a_deal_the_solver_wins_shows_a_win(deal: tuple[str, ...]) -> None:
    data = analyze_json(*deal, "--max-states", "20", "--playouts", "10")
    assert data["complete"] is False and data["solver_verdict"] == "won"
    assert data["shortest_win"] and data["won_states"] >= 1 and data["winning_states"] >= 2
    assert data["random_player"]["range"][0] > 0


def test_a_cut_graph_of_a_lost_deal_gives_every_player_nothing() -> None:
    assert run("solve", "monte-carlo", "5", "--rules", "weddings").exit_code == 1  # lost
    data = analyze_json("monte-carlo", "5", "--rules", "weddings", "--max-states", "3")
    assert data["complete"] is False and data["solver_verdict"] == "lost"
    for player in ("random_player", "greedy_player"):
        assert data[player] == {"exact": "0", "value": 0.0}  # proved: no playouts
    assert data["shortest_win"] == [] and data["won_states"] == 0
    lines = run("analyze", "monte-carlo", "5", "--rules", "weddings", "--max-states", "3").stdout.splitlines()
    assert "solver:             proves the deal lost: no player wins it" in lines
    assert "shortest win:       none" in lines


def test_a_cut_graph_of_a_deal_the_solver_does_not_decide_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(luck, "_solve_first", lambda start, time_limit: (luck.Verdict.UNKNOWN, [], []))
    lines = run("analyze", "monte-carlo", "1", "--max-states", "20", "--playouts", "10").stdout.splitlines()
    assert "solver:             did not decide the deal within the time limit" in lines
    assert "shortest win:       none found" in lines


def test_the_solver_goes_first_with_the_whole_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    given = []
    real = luck._solve_first
    monkeypatch.setattr(luck, "_solve_first", lambda start, time_limit: given.append(time_limit) or real(start, time_limit))
    run("analyze", "matrimony", "2", "--time-limit", "77", "--max-states", "20", "--playouts", "10")
    assert len(given) == 1 and 76 < given[0] <= 77


@pytest.mark.parametrize("export", [None, "--dot", "--graphml"])
def test_an_export_keeps_the_graph_small_unless_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, export: str | None) -> None:
    """A whole compiled graph can hold millions of states, each edge's moves found again in
    Python for an export: exports get pure Python's 10,000 unless --max-states says."""
    given = []
    real = luck.analyze
    monkeypatch.setattr(cli_analyze, "analyze", lambda *a, **k: given.append(k["max_states"]) or real(*a, **k))
    target = [export, str(tmp_path / "g")] if export else []
    for more in ([], ["--max-states", "17"]):
        assert run("analyze", *SMALL, *target, *more).exit_code == 0
    assert given == (["auto", 17] if export is None else [luck.DEFAULT_MAX_STATES, 17])


def test_exports_carry_the_node_attributes(tmp_path: Path) -> None:
    graphml, dot = tmp_path / "g.graphml", tmp_path / "g.dot"  # a picture carries no attributes: test_pictures.py
    result = run("analyze", *SMALL, "--graphml", graphml, "--dot", dot)
    assert result.exit_code == 0, result.stderr
    data = analyze_json(*SMALL)
    graph = nx.read_graphml(graphml)
    assert graph.number_of_nodes() == data["states"] and graph.number_of_edges() == data["edges"]
    attrs = [a for _, a in graph.nodes(data=True)]
    assert sum(a["won"] for a in attrs) == data["won_states"]
    assert sum(a["dead_end"] for a in attrs) == data["dead_ends"]
    assert sum(a["can_win"] for a in attrs) == data["winning_states"]
    assert sum(a["on_shortest_win"] for a in attrs) >= 2
    moves = {a["move"] for _, _, a in graph.edges(data=True)}
    assert all(moves)
    text = dot.read_text()
    assert text.startswith("digraph wedlock {") and text.rstrip().endswith("}")
    assert text.count(" -> ") == data["edges"]
    assert text.count("fillcolor=gold") == data["won_states"]


def test_graphml_booleans_are_graphml_booleans(tmp_path: Path) -> None:
    run("analyze", *SMALL, "--graphml", tmp_path / "g.graphml")
    values = re.findall(r'<data key="(\w+)">([^<]*)</data>', (tmp_path / "g.graphml").read_text())
    kinds = dict(re.findall(r'<key id="(\w+)" for="node" attr.name="\w+" attr.type="(\w+)"', (tmp_path / "g.graphml").read_text()))
    booleans = {text for key, text in values if kinds.get(key) == "boolean"}
    assert booleans == {"true", "false"}


@pytest.mark.slow  # three whole pictures (test_pictures.py draws them in the quick tier)
def test_png_is_written_where_asked_whatever_the_name_ends_in(tmp_path: Path) -> None:
    for name in ("picture", "g.xyz", "g."):
        result = run("analyze", *SMALL, "--png", tmp_path / name)
        assert result.exit_code == 0, result.stderr
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.", "g.xyz", "picture"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("option", first_quick(["--dot", "--graphml", "--png"], keep=2))  # a picture takes seconds
def test_an_export_the_disk_refuses_names_its_file_after_the_text(option: str) -> None:
    result = run("analyze", *SMALL, option, "/dev/full")
    assert result.exit_code == 5
    assert result.stdout.startswith("# Monte Carlo, strict, game 2: the whole state graph\n")
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: cannot write /dev/full") and "No space left" in line


@pytest.mark.parametrize("option", ["--dot", "--graphml", "--png"])
def test_an_empty_export_name_is_bad_input(option: str) -> None:
    assert_bad_input(run("analyze", *SMALL, option, ""), option, "cannot be empty")


@pytest.mark.parametrize("number", ["0", "-3", "abc", "ms0"])
def test_bad_game_numbers_are_one_line(number: str) -> None:
    assert_bad_input(run("analyze", "monte-carlo", number), number.lstrip("-") or number)


def test_an_export_into_no_folder_is_refused_before_the_work(tmp_path: Path) -> None:
    assert_bad_input(run("analyze", *SMALL, "--dot", tmp_path / "missing" / "g.dot"), "cannot write", "missing")


# --- batch --analyze and stats ------------------------------------------------------------


def batch_lines(tmp_path: Path, *args: object) -> list[dict]:
    out = tmp_path / "luck.jsonl"
    result = run("batch", "monte-carlo", "1-8", "--rules", "strict", "--jobs", "1", "--quiet", "--out", out, *args)
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_batch_analyze_adds_the_exact_odds_of_small_graphs(tmp_path: Path) -> None:
    lines = batch_lines(tmp_path, "--analyze")
    assert len(lines) == 8
    for line in lines:
        luck = line["analysis"]
        assert luck["complete"] is True and luck["playouts"] == 0
        # A deal can be won exactly when a player picking at random sometimes wins it.
        assert (line["verdict"] == "won") == (luck["random"]["value"] > 0)
        single = analyze_json("monte-carlo", line["game_number"], "--rules", "strict")
        for who in ("random", "greedy"):
            odds = luck[who]
            assert odds["low"] == odds["value"] == odds["high"] == single[f"{who}_player"]["value"]
        assert luck["states"] == single["states"]


def test_batch_analyze_plays_out_big_graphs_within_the_proven_bounds(tmp_path: Path) -> None:
    out = tmp_path / "cut.jsonl"
    args = ("--jobs", "1", "--quiet", "--analyze", "--analyze-states", "30", "--playouts", "300")
    result = run("batch", "monte-carlo", "7", "--out", out, *args)
    assert result.exit_code == 0, result.stderr
    luck = json.loads(out.read_text())["analysis"]
    exact = analyze_json("monte-carlo", "7", "--max-states", "20000")  # game 7's whole graph
    assert luck["complete"] is False and luck["playouts"] == 300
    for who in ("random", "greedy"):
        truth = float(Fraction(exact[f"{who}_player"]["exact"]))
        odds = luck[who]
        assert odds["low"] <= odds["value"] <= odds["high"]
        assert odds["low"] - 0.02 <= truth <= odds["high"] + 0.02  # a 95% interval, with slack
    # The same seed gives the same playouts.
    again = tmp_path / "again.jsonl"
    assert run("batch", "monte-carlo", "7", "--out", again, *args).exit_code == 0
    assert json.loads(again.read_text())["analysis"]["random"] == luck["random"]


def test_stats_puts_the_players_next_to_perfect_play(tmp_path: Path) -> None:
    lines = batch_lines(tmp_path, "--analyze")
    result = run("stats", tmp_path / "luck.jsonl")
    assert result.exit_code == 0, result.stderr
    header, _, row = result.stdout.splitlines()
    assert header.endswith("| analysed | random player | greedy player |")
    random_mean = sum(line["analysis"]["random"]["value"] for line in lines) / len(lines)
    greedy_mean = sum(line["analysis"]["greedy"]["value"] for line in lines) / len(lines)
    assert row.endswith(f"| 8 (8 exact) | {100 * random_mean:.2f}% | {100 * greedy_mean:.2f}% |")
    data = json.loads(run("stats", tmp_path / "luck.jsonl", "--json").stdout)[0]
    assert data["analysed"] == 8 and abs(data["random"] - random_mean) < 1e-12 and data["random_margin"] == 0


def test_stats_gives_a_margin_when_odds_were_played_out(tmp_path: Path) -> None:
    out = tmp_path / "cut.jsonl"
    args = ("--jobs", "1", "--quiet", "--analyze", "--analyze-states", "20", "--playouts", "200")
    assert run("batch", "monte-carlo", "1-2", "--out", out, *args).exit_code == 0
    row = run("stats", out).stdout.splitlines()[2]
    assert re.search(r"\| 2 \(0 exact\) \| [\d.]+% ± [\d.]+% \| [\d.]+% ± [\d.]+% \|$", row), row


def test_stats_rejects_a_malformed_analysis_with_its_line_number(tmp_path: Path) -> None:
    lines = batch_lines(tmp_path, "--analyze")
    lines[3]["analysis"]["random"] = {"value": 0.5}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert_bad_input(run("stats", bad), "line 4", "analysis")

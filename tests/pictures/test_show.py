"""`solve --html` and `show`, without a browser: the page carries the referee's positions of
the line it plays, and bad input is one line before any work. tests/pictures/test_page.py opens the
pages in a browser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import wedlock
from tests.cli.test_cli import assert_bad_input, numbered_moves, run


def page_data(path: Path) -> dict:
    """The JSON the page plays back."""
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', path.read_text(encoding="utf-8"), re.S)
    assert found, "the page holds no data"
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_solve_html_writes_the_line_and_leaves_the_text_alone(tmp_path: Path) -> None:
    path = tmp_path / "win.html"
    plain = run("solve", "matrimony", "2", "--rules", "arnold")
    paged = run("solve", "matrimony", "2", "--rules", "arnold", "--html", path)
    assert paged.exit_code == plain.exit_code == 0
    assert paged.stdout.splitlines()[2:] == plain.stdout.splitlines()[2:]  # the header holds the time
    data = page_data(path)
    assert (data["game"], data["rules"], data["game_number"]) == ("matrimony", "arnold", "2")
    assert data["moves"] == numbered_moves(plain.stdout)
    assert len(data["positions"]) == len(data["moves"]) + 1 == len(data["touches"]) + 1
    result = wedlock.solve("matrimony", 2, rules="arnold")
    game, rules = result.deal.game, result.deal.rules
    seen = game.opening(rules, result.deal.cards)
    for n, move in enumerate(result.moves.raw()):
        assert data["positions"][n] == json.loads(json.dumps(game.layout(rules, seen))), f"position {n}"
        seen = game.after(rules, seen, move)
    last = data["positions"][-1]
    assert not any(last["piles"]) and last["stock"] == 0  # every card is on a foundation


def test_a_lost_deal_makes_a_page_of_the_deal_alone(tmp_path: Path) -> None:
    path = tmp_path / "lost.html"
    assert run("solve", "monte-carlo", "5", "--rules", "weddings", "--html", path).exit_code == 1
    data = page_data(path)
    assert data["moves"] == [] and len(data["positions"]) == 1
    assert [c for c in data["positions"][0]["cells"] if c] == [str(c) for c in wedlock.deal("monte-carlo", 5, rules="weddings").cards[:25]]


def test_show_plays_back_a_solve_file_and_a_partial_line(tmp_path: Path) -> None:
    moves = tmp_path / "win.txt"
    moves.write_text(run("solve", "monte-carlo", "12345").stdout)
    page = tmp_path / "show.html"
    shown = run("show", moves, "--html", page)
    assert shown.exit_code == 0, shown.stderr
    count = len(numbered_moves(moves.read_text()))
    assert shown.stdout == f"{page}: Monte Carlo (PySolFC), game 12345, a legal win: {count} moves\n"
    solved = tmp_path / "solved.html"
    run("solve", "monte-carlo", "12345", "--html", solved)
    assert page_data(page)["positions"] == page_data(solved)["positions"]
    first = tmp_path / "ten.txt"
    first.write_text("\n".join(moves.read_text().splitlines()[:12]))  # the header and ten moves
    partial = run("show", first, "--html", page)
    assert partial.exit_code == 0 and partial.stdout.endswith("not a win: 10 moves\n")
    assert len(page_data(page)["positions"]) == 11


def test_show_starts_after_moves_already_played(tmp_path: Path) -> None:
    played = tmp_path / "played.txt"
    played.write_text("\n".join(run("solve", "monte-carlo", "12345").stdout.splitlines()[2:12]))
    rest = tmp_path / "rest.json"
    rest.write_text(run("solve", "monte-carlo", "12345", "--after", played, "--json").stdout)
    page = tmp_path / "rest.html"
    shown = run("show", rest, "--html", page, "--after", played)
    assert shown.exit_code == 0 and "after 10 moves, a legal win" in shown.stdout
    there = wedlock.position("monte-carlo", 12345, after=played.read_text())
    assert page_data(page)["positions"][0] == json.loads(json.dumps(there.deal.game.layout(there.deal.rules, there.seen)))
    assert len(page_data(page)["positions"]) == len(json.loads(rest.read_text())["moves"]) + 1


def test_show_refuses_what_it_cannot_play(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    lost = tmp_path / "lost.json"
    lost.write_text(run("batch", "monte-carlo", "5", "--rules", "weddings", "--solutions", "--quiet").stdout)
    assert_bad_input(run("show", lost, "--html", page), "holds no moves")
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("# Monte Carlo (PySolFC), game 12345\n1. A1 QC + E5 2C\n")
    assert_bad_input(run("show", wrong, "--html", page), str(wrong))
    bare = tmp_path / "bare.txt"
    bare.write_text("consolidate\n")
    assert_bad_input(run("show", bare, "--html", page), "which game", "--game")
    assert_bad_input(run("show", bare, "--html", page, "--game", "monte-carlo"), "which deal", "--number")
    assert_bad_input(run("show", tmp_path / "none.txt", "--html", page), "none.txt")
    assert not page.exists()


def test_a_page_that_cannot_be_written_is_refused_before_the_search(tmp_path: Path) -> None:
    nowhere = tmp_path / "no" / "such" / "win.html"
    assert_bad_input(run("solve", "matrimony", "1", "--html", nowhere), "no folder")
    assert_bad_input(run("solve", "matrimony", "1", "--html", tmp_path), "is a directory")
    moves = tmp_path / "m.txt"
    moves.write_text(run("solve", "monte-carlo", "1").stdout)
    assert_bad_input(run("show", moves, "--html", nowhere), "no folder")


def test_the_page_asks_for_nothing_outside_itself(tmp_path: Path) -> None:
    path = tmp_path / "win.html"
    run("solve", "monte-carlo", "12345", "--html", path)
    text = path.read_text(encoding="utf-8")
    assert "default-src 'none'" in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)
    assert "http://www.w3.org/2000/svg" in text  # the SVG namespace: a name, never fetched


def test_a_whole_results_file_is_named_first_not_the_game_or_number_it_lacks(tmp_path: Path) -> None:
    lines = tmp_path / "all.jsonl"
    lines.write_text(run("batch", "monte-carlo", "1-4", "--solutions", "--quiet", "--jobs", "1").stdout)
    page = tmp_path / "p.html"
    for extra in ([], ["--game", "monte-carlo"], ["--game", "monte-carlo", "--number", "1"]):
        assert_bad_input(run("show", lines, "--html", page, *extra), str(lines), "several JSON lines", "one line")
    assert not page.exists()

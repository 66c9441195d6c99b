"""The command line and PySolFC's saved games: --pysolfc-save on the commands that start
from a position, and solve --pysolfc-out."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import wedlock
from tests.cli.test_cli import assert_bad_input, run
from tests.pysolfc.test_pysolfc_saves import DATA, MADE, history_moves, made
from wedlock.pysolfc import saves

FULL = Path("/dev/full")


def moves_file(tmp_path: Path, entry: dict) -> Path:
    """The moves a shipped save's game played, as a moves file for --after."""
    path = tmp_path / f"{entry['file']}.txt"
    path.write_text("".join(f"{m}\n" for m in entry["played"]), encoding="utf-8")
    return path


def timeless(stdout: str) -> list[str]:
    """The lines of an answer after its header, with the seconds a search took left out."""
    return [re.sub(r"[0-9][0-9,]*\.[0-9]+ s\b", "... s", line) for line in stdout.splitlines()[1:]]


def number_args(entry: dict) -> list[str]:
    return [entry["game"], str(entry["number"]), "--rules", entry["rules"]]


def test_hint_from_a_saved_game_says_what_hint_after_its_moves_says(tmp_path: Path) -> None:
    entry = made("matrimony-mid.pso")
    saved = run("hint", "matrimony", "--pysolfc-save", DATA / "matrimony-mid.pso")
    after = run("hint", "matrimony", "1", "--after", moves_file(tmp_path, entry))
    assert saved.exit_code == after.exit_code == 0
    assert saved.stdout.splitlines()[0] == f"# Matrimony (PySolFC), game 1, saved in {DATA / 'matrimony-mid.pso'} after 18 moves"
    assert after.stdout.splitlines()[0] == "# Matrimony (PySolFC), game 1, after 18 moves"
    assert timeless(saved.stdout) == timeless(after.stdout) and len(saved.stdout.splitlines()) > 3


@pytest.mark.parametrize("entry", MADE, ids=[e["file"] for e in MADE])
def test_deal_and_solve_from_each_saved_game_match_the_moves_it_played(tmp_path: Path, entry: dict) -> None:
    save = DATA / entry["file"]
    for command in (["deal", "--position-out"], ["deal", "--json"], ["solve"]):
        saved = run(command[0], "--pysolfc-save", save, *command[1:])
        after = run(command[0], *number_args(entry), "--after", moves_file(tmp_path, entry), *command[1:])
        assert saved.exit_code == after.exit_code, saved.stderr
        if "--json" in command:
            assert json.loads(saved.stdout) == json.loads(after.stdout)
        else:
            assert timeless(saved.stdout) == timeless(after.stdout)


def test_analyze_play_verify_and_show_start_from_a_saved_game(tmp_path: Path) -> None:
    entry = made("monte-carlo-mid.pso")
    save, moves = DATA / entry["file"], moves_file(tmp_path, entry)
    for command in (["analyze", "--playouts", "10"], ["play", "--player", "greedy"]):
        saved = run(command[0], "--pysolfc-save", save, *command[1:])
        after = run(command[0], *number_args(entry), "--after", moves, *command[1:])
        assert saved.exit_code == after.exit_code and timeless(saved.stdout) == timeless(after.stdout)
    win = tmp_path / "win.txt"
    win.write_text(run("solve", "--pysolfc-save", save).stdout, encoding="utf-8")
    verified = run("verify", "--pysolfc-save", save, "--moves", win)
    assert verified.exit_code == 0 and verified.stdout.startswith("legal win of Monte Carlo (PySolFC), game 12345, saved in")
    assert run("verify", "--pysolfc-save", DATA / "weddings-mid.pso", "--moves", win).exit_code == 2  # moves of another game
    page = tmp_path / "win.html"
    shown = run("show", win, "--pysolfc-save", save, "--html", page)
    assert shown.exit_code == 0 and shown.stdout.endswith("a legal win: 33 moves\n") and page.stat().st_size > 1000
    played = run("show", "--pysolfc-save", save, "--html", page)  # the saved game's own moves, from its deal
    assert played.exit_code == 0 and played.stdout.endswith(", not a win: 10 moves\n")
    assert_bad_input(run("show", "--html", page), "Missing argument 'MOVES_FILE'")


def test_a_saved_game_may_go_on_with_more_moves(tmp_path: Path) -> None:
    line = run("solve", "--pysolfc-save", DATA / "matrimony-redealt.pso").stdout.splitlines()
    more = tmp_path / "more.txt"
    more.write_text(line[2].split(". ", 1)[1] + "\n", encoding="utf-8")
    result = run("deal", "--pysolfc-save", DATA / "matrimony-redealt.pso", "--after", more)
    assert result.exit_code == 0 and result.stdout.startswith(f"# Matrimony (PySolFC), game 1, saved in {DATA / 'matrimony-redealt.pso'} after 42 moves, then 1 move\n")


def test_a_saved_game_from_stdin(tmp_path: Path) -> None:
    from tests.cli.test_cli import RUNNER
    from wedlock.cli.main import cli

    data = (DATA / "weddings-consolidated.pso").read_bytes()
    result = RUNNER.invoke(cli, ["deal", "--pysolfc-save", "-"], input=data, prog_name="wedlock")
    assert result.exit_code == 0 and result.stdout.startswith("# Weddings (PySolFC), game 39919, saved in stdin after 6 moves\n")


def test_what_is_given_beside_a_saved_game_must_agree_with_it(tmp_path: Path) -> None:
    save = DATA / "weddings-mid.pso"
    assert run("deal", "monte-carlo", "39919", "--rules", "Weddings", "--pysolfc-save", save).exit_code == 0
    assert_bad_input(run("deal", "matrimony", "--pysolfc-save", save), "the saved game is of Weddings (PySolFC), not of matrimony")
    assert_bad_input(run("deal", "monte-carlo", "7", "--pysolfc-save", save), "the saved game is game 39919, not that deal")
    assert_bad_input(run("deal", "monte-carlo", "--rules", "pysol", "--pysolfc-save", save), "not of its rules 'pysol'")
    assert_bad_input(run("deal", "monte-carlo", "--deal-file", save, "--pysolfc-save", save), "give --pysolfc-save or --deal-file, not both")
    assert_bad_input(run("solve", "monte-carlo", "--position", save, "--pysolfc-save", save), "give --pysolfc-save or --position, not both")
    assert_bad_input(run("hint", "--pysolfc-save", tmp_path / "none.pso"), "none.pso", "No such file")
    assert_bad_input(run("solve"), "Missing argument 'GAME' (or give --pysolfc-save FILE")


def test_a_damaged_or_crafted_save_is_one_line_and_exit_2(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.pso"
    damaged.write_bytes((DATA / "matrimony-mid.pso").read_bytes()[:-40])
    assert_bad_input(run("hint", "--pysolfc-save", damaged), "damaged.pso': damaged")
    marker = tmp_path / "ran"
    crafted = tmp_path / "crafted.pso"
    crafted.write_bytes(b"\x80\x04\x8c\x02os\x8c\x06system\x93\x8c" + bytes([len(f"touch {marker}")]) + f"touch {marker}".encode() + b"\x85R.")
    assert_bad_input(run("solve", "--pysolfc-save", crafted), "names os.system")
    assert not marker.exists()
    other = tmp_path / "klondike.pso"
    other.write_bytes((DATA / "monte-carlo-start.pso").read_bytes().replace(b"\x80\x05KY.", b"\x80\x05K\x02.", 1))
    assert_bad_input(run("deal", "--pysolfc-save", other), "a save of PySolFC's game 2; wedlock reads its games Monte Carlo (89)")


@pytest.mark.parametrize(("game", "number", "rules"), [("monte-carlo", 12345, "pysol"), ("monte-carlo", 929, "weddings"), ("monte-carlo", 123456, "2decks"), ("matrimony", 1, "pysol")])
def test_solve_writes_the_win_as_a_pysolfc_save(tmp_path: Path, game: str, number: int, rules: str) -> None:
    out = tmp_path / "win.pso"
    result = run("solve", game, number, "--rules", rules, "--pysolfc-out", out)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"{out} written: open it in PySolFC (File > Open), and Redo plays the win a move at a time\n"
    moves = [line.split(". ", 1)[1] for line in result.stdout.splitlines()[2:]]
    read = saves.read(out)
    assert (read.index, len(read.history), read.names, str(read.number)) == (0, len(moves), (game, rules), str(number))
    assert history_moves(out.read_bytes()) == moves
    again = run("solve", "--pysolfc-save", out)  # the save reads back as the deal
    assert again.stdout.splitlines()[2:] == result.stdout.splitlines()[2:]
    assert [p.name for p in tmp_path.iterdir()] == ["win.pso"]  # no temporary left behind


def test_solve_writes_the_win_from_a_game_under_way(tmp_path: Path) -> None:
    entry = made("monte-carlo-2decks-mid.pso")
    after = moves_file(tmp_path, entry)
    typed = tmp_path / "typed.txt"
    typed.write_text(run("deal", *number_args(entry), "--after", after, "--position-out").stdout, encoding="utf-8")
    for start in (["--after", after], ["--position", typed], ["--pysolfc-save", DATA / entry["file"]]):
        out = tmp_path / "win.pso"
        result = run("solve", *number_args(entry), *start, "--pysolfc-out", out)
        assert result.exit_code == 0, result.stderr
        back = run("deal", "--pysolfc-save", out, "--position-out")
        assert back.stdout.startswith(f"# Monte Carlo, 2 decks (PySolFC), game 123456, the position saved in {out}\n")
        assert back.stdout.splitlines()[1:] == typed.read_text(encoding="utf-8").splitlines()[1:]
        assert len(saves.read(out).history) == len(result.stdout.splitlines()) - 2


def test_a_lost_or_unknown_deal_writes_no_save(tmp_path: Path) -> None:
    out = tmp_path / "none.pso"
    lost = run("solve", "monte-carlo", "10", "--pysolfc-out", out)
    assert lost.exit_code == 1 and "# lost" in lost.stdout
    assert lost.stderr == f"{out} not written: PySolFC's save holds a win, and this deal is lost.\n"
    unknown = run("solve", "matrimony", "2", "--node-limit", "1", "--pysolfc-out", out)
    assert unknown.exit_code == 3 and unknown.stderr.endswith("this deal is unknown.\n") and len(unknown.stderr.splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_save_pysolfc_could_not_open_is_refused_before_any_search(tmp_path: Path) -> None:
    out = tmp_path / "x.pso"
    assert_bad_input(run("solve", "monte-carlo", "3", "--rules", "strict", "--pysolfc-out", out), "PySolFC has no game with the rules of Monte Carlo, strict")
    deal_file = tmp_path / "deal.txt"
    deal_file.write_text(" ".join(str(c) for c in wedlock.deal("monte-carlo", 5).cards), encoding="utf-8")
    assert_bad_input(run("solve", "monte-carlo", "--deal-file", deal_file, "--pysolfc-out", out), "given card by card")
    assert_bad_input(run("solve", "monte-carlo", "5", "--pysolfc-out", tmp_path / "no" / "x.pso"), "there is no folder")
    assert not out.exists()


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
def test_a_save_that_cannot_be_written_is_exit_5_and_the_answer_stands() -> None:
    plain = run("solve", "monte-carlo", "12345")
    result = run("solve", "monte-carlo", "12345", "--pysolfc-out", FULL)
    assert result.exit_code == 5 and result.stdout.splitlines()[2:] == plain.stdout.splitlines()[2:]  # the moves
    assert result.stderr == "Error: cannot write /dev/full: No space left on device\n"

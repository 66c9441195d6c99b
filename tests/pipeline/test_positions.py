"""Games under way: positions after moves, typed from the screen, and hints from them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import wedlock
from tests.cli.test_cli import assert_bad_input, run
from tests.tiers import first_quick
from wedlock.basics.errors import IllegalMoveError, PositionError
from wedlock.games.plain_space import PlainSpace
from wedlock.games.registry import GAMES
from wedlock.pipeline.positions import played
from wedlock.playing.hints import KEEPS, LOSES, UNKNOWN
from wedlock.search.exhaustive import LOST, WON, Limits, solve

RULE_SETS = [(g.name, r) for g in GAMES.values() for r in g.rule_sets]


def random_line_position(game: str, rules: str, number: int, seed: int, most: int = 400) -> wedlock.Position:
    """A position after a random number of random legal choices from the deal's opening."""
    rng = random.Random(seed)
    start = wedlock.position(game, number, rules)
    chosen = start.deal
    for _ in range(rng.randrange(most)):
        options = chosen.game.choices(chosen.rules, chosen.cards, start.seen)
        if not options:
            break
        start = played(start, list(rng.choice(options)))
    return start


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULE_SETS), st.integers(1, 400), st.integers(0, 10**6))
@example(("matrimony", "pysol"), 1, 999)  # J♦ shifted off its own foundation, which stands empty
def test_a_position_read_back_from_its_text_is_the_same_position(pair, number, seed) -> None:
    game, rules = pair
    reached = random_line_position(game, rules, number, seed, most=60 if game == "matrimony" else 40)
    typed = wedlock.position(game, number, rules, text=reached.text())
    chosen = reached.deal
    assert chosen.game.same_position(chosen.rules, chosen.cards, typed.seen, reached.seen)
    # and the solver sees one position: the same verdict from both
    limits = {"time_limit": 0.5, "max_states": 20_000}
    verdicts = {wedlock.solve(game, typed, **limits).verdict, wedlock.solve(game, reached, **limits).verdict}
    assert len(verdicts - {wedlock.Verdict.UNKNOWN}) <= 1, verdicts  # a limit may cut either search short


def test_the_board_and_the_typed_form_show_the_same_cards() -> None:
    p = wedlock.position("monte-carlo", 77, after=wedlock.solve("monte-carlo", 77).moves[:6])
    board, typed = p.board().splitlines(), p.text().splitlines()
    assert board[:-1] == typed[:-1]  # the grid
    assert typed[-1] == f"  stock ({len(p.seen.stock)})" and board[-1].startswith(typed[-1] + ": ")


@pytest.mark.parametrize(
    "grid, says",
    [
        ("A  QC TS QD 7H 6C\nB  QH 4S 4D 9C 4C\nC  2S JC AS 3D 9H\nD  5C 2H 8S TD 6H\nE  3H 5D 5H AD KS", "KS is on the grid, but it is still in the stock"),
        ("A  -- -- QD 7H 6C\nB  QH 4S 4D 9C 4C\nC  2S JC AS 3D 9H\nD  5C 2H 8S TD 6H\nE  3H 5D 5H AD 2C", "cards leave in pairs"),
        ("A  -- TS QD 7H 6C\nB  -- 4S 4D 9C 4C\nC  2S JC AS 3D 9H\nD  5C 2H 8S TD 6H\nE  3H 5D 5H AD 2C\nstock (30)", "30 cards in the stock"),
        ("A  QC TS QD 7H 6C\nB  QH 4S 4D 9C 4C\nC  2S JC AS 3D 9H", "no row D, E"),
        ("A  QC TS QD 7H\nB  QH 4S 4D 9C 4C", "a row holds 5 cells, not 4"),
        ("A  QC TS QD 7H XX", "'XX' is neither a card nor --"),
    ],
)
def test_a_monte_carlo_position_that_cannot_arise_says_why(grid: str, says: str) -> None:
    with pytest.raises(PositionError, match=says):
        wedlock.position("monte-carlo", 12345, text=grid)


def test_a_grid_that_fits_several_stock_counts_needs_the_count() -> None:
    from wedlock.games.montecarlo.seen import stock_counts

    rng = random.Random(11)
    for _ in range(2000):
        p = random_line_position("monte-carlo", "pysol", rng.randrange(1, 10**6), rng.randrange(10**6), most=60)
        chosen = p.deal
        fits = stock_counts(chosen.rules, chosen.cards, p.seen.grid)
        if len(fits) > 1:
            break
    else:
        pytest.fail("no grid with several possible stock counts came up")
    grid_only = "\n".join(p.text().splitlines()[:-1])
    with pytest.raises(PositionError, match="fits stock counts .*give the count PySolFC shows"):
        wedlock.position("monte-carlo", chosen.number, text=grid_only)
    assert wedlock.position("monte-carlo", chosen.number, text=p.text()).seen.stock == p.seen.stock


def test_a_grid_out_of_dealing_order_cannot_arise_under_sliding_rules() -> None:
    text = wedlock.position("monte-carlo", 12345).text().replace("QC  TS", "TS  QC", 1)
    with pytest.raises(PositionError, match="lies after .* but was dealt before it"):
        wedlock.position("monte-carlo", 12345, text=text)


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda t: t.replace("stock (86)", "stock (80)"), "a stock of 80 cards cannot arise"),
        (lambda t: t.replace(" 1: 3D", " 1: 3D 3D"), "holds 3 of 3D"),
        (lambda t: t.replace("F2 J♠ down: --", "F2 J♠ down: 5H"), "F2 .* takes no 5H"),
        (lambda t: t.replace(" 2: 5H\n", ""), "no pile 2"),
        (lambda t: t.replace(" 1: 3D", " 1: 5H").replace(" 2: 5H", " 2: 3D"), "pile 1 holds 5H, which the deal never gave it"),
    ],
)
def test_a_matrimony_position_that_cannot_arise_says_why(change, says: str) -> None:
    text = wedlock.position("matrimony", 1).text()
    with pytest.raises(PositionError, match=says):
        wedlock.position("matrimony", 1, text=change(text))


def test_after_an_illegal_move_names_it() -> None:
    with pytest.raises(IllegalMoveError, match=r"move 2 \(A1 QC \+ B1 QH\): A1 is empty"):
        wedlock.position("monte-carlo", 12345, after=["A1 QC + B1 QH", "A1 QC + B1 QH"])


@pytest.mark.parametrize("game, rules, number", [("monte-carlo", "pysol", 12345), ("matrimony", "arnold", 2), ("matrimony", "pysol", 1)])
def test_after_the_whole_winning_line_the_game_is_won_and_needs_no_move(game: str, rules: str, number: int) -> None:
    line = wedlock.solve(game, number, rules).moves
    end = wedlock.position(game, number, rules, after=line)
    assert end.seen.cards_left() == 0
    found = wedlock.hint(game, end)
    assert (found.verdict, len(found.line), found.choices, len(found.next)) == (WON, 0, (), 0)
    assert wedlock.solve(game, end).verdict == WON


def exhaustive(position: wedlock.Position, states: int) -> str | None:
    """The plain search's verdict (single moves, no reduction) from a position, or None
    when it would take more than `states` states."""
    chosen = position.deal
    table = chosen.game.player(chosen.rules, chosen.cards, position.seen).table
    start = chosen.game.player(chosen.rules, chosen.cards, position.seen).start()
    out = solve(PlainSpace(table, start), Limits(max_states=states, first_pass=None))
    return None if out.verdict == "unknown" else out.verdict


@pytest.mark.slow
@pytest.mark.parametrize("game, rules", RULE_SETS)
def test_each_class_of_each_move_is_the_plain_searchs_verdict(game: str, rules: str) -> None:
    """Along random lines, late enough for the plain search to finish: a move that keeps
    the win leads where the plain search wins, one that loses where it proves a loss."""
    rng = random.Random(f"{game}/{rules}")
    checked = {KEEPS: 0, LOSES: 0}
    for _ in range(400):
        if sum(checked.values()) >= 12:
            break
        p = random_line_position(game, rules, rng.randrange(1, 5000), rng.randrange(10**6), most=400 if game == "matrimony" else 60)
        if game == "matrimony" and p.seen.redeals < 8:
            continue  # the plain search decides only the late rounds
        found = wedlock.hint(game, p, time_limit=5)
        for choice, cls in found.choices:
            if cls == UNKNOWN:
                continue
            child = played(p, choice.raw())
            truth = exhaustive(child, 60_000)
            if truth is None:
                continue
            assert truth == (WON if cls == KEEPS else LOST), (p.text(), choice.text(numbered=False), cls)
            checked[cls] += 1
        if found.verdict == WON:
            assert wedlock.verify(game, p, found.line).won
    assert sum(checked.values()) >= 5, checked


def test_a_lost_position_late_in_pysolfcs_matrimony_is_proven_by_the_exact_probe_before_any_playout() -> None:
    """The searches by playouts can only win; a lost position past most of its redeals is
    decided by the exact search's first states (quick_stages.PROBE_STATES) instead, and the
    plain search agrees."""
    from wedlock.games.matrimony.quick_stages import PROBE_STATES, QUICK_STAGES

    rng, proven = random.Random("late and lost"), 0
    while proven < 3:
        p = random_line_position("matrimony", "pysol", rng.randrange(1, 5000), rng.randrange(10**6), most=400)
        if p.seen.redeals < 8:
            continue
        told: list = []
        found = wedlock.solve("matrimony", p, time_limit=30, progress=lambda *call, told=told: told.append(call[2]))
        if found.verdict != LOST:
            continue
        assert told == [QUICK_STAGES[0].label, QUICK_STAGES[1].label] and QUICK_STAGES[1].kind == "exact"
        truth = exhaustive(p, 60_000)
        assert found.states <= PROBE_STATES and truth in (LOST, None)
        proven += truth == LOST


@pytest.mark.parametrize("rules", first_quick(["pysol", "weddings", "strict", "2decks"], keep=2))
def test_hints_from_positions_all_over_monte_carlo_replay(rules: str) -> None:
    """Positions anywhere in a game: inside a phase, with gaps waiting for the stock at the
    end of the grid, after the stock ran out. Every winning line a hint gives replays."""
    rng = random.Random(rules)
    for _ in range(60):
        p = random_line_position("monte-carlo", rules, rng.randrange(1, 2000), rng.randrange(10**6), most=50)
        found = wedlock.hint("monte-carlo", p, time_limit=10)
        if found.verdict == WON:
            assert wedlock.verify("monte-carlo", p, found.line).won


def test_a_typed_position_solves_and_verifies_like_the_moves_that_reach_it(tmp_path: Path) -> None:
    first = wedlock.solve("matrimony", 2, rules="arnold").moves[:30]
    reached = wedlock.position("matrimony", 2, "arnold", after=first)
    typed = wedlock.position("matrimony", 2, "arnold", text=reached.text())
    rest = wedlock.solve("matrimony", typed)
    assert rest.verdict == WON and wedlock.verify("matrimony", reached, rest.moves).won
    assert wedlock.verify("matrimony", 2, [*first, *rest.moves], rules="arnold").won


# --- the command line ---------------------------------------------------------------------


def first_moves(tmp_path: Path, game: str, number: str, count: int, *rules: str) -> Path:
    lines = run("solve", game, number, *rules).stdout.splitlines()
    path = tmp_path / "first.txt"
    path.write_text("\n".join(lines[: 2 + count]) + "\n")
    return path


def test_hint_after_ten_moves_prints_the_verdict_the_next_move_and_each_move(tmp_path: Path) -> None:
    moves = first_moves(tmp_path, "monte-carlo", "12345", 10)
    result = run("hint", "monte-carlo", "12345", "--after", moves)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "# Monte Carlo (PySolFC), game 12345, after 10 moves"
    assert lines[1].startswith("# won: a winning line from here has ")
    assert lines[2].startswith("next: ") and lines[3] == "moves:"
    assert all(line.rstrip().endswith(("keeps the win", "loses", "unknown", "(next)")) for line in lines[4:])
    data = json.loads(run("hint", "monte-carlo", "12345", "--after", moves, "--json").stdout)
    assert data["verdict"] == "won" and data["after"] == 10 and data["next"]["move"] == lines[2][len("next: ") :]
    assert {m["class"] for m in data["moves"]} <= {KEEPS, LOSES, UNKNOWN} and len(data["moves"]) == len(lines) - 4


@pytest.mark.parametrize("rules", ["arnold", "pysol"])
def test_hint_for_matrimony_after_moves_and_from_a_typed_position(tmp_path: Path, rules: str) -> None:
    moves = first_moves(tmp_path, "matrimony", "2", 40, "--rules", rules)
    after = run("hint", "matrimony", "2", "--rules", rules, "--after", moves, "--time-limit", "60")
    assert after.exit_code in (0, 1, 3) and after.stdout.startswith(f"# {wedlock.deal('matrimony', 2, rules).title}, game 2, after 40 moves")
    typed = tmp_path / "p.txt"
    typed.write_text(run("deal", "matrimony", "2", "--rules", rules, "--after", moves, "--position-out").stdout)
    by_text = run("hint", "matrimony", "--position", typed, "--time-limit", "60")  # game number and rules from its header
    assert by_text.exit_code == after.exit_code
    assert by_text.stdout.splitlines()[3:] == after.stdout.splitlines()[3:]  # the same moves, the same classes


def test_deal_position_out_reads_back_through_every_command(tmp_path: Path) -> None:
    moves = first_moves(tmp_path, "monte-carlo", "777", 6)
    typed = tmp_path / "p.txt"
    typed.write_text(run("deal", "monte-carlo", "777", "--after", moves, "--position-out").stdout)
    assert "stock (" in typed.read_text() and ": " not in typed.read_text().splitlines()[-1]
    solved = run("solve", "monte-carlo", "--position", typed)
    assert solved.exit_code in (0, 1) and "the position in" in solved.stdout.splitlines()[0]
    again = tmp_path / "again.txt"
    again.write_text(run("deal", "monte-carlo", "--position", typed, "--position-out").stdout)
    assert again.read_text().splitlines()[1:] == typed.read_text().splitlines()[1:]


def test_an_illegal_after_move_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("A1 QC + B1 QH\nA1 QC + B1 QH\n")
    for command in ("solve", "hint", "deal", "analyze", "verify"):
        extra = ["--moves", bad] if command == "verify" else []
        assert_bad_input(run(command, "monte-carlo", "12345", "--after", bad, *extra), "move 2 (A1 QC + B1 QH)", "empty")


STARTING_COMMANDS = ["solve", "hint", "deal", "analyze", "verify", "play"]  # show takes --after, not --position


@pytest.mark.parametrize("command, option", [(c, "--after") for c in [*STARTING_COMMANDS, "show"]] + [(c, "--position") for c in STARTING_COMMANDS])
def test_what_is_wrong_in_an_after_or_position_file_names_the_file(tmp_path: Path, command: str, option: str) -> None:
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("garbage here\n")
    won = tmp_path / "won.txt"
    won.write_text(run("solve", "monte-carlo", "1").stdout)
    extra = {"verify": ["--moves", won], "play": ["--player", "greedy"], "show": ["--html", tmp_path / "page.html"]}.get(command, [])
    where = [won, "--game", "monte-carlo", "--number", "1"] if command == "show" else ["monte-carlo", "1"]
    problem = {"--after": "line 1: not a cell: 'garbage' (write a row letter and a column number, like B3)", "--position": "line 1: expected a grid row"}[option]
    line = assert_bad_input(run(command, *where, option, garbage, *extra))
    assert line.startswith(f"Error: {garbage}: {problem}"), line


def test_hint_after_the_whole_winning_line_says_the_game_is_won(tmp_path: Path) -> None:
    line = tmp_path / "all.txt"
    line.write_text(run("solve", "monte-carlo", "12345").stdout)
    result = run("hint", "monte-carlo", "12345", "--after", line)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == ["# won: a winning line from here has 0 moves (0 states, " + result.stdout.splitlines()[1].split("(0 states, ")[1], "next: nothing: every card is out, the game is won"]


def test_solve_and_verify_after_moves_replay_from_there(tmp_path: Path) -> None:
    moves = first_moves(tmp_path, "monte-carlo", "12345", 10)
    rest = tmp_path / "rest.txt"
    rest.write_text(run("solve", "monte-carlo", "12345", "--after", moves).stdout)
    assert run("verify", "monte-carlo", "12345", "--after", moves, "--moves", rest).exit_code == 0
    assert run("verify", "monte-carlo", "12345", "--moves", rest).exit_code == 1  # not from the deal


def test_a_hint_cut_short_names_the_limit_the_caller_set() -> None:
    # Its own search has half the time: the answer still names the limit given.
    found = wedlock.hint("matrimony", 15, time_limit=0.4)
    assert found.verdict == "unknown" and found.reason == "time limit 0.4s reached", found.reason
    result = run("hint", "matrimony", "15", "--time-limit", "0.4")
    assert result.exit_code == 3 and "# unknown: time limit 0.4s reached" in result.stdout


def test_hint_tells_its_progress_a_search_at_a_time() -> None:
    told: list[tuple[int, int, str]] = []
    found = wedlock.hint("monte-carlo", 12345, progress=lambda *step: told.append(step))
    searched = [choice for choice, _ in found.choices if choice != found.next]
    assert told[0] == (0, len(found.choices) + 1, "the position")
    assert [label for _, _, label in told[1:]] == [f"the move {c.text(numbered=False)}" for c in searched]
    assert all(total == len(found.choices) + 1 for _, total, _ in told)

"""CliRunner tests of the `wedlock` commands: exit codes and the exact shape of their output.

The known deals below are copied from PySolFC's own deals (the golden vectors, PySolFC 3.6.1
run headless): the cards in dealing order, first dealt first. Solver verdicts pinned here
are regression values; every "won" is also replayed through `verify`.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tqdm._monitor import TMonitor

import wedlock
from wedlock.basics import compiled as core
from wedlock.cli.main import cli
from wedlock.games.registry import GAMES
from wedlock.search import state_graph as analysis

try:  # click < 8.2 mixes stderr into stdout unless told not to
    RUNNER = CliRunner(mix_stderr=False)
except TypeError:  # click >= 8.2 always keeps them apart
    RUNNER = CliRunner()

# PySolFC's Monte Carlo game #1 (Microsoft generator) and #32000 (Mersenne Twister).
GAME_1 = (
    "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C "
    "TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
).split()
GAME_32000 = (
    "7S 4D JS 8D 6D 3H 3D TH JC 3C 2C 5S 9D AC 9C 2S 4H 6S 8S 9S TS 9H KD QD 6H 7D "
    "5H QS AD QH TC 4C AH JD 4S JH TD 3S 7H 8C 6C 2H 2D 5D KS QC KH 5C 7C 8H KC AS"
).split()

GAME_1_TEXT = """\
# Monte Carlo (PySolFC), game 1
     1   2   3   4   5
  A  JD  2D  9H  JC  5D
  B  7H  7C  5H  KD  KC
  C  9S  5S  AD  QC  KH
  D  3H  2S  KS  9D  QD
  E  JS  AS  AH  3C  4C
  stock (27): 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
"""

WON_PYSOL = "1"  # won under pysol rules; its line starts "pair, consolidate"
LOST_PYSOL = "10"  # lost under pysol rules, and the proof takes hundreds of states

DEAL_KEYS = {"game", "rules", "title", "game_number", "cards"}
SOLVE_KEYS = {"game", "rules", "title", "game_number", "verdict", "moves", "states", "seconds", "version"}
ALL_CARDS = {r + s for r in "A23456789TJQK" for s in "CSHD"}
CARD = r"[A2-9TJQK][CSHD]"
CELL = r"[A-E][1-5]"
NUMBERED = re.compile(r"^(\d+)\. (.*)$")
MOVE_TEXT = re.compile(rf"^(?:{CELL} {CARD} \+ {CELL} {CARD}|{CELL} {CARD}|consolidate)$")


# --- helpers ------------------------------------------------------------------------------


def run(*args: object) -> Result:
    """Invoke `wedlock` with `args`; an exception other than a clean exit fails the test."""
    result = RUNNER.invoke(cli, [str(a) for a in args], prog_name="wedlock")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


def assert_bad_input(result: Result, *fragments: str) -> str:
    """Exit 2, nothing on stdout, exactly one non-empty line on stderr holding `fragments`."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def legal_win(stdout: str, moves: int) -> bool:
    """Whether `verify` said the moves are a legal win of `moves` moves (of some game)."""
    return re.fullmatch(rf"legal win of [^\n]+: {moves:,} moves?\n", stdout) is not None


def deal_json(*args: object) -> dict:
    result = run("deal", "monte-carlo", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def solve_json(*args: object) -> tuple[int, dict]:
    result = run("solve", "monte-carlo", *args, "--json")
    return result.exit_code, json.loads(result.stdout)


def numbered_moves(text: str) -> list[str]:
    """The moves of `solve`'s text output, checking that they are numbered 1, 2, 3, ..."""
    moves = []
    for line in text.splitlines():
        match = NUMBERED.match(line)
        if match:
            assert int(match.group(1)) == len(moves) + 1, line
            moves.append(match.group(2))
    return moves


def cell_name(cell: int, cols: int = 5) -> str:
    return "ABCDE"[cell // cols] + str(cell % cols + 1)


def json_move_as_text(move: dict, cols: int = 5) -> str:
    """The text notation of a JSON move, written out independently of the CLI."""
    if move == {"move": "consolidate"}:
        return "consolidate"
    return " + ".join(f"{cell_name(c, cols)} {x}" for c, x in zip(move["cells"], move["cards"]))


def grid_of(board_text: str) -> tuple[list[str], list[str]]:
    """The grid cells (row by row, "--" for a gap) and the stock of one drawn board."""
    grid, stock = [], None
    for line in board_text.splitlines():
        row = re.match(r"^  [A-E]  (.*)$", line)
        if row:
            grid += row.group(1).split()
        elif line.startswith("  stock"):
            stock = [] if line == "  stock: empty" else line.split(": ", 1)[1].split()
    assert stock is not None, board_text
    return grid, stock


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def verify(tmp_path: Path, number: object, moves_text: str, *args: object) -> Result:
    moves = write(tmp_path, "moves.txt", moves_text)
    return run("verify", "monte-carlo", number, "--moves", moves, *args)


# --- --help and --version -----------------------------------------------------------------


def test_version_matches_the_installed_package_and_names_the_search() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"wedlock, version {version('wedlock')} ({core.description()})\n"


def test_version_says_when_pure_python_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEDLOCK_PURE", "1")
    result = run("--version")
    assert result.exit_code == 0
    assert "(pure Python search: " in result.stdout


def test_group_help_lists_every_command() -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: wedlock [OPTIONS] COMMAND [ARGS]...\n")
    commands = re.findall(r"^  (\w+)\s{2,}", result.stdout.split("Commands:\n", 1)[1], re.M)
    assert sorted(commands) == ["analyze", "batch", "deal", "hint", "play", "pysolfc", "show", "solve", "stats", "verify", "web", "winnable"]


@pytest.mark.parametrize(
    "command, options",
    [
        ("deal", ["--deal-file", "--rules", "--json"]),
        ("solve", ["--deal-file", "--rules", "--node-limit", "--time-limit", "--max-states", "--board", "--json"]),
        ("verify", ["--deal-file", "--rules", "--moves"]),
        ("analyze", ["--deal-file", "--rules", "--max-states", "--graphml", "--dot", "--png", "--json"]),
    ],
)
def test_command_help(command: str, options: list[str]) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: wedlock {command} [OPTIONS] GAME")
    assert f"wedlock {command} monte-carlo" in result.stdout  # the docstring's example
    for option in options:
        assert re.search(rf"^\s+{option}\b", result.stdout, re.M), option


# --- deal ---------------------------------------------------------------------------------


def test_deal_text_of_game_1_is_pysolfc_layout_and_stock() -> None:
    result = run("deal", "monte-carlo", "1")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == GAME_1_TEXT


@pytest.mark.parametrize("number, cards", [("1", GAME_1), ("32000", GAME_32000)])
def test_deal_json_is_pysolfc_dealing_order(number: str, cards: list[str]) -> None:
    data = deal_json(number)
    assert set(data) == DEAL_KEYS
    assert data == {"game": "monte-carlo", "rules": "pysol", "title": "Monte Carlo (PySolFC)", "game_number": number, "cards": cards}


@pytest.mark.parametrize("number", ["1", "32000", "31999", "ms40000"])
def test_deal_text_grid_and_stock_are_the_json_cards_in_order(number: str) -> None:
    cards = deal_json(number)["cards"]
    assert len(cards) == 52 and set(cards) == ALL_CARDS
    grid, stock = grid_of(run("deal", "monte-carlo", number).stdout)
    assert grid == cards[:25]
    assert stock == cards[25:]


def test_deal_5x4_has_a_twenty_card_grid() -> None:
    data = deal_json("1", "--rules", "5x4")
    assert data["rules"] == "5x4"
    assert data["cards"] == GAME_1
    text = run("deal", "monte-carlo", "1", "--rules", "5x4").stdout
    assert not re.search(r"^  E  ", text, re.M)
    assert grid_of(text) == (GAME_1[:20], GAME_1[20:])


def test_deal_two_decks_has_104_cards_each_twice() -> None:
    data = deal_json("1", "--rules", "2decks")
    assert set(data) == DEAL_KEYS
    assert data["rules"] == "2decks"
    assert len(data["cards"]) == 104
    assert Counter(data["cards"]) == Counter({card: 2 for card in ALL_CARDS})
    assert data["cards"] != GAME_1 + GAME_1
    assert grid_of(run("deal", "monte-carlo", "1", "--rules", "2decks").stdout) == (data["cards"][:25], data["cards"][25:])


@pytest.mark.parametrize(
    "typed, canonical",
    [("ms1", "1"), ("#1", "1"), ("1L", "1"), (" 1 ", "1"), ("#32,000", "32000"), ("ms32000", "ms32000")],
)
def test_game_numbers_are_read_as_pysolfc_reads_them(typed: str, canonical: str) -> None:
    data = deal_json(typed)
    assert data["game_number"] == canonical
    assert data["cards"] == deal_json(canonical)["cards"]


def test_ms_numbers_from_32000_use_the_microsoft_generator() -> None:
    # 32000 is a Mersenne Twister deal, ms32000 the Microsoft generator with the same seed.
    assert deal_json("32000")["cards"] == GAME_32000
    assert deal_json("ms32000")["cards"] != GAME_32000


# --- bad game numbers, rules and argument combinations --------------------------------------


@pytest.fixture
def game_1_moves(tmp_path: Path) -> Path:
    """A moves file with a legal win of game 1, so `verify` gets as far as the deal."""
    return write(tmp_path, "game1.txt", run("solve", "monte-carlo", "1").stdout)


def command_args(command: str, moves: Path) -> list[object]:
    return ["--moves", moves] if command == "verify" else []


@pytest.mark.parametrize("command", ["deal", "solve", "verify"])
@pytest.mark.parametrize(
    "number, says",
    [
        ("0", "start at 1"),
        ("abc", "'abc'"),
        ("ms0", "'ms0'"),
        ("ms9999999999", "'ms9999999999'"),
        ("", "bad game number"),
        ("ms", "'ms'"),
        ("1.5x", "'1.5x'"),
    ],
)
def test_bad_game_number_is_one_line_and_exit_2(command: str, number: str, says: str, game_1_moves: Path) -> None:
    result = run(command, "monte-carlo", number, *command_args(command, game_1_moves))
    assert_bad_input(result, "bad game number", says)


@pytest.mark.parametrize("command", ["deal", "solve", "verify"])
def test_negative_game_number_is_one_line_and_exit_2(command: str, game_1_moves: Path) -> None:
    result = run(command, "monte-carlo", "-3", *command_args(command, game_1_moves))
    assert_bad_input(result, "bad game number", "'-3'", "positive")


def test_minus_inside_a_game_number_is_a_separator_as_in_pysolfc() -> None:
    # RULES: "remove whitespace and # - _ . ,"; a leading minus is a sign (docs/RULES.md).
    assert deal_json("1-0")["game_number"] == "10"


def test_usage_errors_are_one_line() -> None:
    for args in (("deal", "patience", "1"), ("solve", "monte-carlo", "1", "--node-limit", "0"), ("solve",)):
        result = run(*args)
        assert result.exit_code == 2
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ["deal", "solve", "verify"])
def test_game_number_and_deal_file_together_or_neither(command: str, tmp_path: Path, game_1_moves: Path) -> None:
    deal_file = write(tmp_path, "deal.txt", " ".join(GAME_1))
    extra = command_args(command, game_1_moves)
    assert_bad_input(run(command, "monte-carlo", "1", "--deal-file", deal_file, *extra), "--deal-file")
    assert_bad_input(run(command, "monte-carlo", *extra), "--deal-file")


@pytest.mark.parametrize("command", ["deal", "solve", "verify"])
def test_unknown_rules(command: str, game_1_moves: Path) -> None:
    result = run(command, "monte-carlo", "1", "--rules", "nonsense", *command_args(command, game_1_moves))
    line = assert_bad_input(result, "'nonsense'")
    for name in ("pysol", "strict", "5x4", "thirteens", "weddings", "2decks"):
        assert name in line


def test_unknown_game_is_a_usage_error() -> None:
    result = run("deal", "patience", "1")
    assert result.exit_code == 2
    assert "monte-carlo" in result.stderr


@pytest.mark.parametrize("option", ["--node-limit", "--max-states"])
def test_limits_must_be_positive(option: str) -> None:
    result = run("solve", "monte-carlo", "1", option, "0")
    assert result.exit_code == 2
    assert option in result.stderr


@pytest.mark.parametrize("seconds", ["-1", "nan", "NaN", "soon"])
def test_time_limit_is_a_number_of_seconds(seconds: str) -> None:
    assert_bad_input(run("solve", "monte-carlo", "1", "--time-limit", seconds), "--time-limit")


@pytest.mark.parametrize(
    "args",
    [
        ("deal", "monte-carlo", "--deal-file", ""),
        ("verify", "monte-carlo", "1", "--moves", ""),
        ("batch", "monte-carlo", "1", "--out", ""),
        ("batch", "monte-carlo", "1", "--scheduler", ""),
        ("stats", ""),
    ],
)
def test_an_empty_file_name_or_address_is_bad_input(args: tuple[str, ...]) -> None:
    assert_bad_input(run(*args), args[-2] if args[-2].startswith("--") else "FILES")


def test_verify_takes_the_rules_a_moves_file_names_unless_rules_say_otherwise(tmp_path: Path) -> None:
    for output in ("--json", "--board", "--no-progress"):  # JSON, and text with its header
        solved = run("solve", "monte-carlo", "2", "--rules", "strict", output)
        result = verify(tmp_path, 2, solved.stdout)
        assert result.exit_code == 0, (output, result.stdout)
        assert result.stdout.startswith("legal win of Monte Carlo, strict, game 2: ")
    # The same moves under PySolFC's rules, asked for: the rules the command line gives count.
    under_pysol = verify(tmp_path, 2, solved.stdout, "--rules", "pysol")
    assert under_pysol.stdout.startswith("legal win of Monte Carlo (PySolFC), game 2: ")
    data = json.loads(run("solve", "monte-carlo", "2", "--rules", "strict", "--json").stdout)
    assert_bad_input(verify(tmp_path, 2, json.dumps({**data, "rules": "bogus"})), "'bogus'", "does not have")
    assert_bad_input(verify(tmp_path, 2, json.dumps({**data, "rules": "bogus"}), "--rules", "strict"), "'bogus'", "does not have")


def test_verify_reads_the_rules_from_an_older_header(tmp_path: Path) -> None:
    text = run("solve", "monte-carlo", "1", "--rules", "5x4").stdout.splitlines()
    text[0] = "# Monte Carlo on a 5x4 grid (5x4 rules), game 1"
    assert verify(tmp_path, 1, "\n".join(text)).stdout.startswith("legal win of Monte Carlo on a 5x4 grid, game 1")


def test_wedlock_alone_shows_the_commands() -> None:
    result = run()
    assert result.exit_code == 2 and result.stdout == ""
    assert "Commands:" in result.stderr and "solve" in result.stderr and len(result.stderr.splitlines()) > 5


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("deal", "monte-carlo", "5"), ("solve", "monte-carlo", "5", "--json")])
def test_output_to_a_full_disk_is_one_line(args: tuple[str, ...]) -> None:
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "wedlock", *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent.parent)
    assert done.returncode == 5  # never 1, which says lost
    assert done.stderr == "Error: cannot write the output: No space left on device\n"


# --- deal files ---------------------------------------------------------------------------


def deal_file_text(cards: list[str]) -> str:
    """Cards in the file format: lower case, `10` for tens, commas and spaces, comments."""
    lines = ["# game 1, as PySolFC deals it", ""]
    for i in range(0, len(cards), 10):
        chunk = [c.lower().replace("t", "10") for c in cards[i : i + 10]]
        lines.append(", ".join(chunk[:5]) + "  " + " ".join(chunk[5:]) + f"   # cards {i + 1}..")
    return "\n".join(lines) + "\n"


def test_deal_file_reads_as_the_same_deal(tmp_path: Path) -> None:
    text = deal_file_text(GAME_1)
    assert "10s" in text and "jd" in text and "#" in text
    deal_file = write(tmp_path, "deal.txt", text)
    data = deal_json("--deal-file", deal_file)
    assert data == {"game": "monte-carlo", "rules": "pysol", "title": "Monte Carlo (PySolFC)", "game_number": None, "cards": GAME_1}
    result = run("deal", "monte-carlo", "--deal-file", deal_file)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == GAME_1_TEXT.splitlines()[1:]
    assert result.stdout.splitlines()[0] == f"# Monte Carlo (PySolFC), the deal in {deal_file}"


def test_two_deck_deal_file_round_trips(tmp_path: Path) -> None:
    cards = deal_json("5", "--rules", "2decks")["cards"]
    deal_file = write(tmp_path, "deal.txt", "\n".join(cards))
    assert deal_json("--deal-file", deal_file, "--rules", "2decks")["cards"] == cards


@pytest.mark.parametrize(
    "cards, says",
    [
        (GAME_1[:7] + ["XX"] + GAME_1[8:], ["unknown card", "'XX'"]),
        (GAME_1[:-1], ["52 cards", "51"]),
        (GAME_1 + ["QD"], ["QD appears 2 times"]),
        (GAME_1[:-1] + ["QD"], ["QD appears 2 times"]),  # 52 cards, 6H missing
        ([], ["52 cards", "has 0"]),
    ],
)
@pytest.mark.parametrize("command", ["deal", "solve"])
def test_bad_deal_file(command: str, cards: list[str], says: list[str], tmp_path: Path) -> None:
    deal_file = write(tmp_path, "deal.txt", " ".join(cards))
    assert_bad_input(run(command, "monte-carlo", "--deal-file", deal_file), *says)


def test_unknown_card_names_its_line(tmp_path: Path) -> None:
    deal_file = write(tmp_path, "deal.txt", " ".join(GAME_1[:26]) + "\n" + " ".join(GAME_1[26:]) + " 1H\n")
    assert_bad_input(run("deal", "monte-carlo", "--deal-file", deal_file), "line 2", "'1H'")


def test_one_deck_deal_file_is_too_short_for_two_decks(tmp_path: Path) -> None:
    deal_file = write(tmp_path, "deal.txt", " ".join(GAME_1))
    assert_bad_input(run("deal", "monte-carlo", "--deal-file", deal_file, "--rules", "2decks"), "104 cards", "52")


def test_two_decks_hold_each_card_twice_not_three_times(tmp_path: Path) -> None:
    deal_file = write(tmp_path, "deal.txt", " ".join(GAME_1 + GAME_1[:-1] + ["JD"]))
    assert_bad_input(run("deal", "monte-carlo", "--deal-file", deal_file, "--rules", "2decks"), "JD appears 3 times")


def test_missing_deal_file(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-deal.txt"
    for command in ("deal", "solve"):
        assert_bad_input(run(command, "monte-carlo", "--deal-file", missing), "no-such-deal.txt")


def test_deal_file_that_is_not_text(tmp_path: Path) -> None:
    deal_file = tmp_path / "deal.bin"
    deal_file.write_bytes(b"\xff\xfe\x00garbage")
    assert_bad_input(run("deal", "monte-carlo", "--deal-file", deal_file), "deal.bin")


# --- solve --------------------------------------------------------------------------------


def test_solve_won_text() -> None:
    result = run("solve", "monte-carlo", WON_PYSOL)
    assert result.exit_code == 0
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == f"# Monte Carlo (PySolFC), game {WON_PYSOL}"
    summary = re.fullmatch(r"# won in (\d+) moves \([\d,]+ states, \d+\.\d\d s\)", lines[1])
    assert summary, lines[1]
    moves = numbered_moves(result.stdout)
    assert len(lines) == 2 + len(moves)  # nothing but the two headers and the moves
    assert len(moves) == int(summary.group(1))
    assert all(MOVE_TEXT.match(m) for m in moves), moves
    # 26 pairs empty the grid in a one-deck game, with a consolidation between phases.
    assert sum(" + " in m for m in moves) == 26
    assert not any(re.fullmatch(rf"{CELL} {CARD}", m) for m in moves)  # no kings alone
    cell_a, card_a, _, cell_b, card_b = moves[0].split()
    at = {cell_name(i): card for i, card in enumerate(GAME_1[:25])}
    assert (at[cell_a], at[cell_b]) == (card_a, card_b)  # the cards are where the deal put them
    assert card_a[0] == card_b[0]  # a pair of the same rank


def test_solve_won_json_matches_the_text() -> None:
    code, data = solve_json(WON_PYSOL)
    assert code == 0
    assert set(data) == SOLVE_KEYS
    assert (data["game"], data["rules"], data["game_number"], data["verdict"]) == ("monte-carlo", "pysol", "1", "won")
    assert type(data["states"]) is int and data["states"] > 0
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    for move in data["moves"]:
        if move["move"] == "pair":
            assert set(move) == {"move", "cells", "cards"}
            assert len(move["cells"]) == 2 and all(type(c) is int and 0 <= c < 25 for c in move["cells"])
            assert len(move["cards"]) == 2 and all(re.fullmatch(CARD, c) for c in move["cards"])
            assert move["cards"][0][0] == move["cards"][1][0]
        else:
            assert move == {"move": "consolidate"}
    text_moves = numbered_moves(run("solve", "monte-carlo", WON_PYSOL).stdout)
    assert [json_move_as_text(m) for m in data["moves"]] == text_moves
    # The first phase's pairs lie where the deal put those cards.
    for move in data["moves"]:
        if move["move"] == "consolidate":
            break
        assert [GAME_1[c] for c in move["cells"]] == move["cards"]


def test_solve_lost() -> None:
    result = run("solve", "monte-carlo", LOST_PYSOL)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"# Monte Carlo (PySolFC), game {LOST_PYSOL}"
    assert re.fullmatch(r"# lost: no line wins; every reachable position was searched \([\d,]+ states, \d+\.\d\d s\)", lines[1])
    assert len(lines) == 2
    code, data = solve_json(LOST_PYSOL)
    assert code == 1
    assert set(data) == SOLVE_KEYS | {"proof"}
    assert (data["verdict"], data["moves"], data["game_number"]) == ("lost", [], LOST_PYSOL)
    assert data["proof"] == "no line wins; every reachable position was searched"
    assert data["states"] > 1  # so a node limit of 1 cannot finish it


@pytest.mark.parametrize("command", ["solve", "hint"])
def test_a_loss_proven_at_the_start_by_a_dead_end_test_names_the_test(command: str) -> None:
    # Weddings game 5: the 4s on the grid cannot be paired off by columns, so no move is searched.
    result = run(command, "weddings", "5")
    said = result.stdout.splitlines()[1]
    assert result.exit_code == 1, result.output
    assert said.startswith("# lost: the start alone proves it, with no move searched: the 4s on the grid cannot be paired off")
    assert "every reachable position was searched" not in said
    data = json.loads(run(command, "weddings", "5", "--json").stdout)
    assert data["verdict"] == "lost" and data["proof"].startswith("the start alone proves it")
    # Past the start, the answer names the tests that cut positions short of a search.
    later = json.loads(run("solve", "weddings", "12", "--json").stdout)
    assert later["proof"] == "no line wins; every reachable position was searched, or proven lost by the column-pairing and stuck-card tests"
    assert wedlock.solve("weddings", 5).proof == data["proof"]


def test_solve_node_limit_gives_unknown() -> None:
    result = run("solve", "monte-carlo", LOST_PYSOL, "--node-limit", "1")
    assert result.exit_code == 3
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert lines[1].startswith("# unknown: ") and "node limit" in lines[1]
    assert lines[2] == "# to search longer, give a larger --node-limit"
    assert lines[3] == f"# the shipped table holds game {LOST_PYSOL} as lost"
    code, data = solve_json(LOST_PYSOL, "--node-limit", "1")
    assert code == 3
    assert set(data) == SOLVE_KEYS | {"reason", "published"}
    assert (data["verdict"], data["moves"], data["reason"]) == ("unknown", [], "node limit 1 reached")


def test_solve_max_states_gives_unknown() -> None:
    code, data = solve_json(LOST_PYSOL, "--max-states", "1")
    assert (code, data["verdict"]) == (3, "unknown")


def test_solve_progress_names_the_search_on_stderr_only() -> None:
    quiet = run("solve", "monte-carlo", WON_PYSOL)
    shown = run("solve", "monte-carlo", WON_PYSOL, "--progress")
    assert shown.exit_code == quiet.exit_code == 0
    assert f"monte-carlo game {WON_PYSOL}, search 1 of 1: exact search" in shown.stderr
    assert numbered_moves(shown.stdout) == numbered_moves(quiet.stdout)  # stdout is the same
    assert shown.stdout.splitlines()[0] == quiet.stdout.splitlines()[0]
    assert quiet.stderr == ""  # the runner's stderr is no terminal: no line unless asked
    assert run("solve", "monte-carlo", WON_PYSOL, "--no-progress").stderr == ""


def ours() -> set[threading.Thread]:
    """The threads running, but tqdm's monitor (one a process, started with the first bar)."""
    return {t for t in threading.enumerate() if not isinstance(t, TMonitor)}


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_ctrl_c_is_one_line_and_exit_130_not_a_verdict(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def solve_interrupted(self, rules, cards, limits, progress=None) -> None:
        if progress is not None:
            progress(0, 1, "a search")  # the status line is up when Ctrl-C comes
        raise KeyboardInterrupt

    def build_interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(type(GAMES["monte-carlo"]), "solve", solve_interrupted)
    monkeypatch.setattr(analysis, "build", build_interrupted)
    threads = ours()
    result = run(command, "monte-carlo", WON_PYSOL, "--progress" if command == "solve" else "--json")
    assert result.exit_code == 130  # not 1, which `solve` answers for lost
    assert result.stdout == ""
    if command == "solve":
        drawn, last = result.stderr.rsplit("\r", 1)
        assert "search 1 of 1: a search" in drawn and drawn.split("\r")[-1].strip() == ""  # the line is wiped
        assert ours() == threads  # and its clock stopped
    else:
        last = result.stderr
    assert last == "Interrupted before an answer.\n"


def test_solve_board_draws_the_deal_and_a_board_after_each_move() -> None:
    result = run("solve", "monte-carlo", WON_PYSOL, "--board")
    assert result.exit_code == 0
    text = result.stdout
    moves = numbered_moves(text)
    assert moves == numbered_moves(run("solve", "monte-carlo", WON_PYSOL).stdout)
    boards = re.split(r"^\d+\. .*\n", text, flags=re.M)
    assert len(boards) == len(moves) + 1
    assert text.count("     1   2   3   4   5\n") == len(moves) + 1
    assert len(re.findall(r"^  stock", text, re.M)) == len(moves) + 1
    assert grid_of(boards[0]) == (GAME_1[:25], GAME_1[25:])
    # After move 1 (a pair) its two cells are gaps; the last board is empty.
    after_first = grid_of(boards[1])[0]
    assert after_first.count("--") == 2
    assert grid_of(boards[-1]) == (["--"] * 25, [])
    assert boards[-1].rstrip().endswith("  stock: empty")


def test_solve_thirteens_removes_kings_alone() -> None:
    code, data = solve_json("1", "--rules", "thirteens")
    assert code == 0
    assert data["rules"] == "thirteens" and data["verdict"] == "won"
    kings = [m for m in data["moves"] if m["move"] == "king"]
    assert len(kings) == 4  # one deck, four kings
    for move in kings:
        assert set(move) == {"move", "cells", "cards"}
        assert len(move["cells"]) == 1 and 0 <= move["cells"][0] < 25
        assert len(move["cards"]) == 1 and re.fullmatch(r"K[CSHD]", move["cards"][0])
    values = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 10)}
    for move in data["moves"]:
        if move["move"] == "pair":
            assert sum(values[c[0]] for c in move["cards"]) == 13
    text_moves = numbered_moves(run("solve", "monte-carlo", "1", "--rules", "thirteens").stdout)
    assert [json_move_as_text(m) for m in data["moves"]] == text_moves
    assert sum(bool(re.fullmatch(rf"{CELL} K[CSHD]", m)) for m in text_moves) == 4


def test_solve_deal_file_is_labelled_and_has_no_game_number(tmp_path: Path) -> None:
    deal_file = write(tmp_path, "deal.txt", " ".join(GAME_1))
    code, data = solve_json("--deal-file", deal_file)
    assert code == 0
    assert data["game_number"] is None
    assert data["moves"] == solve_json("1")[1]["moves"]
    assert run("solve", "monte-carlo", "--deal-file", deal_file).stdout.splitlines()[0] == f"# Monte Carlo (PySolFC), the deal in {deal_file}"


# --- verify -------------------------------------------------------------------------------


@pytest.mark.parametrize("form", [[], ["--json"], ["--board"]])
def test_solve_output_replays_with_verify(form: list[str], tmp_path: Path) -> None:
    solved = run("solve", "monte-carlo", WON_PYSOL, *form)
    assert solved.exit_code == 0
    count = len(json.loads(solved.stdout)["moves"]) if form == ["--json"] else len(numbered_moves(solved.stdout))
    result = verify(tmp_path, WON_PYSOL, solved.stdout)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout == f"legal win of Monte Carlo (PySolFC), game 1: {count} moves\n"
    assert result.stderr == ""


def test_plain_move_lists_replay(tmp_path: Path) -> None:
    data = solve_json(WON_PYSOL)[1]
    just_moves = verify(tmp_path, WON_PYSOL, json.dumps(data["moves"]))
    assert just_moves.exit_code == 0 and legal_win(just_moves.stdout, len(data["moves"]))
    unnumbered = "# my notes\n\n" + "\n".join(json_move_as_text(m) for m in data["moves"]) + "\n"
    assert verify(tmp_path, WON_PYSOL, unnumbered).exit_code == 0


def test_verify_with_a_deal_file(tmp_path: Path) -> None:
    deal_file = write(tmp_path, "deal.txt", " ".join(GAME_1))
    solved = run("solve", "monte-carlo", "--deal-file", deal_file, "--json").stdout
    moves = write(tmp_path, "moves.json", solved)
    result = run("verify", "monte-carlo", "--deal-file", deal_file, "--moves", moves)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"legal win of Monte Carlo (PySolFC), the deal in {deal_file}: ")
    # The same moves are not a win of another deal.
    assert run("verify", "monte-carlo", "2", "--moves", moves).exit_code == 1


def tampered_text(text: str, edit) -> str:
    """`solve`'s text output with its list of moves changed by `edit`, renumbered."""
    moves = edit(numbered_moves(text))
    return "".join(f"{i}. {m}\n" for i, m in enumerate(moves, 1))


def change_second_card(moves: list[str]) -> list[str]:
    cell_a, card_a, plus, cell_b, card_b = moves[0].split()
    other = next(c for c in ALL_CARDS if c[0] == card_b[0] and c not in (card_a, card_b))
    return [f"{cell_a} {card_a} + {cell_b} {other}"] + moves[1:]


def swap_first_two(moves: list[str]) -> list[str]:
    assert " + " in moves[0] and moves[1] == "consolidate"
    return [moves[1], moves[0]] + moves[2:]


@pytest.mark.parametrize(
    "edit, bad_move",
    [
        (change_second_card, 1),
        (lambda moves: moves[:1] + moves[2:], 2),  # drop the first consolidation
        (swap_first_two, 1),  # consolidating a full grid
        (lambda moves: moves[:-1], None),  # stop one pair short
    ],
    ids=["changed-card", "dropped-move", "swapped-moves", "last-move-missing"],
)
def test_tampered_text_moves_are_not_a_win(edit, bad_move: int | None, tmp_path: Path) -> None:
    text = tampered_text(run("solve", "monte-carlo", WON_PYSOL).stdout, edit)
    result = verify(tmp_path, WON_PYSOL, text)
    assert result.exit_code == 1
    assert result.stderr == ""
    assert result.stdout.startswith("not a win of Monte Carlo (PySolFC), game 1: ")
    assert len(result.stdout.splitlines()) == 1
    if bad_move is None:
        assert "2 cards remain" in result.stdout
    else:
        named = re.search(r"\bmove (\d+)\b", result.stdout)
        assert named and int(named.group(1)) == bad_move, result.stdout


def test_tampered_json_moves_are_not_a_win(tmp_path: Path) -> None:
    data = solve_json(WON_PYSOL)[1]
    index = next(i for i, m in enumerate(data["moves"]) if m["move"] == "pair" and i > 0)
    a, b = data["moves"][index]["cards"]
    data["moves"][index]["cards"] = [a, next(c for c in ALL_CARDS if c[0] == b[0] and c not in (a, b))]
    result = verify(tmp_path, WON_PYSOL, json.dumps(data))
    assert result.exit_code == 1
    assert re.search(rf"\bmove {index + 1}\b", result.stdout), result.stdout


def test_pysol_win_is_checked_under_the_rules_asked_for(tmp_path: Path) -> None:
    text = run("solve", "monte-carlo", WON_PYSOL).stdout
    # Under thirteens a pair must total 13, which two cards of the same rank never do.
    result = verify(tmp_path, WON_PYSOL, text, "--rules", "thirteens")
    assert result.exit_code == 1
    assert re.search(r"\bmove 1\b", result.stdout), result.stdout


@pytest.mark.parametrize(
    "text, says",
    [
        ("hello world\n", "line 1"),
        ("# a comment\nconsolidate\nB1 7H + B2\n", "line 3"),
        ("B1 7H + B2 7X\n", "line 1"),
        ("1. B1 7H + F9 7C\n", "line 1"),
        ("{", "not valid JSON"),
        ('[{"move": "jump"}]', "move 1"),
        ('{"moves": [{"move": "consolidate"}, {"move": "pair", "cells": [1], "cards": ["7H", "7C"]}]}', "move 2"),
        ('[{"move": "pair", "cells": [5, 6], "cards": ["7H", "XX"]}]', "move 1"),
        ('[{"move": "pair", "cells": [true, 6], "cards": ["7H", "7C"]}]', "move 1"),
        ('{"moves": "consolidate"}', '"moves"'),
        ("42", "line 1"),
    ],
)
def test_unreadable_moves_file(text: str, says: str, tmp_path: Path) -> None:
    assert_bad_input(verify(tmp_path, WON_PYSOL, text), "moves.txt", says)


def test_missing_moves_file(tmp_path: Path) -> None:
    result = run("verify", "monte-carlo", "1", "--moves", tmp_path / "no-such-moves.txt")
    assert_bad_input(result, "no-such-moves.txt")


def test_moves_file_that_is_not_text(tmp_path: Path) -> None:
    moves = tmp_path / "moves.bin"
    moves.write_bytes(b"\xff\xfe\x00\x81")
    assert_bad_input(run("verify", "monte-carlo", "1", "--moves", moves), "moves.bin")


@pytest.mark.parametrize(
    "field, value, says",
    [
        ("game_number", "2", "game 2"),
        ("game_number", "ms40000", "game ms40000"),
        ("game_number", "nonsense", "'nonsense'"),
        ("game", "matrimony", "matrimony"),
    ],
)
def test_json_moves_file_for_another_deal(field: str, value: str, says: str, tmp_path: Path) -> None:
    data = solve_json(WON_PYSOL)[1]
    data[field] = value
    assert_bad_input(verify(tmp_path, WON_PYSOL, json.dumps(data)), says)


@pytest.mark.parametrize("number", ["ms1", "#1", "00001", 1])
def test_json_game_number_in_another_spelling_of_the_same_game(number: object, tmp_path: Path) -> None:
    data = solve_json(WON_PYSOL)[1]
    data["game_number"] = number
    result = verify(tmp_path, WON_PYSOL, json.dumps(data))
    assert result.exit_code == 0 and legal_win(result.stdout, len(data["moves"]))


def test_json_rules_count_unless_the_command_line_names_others(tmp_path: Path) -> None:
    data = solve_json("1", "--rules", "strict")[1]
    assert data["verdict"] == "won"
    assert verify(tmp_path, "1", json.dumps(data)).exit_code == 0
    # PySolFC's rules let a player consolidate early; strict rules do not, and the line
    # PySolFC's solver finds does so: under strict rules it is not a win.
    pysol_line = solve_json("1")[1]
    assert verify(tmp_path, "1", json.dumps(pysol_line), "--rules", "strict").exit_code == 1


# --- every rule set: solve, then replay every win -------------------------------------------

RULE_CASES = [
    ("pysol", "1", "won"),
    ("pysol", "32000", "won"),
    ("pysol", "12", "lost"),
    ("strict", "1", "won"),
    ("strict", "3", "lost"),
    ("5x4", "1", "won"),
    ("5x4", "11", "lost"),
    ("thirteens", "1", "won"),
    ("thirteens", "40000", "won"),
    ("weddings", "2506", "won"),
    ("weddings", "8", "lost"),
    ("2decks", "1", "won"),
    ("2decks", "32000", "won"),
]
CELLS = {"5x4": 20}
CARDS = {"2decks": 104}


@pytest.mark.parametrize("rules, number, verdict", RULE_CASES)
def test_every_rule_set_solves_and_wins_replay(rules: str, number: str, verdict: str, tmp_path: Path) -> None:
    code, data = solve_json(number, "--rules", rules, "--time-limit", "5")
    if data["verdict"] == "unknown":
        pytest.skip(f"{rules} {number}: the time limit ran out on this machine")
    assert set(data) == SOLVE_KEYS | ({"proof"} if verdict == "lost" else set())
    assert (data["game"], data["rules"], data["game_number"]) == ("monte-carlo", rules, number)
    assert data["verdict"] == verdict
    assert code == {"won": 0, "lost": 1}[verdict]
    if verdict == "lost":
        assert data["moves"] == []
        return
    cells = CELLS.get(rules, 25)
    removed = []
    for move in data["moves"]:
        assert move["move"] in ("pair", "consolidate", "king")
        if move["move"] != "consolidate":
            assert all(0 <= c < cells for c in move["cells"])
            removed += move["cards"]
    assert Counter(removed) == Counter(deal_json(number, "--rules", rules)["cards"])
    assert len(removed) == CARDS.get(rules, 52)
    replay = verify(tmp_path, number, json.dumps(data), "--rules", rules)
    assert replay.exit_code == 0 and legal_win(replay.stdout, len(data["moves"]))
    text = run("solve", "monte-carlo", number, "--rules", rules, "--time-limit", "5").stdout
    assert numbered_moves(text) == [json_move_as_text(m, cols=5) for m in data["moves"]]
    assert verify(tmp_path, number, text, "--rules", rules).exit_code == 0

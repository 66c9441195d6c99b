"""What every command shares: the games and rule sets it names, the options it reads, how
it ends on a closed pipe, an interrupt or a missing extra."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest

import wedlock as library
from tests.cli.test_cli import assert_bad_input, run
from tests.tiers import first_quick
from wedlock.cli import common
from wedlock.cli.main import cli
from wedlock.games.registry import GAMES

COMMANDS = cli.list_commands(click.Context(cli))
LEAF_COMMANDS = [name for name in COMMANDS if not isinstance(cli.get_command(click.Context(cli), name), click.Group)]  # not `pysolfc`
GAME_COMMANDS = ["analyze", "batch", "deal", "hint", "solve", "verify", "winnable"]
ROOT = Path(__file__).parent.parent.parent


def wedlock(*args: str, **kwargs) -> subprocess.Popen:
    """`python -m wedlock ARGS` in its own process group, taking Ctrl-C as a terminal's
    program does even where the tests run with it ignored (a job a script put in the
    background, say: the child would inherit that)."""
    return subprocess.Popen([sys.executable, "-m", "wedlock", *args], cwd=ROOT, start_new_session=True, preexec_fn=_take_ctrl_c, **kwargs)


def _take_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_help_lists_every_game_and_rule_set_and_marks_pysolfcs(command: str) -> None:
    text = run(command, "--help").stdout
    for game in GAMES.values():
        assert game.name in text
        for rules in game.rule_sets.values():
            assert f" {rules.name} " in text
    for pysolfc in ('"Monte Carlo"', '"Weddings"', '"Monte Carlo (2 Decks)"', '"Matrimony"'):
        assert f"PySolFC's {pysolfc}" in text
    assert text.count("(default)") == len(GAMES)


@pytest.mark.parametrize("command", LEAF_COMMANDS)
def test_a_misspelled_option_gets_clicks_suggestion(command: str) -> None:
    args = {"stats": ["x.jsonl"], "show": ["moves.txt"]}.get(command, ["monte-carlo", "5"])
    misspelled = {"show": "--htm"}.get(command, "--jsn")
    result = run(command, *args, misspelled)
    assert_bad_input(result, f"No such option '{misspelled}'", "Did you mean")


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_dash_h_is_help(command: str | None) -> None:
    args = [] if command is None else [command]
    short, long = run(*args, "-h"), run(*args, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "-h, --help" in short.stdout


def test_a_missing_choice_is_one_line_without_tabs() -> None:
    line = assert_bad_input(run("play", "monte-carlo", "5"), "Missing option '--player'")
    assert "\t" not in line and "  " not in line
    assert "Choose from: perfect, no-peek, greedy, random" in line


def test_a_misspelled_time_limit_is_not_read_as_a_game_number() -> None:
    assert_bad_input(
        run("solve", "monte-carlo", "12345", "--time-limt", "60"), "No such option '--time-limt'", "Did you mean", "'--time-limit'"
    )


@pytest.mark.parametrize("command", ["deal", "solve", "analyze", "batch"])
def test_a_negative_game_number_is_still_a_bad_game_number(command: str) -> None:
    assert_bad_input(run(command, "monte-carlo", "-3"), "bad game number '-3'", "positive")


def test_an_option_value_may_start_with_a_dash() -> None:
    assert_bad_input(run("solve", "monte-carlo", "5", "--time-limit", "-3"), "--time-limit", "0 or more")


@pytest.mark.parametrize(
    "typed, says",
    [
        (["solve", "2decks", "5"], "2decks is a rule set of monte-carlo: wedlock solve monte-carlo 5 --rules 2decks"),
        (["deal", "Thirteens", "7", "--json"], "wedlock deal monte-carlo 7 --json --rules thirteens"),
        (["solve", "arnold", "2"], "wedlock solve matrimony 2 --rules arnold"),
    ],
)
def test_a_rule_set_typed_as_the_game_points_to_the_command(typed: list[str], says: str) -> None:
    assert_bad_input(run(*typed), says)


@pytest.mark.parametrize(
    "typed, game, rules",
    [
        (["weddings"], "monte-carlo", "weddings"),
        (["Weddings", "--rules", "weddings"], "monte-carlo", "weddings"),
        (["Monte Carlo (2 Decks)"], "monte-carlo", "2decks"),
        (["monte carlo (2 decks)", "--rules=2decks"], "monte-carlo", "2decks"),
        (["Monte Carlo"], "monte-carlo", "pysol"),
        (["Matrimony"], "matrimony", "pysol"),
    ],
)
@pytest.mark.parametrize("command", ["deal", "solve", "hint", "analyze"])
def test_pysolfcs_name_of_a_game_is_a_game_and_its_rules(command: str, typed: list[str], game: str, rules: str) -> None:
    name, *options = typed
    if command == "analyze":  # the name is read before any work: a small graph and few playouts do
        options += ["--max-states", "100", "--playouts", "5"]
    result = run(command, name, "5", *options, "--json")
    assert result.exit_code in (0, 1, 3), result.output
    named = json.loads(result.stdout)
    assert (named.get("game"), named.get("rules"), named.get("game_number")) == (game, rules, "5")


def test_pysolfcs_name_and_other_rules_disagree() -> None:
    assert_bad_input(run("solve", "weddings", "5", "--rules", "pysol"), "weddings is PySolFC's Weddings: monte-carlo under its weddings rules, not --rules pysol")
    assert_bad_input(run("batch", "Monte Carlo (2 Decks)", "5", "--rules", "strict"), "monte-carlo under its 2decks rules, not --rules strict")


def test_the_api_takes_pysolfcs_names_of_games_too() -> None:
    assert library.deal("weddings", 5) == library.deal("monte-carlo", 5, "weddings")
    assert library.solve("Monte Carlo (2 Decks)", 7).deal.rules.name == "2decks"
    assert library.deal("weddings", library.deal("monte-carlo", 5)).rules.name == "weddings"
    with pytest.raises(library.WedlockError, match="PySolFC's Weddings: monte-carlo under its weddings rules, not strict"):
        library.deal("weddings", 5, "strict")
    assert [f.number for f in library.winnable("weddings", count=3)] == [f.number for f in library.winnable("monte-carlo", "weddings", count=3)]


def test_game_and_rule_names_are_read_in_any_case() -> None:
    plain = run("deal", "monte-carlo", "5", "--rules", "weddings", "--json").stdout
    assert run("deal", "Monte-Carlo", "5", "--rules", "WEDDINGS", "--json").stdout == plain
    assert run("deal", "MATRIMONY", "5", "--rules", "Arnold").exit_code == 0


@pytest.mark.parametrize(
    "args, title",
    [
        (["monte-carlo", "5"], "Monte Carlo (PySolFC)"),
        (["monte-carlo", "5", "--rules", "weddings"], "Weddings (PySolFC)"),
        (["monte-carlo", "5", "--rules", "2decks"], "Monte Carlo, 2 decks (PySolFC)"),
        (["monte-carlo", "5", "--rules", "strict"], "Monte Carlo, strict"),
        (["matrimony", "5"], "Matrimony (PySolFC)"),
        (["matrimony", "5", "--rules", "arnold"], "Matrimony (Peter Arnold's rules)"),
    ],
)
def test_output_names_the_rule_set_once_in_a_players_words(args: list[str], title: str) -> None:
    number = args[1]
    text = run("deal", *args).stdout
    assert text.splitlines()[0] == f"# {title}, game {number}"
    assert text.count(title) == 1 and " rules)," not in text.replace("Arnold's rules", "")
    assert json.loads(run("deal", *args, "--json").stdout)["title"] == title


def test_matrimony_is_pysolfcs_game_unless_told_otherwise() -> None:
    result = run("solve", "matrimony", "1")
    assert result.exit_code == 0 and result.stdout.startswith("# Matrimony (PySolFC), game 1\n# won in ")


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_solve_and_analyze_stop_after_two_minutes_unless_told(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    module = {"solve": "wedlock.cli.solve_cmd", "analyze": "wedlock.cli.analyze_cmd"}[command]
    target = "solve" if command == "solve" else "analyze"

    def spy(*args, **kwargs):
        seen.append(kwargs["time_limit"])
        raise KeyboardInterrupt

    monkeypatch.setattr(f"{module}.{target}", spy)
    for extra, limit in (([], common.SOLVE_SECONDS), (["--time-limit", "none"], None), (["--time-limit", "7.5"], 7.5)):
        assert run(command, "monte-carlo", "5", *extra).exit_code == 130
        given = seen.pop()  # analyze hands its analysis what is left of the limit
        assert given == limit if limit is None else limit - 1 < given <= limit
    assert common.SOLVE_SECONDS == 120


def test_an_unknown_answer_says_how_to_search_longer() -> None:
    result = run("solve", "matrimony", "15", "--time-limit", "0.5")
    assert result.exit_code == 3
    lines = result.stdout.splitlines()
    assert lines[1].startswith("# unknown: time limit 0.5s reached")
    assert lines[2] == "# to search longer, give a larger --time-limit, or --time-limit none"


@pytest.mark.parametrize("command", first_quick([["solve"], ["hint"], ["play", "--player", "perfect"]]))
def test_an_unknown_answer_names_the_limit_given_though_reading_the_start_spent_some(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = common.choose_deal

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(0.2)  # the limit covers reading the start: the search gets what is left
        return real(*args, **kwargs)

    monkeypatch.setattr(common, "choose_deal", slow)
    result = run(command[0], "matrimony", "15", "--time-limit", "0.5", *command[1:])
    assert result.exit_code == 3, result.output
    said = [line for line in result.stdout.splitlines() if line.startswith("# unknown: ")]
    assert said and re.findall(r"time limit (\S+) reached", said[0]) == ["0.5s"], said


@pytest.mark.parametrize(
    "args", [["solve", "monte-carlo", "12345"], ["deal", "matrimony", "5"], ["batch", "monte-carlo", "1-30", "--quiet", "--jobs", "1"]]
)
def test_a_closed_output_pipe_ends_quietly_as_sigpipe_would(args: list[str]) -> None:
    proc = wedlock(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line, as after `| head -1`
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 141
    assert stderr == b""


def test_ctrl_c_in_a_batch_prints_one_line_and_nothing_from_the_workers(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    proc = wedlock("batch", "monte-carlo", "1-1000000", "--out", str(out), "--jobs", "2", "--quiet", stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and (not out.exists() or len(out.read_bytes().splitlines()) < 50):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole group
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130
    written = len(out.read_bytes().splitlines())
    expected = f"Interrupted: {written:,} result{'s' if written != 1 else ''} written; --resume continues.\n"
    assert stderr.decode() == expected


def test_scheduler_without_dask_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    out = tmp_path / "r.jsonl"
    result = run("batch", "monte-carlo", "1-3", "--scheduler", "tcp://127.0.0.1:1", "--out", out)
    assert_bad_input(result, "--scheduler needs", "pip install distributed")
    assert not out.exists()


def test_numbers_have_thousands_separators_and_counts_agree_with_their_nouns() -> None:
    one = run("solve", "monte-carlo", "3", "--rules", "strict", "--max-states", "1")
    assert "(1 state, " in one.stdout
    analysed = run("analyze", "monte-carlo", "1", "--max-states", "2000", "--playouts", "10").stdout
    report = [line for line in analysed.splitlines() if not line.startswith("  ")]  # not the moves
    states = next(line for line in report if line.startswith("states:"))
    assert re.match(r"states: +at least 2,\d{3} \(\d{1,3}(,\d{3})* edges\)$", states), states
    assert not re.search(r"(?<![\d,./])\d{4,}", "\n".join(report).split("random player")[0]), report


def test_python_m_wedlock_is_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "wedlock", "--version"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("wedlock, version ")


def test_a_batch_solutions_line_is_a_moves_file_verify_takes_as_it_is(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-3", "--rules", "strict", "--solutions", "--out", out, "--quiet", "--jobs", "1").exit_code == 0
    lines = out.read_text().splitlines()
    for text in lines:
        record = json.loads(text)
        moves = tmp_path / "line.json"
        moves.write_text(text)
        result = run("verify", "monte-carlo", record["game_number"], "--moves", moves)  # the rules come from the line
        if record["verdict"] == "won":
            assert result.exit_code == 0, result.stdout
            assert result.stdout.startswith(f"legal win of Monte Carlo, strict, game {record['game_number']}: ")
        else:
            assert_bad_input(result, "holds no moves")


def test_help_shows_defaults_with_thousands_separators() -> None:
    solve = " ".join(run("solve", "--help").stdout.split())  # as one line, however click wraps it
    assert "[default: 20,000,000]" in solve
    batch = " ".join(run("batch", "--help").stdout.split())
    assert "[default: 1,000]" in batch and "[default: 2,000]" in batch and "20000000" not in batch


def test_a_list_may_hold_ranges(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "1-3,7", "--out", out, "--quiet", "--jobs", "1").exit_code == 0
    assert [json.loads(x)["game_number"] for x in out.read_text().splitlines()] == ["1", "2", "3", "7"]


@pytest.mark.parametrize("name", ["2decks", "2 decks", "2-Decks", "Monte Carlo (2 Decks)", "monte carlo, 2 decks (pysolfc)"])
def test_rule_sets_are_read_by_name_pysolfcs_name_or_title(name: str) -> None:
    assert json.loads(run("deal", "monte-carlo", "5", "--rules", name, "--json").stdout)["rules"] == "2decks"


def test_a_rule_set_of_the_other_game_says_so() -> None:
    assert_bad_input(run("deal", "monte-carlo", "5", "--rules", "arnold"), "arnold is a rule set of matrimony, not of monte-carlo")


def test_verify_checks_the_numbering_of_numbered_moves(tmp_path: Path) -> None:
    lines = run("solve", "monte-carlo", "12345").stdout.splitlines()
    inserted = [*lines[:4], "B2 4S + B3 4D", *lines[4:]]  # a move with no number among numbered ones
    moves = tmp_path / "m.txt"
    moves.write_text("\n".join(inserted))
    assert_bad_input(run("verify", "monte-carlo", "12345", "--moves", moves), "line 5", "a move without its number")
    renumbered = [*lines[:3], lines[3].replace("2.", "3.", 1), *lines[4:]]
    moves.write_text("\n".join(renumbered))
    assert_bad_input(run("verify", "monte-carlo", "12345", "--moves", moves), "line 4", "move 3 where move 2 belongs")


def test_moves_numbered_on_from_those_played_are_read_after_them(tmp_path: Path) -> None:
    lines = run("solve", "monte-carlo", "12345").stdout.splitlines()
    ten, rest = tmp_path / "ten.txt", tmp_path / "rest.txt"
    ten.write_text("\n".join(lines[2:12]) + "\n")  # moves 1-10
    rest.write_text("\n".join(lines[12:]) + "\n")  # moves 11-43, as solve numbered them
    assert rest.read_text().startswith("11. ")
    verified = run("verify", "monte-carlo", "12345", "--after", ten, "--moves", rest)
    assert verified.exit_code == 0 and verified.stdout == "legal win of Monte Carlo (PySolFC), game 12345, after 10 moves: 33 moves\n"
    page = tmp_path / "rest.html"
    shown = run("show", rest, "--game", "monte-carlo", "--number", "12345", "--after", ten, "--html", page)
    assert shown.exit_code == 0 and shown.stdout.endswith("after 10 moves, a legal win: 33 moves\n")
    assert library.verify("monte-carlo", library.position("monte-carlo", 12345, after=ten.read_text()), rest.read_text()).won
    from_one, renumbered = tmp_path / "from-one.txt", tmp_path / "renumbered.txt"  # solve --after numbers its moves from 1
    from_one.write_text(run("solve", "monte-carlo", "12345", "--after", ten).stdout)
    assert run("verify", "monte-carlo", "12345", "--after", ten, "--moves", from_one).exit_code == 0
    renumbered.write_text("\n".join(lines[13:]))  # moves 12-43: neither from 1 nor on from 10
    assert_bad_input(
        run("verify", "monte-carlo", "12345", "--after", ten, "--moves", renumbered), "line 1", "move 12 where move 1 (or 11, after the 10 played) belongs"
    )
    assert_bad_input(run("verify", "monte-carlo", "12345", "--moves", rest), "line 1", "move 11 where move 1 belongs")


def test_verify_reads_moves_from_stdin_and_names_a_whole_results_file(tmp_path: Path) -> None:
    text = run("solve", "monte-carlo", "7").stdout
    assert RUNNER_INPUT(["verify", "monte-carlo", "7", "--moves", "-"], text).exit_code == 0
    out = tmp_path / "r.jsonl"
    run("batch", "monte-carlo", "1-2", "--solutions", "--out", out, "--quiet", "--jobs", "1")
    assert_bad_input(run("verify", "monte-carlo", "1", "--moves", out), "several JSON lines", "one line")


def RUNNER_INPUT(args: list[str], text: str):
    from click.testing import CliRunner

    return CliRunner().invoke(cli, args, input=text)


def test_a_deal_file_may_be_deal_json_or_use_suit_symbols(tmp_path: Path) -> None:
    printed = run("deal", "matrimony", "9", "--json").stdout
    as_json = tmp_path / "d.json"
    as_json.write_text(printed)
    assert json.loads(run("deal", "matrimony", "--deal-file", as_json, "--json").stdout)["cards"] == json.loads(printed)["cards"]
    cards = json.loads(run("deal", "monte-carlo", "9", "--json").stdout)["cards"]
    symbols = tmp_path / "s.txt"
    symbols.write_text(" ".join(c[0] + {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}[c[1]] for c in cards))
    assert json.loads(run("deal", "monte-carlo", "--deal-file", symbols, "--json").stdout)["cards"] == cards
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2 3")
    assert_bad_input(run("deal", "monte-carlo", "--deal-file", bad), f"{bad}: line 1: unknown card '1'")


def test_dev_null_is_an_empty_file_not_a_refused_device() -> None:
    assert_bad_input(run("stats", "/dev/null"), "no results in /dev/null")


def test_long_input_is_cut_short_in_the_error_line() -> None:
    result = run("deal", "x" * 100_000, "5")
    assert result.exit_code == 2 and len(result.stderr) < 400


def test_closed_stderr_does_not_change_the_verdict(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", f"exec 2>&-; {sys.executable} -m wedlock solve monte-carlo 1 >/dev/null; echo $?"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip() == "0"


def test_output_in_an_encoding_without_suit_symbols_is_utf8(tmp_path: Path) -> None:
    out = tmp_path / "m.txt"
    with open(out, "wb") as f:
        done = subprocess.run(
            [sys.executable, "-m", "wedlock", "solve", "matrimony", "2", "--rules", "arnold"],
            cwd=ROOT,
            stdout=f,
            env={**os.environ, "PYTHONIOENCODING": "latin-1"},
        )
    assert done.returncode == 0 and "♥".encode() in out.read_bytes()
    assert run("verify", "matrimony", "2", "--rules", "arnold", "--moves", out).exit_code == 0


@pytest.mark.parametrize("args", [["--help"], ["--version"]])
def test_the_groups_own_output_into_a_closed_pipe_is_141_too(args: list[str]) -> None:
    proc = wedlock(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    _, stderr = proc.communicate(timeout=60)
    assert (proc.returncode, stderr) == (141, b"")


# What only analysis, pictures or a cluster need: a solve loads none of it.
HEAVY = ("networkx", "matplotlib", "dask", "distributed", "wedlock.search.state_graph", "wedlock.luck.analysis", "wedlock.luck.graph_report", "wedlock.pictures.charts", "wedlock.results.stats")


def _heavy_loaded(code: str) -> list[str]:
    """The HEAVY modules in sys.modules once `code` has run in a fresh interpreter."""
    listing = f"import sys\nfrom contextlib import suppress\nwith suppress(SystemExit):\n{code}\nprint(' '.join(sorted(sys.modules)), file=sys.__stderr__)"
    done = subprocess.run([sys.executable, "-c", listing], cwd=ROOT, capture_output=True, text=True, timeout=120)
    loaded = done.stderr.splitlines()[-1].split()
    return [name for name in HEAVY if name in loaded]


@pytest.mark.parametrize(
    "code",
    [
        "    import wedlock",
        "    import wedlock\n    wedlock.solve('monte-carlo', 1), wedlock.solve('matrimony', 1).moves.to_json()",
        "    sys.argv = ['wedlock', 'solve', 'monte-carlo', '1']\n    from wedlock.cli import run\n    run()",
        "    sys.argv = ['wedlock', 'solve', 'matrimony', '5', '--json']\n    from wedlock.cli import run\n    run()",
        "    sys.argv = ['wedlock', 'batch', 'monte-carlo', '1-20', '--out', '-']\n    from wedlock.cli import run\n    run()",
    ],
    ids=["import", "api-solve", "cli-solve", "cli-solve-json", "cli-batch"],
)
def test_solving_loads_no_analysis_nor_graphs_nor_cluster(code: str) -> None:
    assert _heavy_loaded(code) == []

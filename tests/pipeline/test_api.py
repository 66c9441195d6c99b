"""The Python API (`import wedlock`): its docstring examples run here, and the CLI's answers
are the API's."""

from __future__ import annotations

import doctest
import importlib
import json
import pkgutil

import pytest

import wedlock
from tests.cli.test_cli import run
from wedlock import Card, Deal, Line, Move, Solution, Verdict
from wedlock.basics.errors import DealError, GameNumberError, RulesError
from wedlock.results.records import RECORD_KEYS, check_record


def modules() -> list[str]:
    """Every module of the package but the command line's."""
    names = ["wedlock"]
    for info in pkgutil.walk_packages(wedlock.__path__, "wedlock."):
        if not info.name.startswith("wedlock.cli") and info.name != "wedlock.__main__":
            names.append(info.name)
    return names


def test_dir_shows_the_api_and_nothing_else() -> None:
    api = {"Analysis", "Card", "Deal", "Hint", "Line", "Move", "Played", "Position", "Replay", "Solution", "SolverFault",
           "Verdict", "WedlockError", "analyze", "deal", "deal_from_file", "hint", "lookup", "play", "position", "solve",
           "verify", "winnable", "__version__"}
    shown = dir(wedlock)
    assert shown == sorted(api)
    for name in shown:  # each name of the API resolves, lazily imported or not
        assert getattr(wedlock, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'import_module'"):
        wedlock.import_module  # noqa: B018


@pytest.mark.parametrize("name", modules())
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0, f"{failed} docstring examples of {name} fail (run python -m doctest)"


def test_the_modules_with_the_api_have_examples() -> None:
    for name in ("wedlock", "wedlock.pipeline.solving", "wedlock.luck.analysis", "wedlock.results.tables", "wedlock.results.winnable"):
        tests = doctest.DocTestFinder().find(importlib.import_module(name))
        assert sum(len(t.examples) for t in tests) >= 2, name


def test_verdicts_are_an_enum_of_the_words_the_output_uses() -> None:
    assert [v.value for v in Verdict] == ["won", "lost", "unknown"]
    assert Verdict.WON == "won" and str(Verdict.LOST) == "lost" and json.dumps(Verdict.UNKNOWN) == '"unknown"'


@pytest.mark.parametrize("source", [12345, "12345", "#12,345", "ms12345"])
def test_a_deal_from_a_game_number_in_any_form(source: object) -> None:
    d = wedlock.deal("monte-carlo", source)
    assert (d.number, len(d.cards), d.rules.name) == ("12345", 52, "pysol")
    assert d.cards == wedlock.deal("Monte-Carlo", 12345, rules="PYSOL").cards


def test_a_deal_from_cards_as_cards_text_or_a_deal() -> None:
    numbered = wedlock.deal("monte-carlo", 7)
    as_text = " ".join(map(str, numbered.cards))
    for source in (list(numbered.cards), [str(c) for c in numbered.cards], as_text):
        d = wedlock.deal("monte-carlo", source)
        assert d.cards == numbered.cards and d.number is None
    same = wedlock.deal("monte-carlo", numbered)
    assert same is numbered
    strict = wedlock.deal("monte-carlo", numbered, rules="strict")
    assert (strict.rules.name, strict.cards, strict.number) == ("strict", numbered.cards, "7")


def test_bad_deals_raise_the_named_errors() -> None:
    with pytest.raises(GameNumberError):
        wedlock.deal("monte-carlo", 0)
    with pytest.raises(GameNumberError):
        wedlock.deal("monte-carlo", True)
    with pytest.raises(DealError, match="52 cards, got 3"):
        wedlock.deal("monte-carlo", [Card.parse(c) for c in ("AS", "2S", "3S")])
    with pytest.raises(DealError, match="AS appears 52 times; the deck holds it once"):
        wedlock.deal("monte-carlo", ["AS"] * 52)
    with pytest.raises(RulesError, match="monte-carlo --rules thirteens"):
        wedlock.deal("thirteens", 5)
    with pytest.raises(RulesError, match="unknown Monte Carlo rules"):
        wedlock.deal("monte-carlo", 5, rules="bogus")
    with pytest.raises(DealError, match="not of matrimony"):
        wedlock.deal("matrimony", wedlock.deal("monte-carlo", 5))


def test_solve_gives_a_replayed_line_with_text_and_json() -> None:
    result = wedlock.solve("monte-carlo", 12345)
    assert isinstance(result, Solution) and result.verdict is Verdict.WON
    assert isinstance(result.moves, Line) and all(isinstance(m, Move) for m in result.moves)
    assert result.states > 0 and result.seconds >= 0
    assert [m.to_json() for m in result.moves] == result.moves.to_json()
    assert result.moves.text().splitlines() == [f"{i}. {m.text()}" for i, m in enumerate(result.moves, 1)]
    assert wedlock.verify("monte-carlo", 12345, result.moves).won
    assert wedlock.verify("monte-carlo", 12345, result.moves.text()).won
    assert wedlock.verify("monte-carlo", 12345, json.dumps(result.to_json())).won


def test_the_cli_prints_what_the_api_answers(tmp_path) -> None:
    result = wedlock.solve("matrimony", 2, rules="arnold")
    printed = json.loads(run("solve", "matrimony", "2", "--rules", "arnold", "--json").stdout)
    api = result.to_json()
    assert {k: v for k, v in printed.items() if k != "seconds"} == {k: v for k, v in api.items() if k != "seconds"}


def test_a_record_is_a_results_line_and_holds_its_solution_on_request() -> None:
    result = wedlock.solve("monte-carlo", 12345)
    record = result.record(solutions=True)
    assert check_record(record, "here") == record
    assert set(RECORD_KEYS) <= set(record) and record["moves"] == len(result.moves)
    assert record["solution"] == result.moves.to_json()
    assert "solution" not in result.record()


def test_verify_takes_the_rules_that_moves_text_names() -> None:
    text = run("solve", "monte-carlo", "3", "--rules", "thirteens").stdout
    assert text.startswith("# Monte Carlo Thirteens, game 3")
    assert wedlock.verify("monte-carlo", 3, text).won
    assert not wedlock.verify("monte-carlo", 3, text, rules="pysol").won  # kings alone are no PySolFC move


def test_matrimony_defaults_to_pysolfcs_rules() -> None:
    assert wedlock.deal("matrimony", 1).rules.name == "pysol"
    assert wedlock.solve("matrimony", 1, time_limit=60).verdict is Verdict.WON


def test_a_solver_fault_is_never_a_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    from wedlock.games.montecarlo import GAME
    from wedlock.games.protocol import Replay

    monkeypatch.setattr(GAME, "referee", lambda rules, cards, moves: Replay(False, 0, "made up"))
    with pytest.raises(wedlock.SolverFault, match="made up"):
        wedlock.solve("monte-carlo", 12345)
    result = run("solve", "monte-carlo", "12345")
    assert result.exit_code == 4 and result.stdout == ""
    assert result.stderr == "Error: internal fault, please report it: game 12345: the referee rejects the solver's line: made up\n"


def test_deals_are_values() -> None:
    a, b = wedlock.deal("monte-carlo", 9), wedlock.deal("monte-carlo", "9")
    assert a == b and hash(a) == hash(b) and isinstance(a, Deal)
    assert str(a).splitlines()[0] == "Monte Carlo (PySolFC), game 9"


def test_a_batch_line_is_the_record_of_the_api_answer(tmp_path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("batch", "monte-carlo", "12345", "--rules", "weddings", "--solutions", "--out", out, "--quiet", "--jobs", "1").exit_code == 0
    (line,) = out.read_text().splitlines()
    expected = wedlock.solve("monte-carlo", 12345, "weddings").record(solutions=True)
    printed = json.loads(line)
    assert {k: v for k, v in printed.items() if k != "seconds"} == {k: v for k, v in expected.items() if k != "seconds"}


@pytest.mark.parametrize(
    "call",
    [
        lambda: wedlock.solve("monte-carlo", None),
        lambda: wedlock.solve("monte-carlo", 1.5),
        lambda: wedlock.solve("monte-carlo", b"12345"),
        lambda: wedlock.solve(None, 1),
        lambda: wedlock.solve("monte-carlo", 1, rules=5),
        lambda: wedlock.solve("monte-carlo", 1, time_limit="10"),
        lambda: wedlock.solve("monte-carlo", 1, time_limit=-1),
        lambda: wedlock.solve("monte-carlo", 1, time_limit=float("nan")),
        lambda: wedlock.solve("monte-carlo", 1, node_limit=-5),
        lambda: wedlock.deal("monte-carlo", [None] * 52),
        lambda: wedlock.deal("monte-carlo", 10**5000),
        lambda: wedlock.deal_from_file("monte-carlo", 5),
        lambda: wedlock.verify("monte-carlo", 1, None),
        lambda: wedlock.verify("monte-carlo", 1, [object()]),
        lambda: wedlock.analyze("monte-carlo", None),
        lambda: wedlock.lookup("monte-carlo", "foo"),
        lambda: wedlock.lookup("monte-carlo", 5, rules="foo"),
        lambda: wedlock.lookup("Patience", 5),
        lambda: wedlock.winnable("monte-carlo", count=-1),
        lambda: wedlock.winnable("monte-carlo", count="3"),
        lambda: wedlock.winnable("monte-carlo", start=True),
        lambda: wedlock.winnable("monte-carlo", start=10, stop=5),
        lambda: wedlock.winnable("monte-carlo", solving="print"),
        lambda: wedlock.Card.parse(5),
    ],
)
def test_bad_arguments_raise_a_wedlock_error(call) -> None:
    with pytest.raises(wedlock.WedlockError):
        call()


def test_verify_takes_moves_in_every_form_a_user_has_them(tmp_path) -> None:
    result = wedlock.solve("monte-carlo", 12345)
    saved = tmp_path / "win.txt"
    saved.write_text(result.moves.text())
    forms = [result, result.moves, list(result.moves), result.moves.to_json(), [m.text() for m in result.moves], saved, result.moves.raw()]
    for moves in forms:
        assert wedlock.verify("monte-carlo", 12345, moves).won, type(moves)
    with pytest.raises(wedlock.WedlockError, match="moves of game 12345, not 7"):
        wedlock.verify("monte-carlo", 7, json.dumps(result.to_json()))
    with pytest.raises(wedlock.WedlockError, match="moves of monte-carlo, not matrimony"):
        wedlock.verify("matrimony", 7, run("solve", "monte-carlo", "7").stdout)


def test_lookup_reads_numbers_and_names_as_deal_does() -> None:
    assert wedlock.lookup("Monte Carlo", "#12,345") == wedlock.lookup("monte-carlo", 12345, rules="PySolFC") == Verdict.WON
    assert wedlock.lookup("monte-carlo", "ms40000") is None  # not the plain game 40,000
    assert wedlock.lookup("monte-carlo", 3, rules="strict") == Verdict.LOST


def test_winnable_gives_up_where_solving_finds_nothing() -> None:
    from wedlock.results.winnable import GaveUp

    solved: list[int] = []
    found = wedlock.winnable("matrimony", "pysol", lost=True, count=1, start=10_001, time_limit=0.1, patience=0.5, solving=solved.append)
    with pytest.raises(GaveUp, match="found no further deal proven lost"):
        next(found)
    assert solved == list(range(10_001, 10_001 + len(solved))) and solved  # each number, as its solve starts

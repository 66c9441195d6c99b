"""Input costs a bounded amount: every file, stdin or text argument a user gives is refused
in one line past MOST_BYTES or a line past MOST_LINE characters, before it is parsed, and
the parsers take time linear in a line's length up to that bound.

The times asserted are behaviour bounds, not benchmarks: generous, so that a loaded
machine passes, and still far below what a quadratic parse of such lines takes.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wedlock
from tests.cli.test_cli import RUNNER, assert_bad_input, run
from wedlock.basics.deals import parse_deal_text
from wedlock.basics.errors import InputTooLarge, WedlockError
from wedlock.basics.input_files import MOST_BYTES, MOST_LINE, bounded
from wedlock.cli.main import cli
from wedlock.games.registry import GAMES
from wedlock.pipeline.move_files import parse_moves
from wedlock.results.ranges import parse_range

MEGABYTE = 1_000_000
SHAPES = {
    "spaces": " ",
    "a": "a",
    "digits": "7",
    "commas": ",",
    "a Monte Carlo move": "B3 QS + C4 QH ",
    "a Matrimony move": "pile 3: 7H to F3 (J♥ down) ",
    "stock and spaces": "stock ",
}
EVERY_RULE_SET = [(game, rules) for game in GAMES.values() for rules in game.rule_sets.values()]


def line_of(unit: str, length: int, before: str = "", after: str = "x") -> str:
    """A line of `length` characters: `before`, `unit` again and again, then `after`."""
    body = unit * ((length - len(before) - len(after)) // len(unit) + 1)
    return before + body[: length - len(before) - len(after)] + after


def quickly(seconds: float = 1.0):
    """A context that fails the test when its body takes longer than `seconds`."""

    class Clock:
        def __enter__(self) -> None:
            self.start = time.perf_counter()

        def __exit__(self, *exc: object) -> None:
            took = time.perf_counter() - self.start
            assert took < seconds, f"took {took:.2f} s"

    return Clock()


@pytest.mark.parametrize("shape", SHAPES)
def test_a_megabyte_line_given_to_the_api_is_refused_quickly(shape: str) -> None:
    text = line_of(SHAPES[shape], MEGABYTE)
    calls = [
        lambda: wedlock.position("monte-carlo", 5, text=text),
        lambda: wedlock.position("matrimony", 5, text="stock (54)\n" + text),
        lambda: wedlock.verify("monte-carlo", 5, text),
        lambda: wedlock.verify("matrimony", 5, "# Matrimony (PySolFC), game 5\n" + text),
        lambda: wedlock.deal("monte-carlo", text),
        lambda: wedlock.hint("monte-carlo", 5, after=text),
    ]
    for call in calls:
        with quickly(), pytest.raises(InputTooLarge, match="line [12] holds .* characters, more than the 10,000"):
            call()


@pytest.mark.parametrize("shape", SHAPES)
def test_a_megabyte_line_in_a_file_or_on_stdin_is_refused_in_one_line_quickly(tmp_path: Path, shape: str) -> None:
    text = line_of(SHAPES[shape], MEGABYTE) + "\n"
    path = tmp_path / "input.txt"
    path.write_text(text, encoding="utf-8")
    for args, what in (
        (["verify", "monte-carlo", "5", "--moves", path], "moves file"),
        (["solve", "matrimony", "5", "--after", path], "moves file"),
        (["deal", "monte-carlo", "5", "--position", path], "position file"),
        (["deal", "monte-carlo", "--deal-file", path], "deal file"),
        (["batch", "monte-carlo", f"@{path}"], ""),
        (["show", path, "--html", tmp_path / "page.html"], "moves file"),
    ):
        with quickly():
            assert_bad_input(run(*args), what, "line 1 holds", "more than the 10,000 a line may hold")
    for args in (["verify", "monte-carlo", "5", "--moves", "-"], ["deal", "matrimony", "5", "--after", "-"], ["deal", "monte-carlo", "5", "--position", "-"]):
        with quickly():
            result = RUNNER.invoke(cli, args, input=text.encode())
            assert_bad_input(result, "cannot read stdin: line 1 holds")


def test_input_past_the_size_bound_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    moves = "consolidate\n" * (MOST_BYTES // 12 + 1)  # short lines, too many of them
    path = tmp_path / "moves.txt"
    path.write_text(moves)
    with quickly():
        assert_bad_input(run("verify", "monte-carlo", "5", "--moves", path), "moves file", f"more than the {MOST_BYTES:,} an input may hold")
    for args in (["verify", "monte-carlo", "5", "--moves", "-"], ["deal", "monte-carlo", "5", "--after", "-"]):
        with quickly():
            result = RUNNER.invoke(cli, args, input=b"\0" * (MOST_BYTES + 10))  # as `< /dev/zero` gives, but ends
            assert_bad_input(result, "cannot read stdin: more than", "an input may hold")
    with pytest.raises(InputTooLarge, match="an input may hold"):
        wedlock.verify("monte-carlo", 5, moves)


def test_input_within_the_bounds_is_read() -> None:
    """The counterpart of the tests above: the longest lines wedlock writes pass, and a
    JSON document (solve --json writes a whole win on one line) is not held to the line
    bound."""
    win = wedlock.solve("matrimony", 2)
    assert win.verdict == wedlock.Verdict.WON
    board = "\n".join(wedlock.position("matrimony", 2, after=win.moves[:40]).text().splitlines())
    assert bounded(board) == board
    import json

    long_json = json.dumps({"moves": [m.to_json() for m in win.moves] * 40})
    assert len(long_json) > MOST_LINE
    assert bounded(long_json) == long_json
    assert not wedlock.verify("matrimony", 2, long_json).won  # read, then judged: too many moves
    assert wedlock.verify("matrimony", 2, json.dumps({"moves": [m.to_json() for m in win.moves]})).won


units = st.sampled_from(
    [" ", "a", "7", ",", "F", "F1", "F1 (", "(", ":", "-", ".", "#", "\t", "x ", "A x ", "1: x ", "stock ", "ms",
     "1. ", ", game ", "pile 3: 7H to F3 ", "B3 QS + C4 QH ", "next redeal: pile ", "shift JD from F4 "]
)  # fmt: skip
prefixes = st.sampled_from(["", "A ", "stock", "stock (", "stock: ", "1:", "F1", "# ", "# Matrimony (PySolFC), game", "1. ", "pile 1 ", "shift "])


def parse_everywhere(line: str) -> None:
    """Give `line` to every parser a user's text reaches, under every rule set."""
    calls: list[tuple] = [(parse_deal_text, line, 1), (parse_range, line)]
    for game, rules in EVERY_RULE_SET:
        deal = game.numbered_deal(rules, "5")
        calls += [
            (game.parse_position, rules, deal, line),
            (game.parse_position, rules, deal, "stock (54)\n" + line),
            (game.parse_move_text, rules, line),
            (parse_moves, game, rules, line),
            (parse_moves, game, rules, "1. x\n" + line),
        ]
    for parse, *args in calls:
        try:
            parse(*args)
        except WedlockError:
            pass


@pytest.mark.parametrize(
    "before, unit, after",
    [("stock", " ", "x"), ("A x", " ", "y"), ("1: x", " ", "y"), ("F1", "1", ""), ("stock: ", "7", ""), ("stock (", "7", ")"), ("stock: ", ",", ""), ("stock (", ",", ")"),
     ("", " ", "x"), ("", ",", ""), ("# Matrimony (PySolFC)", ", game", "")],
)  # fmt: skip
def test_parsers_take_linear_time_on_the_longest_lines_they_are_given(before: str, unit: str, after: str) -> None:
    """A line as long as the bound allows is read or refused fast by every parser (a
    quadratic parse of 10,000 characters takes seconds)."""
    with quickly():
        parse_everywhere(line_of(unit, MOST_LINE, before, after))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units, prefixes, st.sampled_from(["", "x", ")", ":"]))
def test_parsers_take_linear_time_up_to_the_line_bound(unit: str, before: str, after: str) -> None:
    """The same, for lines of other shapes."""
    with quickly(2.0):
        parse_everywhere(line_of(unit, MOST_LINE, before, after))

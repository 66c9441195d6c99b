"""Whatever a user types or a file holds, the readers answer with a value or a named input
error (wedlock.basics.errors.WedlockError), which the CLI prints as one line: never another
exception, which the CLI would show as a traceback.

The text strategies mix arbitrary text with near misses built from the notation's own
words, so that the readers' deeper branches (a pile 0, a foundation 9, a card "1H") are
reached, not only their first check.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wedlock.basics.cards import Card, parse_cards
from wedlock.basics.deals import parse_deal_text
from wedlock.basics.errors import WedlockError
from wedlock.basics.numbering import GameNumber
from wedlock.games.registry import GAMES
from wedlock.pipeline.move_files import parse_moves
from wedlock.results.ranges import parse_range
from wedlock.results.records import check_record, read_results

WORDS = (
    "pile", "pile 3:", "to", "F", "F3", "F9", "F0", "(J♥", "down)", "up)", "shift", "from", "deal", "redeal",
    "consolidate", "+", "B3", "Z9", "A0", "QS", "10s", "1H", "TS", "JD", "KX", "ms", "ms0", "#", "12,345", "L",
    "-", "@", "1-", "-3", "9999999999999999999999", ".", ",", ":", "{", "[", '"move"', "1.", "12.", "\n", " ",
)  # fmt: skip

near_misses = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)
texts = st.one_of(st.text(max_size=60), near_misses)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.floats(allow_nan=False) | st.sampled_from(WORDS) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["move", "pile", "card", "to", "from", "cells", "cards", "moves", "game", "rules", "game_number", "verdict",
         "states", "seconds", "version", "analysis", "reason", "found_by", "solution"]) | st.text(max_size=5), inner, max_size=6),
    max_leaves=20,
)  # fmt: skip

EVERY_RULE_SET = [(game, name) for game in GAMES.values() for name in game.rule_sets]


def answers_or_names_the_problem(read, *args) -> None:
    try:
        read(*args)
    except WedlockError as err:
        assert str(err).strip() and "\n" not in str(err).strip(), repr(str(err))


@given(texts)
def test_game_numbers(text: str) -> None:
    answers_or_names_the_problem(GameNumber.parse, text)


@given(texts)
def test_ranges(text: str) -> None:
    answers_or_names_the_problem(parse_range, text)


@given(texts)
def test_cards_and_deal_files(text: str) -> None:
    answers_or_names_the_problem(Card.parse, text)
    for decks in (1, 2):
        answers_or_names_the_problem(parse_deal_text, text, decks)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["AS", "2S", "KD", "QH", "JC", "TD", "9S", "x"]), max_size=110))
def test_deals_of_the_wrong_cards(cards: list[str]) -> None:
    """A deal file with too few, too many or repeated cards, for every game and rule set."""
    for game, name in EVERY_RULE_SET:
        try:
            deal = parse_cards(" ".join(cards))
        except WedlockError:
            continue
        answers_or_names_the_problem(game.check_deal, game.rule_sets[name], deal)


@given(st.lists(texts, max_size=4).map("\n".join))
def test_move_text(text: str) -> None:
    for game, name in EVERY_RULE_SET:
        answers_or_names_the_problem(parse_moves, game, game.rule_sets[name], text)


@given(json_values)
def test_move_json(value) -> None:
    body = json.dumps(value)
    for game, name in EVERY_RULE_SET:
        answers_or_names_the_problem(parse_moves, game, game.rule_sets[name], body)
        answers_or_names_the_problem(parse_moves, game, game.rule_sets[name], json.dumps([value]))


BEYOND_PYTHON = ("[" * 100_000 + "]" * 100_000, "9" * 5_000)  # JSON nested too deep, a number too long


def test_what_python_itself_cannot_read() -> None:
    for text in (*BEYOND_PYTHON, "ms" + BEYOND_PYTHON[1], f"1-{BEYOND_PYTHON[1]}"):
        answers_or_names_the_problem(GameNumber.parse, text)
        answers_or_names_the_problem(parse_range, text)
        for game, name in EVERY_RULE_SET:
            answers_or_names_the_problem(parse_moves, game, game.rule_sets[name], text)
            answers_or_names_the_problem(parse_moves, game, game.rule_sets[name], f'{{"moves": [{text}]}}')


def test_results_lines_python_itself_cannot_read(tmp_path: Path) -> None:
    for text in BEYOND_PYTHON:
        path = tmp_path / "r.jsonl"
        path.write_text(text + "\n")
        answers_or_names_the_problem(read_results, path)


@given(json_values)
def test_result_records(value) -> None:
    answers_or_names_the_problem(check_record, value, "line 1")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200) | st.lists(json_values, max_size=3).map(lambda vs: "".join(json.dumps(v) + "\n" for v in vs).encode()))
def test_results_files(tmp_path: Path, data: bytes) -> None:
    for name in ("r.jsonl", "r.jsonl.gz"):
        path = tmp_path / name
        path.write_bytes(data)
        answers_or_names_the_problem(read_results, path)


def test_good_input_is_read_not_refused() -> None:
    """The counterpart of the tests above, so that a reader refusing everything fails."""
    assert GameNumber.parse("#1,234") == GameNumber.parse("1234")
    assert parse_range("3-5") == ["3", "4", "5"]
    for game, name in EVERY_RULE_SET:
        rules = game.rule_sets[name]
        deal = game.numbered_deal(rules, "#1,234")
        text = " ".join(str(card) for card in deal)
        assert game.check_deal(rules, parse_deal_text(text, game.decks(rules))) == deal


move_fields = st.fixed_dictionaries(
    {"move": st.sampled_from(["play", "shift", "deal", "redeal", "pair", "king", "consolidate"])},
    optional={
        "pile": st.integers(1, 20), "to": st.integers(1, 10), "from": st.integers(1, 10),
        "card": st.sampled_from(["7H", "JD", "QD", "KS", "AS", "10C"]),
        "cells": st.lists(st.integers(0, 30), min_size=1, max_size=2),
        "cards": st.lists(st.sampled_from(["QS", "QH", "KS", "AS", "2D"]), min_size=1, max_size=2),
    },
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(move_fields, max_size=8))
def test_the_referee_judges_any_moves_it_can_read(objs: list[dict]) -> None:
    """Moves that parse but make no sense in the deal are judged, one problem named."""
    for game, name in EVERY_RULE_SET:
        rules = game.rule_sets[name]
        moves = []
        for obj in objs:
            try:
                moves.append(game.parse_move_json(obj))
            except WedlockError:
                pass
        replay = game.referee(rules, game.numbered_deal(rules, "5"), moves)
        assert 0 <= replay.moves_played <= len(moves)
        assert replay.won or (replay.problem and "\n" not in replay.problem)


def test_numbers_are_ascii_digits_and_never_too_long_to_name() -> None:
    """Digits of other scripts are not game, pile or foundation numbers, and a number too
    long for any pile is named shortened, not converted."""
    answers = []
    for text in ("ms١٢٣", "١٢٣"):
        try:
            GameNumber.parse(text)
        except WedlockError as err:
            answers.append(str(err))
    assert len(answers) == 2
    matrimony = GAMES["matrimony"]
    for text in ("pile ٦: TD to F٢", "pile 6: TD to F" + "9" * 5000, "redeal pile " + "9" * 5000, "shift JD from F" + "9" * 5000 + " to F8"):
        for name, rules in matrimony.rule_sets.items():
            try:
                matrimony.parse_move_text(rules, text)
            except WedlockError as err:
                assert len(str(err)) < 200, (name, str(err)[:80])
            else:
                raise AssertionError(f"{text[:30]!r} was read under {name}")
    assert matrimony.parse_move_text(matrimony.rule_sets["pysol"], "pile 6: TD to F2").to_json()["pile"] == 6


def test_a_byte_order_mark_is_not_part_of_the_first_card_or_move(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from wedlock.cli.main import cli

    runner = CliRunner()
    deal = runner.invoke(cli, ["deal", "monte-carlo", "5", "--json"]).stdout
    cards = json.loads(deal)["cards"]
    (tmp_path / "deal.txt").write_text(" ".join(cards), encoding="utf-8-sig")
    assert json.loads(runner.invoke(cli, ["deal", "monte-carlo", "--deal-file", str(tmp_path / "deal.txt"), "--json"]).stdout)["cards"] == cards
    solved = runner.invoke(cli, ["solve", "monte-carlo", "5"])
    (tmp_path / "moves.txt").write_text(solved.stdout, encoding="utf-8-sig")
    assert solved.exit_code == 0  # game 5 is won
    assert runner.invoke(cli, ["verify", "monte-carlo", "5", "--moves", str(tmp_path / "moves.txt")]).exit_code == 0
    (tmp_path / "numbers.txt").write_text("5\n6\n", encoding="utf-8-sig")
    assert parse_range(f"@{tmp_path / 'numbers.txt'}") == ["5", "6"]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=8), max_size=5), st.sampled_from(["\n", "\r\n", "\r"]))
def test_files_read_alike_whatever_their_line_ends(tmp_path: Path, lines: list[str], newline: str) -> None:
    from wedlock.basics.input_files import read_text

    path = tmp_path / "lines.txt"
    path.write_bytes(newline.join(lines).encode("utf-8"))
    assert read_text(path) == "\n".join(lines)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """/dev/zero never ends: read, it would fill the memory. Every command that reads a
    file the user names refuses it in one line."""
    from click.testing import CliRunner

    from wedlock.cli.main import cli

    runner = CliRunner()
    for args in (
        ["stats", "/dev/zero"],
        ["deal", "monte-carlo", "--deal-file", "/dev/zero"],
        ["verify", "monte-carlo", "5", "--moves", "/dev/zero"],
        ["batch", "monte-carlo", "@/dev/zero"],
    ):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, args
        assert result.stderr.count("\n") == 1 and "a device, not a file" in result.stderr, args


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_resume_refuses_a_pipe_it_would_wait_on_forever(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from wedlock.cli.main import cli

    os.mkfifo(tmp_path / "pipe")
    result = CliRunner().invoke(cli, ["batch", "monte-carlo", "1", "--out", str(tmp_path / "pipe"), "--resume"])
    assert result.exit_code == 2
    assert "must be a file" in result.stderr and result.stderr.count("\n") == 1

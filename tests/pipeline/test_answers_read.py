"""The API's answers read as a person expects at a prompt: `print(answer)` is one short
line that says the verdict, and `repr(answer)` stays short whatever the line or the game
number (it printed every card object, kilobytes of them)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import wedlock
from wedlock.basics.printable import shortened

HUGE = int("7" * 400)  # a game number of 400 digits
MOST_REPR = 200


def answers() -> list[tuple[object, str]]:
    """Each kind of answer, with a word its text must hold."""
    return [
        (wedlock.solve("matrimony", 1), "won in"),
        (wedlock.solve("weddings", 5), "lost: the start alone proves it"),
        (wedlock.solve("monte-carlo", HUGE), "won in"),
        (wedlock.hint("monte-carlo", 12345, after=["A1 QC + B1 QH"]), "next: B2 4S + B3 4D"),
        (wedlock.play("monte-carlo", 12345, player="greedy"), "the greedy player"),
        (wedlock.analyze("monte-carlo", 2, rules="strict"), "a state graph of 17 states"),
        (wedlock.analyze("monte-carlo", 12345, max_states=200, playouts=5), "counts are lower bounds"),
    ]


@pytest.mark.parametrize("answer, says", answers(), ids=lambda a: type(a).__name__ if not isinstance(a, str) else "")
def test_an_answer_prints_as_one_line_that_says_it(answer: object, says: str) -> None:
    text = str(answer)
    assert "\n" not in text and says in text and len(text) < 400, text
    assert "Card(" not in text and "<Move" not in text
    shown = repr(answer)
    assert shown.startswith(f"<{type(answer).__name__} ") and len(shown) <= MOST_REPR, shown


def test_deals_positions_and_lines_have_short_reprs() -> None:
    solved = wedlock.solve("matrimony", 1)
    assert len(solved.moves) > 100
    line = repr(solved.moves)
    assert line.startswith(f"<Line of {len(solved.moves)} moves: ") and line.endswith("; ...>") and len(line) <= MOST_REPR
    assert repr(wedlock.deal("matrimony", 1)) == "<Deal Matrimony (PySolFC), game 1>"
    assert repr(wedlock.position("monte-carlo", 12345, after=["A1 QC + B1 QH"])) == "<Position Monte Carlo (PySolFC), game 12345, after 1 move>"
    assert len(repr(wedlock.deal("monte-carlo", HUGE))) <= MOST_REPR
    assert repr(wedlock.Line()) == "<Line of 0 moves>"


@given(st.text(max_size=300), st.integers(min_value=3, max_value=120))
def test_a_shortened_text_keeps_its_ends_within_the_length(text: str, most: int) -> None:
    short = shortened(text, most)
    assert len(short) <= most
    if len(text) <= most:
        assert short == text
    else:
        head, tail = short.split("…", 1) if "…" not in text else (short[: most - 1 - (most - 1) // 2], short[most - (most - 1) // 2 :])
        assert text.startswith(head) and text.endswith(tail) and len(short) == most

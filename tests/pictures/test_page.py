"""The solution page, in a real browser (Debian's chromium, driven by playwright): every
position shown is the referee's, nothing leaves the page, and the controls work.

Where no browser is installed these tests are skipped, saying why; under CI (CI=true) a
missing browser fails them instead. Screenshots of the first and last position go to
build/screenshots/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import wedlock
from tests.browser import launched
from tests.cli.test_cli import run
from wedlock.pictures.page import solution_page

ROOT = Path(__file__).parent.parent.parent
SHOTS = ROOT / "build" / "screenshots"
WINS = [
    ("monte-carlo", 12345, "pysol"),
    ("monte-carlo", 2506, "weddings"),  # consolidations that slide
    ("monte-carlo", 1, "2decks"),
    ("matrimony", 2, "arnold"),
    ("matrimony", 2, "pysol"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from launched()


def opened(browser, path: Path, fragment: str = "", width: int = 1100):
    """A page open on a file, with the requests it made and the errors it logged."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri() + fragment)
    return page, requests, errors


def shown(page, kind: str) -> dict:
    """The cards the page shows, read off the DOM contract."""
    return page.evaluate(
        """(kind) => {
        const cards = (el) => [...el.querySelectorAll('[data-card]')].map(c => c.dataset.card);
        if (kind === 'grid') return {cells: [...document.querySelectorAll('[data-cell]')].map(c => cards(c)[0] || null)};
        return {piles: [...document.querySelectorAll('[data-pile]')].map(cards),
                foundations: [...document.querySelectorAll('[data-foundation]')].map(cards),
                stock: Number(document.querySelector('[data-stock]').dataset.stock)};
    }""",
        kind,
    )


def expected(chosen, seen) -> dict:
    """The same, read off the referee's position."""
    if chosen.game.name == "monte-carlo":
        return {"cells": [None if c is None else str(c) for c in seen.grid]}
    return {
        "piles": [[str(c) for c in pile] for pile in seen.piles],
        "foundations": [[str(c) for c in f] for f in seen.foundations],
        "stock": len(seen.stock),
    }


@pytest.mark.slow  # each win stepped through whole in the browser (Matrimony's: hundreds of moves)
@pytest.mark.parametrize("game, number, rules", WINS)
def test_every_position_the_page_shows_is_the_referees(browser, tmp_path: Path, game: str, number: int, rules: str) -> None:
    result = wedlock.solve(game, number, rules)
    assert result.verdict == "won"
    path = tmp_path / "win.html"
    path.write_text(solution_page(result), encoding="utf-8")
    page, requests, errors = opened(browser, path)
    chosen = result.deal
    kind = "grid" if game == "monte-carlo" else "matrimony"
    assert page.evaluate("window.wedlock.count") == len(result.moves)
    seen = chosen.game.opening(chosen.rules, chosen.cards)
    for n in range(len(result.moves) + 1):
        assert page.evaluate(f"window.wedlock.step({n})") == n
        assert page.inner_text("#step") == str(n)
        assert shown(page, kind) == expected(chosen, seen), f"position {n}"
        if n < len(result.moves):
            move = result.moves[n]
            marked = page.evaluate("[...document.querySelectorAll('.marked')].length")
            assert marked >= 1, f"nothing marked before move {n + 1} ({move.text()})"
            seen = chosen.game.after(chosen.rules, seen, move.raw)
    assert seen.cards_left() == 0  # the last position shown is the won one
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.wedlock.step(0)")
    page.screenshot(path=str(SHOTS / f"{game}-{rules}-{number}-start.png"), full_page=True)
    page.evaluate(f"window.wedlock.step({len(result.moves)})")
    page.screenshot(path=str(SHOTS / f"{game}-{rules}-{number}-end.png"), full_page=True)
    assert errors == []
    assert all(url.startswith(("file:", "data:")) for url in requests), requests


def test_the_controls_the_keyboard_and_the_fragment(browser, tmp_path: Path) -> None:
    path = tmp_path / "win.html"
    assert run("solve", "monte-carlo", "12345", "--html", path).exit_code == 0
    page, _, errors = opened(browser, path, "#12")
    count = page.evaluate("window.wedlock.count")
    assert page.inner_text("#step") == "12"
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#step") == "13"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step") == "11"
    page.keyboard.press("End")
    assert page.inner_text("#step") == str(count)
    page.keyboard.press("Home")
    assert page.inner_text("#step") == "0"
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#step") == "2"
    page.click("#last")
    assert page.inner_text("#step") == str(count)
    page.click("#first")
    page.click("#moves li[data-move='7']")
    assert page.inner_text("#step") == "7"
    assert page.evaluate("document.querySelector('#moves li.current').dataset.move") == "7"
    assert page.evaluate("location.hash") == "#7"
    page.fill("#slider", "20")
    assert page.inner_text("#step") == "20"
    page.select_option("#speed", "8")
    page.keyboard.press(" ")
    # The page's policy forbids eval, so playwright's wait_for_function cannot run there: poll.
    for _ in range(50):
        if int(page.inner_text("#step")) > 21:
            break
        page.wait_for_timeout(100)
    assert int(page.inner_text("#step")) > 21, "playing did not move on"
    page.keyboard.press(" ")
    assert errors == []


@pytest.mark.slow
def test_the_page_fits_a_phone(browser, tmp_path: Path) -> None:
    path = tmp_path / "m.html"
    assert run("solve", "matrimony", "2", "--html", path).exit_code == 0
    page, _, errors = opened(browser, path, width=390)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1 and errors == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "matrimony-pysol-2-phone.png"), full_page=True)


def test_show_makes_the_page_of_a_moves_file(browser, tmp_path: Path) -> None:
    moves = tmp_path / "line.json"
    moves.write_text(run("batch", "monte-carlo", "6", "--rules", "weddings", "--solutions", "--quiet").stdout)  # won
    path = tmp_path / "show.html"
    result = run("show", moves, "--html", path)
    assert result.exit_code == 0 and result.stdout.startswith(f"{path}: Weddings (PySolFC), game 6, a legal win: ")
    page, requests, errors = opened(browser, path)
    assert page.inner_text("header h1") == "Weddings (PySolFC), game 6"
    page.keyboard.press("End")
    assert page.evaluate("[...document.querySelectorAll('[data-card]')].length") == 0  # every card out
    assert errors == [] and all(url.startswith("file:") for url in requests)


@pytest.mark.slow
def test_every_cards_ranks_lie_inside_the_card(browser, tmp_path: Path) -> None:
    """Both corners' ranks, a two-letter 10 upside down in the bottom right included, are
    drawn whole inside the card."""
    path = tmp_path / "tens.html"
    assert run("solve", "monte-carlo", "12345", "--html", path).exit_code == 0  # TS at A2, TD at D4
    page, _, errors = opened(browser, path)
    outside = page.evaluate(
        """() => {
        const out = [];
        let tens = 0;
        for (const card of document.querySelectorAll('[data-card]')) {
            const box = card.querySelector('svg').getBoundingClientRect();
            for (const text of card.querySelectorAll('text')) {
                const r = text.getBoundingClientRect();
                if (text.textContent === '10') tens += 1;
                if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
                    out.push(`${card.dataset.card} ${text.textContent}: ${r.left}-${r.right} x ${r.top}-${r.bottom} in ${box.left}-${box.right} x ${box.top}-${box.bottom}`);
            }
        }
        return {out, tens};
    }"""
    )
    assert outside["tens"] >= 4  # two tens at least, a rank in each corner
    assert outside["out"] == [] and errors == []

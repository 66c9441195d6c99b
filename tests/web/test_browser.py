"""The page that solves, as a player uses it: the site `wedlock web` writes, served on
localhost and opened in Debian's chromium (driven by playwright), with every request off
its origin aborted and counted, none allowed. Its verdicts and answers are the library's
(the command line's, tests/web/test_site.py holds the two equal), on fresh numbers drawn
at each run; every line it wins replays through the referee.

Without a browser these tests are skipped, saying why; under CI (CI=true) they fail. A
screenshot of a Matrimony win mid-playback goes to build/screenshots/.
"""

from __future__ import annotations

import functools
import http.server
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import wedlock
from tests.browser import launched
from tests.cli.test_cli import run
from tests.pictures.test_page import SHOTS, expected, shown
from wedlock.games.registry import GAMES

pytestmark = pytest.mark.slow  # loading Pyodide takes seconds: the quick tier keeps the site and its worker, test_site.py
DONE = ("done", "error")
DRAWN = random.Random()  # fresh numbers at each run; a failure names them


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from launched()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site, written by `wedlock web` and served on localhost."""
    folder = tmp_path_factory.mktemp("web") / "site"
    assert run("web", folder).exit_code == 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class Visit:
    """A page of the site in a context of its own, with the requests it sent elsewhere
    (aborted) and the errors it logged."""

    def __init__(self, browser: Any, origin: str, width: int = 1200) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": 1000})
        self.elsewhere: list[str] = []
        self.errors: list[str] = []
        self.context.route(lambda url: not url.startswith(origin + "/"), self._abort)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.origin = origin

    def _abort(self, route: Any) -> None:
        self.elsewhere.append(route.request.url)
        route.abort()

    def open(self, fragment: str) -> dict:
        """The page opened at a link that names a deal, once it has answered."""
        self.load(fragment)
        return self.settled()

    def load(self, fragment: str = "") -> None:
        self.page.goto(f"{self.origin}/index.html{fragment}")

    def ask(self, fragment: str) -> dict:
        """Another deal on the same page, as a changed link asks for it."""
        self.page.evaluate("(f) => { document.documentElement.dataset.state = 'asked'; location.hash = f; }", fragment)
        return self.settled()

    def settled(self, seconds: float = 150) -> dict:
        """What the page shows once its answer (or its error) is ready. The page's policy
        forbids eval, so playwright's wait_for_function cannot run there: poll."""
        ends = time.monotonic() + seconds
        while self.state() not in DONE:
            assert time.monotonic() < ends, f"no answer after {seconds} s: {self.page.inner_text('#progress')}"
            self.page.wait_for_timeout(50)
        return self.page.evaluate(
            """() => ({state: document.documentElement.dataset.state, verdict: document.documentElement.dataset.verdict || null,
                       answer: window.wedlockAnswer, times: window.wedlockTimes, message: document.getElementById('message').textContent,
                       said: document.getElementById('verdict').textContent})"""
        )

    def state(self) -> str:
        return self.page.evaluate("document.documentElement.dataset.state")

    def playback(self) -> Any:
        (frame,) = [f for f in self.page.frames if f is not self.page.main_frame]
        return frame

    def close(self) -> None:
        assert self.elsewhere == [], self.elsewhere
        assert self.errors == [], self.errors
        self.context.close()


@pytest.fixture
def visit(browser: Any, origin: str) -> Iterator[Visit]:
    opened = Visit(browser, origin)
    yield opened
    opened.close()


def fresh(game: str, rules: str, count: int, most: int = 1_000_000) -> list[tuple[str, Any]]:
    """`count` numbers drawn at random whose deals the library decides within 2 s (so that
    the page, slower, answers well within its limit), each with the library's answer."""
    out: list[tuple[str, Any]] = []
    while len(out) < count:
        number = str(DRAWN.randint(1, most))
        found = wedlock.solve(game, number, rules, time_limit=2)
        if found.verdict != "unknown":
            out.append((number, found))
    return out


def check(seen: dict, game: str, number: str, found: Any) -> None:
    """The page's answer is the library's, and a win replays through the referee."""
    where = f"{game} {found.deal.rules.name} {number}"
    assert seen["state"] == "done" and seen["verdict"] == found.verdict.value, where
    mine = dict(found.to_json())
    given = dict(seen["answer"])
    assert given.pop("seconds") >= 0 and mine.pop("seconds") >= 0
    assert given.keys() == mine.keys(), where
    assert given["verdict"] == mine["verdict"] and given["game_number"] == number, where
    if game == "monte-carlo" or found.verdict == "lost":
        assert given == mine, where  # an exhaustive search: the same line, the same count
    if found.verdict == "won":
        assert wedlock.verify(game, number, json.dumps(seen["answer"]), found.deal.rules.name).won, where
    assert seen["said"].startswith(f"{found.deal.title}, game {number}: {found.verdict.value}")


def test_a_link_opens_a_deal_and_solves_it_as_the_library_does(visit: Visit) -> None:
    (number, found), *_ = fresh("monte-carlo", "pysol", 1)
    seen = visit.open(f"#game=monte-carlo&n={number}")
    check(seen, "monte-carlo", number, found)
    assert seen["times"]["load"] < 30 and seen["times"]["solve"] < 10  # the goals are docs/WEB.md's, measured by benchmarks/web_speed.py
    for rules in ("pysol", "arnold"):
        (number, found), *_ = fresh("matrimony", rules, 1, most=10_000)
        check(visit.ask(f"#game=matrimony&n={number}&rules={rules}"), "matrimony", number, found)
    assert visit.playback().evaluate("window.wedlock.count") == len(found.moves)


def test_bad_input_gets_one_sentence_and_a_hint_comes_from_a_moves_file_or_a_typed_position(visit: Visit, tmp_path: Path) -> None:
    for fragment, words in (
        ("#game=chess&n=1", "unknown game 'chess'; choose one of monte-carlo, matrimony."),
        ("#game=matrimony&n=0", "bad game number '0': game numbers start at 1."),
        ("#game=monte-carlo&n=1&rules=arnold", "arnold is a rule set of matrimony"),
    ):
        seen = visit.open(fragment) if fragment.startswith("#game=chess") else visit.ask(fragment)
        assert seen["state"] == "error" and seen["verdict"] is None and seen["answer"] is None, fragment
        assert seen["message"].startswith(words) and seen["message"].endswith(".") and "\n" not in seen["message"]
    page = visit.page
    page.select_option("#game", "monte-carlo")
    page.fill("#number", "12345")
    page.click("#under-way summary")
    page.fill("#moves", "these are no moves")
    page.click("#hint")
    seen = visit.settled()
    assert seen["state"] == "error" and seen["message"].startswith("line 1: not a Monte Carlo move")
    line = run("solve", "monte-carlo", "12345").stdout.splitlines()[:12]  # the header and ten moves
    page.fill("#moves", "\n".join(line))
    page.click("#hint")
    seen = visit.settled()
    assert seen["state"] == "done" and seen["verdict"] == "won" and seen["answer"]["after"] == 10
    hinted = wedlock.hint("monte-carlo", wedlock.position("monte-carlo", 12345, after="\n".join(line)))
    assert seen["answer"]["next"] == hinted.to_json()["next"]
    assert page.inner_text("#hint-lines").startswith(f"next: {hinted.next.text(numbered=False)}")
    played = tmp_path / "played.txt"
    played.write_text("\n".join(line) + "\n")
    typed = run("deal", "monte-carlo", "12345", "--after", played, "--position-out").stdout  # the position as a player types it
    page.fill("#moves", "")
    page.fill("#position", typed)
    page.click("#hint")
    seen = visit.settled()
    assert seen["state"] == "done" and seen["verdict"] == "won" and seen["answer"]["next"] == hinted.to_json()["next"]
    page.fill("#position", typed.replace("TS", "ZZ", 1))  # no card
    page.click("#hint")
    seen = visit.settled()
    assert seen["state"] == "error" and seen["message"].endswith(".") and "\n" not in seen["message"]


def test_a_matrimony_win_mid_playback_shows_the_referees_cards(visit: Visit) -> None:
    (number, found), *_ = fresh("matrimony", "pysol", 1, most=10_000)
    at = len(found.moves) // 3
    seen = visit.open(f"#game=matrimony&n={number}&move={at}")
    check(seen, "matrimony", number, found)
    chosen = found.deal
    played = {**seen["answer"], "moves": seen["answer"]["moves"][:at]}  # the page's own line, its first moves
    board = wedlock.position("matrimony", number, after=json.dumps(played)).seen  # as the referee has them
    frame = visit.playback()
    assert frame.inner_text("#step") == str(at)
    assert shown(frame, "matrimony") == expected(chosen, board)
    SHOTS.mkdir(parents=True, exist_ok=True)
    visit.page.screenshot(path=str(SHOTS / f"web-matrimony-{number}-move-{at}.png"), full_page=True)
    visit.page.keyboard.press("ArrowRight")  # the viewer's keys, from the page around it
    assert frame.inner_text("#step") == str(at + 1)
    visit.page.keyboard.press("Home")
    assert frame.inner_text("#step") == "0"


def test_a_search_cut_short_says_unknown_and_stop_stops_it(visit: Visit) -> None:
    seen = visit.open("#game=matrimony&n=15&time-limit=0.5")  # a hard deal (benchmarks/matrimony-pysol-hard.txt)
    cli = json.loads(run("solve", "matrimony", "15", "--time-limit", "0.5", "--json").stdout)
    assert seen["verdict"] == cli["verdict"] == "unknown"
    assert seen["answer"]["reason"] == cli["reason"] == "time limit 0.5s reached"
    assert "unknown: time limit 0.5s reached" in seen["said"] and seen["said"].endswith("add &time-limit=600 (or none) to the link")
    visit.page.evaluate("location.hash = '#game=matrimony&n=15'")
    for _ in range(100):
        if "search" in visit.page.inner_text("#progress"):
            break
        visit.page.wait_for_timeout(100)
    assert visit.state() == "solving" and "Solving, " in visit.page.inner_text("#progress")
    visit.page.click("#stop")
    assert visit.state() == "stopped" and visit.page.inner_text("#progress").startswith("Stopped after ")
    assert visit.page.evaluate("document.documentElement.dataset.verdict") is None
    (number, found), *_ = fresh("monte-carlo", "pysol", 1)
    check(visit.ask(f"#game=monte-carlo&n={number}"), "monte-carlo", number, found)  # a fresh solver answers


def test_every_game_and_rule_set_answers_as_the_library_does(visit: Visit) -> None:
    visit.load()
    for game in GAMES.values():
        for rules in game.rule_sets:
            for number, found in fresh(game.name, rules, 2, most=10_000 if game.name == "matrimony" else 1_000_000):
                check(visit.ask(f"#game={game.name}&n={number}&rules={rules}"), game.name, number, found)

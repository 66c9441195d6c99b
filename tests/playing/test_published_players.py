"""The published players' files (data/*-players-*.jsonl.gz) make sense: no deal a player
wins is called lost, and over each file no-peek wins at most as often as
perfect play and at least as often as the greedy player, within its interval."""

from __future__ import annotations

from pathlib import Path

import pytest

from wedlock.results.records import iter_results
from wedlock.results.stats import summarize

DATA = Path(__file__).parent.parent.parent / "data"
FILES = sorted(DATA.glob("*-players-*.jsonl.gz"))
PUBLISHED = {f"monte-carlo-{r}-players-1-1000.jsonl.gz" for r in ("pysol", "strict", "thirteens", "weddings")} | {
    "matrimony-arnold-players-1-1000.jsonl.gz",
    "matrimony-pysol-players-1-200.jsonl.gz",
}


def test_the_players_tables_are_published() -> None:
    assert PUBLISHED <= {p.name for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_deal_a_player_wins_is_called_lost(path: Path) -> None:
    for record in iter_results(path):
        players = record["players"]
        assert set(players) >= {"no-peek", "greedy", "random"}
        if any(game["won"] for game in players.values()):  # then the deal is no loss
            assert record["verdict"] != "lost", (record["game_number"], players)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_peek_sits_between_greedy_and_perfect(path: Path) -> None:
    (s,) = summarize(iter_results(path))
    no_peek, low, high = s.player_rate("no-peek")
    greedy, greedy_low, greedy_high = s.player_rate("greedy")
    assert s.players["no-peek"][0] <= s.won  # never more wins than perfect play
    assert high >= greedy_low and no_peek >= greedy_low, (no_peek, greedy)

"""Players: random, greedy, perfect and no-peek games, and what the no-peek player may see."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

import wedlock
from tests.cli.test_cli import assert_bad_input, run
from tests.tiers import first_quick
from wedlock.pipeline.positions import played
from wedlock.playing.players import PLAYERS, NoPeek, PlayerError, play


def swapped_stock(game: str, number: int, rules: str, left: int) -> tuple[list, list]:
    """A deal and the same deal with two stock cards of different ranks swapped, both
    among the last `left` cards dealt: the two look the same until one of them shows."""
    cards = list(wedlock.deal(game, number, rules).cards)
    a = len(cards) - left
    b = next(i for i in range(a + 1, len(cards)) if cards[i].rank != cards[a].rank)
    other = cards[:]
    other[a], other[b] = other[b], other[a]
    return cards, other


@pytest.mark.parametrize(
    "game, number, rules, left", first_quick([("monte-carlo", 12345, "pysol", 6), ("matrimony", 2, "arnold", 6), ("monte-carlo", 31, "weddings", 5)], keep=2)
)
def test_no_peek_plays_two_look_alike_deals_alike_until_a_card_tells_them_apart(game: str, number: int, rules: str, left: int) -> None:
    one, two = swapped_stock(game, number, rules, left)
    a, b = wedlock.position(game, one, rules), wedlock.position(game, two, rules)
    chosen = a.deal
    policies = [NoPeek(chosen.game, chosen.rules, 7, 6, 1.0) for _ in range(2)]
    steps = 0
    while True:
        views = [chosen.game.visible(chosen.rules, p.seen) for p in (a, b)]
        if views[0] != views[1]:
            break  # a card that tells them apart is on the table now
        choices = [policy.choose(view) for policy, view in zip(policies, views)]
        assert choices[0] == choices[1], f"move {steps + 1} differs while the deals look the same"
        if choices[0] is None:
            break
        a, b = played(a, list(choices[0])), played(b, list(choices[1]))
        steps += 1
    assert steps >= 5
    assert a.seen.stock != b.seen.stock or views[0] != views[1]


def test_what_the_no_peek_player_sees_holds_no_order_of_the_stock() -> None:
    one, two = swapped_stock("monte-carlo", 12345, "pysol", 20)
    a, b = (wedlock.position("monte-carlo", cards) for cards in (one, two))
    game, rules = a.deal.game, a.deal.rules
    assert a.seen.stock != b.seen.stock
    assert game.visible(rules, a.seen) == game.visible(rules, b.seen)
    assert Counter(game.unseen(rules, game.visible(rules, a.seen))) == Counter(a.seen.stock)


def test_when_few_orderings_remain_each_is_weighed_once() -> None:
    line = wedlock.solve("monte-carlo", 12345).moves
    p = wedlock.position("monte-carlo", 12345, after=line[:30])
    game, rules = p.deal.game, p.deal.rules
    view = game.visible(rules, p.seen)
    hidden = game.unseen(rules, view)
    ranks = Counter(c.rank for c in hidden)
    distinct = math.factorial(len(hidden)) // math.prod(math.factorial(k) for k in ranks.values())
    policy = NoPeek(game, rules, 0, max(distinct, 1), 1.0)
    orders = policy.orderings(view, hidden)
    assert len(orders) == distinct and len({tuple(c.rank for c in o) for o in orders}) == distinct
    assert all(Counter(o) == Counter(hidden) for o in orders)
    fewer = NoPeek(game, rules, 0, max(distinct - 1, 1), 1.0).orderings(view, hidden)
    assert len(fewer) == max(distinct - 1, 1)  # a sample, when there are more than it holds


@pytest.mark.slow
@pytest.mark.parametrize("game, rules", [("monte-carlo", "pysol"), ("monte-carlo", "strict"), ("matrimony", "arnold")])
def test_the_perfect_player_wins_whenever_any_player_does_and_every_win_replays(game: str, rules: str) -> None:
    for number in range(1, 13):
        verdict = wedlock.solve(game, number, rules).verdict
        for player in PLAYERS:
            found = play(game, number, player, rules, seed=number, samples=4)
            if found.won:
                assert verdict == "won", (number, player)
                assert wedlock.verify(game, number, found.moves, rules=rules).won
            assert wedlock.verify(game, number, found.moves, rules=rules).moves_played == len(found.moves)


def test_bad_players_and_settings() -> None:
    for call in (
        lambda: play("monte-carlo", 1, "lucky"),
        lambda: play("monte-carlo", 1, "random", seed=1.5),
        lambda: play("monte-carlo", 1, "no-peek", samples=0),
        lambda: play("monte-carlo", 1, "no-peek", sample_seconds=-1),
    ):
        with pytest.raises(wedlock.WedlockError):
            call()
    assert issubclass(PlayerError, wedlock.WedlockError)


def test_play_prints_the_game_like_solve_and_its_json() -> None:
    result = run("play", "monte-carlo", "12345", "--player", "no-peek", "--samples", "4")
    lines = result.stdout.splitlines()
    assert lines[0] == "# Monte Carlo (PySolFC), game 12345, played by the no-peek player (seed 0)"
    assert lines[1].startswith(("# won in ", "# lost in ")) and result.exit_code == (0 if "won" in lines[1] else 1)
    assert all(line.startswith(f"{i}. ") for i, line in enumerate(lines[2:], 1))
    data = json.loads(run("play", "monte-carlo", "12345", "--player", "greedy", "--seed", "3", "--json").stdout)
    assert (data["player"], data["seed"], data["title"]) == ("greedy", 3, "Monte Carlo (PySolFC)")
    assert isinstance(data["won"], bool) and isinstance(data["moves"], list)
    assert_bad_input(run("play", "monte-carlo", "12345", "--player", "lucky"), "--player", "lucky")


def test_batch_players_add_their_games_and_stats_their_rates(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    done = run("batch", "monte-carlo", "1-6", "--player", "no-peek", "--player", "random", "--samples", "3", "--out", out, "--quiet", "--jobs", "1")
    assert done.exit_code == 0, done.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert all(set(line["players"]) == {"no-peek", "random"} for line in lines)
    for line in lines:
        if any(g["won"] for g in line["players"].values()):
            assert line["verdict"] == "won"
    summary = json.loads(run("stats", out, "--json").stdout)[0]
    won = sum(line["players"]["no-peek"]["won"] for line in lines)
    assert summary["players"]["no-peek"] == [won, 6]
    table = run("stats", out).stdout
    assert "| no-peek player (games won) | random player (games won) |" in table.splitlines()[0]
    assert f"{100 * won / 6:.2f}% (" in table and " of 6 |" in table


def test_a_perfect_player_whose_search_was_cut_has_no_verdict_but_unknown() -> None:
    # PySolFC's game 15 is won (the shipped table) but no search wins it in a fifth of a second.
    assert wedlock.lookup("matrimony", 15) == "won"
    cut = play("matrimony", 15, "perfect", time_limit=0.2)
    assert cut.verdict == "unknown" and not cut.won and "time limit 0.2s reached" in cut.reason and not cut.moves
    result = run("play", "matrimony", "15", "--player", "perfect", "--time-limit", "0.2")
    assert result.exit_code == 3, result.output
    assert result.stdout.splitlines()[1].startswith("# unknown: the solver did not decide the deal: time limit 0.2s reached")
    data = json.loads(run("play", "matrimony", "15", "--player", "perfect", "--time-limit", "0.2", "--json").stdout)
    assert (data["verdict"], data["won"], data["moves"]) == ("unknown", False, [])
    lost = play("monte-carlo", 3, "perfect", "strict")  # proven lost: played to the end
    assert lost.verdict == "lost" and lost.moves and not lost.reason


@pytest.mark.parametrize("player", ["no-peek", "random", "perfect"])
def test_the_time_limit_bounds_the_whole_game(player: str) -> None:
    # No-peek Matrimony under PySolFC's rules weighs ten orderings a decision: a game takes
    # minutes, so a limit of a second ends it unfinished.
    found = play("matrimony", 2, player, time_limit=1.0, sample_seconds=1.0)
    assert found.seconds < 2.0
    if found.verdict == "unknown":
        assert "time limit 1s reached" in found.reason
        assert wedlock.verify("matrimony", 2, found.moves).moves_played == len(found.moves)
    if player == "no-peek":
        assert found.verdict == "unknown" and found.moves

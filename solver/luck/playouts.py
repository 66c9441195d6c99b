"""Estimating the random and greedy players' odds by playing games out, for deals whose
state graph is too big to analyse whole (`wedlock.search.state_graph` gives exact odds otherwise).

The players are those of `wedlock.search.state_graph`: at every position the random player picks
uniformly among the legal choices, the greedy player among those that take cards out of
play when there are any. Each playout is independent, so the wins of n playouts are a
binomial sample of the player's exact odds.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..basics.intervals import wilson
from ..search.state_graph import Play


def play_out(play: Play, rng: random.Random, greedy: bool) -> bool:
    """One game from the start by the random (or greedy) player: whether it wins."""
    pos = play.start()
    while not play.is_won(pos):
        choices = play.choices(pos)
        if not choices:
            return False
        if greedy:
            choices = [c for c in choices if play.takes_cards(c)] or choices
        pos = play.apply(pos, rng.choice(choices))
    return True


def wins(play: Play, games: int, seed: Any, greedy: bool, deadline: float | None = None) -> tuple[int, int]:
    """How many of `games` playouts the player wins, and how many it played (fewer when
    `deadline`, a `time.perf_counter()` reading, comes first); the same seed gives the
    same answer."""
    rng = random.Random(f"{seed}/{'greedy' if greedy else 'random'}")
    won = played = 0
    while played < games and (deadline is None or time.perf_counter() < deadline):
        won += play_out(play, rng, greedy)
        played += 1
    return won, played


def estimate(
    play: Play, bounds: tuple[Any, Any], games: int, seed: Any, greedy: bool, deadline: float | None = None
) -> dict[str, Any]:
    """A player's odds from up to `games` playouts: `games` played, the share won and its
    Wilson 95% interval, kept within `bounds` (what a cut state graph proves)."""
    low, high = (float(b) for b in bounds)
    if low == high:  # the graph already proves the odds
        return {"games": 0, "value": low, "low": low, "high": high}
    won, played = wins(play, games, seed, greedy, deadline)
    if played == 0:
        return {"games": 0, "value": None, "low": low, "high": high}
    a, b = wilson(won, played)
    if a > high or b < low:  # the 1-in-20 miss of a 95% interval: keep what is proven
        a, b = low, high
    a, b = max(a, low), min(b, high)
    return {"games": played, "value": min(max(won / played, a), b), "low": a, "high": b}

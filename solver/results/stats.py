"""Summaries of results files: win rates with honest intervals."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..basics.intervals import Z95, wilson
from ..games.registry import GAMES
from .external_sort import SpillSort
from .records import conflict, preference

# The bins of the solve-time histograms: four a decade from 0.1 ms (the precision of a
# results line) to a day and more; a time outside them counts in the first or the last bin.
TIME_EDGES = tuple(10 ** (k / 4) for k in range(-16, 21))


def time_bin(seconds: float) -> int:
    """The histogram bin of a solve time."""
    if seconds <= TIME_EDGES[0]:
        return 0
    return min(len(TIME_EDGES) - 2, max(0, math.floor(4 * math.log10(seconds)) + 16))


@dataclass(frozen=True)
class Summary:
    """One game and rule set: counts, win rate and its interval, time per deal."""

    game: str
    rules: str
    deals: int
    won: int
    lost: int
    unknown: int
    win_rate: float  # won / deals
    low: float  # Wilson lower bound, unknown counted as lost
    high: float  # Wilson upper bound; with unknown deals, the share not proven lost
    median_seconds: float
    worst_seconds: float
    # Over the deals whose lines carry an analysis (batch --analyze): how many, how many of
    # them exactly, and each player's mean odds with the half-width of a 95% interval for
    # that mean (0 when every deal's odds are exact; playouts add binomial variance).
    analysed: int = 0
    exact: int = 0
    random: float | None = None
    random_margin: float | None = None
    greedy: float | None = None
    greedy_margin: float | None = None
    # Over the deals whose lines carry players' games (batch --player): each player's
    # games won and played.
    players: dict[str, tuple[int, int]] = field(default_factory=dict)
    # How many deals took a time in each bin of TIME_EDGES.
    seconds_histogram: tuple[int, ...] = ()

    def player_rate(self, name: str) -> tuple[float, float, float]:
        """A player's share of games won, with its Wilson 95% interval."""
        won, n = self.players[name]
        return (won / n, *wilson(won, n))

    def as_dict(self) -> dict[str, Any]:
        """The figures as `stats --json` gives them (the histogram only feeds the picture)."""
        data = asdict(self)
        del data["seconds_histogram"]
        return data


def summarize(records: Iterable[dict[str, Any]]) -> list[Summary]:
    """One Summary per game and rule set, in the registry's order, over one record per
    deal (the one that counts: `records.preference`). The records stream through: deals
    wait in temporary files rather than in memory, so any number of lines fits, and the
    answer does not depend on their order. Two decided records of one deal that disagree
    are a ResultsFileError."""
    names: dict[str, str] = {}  # one string object for each game and rule set's name
    deals = SpillSort()  # (game, rules, number, *preference, verdict): a deal's best line last
    for r in records:
        game, rules = names.setdefault(r["game"], r["game"]), names.setdefault(r["rules"], r["rules"])
        deals.add((game, rules, r["game_number"], *preference(r), r["verdict"]))
    tallies: dict[tuple[str, str], _Tally] = {}
    times: dict[tuple[str, str], SpillSort] = {}
    deal: tuple = ()
    best: tuple = ()
    verdicts: set[str] = set()
    luck: tuple = ()
    games: dict[str, bool] = {}

    def count() -> None:
        if len(verdicts) > 1:
            raise conflict(deal)
        group = deal[:2]
        tallies.setdefault(group, _Tally()).add(best[-1], best[4], (luck[1], luck[4], luck[6]) if luck else None, games)
        times.setdefault(group, SpillSort()).add(best[4])

    for line in deals.sorted():
        if line[:3] != deal:
            if deal:
                count()
            deal, verdicts, luck, games = line[:3], set(), (), {}
        best = line
        if line[3]:
            verdicts.add(line[-1])
        if line[7]:
            luck = line[7]  # the best line with an analysis
        games.update(line[8])  # each player's game from the best line that has one
    if deal:
        count()
    medians, histograms = {}, {}
    for group, seconds in times.items():
        n = tallies[group].deals
        middle = []
        bins = [0] * (len(TIME_EDGES) - 1)
        for i, took in enumerate(seconds.sorted()):
            if i in ((n - 1) // 2, n // 2):
                middle.append(took)
            bins[time_bin(took)] += 1
        medians[group], histograms[group] = sum(middle) / len(middle), tuple(bins)
    return [tallies[g].summary(g, medians[g], histograms[g]) for g in sorted(tallies, key=registry_order)]


def registry_order(group: tuple[str, str]) -> tuple:
    """Games and rule sets in the order the registry lists them; others after, by name."""
    game = GAMES.get(group[0])
    if game is None:
        return (len(GAMES), 0, group)
    rules = list(game.rule_sets)
    return (list(GAMES).index(group[0]), rules.index(group[1]) if group[1] in rules else len(rules), group)


class _Tally:
    """The counts of one game and rule set, a deal at a time."""

    def __init__(self) -> None:
        self.deals = self.won = self.lost = 0
        self.worst = 0.0
        self.analysed = self.exact = 0
        self.sums = {"random": 0.0, "greedy": 0.0}
        self.variances = {"random": 0.0, "greedy": 0.0}
        self.games: dict[str, list[int]] = {}  # player -> [won, played]

    def add(self, verdict: str, seconds: float, luck: tuple[float, float, int] | None, games: dict[str, bool]) -> None:
        for name, won in games.items():
            tally = self.games.setdefault(name, [0, 0])
            tally[0] += won
            tally[1] += 1
        self.deals += 1
        self.won += verdict == "won"
        self.lost += verdict == "lost"
        self.worst = max(self.worst, seconds)
        if luck is None:
            return
        self.analysed += 1
        playouts = luck[2]
        self.exact += playouts == 0
        for who, value in zip(("random", "greedy"), luck[:2]):
            self.sums[who] += value
            if playouts:
                self.variances[who] += _playout_variance(value, playouts)

    def summary(self, group: tuple[str, str], median: float, histogram: tuple[int, ...]) -> Summary:
        n, won, lost = self.deals, self.won, self.lost
        unknown = n - won - lost
        players: dict[str, Any] = {}
        if self.analysed:
            players = {"analysed": self.analysed, "exact": self.exact}
            for who in ("random", "greedy"):
                players[who] = self.sums[who] / self.analysed
                players[f"{who}_margin"] = Z95 * math.sqrt(self.variances[who]) / self.analysed
        played = {name: (w, g) for name, (w, g) in sorted(self.games.items())}
        low = wilson(won, n)[0]
        # With unknown deals, the high end is what the deals could be at best, all unknown
        # ones won: below 100% once one is proven lost (Wilson's bound would round to it).
        high = (won + unknown) / n if unknown else wilson(won, n)[1]
        return Summary(
            group[0], group[1], n, won, lost, unknown, won / n, low, high, median, self.worst, **players, players=played, seconds_histogram=histogram
        )


def _playout_variance(share: float, games: int) -> float:
    """The variance of a share won in `games` playouts, Agresti-Coull style: two wins and
    two losses added, so that a player who never (or always) won still leaves a margin."""
    adjusted = (share * games + 2) / (games + 4)
    return adjusted * (1 - adjusted) / (games + 4)


def mean_text(mean: float | None, margin: float | None) -> str:
    """A mean win rate for a table, with its 95% margin when some odds were estimated."""
    if mean is None or margin is None:
        return "-"
    if margin == 0:
        return f"{100 * mean:.2f}%"
    return f"{100 * mean:.2f}% ± {100 * margin:.2f}%" if margin >= 5e-5 else f"{100 * mean:.2f}% ± <0.01%"

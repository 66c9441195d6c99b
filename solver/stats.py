"""Summaries of results files: win rates with honest intervals."""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass
from typing import Any, Iterable

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    low = 0.0 if successes == 0 else max(0.0, (centre - spread) / denominator)
    high = 1.0 if successes == n else min(1.0, (centre + spread) / denominator)
    return low, high


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
    high: float  # Wilson upper bound, unknown counted as won
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

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarize(records: Iterable[dict[str, Any]]) -> list[Summary]:
    """One Summary per (game, rules), in first-seen order."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault((r["game"], r["rules"]), []).append(r)
    out = []
    for (game, rules), rs in groups.items():
        n = len(rs)
        won = sum(r["verdict"] == "won" for r in rs)
        lost = sum(r["verdict"] == "lost" for r in rs)
        unknown = n - won - lost
        seconds = [float(r["seconds"]) for r in rs]
        out.append(
            Summary(
                game,
                rules,
                n,
                won,
                lost,
                unknown,
                won / n,
                wilson(won, n)[0],
                wilson(won + unknown, n)[1],
                statistics.median(seconds),
                max(seconds),
                **players(rs),
            )
        )
    return out


def players(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The players' mean odds over the analysed records, with their 95% margins."""
    analysed = [r["analysis"] for r in records if isinstance(r.get("analysis"), dict)]
    if not analysed:
        return {}
    n = len(analysed)
    out: dict[str, Any] = {"analysed": n, "exact": sum(a["playouts"] == 0 for a in analysed)}
    for who in ("random", "greedy"):
        values = [a[who]["value"] for a in analysed]
        variance = sum(_playout_variance(v, a["playouts"]) for v, a in zip(values, analysed) if a["playouts"])
        out[who] = statistics.fmean(values)
        out[f"{who}_margin"] = Z95 * math.sqrt(variance) / n
    return out


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

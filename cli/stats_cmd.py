"""`wedlock stats`: win rates of results files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import click

from wedlock.games.registry import GAMES
from wedlock.pictures.charts import draw_stats, pyplot
from wedlock.results.records import iter_results, read_records
from wedlock.results.stats import Summary, mean_text, summarize

from .common import BadInput, FilePath, check_writable, input_errors, json_option, shown_name, stdin_bytes, write_file


@click.command("stats")
@click.argument("files", nargs=-1, required=True, type=FilePath(exists=True, allow_dash=True))
@click.option(
    "--plot",
    "plot_file",
    type=FilePath(writable=True),
    help="Also draw the win rates, the players side by side and the solve times as a PNG (needs matplotlib).",
)
@json_option
@input_errors
def stats_command(files: tuple[str, ...], plot_file: str | None, as_json: bool) -> None:
    """Summarize results files: per game and rule set, the win rate and its 95% interval.

    The interval is Wilson's. With unknown deals, its low end counts them as lost, and its
    high end is the share of deals not proven lost (all unknown ones won), below 100% once
    one deal is proven lost. A deal with several lines counts once: a won or lost line
    rather than an unknown one, else the longer search; a deal both won and lost is an
    error. The files are read a line at a time, in any number and order (- reads plain
    JSON lines from stdin). Lines written by `batch --analyze` add the mean odds of a
    random and a greedy player (see analyze).

    Example: wedlock stats mc.jsonl --plot mc.png
    """
    if plot_file:
        pyplot()  # before the work: matplotlib is there
        check_writable(plot_file)
    summaries = summarize(record for path in files for record in _records(path))
    if not summaries:
        raise BadInput(f"no results in {', '.join(map(shown_name, files))}")
    if plot_file:
        write_file(plot_file, lambda target: draw_stats(summaries, [title(s) for s in summaries], target))
    if as_json:
        click.echo(json.dumps([{**s.as_dict(), "title": title(s)} for s in summaries]))
        return
    luck = any(s.analysed for s in summaries)
    names = [p for p in ("no-peek", "greedy", "random") if any(p in s.players for s in summaries)]
    head = "| game | deals | won | lost | unknown | win rate | 95% interval | median s | worst s |"
    rule = "|---|---|---|---|---|---|---|---|---|"
    if luck:
        head += " analysed | random player | greedy player |"
        rule += "---|---|---|"
    for name in names:
        head += f" {name} player (games won) |"
        rule += "---|"
    click.echo(head)
    click.echo(rule)
    for s in summaries:
        line = (
            f"| {title(s)} | {s.deals:,} | {s.won:,} | {s.lost:,} | {s.unknown:,} | {100 * s.win_rate:.2f}% "
            f"| {100 * s.low:.2f}% - {100 * s.high:.2f}% | {s.median_seconds:,.4f} | {s.worst_seconds:,.2f} |"
        )
        if luck:
            line += f" {s.analysed:,} ({s.exact:,} exact) | {mean_text(s.random, s.random_margin)} | {mean_text(s.greedy, s.greedy_margin)} |"
        for name in names:
            line += f" {rate_text(s, name)} |"
        click.echo(line)


def _records(path: str) -> Iterator[dict[str, Any]]:
    """The records of a results file, or of stdin for `-`."""
    if path == "-":
        return read_records(stdin_bytes(), "stdin")
    return iter_results(path)


def rate_text(s: Summary, name: str) -> str:
    """A player's win rate with its interval and games, or - where it did not play."""
    if name not in s.players:
        return "-"
    rate, low, high = s.player_rate(name)
    return f"{100 * rate:.2f}% ({100 * low:.2f}% - {100 * high:.2f}%) of {s.players[name][1]:,}"


def title(s: Summary) -> str:
    """The game and rule set in a player's words, when the registry knows them."""
    game = GAMES.get(s.game)
    rules = game.rule_sets.get(s.rules) if game else None
    return rules.title if rules else f"{s.game} ({s.rules})"

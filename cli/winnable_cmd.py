"""`wedlock winnable`: game numbers proven winnable, or proven lost, on demand."""

from __future__ import annotations

import json
import sys

import click

from wedlock.games.registry import game_named, rules_of
from wedlock.results.tables import table
from wedlock.results.winnable import ON_THE_FLY_SECONDS, GaveUp, winnable

from .common import (
    COUNT,
    BadInput,
    Command,
    answering,
    game_argument,
    input_errors,
    interruptible,
    json_option,
    rules_option,
    time_limit_option,
)

UNKNOWN_STATUS = 3  # as `solve` says unknown: fewer numbers than asked, for want of time


@click.command("winnable", cls=Command)
@game_argument
@rules_option
@click.option("--count", type=COUNT, default=10, show_default=True, help="How many game numbers.")
@click.option("--random", "shuffled", is_flag=True, help="Drawn at random (from the published table, unless --to says more).")
@click.option("--seed", help="With --random: the same seed gives the same numbers.")
@click.option("--lost", is_flag=True, help="Game numbers proven lost instead.")
@click.option("--from", "start", type=click.IntRange(min=1), default=1, show_default=True, help="The first game number to look at.")
@click.option("--to", "stop", type=click.IntRange(min=1), help="The last game number to look at.")
@time_limit_option(ON_THE_FLY_SECONDS)
@json_option
@interruptible
@input_errors
def winnable_command(
    game_name: str,
    rules_name: str | None,
    count: int,
    shuffled: bool,
    seed: str | None,
    lost: bool,
    start: int,
    stop: int | None,
    time_limit: float | None,
    as_json: bool,
) -> None:
    """Print game numbers proven winnable (with --lost, proven lost), one a line.

    They come from the published results, shipped with wedlock, and past those from deals
    solved as they come (each within --time-limit; a deal left unknown is passed over).
    The output reads back as a list of numbers for `batch @FILE`.

    Example: wedlock winnable monte-carlo --random --count 5
    """
    game = game_named(game_name)
    rules = rules_of(game, rules_name)
    if seed is not None and not shuffled:
        raise BadInput("--seed goes with --random")
    known = table(game.name, rules.name)
    skipped: list[int] = []
    seeded = int(seed) if seed is not None and seed.isdigit() else seed  # `--seed 1` is the API's seed=1
    found = winnable(
        game.name, rules.name, count=count, lost=lost, random=shuffled, seed=seeded, start=start, stop=stop, time_limit=time_limit, skipped=skipped
    )
    answering()  # the numbers go out as they are found
    try:
        report(found, game, rules, known, count, lost, skipped, as_json)
    except GaveUp as err:
        click.echo(f"# stopped: {err}", err=True)
        sys.exit(UNKNOWN_STATUS)


def report(found, game, rules, known, count: int, lost: bool, skipped: list[int], as_json: bool) -> None:
    """The numbers as text, one a line, or as JSON."""
    what = "lost" if lost else "winnable"
    if as_json:
        numbers = list(found)
        data = {
            "game": game.name,
            "rules": rules.name,
            "title": rules.title,
            "verdict": "lost" if lost else "won",
            "numbers": [f.number for f in numbers],
            "from_table": sum(f.from_table for f in numbers),
            "solved": sum(not f.from_table for f in numbers),
            "passed_over": skipped,
            "table": None if known is None else {"first": known.first, "last": known.last},
        }
        click.echo(json.dumps(data))
        return
    source = "no published table" if known is None else f"published table of games {known.first:,}-{known.last:,}"
    click.echo(f"# {rules.title}: game numbers proven {what} ({source})")
    given = 0
    for f in found:
        given += 1
        click.echo(str(f.number) if f.from_table else f"{f.number}  # solved now, {f.seconds:,.2f} s")
    if given < count:
        click.echo(f"# only {given:,} in the range asked for", err=True)
    if skipped:
        click.echo(f"# passed over as unknown: {', '.join(map(str, skipped[:20]))}{' ...' if len(skipped) > 20 else ''}", err=True)

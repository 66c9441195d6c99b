"""`wedlock winnable`: game numbers proven winnable, or proven lost, on demand."""

from __future__ import annotations

import json
import sys
from types import TracebackType
from typing import Any

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
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    quiet: bool,
    as_json: bool,
) -> None:
    """Print game numbers proven winnable (with --lost, proven lost), one a line.

    They come from the published results, shipped with wedlock, and past those from deals
    solved as they come (each within --time-limit; a deal left unknown is passed over),
    with a progress bar on stderr while they are solved. The output reads back as a list
    of numbers for `batch @FILE`.

    Example: wedlock winnable monte-carlo --random --count 5
    """
    game = game_named(game_name)
    rules = rules_of(game, rules_name)
    if seed is not None and not shuffled:
        raise BadInput("--seed goes with --random")
    known = table(game.name, rules.name)
    skipped: list[int] = []
    seeded = int(seed) if seed is not None and seed.isdigit() else seed  # `--seed 1` is the API's seed=1
    bar = SolvingBar(not quiet and sys.stderr is not None, count)
    found = winnable(
        game.name,
        rules.name,
        count=count,
        lost=lost,
        random=shuffled,
        seed=seeded,
        start=start,
        stop=stop,
        time_limit=time_limit,
        skipped=skipped,
        solving=bar.solving,
    )
    answering()  # the numbers go out as they are found
    try:
        report(found, game, rules, known, count, lost, skipped, as_json, bar)
    except GaveUp as err:
        click.echo(f"# stopped: {err}", err=True)
        sys.exit(UNKNOWN_STATUS)


class SolvingBar:
    """The progress bar of `winnable` on stderr, as `batch` draws one: the numbers found
    of those asked for, and the game being solved. It comes up with the first deal solved
    past the table (the table answers at once); disabled (--quiet), it draws nothing."""

    def __init__(self, enabled: bool, count: int) -> None:
        self.enabled, self.count, self.found = enabled, count, 0
        self.bar: Any = None

    def solving(self, number: int) -> None:
        """Called as the deal `number` starts to be solved."""
        if not self.enabled:
            return
        if self.bar is None:
            from tqdm import tqdm  # loaded only for a bar that is drawn

            self.bar = tqdm(total=self.count, initial=self.found, unit="number", file=sys.stderr, postfix=f"solving game {number:,}")
        else:
            self.bar.set_postfix_str(f"solving game {number:,}")

    def add(self) -> None:
        """One more number found."""
        self.found += 1
        if self.bar is not None:
            self.bar.set_postfix_str("", refresh=False)  # until the next deal is solved
            self.bar.update(1)

    def echo(self, line: str) -> None:
        """A line of the answer on stdout, with the bar out of its way while it is written."""
        if self.bar is None:
            click.echo(line)
            return
        with self.bar.external_write_mode():
            click.echo(line)

    def __enter__(self) -> SolvingBar:
        return self

    def __exit__(self, kind: type | None, err: BaseException | None, trace: TracebackType | None) -> None:
        if self.bar is not None:
            try:
                self.bar.close()
            except OSError:  # a terminal gone with SIGHUP: nothing left to draw on
                pass


def report(found, game, rules, known, count: int, lost: bool, skipped: list[int], as_json: bool, bar: SolvingBar) -> None:
    """The numbers as text, one a line, or as JSON; the bar is gone before the lines
    that follow them on stderr."""
    what = "lost" if lost else "winnable"
    if as_json:
        numbers = []
        with bar:
            for f in found:
                numbers.append(f)
                bar.add()
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
    with bar:
        for f in found:
            given += 1
            bar.add()
            bar.echo(str(f.number) if f.from_table else f"{f.number}  # solved now, {f.seconds:,.2f} s")
    if given < count:
        click.echo(f"# only {given:,} in the range asked for", err=True)
    if skipped:
        click.echo(f"# passed over as unknown: {', '.join(map(str, skipped[:20]))}{' ...' if len(skipped) > 20 else ''}", err=True)

"""What the commands share: choosing a deal, limits, the progress option, and turning input
errors into exit 2 and Ctrl-C into exit 130."""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass
from typing import Any, Callable

import click

from wedlock.cards import Card
from wedlock.deals import read_deal_file
from wedlock.errors import WedlockError
from wedlock.game import Game, rules_of
from wedlock.games import GAMES, game_named
from wedlock.numbering import GameNumber
from wedlock.search import Limits

BAD_INPUT = 2


class BadInput(click.ClickException):
    """One line on stderr and exit status 2."""

    exit_code = BAD_INPUT


def input_errors(command: Callable) -> Callable:
    """Turn the library's named input errors into a one-line message and exit 2."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except WedlockError as err:
            raise BadInput(str(err)) from None

    return wrapper


INTERRUPTED = 130  # the shell's status for a command stopped by Ctrl-C


def interruptible(command: Callable) -> Callable:
    """Ctrl-C: one line and exit 130, which no verdict uses (click's own answer is exit 1,
    which `solve` uses for lost)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            click.echo("Interrupted before an answer.", err=True)
            sys.exit(INTERRUPTED)

    return wrapper


def progress_option(command: Callable) -> Callable:
    """--progress/--no-progress: the status line of cli/progress.py (default: on a terminal)."""
    return click.option(
        "--progress/--no-progress",
        default=None,
        help="Show which search runs, on stderr (default: when stderr is a terminal).",
    )(command)


def shows_progress(flag: bool | None) -> bool:
    return sys.stderr.isatty() if flag is None else flag


# `-3` is then read as a (bad) game number, reported in one line, not as an unknown option.
NUMBERS_MAY_START_WITH_DASH = {"ignore_unknown_options": True}

class FilePath(click.Path):
    """A file's path, which must not be empty (an empty one would otherwise read as "none
    given": --out '' would write to stdout, --dot '' nothing at all)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(dir_okay=False, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("a file name cannot be empty", param, ctx)
        return super().convert(value, param, ctx)


class Seconds(click.FloatRange):
    """Seconds, 0 or more: never NaN, which compares false with every limit and so would
    never stop a search."""

    def __init__(self) -> None:
        super().__init__(min=0)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail("not a number of seconds", param, ctx)
        return seconds


game_argument = click.argument("game_name", metavar="GAME", type=click.Choice(sorted(GAMES)))
number_argument = click.argument("number", metavar="N", required=False)
deal_file_option = click.option(
    "--deal-file",
    type=FilePath(),
    help="Read the deal from a file: the cards in dealing order (see README).",
)
rules_option = click.option("--rules", "rules_name", help="Rule set (default: the game's own; see README).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def count_option(name: str, default: int, help: str) -> Callable:
    """An option taking a positive whole number, its default shown in --help."""
    return click.option(name, type=click.IntRange(min=1), default=default, show_default=True, help=help)


def playouts_option(help: str) -> Callable:
    """--playouts: games each player plays out when a state graph is too big (seeded)."""
    return count_option("--playouts", 2_000, help)


def limit_options(command: Callable) -> Callable:
    """--node-limit, --time-limit and --max-states."""
    command = click.option(
        "--max-states",
        type=click.IntRange(min=1),
        default=Limits().max_states,
        show_default=True,
        help="Give up (unknown) when the search holds this many states.",
    )(command)
    command = click.option("--time-limit", type=Seconds(), help="Give up (unknown) after S seconds.")(command)
    command = click.option("--node-limit", type=click.IntRange(min=1), help="Give up (unknown) after N states.")(command)
    return command


def limits_from(node_limit: int | None, time_limit: float | None, max_states: int | None) -> Limits:
    return Limits(node_limit=node_limit, time_limit=time_limit, max_states=max_states)


@dataclass(frozen=True)
class ChosenDeal:
    """The game, rule set and cards a command works on."""

    game: Game
    rules: Any
    cards: list[Card]
    game_number: str | None  # None for a deal read from a file

    @property
    def label(self) -> str:
        return f"game {self.game_number}" if self.game_number else "the deal file's deal"


def choose_deal(game_name: str, number: str | None, deal_file: str | None, rules_name: str | None) -> ChosenDeal:
    """The deal named on the command line: a game number or a deal file, not both."""
    game = game_named(game_name)
    rules = rules_of(game, rules_name)
    if (number is None) == (deal_file is None):
        raise BadInput("give either a game number N or --deal-file F")
    if deal_file is not None:
        cards = game.check_deal(rules, read_deal_file(deal_file, game.decks(rules)))
        return ChosenDeal(game, rules, cards, None)
    canonical = str(GameNumber.parse(number))
    return ChosenDeal(game, rules, game.numbered_deal(rules, canonical), canonical)

"""`wedlock play`: a deal played out by a random, greedy, perfect or no-peek player."""

from __future__ import annotations

import json
import sys

import click

from wedlock.basics.words import counted
from wedlock.playing.players import PLAYERS, play
from wedlock.search.exhaustive import Verdict

from .common import (
    SOLVE_SECONDS,
    Command,
    answering,
    as_set,
    choose_start,
    deadline_after,
    header,
    input_errors,
    interruptible,
    json_option,
    no_peek_options,
    start_game,
    start_options,
    time_left,
    time_limit_option,
)

EXIT_STATUS = {Verdict.WON: 0, Verdict.LOST: 1, Verdict.UNKNOWN: 3}


@click.command("play", cls=Command)
@start_options
@click.option("--player", type=click.Choice(PLAYERS), required=True, help="Who plays: see below.")
@click.option("--seed", type=int, default=0, show_default=True, help="The player's random draws (the same seed, the same game).")
@no_peek_options("no-peek:")
@time_limit_option(SOLVE_SECONDS, "The whole game (perfect: its search); past it the game is unknown. 'none' for no limit.")
@json_option
@interruptible
@input_errors
def play_command(
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    position_file: str | None,
    pysolfc_save: str | None,
    player: str,
    seed: int,
    samples: int,
    sample_time: float | None,
    time_limit: float | None,
    as_json: bool,
) -> None:
    """Play game N (or a deal file, or a position) as a player and print its moves.

    random picks any legal move; greedy takes cards out of play when it can (both as
    analyze has them); perfect plays the solver's line, seeing every card; no-peek sees
    what a PySolFC player sees (not the stock's order): at each decision it solves the
    position after each move in --samples orderings of the unseen cards and plays the move
    that wins in the most of them. Exit status: 0 won, 1 lost, 3 unknown (the time
    limit ended the game, or perfect play's search, first), 2 bad input.

    Example: wedlock play monte-carlo 12345 --player no-peek
    """
    deadline = deadline_after(time_limit)  # reading the start counts too
    start, label = choose_start(game_name, number, deal_file, rules_name, after_file, position_file, pysolfc_save, deadline)
    game = start_game(start)
    found = play(game, start, player, seed=seed, samples=samples, sample_seconds=sample_time, time_limit=time_left(deadline))
    found = as_set(found, time_limit)
    answering()
    if as_json:
        click.echo(json.dumps(found.to_json()))
    else:
        chosen = found.start.deal
        who = f"the {player} player" + (f" (seed {seed})" if player in ("random", "greedy", "no-peek") else "")
        click.echo(f"{header(chosen, label)}, played by {who}")
        if found.verdict == Verdict.UNKNOWN:
            click.echo(f"# unknown: {found.reason} ({found.seconds:,.2f} s)")
        else:
            click.echo(f"# {found.verdict} in {counted(len(found.moves), 'move')} ({found.seconds:,.2f} s)")
        for i, move in enumerate(found.moves, 1):
            click.echo(f"{i}. {move.text()}")
    sys.exit(EXIT_STATUS[found.verdict])

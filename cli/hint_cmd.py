"""`wedlock hint`: from a game under way, the verdict, the next move, and what each legal
move does to the chances of a win."""

from __future__ import annotations

import json
import sys

import click

from wedlock.pipeline.solving import Position
from wedlock.playing.hints import KEEPS, Hint, hint
from wedlock.search.exhaustive import LOST, UNKNOWN, WON

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
    limit_options,
    progress_option,
    shows_progress,
    start_game,
    start_options,
    time_left,
)
from .progress import SearchBar
from .solve_cmd import longer

EXIT_STATUS = {WON: 0, LOST: 1, UNKNOWN: 3}


@click.command("hint", cls=Command)
@start_options
@limit_options(SOLVE_SECONDS)
@json_option
@progress_option
@interruptible
@input_errors
def hint_command(
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    position_file: str | None,
    pysolfc_save: str | None,
    node_limit: int | None,
    time_limit: float | None,
    max_states: int | None,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Can the game still be won from here, and what to play next: the verdict from the
    position (the deal's opening, after --after's moves, or typed with --position), the
    next move of a winning line, and every legal move classed as keeps the win, loses, or
    unknown (a limit cut its search short). Half the time limit goes to the position's own
    search, the rest to its moves'. Exit status as solve's.

    Example: wedlock hint monte-carlo 12345 --after first-ten-moves.txt
    """
    deadline = deadline_after(time_limit)  # reading the start counts too
    start, label = choose_start(game_name, number, deal_file, rules_name, after_file, position_file, pysolfc_save, deadline)
    game = start_game(start)
    with SearchBar(shows_progress(progress), f"{game.name} {label}") as bar:
        found = hint(game, start, time_limit=time_left(deadline), node_limit=node_limit, max_states=max_states, progress=bar)
    found = as_set(found, time_limit)
    answering()
    if as_json:
        click.echo(json.dumps(found.to_json()))
    else:
        for line in text_lines(found, label):
            click.echo(line)
    sys.exit(EXIT_STATUS[found.verdict])


def text_lines(found: Hint, label: str) -> list[str]:
    """The hint as text: the verdict, the next move, and each move with its class."""
    chosen = found.position.deal if isinstance(found.position, Position) else found.position
    out = [header(chosen, label), f"# {found.summary()}"]
    if found.verdict == UNKNOWN:
        out.append(f"# {longer(found.reason)}")
    if found.verdict == WON:
        out.append(f"next: {found.next.text(numbered=False)}" if found.next else "next: nothing: every card is out, the game is won")
    elif found.verdict == LOST:
        out.append("next: none wins" if found.choices else "next: no move is left")
    if found.choices:
        width = max(len(choice.text(numbered=False)) for choice, _ in found.choices)
        out.append("moves:")
        for choice, cls in found.choices:
            mark = "   (next)" if found.verdict == WON and choice == found.next and cls == KEEPS else ""
            out.append(f"  {choice.text(numbered=False):<{width}}   {cls}{mark}")
    return out

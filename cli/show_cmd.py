"""`wedlock show`: a page that plays a moves file back with cards."""

from __future__ import annotations

import click

from wedlock.errors import WedlockError
from wedlock.games import GAMES, game_named
from wedlock.lines import Line
from wedlock.movefile import load_json, named_in, parse_moves
from wedlock.page import page
from wedlock.pipeline import Position, check_moves_fit, moves_rules, replay_from
from wedlock.positions import position
from wedlock.words import counted

from .common import (
    BadInput,
    Command,
    FilePath,
    _read,
    after_option,
    check_writable,
    choose_start,
    deal_file_option,
    input_errors,
    rules_option,
    shown_name,
    write_page,
)


@click.command("show", cls=Command)
@click.argument("moves_file", metavar="MOVES_FILE", type=FilePath())
@click.option("--html", "html_file", type=FilePath(writable=True), required=True, help="The page to write.")
@click.option("--game", "game_name", help="The game, when the moves file does not name it.")
@click.option("--number", help="The game number, when the moves file does not give it.")
@deal_file_option
@rules_option
@after_option
@input_errors
def show_command(
    moves_file: str,
    html_file: str,
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
) -> None:
    """Write a page that plays back the moves of a file `solve` (text or --json) or `batch
    --solutions` wrote: one self-contained HTML file that opens in any browser, with no
    network. The game, rule set and number come from the file, unless given here.

    Example: wedlock solve matrimony 2 > win.txt; wedlock show win.txt --html win.html
    """
    check_writable(html_file)
    text = _read(moves_file, "moves")
    if text.lstrip().startswith(("{", "[")):
        try:
            load_json(text)  # JSON it cannot read (a whole results file) says so before what it lacks
        except WedlockError as err:
            raise BadInput(f"{moves_file}: {err}") from None
    game = game_named(game_name) if game_name else _game_in(text, moves_file)
    named = named_in(game, text)
    if number is None and deal_file is None:
        number = named.game_number
        if number is None:
            raise BadInput(f"{shown_name(moves_file)} does not say which deal: give --number N or --deal-file F")
    try:
        rules = rules_name if rules_name is not None else moves_rules(game, text)
    except WedlockError as err:
        raise BadInput(f"{shown_name(moves_file)}: {err}") from None
    start, label = choose_start(game.name, number, deal_file, rules, after_file)
    if not isinstance(start, Position):
        start = position(game, start)
    chosen = start.deal
    try:
        found = parse_moves(chosen.game, chosen.rules, text, len(start.moves))
        check_moves_fit(found, chosen)
    except WedlockError as err:
        raise BadInput(f"{shown_name(moves_file)}: {err}") from None
    replay = replay_from(start, found.moves)
    if replay.moves_played < len(found.moves):
        raise BadInput(f"{shown_name(moves_file)}: {replay.problem}")
    summary = f"{'a legal win' if replay.won else 'not a win'}: {counted(len(found.moves), 'move')}"
    write_page(html_file, page(start, Line.of(chosen.game, chosen.rules, found.moves), summary, label))
    click.echo(f"{shown_name(html_file)}: {chosen.title}, {label}, {summary}")


def _game_in(text: str, moves_file: str):
    """The game a moves file names (its JSON `game`, or its header's title)."""
    for game in GAMES.values():
        named = named_in(game, text)
        if named.game is not None:
            return game_named(named.game)
    raise BadInput(f"{shown_name(moves_file)} does not say which game: give --game")

"""`wedlock show`: a page that plays a moves file back with cards."""

from __future__ import annotations

import click

from wedlock.basics.errors import WedlockError
from wedlock.basics.words import counted
from wedlock.games.lines import Line
from wedlock.games.registry import GAMES, game_named
from wedlock.pictures.page import page
from wedlock.pipeline.move_files import load_json, named_in, parse_moves
from wedlock.pipeline.positions import position
from wedlock.pipeline.solving import Position, check_moves_fit, moves_rules, replay_from

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
    saved_start,
    shown_name,
    write_page,
)


@click.command("show", cls=Command)
@click.argument("moves_file", metavar="MOVES_FILE", type=FilePath(), required=False)
@click.option("--html", "html_file", type=FilePath(writable=True), required=True, help="The page to write.")
@click.option("--game", "game_name", help="The game, when the moves file does not name it.")
@click.option("--number", help="The game number, when the moves file does not give it.")
@deal_file_option
@rules_option
@after_option
@click.option(
    "--pysolfc-save",
    "pysolfc_save",
    type=FilePath(),
    help="A game PySolFC saved (.pso): the moves play on from it; without MOVES_FILE, the page plays its own moves from the deal.",
)
@input_errors
def show_command(
    moves_file: str | None,
    html_file: str,
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    pysolfc_save: str | None,
) -> None:
    """Write a page that plays back the moves of a file `solve` (text or --json) or `batch
    --solutions` wrote: one self-contained HTML file that opens in any browser, with no
    network. The game, rule set and number come from the file, unless given here. With
    --pysolfc-save, they come from the game PySolFC saved, and the page plays the moves
    from its position, or (no MOVES_FILE) the saved game's own moves from its deal.

    Example: wedlock solve matrimony 2 > win.txt; wedlock show win.txt --html win.html
    """
    check_writable(html_file)
    if pysolfc_save is not None:
        _show_saved(moves_file, html_file, game_name, number, deal_file, rules_name, after_file, pysolfc_save)
        return
    if moves_file is None:
        raise click.UsageError("Missing argument 'MOVES_FILE' (or give --pysolfc-save FILE, a game PySolFC saved).")
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
    _write(html_file, start, label, _moves_in(start, text, moves_file), moves_file)


def _show_saved(
    moves_file: str | None,
    html_file: str,
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    pysolfc_save: str,
) -> None:
    """The page of a game PySolFC saved: the moves of a file from its position, or its own
    moves from its deal."""
    start, label = saved_start(game_name, number, deal_file, rules_name, after_file, None, pysolfc_save)
    if moves_file is None:
        chosen = start.deal
        _write(html_file, position(chosen.game, chosen), label, start.moves.raw(), "the saved game")
        return
    _write(html_file, start, label, _moves_in(start, _read(moves_file, "moves"), moves_file), moves_file)


def _moves_in(start: Position, text: str, moves_file: str) -> list:
    """The moves of a moves file, checked against the deal it names."""
    chosen = start.deal
    try:
        found = parse_moves(chosen.game, chosen.rules, text, len(start.moves))
        check_moves_fit(found, chosen)
    except WedlockError as err:
        raise BadInput(f"{shown_name(moves_file)}: {err}") from None
    return found.moves


def _write(html_file: str, start: Position, label: str, moves: list, source: str) -> None:
    """Write the page of moves played from `start` (each legal: a refused one is bad input)."""
    chosen = start.deal
    replay = replay_from(start, moves)
    if replay.moves_played < len(moves):
        raise BadInput(f"{shown_name(source)}: {replay.problem}")
    summary = f"{'a legal win' if replay.won else 'not a win'}: {counted(len(moves), 'move')}"
    write_page(html_file, page(start, Line.of(chosen.game, chosen.rules, moves), summary, label))
    click.echo(f"{shown_name(html_file)}: {chosen.title}, {label}, {summary}")


def _game_in(text: str, moves_file: str):
    """The game a moves file names (its JSON `game`, or its header's title)."""
    for game in GAMES.values():
        named = named_in(game, text)
        if named.game is not None:
            return game_named(named.game)
    raise BadInput(f"{shown_name(moves_file)} does not say which game: give --game")

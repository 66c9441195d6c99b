"""`wedlock deal`: show a deal, or a position of a game under way."""

from __future__ import annotations

import json

import click

from wedlock.pipeline.solving import Position

from .common import Command, choose_start, header, input_errors, json_option, start_options


@click.command("deal", cls=Command)
@start_options
@click.option(
    "--position-out",
    is_flag=True,
    help="Print the position as a player sees it (the stock by its count), in the form --position reads.",
)
@json_option
@input_errors
def deal_command(
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    position_file: str | None,
    pysolfc_save: str | None,
    position_out: bool,
    as_json: bool,
) -> None:
    """Show the layout and stock of game N (as PySolFC deals it) or of a deal file, or the
    position after some moves (--after).

    Example: wedlock deal monte-carlo 12345 --after first-moves.txt --position-out
    """
    start, label = choose_start(game_name, number, deal_file, rules_name, after_file, position_file, pysolfc_save)
    chosen = start.deal if isinstance(start, Position) else start
    seen = start.seen if isinstance(start, Position) else chosen.game.opening(chosen.rules, chosen.cards)
    if as_json:
        data = chosen.to_json()
        if isinstance(start, Position):
            data.update(start._names())
            data["position"] = start.text()
        click.echo(json.dumps(data))
        return
    click.echo(header(chosen, label))
    click.echo(chosen.game.position_text(chosen.rules, seen) if position_out else chosen.game.board_of(chosen.rules, seen))

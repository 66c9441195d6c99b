"""`wedlock deal`: show a deal."""

from __future__ import annotations

import json

import click

from .common import Command, choose_deal, deal_file_option, game_argument, header, input_errors, json_option, number_argument, rules_option


@click.command("deal", cls=Command)
@game_argument
@number_argument
@deal_file_option
@rules_option
@json_option
@input_errors
def deal_command(game_name: str, number: str | None, deal_file: str | None, rules_name: str | None, as_json: bool) -> None:
    """Show the layout and stock of game N (as PySolFC deals it) or of a deal file.

    Example: wedlock deal monte-carlo 12345
    """
    chosen, label = choose_deal(game_name, number, deal_file, rules_name)
    if as_json:
        click.echo(json.dumps(chosen.to_json()))
        return
    click.echo(header(chosen, label))
    click.echo(chosen.board())

"""`wedlock deal`: show a deal."""

from __future__ import annotations

import json

import click

from .common import NUMBERS_MAY_START_WITH_DASH, choose_deal, deal_file_option, game_argument, input_errors, json_option, number_argument, rules_option


@click.command("deal", context_settings=NUMBERS_MAY_START_WITH_DASH)
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
    chosen = choose_deal(game_name, number, deal_file, rules_name)
    if as_json:
        data = {
            "game": chosen.game.name,
            "rules": chosen.rules.name,
            "game_number": chosen.game_number,
            "cards": [str(c) for c in chosen.cards],
        }
        click.echo(json.dumps(data))
        return
    click.echo(f"# {chosen.rules.title}, {chosen.label}")
    click.echo(chosen.game.board(chosen.rules, chosen.cards))

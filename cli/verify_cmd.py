"""`wedlock verify`: replay a list of moves and say whether it wins."""

from __future__ import annotations

import sys

import click

from wedlock.errors import GameNumberError, MoveSyntaxError
from wedlock.input_files import read_text, why_unreadable
from wedlock.movefile import parse_moves
from wedlock.numbering import GameNumber

from .common import (
    NUMBERS_MAY_START_WITH_DASH,
    BadInput,
    FilePath,
    choose_deal,
    deal_file_option,
    game_argument,
    input_errors,
    number_argument,
    rules_option,
)


@click.command("verify", context_settings=NUMBERS_MAY_START_WITH_DASH)
@game_argument
@number_argument
@deal_file_option
@rules_option
@click.option("--moves", "moves_file", required=True, type=FilePath(), help="The moves: JSON or text.")
@input_errors
def verify_command(
    game_name: str, number: str | None, deal_file: str | None, rules_name: str | None, moves_file: str
) -> None:
    """Replay a move list on game N (or a deal file) and say whether it is a legal win.

    The moves file is what `solve --json` prints, or the text notation (what `solve`
    prints). Exit status: 0 a legal win, 1 not a win (the first illegal move is named),
    2 bad input.

    Example: wedlock solve monte-carlo 7 > win.txt; wedlock verify monte-carlo 7 --moves win.txt
    """
    try:
        text = read_text(moves_file)
    except (OSError, UnicodeDecodeError) as err:
        raise BadInput(f"cannot read moves file {moves_file!r}: {why_unreadable(err)}") from None
    chosen = choose_deal(game_name, number, deal_file, rules_name)
    try:
        moves = parse_moves(chosen.game, chosen.rules, text)
    except MoveSyntaxError as err:
        raise BadInput(f"{moves_file}: {err}") from None
    if moves.game is not None and moves.game != chosen.game.name:
        raise BadInput(f"{moves_file} holds moves of {moves.game}, not {chosen.game.name}")
    if moves.rules is not None and moves.rules != chosen.rules.name:
        if moves.rules not in chosen.game.rule_sets:
            raise BadInput(f"{moves_file} names rules {moves.rules!r}, which {chosen.game.title} does not have")
        raise BadInput(f"{moves_file} holds moves for {moves.rules} rules; pass --rules {moves.rules}")
    if moves.game_number is not None and chosen.game_number is not None:
        try:  # compare canonical forms: "ms1", "#1" and "1" are the same game
            same = str(GameNumber.parse(moves.game_number)) == chosen.game_number
        except GameNumberError as err:
            raise BadInput(f"{moves_file}: {err}") from None
        if not same:
            raise BadInput(f"{moves_file} holds moves of game {moves.game_number}, not {chosen.game_number}")
    replay = chosen.game.referee(chosen.rules, chosen.cards, moves.moves)
    if replay.won:
        click.echo(f"legal win: {replay.moves_played} moves")
        sys.exit(0)
    click.echo(f"not a win: {replay.problem}")
    sys.exit(1)

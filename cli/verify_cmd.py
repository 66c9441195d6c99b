"""`wedlock verify`: replay a list of moves and say whether it wins."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from wedlock.basics.errors import GameNumberError, MoveSyntaxError, WedlockError
from wedlock.basics.words import counted
from wedlock.games.registry import game_named, rules_of
from wedlock.pipeline.move_files import parse_moves
from wedlock.pipeline.solving import Position, check_moves_fit, moves_rules, replay_from

from .common import BadInput, Command, FilePath, _read, choose_start, input_errors, json_option, shown_name, start_game, start_options


@click.command("verify", cls=Command)
@start_options
@click.option("--moves", "moves_file", required=True, type=FilePath(), help="The moves: JSON or text; - reads them from stdin.")
@json_option
@input_errors
def verify_command(
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    position_file: str | None,
    pysolfc_save: str | None,
    moves_file: str,
    as_json: bool,
) -> None:
    """Replay a move list on game N (or a deal file) and say whether it is a legal win.

    The moves file is what `solve` prints (text or --json), or a line of `batch
    --solutions`. The rule set it names counts unless --rules says otherwise. With
    --after (or --position) the moves are played from that position. Exit status: 0 a
    legal win, 1 not a win (the first illegal move is named), 2 bad input.

    Example: wedlock solve monte-carlo 7 > win.txt; wedlock verify monte-carlo 7 --moves win.txt
    """
    text = _read(moves_file, "moves")
    if pysolfc_save is not None:  # the save says which game and rules; the moves must be of them
        start, label = choose_start(game_name, number, deal_file, rules_name, after_file, position_file, pysolfc_save)
        game, rules = start_game(start), start.deal.rules if isinstance(start, Position) else start.rules
        named = _named_rules(game, text, moves_file)
        if named is not None and rules_of(game, named) is not rules:
            raise BadInput(f"{shown_name(moves_file)}: these are moves of {rules_of(game, named).title}, the saved game is of {rules.title}")
    else:
        game = game_named(game_name) if game_name is not None else None
        named = _named_rules(game, text, moves_file) if game is not None else None
        start, label = choose_start(
            game_name, number, deal_file, rules_name if rules_name is not None else named, after_file, position_file
        )
    chosen = start.deal if isinstance(start, Position) else start
    try:
        moves = parse_moves(chosen.game, chosen.rules, text, len(start.moves) if isinstance(start, Position) else 0)
        check_moves_fit(moves, chosen)
    except (MoveSyntaxError, GameNumberError) as err:
        raise BadInput(f"{shown_name(moves_file)}: {err}") from None
    if isinstance(start, Position):
        replay = replay_from(start, moves.moves)
    else:
        replay = chosen.game.referee(chosen.rules, chosen.cards, moves.moves)
    if as_json:
        names = start._names() if isinstance(start, Position) else chosen._names()
        data = {**names, "won": replay.won, "moves_played": replay.moves_played, "problem": replay.problem}
        click.echo(json.dumps(data))
    elif replay.won:
        click.echo(f"legal win of {chosen.title}, {label}: {counted(replay.moves_played, 'move')}")
    else:
        click.echo(f"not a win of {chosen.title}, {label}: {replay.problem}")
    sys.exit(0 if replay.won else 1)


def _named_rules(game: Any, text: str, moves_file: str) -> str | None:
    """The rule set a moves file names (checked against the game), or one line and exit 2."""
    try:
        return moves_rules(game, text)
    except WedlockError as err:
        raise BadInput(f"{shown_name(moves_file)}: {err}") from None

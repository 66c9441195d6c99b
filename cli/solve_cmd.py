"""`wedlock solve`: decide a deal and print a winning line."""

from __future__ import annotations

import json
import sys

import click

from wedlock.search import LOST, UNKNOWN, WON

from .common import (
    NUMBERS_MAY_START_WITH_DASH,
    choose_deal,
    deal_file_option,
    game_argument,
    input_errors,
    interruptible,
    json_option,
    limit_options,
    limits_from,
    number_argument,
    progress_option,
    rules_option,
    shows_progress,
)
from .progress import SearchBar

EXIT_STATUS = {WON: 0, LOST: 1, UNKNOWN: 3}
SOLVER_FAULT = 4


@click.command("solve", context_settings=NUMBERS_MAY_START_WITH_DASH)
@game_argument
@number_argument
@deal_file_option
@rules_option
@limit_options
@click.option("--board", is_flag=True, help="Draw the layout after each move.")
@json_option
@progress_option
@interruptible
@input_errors
def solve_command(
    game_name: str,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    node_limit: int | None,
    time_limit: float | None,
    max_states: int | None,
    board: bool,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Decide whether game N (or a deal file) can be won; print the moves of a win.

    The verdict is `won` (with moves), `lost` (every reachable position was searched) or
    `unknown` (a limit cut the search short). Exit status: 0 won, 1 lost, 3 unknown,
    2 bad input, 130 stopped by Ctrl-C.

    Example: wedlock solve monte-carlo 12345 --board
    """
    chosen = choose_deal(game_name, number, deal_file, rules_name)
    game, rules = chosen.game, chosen.rules
    limits = limits_from(node_limit, time_limit, max_states)
    with SearchBar(shows_progress(progress), f"{game.name} {chosen.label}") as bar:
        solution = game.solve(rules, chosen.cards, limits, bar)
    if solution.verdict == WON:
        replay = game.referee(rules, chosen.cards, solution.moves)
        if not replay.won:
            click.echo(f"Error: internal fault, the referee rejects the solver's line: {replay.problem}", err=True)
            sys.exit(SOLVER_FAULT)
    if as_json:
        data = {
            "game": game.name,
            "rules": rules.name,
            "game_number": chosen.game_number,
            "verdict": solution.verdict,
            "moves": [game.move_json(m) for m in solution.moves],
            "states": solution.states,
            "seconds": round(solution.seconds, 4),
        }
        if solution.verdict == UNKNOWN:
            data["reason"] = solution.reason
        if solution.found_by:
            data["found_by"] = solution.found_by
        click.echo(json.dumps(data))
    else:
        click.echo(f"# {rules.title} ({rules.name} rules), {chosen.label}")
        click.echo(f"# {summary(solution)}")
        boards = game.boards(rules, chosen.cards, solution.moves) if board else []
        if board:
            click.echo(game.board(rules, chosen.cards))
        for i, move in enumerate(solution.moves):
            click.echo(f"{i + 1}. {game.move_text(rules, move)}")
            if board:
                click.echo(boards[i])
    sys.exit(EXIT_STATUS[solution.verdict])


def summary(solution) -> str:
    """One line: the verdict and what the search cost."""
    cost = f"{solution.states:,} states, {solution.seconds:.2f} s"
    if solution.verdict == WON:
        by = f"; found by the {solution.found_by}" if solution.found_by else ""
        return f"won in {len(solution.moves)} moves ({cost}{by})"
    if solution.verdict == LOST:
        return f"lost: no line wins; every reachable position was searched ({cost})"
    return f"unknown: {solution.reason} ({cost})"

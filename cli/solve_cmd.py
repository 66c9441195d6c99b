"""`wedlock solve`: decide a deal and print a winning line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from wedlock.basics.printable import printable
from wedlock.pipeline.solving import Solution, solve
from wedlock.results.proof_costs import Published, guide, published
from wedlock.search.exhaustive import LOST, UNKNOWN, WON

from . import stopping
from .common import (
    SOLVE_SECONDS,
    CannotWrite,
    Command,
    FilePath,
    answering,
    as_set,
    check_writable,
    choose_start,
    deadline_after,
    header,
    input_errors,
    interruptible,
    json_option,
    limit_options,
    progress_option,
    shown_name,
    shows_progress,
    start_game,
    start_options,
    time_left,
    write_file,
    write_page,
)
from .progress import SearchBar

EXIT_STATUS = {WON: 0, LOST: 1, UNKNOWN: 3}


@click.command("solve", cls=Command)
@start_options
@limit_options(SOLVE_SECONDS)
@click.option("--board", is_flag=True, help="Draw the layout after each move.")
@click.option("--html", "html_file", type=FilePath(writable=True), help="Also write a page that plays the solution back (open it in a browser).")
@click.option(
    "--pysolfc-out",
    "pysolfc_out",
    type=FilePath(writable=True),
    help="Also write the win as a game PySolFC saved (.pso): open it there (File > Open) and Redo plays it a move at a time.",
)
@click.option(
    "--use-table",
    is_flag=True,
    help="When the search stops unknown and the shipped tables decide the deal, exit with the table's status (0 won, 1 lost); "
    "the answer printed is the search's all the same.",
)
@json_option
@progress_option
@interruptible
@input_errors
def solve_command(
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
    board: bool,
    html_file: str | None,
    pysolfc_out: str | None,
    use_table: bool,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Decide whether game N (or a deal file) can be won; print the moves of a win.

    The verdict is won (with the moves, replayed by an independent referee), lost (proven:
    the answer says how) or unknown (a limit cut the search short). With
    --after, --position or --pysolfc-save it answers for a game under way, from that
    position. --pysolfc-out writes a win only: a deal lost or unknown writes nothing and
    says so. An unknown answer says what the next step costs, and, for a deal the shipped
    tables decide, their verdict and the command that decides it again. Exit status: 0
    won, 1 lost, 3 unknown (or the table's, with --use-table), 2 bad input, 5 a file could
    not be written (the answer is printed all the same), 130 stopped by Ctrl-C.

    Example: wedlock solve monte-carlo 12345 --board
    """
    for path in (html_file, pysolfc_out):
        if path:
            check_writable(path)
    deadline = deadline_after(time_limit)  # reading the start counts too
    start, label = choose_start(game_name, number, deal_file, rules_name, after_file, position_file, pysolfc_save, deadline)
    if pysolfc_out:
        from wedlock.pysolfc.writer import save_bytes, writable_in_pysolfc  # only for a save to write

        writable_in_pysolfc(start)  # before the search: PySolFC has the game, the deal a number
    game = start_game(start)
    with SearchBar(shows_progress(progress), f"{game.name} {label}") as bar:
        result = solve(game, start, time_limit=time_left(deadline), node_limit=node_limit, max_states=max_states, progress=bar)
    result = as_set(result, time_limit)
    known = published_answer(result)
    unwritten = None
    written = []  # what each file written holds, said on stderr after the answer
    # The files first: a reader of the text that goes away early (| head) loses nothing.
    if html_file:
        from wedlock.pictures.page import solution_page  # with its styles and script, only for a page

        try:
            write_page(html_file, solution_page(result, label))
            written.append(f"{shown_name(html_file)} written: {_page_holds(result)} (open it in a browser)")
        except CannotWrite as err:
            unwritten = err  # the answer stands: it goes out, then the file's error
    if pysolfc_out and result.verdict == WON:
        data = save_bytes(result)
        try:
            write_file(pysolfc_out, lambda target: Path(target).write_bytes(data))
            written.append(f"{shown_name(pysolfc_out)} written: open it in PySolFC (File > Open), and Redo plays the win a move at a time")
        except CannotWrite as err:
            unwritten = unwritten or err
    answering()
    if as_json:
        data = result.to_json()
        if known is not None:
            data["published"] = known.to_json()
        click.echo(json.dumps(data))
    else:
        for line in text_lines(result, label, board, known):
            click.echo(line)
    for line in written:
        stopping.tell(line)
    if unwritten is not None:
        raise unwritten
    if pysolfc_out and result.verdict != WON:
        stopping.tell(f"{printable(pysolfc_out)} not written: PySolFC's save holds a win, and this deal is {result.verdict.value}.")
    sys.exit(EXIT_STATUS[known.verdict if use_table and known is not None else result.verdict])


def _page_holds(result: Solution) -> str:
    """What a solution page holds: the win played back, or the start and the verdict."""
    return "a page that plays the win back" if result.verdict == WON else f"a page that shows the start and says it is {result.verdict.value}"


def published_answer(result: Solution) -> Published | None:
    """The shipped tables' verdict on a deal the search left unknown (a position of a game
    under way is not the deal: none)."""
    if result.verdict != UNKNOWN or result.position is not None:
        return None
    chosen = result.deal
    return published(chosen.game.name, chosen.rules.name, chosen.number)


def longer(reason: str) -> str:
    """How to let a search that was cut short go on for longer."""
    for limit, option in (("time limit", "--time-limit"), ("node limit", "--node-limit"), ("state limit", "--max-states")):
        if reason.startswith(limit):
            lift = ", or --time-limit none" if option == "--time-limit" else ""
            return f"to search longer, give a larger {option}{lift}"
    return "to search longer, give larger limits"


def text_lines(result: Solution, label: str, board: bool, known: Published | None = None) -> list[str]:
    """The answer as text: a header naming the game, a summary, then the numbered moves
    (a board after each with `board`); `verify` reads it back as it is. An unknown answer
    says how to search longer, and what the tables say (`known`) or what the dearest proof
    of the game cost."""
    chosen = result.deal
    out = [header(chosen, label), f"# {result.summary()}"]
    if result.verdict == UNKNOWN:
        out.append(f"# {longer(result.reason)}")
        price = known.words() if known is not None else guide(chosen.game.name, chosen.rules.name)
        if price:
            out.append(f"# {price}")
    if board:
        seen = chosen.game.opening(chosen.rules, chosen.cards) if result.position is None else result.position.seen
        out.append(chosen.game.board_of(chosen.rules, seen))
        boards = []
        for move in result.moves.raw():
            seen = chosen.game.after(chosen.rules, seen, move)
            boards.append(chosen.game.board_of(chosen.rules, seen))
    for i, move in enumerate(result.moves):
        out.append(f"{i + 1}. {move.text()}")
        if board:
            out.append(boards[i])
    return out

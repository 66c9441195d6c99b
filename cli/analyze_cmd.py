"""`wedlock analyze`: the state graph of a deal, its decisions, and how much is luck."""

from __future__ import annotations

import json
import time
from functools import partial
from pathlib import Path

import click

from wedlock.basics.memory import default_bound, parse_size, physical, size_text
from wedlock.basics.words import counted
from wedlock.luck.analysis import COMPILED_MAX_STATES, DEFAULT_MAX_STATES, Analysis, analyze
from wedlock.luck.graph_report import moves_text, write_dot, write_graphml
from wedlock.pictures.charts import GRAPH_MOST_STATES, draw_analysis, pyplot
from wedlock.search.exhaustive import Verdict

from .common import (
    COUNT,
    SOLVE_SECONDS,
    BadInput,
    Command,
    FilePath,
    answering,
    check_writable,
    choose_start,
    deadline_after,
    header,
    input_errors,
    interruptible,
    json_option,
    playouts_option,
    start_game,
    start_options,
    time_limit_option,
    write_file,
)


@click.command("analyze", cls=Command)
@start_options
@click.option(
    "--max-states",
    type=COUNT,
    default=None,
    help=(
        "Stop exploring at this many states; every figure is then a bound."
        f" [default: {DEFAULT_MAX_STATES:,}; {COMPILED_MAX_STATES:,} for Monte Carlo with the compiled core unless exporting]"
    ),
)
@time_limit_option(SOLVE_SECONDS, "Stop exploring after S seconds (the graph is then cut) and playing out; 'none' for no limit.")
@playouts_option("When the graph is cut: games each player plays out to estimate its odds.")
@click.option(
    "--max-memory",
    "max_memory_text",
    metavar="SIZE",
    default=None,
    help="Cut the graph before the process holds more memory than this (6G, 512M; 'none' for no bound)."
    " [default: a quarter of this machine's memory" + (f", {size_text(physical() // 4)}]" if physical() else "]"),
)
@click.option("--graphml", type=FilePath(writable=True), help="Write the graph as GraphML (Gephi).")
@click.option("--dot", type=FilePath(writable=True), help="Write the graph as Graphviz DOT.")
@click.option(
    "--png",
    type=FilePath(writable=True),
    help=f"Draw the shortest win and its decisions, and a whole graph of at most {GRAPH_MOST_STATES} states (needs matplotlib).",
)
@json_option
@interruptible
@input_errors
def analyze_command(
    game_name: str | None,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    position_file: str | None,
    pysolfc_save: str | None,
    max_states: int | None,
    time_limit: float | None,
    playouts: int,
    max_memory_text: str | None,
    graphml: str | None,
    dot: str | None,
    png: str | None,
    as_json: bool,
) -> None:
    """Build the graph of every position reachable from game N (or a deal file) and say
    how many ways there are to win, which decisions matter, and how often a random and a
    greedy player would win.

    The time limit covers the whole command: the solver's search, the graph and its
    figures, the playouts and the exports. Past it, or past the memory bound, the graph
    is cut (the output says which), fewer games are played out, and an export holds the
    edges of the states it had time for. A picture takes a second or two of it.

    Example: wedlock analyze monte-carlo 7 --dot game7.dot
    """
    started = time.perf_counter()
    max_memory = memory_bound(max_memory_text)
    if png:
        pyplot()  # before the work: matplotlib is there
    exports = [p for p in (graphml, dot, png) if p]
    if len({Path(p).resolve() for p in exports}) < len(exports):
        raise BadInput("--graphml, --dot and --png need a file each")
    for path in exports:
        check_writable(path)
    reading = deadline_after(time_limit)  # reading the start counts too
    start, label = choose_start(game_name, number, deal_file, rules_name, after_file, position_file, pysolfc_save, reading)
    if max_states is None:
        # An export finds every edge's moves again in Python: millions of states would take
        # hours, so unless asked for more it gets the graph pure Python would build.
        max_states = DEFAULT_MAX_STATES if graphml or dot else None
    deadline = None if time_limit is None else started + time_limit
    found = analyze(
        start_game(start).name,
        start,
        max_states="auto" if max_states is None else max_states,
        playouts=playouts,
        time_limit=_analysis_seconds(deadline, bool(graphml or dot), bool(png)),
        max_memory=max_memory,
    )
    answering()
    if as_json:
        click.echo(json.dumps(found.to_json()))
    else:
        for line in report_lines(found, label):
            click.echo(line)
    if graphml or dot:
        exported = found.exported(None if deadline is None else deadline - (PICTURE_SECONDS if png else 0))
        if exported.graph["explored"] < len(found.graph):
            files = [name for name, target in (("GraphML", graphml), ("DOT", dot)) if target]
            click.echo(
                f"Note: the {' and '.join(files)} {'files hold' if len(files) > 1 else 'file holds'} the edges of the first"
                f" {exported.graph['explored']:,} of {len(found.graph):,} states, all the time limit left time for"
                " (the rest are marked unexplored)",
                err=True,
            )
        for target, write in ((graphml, write_graphml), (dot, write_dot)):
            if target:
                write_file(target, partial(write, exported))  # the text is out first
    if png:
        write_file(png, lambda path: draw_analysis(found, path))


PICTURE_SECONDS = 4.0  # what drawing the picture takes (a second or two, twice that on a busy machine), kept from the time limit
EXPORT_SHARE = 0.5  # of the time left after a picture's: what the analysis leaves the exports


def _analysis_seconds(deadline: float | None, exports: bool, picture: bool) -> float | None:
    """The analysis's share of the time limit: what the picture and the exports leave it."""
    if deadline is None:
        return None
    left = max(0.0, deadline - time.perf_counter())
    if picture:
        left = max(left / 5, left - PICTURE_SECONDS)
    return left * EXPORT_SHARE if exports else left


def memory_bound(text: str | None) -> int | None:
    """--max-memory: bytes, None for `none`; a quarter of the machine's memory unless given."""
    if text is None:
        return default_bound()
    if text.strip().lower() in ("none", "no", "off"):
        return None
    try:
        return parse_size(text)
    except ValueError as err:
        raise BadInput(f"--max-memory: {err}") from None


# What the solver said of a deal whose graph was cut.
SOLVER_SAYS = {
    Verdict.WON: "wins the deal; its line is in the graph",
    Verdict.LOST: "proves the deal lost: no player wins it",
    Verdict.UNKNOWN: "did not decide the deal within the time limit",
}


def report_lines(found: Analysis, label: str) -> list[str]:
    """The figures as text a player can read."""
    fig, chosen = found.figures, found.deal
    game, rules = chosen.game, chosen.rules
    bound = "" if fig.complete else "at least "
    if fig.complete:
        head = "the whole state graph"
    else:
        head = f"the state graph was cut {cut_text(found)}: counts are lower bounds, odds are ranges"
    out = [
        f"{header(chosen, label)}: {head}",
        f"states:             {bound}{fig.states:,} ({counted(fig.edges, 'edge')})",
        f"won states:         {bound}{fig.won_states:,}",
        f"dead ends:          {bound}{fig.dead_ends:,}",
        f"can still win from: {bound}{counted(fig.winning_states, 'state')}",
        f"winning sequences:  {bound}{fig.sequences:,}",
        f"random player wins: {odds_text(*fig.random)}{guess_text(found.estimates.get('random'))}",
        f"greedy player wins: {odds_text(*fig.greedy)}{guess_text(found.estimates.get('greedy'))}",
    ]
    if not fig.complete:
        out.append(f"solver:             {SOLVER_SAYS[found.solver_verdict or Verdict.UNKNOWN]}")
    if not fig.shortest_win:
        proved = fig.complete or found.solver_verdict == Verdict.LOST
        out.append("shortest win:       none" + ("" if proved else " found"))
        return out
    found_only = "" if fig.complete else " (the shortest found)"
    out.append(f"shortest win:       {counted(len(fig.shortest_win), 'move')}{found_only}")
    for i, move in enumerate(found.shortest_win):
        out.append(f"  {i + 1}. {move.text()}")
    if not fig.complete:
        out.append("critical decisions: need the whole graph (raise --max-states or --time-limit)")
        return out
    out.append(f"critical decisions on the shortest win: {len(fig.decisions):,}")
    for d in fig.decisions:
        out.append(f"  before move {d.move_number}:")
        out.append("    keeps the win:  " + " | ".join(moves_text(game, rules, c) for c in d.keep))
        out.append("    loses for sure: " + " | ".join(moves_text(game, rules, c) for c in d.lose))
    return out


def cut_text(found: Analysis) -> str:
    """What cut the graph, in words: `at the time limit`, `at 10,000 states (--max-states)`."""
    if found.cut_by == "time_limit":
        return "at the time limit"
    if found.cut_by == "memory" and found.max_memory is not None:
        return f"to stay within {size_text(found.max_memory)} of memory (--max-memory)"
    if found.cut_by == "max_states" and found.max_states is not None:
        return f"at {counted(found.max_states, 'state')} (--max-states)"
    return "short"


def guess_text(guess: dict | None) -> str:
    if guess is None:
        return ""
    if guess["value"] is None:
        return "; no game played out within the time limit"
    if not guess["games"]:
        return ""  # the graph proves the odds
    return f"; about {guess['value']:.2%} in {guess['games']:,} games played out (95%: {guess['low']:.2%} - {guess['high']:.2%})"


def odds_text(low, high) -> str:
    if low == high:
        exact = str(low)
        if low in (0, 1):
            return f"{float(low):.4%}"
        return f"{float(low):.4%} (exactly {exact})" if len(exact) <= 60 else f"{float(low):.4%} (exact fraction in --json)"
    return f"between {float(low):.4%} and {float(high):.4%}"

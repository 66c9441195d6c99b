"""`wedlock analyze`: the state graph of a deal, its decisions, and how much is luck."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import click

from wedlock.graph_report import moves_text, write_dot, write_graphml
from wedlock.luck import COMPILED_MAX_STATES, DEFAULT_MAX_STATES, Analysis, analyze
from wedlock.pictures import GRAPH_MOST_STATES, draw_analysis, pyplot
from wedlock.search import Verdict
from wedlock.words import counted

from .common import (
    SOLVE_SECONDS,
    BadInput,
    Command,
    FilePath,
    answering,
    check_writable,
    choose_start,
    header,
    input_errors,
    interruptible,
    json_option,
    playouts_option,
    start_options,
    time_limit_option,
    write_file,
)


@click.command("analyze", cls=Command)
@start_options
@click.option(
    "--max-states",
    type=click.IntRange(min=1),
    default=None,
    help=(
        "Stop exploring at this many states; every figure is then a bound."
        f" [default: {DEFAULT_MAX_STATES:,}; {COMPILED_MAX_STATES:,} for Monte Carlo with the compiled core unless exporting]"
    ),
)
@time_limit_option(SOLVE_SECONDS, "Stop exploring after S seconds (the graph is then cut) and playing out; 'none' for no limit.")
@playouts_option("When the graph is cut: games each player plays out to estimate its odds.")
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
    game_name: str,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    after_file: str | None,
    position_file: str | None,
    max_states: int | None,
    time_limit: float | None,
    playouts: int,
    graphml: str | None,
    dot: str | None,
    png: str | None,
    as_json: bool,
) -> None:
    """Build the graph of every position reachable from game N (or a deal file) and say
    how many ways there are to win, which decisions matter, and how often a random and a
    greedy player would win.

    The time limit covers the exploration and the playouts: past it, the graph is cut
    and fewer games are played out.

    Example: wedlock analyze monte-carlo 7 --dot game7.dot
    """
    if png:
        pyplot()  # before the work: matplotlib is there
    exports = [p for p in (graphml, dot, png) if p]
    if len({Path(p).resolve() for p in exports}) < len(exports):
        raise BadInput("--graphml, --dot and --png need a file each")
    for path in exports:
        check_writable(path)
    start, label = choose_start(game_name, number, deal_file, rules_name, after_file, position_file)
    if max_states is None:
        # An export finds every edge's moves again in Python: millions of states would take
        # hours, so unless asked for more it gets the graph pure Python would build.
        max_states = DEFAULT_MAX_STATES if graphml or dot else None
    found = analyze(game_name, start, max_states="auto" if max_states is None else max_states, playouts=playouts, time_limit=time_limit)
    answering()
    if as_json:
        click.echo(json.dumps(found.to_json()))
    else:
        for line in report_lines(found, label):
            click.echo(line)
    if graphml or dot:
        exported = found.exported()
        for target, write in ((graphml, write_graphml), (dot, write_dot)):
            if target:
                write_file(target, partial(write, exported))  # the text is out first
    if png:
        write_file(png, lambda path: draw_analysis(found, path))


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
        head = "the state graph was cut: counts are lower bounds, odds are ranges"
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

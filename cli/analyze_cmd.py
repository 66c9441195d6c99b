"""`wedlock analyze`: the state graph of a deal, its decisions, and how much is luck."""

from __future__ import annotations

import json

import click

from wedlock import analysis, playouts
from wedlock.graph_report import draw_png, export_graph, figures_data, moves_text, write_dot, write_graphml

from .common import (
    NUMBERS_MAY_START_WITH_DASH,
    BadInput,
    FilePath,
    choose_deal,
    count_option,
    deal_file_option,
    game_argument,
    input_errors,
    interruptible,
    json_option,
    number_argument,
    playouts_option,
    rules_option,
)

DEFAULT_MAX_STATES = 10_000  # Monte Carlo game 1 (a dense start) in about 30 s


@click.command("analyze", context_settings=NUMBERS_MAY_START_WITH_DASH)
@game_argument
@number_argument
@deal_file_option
@rules_option
@count_option("--max-states", DEFAULT_MAX_STATES, "Stop exploring at this many states; every figure is then a bound.")
@playouts_option("When the graph is cut: games each player plays out to estimate its odds.")
@click.option("--graphml", type=FilePath(writable=True), help="Write the graph as GraphML (Gephi).")
@click.option("--dot", type=FilePath(writable=True), help="Write the graph as Graphviz DOT.")
@click.option("--png", type=FilePath(writable=True), help="Draw a small graph (needs matplotlib).")
@json_option
@interruptible
@input_errors
def analyze_command(
    game_name: str,
    number: str | None,
    deal_file: str | None,
    rules_name: str | None,
    max_states: int,
    playouts: int,
    graphml: str | None,
    dot: str | None,
    png: str | None,
    as_json: bool,
) -> None:
    """Build the graph of every position reachable from game N (or a deal file) and say
    how many ways there are to win, which decisions matter, and how often a random and a
    greedy player would win.

    Example: wedlock analyze monte-carlo 7 --dot game7.dot
    """
    chosen = choose_deal(game_name, number, deal_file, rules_name)
    game, rules = chosen.game, chosen.rules
    play = game.player(rules, chosen.cards)
    graph = analysis.build(play, max_states)
    fig = analysis.figures(play, graph)
    estimates = {} if fig.complete else estimate(play, f"{game.name}/{rules.name}/{chosen.game_number or 'file'}", fig, playouts)
    if graphml or dot or png:
        exported = export_graph(game, rules, graph, fig)
        for path, write in ((graphml, write_graphml), (dot, write_dot), (png, draw_png)):
            if path:
                try:
                    write(exported, path)
                except OSError as err:
                    raise BadInput(f"cannot write {path}: {err.strerror}") from None
    if as_json:
        data = {"game": game.name, "rules": rules.name, "game_number": chosen.game_number}
        data.update(figures_data(game, rules, fig))
        for who, guess in estimates.items():
            data[f"{who}_player"]["playouts"] = guess
        click.echo(json.dumps(data))
        return
    for line in report_lines(game, rules, chosen.label, fig, estimates):
        click.echo(line)


def estimate(play, seed: str, fig: analysis.Figures, games: int) -> dict[str, dict]:
    """Each player's odds from `games` seeded playouts, within the cut graph's bounds."""
    return {
        who: {"games": games, **playouts.estimate(play, bounds, games, seed, who == "greedy")}
        for who, bounds in (("random", fig.random), ("greedy", fig.greedy))
    }


def report_lines(game, rules, label: str, fig: analysis.Figures, estimates: dict[str, dict]) -> list[str]:
    """The figures as text a player can read."""
    bound = "" if fig.complete else "at least "
    if fig.complete:
        head = "the whole state graph"
    else:
        head = f"the state graph was cut at {fig.states:,} states: counts are lower bounds, odds are ranges"
    out = [
        f"# {rules.title} ({rules.name} rules), {label}: {head}",
        f"states:             {bound}{fig.states:,} ({fig.edges:,} edges)",
        f"won states:         {bound}{fig.won_states:,}",
        f"dead ends:          {bound}{fig.dead_ends:,}",
        f"can still win from: {bound}{fig.winning_states:,} states",
        f"winning sequences:  {bound}{fig.sequences:,}",
        f"random player wins: {odds_text(*fig.random)}{guess_text(estimates.get('random'))}",
        f"greedy player wins: {odds_text(*fig.greedy)}{guess_text(estimates.get('greedy'))}",
    ]
    if not fig.shortest_win:
        out.append("shortest win:       none" + (" found" if not fig.complete else ""))
        return out
    found = "" if fig.complete else " (the shortest found)"
    out.append(f"shortest win:       {len(fig.shortest_win)} moves{found}")
    for i, move in enumerate(fig.shortest_win):
        out.append(f"  {i + 1}. {game.move_text(rules, move)}")
    if not fig.complete:
        out.append("critical decisions: need the whole graph (raise --max-states)")
        return out
    out.append(f"critical decisions on the shortest win: {len(fig.decisions)}")
    for d in fig.decisions:
        out.append(f"  before move {d.move_number}:")
        out.append("    keeps the win:  " + " | ".join(moves_text(game, rules, c) for c in d.keep))
        out.append("    loses for sure: " + " | ".join(moves_text(game, rules, c) for c in d.lose))
    return out


def guess_text(guess: dict | None) -> str:
    if guess is None:
        return ""
    return (
        f"; about {guess['value']:.2%} in {guess['games']:,} games played out"
        f" (95%: {guess['low']:.2%} - {guess['high']:.2%})"
    )


def odds_text(low, high) -> str:
    if low == high:
        exact = str(low)
        if low in (0, 1):
            return f"{float(low):.4%}"
        return f"{float(low):.4%} (exactly {exact})" if len(exact) <= 60 else f"{float(low):.4%} (exact fraction in --json)"
    return f"between {float(low):.4%} and {float(high):.4%}"

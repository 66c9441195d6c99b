"""Pictures that explain a deal and a range of deals (matplotlib: wedlock's png extra).

`draw_analysis` draws what `analyze` found: the shortest win as rows of small boards from
the deal to the end, the cards each move takes marked and each critical decision framed
with how many moves keep the win and how many lose it; below it, when the whole graph is
small enough to read, the state graph itself. `draw_stats` draws what `stats` found: the
win rate of each rule set with its interval, the players side by side, and how long the
solver took on each deal.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from ..basics.errors import MissingExtra
from ..pipeline.line_layouts import frames
from ..results.stats import TIME_EDGES, Summary

if TYPE_CHECKING:
    from ..luck.analysis import Analysis

MOST_BOARDS = 36  # boards drawn of a longer line: the deal, the end, the decisions, and steps between
GRAPH_MOST_STATES = 300  # a whole graph up to this size is drawn; larger ones read better in Gephi
LABEL_ALL_EDGES = 60  # up to this many edges every edge is labelled; past it, only the shortest win's
RED_SUITS = "HD"
SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
MARK = "#ffe14d"  # the cards the next move takes
DECISION = "#c62828"
WIN = "#2e7d32"


def pyplot() -> Any:
    """matplotlib's pyplot, drawing to files; a MissingExtra when it is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtra("pictures need matplotlib: pip install matplotlib (wedlock's png extra)") from None
    return plt


def card_text(code: str) -> tuple[str, str]:
    """A card as a picture prints it (`10♥`), and its colour."""
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SIGNS.get(code[1], code[1]), "#c62828" if code[1] in RED_SUITS else "black"


# --- the analysis ---------------------------------------------------------------------------


def chosen_boards(moves: int, decisions: Sequence[int]) -> list[int]:
    """Which positions of a line of `moves` moves to draw (0 is the deal): all of a short
    line; of a longer one the deal, the end, the position before each critical decision
    (1-based move numbers), and evenly spaced ones between, at most MOST_BOARDS."""
    if moves + 1 <= MOST_BOARDS:
        return list(range(moves + 1))
    must = sorted({0, moves, *(d - 1 for d in decisions)})
    if len(must) >= MOST_BOARDS:
        return must[: MOST_BOARDS - 1] + [moves]
    spare = MOST_BOARDS - len(must)
    step = moves / (spare + 1)
    return sorted(set(must) | {round(step * (i + 1)) for i in range(spare)})


UNIT = 0.22  # inches a card cell takes on the picture
WIDTH = 15.0  # inches the boards may take across


def draw_analysis(found: Analysis, path: str | Path) -> None:
    """The analysis as one picture, written to `path` (PNG, whatever its ending)."""
    plt = pyplot()
    chosen = found.deal
    game, rules, fig = chosen.game, chosen.rules, found.figures
    start = found.position if found.position is not None else chosen
    line = list(fig.shortest_win)
    shown = frames(start, line)
    decisions = {d.move_number: d for d in fig.decisions}
    picks = chosen_boards(len(line), sorted(decisions))
    board_w, board_h = _board_size(shown.positions[0])
    slot_w, slot_h = board_w + 1.2, board_h + 2.8
    per_row = max(1, min(len(picks), int(WIDTH // (slot_w * UNIT))))
    rows = math.ceil(len(picks) / per_row)
    draw_graph = fig.complete and fig.states <= GRAPH_MOST_STATES
    graph = found.exported() if draw_graph else None  # a big graph is not copied for nothing
    width = max(8.0, per_row * slot_w * UNIT + 0.4)
    strip_h = rows * slot_h * UNIT
    layers = 1 + max(nx.get_node_attributes(graph, "layer").values(), default=0) if graph is not None else 1
    graph_h = min(14.0, max(3.5, 0.9 * layers)) if graph is not None else 0.7
    height = 0.5 + strip_h + 0.3 + graph_h
    figure = plt.figure(figsize=(width, height))
    top = figure.add_axes((0.2 / width, (graph_h + 0.3) / height, per_row * slot_w * UNIT / width, strip_h / height))
    top.set_xlim(0, per_row * slot_w)
    top.set_ylim(-rows * slot_h, 0)
    top.set_axis_off()
    figure.text(0.2 / width, 1 - 0.3 / height, _strip_title(found, len(line), len(picks)), fontsize=10, va="center")
    for slot, index in enumerate(picks):
        x, y = (slot % per_row) * slot_w, -(slot // per_row) * slot_h - 0.4
        following = picks[slot + 1] if slot + 1 < len(picks) else None
        marked = shown.touches[index] if index < len(line) else []
        _board(top, x, y, shown.positions[index], marked)
        caption = _caption(game, rules, line, index, following)
        decision = decisions.get(index + 1)
        if decision is not None:
            top.add_patch(_frame(plt, x - 0.15, y - board_h - 0.1, board_w + 0.3, board_h + 0.55, DECISION))
            caption.append(f"{len(decision.keep)} keep the win, {len(decision.lose)} lose it")
        for n, text in enumerate(caption):
            red = decision is not None and n == len(caption) - 1
            top.text(x, y - board_h - 0.25 - n * 0.6, text, fontsize=6, va="top", color=DECISION if red else "black")
    if graph is not None:
        axes = figure.add_axes((0.2 / width, 0.1 / height, 1 - 0.4 / width, (graph_h - 0.2) / height))
        _graph(axes, graph, fig.states, vertical=layers <= 30)
    else:
        note = textwrap.fill(_why_no_graph(found, fig.states), int(width * 15))
        figure.text(0.2 / width, 0.25 / height, note, fontsize=8, color="#555555", va="center")
    figure.savefig(str(path), format="png", dpi=100)
    plt.close(figure)


def _strip_title(found: Analysis, moves: int, drawn: int) -> str:
    fig = found.figures
    where = found.position.label if found.position is not None else found.deal.label
    head = f"{found.deal.title}, {where}: "
    if not moves:
        if fig.complete:
            return head + f"lost: every line ends in one of {fig.dead_ends:,} dead ends"
        if found.solver_verdict == "lost":
            return head + "lost: the solver proves that no line wins"
        return head + "no win found (the state graph was cut)"
    kind = "a shortest win" if fig.complete else "the shortest win found"
    some = "" if drawn == moves + 1 else f" ({drawn} of its {moves + 1} positions)"
    marks = "; yellow: the cards the next move takes"
    if not fig.complete:
        marks += "; the critical decisions need the whole graph"
    elif fig.decisions:
        marks += f"; red: the {len(fig.decisions)} critical decisions (where some move loses for sure)"
    else:
        marks += "; no move on it loses for sure"
    return head + f"{kind}, {moves} moves{some}" + marks


def _caption(game: Any, rules: Any, line: list[Any], index: int, following: int | None) -> list[str]:
    """The lines under a board: which position it is and the move made from it."""
    if index == len(line):
        return ["the deal" if index == 0 else f"after move {index}: won"]
    head = "the deal" if index == 0 else f"after move {index}"
    text = game.move_text(rules, line[index])
    if len(text) > 30:
        text = text[:29] + "\u2026"
    if following is None or following == index + 1:
        return [head, f"{index + 1}. {text}"]
    skipped = f"move {following}" if following == index + 2 else f"moves {index + 2}-{following}"
    return [head, f"{index + 1}. {text}", f"(then {skipped})"]


def _frame(plt: Any, x: float, y: float, w: float, h: float, colour: str) -> Any:
    return plt.Rectangle((x, y), w, h, fill=False, edgecolor=colour, linewidth=2)


def _board_size(layout: dict[str, Any]) -> tuple[int, int]:
    """A board's width and height in card cells."""
    if layout["kind"] == "grid":
        return layout["cols"], layout["rows"] + 1
    return 8, 5


def _card(axes: Any, x: float, y: float, code: str | None, marked: bool = False, under: int = 0) -> None:
    """A card cell with its top-left corner at (x, y); `under` counts the cards below it."""
    import matplotlib.patches as patches

    if code is None:
        axes.add_patch(patches.Rectangle((x + 0.05, y - 0.95), 0.9, 0.9, fill=False, edgecolor="#cccccc", linestyle=":", linewidth=0.6))
        return
    axes.add_patch(patches.Rectangle((x + 0.05, y - 0.95), 0.9, 0.9, facecolor=MARK if marked else "white", edgecolor="#777777", linewidth=0.6))
    text, colour = card_text(code)
    axes.text(x + 0.5, y - 0.5, text, ha="center", va="center", fontsize=6.5, color=colour)
    if under:
        axes.text(x + 0.92, y - 0.92, str(under), ha="right", va="bottom", fontsize=4.5, color="#555555")


def _board(axes: Any, x: float, y: float, layout: dict[str, Any], marked: list[dict[str, Any]]) -> None:
    """A small board with its top-left corner at (x, y)."""
    cells = {m["cell"] for m in marked if "cell" in m}
    piles = {m["pile"] for m in marked if "pile" in m}
    tops = {m["foundation"] for m in marked if "foundation" in m}
    stock_marked = any(m.get("stock") for m in marked)
    stock_colour = DECISION if stock_marked else "#555555"
    if layout["kind"] == "grid":
        cols = layout["cols"]
        for i, code in enumerate(layout["cells"]):
            _card(axes, x + i % cols, y - i // cols, code, i in cells)
        axes.text(x, y - layout["rows"] - 0.2, f"stock {layout['stock']}, out {layout['out']}", fontsize=6, va="top", color=stock_colour)
        return
    for f, found in enumerate(layout["foundations"]):
        cards = found["cards"]
        _card(axes, x + f, y, cards[-1] if cards else None, f + 1 in tops, max(0, len(cards) - 1))
        axes.text(x + f + 0.5, y + 0.05, found["name"], ha="center", va="bottom", fontsize=4.5, color="#555555")
    for p, pile in enumerate(layout["piles"]):
        _card(axes, x + p % 8, y - 1.4 - p // 8, pile[-1] if pile else None, p + 1 in piles, max(0, len(pile) - 1))
    state = f"stock {layout['stock']}" + (f"; {layout['next']}" if layout.get("next") else "")
    axes.text(x, y - 3.6, state, fontsize=6, va="top", color=stock_colour)


def _why_no_graph(found: Analysis, states: int) -> str:
    if not found.figures.complete:
        return (
            f"The state graph was cut ({states:,} states), so it is not drawn: --dot or --graphml export it"
            " (raise --max-states or --time-limit for the whole graph)."
        )
    return f"The state graph has {states:,} states, too many to read in a picture: --dot or --graphml export it."


def _graph(axes: Any, graph: nx.DiGraph, states: int, vertical: bool) -> None:
    """The whole state graph, a row (or, when long, a column) per phase from the deal: the
    start, the won states and the dead ends marked, the shortest win drawn thick, the edges
    labelled."""
    positions = nx.multipartite_layout(graph, subset_key="layer", align="horizontal" if vertical else "vertical")
    if vertical:
        positions = {v: (x, -y) for v, (x, y) in positions.items()}  # the deal at the top
    on_line = [(v, w) for v, w in graph.edges if graph.nodes[v]["on_shortest_win"] and graph.nodes[w]["on_shortest_win"]]
    line_edges = set(_line_edges(graph, on_line))
    others = [e for e in graph.edges if e not in line_edges]
    nx.draw_networkx_edges(graph, positions, ax=axes, edgelist=others, edge_color="#9e9e9e", alpha=0.5, arrows=True, arrowsize=6, width=0.6)
    nx.draw_networkx_edges(graph, positions, ax=axes, edgelist=sorted(line_edges), edge_color=WIN, arrows=True, arrowsize=9, width=2.2)
    kinds = {
        "start": ([0], "s", "black", 120),
        "won": ([v for v, a in graph.nodes(data=True) if a["won"]], "*", "gold", 160),
        "dead end": ([v for v, a in graph.nodes(data=True) if a["dead_end"]], "X", DECISION, 60),
        "can still win": ([v for v, a in graph.nodes(data=True) if v and a["can_win"] and not a["won"]], "o", "#66bb6a", 40),
        "cannot win": ([v for v, a in graph.nodes(data=True) if v and not a["can_win"] and not a["dead_end"]], "o", "#90a4ae", 40),
    }
    for label, (nodes, shape, colour, size) in kinds.items():
        if nodes:
            nx.draw_networkx_nodes(graph, positions, ax=axes, nodelist=nodes, node_shape=shape, node_color=colour, node_size=size, label=label, edgecolors="black", linewidths=0.4)
    labelled = list(graph.edges) if graph.number_of_edges() <= LABEL_ALL_EDGES else sorted(line_edges)
    labels = {e: _short(graph.edges[e]["move"]) for e in labelled}
    nx.draw_networkx_edge_labels(graph, positions, edge_labels=labels, ax=axes, font_size=5, rotate=False, bbox={"alpha": 0.7, "color": "white", "pad": 0.3})
    axes.legend(loc="upper right", fontsize=7, markerscale=0.7, frameon=False)
    which = "every edge labelled with its moves" if len(labelled) == graph.number_of_edges() else "the shortest win's edges labelled"
    rows = "one row per phase from the deal, downwards" if vertical else "one column per phase from the deal"
    axes.set_title(f"the whole state graph: {states:,} states, {rows}; {which}", loc="left", fontsize=9)
    axes.set_axis_off()


def _line_edges(graph: nx.DiGraph, candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The edges of the shortest win: from the start, along states on it."""
    out: list[tuple[int, int]] = []
    v = 0
    following: dict[int, list[int]] = {}
    for a, b in candidates:
        following.setdefault(a, []).append(b)
    seen = {0}
    while following.get(v):
        w = next((b for b in following[v] if b not in seen), None)
        if w is None:
            break
        out.append((v, w))
        seen.add(w)
        v = w
    return out


def _short(moves: str) -> str:
    """An edge's moves for a label, a line each: the first three, and how many follow."""
    parts = [m if len(m) <= 28 else m[:27] + "\u2026" for m in moves.split("; ")]
    if len(parts) > 4:
        parts = parts[:3] + [f"and {len(parts) - 3} more"]
    return "\n".join(parts)


# --- results files --------------------------------------------------------------------------

PLAYER_COLOURS = {"perfect": "#1b5e20", "no-peek": "#1565c0", "greedy": "#ef6c00", "random": "#8e24aa"}


def draw_stats(summaries: list[Summary], titles: list[str], path: str | Path) -> None:
    """The summaries of results files as one picture: win rates with 95% intervals, each
    player's rate beside perfect play where players were measured, and the distribution
    of solve times."""
    plt = pyplot()
    players = [s for s in summaries if s.players or s.analysed]
    panels = 2 + bool(players)
    height = max(2.2, 0.45 * len(summaries) + 1.2)
    heights = [height] + ([max(2.5, 0.9 * len(players) + 1.2)] if players else []) + [3.6]
    figure, axes = plt.subplots(panels, 1, figsize=(10, sum(heights) + 0.6), gridspec_kw={"height_ratios": heights})
    _rates(axes[0], summaries, titles)
    if players:
        _players(axes[1], players, [t for s, t in zip(summaries, titles) if s in players])
    _times(axes[-1], summaries, titles)
    figure.tight_layout()
    figure.savefig(str(path), format="png", dpi=100)
    plt.close(figure)


def _rates(axes: Any, summaries: list[Summary], titles: list[str]) -> None:
    ys = list(range(len(summaries)))[::-1]
    rates = [100 * s.win_rate for s in summaries]
    low = [100 * (s.win_rate - s.low) for s in summaries]
    high = [100 * (s.high - s.win_rate) for s in summaries]
    axes.barh(ys, rates, color="#a5d6a7", height=0.6)
    axes.errorbar(rates, ys, xerr=[low, high], fmt="none", ecolor="black", capsize=3, linewidth=1)
    for y, s in zip(ys, summaries):
        unknown = f", {s.unknown:,} unknown" if s.unknown else ""
        axes.text(103, y, f"{100 * s.win_rate:.1f}% of {s.deals:,}{unknown}", va="center", fontsize=8)
    axes.set_yticks(ys, titles, fontsize=8)
    axes.set_xlim(0, 150)
    axes.set_xticks(range(0, 101, 20))
    axes.set_xlabel("deals won with perfect play, % (bars: 95% interval; unknown deals lost at its low end, won at its high end)", fontsize=8)
    axes.set_title("win rate of each rule set", loc="left", fontsize=10)


def _players(axes: Any, summaries: list[Summary], titles: list[str]) -> None:
    names = ["perfect", "no-peek", "greedy", "random"]
    width = 0.2
    used = set()
    for i, s in enumerate(summaries):
        y = len(summaries) - 1 - i
        for j, name in enumerate(names):
            rate = _player(s, name)
            if rate is None:
                continue
            value, lo, hi = (100 * r for r in rate)
            pos = y + (1.5 - j) * width
            axes.barh(pos, value, height=width * 0.9, color=PLAYER_COLOURS[name], label=name if name not in used else None)
            axes.errorbar([value], [pos], xerr=[[value - lo], [hi - value]], fmt="none", ecolor="black", capsize=2, linewidth=0.8)
            used.add(name)
    axes.set_yticks(range(len(summaries))[::-1], titles, fontsize=8)
    axes.set_xlim(0, 100)
    axes.set_xlabel("deals won, % (bars: 95% interval)", fontsize=8)
    axes.legend(loc="lower right", fontsize=7)
    axes.set_title(
        "how much is luck: perfect play, which sees every card, beside players who do not",
        loc="left",
        fontsize=9,
    )


def _player(s: Summary, name: str) -> tuple[float, float, float] | None:
    """A player's win rate and interval: its games (batch --player), else for greedy and
    random the mean odds of an analysis (batch --analyze)."""
    if name == "perfect":
        return s.win_rate, s.low, s.high
    if name in s.players:
        return s.player_rate(name)
    mean = getattr(s, name.replace("-", "_"), None) if name in ("greedy", "random") else None
    if mean is None:
        return None
    margin = getattr(s, f"{name}_margin") or 0.0
    return mean, max(0.0, mean - margin), min(1.0, mean + margin)


def _times(axes: Any, summaries: list[Summary], titles: list[str]) -> None:
    """The share of deals the solver was done with within each time, one line a rule set
    (an unknown deal counts at the time the search gave up)."""
    last = 1
    for s, title in zip(summaries, titles):
        counts = list(s.seconds_histogram)
        if not any(counts):
            continue
        last = max(last, max(i for i, count in enumerate(counts) if count) + 1)
        decided, done = [], 0
        for count in counts:
            done += count
            decided.append(100 * done / s.deals)
        axes.plot(TIME_EDGES[1:], decided, label=title, linewidth=1.4)
    axes.set_xscale("log")
    axes.set_xlim(TIME_EDGES[0], TIME_EDGES[min(last + 1, len(TIME_EDGES) - 1)])
    axes.set_ylim(0, 100)
    axes.set_xlabel("seconds (log scale; times under 0.1 ms count as 0.1 ms; an unknown deal counts at its time limit)", fontsize=8)
    axes.set_ylabel("% of deals done", fontsize=8)
    axes.legend(fontsize=7, loc="lower right")
    axes.set_title("how long the solver takes: the share of deals done within each time", loc="left", fontsize=10)

"""The analysis as data and as files: JSON-ready figures, GraphML and Graphviz DOT
(pictures are `pictures/charts.py`).

Moves are written in the game's own notation; a choice of several primitive moves (a
PySolFC Matrimony play with the shifts that make room for it) is written with "; " between
them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import networkx as nx

from ..search.state_graph import Figures, Graph

# What writing an edge out costs (GraphML, the dearer of the two files, about 3 us here):
# an export under a deadline stops finding edges while there is time to write those found.
WRITE_SECONDS_PER_EDGE = 2e-5


def moves_text(game: Any, rules: Any, moves: Sequence[Any]) -> str:
    return "; ".join(game.move_text(rules, m) for m in moves)


def odds(low: Fraction, high: Fraction) -> dict[str, Any]:
    """A win probability: exact when known, else the interval the cut graph allows."""
    if low == high:
        return {"exact": str(low), "value": float(low)}
    return {"at_least": str(low), "at_most": str(high), "value": None, "range": [float(low), float(high)]}


def figures_data(game: Any, rules: Any, fig: Figures) -> dict[str, Any]:
    """The figures as JSON-ready data (see README for each field)."""
    return {
        "complete": fig.complete,
        "states": fig.states,
        "edges": fig.edges,
        "won_states": fig.won_states,
        "dead_ends": fig.dead_ends,
        "winning_states": fig.winning_states,
        "winning_sequences": fig.sequences,
        "random_player": odds(*fig.random),
        "greedy_player": odds(*fig.greedy),
        "shortest_win": [game.move_text(rules, m) for m in fig.shortest_win],
        "critical_decisions": [
            {
                "move_number": d.move_number,
                "keep": [moves_text(game, rules, c) for c in d.keep],
                "lose": [moves_text(game, rules, c) for c in d.lose],
            }
            for d in fig.decisions
        ],
    }


def export_graph(game: Any, rules: Any, sg: Graph, fig: Figures, deadline: float | None = None) -> nx.DiGraph:
    """The graph as networkx, with plain attributes that GraphML and DOT can hold (the
    analysis itself never needs networkx: this copy is made to export or draw).

    Each edge's moves are found again from its phase, which takes a while on a big graph:
    past `deadline` (a `time.perf_counter()` reading, less the time to write the edges
    found) the states not reached yet keep no edges and are marked unexplored, and the
    graph's `explored` attribute says how many states have their edges."""
    out = nx.DiGraph()
    out.add_nodes_from(range(len(sg)))
    explored = len(sg)
    for v in range(len(sg)):
        if deadline is not None and time.perf_counter() + WRITE_SECONDS_PER_EDGE * out.number_of_edges() > deadline:
            explored = v
            break
        for w, exit in sg.out_edges(v):
            out.add_edge(
                v,
                w,
                move=moves_text(game, rules, exit.line),
                sequences=str(exit.sequences),  # may pass 2**63
                random=float(exit.random),
                greedy=float(exit.greedy),
            )
    out.graph["explored"] = explored
    layer = nx.single_source_shortest_path_length(out, sg.start)
    for v, attrs in out.nodes(data=True):
        unexplored = bool(sg.frontier[v]) or v >= explored
        attrs.update(
            won=bool(sg.won[v]),
            dead_end=not sg.won[v] and not unexplored and out.out_degree(v) == 0,
            can_win=bool(fig.can_win[v]),
            on_shortest_win=v in fig.on_shortest,
            unexplored=unexplored,
            layer=layer.get(v, 0),
        )
    return out


NODE_KEYS = (("won", "boolean"), ("dead_end", "boolean"), ("can_win", "boolean"), ("on_shortest_win", "boolean"),
             ("unexplored", "boolean"), ("layer", "long"))  # fmt: skip
EDGE_KEYS = (("move", "string"), ("sequences", "string"), ("random", "double"), ("greedy", "double"))


def _graphml_value(value: Any) -> str:
    if isinstance(value, bool):  # XML Schema's booleans, not Python's True and False
        return "true" if value else "false"
    return escape(str(value))


def write_graphml(graph: nx.DiGraph, path: str | Path) -> None:
    """The graph as GraphML (for Gephi and yEd), written as it is read: a state or an edge
    a line at a time."""
    keys = [(f"n{i}", name, kind, "node") for i, (name, kind) in enumerate(NODE_KEYS)]
    keys += [(f"e{i}", name, kind, "edge") for i, (name, kind) in enumerate(EDGE_KEYS)]
    with open(path, "w", encoding="utf-8") as f:
        f.write("<?xml version='1.0' encoding='utf-8'?>\n")
        f.write('<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
        for key, name, kind, scope in keys:
            f.write(f'  <key id="{key}" for="{scope}" attr.name="{name}" attr.type="{kind}" />\n')
        f.write('  <graph edgedefault="directed">\n')
        for v, attrs in graph.nodes(data=True):
            data = "".join(f'<data key="n{i}">{_graphml_value(attrs[name])}</data>' for i, (name, _) in enumerate(NODE_KEYS))
            f.write(f'    <node id="{v}">{data}</node>\n')
        for v, w, attrs in graph.edges(data=True):
            data = "".join(f'<data key="e{i}">{_graphml_value(attrs[name])}</data>' for i, (name, _) in enumerate(EDGE_KEYS))
            f.write(f'    <edge source="{v}" target="{w}">{data}</edge>\n')
        f.write("  </graph>\n</graphml>\n")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def node_colour(attrs: dict[str, Any]) -> str:
    if attrs["won"]:
        return "gold"
    if attrs["dead_end"]:
        return "firebrick"
    if attrs["can_win"]:
        return "forestgreen"
    if attrs["unexplored"]:
        return "lightgrey"
    return "steelblue"


def write_dot(graph: nx.DiGraph, path: str | Path) -> None:
    """Graphviz DOT: node colours say won, dead end, can still win; the shortest win is bold."""
    lines = ["digraph wedlock {", '  node [shape=circle, style=filled, label="", width=0.2];']
    for v, attrs in graph.nodes(data=True):
        extra = ", penwidth=3" if attrs["on_shortest_win"] else ""
        flags = " ".join(f"{k}={str(attrs[k]).lower()}" for k in ("won", "dead_end", "can_win", "on_shortest_win"))
        lines.append(f"  {v} [fillcolor={node_colour(attrs)}, tooltip={_quote(flags)}{extra}];")
    for v, w, attrs in graph.edges(data=True):
        lines.append(f"  {v} -> {w} [label={_quote(attrs['move'])}];")
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")

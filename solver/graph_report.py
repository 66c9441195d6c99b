"""The analysis as data and as files: JSON-ready figures, GraphML and Graphviz DOT
(pictures are `pictures.py`).

Moves are written in the game's own notation; a choice of several primitive moves (a
PySolFC Matrimony play with the shifts that make room for it) is written with "; " between
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import networkx as nx
from networkx.readwrite.graphml import GraphMLWriter

from .analysis import Figures, Graph


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


def export_graph(game: Any, rules: Any, sg: Graph, fig: Figures) -> nx.DiGraph:
    """The graph as networkx, with plain attributes that GraphML and DOT can hold (the
    analysis itself never needs networkx: this copy is made to export or draw)."""
    out = nx.DiGraph()
    out.add_nodes_from(range(len(sg)))
    for v in range(len(sg)):
        for w, exit in sg.out_edges(v):
            out.add_edge(
                v,
                w,
                move=moves_text(game, rules, exit.line),
                sequences=str(exit.sequences),  # may pass 2**63
                random=float(exit.random),
                greedy=float(exit.greedy),
            )
    layer = nx.single_source_shortest_path_length(out, sg.start)
    for v, attrs in out.nodes(data=True):
        attrs.update(
            won=bool(sg.won[v]),
            dead_end=not sg.won[v] and not sg.frontier[v] and out.out_degree(v) == 0,
            can_win=bool(fig.can_win[v]),
            on_shortest_win=v in fig.on_shortest,
            unexplored=bool(sg.frontier[v]),
            layer=layer.get(v, 0),
        )
    return out


class _GraphMLWriter(GraphMLWriter):
    """networkx's GraphML writer, with booleans written `true` and `false` as GraphML
    (XML Schema's boolean) has them, not Python's `True` and `False`."""

    def add_data(self, name: str, element_type: type, value: Any, scope: str = "all", default: Any = None) -> Any:
        element = super().add_data(name, element_type, value, scope, default)
        if element_type is bool:  # `value` comes as the text of the bool
            element.text = "true" if value in (True, "True") else "false"
        return element


def write_graphml(graph: nx.DiGraph, path: str | Path) -> None:
    """The graph as GraphML (for Gephi and yEd)."""
    writer = _GraphMLWriter(encoding="utf-8", prettyprint=True)
    writer.add_graph_element(graph)
    with open(path, "wb") as f:
        writer.dump(f)


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

"""The state graph of a deal, and what it says about luck and skill.

A game offers its primitive play through `Play` (below). The graph's nodes are canonical
states where a *phase* starts, plus the won and stuck states; a phase is a run of moves that
ends with one the game calls phase-ending (a Monte Carlo consolidation; every Matrimony
move). Inside a phase the moves commute or merge (Monte Carlo's pairs between two
consolidations), so one edge of the graph stands for every primitive way through a phase
from one node to the next, and carries:

- `sequences`: how many primitive move sequences it stands for (an exact integer);
- `random` and `greedy`: the exact probability (a Fraction) that each player, standing at
  the edge's tail, makes one of those sequences;
- `line`: one of those sequences, to print.

The players pick a move uniformly at random at every primitive position. The random player
picks among all legal moves. The greedy player picks among the moves that take cards out of
play (Monte Carlo's pairs and kings, Matrimony's plays to a foundation) whenever there is
one, and among all moves otherwise. Summed over the edges of a node, the probabilities make
at most 1; the rest is the chance of being stuck inside the phase.

`build` explores the graph breadth first up to `max_states` nodes; the nodes left
unexplored are the *frontier*, and then every figure is a bound (see `Figures`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from math import inf, lcm
from typing import Any, Protocol

import networkx as nx

Moves = tuple  # the primitive moves a player makes for one choice (usually one move)


class Play(Protocol):
    """What the analysis needs from a game: its primitive play, as the player sees it."""

    def start(self) -> Any: ...

    def key(self, pos: Any) -> Hashable: ...

    def is_won(self, pos: Any) -> bool: ...

    def choices(self, pos: Any) -> list[Moves]:
        """The player's legal choices in `pos`, each as the primitive moves it makes."""
        ...

    def apply(self, pos: Any, choice: Moves) -> Any: ...

    def ends_phase(self, choice: Moves) -> bool: ...

    def takes_cards(self, choice: Moves) -> bool:
        """Whether the choice takes cards out of play (the greedy player's preference)."""
        ...


@dataclass
class Exit:
    """The ways out of a phase into one next node, summed over the paths through the phase."""

    sequences: int = 0
    random: Fraction = Fraction(0)
    greedy: Fraction = Fraction(0)
    line: Moves = ()


class CyclicGraph(RuntimeError):
    """The play offered has a cycle: the figures assume none (a game's adapter is wrong)."""


@dataclass
class _Phase:
    """The primitive positions a phase can reach before its phase-ending move.

    `order` is topological; `steps[key]` lists each choice with the position it leads to
    and that position's key (ending the phase or not).
    """

    at: dict[Hashable, Any]
    steps: dict[Hashable, list[tuple[Moves, Any, Hashable]]]
    order: list[Hashable]


def phase_exits(play: Play, start: Any) -> dict[Hashable, tuple[Any, Exit]]:
    """Every way through the phase starting at `start`: next node key -> (position, Exit).

    A next node is the position after a phase-ending move, or a won or stuck position met
    inside the phase. A game may offer its own, faster `phase_exits(position)`; otherwise
    the phase is walked move by move (`walk_phase`). The players' odds are kept as integers over one denominator D for the
    whole phase: D = L ** (longest path + 1) with L the least common multiple of the numbers
    of choices met, so every division by a number of choices is exact.
    """
    fast = getattr(play, "phase_exits", None)
    if fast is not None:
        return fast(start)
    return walk_phase(play, start)


def walk_phase(play: Play, start: Any) -> dict[Hashable, tuple[Any, Exit]]:
    """`phase_exits` the plain way: move by move, for any game (and to check fast paths)."""
    phase = _phase(play, start)
    first = play.key(start)
    depth = {first: 0}
    base = 1
    preferred: dict[Hashable, list[Moves]] = {}
    for key in phase.order:
        steps = phase.steps[key]
        if not steps:
            continue
        options = [c for c, _, _ in steps]
        preferred[key] = [c for c in options if play.takes_cards(c)] or options
        base = lcm(base, len(options), len(preferred[key]))
        for choice, _, k in steps:
            if not play.ends_phase(choice):
                depth[k] = max(depth.get(k, 0), depth[key] + 1)
    scale = base ** (max(depth.values()) + 1)
    paths = {first: 1}
    random = {first: scale}
    greedy = {first: scale}
    lines: dict[Hashable, Moves] = {first: ()}
    exits: dict[Hashable, tuple[Any, list]] = {}

    def leave(key: Hashable, pos: Any, n: int, r: int, g: int, line: Moves) -> None:
        if key not in exits:
            exits[key] = (pos, [0, 0, 0, line])
        out = exits[key][1]
        out[0] += n
        out[1] += r
        out[2] += g

    for key in phase.order:
        n = paths.get(key, 0)
        if n == 0:
            continue
        steps = phase.steps[key]
        r, g, line = random[key], greedy[key], lines[key]
        if not steps:
            if key != first:
                leave(key, phase.at[key], n, r, g, line)
            continue
        share_r = r // len(steps)
        liked = preferred[key]
        share_g = g // len(liked)
        for choice, after, k in steps:
            rg = share_g if choice in liked else 0
            if play.ends_phase(choice):
                leave(k, after, n, share_r, rg, line + tuple(choice))
            else:
                if k not in paths:
                    paths[k], random[k], greedy[k], lines[k] = 0, 0, 0, line + tuple(choice)
                paths[k] += n
                random[k] += share_r
                greedy[k] += rg
    return {
        key: (pos, Exit(n, Fraction(r, scale), Fraction(g, scale), line)) for key, (pos, (n, r, g, line)) in exits.items()
    }


def _phase(play: Play, start: Any) -> _Phase:
    """Explore a phase depth first (won positions and phase-ending choices stop it)."""
    first = play.key(start)
    at = {first: start}
    steps: dict[Hashable, list[tuple[Moves, Any, Hashable]]] = {}
    order: list[Hashable] = []
    state: dict[Hashable, int] = {first: 0}  # 0 entered, 1 finished

    def expand(key: Hashable) -> Iterator[tuple[Hashable, Any]]:
        pos = at[key]
        out = steps[key] = []
        if play.is_won(pos):
            return iter(())
        inner = []
        for choice in play.choices(pos):
            after = play.apply(pos, choice)
            k = play.key(after)
            out.append((choice, after, k))
            if not play.ends_phase(choice):
                inner.append((k, after))
        return iter(inner)

    stack: list[tuple[Hashable, Iterator[tuple[Hashable, Any]]]] = [(first, expand(first))]
    while stack:
        key, todo = stack[-1]
        for k, after in todo:
            seen = state.get(k)
            if seen == 0:
                raise CyclicGraph("a phase returns to a position it has left")
            if seen is None:
                state[k] = 0
                at[k] = after
                stack.append((k, expand(k)))
                break
        else:
            stack.pop()
            state[key] = 1
            order.append(key)
    order.reverse()
    return _Phase(at, steps, order)


@dataclass
class StateGraph:
    """The explored graph: networkx for exports, plain lists for the figures."""

    graph: nx.DiGraph
    start: int
    won: list[bool]
    frontier: list[bool]  # reached but not explored (only when the graph was cut)
    keys: list[Hashable]
    positions: list[Any]

    @property
    def complete(self) -> bool:
        return not any(self.frontier)


def build(play: Play, max_states: int | None = None, deadline: float | None = None) -> StateGraph:
    """Explore the graph of phase-start states reachable from the deal, breadth first.

    At most `max_states` states are kept; a state whose next states do not all fit stays
    unexplored, like every state never reached: those are the frontier. Past `deadline`
    (a `time.perf_counter()` reading) no more states are explored.
    """
    start = play.start()
    graph = nx.DiGraph()
    graph.add_node(0)
    ids: dict[Hashable, int] = {play.key(start): 0}
    keys: list[Hashable] = [play.key(start)]
    won = [play.is_won(start)]
    explored = [False]
    states = [start]
    positions = deque([(0, start)])
    full = max_states is not None and len(keys) >= max_states
    while positions:
        if deadline is not None and time.perf_counter() > deadline:
            break  # what is left in `positions` stays unexplored
        node, pos = positions.popleft()
        if won[node]:
            explored[node] = True
            continue
        complete = True
        for key, (after, exit) in phase_exits(play, pos).items():
            child = ids.get(key)
            if child is None:
                if full:
                    complete = False
                    continue
                child = ids[key] = len(keys)
                keys.append(key)
                won.append(play.is_won(after))
                explored.append(False)
                states.append(after)
                positions.append((child, after))
                graph.add_node(child)
                full = max_states is not None and len(keys) >= max_states
            graph.add_edge(node, child, exit=exit)
        explored[node] = complete
    return StateGraph(graph, 0, won, [not e for e in explored], keys, states)


def include_line(play: Play, sg: StateGraph, line_keys: list[Hashable]) -> list[int]:
    """Add to a cut graph the states a winning line passes through, and the edges between
    them, so that the graph holds a win; return those states, the deal's first.
    `line_keys` are the keys of every position along the line, the deal's first; the
    states added stay unexplored (on the frontier).

    From each state on the line, the next is the exit of its phase furthest along the line.
    """
    ids = {k: v for v, k in enumerate(sg.keys)}
    v, done = sg.start, 0
    walked = [v]
    while not sg.won[v]:
        exits = phase_exits(play, sg.positions[v])
        ahead = next((j for j in range(len(line_keys) - 1, done, -1) if line_keys[j] in exits), None)
        if ahead is None:
            raise RuntimeError("the winning line leaves the state graph")
        key = line_keys[ahead]
        after, exit = exits[key]
        w = ids.get(key)
        if w is None:
            w = ids[key] = len(sg.keys)
            sg.keys.append(key)
            sg.positions.append(after)
            sg.won.append(play.is_won(after))
            sg.frontier.append(not sg.won[w])
            sg.graph.add_node(w)
        if not sg.graph.has_edge(v, w):
            sg.graph.add_edge(v, w, exit=exit)
        v, done = w, ahead
        walked.append(v)
    return walked


@dataclass
class Decision:
    """A position on the shortest win where some move loses for sure."""

    move_number: int  # 1-based: the decision is about this move of the shortest win
    keep: list[Moves]
    lose: list[Moves]


@dataclass
class Figures:
    """What the graph says. When the graph is cut, counts are lower bounds and each
    probability is an interval: the frontier counted as lost, then as won."""

    complete: bool
    states: int
    edges: int
    won_states: int
    dead_ends: int
    winning_states: int
    sequences: int
    random: tuple[Fraction, Fraction]
    greedy: tuple[Fraction, Fraction]
    shortest_win: list[Any] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    can_win: list[bool] = field(default_factory=list)
    on_shortest: set[int] = field(default_factory=set)


def figures(play: Play, sg: StateGraph) -> Figures:
    """Every figure of the analysis, computed on the explored graph."""
    g = sg.graph
    order = _topological(g)
    n = len(sg.keys)
    dead = [not sg.won[v] and not sg.frontier[v] and g.out_degree(v) == 0 for v in range(n)]
    can_win = [False] * n
    sequences = [0] * n
    low = {"random": [Fraction(0)] * n, "greedy": [Fraction(0)] * n}
    # The upper bounds differ from the lower ones only where a frontier is reachable.
    high = low if sg.complete else {"random": [Fraction(0)] * n, "greedy": [Fraction(0)] * n}
    bounds = [low] if sg.complete else [low, high]
    to_win = [inf] * n  # primitive moves of the shortest win from each node
    for v in reversed(order):
        if sg.won[v]:
            can_win[v], sequences[v], to_win[v] = True, 1, 0
            for odds in bounds:
                odds["random"][v] = odds["greedy"][v] = Fraction(1)
            continue
        for _, w, data in g.out_edges(v, data=True):  # a frontier state has a few at most
            exit: Exit = data["exit"]
            can_win[v] = can_win[v] or can_win[w]
            sequences[v] += exit.sequences * sequences[w]
            for who in ("random", "greedy"):
                share = getattr(exit, who)
                if share:
                    for odds in bounds:
                        odds[who][v] += share * odds[who][w]
            to_win[v] = min(to_win[v], len(exit.line) + to_win[w])
        if sg.frontier[v]:  # the exits not explored may all win
            for who in low:
                high[who][v] = Fraction(1)
    line_nodes, line = _shortest_line(g, sg.start, to_win)
    s = sg.start
    return Figures(
        complete=sg.complete,
        states=n,
        edges=g.number_of_edges(),
        won_states=sum(sg.won),
        dead_ends=sum(dead),
        winning_states=sum(can_win),
        sequences=sequences[s],
        random=(low["random"][s], high["random"][s]),
        greedy=(low["greedy"][s], high["greedy"][s]),
        shortest_win=line,
        decisions=_decisions(play, sg, can_win, line) if sg.complete else [],
        can_win=can_win,
        on_shortest=set(line_nodes),
    )


def _topological(g: nx.DiGraph) -> list[int]:
    try:
        return list(nx.topological_sort(g))
    except nx.NetworkXUnfeasible:
        raise CyclicGraph("the state graph has a cycle") from None


def _shortest_line(g: nx.DiGraph, start: int, to_win: list[float]) -> tuple[list[int], list[Any]]:
    """The nodes and the primitive moves of a shortest win from `start` (empty if none)."""
    if to_win[start] == inf:
        return [], []
    nodes, line, v = [start], [], start
    while to_win[v] > 0:
        for _, w, data in g.out_edges(v, data=True):
            exit = data["exit"]
            if len(exit.line) + to_win[w] == to_win[v]:
                line.extend(exit.line)
                nodes.append(w)
                v = w
                break
    return nodes, line


def _decisions(play: Play, sg: StateGraph, can_win: list[bool], line: list[Any]) -> list[Decision]:
    """The positions of the shortest win where some legal choice loses for sure.

    A choice that ends a phase keeps the win when its node can still win; one inside a
    phase, when some way through the rest of the phase reaches such a node.
    """
    index = {k: v for v, k in enumerate(sg.keys)}
    out: list[Decision] = []
    pos = play.start()
    winning = _inner_can_win(play, pos, can_win, index)
    done, rest = 0, list(line)
    while rest:
        options = play.choices(pos)
        choice = next(c for c in options if list(c) == rest[: len(c)])
        if len(options) > 1:
            keep: list[Moves] = []
            lose: list[Moves] = []
            for option in options:
                k = play.key(play.apply(pos, option))
                ok = can_win[index[k]] if play.ends_phase(option) else winning[k]
                (keep if ok else lose).append(option)
            if lose:
                out.append(Decision(done + 1, keep, lose))
        pos = play.apply(pos, choice)
        rest = rest[len(choice) :]
        done += len(choice)
        if rest and play.ends_phase(choice):
            winning = _inner_can_win(play, pos, can_win, index)
    return out


def _inner_can_win(play: Play, start: Any, can_win: list[bool], index: dict[Hashable, int]) -> dict[Hashable, bool]:
    """For each position inside the phase from `start`: whether a win is still reachable."""
    phase = _phase(play, start)
    result: dict[Hashable, bool] = {}
    for key in reversed(phase.order):
        ok = play.is_won(phase.at[key])
        for choice, _, k in phase.steps[key]:
            ok = ok or (can_win[index[k]] if play.ends_phase(choice) else result[k])
        result[key] = ok
    return result

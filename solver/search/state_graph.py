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
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import inf, lcm
from typing import Any, Protocol

from ..basics import memory

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


class FiguresCut(Exception):
    """A limit came before the figures were done: args are the limit, "time_limit" or
    "memory"."""


class Room:
    """What a graph's build and figures must stay within: a deadline (a
    `time.perf_counter()` reading) and the process's resident bytes; None: no bound."""

    MEMORY_EVERY = 1024  # ticks between readings of the memory, which cost more than a clock's

    def __init__(self, deadline: float | None = None, max_resident: int | None = None) -> None:
        self.deadline, self.max_resident = deadline, max_resident
        self.ticks = 0

    def seconds(self) -> float | None:
        """The seconds left, 0 at the least; None with no deadline."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def passed(self) -> str | None:
        """The bound passed, if one is: "time_limit" or "memory" (checked every
        MEMORY_EVERY calls)."""
        self.ticks += 1
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return "time_limit"
        if self.max_resident is not None and self.ticks % self.MEMORY_EVERY == 0 and memory.resident() > self.max_resident:
            return "memory"
        return None


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
    return {key: (pos, Exit(n, Fraction(r, scale), Fraction(g, scale), line)) for key, (pos, (n, r, g, line)) in exits.items()}


def _phase(play: Play, start: Any) -> _Phase:
    """Explore a phase depth first (won positions and phase-ending choices stop it)."""
    first = play.key(start)
    at = {first: start}
    steps: dict[Hashable, list[tuple[Moves, Any, Hashable]]] = {}

    def expand(key: Hashable) -> list[tuple[Hashable, Any]]:
        pos = at[key]
        out = steps[key] = []
        if play.is_won(pos):
            return []
        inner = []
        for choice in play.choices(pos):
            after = play.apply(pos, choice)
            k = play.key(after)
            out.append((choice, after, k))
            if not play.ends_phase(choice):
                inner.append((k, after))
        return inner

    order = _depth_first_order([first], expand, "a phase returns to a position it has left", at.__setitem__)
    return _Phase(at, steps, order)


def _depth_first_order(
    roots: Iterable[Hashable],
    children: Callable[[Any], Iterable[tuple[Any, Any]]],
    cycle: str,
    enter: Callable[[Any, Any], None] | None = None,
) -> list[Any]:
    """Every node reachable from `roots`, each before every node it leads to.

    `children(v)` gives (w, data) for each edge out of v, and is asked once a node, after
    `enter(v, data)` (the data of the edge that first reached it); a node that leads back
    to itself raises CyclicGraph(cycle).
    """
    state: dict[Any, int] = {}  # 0 entered, 1 finished
    order: list[Any] = []
    for root in roots:
        if root in state:
            continue
        state[root] = 0
        stack = [(root, iter(children(root)))]
        while stack:
            v, todo = stack[-1]
            for w, data in todo:
                seen = state.get(w)
                if seen == 0:
                    raise CyclicGraph(cycle)
                if seen is None:
                    state[w] = 0
                    if enter is not None:
                        enter(w, data)
                    stack.append((w, iter(children(w))))
                    break
            else:
                stack.pop()
                state[v] = 1
                order.append(v)
    order.reverse()
    return order


class StateGraph:
    """The explored graph in plain lists, as the pure-Python path builds it: for node v
    (numbered in the order found, the start 0) its key, its position, whether it is won or
    left unexplored (`frontier`, only when the graph was cut), and its out-edges in the
    order found, each with its Exit. `NativeGraph` offers the same over the compiled
    core's arrays."""

    start = 0

    def __init__(self) -> None:
        self.keys: list[Hashable] = []
        self.positions: list[Any] = []
        self.won: list[bool] = []
        self.frontier: list[bool] = []
        self.out: list[list[tuple[int, Exit]]] = []
        self._ids: dict[Hashable, int] = {}
        self.stopped: str | None = None  # what ended the build early, if anything: a limit's name

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def complete(self) -> bool:
        return not any(self.frontier)

    def edge_count(self) -> int:
        return sum(map(len, self.out))

    def index(self, key: Hashable) -> int | None:
        return self._ids.get(key)

    def key(self, v: int) -> Hashable:
        return self.keys[v]

    def position(self, v: int) -> Any:
        return self.positions[v]

    def add(self, key: Hashable, pos: Any, won: bool, frontier: bool) -> int:
        v = self._ids[key] = len(self.keys)
        self.keys.append(key)
        self.positions.append(pos)
        self.won.append(won)
        self.frontier.append(frontier)
        self.out.append([])
        return v

    def add_edge(self, v: int, w: int, exit: Exit) -> None:
        self.out[v].append((w, exit))

    def has_edge(self, v: int, w: int) -> bool:
        return any(u == w for u, _ in self.out[v])

    def successors(self, v: int) -> list[int]:
        return [w for w, _ in self.out[v]]

    def out_edges(self, v: int) -> list[tuple[int, Exit]]:
        return self.out[v]


class NativeGraph:
    """A state graph held in the compiled core's arrays (`wedlock._core.MonteCarloGraph`):
    a few dozen bytes a state and five an edge, where a Python edge with its Exit costs
    hundreds. It offers what `StateGraph` does; an edge's Exit is found again, from its
    phase, only when asked for (exports), and `figures` are computed in the core."""

    start = 0

    def __init__(self, core: Any, play: Play, position_of: Any, cells_of: Any) -> None:
        self.core = core
        self.play = play
        self.stopped: str | None = core.stopped()
        self._position_of = position_of  # the core's (cells, stock) -> the game's position
        self._cells_of = cells_of  # and back
        self._refresh()

    def _refresh(self) -> None:
        self.won: bytes = self.core.won()
        self.frontier: bytes = self.core.frontier()

    def __len__(self) -> int:
        return len(self.core)

    @property
    def complete(self) -> bool:
        return 1 not in self.frontier

    def edge_count(self) -> int:
        return int(self.core.edge_count())

    def index(self, key: Hashable) -> int | None:
        return self.core.index(*key)  # type: ignore[misc]

    def key(self, v: int) -> Hashable:
        return self.core.key(v)

    def position(self, v: int) -> Any:
        return self._position_of(self.core.position(v))

    def add(self, key: Hashable, pos: Any, won: bool, frontier: bool) -> int:
        v = int(self.core.add_node(*self._cells_of(pos)))
        self._refresh()
        return v

    def add_edge(self, v: int, w: int, exit: Exit) -> None:
        self.core.add_edge(v, w, len(exit.line))

    def has_edge(self, v: int, w: int) -> bool:
        return bool(self.core.has_edge(v, w))

    def successors(self, v: int) -> list[int]:
        return self.core.successors(v)

    def out_edges(self, v: int) -> list[tuple[int, Exit]]:
        exits = phase_exits(self.play, self.position(v))
        return [(w, exits[self.key(w)][1]) for w in self.successors(v)]

    def plain(self) -> StateGraph:
        """The same graph as `StateGraph`, for the pure-Python figures (every edge's exit is
        found again from its phase: slow on a big graph)."""
        out = StateGraph()
        for v in range(len(self)):
            out.add(self.key(v), self.position(v), bool(self.won[v]), bool(self.frontier[v]))
        for v in range(len(self)):
            for w, exit in self.out_edges(v):
                out.add_edge(v, w, exit)
        return out


Graph = StateGraph | NativeGraph


def build(play: Play, max_states: int | None = None, deadline: float | None = None, max_resident: int | None = None) -> Graph:
    """Explore the graph of phase-start states reachable from the deal, breadth first.

    At most `max_states` states are kept; a state whose next states do not all fit stays
    unexplored, like every state never reached: those are the frontier. Past `deadline`
    (a `time.perf_counter()` reading), or once the process holds more than `max_resident`
    bytes, no more states are explored; the graph's `stopped` says which limit cut it. A
    game may build the same graph in the compiled core (`native_graph(max_states, seconds,
    max_resident)`).
    """
    room = Room(deadline, max_resident)
    native = getattr(play, "native_graph", None)
    if native is not None:
        made = native(max_states, room.seconds(), max_resident)
        if made is not None:
            return made
    start = play.start()
    sg = StateGraph()
    sg.add(play.key(start), start, play.is_won(start), False)
    explored = [False]
    positions = deque([(0, start)])
    full = max_states is not None and len(sg) >= max_states
    while positions:
        if (passed := room.passed()) is not None:
            # A graph that reached max_states was cut by it, whatever stops its edges later
            # (but the memory, which is the more pressing to name).
            sg.stopped = passed if sg.stopped is None or passed == "memory" else sg.stopped
            break  # what is left in `positions` stays unexplored
        node, pos = positions.popleft()
        if sg.won[node]:
            explored[node] = True
            continue
        complete = True
        for key, (after, exit) in phase_exits(play, pos).items():
            child = sg.index(key)
            if child is None:
                if full:
                    complete, sg.stopped = False, "max_states"
                    continue
                child = sg.add(key, after, play.is_won(after), False)
                explored.append(False)
                positions.append((child, after))
                full = max_states is not None and len(sg) >= max_states
            sg.add_edge(node, child, exit)
        explored[node] = complete
    sg.frontier = [not e for e in explored]
    return sg


def include_line(play: Play, sg: Graph, line_keys: list[Hashable]) -> list[int]:
    """Add to a cut graph the states a winning line passes through, and the edges between
    them, so that the graph holds a win; return those states, the deal's first.
    `line_keys` are the keys of every position along the line, the deal's first; the
    states added stay unexplored (on the frontier).

    From each state on the line, the next is the exit of its phase furthest along the line.
    """
    v, done = sg.start, 0
    walked = [v]
    while not sg.won[v]:
        exits = phase_exits(play, sg.position(v))
        ahead = next((j for j in range(len(line_keys) - 1, done, -1) if line_keys[j] in exits), None)
        if ahead is None:
            raise RuntimeError("the winning line leaves the state graph")
        key = line_keys[ahead]
        after, exit = exits[key]
        w = sg.index(key)
        if w is None:
            won = play.is_won(after)
            w = sg.add(key, after, won, not won)
        if not sg.has_edge(v, w):
            sg.add_edge(v, w, exit)
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
    can_win: Sequence[Any] = field(default_factory=list)  # truthy where a win is reachable, by node
    on_shortest: set[int] = field(default_factory=set)


def figures(play: Play, sg: Graph, deadline: float | None = None, max_resident: int | None = None) -> Figures:
    """Every figure of the analysis, computed on the explored graph; FiguresCut when the
    `deadline` (a `time.perf_counter()` reading) or the bound of `max_resident` bytes held
    by the process comes first."""
    room = Room(deadline, max_resident)
    if isinstance(sg, NativeGraph):
        try:
            return _native_figures(play, sg, room)
        except OverflowError:  # a state added with a winning line has a phase past the core
            sg = sg.plain()
    order = _topological(sg)
    n = len(sg)
    dead = [not sg.won[v] and not sg.frontier[v] and not sg.out[v] for v in range(n)]
    can_win = [False] * n
    sequences = [0] * n
    low = {"random": [Fraction(0)] * n, "greedy": [Fraction(0)] * n}
    # The upper bounds differ from the lower ones only where a frontier is reachable.
    high = low if sg.complete else {"random": [Fraction(0)] * n, "greedy": [Fraction(0)] * n}
    bounds = [low] if sg.complete else [low, high]
    to_win = [inf] * n  # primitive moves of the shortest win from each node
    for v in reversed(order):
        if (limit := room.passed()) is not None:
            raise FiguresCut(limit)
        if sg.won[v]:
            can_win[v], sequences[v], to_win[v] = True, 1, 0
            for odds in bounds:
                odds["random"][v] = odds["greedy"][v] = Fraction(1)
            continue
        for w, exit in sg.out[v]:  # a frontier state has a few at most
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
    line_nodes, line = _shortest_line(sg, to_win)
    s = sg.start
    return Figures(
        complete=sg.complete,
        states=n,
        edges=sg.edge_count(),
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


def _native_figures(play: Play, sg: NativeGraph, room: Room) -> Figures:
    """`figures` from the compiled core: the same numbers, summed forwards (see graph.c).
    The shortest win's moves are found again, phase by phase, along its nodes."""
    seconds, most = room.seconds(), room.max_resident
    found = sg.core.figures(-1.0 if seconds is None else seconds, -1 if most is None else most)
    if isinstance(found, str):  # the limit that came first
        raise FiguresCut(found)
    base, exponent, sequences, r_low, g_low, r_high, g_high, won, dead, winning, edges, can_win, path = found
    scale = base**exponent

    def odds(numerator: bytes) -> Fraction:
        return Fraction(int.from_bytes(numerator, "little"), scale)

    line: list[Any] = []
    for v, w in zip(path, path[1:]):
        line.extend(phase_exits(play, sg.position(v))[sg.key(w)][1].line)
    return Figures(
        complete=sg.complete,
        states=len(sg),
        edges=edges,
        won_states=won,
        dead_ends=dead,
        winning_states=winning,
        sequences=int.from_bytes(sequences, "little"),
        random=(odds(r_low), odds(r_high)),
        greedy=(odds(g_low), odds(g_high)),
        shortest_win=line,
        decisions=_decisions(play, sg, can_win, line) if sg.complete else [],
        can_win=can_win,
        on_shortest=set(path),
    )


def _topological(sg: StateGraph) -> list[int]:
    """The nodes, each before every node it leads to."""
    return _depth_first_order(range(len(sg)), sg.out.__getitem__, "the state graph has a cycle")


def _shortest_line(sg: StateGraph, to_win: list[float]) -> tuple[list[int], list[Any]]:
    """The nodes and the primitive moves of a shortest win from the start (empty if none)."""
    start = sg.start
    if to_win[start] == inf:
        return [], []
    nodes, v = [start], start
    line: list[Any] = []
    while to_win[v] > 0:
        for w, exit in sg.out[v]:
            if len(exit.line) + to_win[w] == to_win[v]:
                line.extend(exit.line)
                nodes.append(w)
                v = w
                break
    return nodes, line


def _decisions(play: Play, sg: Graph, can_win: Sequence[Any], line: list[Any]) -> list[Decision]:
    """The positions of the shortest win where some legal choice loses for sure.

    A choice that ends a phase keeps the win when its node can still win; one inside a
    phase, when some way through the rest of the phase reaches such a node.
    """
    out: list[Decision] = []
    pos = play.start()
    winning = _inner_can_win(play, pos, can_win, sg)
    done, rest = 0, list(line)
    while rest:
        options = play.choices(pos)
        choice = next(c for c in options if list(c) == rest[: len(c)])
        if len(options) > 1:
            keep: list[Moves] = []
            lose: list[Moves] = []
            for option in options:
                k = play.key(play.apply(pos, option))
                ok = bool(can_win[_node(sg, k)]) if play.ends_phase(option) else winning[k]
                (keep if ok else lose).append(option)
            if lose:
                out.append(Decision(done + 1, keep, lose))
        pos = play.apply(pos, choice)
        rest = rest[len(choice) :]
        done += len(choice)
        if rest and play.ends_phase(choice):
            winning = _inner_can_win(play, pos, can_win, sg)
    return out


def _node(sg: Graph, key: Hashable) -> int:
    v = sg.index(key)
    if v is None:
        raise RuntimeError("a phase leads out of the whole state graph")
    return v


def _inner_can_win(play: Play, start: Any, can_win: Sequence[Any], sg: Graph) -> dict[Hashable, bool]:
    """For each position inside the phase from `start`: whether a win is still reachable."""
    phase = _phase(play, start)
    result: dict[Hashable, bool] = {}
    for key in reversed(phase.order):
        ok = play.is_won(phase.at[key])
        for choice, _, k in phase.steps[key]:
            ok = ok or (bool(can_win[_node(sg, k)]) if play.ends_phase(choice) else result[k])
        result[key] = ok
    return result

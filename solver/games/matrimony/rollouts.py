"""PySolFC's Matrimony searched by playouts that learn while they search: nested rollout
policy adaptation (NRPA, Rosin 2011, with a bias on each logit as in Cazenave's GNRPA),
nested Monte Carlo search (NMCS, Cazenave 2009; with a greedy base policy it is the nested
rollouts of Bjarnason, Fern and Tadepalli, 2009) and UCT (Kocsis and Szepesvari, 2006), the
tree search that bounded Klondike's win rate in the same paper as those nested rollouts.

A playout plays the deal out to its end; the searches keep the line that puts the most
cards on the foundations, and a line that puts all 104 there is a win (which the pipeline's
referee replays). They prove nothing else: a search that ends without a win is `unknown`.

Two models of a playout's decisions (`Rollout.model`):

- `free`: any primitive move at any time, a shift folded into the play that needs it: play a
  pile's top card onto its foundation, or the next deal or redeal;
- `decisions`: the exact space's (`PysolSpace`, pysol_space.py): after the safe plays, the
  first playable card not held back is played or held back (until its other copy goes
  down, its suit leaves 13, or its pile is redealt), and with none left the next deal or
  redeal comes. Plays made in another order reach the same positions, so a playout decides
  only what matters: which copy of a card goes first, which card is a suit's centre, what
  waits for a deal;
- `pruned`: the decisions, and after each deal or redeal the lost test of the quick spaces
  (the one-suit puzzle with the redeals ahead, pysol_dead.py): a line it calls lost ends
  there, with the cards it has down, so the searches learn to keep away from it.

A card is a *label*: its place in the deal, or (past 103) its place in the start position,
so the two copies of a card are told apart and a policy learns which goes first. A
decision's *code*, which a weight belongs to, is its label, its action (a play or a hold,
or under `free` the copies of the card already down) and its epoch (the deals and redeals
made): the same decision in every playout. A playout draws each decision with probability
in proportion to exp(weight + bias); the bias prefers plays (`Rollout.bias`: a play's own,
an event's or a hold's, more when the play uncovers a card that can go next, and more for
each card under it). NMCS's base playouts use the bias alone, drawn or, `greedy`, its best.

The compiled core runs these searches (`_core.pysol_rollouts`, pysol_rollouts.c); this file
is their twin in Python, decision for decision and draw for draw (the same Mersenne Twister
as `random.Random(seed)`), which tests/games/test_matrimony_rollouts.py holds the core to,
and the fallback where no core was built.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ...basics.compiled import compiled_core
from ...search.exhaustive import UNKNOWN, WON, Limits, Outcome, limit_reached
from ...search.portfolio import Budget, stops_the_rest
from .moves import Deal, Move, Redeal
from .play import Position, Table
from .pysol_dead import SuitPuzzle
from .pysol_space import PysolSuits
from .rules import DECK, FOUNDATION_CARDS, PILES, ROUNDS

LAYOUT = 2 + PILES  # the deal indices the start uses: J♦, Q♦, a card a pile
LABELS = 2 * DECK  # the deal's places, then the start position's
EPOCHS = 6 + ROUNDS + 1  # deals and redeals made: 0 to 22
PLAY_CODES = LABELS * 2 * EPOCHS
CODES = PLAY_CODES + EPOCHS
EVENT = PILES  # a move: a pile whose top card is played, the event, or HOLD + a pile
HOLD = PILES + 1
MOST_STEPS = 640  # decisions a playout may take (a line holding cards again and again is cut)
MODELS = ("free", "decisions", "pruned")
MODEL_WORDS = {"free": "free moves", "decisions": "decisions", "pruned": "decisions, lost lines cut"}
AHEAD_STATES = 15  # the pruned model's lost test: the quick spaces' budget for the redeals ahead
METHODS = ("nrpa", "nmcs", "uct")
MOST_NODES = 1 << 25  # UCT's tree stops growing there
NONE = 255


class Rollout(NamedTuple):
    """One search by playouts: its method and model, level, NRPA's iterations a level,
    the base policy of NMCS and UCT, the bias (a play's, an event's or hold's, an uncovering
    play's extra, each covered card's extra), UCT's exploration constant and the seed."""

    method: str = "nmcs"
    model: str = "decisions"
    level: int = 3
    iterations: int = 100
    greedy: bool = False
    bias: tuple[float, float, float, float] = (2.0, 0.0, 1.0, 0.0)
    seed: int = 1
    exploration: float = 0.3

    @property
    def label(self) -> str:
        """The search in a few words, as `solve` and batch records name the one that won."""
        if self.method == "nrpa":
            name = f"NRPA search, level {self.level}, {self.iterations} iterations a level"
        elif self.method == "uct":
            name = f"UCT search, exploration {self.exploration:g}"
        else:
            name = f"NMCS search, level {self.level}"
        if self.method != "nrpa":
            name += ", greedy base" if self.greedy else ", drawn base"
        name += ", " + MODEL_WORDS[self.model]
        if self.bias != Rollout().bias:
            name += ", bias " + "/".join(f"{b:g}" for b in self.bias)
        if self.seed != 1:
            name += f", seed {self.seed}"
        return name


@dataclass
class _State:
    piles: list[list[int]]  # labels, bottom first
    counts: list[int]
    stock: int
    rounds: int
    epoch: int
    frozen: list[tuple[int, int, int]] = field(default_factory=list)
    passed: list[tuple[int, int]] = field(default_factory=list)
    dead: bool = False  # the pruned model: the lost test said so at the last deal or redeal

    def copy(self) -> _State:
        piles = [list(p) for p in self.piles]
        return _State(piles, list(self.counts), self.stock, self.rounds, self.epoch, list(self.frozen), list(self.passed), self.dead)


class _Choices(NamedTuple):
    moves: list[int]
    codes: list[int]
    biases: list[float]


class _Stop(Exception):
    """A limit of the search was reached."""


class _Game:
    """One deal's rules as the playouts read them (pysol_rollouts.c's rgame)."""

    def __init__(self, table: Table, start: Position, search: Rollout) -> None:
        rules = table.rules
        self.code = list(table.codes) + [0] * DECK
        self.next = [list(codes) + [NONE] for codes in rules.takes]
        self.rank_in = [[NONE] * 52 for _ in rules.takes]
        for f, codes in enumerate(rules.takes):
            for k, c in enumerate(codes):
                self.rank_in[f][c] = k
        self.down, self.up = rules.jack_down, rules.queen_up
        self.bias = search.bias
        self.decisions = search.model != "free"
        self.lost = SuitPuzzle(self.down, self.up, self.rank_in, AHEAD_STATES) if search.model == "pruned" else None
        label = DECK
        piles = []
        for pile in start.piles:
            labels = []
            for c in pile:
                self.code[label] = c
                labels.append(label)
                label += 1
            piles.append(labels)
        epoch = (start.stock - LAYOUT + PILES - 1) // PILES + start.rounds
        counts = list(start.foundations)
        for d, u in zip(self.down, self.up):  # a suit at 13, however split, as the searches write it
            if counts[d] + counts[u] == FOUNDATION_CARDS:
                counts[d], counts[u] = 0, FOUNDATION_CARDS
        self.start = _State(piles, counts, start.stock, start.rounds, epoch)

    # --- the rules ---

    def at_thirteen(self, counts: list[int], code: int) -> bool:
        s = code // 13
        return counts[self.down[s]] + counts[self.up[s]] == FOUNDATION_CARDS

    def playable(self, counts: list[int], code: int) -> bool:
        s = code // 13
        d, u = self.down[s], self.up[s]
        if counts[d] + counts[u] == FOUNDATION_CARDS:
            return True
        return self.next[u][counts[u]] == code or self.next[d][counts[d]] == code

    def copies_down(self, counts: list[int], code: int) -> int:
        s = code // 13
        d, u = self.down[s], self.up[s]
        if counts[d] + counts[u] == FOUNDATION_CARDS:
            return 1
        return (counts[d] > self.rank_in[d][code]) + (counts[u] > self.rank_in[u][code])

    def play_code(self, counts: list[int], code: int) -> None:
        s = code // 13
        d, u = self.down[s], self.up[s]
        if counts[d] + counts[u] == FOUNDATION_CARDS:
            counts[d], counts[u] = self.rank_in[d][code] + 1, self.rank_in[u][code] + 1
            return
        if self.next[u][counts[u]] == code:
            counts[u] += 1
        else:
            counts[d] += 1
        if counts[d] + counts[u] == FOUNDATION_CARDS:
            counts[d], counts[u] = 0, FOUNDATION_CARDS

    @staticmethod
    def has_event(st: _State) -> bool:
        return st.stock < DECK or st.rounds < ROUNDS

    @staticmethod
    def won(st: _State) -> bool:
        return all(n == FOUNDATION_CARDS for n in st.counts)

    def play_top(self, st: _State, p: int) -> None:
        self.play_code(st.counts, self.code[st.piles[p].pop()])

    @staticmethod
    def event(st: _State) -> None:
        if st.stock < DECK:
            for p in range(PILES):
                if st.stock == DECK:
                    break
                st.piles[p].append(st.stock)
                st.stock += 1
        else:
            p = PILES - 1 - st.rounds
            cards, st.piles[p] = st.piles[p], []
            for k, card in enumerate(cards):
                st.piles[(p + k) % PILES].append(card)
            st.rounds += 1
        st.epoch += 1

    # --- the decisions model ---

    def copies_elsewhere(self, st: _State, p: int, code: int) -> int:
        return 2 - self.copies_down(st.counts, code) - sum(self.code[label] == code for label in st.piles[p])

    @staticmethod
    def may_land_on(st: _State, p: int, next_redeal: int) -> bool:
        most: dict[int, int] = {}
        for q in range(next_redeal, p - 1, -1):
            n = len(st.piles[q])
            for q2 in range(next_redeal, q, -1):
                if q2 in most:
                    first = PILES + q - q2
                    if most[q2] > first:
                        n += (most[q2] - first - 1) // PILES + 1
            if q == p:
                return n > len(st.piles[p])
            most[q] = n
        return False

    def safe(self, st: _State, p: int) -> bool:
        if st.stock < DECK:
            return False
        pile = st.piles[p]
        code = self.code[pile[-1]]
        if self.at_thirteen(st.counts, code) or self.copies_elsewhere(st, p, code):
            return False
        next_redeal = PILES - 1 - st.rounds
        if p > next_redeal:
            return True
        if sum(self.code[label] == code for label in pile) > 1:
            return False
        return p + len(pile) - 1 < PILES and not self.may_land_on(st, p, next_redeal)

    def drop_holds(self, st: _State, redealt: int) -> None:
        st.frozen = [
            (p, h, n)
            for p, h, n in st.frozen
            if p != redealt and h < len(st.piles[p]) and self.copies_down(st.counts, self.code[st.piles[p][h]]) == n
        ]
        st.passed = [(p, h) for p, h in st.passed if p != redealt and h < len(st.piles[p]) and self.at_thirteen(st.counts, self.code[st.piles[p][h]])]

    def advance(self, st: _State, out: list[int] | None = None) -> None:
        if not self.decisions:
            return
        again = True
        while again:
            again = False
            if st.frozen:
                self.drop_holds(st, -1)
            for p in range(PILES):
                pile = st.piles[p]
                if not pile or not self.playable(st.counts, self.code[pile[-1]]):
                    continue
                if any(fp == p and fh == len(pile) - 1 for fp, fh, _ in st.frozen) or not self.safe(st, p):
                    continue
                self.play_top(st, p)
                if out is not None:
                    out.append(p)
                again = True
                break
        self.drop_holds(st, -1)

    def apply(self, st: _State, move: int) -> None:
        if move < PILES:
            self.play_top(st, move)
        elif move == EVENT:
            redealt = -1 if st.stock < DECK else PILES - 1 - st.rounds
            self.event(st)
            if self.decisions:
                self.drop_holds(st, redealt)
            if self.lost is not None:
                st.dead = self.lost_now(st)
        else:
            p = move - HOLD
            h = len(st.piles[p]) - 1
            code = self.code[st.piles[p][h]]
            if self.at_thirteen(st.counts, code):
                st.passed.append((p, h))
            else:
                st.frozen.append((p, h, self.copies_down(st.counts, code)))

    def lost_now(self, st: _State) -> bool:
        """Whether the lost test calls the position lost for the lines that keep its holds."""
        assert self.lost is not None
        piles = tuple(bytes(self.code[label] for label in pile) for pile in st.piles)
        pos = Position(piles, tuple(st.counts), st.stock, st.rounds)
        return self.lost.dead(pos, frozenset(st.frozen), frozenset(st.passed), ahead=True)

    def play_bias(self, st: _State, p: int) -> float:
        pile = st.piles[p]
        n = len(pile)
        bias = self.bias[0] + self.bias[3] * (n - 1)
        if n > 1:
            after = list(st.counts)
            self.play_code(after, self.code[pile[-1]])
            if self.playable(after, self.code[pile[-2]]):
                bias += self.bias[2]
        return bias

    def choices(self, st: _State) -> _Choices:
        out = _Choices([], [], [])
        if st.dead:
            return out  # a lost line ends there
        for p, pile in enumerate(st.piles):
            if not pile:
                continue
            label = pile[-1]
            code = self.code[label]
            if not self.playable(st.counts, code):
                continue
            h = len(pile) - 1
            if self.decisions:
                if any(fp == p and fh == h for fp, fh, _ in st.frozen):
                    continue
                if (p, h) in st.passed and self.at_thirteen(st.counts, code):
                    continue
                base = label * 2 * EPOCHS + st.epoch
                return _Choices([p, HOLD + p], [base, base + EPOCHS], [self.play_bias(st, p), self.bias[1]])
            out.moves.append(p)
            out.codes.append((label * 2 + self.copies_down(st.counts, code)) * EPOCHS + st.epoch)
            out.biases.append(self.play_bias(st, p))
        if self.has_event(st):
            out.moves.append(EVENT)
            out.codes.append(PLAY_CODES + st.epoch)
            out.biases.append(0.0 if self.decisions else self.bias[1])
        return out

    def line_moves(self, decisions: list[int]) -> list[int]:
        """The primitive moves of a line of decisions: safe plays, plays, events."""
        st = self.start.copy()
        out: list[int] = []
        self.advance(st, out)
        for move in decisions:
            self.apply(st, move)
            if move <= EVENT:
                out.append(move)
            self.advance(st, out)
        return out


@dataclass
class _Line:
    score: int = -1
    moves: list[int] = field(default_factory=list)
    at: list[_Choices] = field(default_factory=list)


class _Run:
    """One search's draws, limits and counts (pysol_rollouts.c's run)."""

    def __init__(self, game: _Game, search: Rollout, limits: Limits) -> None:
        self.game = game
        self.rng = random.Random(search.seed)
        self.greedy = search.greedy
        self.iterations = search.iterations
        self.playouts = 0
        self.most_playouts = limits.node_limit
        self.most_held = limits.max_states
        self.held = search.level + 1 if search.method != "uct" else 1
        self.started = time.perf_counter()
        self.deadline = None if limits.time_limit is None else self.started + limits.time_limit
        self.stopped: str | None = None

    def stop_now(self) -> bool:
        if self.stopped:
            return True
        if self.most_playouts is not None and self.playouts >= self.most_playouts:
            self.stopped = "node_limit"
            return True
        if self.playouts % 32:
            return False
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.stopped = "time_limit"
            return True
        return False

    def draw(self, c: _Choices, weights: list[float] | None, greedy: bool) -> int:
        n = len(c.moves)
        if n == 1:
            return 0
        logits = [c.biases[i] + (weights[c.codes[i]] if weights is not None else 0.0) for i in range(n)]
        top = max(logits)
        if greedy:
            return logits.index(top)
        e = [math.exp(x - top) for x in logits]
        total = 0.0
        for x in e:
            total += x
        u = self.rng.random() * total
        for i in range(n - 1):
            u -= e[i]
            if u < 0:
                return i
        return n - 1

    def playout(self, st: _State, weights: list[float] | None, greedy: bool, out: _Line) -> None:
        game = self.game
        self.playouts += 1
        game.advance(st)
        while not game.won(st) and len(out.moves) < MOST_STEPS:
            c = game.choices(st)
            if not c.moves:
                break
            i = self.draw(c, weights, greedy)
            out.moves.append(c.moves[i])
            out.at.append(c)
            game.apply(st, c.moves[i])
            game.advance(st)
        out.score = sum(st.counts)

    # --- NRPA ---

    @staticmethod
    def adapt(policy: list[float], best: _Line, alpha: float = 1.0) -> None:
        changes = []
        for move, c in zip(best.moves, best.at):
            logits = [policy[code] + b for code, b in zip(c.codes, c.biases)]
            top = max(logits)
            e = [math.exp(x - top) for x in logits]
            z = 0.0
            for x in e:
                z += x
            for i, code in enumerate(c.codes):
                changes.append((code, (alpha if c.moves[i] == move else 0.0) - alpha * e[i] / z))
        for code, delta in changes:
            policy[code] += delta

    def nrpa(self, level: int, policy: list[float]) -> _Line:
        if level == 0:
            line = _Line()
            self.playout(self.game.start.copy(), policy, False, line)
            return line
        best = _Line()
        for _ in range(self.iterations):
            if self.stop_now():
                break
            found = self.nrpa(level - 1, list(policy))
            if found.score >= best.score:
                best = found
            if best.score == DECK:
                break
            self.adapt(policy, best)
        return best

    # --- NMCS ---

    def nmcs(self, start: _State, level: int, so_far: list[int]) -> _Line:
        game = self.game
        if level == 0:
            line = _Line(moves=list(so_far))
            self.playout(start.copy(), None, self.greedy, line)
            return line
        st = start.copy()
        game.advance(st)
        best = _Line(moves=list(so_far))
        done = list(so_far)
        while not game.won(st) and not self.stop_now() and len(done) < MOST_STEPS:
            c = game.choices(st)
            if not c.moves:
                break
            for move in c.moves:
                if self.stop_now():
                    break
                child = st.copy()
                game.apply(child, move)
                game.advance(child)
                trial = self.nmcs(child, level - 1, [*done, move])
                if trial.score > best.score:
                    best = _Line(trial.score, trial.moves)
                    if best.score == DECK:
                        break
            if best.score == DECK or len(best.moves) <= len(done):
                break
            move = best.moves[len(done)]
            done.append(move)
            game.apply(st, move)
            game.advance(st)
        return best


@dataclass
class _Node:
    move: int
    child: int = -1  # the first child (a node's children are consecutive); -1: not expanded
    n: int = 0
    visits: int = 0
    total: float = 0.0


def _uct(run: _Run, exploration: float) -> _Line:
    """UCT from the start (pysol_rollouts.c's uct, step for step)."""
    game = run.game
    nodes = [_Node(0)]
    best = _Line()
    while not run.stop_now():
        st = game.start.copy()
        game.advance(st)
        k, path = 0, [0]
        trial = _Line()
        while nodes[k].child >= 0 and nodes[k].n > 0 and len(trial.moves) < MOST_STEPS:
            first, chosen, top = nodes[k].child, -1, -math.inf
            log_n = math.log(nodes[k].visits)
            for i in range(nodes[k].n):
                c = nodes[first + i]
                if not c.visits:
                    chosen = first + i
                    break
                value = c.total / c.visits + exploration * math.sqrt(log_n / c.visits)
                if value > top:
                    top, chosen = value, first + i
            k = chosen
            trial.moves.append(nodes[k].move)
            game.apply(st, nodes[k].move)
            game.advance(st)
            path.append(k)
        if nodes[k].child < 0 and len(trial.moves) < MOST_STEPS:
            offered = game.choices(st)
            moves = [] if game.won(st) else offered.moves
            if run.most_held is not None and len(nodes) + len(moves) > run.most_held:
                run.stopped = "max_states"  # the tree holds what it may
                break
            if len(nodes) + len(moves) <= MOST_NODES:
                nodes[k].child, nodes[k].n = len(nodes), len(moves)
                nodes.extend(_Node(m) for m in moves)
                run.held = len(nodes)
                if moves:
                    k = nodes[k].child
                    trial.moves.append(nodes[k].move)
                    game.apply(st, nodes[k].move)
                    game.advance(st)
                    path.append(k)
        run.playout(st, None, run.greedy, trial)
        reward = trial.score / DECK
        for k in path:
            nodes[k].visits += 1
            nodes[k].total += reward
        if trial.score > best.score:
            best = _Line(trial.score, trial.moves)
        if best.score == DECK:
            break
    return best


class RolloutSpace(PysolSuits):
    """A deal (or a position) for the rollout searches, and their lines as moves: a line is
    one step, its primitive moves (a pile whose top card is played, or `EVENT`)."""

    label = "rollouts"

    def moves(self, steps: Sequence[Sequence[int]]) -> list[Move]:
        """The moves of a line: each play with the shifts it needs, each deal or redeal."""
        table, pos, out = self.table, self._real_start, []
        for move in (m for step in steps for m in step):
            if move < PILES:
                played = self.primitive_play(pos, move, pos.piles[move][-1])
            else:
                played = [Deal() if pos.stock < DECK else Redeal(PILES - 1 - pos.rounds)]
            for primitive in played:
                out.append(primitive)
                pos = table.apply(pos, primitive)
        return out


def compiled_rollout(core: Any, table: Table, start: Position, search: Rollout, limits: Limits) -> tuple:
    """The search run by the compiled core: (the best line's score, its moves' codes, the
    playouts, the states held, the limit that stopped it or None)."""
    return core.pysol_rollouts(
        table.codes,
        bytes(code for codes in table.rules.takes for code in codes),
        bytes(table.rules.jack_down),
        bytes(table.rules.queen_up),
        position_bytes(start),
        MODELS.index(search.model),
        METHODS.index(search.method),
        search.level,
        search.iterations,
        search.greedy,
        search.bias,
        search.exploration,
        search.seed,
        limits.time_limit,
        limits.node_limit,
        limits.max_states,
    )


def rollout_search(space: RolloutSpace, search: Rollout, limits: Limits) -> Outcome:
    """The search from the space's start, within the time limit and `limits.node_limit`
    playouts (a playout generates a line: a node): won with its line as one step, else
    unknown. Its states are what it holds: NRPA and NMCS a line a level and the playout's,
    UCT its tree's nodes (within `limits.max_states`). Run by the compiled core where it
    was built."""
    if search.method not in METHODS or search.model not in MODELS:
        raise ValueError(f"no rollout search {search.method!r} over {search.model!r}")
    table, start = space.table, space._real_start
    started = time.perf_counter()
    core = compiled_core()
    if core is not None:
        score, line, playouts, held, stopped = compiled_rollout(core, table, start, search, limits)
        moves = list(line)
    else:
        game = _Game(table, start, search)
        run = _Run(game, search, limits)
        if search.method == "nrpa":
            best = run.nrpa(search.level, [0.0] * CODES)
        elif search.method == "uct":
            best = _uct(run, search.exploration)
        else:
            best = run.nmcs(game.start, search.level, [])
        score, playouts, held, stopped = max(best.score, 0), run.playouts, run.held, run.stopped
        moves = game.line_moves(best.moves) if best.score >= 0 else []
    seconds = time.perf_counter() - started
    if score == DECK:
        return Outcome(WON, [tuple(moves)], held, playouts, seconds, playouts=playouts)
    if stopped is not None:
        return Outcome(UNKNOWN, [], held, playouts, seconds, limit_reached(stopped, limits), stopped, playouts=playouts)
    return Outcome(UNKNOWN, [], held, playouts, seconds, f"{search.label}: its best line put {score} cards down", playouts=playouts)


RESTART_MODELS = ("decisions", "pruned", "free")
RESTART_BIASES = ((2.0, 0.0, 1.0, 0.0), (1.0, 0.0, 1.0, 0.0), (0.5, 0.0, 1.0, 0.0), (0.0, 0.0, 0.0, 0.0))
RESTART_SEED = 100  # try i's seed is RESTART_SEED + i: none of the fixed stages' seeds


def restart(base: Rollout, i: int) -> Rollout:
    """Try `i` of a run of restarts: `base` under the i-th model, bias and seed in turn."""
    model = RESTART_MODELS[i % len(RESTART_MODELS)]
    bias = RESTART_BIASES[i // len(RESTART_MODELS) % len(RESTART_BIASES)]
    return base._replace(model=model, bias=bias, seed=RESTART_SEED + i)


def rollout_restarts(space: RolloutSpace, base: Rollout, tries: int, limits: Limits) -> Outcome:
    """`base` run again and again under new models, biases and seeds (`restart`), each from
    nothing, up to `tries` times, within `limits` all told: won at the first win, else
    unknown. Short searches restarted beat one long one where a search's luck decides
    most of what it finds (the seed of NRPA at level 3 wins or loses a hard deal)."""
    budget = Budget(limits)
    for i in range(tries):
        out = budget.add(rollout_search(space, restart(base, i), budget.left()))
        if out.verdict == WON:
            return Outcome(WON, out.steps, budget.states, budget.playouts, budget.seconds, playouts=budget.playouts)
        if stops_the_rest(out):
            return Outcome(UNKNOWN, [], budget.states, budget.playouts, budget.seconds, budget.reason(out), out.limit, budget.playouts)
    return Outcome(UNKNOWN, [], budget.states, budget.playouts, budget.seconds, f"{restarts_label(base, tries)}: no win", playouts=budget.playouts)


def restarts_label(base: Rollout, tries: int) -> str:
    """A run of restarts in a few words (the models, biases and seeds are `restart`'s)."""
    name = base._replace(model="decisions", bias=Rollout().bias, seed=1).label.removesuffix(", decisions")
    return f"{name}, {tries:,} restarts under new seeds, models and biases"


def position_bytes(pos: Position) -> bytes:
    """A position as the compiled core reads it: each pile's codes ended by 255, the counts, the stock, the redeals."""
    out = bytearray()
    for pile in pos.piles:
        out += pile
        out.append(NONE)
    out += bytes(pos.foundations)
    out.append(pos.stock)
    out.append(pos.rounds)
    return bytes(out)

"""PySolFC's exact Matrimony space searched a level at a time, for proofs of loss.

The level of a state is phi = cards on the foundations + deals made + redeals made. Every
step of `PysolSpace` keeps or raises it: a play (with the shifts that make room for it)
puts a card down, a deal or a redeal is counted, the safe plays before a choice put cards
down, and a hold moves no card. So a state met at level L is never met again once the
search has passed L, and a breadth-first search that finishes each level before the next
may let a finished level go.

Exactness. The search holds each level as a set compared byte for byte, and expands every
state of a level, including those that join it while it is being expanded (the holds).
It therefore reaches exactly the states a single depth-first pass reaches from the same
start: the states reachable over edges whose end is not cut by the lost tests (which look
at a state alone, so they cut the same ends in both). "lost" means none of them is won,
with the same count of states as the depth-first search's; "won" means one is. The compiled
core checks on every edge that the level did not fall, and stops with an error if it did.

Checkpoints. Given a path, the search writes there, at the end of a level once `every`
seconds have passed since the last time, the levels not yet finished and its counts (to a
file beside it, then renamed over it, so a search killed at any moment leaves the last
checkpoint whole). A search given a path that holds a checkpoint of the same start and
rules goes on from it: the levels below are finished, and what they led to is in the file,
so it reaches the same states and counts them the same as a search that ran straight
through. A search that ends with a verdict deletes its checkpoint; one cut short keeps it.

What it saves is memory: the depth-first search keeps every state it has closed, this
one keeps the levels not yet finished (`peak`). It finds no line, so a win found here is
only a verdict; `wedlock solve` still wins with the depth-first search and the quick stages.
A solve given a checkpoint (`wedlock batch --checkpoints`) runs it as its exact stage
(`prove_by_levels`), and looks for a win's line with the depth-first search afterwards.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from ...basics.compiled import compiled_core
from ...basics.errors import CheckpointError, CheckpointNotWritten
from ...basics.printable import printable
from ...search.exhaustive import LOST, UNKNOWN, WON, Limits, Outcome, Verdict, seconds_text, solve
from ...search.portfolio import Budget
from ..protocol import EXACT_LABEL, Answer, Checkpoint, proven
from .pysol_space import PysolSpace


class LevelsOutcome(NamedTuple):
    """What a search by levels found: its verdict ("won", "lost" or "unknown"), the states it
    reached, the most it held at once, the limit that stopped it (None if none did), and
    the states it generated (a search gone on from a checkpoint counts those before it)."""

    verdict: str
    states: int
    peak: int
    limit: str | None
    nodes: int


def search_by_levels(space: PysolSpace, limits: Limits, checkpoint: Path | None = None, every: float = 600.0) -> LevelsOutcome:
    """Search `space` from its start a level at a time, in the compiled core. `limits` are
    search.Limits, except that max_states bounds the states held at once (first_pass is
    not used: there is one pass). With `checkpoint`, go on from the checkpoint there if it is
    this search's, and write one there every `every` seconds (see the module docstring);
    ValueError for a file there that is not this search's checkpoint, OSError when one
    cannot be written. RuntimeError without the core."""
    core = compiled_core()
    if core is None:
        raise RuntimeError("the search by levels runs in the compiled core, which is not in use")
    start, rules = space.key(space.start()), space.core_rules()
    assert isinstance(start, bytes)  # PysolSpace.key packs a state into bytes
    where = {} if checkpoint is None else {"checkpoint": str(checkpoint), "digest": search_digest(start, rules), "every": float(every)}
    verdict, states, nodes, limit, peak = core.search_pysol(
        start,
        *rules,
        node_limit=limits.node_limit,
        time_limit=limits.time_limit,
        max_states=limits.max_states,
        first_pass=None,
        layered=True,
        **where,
    )
    if checkpoint is not None and verdict != "unknown":
        checkpoint.unlink(missing_ok=True)
    return LevelsOutcome(verdict, states, peak, limit, nodes)


def search_digest(start: bytes, rules: tuple) -> bytes:
    """What names one search: its start, the deal and foundations, and the lost tests'
    budgets (the step objects at the end of `rules` are not part of it)."""
    codes, takes, down, up, ahead, tangle, tangles = rules[:7]
    digest = hashlib.sha256(b"wedlock levels\0")
    for part in (start, codes, takes, down, up, f"{ahead} {tangle} {int(tangles)}".encode()):
        digest.update(len(part).to_bytes(4, "little") + part)
    return digest.digest()


def prove_by_levels(space: PysolSpace, budget: Budget, checkpoint: Checkpoint) -> Answer:
    """The exact stage of a solve that keeps `checkpoint`: the search by levels, going on
    from the checkpoint when there is one, within what the stages before it left of the
    time and nodes (the nodes of the runs before a checkpoint count too), holding at most
    max_states at once. A win it finds has no line, so the depth-first search looks for
    one within what is left. CheckpointError for a file there that is not this search's
    checkpoint, CheckpointNotWritten when one cannot be written."""
    resumed = checkpoint.path.exists()
    held = replace(budget.left(), max_states=budget.limits.max_states)  # the quick stages hold nothing now
    clock = time.perf_counter()
    try:
        found = search_by_levels(space, held, checkpoint.path, checkpoint.every)
    except ValueError as err:
        if not resumed:
            raise  # not the checkpoint's fault
        raise CheckpointError(f"{printable(str(err))} (another deal's, another version's, or damaged): remove it to start this proof again") from None
    except OSError as err:
        raise CheckpointNotWritten(printable(str(err))) from None
    seconds = time.perf_counter() - clock
    out = budget.add(Outcome(Verdict(found.verdict), states=found.states, nodes=found.nodes, seconds=seconds, limit=found.limit))
    if out.verdict == LOST:
        went_on = " (the search by levels went on from a checkpoint)" if resumed else ""
        return Answer(LOST, [], budget.states, budget.seconds, proof=proven(space, out) + went_on, playouts=budget.playouts)
    if out.verdict == UNKNOWN:
        reason = budget.reason(out) + (" (the states held at once)" if out.limit == "max_states" else "")
        return Answer(UNKNOWN, [], budget.states, budget.seconds, f"{reason}; {kept(checkpoint, resumed)}", limit=out.limit, playouts=budget.playouts)
    line = budget.add(solve(space, replace(budget.left(), max_states=budget.limits.max_states)))
    if line.verdict == WON:
        return Answer(WON, space.moves(line.steps), budget.states, budget.seconds, found_by=EXACT_LABEL, playouts=budget.playouts)
    if line.verdict == LOST:
        raise RuntimeError("the depth-first search proves lost what the search by levels found won")
    reason = f"a win exists (the search by levels found one), but its line was not found within the limits: {budget.reason(line)}"
    return Answer(UNKNOWN, [], budget.states, budget.seconds, reason, limit=line.limit, playouts=budget.playouts)


def kept(checkpoint: Checkpoint, resumed: bool) -> str:
    """What a search by levels cut short left of its checkpoint, in words."""
    if checkpoint.path.exists():
        return "the search by levels went on from a checkpoint, which it keeps" if resumed else "the search by levels keeps a checkpoint"
    if resumed:
        return "the search by levels went on from a checkpoint, which is gone"
    return f"the search by levels wrote no checkpoint (the first comes at the end of a level after {seconds_text(checkpoint.every)})"

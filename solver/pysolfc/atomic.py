"""PySolFC's atomic moves as plain values, and a game's stacks as PySolFC keeps them.

PySolFC records each player action (a drag, a click on the stock) as one step of its
history: a list of atomic moves, each naming stacks by their id (see `ids`). Four kinds
occur in the games wedlock solves:

- `MoveCards`: the top `ncards` cards of one stack onto another, in their order;
- `Flip`: the top card of a stack turned over;
- `NextRound`: the talon's round counter up by one (a Matrimony redeal);
- `UpdateStack`: a note for the view (before and after a Monte Carlo pair or
  consolidation); it moves nothing.

`frames` and `shadow` say how a move is animated; they change nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..basics.errors import SavedGameError
from ..basics.words import counted


@dataclass(frozen=True)
class MoveCards:
    """The top `ncards` cards of stack `source` onto stack `target`."""

    ncards: int
    source: int
    target: int
    frames: int = -1
    shadow: int = -1


@dataclass(frozen=True)
class Flip:
    """The top card of a stack turned over."""

    stack: int


@dataclass(frozen=True)
class NextRound:
    """The talon's round counter up by one."""

    stack: int


@dataclass(frozen=True)
class UpdateStack:
    """A note for the view, kept in the history so that undo and redo redraw a stack."""

    stack: int
    flags: int


Atomic = MoveCards | Flip | NextRound | UpdateStack
Step = tuple[Atomic, ...]  # what one player action records

Card = tuple[int, bool]  # a card as a stack holds it: PySolFC's card id, face up
Stack = tuple[Card, ...]  # bottom card first


@dataclass(frozen=True)
class Layout:
    """Every stack's cards, in PySolFC's stack order, and the talon's round (1 at the start)."""

    stacks: tuple[Stack, ...]
    talon_round: int = 1

    def cards(self, stack: int) -> Stack:
        """A stack's cards, bottom first."""
        return self.stacks[stack]


def shape(atomic: Atomic) -> tuple[object, ...]:
    """What an atomic move does, without how it is animated: two steps that agree in
    their shapes move the same cards the same way."""
    if isinstance(atomic, MoveCards):
        return ("move", atomic.ncards, atomic.source, atomic.target)
    if isinstance(atomic, Flip):
        return ("flip", atomic.stack)
    if isinstance(atomic, NextRound):
        return ("round", atomic.stack)
    return ("update", atomic.stack, atomic.flags)


def played(layout: Layout, step: Step, talon: int, max_round: int) -> Layout:
    """The layout after a step's atomic moves; a SavedGameError when one cannot be made
    (a stack without the cards it moves, a round past the last)."""
    stacks = [list(s) for s in layout.stacks]
    talon_round = layout.talon_round
    for atomic in step:
        if isinstance(atomic, MoveCards):
            source, target, n = atomic.source, atomic.target, atomic.ncards
            if not (_is_stack(source, stacks) and _is_stack(target, stacks)) or source == target:
                raise SavedGameError(f"a move between stacks {source} and {target}, which this game does not have")
            if not 0 < n <= len(stacks[source]):
                raise SavedGameError(f"a move of {counted(n, 'card')} from stack {source}, which holds {len(stacks[source])}")
            moved = stacks[source][-n:]
            del stacks[source][-n:]
            stacks[target].extend(moved)
        elif isinstance(atomic, Flip):
            if not _is_stack(atomic.stack, stacks) or not stacks[atomic.stack]:
                raise SavedGameError(f"a card turned over on stack {atomic.stack}, which holds none")
            card, face_up = stacks[atomic.stack][-1]
            stacks[atomic.stack][-1] = (card, not face_up)
        elif isinstance(atomic, NextRound):
            if atomic.stack != talon or talon_round >= max_round:
                raise SavedGameError(f"a new round on stack {atomic.stack} past the game's last")
            talon_round += 1
        elif not _is_stack(atomic.stack, stacks):
            raise SavedGameError(f"a note for stack {atomic.stack}, which this game does not have")
    return Layout(tuple(map(tuple, stacks)), talon_round)


def unplayed(layout: Layout, step: Step, talon: int) -> Layout:
    """The layout before a step, given the layout after it (what PySolFC's Undo does); a
    SavedGameError when the step cannot have led there."""
    for atomic in reversed(step):
        if isinstance(atomic, NextRound):
            if atomic.stack != talon or layout.talon_round <= 1:
                raise SavedGameError(f"a new round on stack {atomic.stack} before the first")
            layout = Layout(layout.stacks, layout.talon_round - 1)
            continue
        if isinstance(atomic, MoveCards):
            atomic = MoveCards(atomic.ncards, atomic.target, atomic.source)
        layout = played(layout, (atomic,), talon, layout.talon_round)
    return layout


def _is_stack(stack: int, stacks: list[list[Card]]) -> bool:
    return 0 <= stack < len(stacks)

"""The step PySolFC records in its history for each wedlock move, and the wedlock move a
recorded step is.

What PySolFC records for each action (found by making it in PySolFC's engine and reading
its history; tests/pysolfc checks every game's wins step by step):

- a Monte Carlo pair (one card dragged onto the other): a note for the talon (flags 18),
  the dragged card then the other to the foundation, a note for the talon (flags 17);
- a consolidation (a click on the stock): the same notes around, first, each card that
  slides to close a gap (to the first gap before it in reading order; in Weddings up its
  column) and then, for each empty cell in reading order while the stock lasts, the
  talon's top card turned face up and moved there;
- a Matrimony play or shift (a drag): the one card moved;
- a Matrimony deal (a click on the stock): for each pile in turn while the stock lasts,
  the talon's top card turned face up and moved there;
- a Matrimony redeal (a click on the empty stock): the pile whose turn it is moved onto
  the talon a card at a time, each turned face down, the round counter up by one, then
  the talon dealt out from that pile on, round the piles, until it is empty.
"""

from __future__ import annotations

from typing import Any

from ..basics.errors import SavedGameError
from ..games.matrimony import moves as matrimony
from ..games.matrimony.rules import MatrimonyRules
from ..games.montecarlo import moves as montecarlo
from ..games.montecarlo.rules import SLIDE, MonteCarloRules
from . import ids
from .atomic import Atomic, Flip, Layout, MoveCards, NextRound, Step, UpdateStack

DRAG_FRAMES = -2  # a card a player drags and drops records these frames
SLIDE_FRAMES, SLIDE_SHADOW = 4, 0  # a card sliding to close a gap
REDEAL_FRAMES = 4  # a card picked up from a pile in a redeal
BEFORE, AFTER = 2 | 16, 1 | 16  # the talon's notes around a pair or a consolidation: undone, redone; text
CELLS = range(ids.CELLS)
PILES = list(ids.MATRIMONY_PILES)
FOUNDATIONS = ids.MATRIMONY_FOUNDATIONS
TALON = ids.MATRIMONY_TALON
MC_TALON, MC_FOUNDATION = ids.MONTE_CARLO_TALON, ids.MONTE_CARLO_FOUNDATION


def step_for(rules: Any, layout: Layout, move: Any) -> Step:
    """The step PySolFC records for a legal wedlock move made in `layout`."""
    if isinstance(move, montecarlo.Pair):
        first, second = move.cells
        return (
            UpdateStack(MC_TALON, BEFORE),
            MoveCards(1, first, MC_FOUNDATION),
            MoveCards(1, second, MC_FOUNDATION),
            UpdateStack(MC_TALON, AFTER),
        )
    if isinstance(move, montecarlo.Consolidate):
        return (UpdateStack(MC_TALON, BEFORE), *_consolidation(rules, layout), UpdateStack(MC_TALON, AFTER))
    if isinstance(move, matrimony.Play):
        return (MoveCards(1, PILES[move.pile], FOUNDATIONS[move.to], DRAG_FRAMES),)
    if isinstance(move, matrimony.Shift):
        return (MoveCards(1, FOUNDATIONS[move.source], FOUNDATIONS[move.to], DRAG_FRAMES),)
    if isinstance(move, (matrimony.Deal, matrimony.Redeal)):
        return _stock_click(layout)
    raise SavedGameError(f"PySolFC has no step for {move!r}")


def _consolidation(rules: MonteCarloRules, layout: Layout) -> list[Atomic]:
    """The slides that close the grid's gaps, then the cards dealt into the empty cells."""
    full = [bool(layout.cards(cell)) for cell in CELLS]
    out: list[Atomic] = []
    gaps = 0
    for cell in CELLS:
        if not full[cell]:
            gaps += 1
            continue
        if rules.consolidation == SLIDE:
            to = cell - gaps
        else:  # up the column, as far as the cells above are empty
            to = cell
            while to >= rules.cols and not full[to - rules.cols]:
                to -= rules.cols
        if to != cell:
            out.append(MoveCards(1, cell, to, SLIDE_FRAMES, SLIDE_SHADOW))
            full[cell], full[to] = False, True
    stock = len(layout.cards(MC_TALON))
    if gaps:
        for cell in CELLS:
            if not full[cell]:
                if not stock:
                    break
                out += [Flip(MC_TALON), MoveCards(1, MC_TALON, cell)]
                stock -= 1
    return out


def _stock_click(layout: Layout) -> Step:
    """A Matrimony deal, or (the stock empty) the redeal of the pile whose turn it is."""
    out: list[Atomic] = []
    stock, round_ = len(layout.cards(TALON)), layout.talon_round
    if not stock:
        pile = PILES[-round_]
        for _ in layout.cards(pile):
            out += [MoveCards(1, pile, TALON, REDEAL_FRAMES), Flip(TALON)]
        out.append(NextRound(TALON))
        stock, round_ = len(layout.cards(pile)), round_ + 1

    def deal_to(piles: list[int]) -> int:
        for pile in piles[:stock]:
            out.extend((Flip(TALON), MoveCards(1, TALON, pile)))
        return min(stock, len(piles))

    if round_ == 1:
        stock -= deal_to(PILES)
    else:
        stock -= deal_to(PILES[-round_ + 1 :])
        while stock:
            stock -= deal_to(PILES)
    return tuple(out)


def move_for(rules: Any, seen: Any, step: Step) -> Any:
    """The wedlock move a step PySolFC recorded makes in the position `seen` (the
    referee's table); a SavedGameError when it is none. The move is not yet checked:
    the referee judges it, and `step_for` says whether PySolFC would record this step."""
    if isinstance(rules, MonteCarloRules):
        return _monte_carlo_move(seen, step)
    if isinstance(rules, MatrimonyRules):
        return _matrimony_move(seen, step)
    raise SavedGameError(f"PySolFC has no game with the rules {rules.name!r}")


def _monte_carlo_move(seen: Any, step: Step) -> Any:
    out = [a.source for a in step if isinstance(a, MoveCards) and a.target == MC_FOUNDATION]
    if not out:
        return montecarlo.Consolidate()
    if len(out) != 2 or not all(cell in CELLS and seen.grid[cell] is not None for cell in out):
        raise SavedGameError("a step that takes out other than two cards of the grid")
    first, second = out
    return montecarlo.Pair((first, second), (seen.grid[first], seen.grid[second]))


def _matrimony_move(seen: Any, step: Step) -> Any:
    if any(isinstance(a, NextRound) or (isinstance(a, MoveCards) and TALON in (a.source, a.target)) for a in step):
        if seen.stock:
            return matrimony.Deal()
        return matrimony.Redeal(len(PILES) - 1 - seen.redeals)
    if len(step) == 1 and isinstance(step[0], MoveCards) and step[0].ncards == 1 and step[0].target in FOUNDATIONS:
        source, target = step[0].source, FOUNDATIONS.index(step[0].target)
        if source in PILES and seen.piles[PILES.index(source)]:
            return matrimony.Play(PILES.index(source), seen.piles[PILES.index(source)][-1], target)
        if source in FOUNDATIONS and seen.foundations[FOUNDATIONS.index(source)]:
            return matrimony.Shift(FOUNDATIONS.index(source), target, seen.foundations[FOUNDATIONS.index(source)][-1])
    raise SavedGameError("a step that is not a play, a shift, a deal or a redeal")

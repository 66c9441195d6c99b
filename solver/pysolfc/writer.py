"""A win written as a game PySolFC saved: File > Open shows the deal (or the position the
win starts from) and Redo plays the win a move at a time.

The file holds what PySolFC writes when a player saves a game just dealt, with one
difference: its history already holds the win, at place 0, so every move is undone and
Redo makes them. Each wedlock move is the step PySolFC itself records for it (`history`),
so undo, redo, and the statistics behave as after a game played there. The records of a
fresh game are written as PySolFC writes them (its attributes in its order), save the
list of positions seen: PySolFC keeps it as hashes that differ from one run of Python to
the next and never reads it back, and wedlock writes it empty.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..basics.errors import SavedGameError
from ..basics.numbering import GameNumber, shuffled
from ..pipeline.solving import Deal, Position, Solution, SolverFault
from ..search.exhaustive import Verdict
from . import ids
from .atomic import Atomic, Flip, Layout, MoveCards, NextRound, Step, played
from .history import step_for
from .layout import layout_of, same_cards, start_layout, talon_of
from .pickles import BUILD, REDUCE, TUPLE2, Global, Instance, Template, dumps, get, put
from .saves import GAME_VERSION, MAGIC, MS_LONG_BIT, NEWEST, SHAPES

S_PLAY = 0x40  # the history's state between moves


def save_bytes(solution: Solution, now: float | None = None) -> bytes:
    """The save of a win (a `Solution` whose verdict is won), written at `now` (seconds
    since the epoch; the current time when None)."""
    chosen = solution.deal
    game_id, number = writable_in_pysolfc(chosen)
    if solution.verdict != Verdict.WON:
        raise SavedGameError(f"{chosen.label} is {solution.verdict.value}, not won: only a win can be written as a PySolFC save")
    start = _start_layout(solution.position, chosen)
    return save_of(game_id, number, start, _history(solution, start), now=now)


def save_of(game_id: int, number: GameNumber, layout: Layout, history: list[Step], index: int = 0, now: float | None = None) -> bytes:
    """A save of game `game_id`'s deal `number` whose stacks hold `layout`, with `history`
    played up to `index` (what Redo replays past it), written at `now`."""
    written = time.time() if now is None else now
    decks = SHAPES[game_id].decks
    parts: list[Any] = [MAGIC, ".".join(map(str, NEWEST)), NEWEST, 0, GAME_VERSION, game_id]
    parts += [MS_LONG_BIT | number.seed if number.microsoft else number.seed, _generator_state(number, decks)]
    parts.append(len(layout.stacks))
    for stack in layout.stacks:
        parts.append(len(stack))
        for card, face_up in stack:
            parts += [card, int(face_up)]
    parts += [layout.talon_round, False]
    parts += _records(history, index, written)
    parts.append("EOF")
    return b"".join(dumps(part) for part in parts)


def writable_in_pysolfc(start: Deal | Position) -> tuple[int, GameNumber]:
    """PySolFC's id of the game a deal or position is of, and the deal's number, when a
    save of it can be written: PySolFC has the game, and the deal is one of its numbered
    deals."""
    chosen = start.deal if isinstance(start, Position) else start
    game_id = ids.game_id(chosen.game.name, chosen.rules.name)
    if game_id is None:
        raise SavedGameError(f"PySolFC has no game with the rules of {chosen.title}: it cannot open a save of it")
    if chosen.number is None:
        raise SavedGameError("a PySolFC save needs a game number; this deal was given card by card")
    return game_id, GameNumber.parse(chosen.number)


def _start_layout(start: Position | None, chosen: Any) -> Layout:
    """The layout the win starts from: the deal's, or a position's."""
    if start is None:
        return start_layout(chosen)
    if start.typed:  # no moves lead there: each card takes its first copy
        return layout_of(start.seen)
    layout = start_layout(chosen)
    seen = chosen.game.opening(chosen.rules, chosen.cards)
    for move in start.moves.raw():
        layout, seen = _played(chosen, layout, seen, move)[1:]
    return layout


def _history(solution: Solution, layout: Layout) -> list[Step]:
    """The step PySolFC records for each move of the win."""
    chosen = solution.deal
    seen = solution.position.seen if solution.position is not None else chosen.game.opening(chosen.rules, chosen.cards)
    steps = []
    for move in solution.moves.raw():
        step, layout, seen = _played(chosen, layout, seen, move)
        steps.append(step)
    return steps


def _played(chosen: Any, layout: Layout, seen: Any, move: Any) -> tuple[Step, Layout, Any]:
    """A move's step, and the layout and position after it; they must agree card by card."""
    step = step_for(chosen.rules, layout, move)
    after = played(layout, step, *talon_of(seen))
    seen = chosen.game.after(chosen.rules, seen, move)
    if not same_cards(after, layout_of(seen)):
        text = chosen.game.move_text(chosen.rules, move)
        raise SolverFault(f"{chosen.label}: PySolFC's step for {text} and wedlock's referee disagree")
    return step, after, seen


def _generator_state(number: GameNumber, decks: int) -> Any:
    """The state of PySolFC's generator once it has shuffled the deal, as PySolFC pickles
    it: the Microsoft generator's a pair of numbers; the Mersenne Twister's a pair of its
    `seed` method (pickled as getattr on the generator) and its state."""
    generator = shuffled(number, decks)[1]
    if number.microsoft:
        return tuple(generator.getstate())
    state = random.Random.getstate(generator)
    return Template(
        (
            Global("builtins", "getattr"), put(0),
            Global("pysol_cards.random", "MTRandom"), (), REDUCE, put(1),
            get(0), get(1), "seed", TUPLE2, REDUCE,  # the generator's state: its seed method ...
            state, TUPLE2, BUILD,  # ... and the generator's own state
            "seed", TUPLE2, REDUCE,
            state, TUPLE2,
        )
    )  # fmt: skip


def _records(history: list[Step], index: int, now: float) -> list[Any]:
    """The records that follow the cards, as PySolFC writes them for a game just dealt
    (and saved once), with the win in the history."""
    game = "pysollib.game"
    zero_stats = dict.fromkeys(
        "hints peeks highlight_piles highlight_cards highlight_samerank undo_moves redo_moves total_moves player_moves "
        "demo_moves autoplay_moves quickplay_moves goto_bookmark_moves shuffle_moves demo_updated".split(),
        0,
    )
    return [
        Instance(game, "GameSaveInfo", {"stack_caps": []}),
        Instance(game, "GameGlobalSaveInfo", {"bookmarks": {}, "comment": ""}),
        Instance(game, "GameMoves", {"current": [], "history": [[_instance(a) for a in step] for step in history], "index": index, "state": S_PLAY}),
        [],  # the positions seen
        Instance(
            game,
            "GameGlobalStatsStruct",
            {"holded": 0, "loaded": 0, "saved": 1, "restarted": 0, "goto_bookmark_moves": 0, "updated": 0,
             "start_time": now, "total_elapsed_time": 0.0, "start_player": None},
        ),  # fmt: skip
        Instance(game, "GameStatsStruct", {**zero_stats, "update_time": now, "elapsed_time": 0.0, "pause_start_time": 0.0}),
    ]


def _instance(atomic: Atomic) -> Instance:
    """An atomic move as the object of PySolFC's class it is."""
    move = "pysollib.move"
    if isinstance(atomic, MoveCards):
        fields = {"ncards": atomic.ncards, "from_stack_id": atomic.source, "to_stack_id": atomic.target}
        return Instance(move, "AMoveMove", {**fields, "frames": atomic.frames, "shadow": atomic.shadow})
    if isinstance(atomic, Flip):
        return Instance(move, "AFlipMove", {"stack_id": atomic.stack})
    if isinstance(atomic, NextRound):
        return Instance(move, "ANextRoundMove", {"stack_id": atomic.stack})
    return Instance(move, "AUpdateStackMove", {"stack_id": atomic.stack, "flags": atomic.flags})

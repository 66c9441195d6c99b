"""Matrimony as a player makes moves, for the state-graph analysis (`wedlock.search.state_graph`).

Every move ends a phase (nothing commutes in general), so each choice is one graph edge.

Arnold's rules: a choice is one primitive move; the key merges twin foundations.

PySolFC's rules: a suit whose two foundations hold 13 cards between them holds one card of
each rank, and shifts can move the boundary between its Jack-down and Queen-up foundations
anywhere, back and forth. Those shifts change nothing a player cares about but make cycles,
so here such a suit is always kept as "Jack-down empty, Queen-up full", and a choice is a
play together with the shifts that make room for it and, when the play brings its suit to
13 cards, the shifts that put the suit in that arrangement (the printed line lists them
all, so it replays move for move in PySolFC). The
random and greedy players therefore choose among plays, deals and redeals, never among
shifts: rearranging a full suit is not a decision. Below and above 13 cards no shift is
possible (a shifted card would need the other foundation to end one rank away).
"""

from __future__ import annotations

from collections.abc import Hashable

from .moves import Move, Play, Shift
from .play import Position, Table, settled_foundations
from .rules import FOUNDATION_CARDS, card_of

Choice = tuple[Move, ...]


class PlayerView:
    """One deal's primitive play, in the shape `wedlock.search.state_graph.Play` asks for."""

    def __init__(self, table: Table, start: Position | None = None) -> None:
        self.table = table
        rules = table.rules
        self.folds = rules.shifts
        if self.folds:
            self.down, self.up = rules.jack_down, rules.queen_up
        self._start = self._settled(start if start is not None else table.start())

    def _settled(self, pos: Position) -> Position:
        """The position with every full suit written as Jack-down empty, Queen-up full."""
        if not self.folds:
            return pos
        return pos._replace(foundations=settled_foundations(self.table.rules, pos.foundations))

    def start(self) -> Position:
        return self._start

    def key(self, pos: Position) -> Hashable:
        return self.table.key(pos)

    def is_won(self, pos: Position) -> bool:
        return self.table.is_won(pos)

    def choices(self, pos: Position) -> list[Choice]:
        table = self.table
        moves = [m for m in table.legal_moves(pos) if not isinstance(m, Shift)]
        if not self.folds:
            return [(m,) for m in moves]
        out: list[Choice] = [(m,) for m in moves]
        for d, u in zip(self.down, self.up):
            if pos.foundations[u] != FOUNDATION_CARDS or pos.foundations[d] != 0:
                continue
            shifted, shifts = pos, tuple[Shift, ...]()
            for n in range(FOUNDATION_CARDS - 1, -1, -1):
                top = card_of(table.takes[u][n])
                shift = Shift(u, d, top)
                shifted, shifts = table.apply(shifted, shift), shifts + (shift,)
                out.extend(shifts + (m,) for m in table.plays(shifted) if m.to in (d, u))
        return [choice + self._settling(pos, choice) for choice in out]

    def _settling(self, pos: Position, choice: Choice) -> Choice:
        """The shifts that bring a suit the choice fills to 13 cards into the kept arrangement."""
        play = choice[-1]
        if not isinstance(play, Play):
            return ()
        for move in choice:
            pos = self.table.apply(pos, move)
        counts = pos.foundations
        for d, u in zip(self.down, self.up):
            if play.to in (d, u) and counts[d] + counts[u] == FOUNDATION_CARDS and counts[d]:
                takes = self.table.takes[d]
                return tuple(Shift(d, u, card_of(takes[n])) for n in range(counts[d] - 1, -1, -1))
        return ()

    def apply(self, pos: Position, choice: Choice) -> Position:
        for move in choice:
            pos = self.table.apply(pos, move)
        return pos

    def ends_phase(self, choice: Choice) -> bool:
        return True

    def takes_cards(self, choice: Choice) -> bool:
        return any(isinstance(move, Play) for move in choice)

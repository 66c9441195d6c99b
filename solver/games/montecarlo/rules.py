"""The Monte Carlo rule sets, as values in one registry."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

SLIDE = "slide"  # remaining cards slide back to positions 0, 1, 2, ... in reading order
COLUMNS = "columns"  # each card moves straight up its column (Weddings)

SAME_RANK = "same-rank"
THIRTEEN = "thirteen"  # pairs total 13, kings go alone


@dataclass(frozen=True)
class MonteCarloRules:
    """One Monte Carlo rule set: grid size, decks, what pairs, how the grid consolidates."""

    name: str
    title: str  # how output names it, in words a player knows: "Weddings (PySolFC)"
    about: str  # what sets it apart, for --help
    pysolfc: str | None = None  # the game's name in PySolFC, when PySolFC plays it
    rows: int = 5
    cols: int = 5
    decks: int = 1
    pairing: str = SAME_RANK
    consolidation: str = SLIDE
    strict: bool = False  # consolidate only when no pair remains

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def cards(self) -> int:
        return 52 * self.decks

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the later cells (in reading order) that touch it, diagonals included."""
        out = []
        for cell in range(self.cells):
            r, c = divmod(cell, self.cols)
            later = []
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < self.rows and 0 <= cc < self.cols:
                    later.append(rr * self.cols + cc)
            out.append(tuple(later))
        return tuple(out)

    @cached_property
    def touching(self) -> tuple[frozenset[int], ...]:
        """For each cell, the set of every cell that touches it."""
        near: list[set[int]] = [set() for _ in range(self.cells)]
        for a, later in enumerate(self.neighbours):
            for b in later:
                near[a].add(b)
                near[b].add(a)
        return tuple(frozenset(n) for n in near)

    @cached_property
    def touching_offsets(self) -> tuple[tuple[int, int], ...]:
        """(d, cells) for each forward direction: cell a touches a + d for every a in `cells`.

        `cells` is a bit mask with bit 8a+7 set, to line up with the byte-wise rank
        comparisons of `spaces._edges`.
        """
        out = []
        for d in (1, self.cols - 1, self.cols, self.cols + 1):
            mask = 0
            for a in range(self.cells):
                if a + d in self.neighbours[a]:
                    mask |= 1 << (8 * a + 7)
            out.append((d, mask))
        return tuple(out)

    def matches(self, rank_a: int, rank_b: int) -> bool:
        """Whether two touching cards of these ranks may be removed together."""
        if self.pairing == THIRTEEN:
            return rank_a + rank_b == 13
        return rank_a == rank_b

    def removes_alone(self, rank: int) -> bool:
        """Whether a card of this rank is removed on its own (kings in Thirteens)."""
        return self.pairing == THIRTEEN and rank == 13


RULE_SETS: dict[str, MonteCarloRules] = {
    r.name: r
    for r in (
        MonteCarloRules(
            "pysol", "Monte Carlo (PySolFC)", "pairs of a rank; consolidate whenever a gap allows", pysolfc="Monte Carlo"
        ),
        MonteCarloRules("strict", "Monte Carlo, strict", "consolidate only when no pair is left", strict=True),
        MonteCarloRules("5x4", "Monte Carlo on a 5x4 grid", "5 columns, 4 rows", rows=4, cols=5),
        MonteCarloRules("thirteens", "Monte Carlo Thirteens", "pairs that total 13; a king goes alone", pairing=THIRTEEN),
        MonteCarloRules(
            "weddings", "Weddings (PySolFC)", "cards move straight up their column", pysolfc="Weddings", consolidation=COLUMNS
        ),
        MonteCarloRules(
            "2decks", "Monte Carlo, 2 decks (PySolFC)", "104 cards", pysolfc="Monte Carlo (2 Decks)", decks=2
        ),
    )
}
DEFAULT_RULES = "pysol"

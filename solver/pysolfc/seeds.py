"""Seed pools: game numbers proven winnable, as a Python module of the form PySolFC keeps
in `pysollib/games/solvable_seeds/` for its "Always Solvable" games (a tuple
`SOLVABLE_SEEDS` under a comment saying where the numbers come from).

A pool holds only numbers the shipped tables prove won, drawn at random (seeded, so the
same arguments give the same module) from the range a table covers, and sorted. A number
is proven for the deal PySolFC's "Select game by number" gives it: its
`construct_random(str(n))` deals numbers under 32000 with the Microsoft-compatible
generator and the rest with the Mersenne Twister, as wedlock numbers them. A game that
draws from a pool must build its random generator the same way.
"""

from __future__ import annotations

import ast
import re
import shlex
import textwrap
from dataclasses import dataclass

from ..basics.errors import RulesError, WedlockError
from ..basics.numbering import MS_LIMIT
from ..basics.version import __version__
from ..games.registry import game_named, rules_of
from ..pipeline.solving import game_and_rules
from ..results.tables import Table, table
from ..results.winnable import winnable
from .ids import GAME_IDS

POOL_SIZE = 4000  # numbers a pool holds unless told otherwise (docs/PYSOLFC.md says why)
DEFAULT_SEED = "pysolfc"
SEED = re.compile(r"[A-Za-z0-9._-]{1,40}")  # a seed the module's comment shows as it is
WIDTH = 76  # of the module's lines: PySolFC's flake8 allows 79

# The Always Solvable game each pool is for: its id in PySolFC, its name, and its pool's module.
ALWAYS_SOLVABLE = {
    ("monte-carlo", "pysol"): (994, "Monte Carlo (Always Solvable)", "montecarlo_solvable_seeds"),
    ("monte-carlo", "weddings"): (995, "Weddings (Always Solvable)", "weddings_solvable_seeds"),
    ("monte-carlo", "2decks"): (996, "Monte Carlo (2 Decks) (Always Solvable)", "montecarlo2decks_solvable_seeds"),
    ("matrimony", "pysol"): (997, "Matrimony (Always Solvable)", "matrimony_solvable_seeds"),
}


class PoolError(WedlockError):
    """A seed pool that cannot be made: a game PySolFC lacks, or more numbers than proven."""


class NotAPool(WedlockError):
    """Text that is not a seed pool module: no `SOLVABLE_SEEDS` tuple of whole numbers."""


@dataclass(frozen=True)
class Pool:
    """Game numbers proven winnable, of one game and rule set, and where they come from."""

    game: str
    rules: str
    numbers: tuple[int, ...]  # sorted
    seed: str
    source: Table

    @property
    def pysolfc_id(self) -> int:
        """PySolFC's id of the base game the numbers are dealt in."""
        return GAME_IDS[self.game, self.rules]

    @property
    def always_solvable(self) -> tuple[int, str, str]:
        """The Always Solvable game: its id, its name, its pool's module name."""
        return ALWAYS_SOLVABLE[self.game, self.rules]

    def command(self) -> str:
        """The command line that makes this pool."""
        return shlex.join(
            ["wedlock", "pysolfc", "seeds", self.game, "--rules", self.rules, "--count", str(len(self.numbers)), "--seed", self.seed]
        )


def pool(game: str, rules: str | None = None, count: int = POOL_SIZE, seed: str = DEFAULT_SEED) -> Pool:
    """`count` game numbers drawn at random from those the shipped table proves winnable,
    for a game PySolFC has; the same arguments give the same numbers."""
    chosen, rule_set = game_and_rules(game, rules)
    if (chosen.name, rule_set.name) not in GAME_IDS:
        theirs = ", ".join(f"{g} --rules {r}" for g, r in GAME_IDS)
        raise PoolError(f"{rule_set.title} is not a PySolFC game; seed pools are for {theirs}")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise PoolError(f"a pool's count is a whole number, 1 or more; not {count!r}")
    if not isinstance(seed, str) or not SEED.fullmatch(seed):
        raise PoolError(f"a pool's seed is up to 40 letters, digits, dots, dashes or underscores; not {seed!r}")
    known = table(chosen.name, rule_set.name)
    if known is None:
        raise PoolError(f"wedlock ships no table of {rule_set.title}")
    proven = known.counts()["won"]
    if count > proven:
        raise PoolError(
            f"{rule_set.title}: {proven:,} deals of games {known.first:,}-{known.last:,} are proven winnable; ask for {proven:,} or fewer"
        )
    drawn = []
    for found in winnable(chosen.name, rule_set.name, count=count, random=True, seed=seed, start=known.first, stop=known.last):
        if not found.from_table:  # a draw within the table's range is answered from it
            raise RulesError(f"game {found.number} was solved, not found in the table")
        drawn.append(found.number)
    return Pool(chosen.name, rule_set.name, tuple(sorted(drawn)), seed, known)


def module_text(chosen: Pool) -> str:
    """The pool as a Python module for PySolFC's `solvable_seeds` package."""
    numbers, known = chosen.numbers, chosen.source
    game_id, name, _ = chosen.always_solvable
    base = rules_of(game_named(chosen.game), chosen.rules).pysolfc
    paragraphs = [
        f'Game numbers for "{name}" (game id {game_id}): deals of "{base}" (id {chosen.pysolfc_id}) '
        f"that wedlock {__version__}, an exact solver, has won, each with a winning line replayed card by card.",
        f"{len(numbers)} numbers, drawn at random from the {known.counts()['won']} proven winnable in "
        f"{known.first}-{known.last}, the range covered; they run from {numbers[0]} to {numbers[-1]}, "
        f"{sum(n < MS_LIMIT for n in numbers)} of them under {MS_LIMIT}.",
        f'Each is proven for the deal "Select game by number" gives it: construct_random(str(n)) deals numbers '
        f"under {MS_LIMIT} with the Microsoft-compatible generator and the others with the Mersenne Twister, "
        "as wedlock numbers them. A game drawing from this pool must build its random generator through "
        "construct_random, never PysolRandom(n), or the deal is another one.",
    ]
    head = ["#!/usr/bin/env python", "# -*- mode: python; coding: utf-8; -*-", "#"]
    for paragraph in paragraphs:
        head += ["# " + line for line in textwrap.wrap(paragraph, WIDTH - 2, break_long_words=False, break_on_hyphens=False)]
        head.append("#")
    command = textwrap.wrap(chosen.command(), 66, break_long_words=False, break_on_hyphens=False)
    head += ["# Made by:", *(f"#   {line} \\" for line in command[:-1]), f"#   {command[-1]}"]
    lines = textwrap.wrap(" ".join(f"{n}," for n in numbers), WIDTH, initial_indent="    ", subsequent_indent="    ")
    return "\n".join([*head, "", "SOLVABLE_SEEDS = (", *lines, ")", ""])


def pool_numbers(text: str) -> tuple[int, ...]:
    """The numbers of a pool module's `SOLVABLE_SEEDS`, read without running the module."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as err:
        raise NotAPool(f"not a Python module: {err}") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["SOLVABLE_SEEDS"]:
            value = node.value
            if isinstance(value, ast.Tuple) and all(isinstance(e, ast.Constant) and type(e.value) is int for e in value.elts):
                return tuple(e.value for e in value.elts)  # type: ignore[attr-defined]
            raise NotAPool("SOLVABLE_SEEDS is not a tuple of whole numbers")
    raise NotAPool("no SOLVABLE_SEEDS in the module")

"""The registry of games and their rule sets, looked up by the names a user types."""

from __future__ import annotations

import re
from typing import Any

from ..basics.errors import RulesError
from .matrimony import GAME as MATRIMONY
from .montecarlo import GAME as MONTE_CARLO
from .protocol import Game

GAMES: dict[str, Game] = {g.name: g for g in (MONTE_CARLO, MATRIMONY)}


class RuleSetNotGame(RulesError):
    """A rule set's name was given where a game's belongs (`weddings` for `monte-carlo`)."""

    def __init__(self, rules: str, game: str) -> None:
        super().__init__(f"{rules} is a rule set of {game}: write {game} --rules {rules}")
        self.rules, self.game = rules, game


def plain_name(name: str) -> str:
    """A name as the registry spells it: lower case, words joined by `-`."""
    return "-".join(name.strip().lower().replace("_", " ").split())


def game_named(name: str) -> Game:
    """The game called `name` (any case; `Monte Carlo` is `monte-carlo`), or a RulesError
    that lists the games, or names the game when `name` is one of its rule sets."""
    if not isinstance(name, str):
        raise RulesError(f"a game is named by text, like 'monte-carlo', not {type(name).__name__}")
    plain = plain_name(name)
    if plain in GAMES:
        return GAMES[plain]
    if plain == "montecarlo":
        return MONTE_CARLO
    owners = [g.name for g in GAMES.values() if plain in g.rule_sets]
    if len(owners) == 1:
        raise RuleSetNotGame(plain, owners[0])
    raise RulesError(f"unknown game {_shown(name.strip())}; choose one of {', '.join(GAMES)}")


def pysolfc_named(name: str) -> tuple[Game, Any] | None:
    """The game and rule set that PySolFC lists as a game of its own under `name` (any case
    and spacing: `Weddings`, `Monte Carlo (2 Decks)`), or None."""
    if not isinstance(name, str):
        return None
    squeezed = _squeezed(name)
    for game in GAMES.values():
        for rules in game.rule_sets.values():
            if rules.pysolfc and squeezed == _squeezed(rules.pysolfc):
                return game, rules
    return None


def rules_of(game: Game, name: str | None) -> Any:
    """The rule set `name` of `game`, its default when None. The name is read in any case
    and spacing (`2 decks` is `2decks`), and PySolFC's own name of a game or its title
    does too (`Monte Carlo (2 Decks)`)."""
    if name is None:
        return game.rule_sets[game.default_rules]
    if not isinstance(name, str):
        raise RulesError(f"a rule set is named by text, like 'pysol', not {type(name).__name__}")
    if name in game.rule_sets:  # as the registry spells it: what a batch's every deal names
        return game.rule_sets[name]
    squeezed = _squeezed(name)
    if squeezed == "pysolfc":
        squeezed = "pysol"
    for rules in game.rule_sets.values():
        if squeezed and squeezed in (rules.name, _squeezed(rules.title), _squeezed(rules.pysolfc or "")):
            return rules
    owners = [g.name for g in GAMES.values() if g is not game and any(squeezed == r for r in g.rule_sets)]
    if owners:
        raise RulesError(f"{squeezed} is a rule set of {owners[0]}, not of {game.name}; {game.name} has {', '.join(game.rule_sets)}")
    raise RulesError(f"unknown {game.title} rules {_shown(name)}; choose one of {', '.join(game.rule_sets)}")


def _squeezed(name: str) -> str:
    """A name without case, spaces, dashes or underscores: `2 Decks` and `2-decks` are `2decks`."""
    return "".join(c for c in name.lower() if c not in " -_")


def _shown(name: str) -> str:
    """A name as an error line quotes it: in full when short."""
    return repr(name) if len(name) <= 40 else repr(name[:30] + "...")


def rules_titled(game: Game, text: str) -> Any | None:
    """The rule set of `game` whose title `text` starts with (any case; the longest title
    that fits), or that `text` names as `(NAME rules)`, or None."""
    plain = text.strip().lower()
    for rules in sorted(game.rule_sets.values(), key=lambda r: -len(r.title)):
        if plain.startswith(rules.title.lower()):
            return rules
    named = re.search(r"\(([\w-]++) rules\)", plain)
    return game.rule_sets.get(named.group(1)) if named else None


def catalogue() -> list[str]:
    """The games and their rule sets, a line each, for --help: PySolFC's own games by the
    name PySolFC gives them (which the command line takes as GAME too), the others by what
    sets them apart."""
    lines = []
    width = max(len(g.name) for g in GAMES.values()) + 2
    for game in GAMES.values():
        for n, rules in enumerate(game.rule_sets.values()):
            what = f"PySolFC's \"{rules.pysolfc}\"" if rules.pysolfc else rules.about
            if rules.name == game.default_rules:
                what += " (default)"
            lines.append(f"{game.name if n == 0 else '':<{width}}{rules.name:<11}{what}")
    return lines

"""The registry of games and their rule sets, looked up by the names a user types."""

from __future__ import annotations

import re
from typing import Any

from .errors import RulesError
from .game import Game
from .matrimony import GAME as MATRIMONY
from .montecarlo import GAME as MONTE_CARLO

GAMES: dict[str, Game] = {g.name: g for g in (MONTE_CARLO, MATRIMONY)}


class RuleSetNotGame(RulesError):
    """A rule set's name was given where a game's belongs (`weddings` for `monte-carlo`)."""

    def __init__(self, rules: str, game: str) -> None:
        super().__init__(f"{rules} is a rule set of {game}: write {game} --rules {rules}")
        self.rules, self.game = rules, game


def _plain(name: str) -> str:
    """A name as the registry spells it: lower case, words joined by `-`."""
    return "-".join(name.strip().lower().replace("_", " ").split())


def game_named(name: str) -> Game:
    """The game called `name` (any case; `Monte Carlo` is `monte-carlo`), or a RulesError
    that lists the games, or names the game when `name` is one of its rule sets."""
    plain = _plain(name)
    if plain in GAMES:
        return GAMES[plain]
    if plain == "montecarlo":
        return MONTE_CARLO
    owners = [g.name for g in GAMES.values() if plain in g.rule_sets]
    if len(owners) == 1:
        raise RuleSetNotGame(plain, owners[0])
    raise RulesError(f"unknown game {name.strip()!r}; choose one of {', '.join(GAMES)}")


def rules_of(game: Game, name: str | None) -> Any:
    """The rule set `name` of `game` (any case; its default when None)."""
    key = game.default_rules if name is None else name.strip().lower()
    try:
        return game.rule_sets[key]
    except KeyError:
        raise RulesError(f"unknown {game.title} rules {name!r}; choose one of {', '.join(game.rule_sets)}") from None


def rules_titled(game: Game, text: str) -> Any | None:
    """The rule set of `game` whose title `text` starts with (any case; the longest title
    that fits), or that `text` names as `(NAME rules)`, or None."""
    plain = text.strip().lower()
    for rules in sorted(game.rule_sets.values(), key=lambda r: -len(r.title)):
        if plain.startswith(rules.title.lower()):
            return rules
    named = re.search(r"\(([\w-]+) rules\)", plain)
    return game.rule_sets.get(named.group(1)) if named else None


def catalogue() -> list[str]:
    """The games and their rule sets, a line each, for --help: PySolFC's own games by the
    name PySolFC gives them, the others by what sets them apart."""
    lines = []
    width = max(len(g.name) for g in GAMES.values()) + 2
    for game in GAMES.values():
        for n, rules in enumerate(game.rule_sets.values()):
            what = f"PySolFC's \"{rules.pysolfc}\"" if rules.pysolfc else rules.about
            if rules.name == game.default_rules:
                what += " (default)"
            lines.append(f"{game.name if n == 0 else '':<{width}}{rules.name:<11}{what}")
    return lines

"""The compiled search core beside the pure-Python searches, on the same deals in one run.

    python3 benchmarks/core_speed.py monte-carlo --deals 2000
    python3 benchmarks/core_speed.py monte-carlo --rules strict --deals 500 --no-plain
    python3 benchmarks/core_speed.py matrimony --rules arnold --deals 2000

Deals are random game numbers of 10^6-10^12 (a fixed seed, so runs compare). Each deal is
solved three ways, one after the other: the plain search over single moves (the reference
every reduction is tested against), the solver's own space searched in pure Python, and the
same space searched by the compiled core. The time is building the space and searching it.
The three verdicts must agree, and every win of the core is replayed by the referee.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.basics import compiled as core  # noqa: E402
from wedlock.games.matrimony import play as matrimony_play  # noqa: E402
from wedlock.games.matrimony.arnold_space import ArnoldSpace  # noqa: E402
from wedlock.games.montecarlo import play as montecarlo_play  # noqa: E402
from wedlock.games.plain_space import PlainSpace  # noqa: E402
from wedlock.games.registry import game_named, rules_of  # noqa: E402
from wedlock.search.exhaustive import Limits, solve  # noqa: E402

# The plain search's move table and the solver's own space, by game (Matrimony: Arnold's rules).
PLAIN = {
    "monte-carlo": lambda rules, cards: montecarlo_play.Table(rules, tuple(cards)),
    "matrimony": lambda rules, cards: matrimony_play.Table(rules, tuple(cards)),
}
SPACE = {
    "monte-carlo": lambda game, rules, cards: game.space(rules, cards),
    "matrimony": lambda game, rules, cards: ArnoldSpace(matrimony_play.Table(rules, tuple(cards))),
}


def timed(make, compiled: bool, limits: Limits) -> tuple[float, object, object]:
    started = time.perf_counter()
    space = make()
    out = solve(space, limits, compiled=compiled)
    return time.perf_counter() - started, out, space


def arguments(description: str, deals: int) -> tuple[argparse.Namespace, Any, Any]:
    """The command line this benchmark and pipeline_speed.py share: the arguments, the game
    and its rule set (Matrimony's by default Arnold's, the one the core holds)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("game")
    parser.add_argument("--rules", default=None)
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-plain", action="store_true", help="skip the plain search (slow on some rule sets)")
    args = parser.parse_args()
    if core.compiled_core() is None:
        raise SystemExit(f"the compiled core is not in use here: {core.description()}")
    game = game_named(args.game)
    return args, game, rules_of(game, args.rules or ("arnold" if game.name == "matrimony" else None))


def hidden_numbers(seed: int, count: int) -> list[int]:
    """`count` random game numbers of 10^6-10^12, the same for the same seed."""
    rng = random.Random(seed)
    return [rng.randrange(10**6, 10**12 + 1) for _ in range(count)]


def main() -> None:
    args, game, rules = arguments(__doc__.splitlines()[0], 2000)
    numbers = hidden_numbers(args.seed, args.deals)
    limits = Limits(max_states=None)
    ways = ([] if args.no_plain else ["plain"]) + ["pure", "compiled"]
    seconds: dict[str, list[float]] = {w: [] for w in ways}
    states: dict[str, int] = {w: 0 for w in ways}
    verdicts = {"won": 0, "lost": 0, "unknown": 0}
    for number in numbers:
        cards = game.numbered_deal(rules, str(number))
        answers = {}
        for way in ways:
            if way == "plain":
                table = PLAIN[game.name](rules, cards)
                took, out, _ = timed(partial(PlainSpace, table), False, limits)
            else:
                took, out, space = timed(partial(SPACE[game.name], game, rules, cards), way == "compiled", limits)
            seconds[way].append(took)
            states[way] += out.states
            answers[way] = out.verdict
        if len(set(answers.values())) != 1:
            raise SystemExit(f"game {number}: the searches disagree: {answers}")
        verdicts[answers["compiled"]] += 1
        if answers["compiled"] == "won":
            moves = space.moves(out.steps)
            if not game.referee(rules, cards, moves).won:
                raise SystemExit(f"game {number}: the referee rejects the core's winning line")
    base = ways[0]
    print(f"{game.title} ({rules.name}), {args.deals:,} random game numbers of 10^6-10^12 (seed {args.seed}), one core")
    print(f"verdicts: {verdicts['won']:,} won, {verdicts['lost']:,} lost; {core.description()}")
    print("| search | total s | median ms | mean ms | worst ms | states | faster than " + base + " |")
    print("|---|---|---|---|---|---|---|")
    for way in ways:
        s = seconds[way]
        ratio = sum(seconds[base]) / sum(s)
        print(
            f"| {way} | {sum(s):.2f} | {1000 * statistics.median(s):.3f} | {1000 * statistics.mean(s):.3f} | "
            f"{1000 * max(s):.1f} | {states[way]:,} | {ratio:.1f}x |"
        )


if __name__ == "__main__":
    main()

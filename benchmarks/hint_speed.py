"""How long a hint takes at a random position of a random line, one core.

    python3 benchmarks/hint_speed.py monte-carlo 1 1000 [--rules pysol] [--time-limit 120]

For each game number: play random legal choices from the deal until none is left (a
random line), take one of the positions on the way at random (seeded by the number), and
time `wedlock.hint` there. Prints a table: hints, their verdicts, the classes of the moves,
and the median, 90th percentile and worst seconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import wedlock
from wedlock.pipeline.positions import played


def random_position(game: str, rules: str, number: int) -> wedlock.Position:
    rng = random.Random(f"{game}/{rules}/{number}")
    start = wedlock.position(game, number, rules)
    line = [start]
    while True:
        chosen = line[-1].deal
        options = chosen.game.choices(chosen.rules, chosen.cards, line[-1].seen)
        if not options:
            break
        line.append(played(line[-1], list(rng.choice(options))))
    return rng.choice(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--rules")
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parser.parse_args()
    rules = wedlock.deal(args.game, 1, args.rules).rules.name
    seconds, verdicts, classes = [], {"won": 0, "lost": 0, "unknown": 0}, {"keeps the win": 0, "loses": 0, "unknown": 0}
    for number in range(args.first, args.last + 1):
        where = random_position(args.game, rules, number)
        started = time.perf_counter()
        found = wedlock.hint(args.game, where, time_limit=args.time_limit)
        seconds.append(time.perf_counter() - started)
        verdicts[found.verdict.value] += 1
        for _, cls in found.choices:
            classes[cls] += 1
    seconds.sort()
    title = wedlock.deal(args.game, 1, rules).title
    print("| game | games | hints won / lost / unknown | moves kept / lost / unknown | median s | 90% s | worst s |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {title} | {args.first:,}-{args.last:,} | {verdicts['won']:,} / {verdicts['lost']:,} / {verdicts['unknown']:,} "
        f"| {classes['keeps the win']:,} / {classes['loses']:,} / {classes['unknown']:,} "
        f"| {statistics.median(seconds):.4f} | {seconds[int(0.9 * (len(seconds) - 1))]:.4f} | {seconds[-1]:.3f} |"
    )


if __name__ == "__main__":
    main()

"""How the no-peek player's win rate moves with its sample size, on the same deals.

    python3 benchmarks/sample_sizes.py monte-carlo 1 200 [--rules pysol] [--samples 1,2,5,10,20]
        [--sample-time 1] [--jobs 2]

Plays each game of the range as the no-peek player once for each sample size, with the seed
`batch --player` gives it (`0/N` for game N), and prints a table: the sample size, the games
won, the win rate with its Wilson 95% interval, how many games differ from the largest
sample's, and the median and total seconds a game.
"""

from __future__ import annotations

import argparse
import statistics
from concurrent.futures import ProcessPoolExecutor

import wedlock
from wedlock.playing.players import SAMPLE_SECONDS, play
from wedlock.results.stats import wilson


def one(job: tuple[str, int, str | None, int, float]) -> tuple[bool, float]:
    game, number, rules, samples, seconds = job
    played = play(game, number, "no-peek", rules, seed=f"0/{number}", samples=samples, sample_seconds=seconds)
    return played.won, played.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--rules")
    parser.add_argument("--samples", default="1,2,5,10,20")
    parser.add_argument("--sample-time", type=float, default=SAMPLE_SECONDS)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    sizes = [int(s) for s in args.samples.split(",")]
    numbers = range(args.first, args.last + 1)
    title = wedlock.deal(args.game, args.first, args.rules).title
    results = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for size in sizes:
            jobs = [(args.game, n, args.rules, size, args.sample_time) for n in numbers]
            results[size] = list(pool.map(one, jobs, chunksize=4))
    largest = [won for won, _ in results[max(sizes)]]
    print(f"{title}, games {args.first:,}-{args.last:,}, no-peek player, searches of {args.sample_time:g} s at most")
    print()
    print("| samples | won | win rate | 95% interval | games unlike the largest sample's | median s | total s |")
    print("|---|---|---|---|---|---|---|")
    for size in sizes:
        won = [w for w, _ in results[size]]
        seconds = [s for _, s in results[size]]
        low, high = wilson(sum(won), len(won))
        unlike = sum(a != b for a, b in zip(won, largest))
        print(
            f"| {size} | {sum(won):,} of {len(won):,} | {100 * sum(won) / len(won):.1f}% | {100 * low:.1f}% - {100 * high:.1f}% "
            f"| {unlike:,} | {statistics.median(seconds):.3f} | {sum(seconds):,.0f} |"
        )


if __name__ == "__main__":
    main()

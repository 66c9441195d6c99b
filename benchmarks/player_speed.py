"""How long a game takes each player, one core.

    python3 benchmarks/player_speed.py monte-carlo 1 200 [--rules pysol] [--player no-peek]
        [--samples 10] [--sample-time 1]

Plays each game number of the range as the player (seed: the game number) and prints a
table: games, won, the median and worst seconds a game.
"""

from __future__ import annotations

import argparse
import statistics
import time

import wedlock
from wedlock.playing.players import SAMPLE_SECONDS, SAMPLES, play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--rules")
    parser.add_argument("--player", default="no-peek")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--sample-time", type=float, default=SAMPLE_SECONDS)
    args = parser.parse_args()
    title = wedlock.deal(args.game, 1, args.rules).title
    seconds, won = [], 0
    for number in range(args.first, args.last + 1):
        started = time.perf_counter()
        game = play(args.game, number, args.player, args.rules, seed=number, samples=args.samples, sample_seconds=args.sample_time)
        seconds.append(time.perf_counter() - started)
        won += game.won
    print("| game | player | samples | games | won | median s | worst s |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {title} | {args.player} | {args.samples} | {args.first:,}-{args.last:,} | {won:,} "
        f"| {statistics.median(seconds):.3f} | {max(seconds):.3f} |"
    )


if __name__ == "__main__":
    main()

"""Print the win-rate table of data/README.md from the results files in data/.

    python3 benchmarks/data_table.py data/*.jsonl.gz

Files are named GAME-RULES-A-B.jsonl.gz; each row says the command that reproduces it. A
deal with several lines counts once (wedlock.batch.merge_records).
"""

from __future__ import annotations

import sys

from result_files import retries, summaries

# The files made with a time limit a deal (the file does not record it).
TIME_LIMITS = {
    "monte-carlo-weddings-1-10000": " --time-limit 120",
    "matrimony-pysol-1-1000": " --time-limit 10",
    "matrimony-pysol-1-10000": " --time-limit 1",
}


def main() -> None:
    print("| game | rules | games | deals | won | lost | unknown | win rate | 95% interval | median s | worst s | command |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path, a, b, s in summaries(sys.argv[1:], luck=False):  # luck files: benchmarks/luck_table.py
        complete = "" if s.deals == b - a + 1 else f" (first {s.deals:,} done)"
        name = path.name.split(".")[0]
        command = f"`wedlock batch {s.game} {a}-{b} --rules {s.rules}{TIME_LIMITS.get(name, '')} --out {path.stem} --resume`"
        command += retries(path)
        print(
            f"| {s.game} | {s.rules} | {a:,}-{b:,}{complete} | {s.deals:,} | {s.won:,} | {s.lost:,} | {s.unknown:,} "
            f"| {100 * s.win_rate:.3f}% | {100 * s.low:.3f}% - {100 * s.high:.3f}% | {s.median_seconds:.4f} | {s.worst_seconds:.2f} | {command} |"
        )


if __name__ == "__main__":
    main()

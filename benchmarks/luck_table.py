"""Print the luck-versus-skill table of data/README.md from `batch --analyze` files.

    python3 benchmarks/luck_table.py data/*-luck-*.jsonl.gz

Files are named GAME-RULES-luck-A-B.jsonl.gz; each row says the command that reproduces it.
"""

from __future__ import annotations

import sys

from result_files import retries, summaries
from wedlock.stats import mean_text


def main() -> None:
    print("| game | rules | games | perfect play: won / lost / unknown | perfect play | random player | greedy player | odds exact for | command |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path, a, b, s in summaries(sys.argv[1:], luck=True):
        options = {"matrimony/arnold": " --analyze-states 50000", "matrimony/pysol": " --playouts 200 --time-limit 3"}
        extra = options.get(f"{s.game}/{s.rules}", "")
        command = f"`wedlock batch {s.game} {a}-{b} --rules {s.rules} --analyze{extra} --out {path.stem} --resume`"
        command += retries(path)
        perfect = f"{100 * s.win_rate:.2f}%" if not s.unknown else f"{100 * s.low:.2f}% - {100 * s.high:.2f}%"
        print(
            f"| {s.game} | {s.rules} | {a:,}-{b:,} | {s.won:,} / {s.lost:,} / {s.unknown:,} | {perfect} "
            f"| {mean_text(s.random, s.random_margin)} | {mean_text(s.greedy, s.greedy_margin)} | {s.exact:,} of {s.analysed:,} deals | {command} |"
        )


if __name__ == "__main__":
    main()

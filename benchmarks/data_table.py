"""Print the table of data/README.md from the results files in data/.

    python3 benchmarks/data_table.py data/*.jsonl.gz

One row a file: what it holds (the game and rule set, the range, the win rate and its 95%
interval; for `batch --analyze` files the players' mean odds; for `batch --player` files
each player's win rate and interval), the deals won, lost and
unknown, the command that made it, and the solver versions that wrote its lines. A file
made by a first run and then retries of its unknown deals names its retries below the
table (`RETRIES`). Then the four-player table: perfect play beside the players of the
`-players-` files. tests/test_docs.py checks that data/README.md holds both tables.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from wedlock.games.registry import GAMES
from wedlock.results.records import iter_results
from wedlock.results.stats import Summary, mean_text, summarize

NAME = re.compile(r"(?P<game>[a-z-]+?)-(?P<rules>[a-z0-9]+)(?:-(?P<kind>luck|players))?-(?P<a>\d+)-(?P<b>\d+)\.jsonl\.gz$")
PLAYERS = ("no-peek", "greedy", "random")  # the players of a -players- file, as batch --player names them

# The options of a file's first run that its lines do not record.
OPTIONS = {
    "monte-carlo-weddings-1-10000": " --time-limit 120",
    "matrimony-pysol-1-10000": " --time-limit 10",
    "matrimony-arnold-luck-1-300": " --analyze-states 50000",
    "matrimony-pysol-luck-1-300": " --playouts 200 --time-limit 3",
    "matrimony-pysol-players-1-200": " --samples 5 --time-limit 30",
}

# Files whose unknown deals were solved again with longer limits: each retry's options, and
# the game numbers it was given when not the file's whole range.
RETRIES: dict[str, tuple[tuple[str, str | None], ...]] = {
    "matrimony-pysol-1-1000": (("--max-states 100000000", "107,364"), ("--time-limit 120 --jobs 1", "319,364")),
    "matrimony-pysol-1-10000": (
        ("--time-limit 120 --jobs 1", None),
        ("--time-limit 1500 --max-states 500000000 --jobs 1", "102,2224,2464,2707,2946,3202"),
        ("--time-limit none --max-states 300000000 --jobs 1", "319"),
    ),
    "matrimony-pysol-luck-1-300": (("--time-limit 10", None), ("--time-limit 30", None), ("--time-limit 300", None)),
}


def command(path: Path, game: str, rules: str, a: int, b: int, kind: str | None) -> str:
    """The command of a file's first run."""
    name = path.name.split(".")[0]
    extra = {"luck": " --analyze", "players": "".join(f" --player {p}" for p in PLAYERS), None: ""}[kind]
    return f"wedlock batch {game} {a}-{b} --rules {rules}{extra}{OPTIONS.get(name, '')} --out {path.stem} --resume"


def title(s: Summary) -> str:
    return GAMES[s.game].rule_sets[s.rules].title


def holds(s: Summary, a: int, b: int) -> str:
    """What a file holds, in a sentence."""
    complete = "" if s.deals == b - a + 1 else f" (the first {s.deals:,})"
    text = f"{title(s)}, games {a:,}-{b:,}{complete}: "
    if s.unknown:
        text += f"won {100 * s.low:.2f}% - {100 * s.high:.2f}%"
    else:
        text += f"won {100 * s.win_rate:.2f}% (95%: {100 * s.low:.2f}% - {100 * s.high:.2f}%)"
    if s.analysed:
        exact = "exact" if s.exact == s.analysed else f"exact for {s.exact:,}"
        text += f"; random player {mean_text(s.random, s.random_margin)}, greedy {mean_text(s.greedy, s.greedy_margin)} ({exact})"
    for name in PLAYERS:
        if name in s.players:
            rate, low, high = s.player_rate(name)
            text += f"; {name} {100 * rate:.1f}% ({100 * low:.1f}% - {100 * high:.1f}%)"
    return text


def noted(records: Iterable[dict], versions: set[str]) -> Iterator[dict]:
    """The records, with the versions that wrote them added to `versions` on the way."""
    for r in records:
        versions.add(r["version"])
        yield r


def table_lines(paths: list[Path]) -> list[str]:
    """The table of data/README.md, a line a row."""
    out = [
        "| file | holds | won / lost / unknown | command | version |",
        "|---|---|---|---|---|",
    ]
    for path in paths:
        match = NAME.match(path.name)
        if not match:
            raise SystemExit(f"{path.name}: expected GAME-RULES-A-B.jsonl.gz, GAME-RULES-luck-A-B.jsonl.gz or GAME-RULES-players-A-B.jsonl.gz")
        versions: set[str] = set()
        (s,) = summarize(noted(iter_results(path), versions))
        a, b = int(match["a"]), int(match["b"])
        made = f"`{command(path, s.game, s.rules, a, b, match['kind'])}`"
        if path.name.split(".")[0] in RETRIES:
            made += ", then retries (below)"
        counts = f"{s.won:,} / {s.lost:,} / {s.unknown:,}"
        out.append(f"| `{path.name}` | {holds(s, a, b)} | {counts} | {made} | {', '.join(sorted(versions))} |")
    return out


def players_lines(paths: list[Path]) -> list[str]:
    """The four-player table of data/README.md: for each `-players-` file, perfect play's
    win rate beside each player's, with their 95% intervals."""
    out = ["| rule set | games | perfect | no-peek | greedy | random |", "|---|---|---|---|---|---|"]
    for path in paths:
        match = NAME.match(path.name)
        if not match or match["kind"] != "players":
            continue
        (s,) = summarize(iter_results(path))
        if s.unknown:
            perfect = f"{100 * s.low:.1f}% - {100 * s.high:.1f}% ({s.unknown:,} unknown)"
        else:
            perfect = f"{100 * s.win_rate:.1f}% ({100 * s.low:.1f} - {100 * s.high:.1f})"
        rates = []
        for name in PLAYERS:
            rate, low, high = s.player_rate(name)
            rates.append(f"{100 * rate:.1f}% ({100 * low:.1f} - {100 * high:.1f})")
        out.append(f"| {title(s)} | {s.deals:,} | {perfect} | {' | '.join(rates)} |")
    return out


def retry_blocks() -> list[str]:
    """For each retried file, its retries as shell lines."""
    out = []
    for name, retries in RETRIES.items():
        match = NAME.match(name + ".jsonl.gz")
        assert match is not None
        out.append(f"`{name}.jsonl.gz`, after its first run:")
        out.append("```sh")
        for options, numbers in retries:
            numbers = numbers or f"{match['a']}-{match['b']}"
            luck = " --analyze" if match["kind"] == "luck" else ""
            extra = " --playouts 200" if name == "matrimony-pysol-luck-1-300" else ""
            out.append(f"wedlock batch {match['game']} {numbers} --rules {match['rules']}{luck}{extra} {options} --out {name}.jsonl --resume --retry-unknown")
        out.append("```")
    return out


def main() -> None:
    paths = sorted(Path(p) for p in sys.argv[1:])
    print("\n".join(table_lines(paths)))
    print()
    print("\n".join(retry_blocks()))
    print()
    print("\n".join(players_lines(paths)))


if __name__ == "__main__":
    main()

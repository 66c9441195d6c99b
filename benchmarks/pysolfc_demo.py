"""PySolFC's Demo (Game > Demo) on ranges of deals, in PySolFC's own engine, with wedlock's
plugin or without it; each deal's result set beside wedlock's published verdict.

    python3 benchmarks/pysolfc_demo.py --src /path/to/PySolFC [--without-plugin] [--only GAME]

The engine is PySolFC's own without its window (tests/pysolfc/engine.py), with its default
options; the plugin is installed in a temporary folder and loaded as PySolFC loads its
plugins. A deal is played as `Game.demoEvent` plays it, a move at a time until the game is
won or the Demo gives up, with no pause between moves (the pause only shows the hint
arrow). Ranges: Monte Carlo 1-2000, Weddings 1-1000, Monte Carlo (2 Decks) 1-1000,
Matrimony 1-1000. Prints a table: deals, deals proven winnable (the shipped tables), Demo
wins, winnable deals the Demo lost (by number) and the seconds taken. Not run by CI.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import wedlock
from wedlock.pysolfc.ids import GAME_IDS
from wedlock.pysolfc.install import PLUGIN_FILE, plugin_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "pysolfc"))
import engine  # noqa: E402 (PySolFC's engine without its window, from the test folder)

RANGES = {
    ("monte-carlo", "pysol"): range(1, 2001),
    ("monte-carlo", "weddings"): range(1, 1001),
    ("monte-carlo", "2decks"): range(1, 1001),
    ("matrimony", "pysol"): range(1, 1001),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", help=f"PySolFC's source tree (default: ${engine.SOURCE_VARIABLE})")
    parser.add_argument("--without-plugin", action="store_true", help="PySolFC's own Demo")
    parser.add_argument("--only", help="one rule set's name: pysol, weddings, 2decks or matrimony")
    parser.add_argument("--first", type=int, help="start the ranges here")
    parser.add_argument("--last", type=int, help="end the ranges here")
    args = parser.parse_args()
    if args.src:
        os.environ[engine.SOURCE_VARIABLE] = args.src
    why = engine.why_not()
    if why:
        sys.exit(why)
    engine.load()
    if not args.without_plugin:
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / PLUGIN_FILE).write_text(plugin_text(), encoding="utf-8")
            engine.load_plugins(Path(folder))
    print("| game | deals | proven winnable | Demo wins | winnable deals lost | seconds |")
    print("|---|---|---|---|---|---|")
    for (game, rules), numbers in RANGES.items():
        if args.only and args.only != ("matrimony" if game == "matrimony" else rules):
            continue
        numbers = range(max(numbers.start, args.first or 0), min(numbers.stop, (args.last or numbers.stop) + 1))
        started = time.perf_counter()
        winnable = wins = 0
        missed = []
        for number in numbers:
            proven = wedlock.lookup(game, number, rules=rules) == "won"
            won = engine.run_demo(engine.new_game(GAME_IDS[game, rules], number))
            winnable += proven
            wins += won
            if proven and not won:
                missed.append(number)
        title = wedlock.deal(game, 1, rules).rules.title
        lost = ", ".join(map(str, missed[:20])) + (" ..." if len(missed) > 20 else "") if missed else "none"
        print(
            f"| {title} | {numbers.start:,}-{numbers.stop - 1:,} | {winnable:,} | {wins:,} ({wins / len(numbers):.1%}) "
            f"| {lost} | {time.perf_counter() - started:,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

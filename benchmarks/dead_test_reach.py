"""Where in a game of Matrimony (PySolFC) the one-suit lost test starts to cut: the figure
behind "what would decide the `unknown` deals" (README, Benchmarks).

    python3 benchmarks/dead_test_reach.py 15 48 211 --lines 200 --rounds 3

For each game, `--lines` seeded random lines are played (a play nine times in ten when
there is one, else a deal or redeal; no shifts) until `--rounds` redeals are made or the
test cuts. After each deal and redeal the one-suit relaxation of pysol_dead.py, with the
redeals still to come, is asked whether the position is lost. The solver itself asks it
only from the first redeal on (before that no pile is settled); here it is asked in the
deal phase too, with every pile still to be redealt and the stock's cards free, which is
the same relaxation and still sound. The table gives, for each point of the game, the
positions asked, how many it calls lost within `--budget` puzzle states a suit (the
solver's own budget by default), and how many it would with `--more`.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.games.matrimony import GAME, pysol_dead
from wedlock.games.matrimony.deal import LAYOUT  # noqa: E402
from wedlock.games.matrimony.moves import Play, Shift  # noqa: E402
from wedlock.games.matrimony.play import Position, Table  # noqa: E402
from wedlock.games.matrimony.pysol_dead import AHEAD_STATES, SuitPuzzle  # noqa: E402
from wedlock.games.matrimony.pysol_space import PysolSpace  # noqa: E402
from wedlock.games.matrimony.rules import DECK, PILES, RULE_SETS  # noqa: E402

RULES = RULE_SETS["pysol"]


def point(pos: Position) -> str:
    """After which deal or redeal the position comes."""
    if pos.rounds:
        return f"redeal {pos.rounds}"
    return f"deal {-(-(pos.stock - LAYOUT) // PILES)}"  # the last deal has 6 cards


def lost(puzzle: SuitPuzzle, pos: Position) -> bool:
    """The one-suit test with the redeals ahead; in the deal phase with every pile waiting."""
    if pos.stock == DECK and pos.rounds:
        return puzzle.dead(pos, ahead=True)
    waiting = pysol_dead._chains(puzzle.place, pos.piles, 0, PILES, None)
    return any(puzzle.dead_ahead(pos.foundations, s, (b"",) * PILES, waiting[s]) for s in range(4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--lines", type=int, default=200, help="random lines a game")
    parser.add_argument("--rounds", type=int, default=3, help="redeals a line goes to")
    parser.add_argument("--budget", type=int, default=AHEAD_STATES, help="states a puzzle may visit")
    parser.add_argument("--more", type=int, default=100_000, help="a larger budget, for the last column")
    args = parser.parse_args()
    print(f"| game | after | positions | lost | lost with {args.more:,} states |")
    print("|---|---|---|---|---|")
    for game in args.games:
        table = Table(RULES, tuple(GAME.check_deal(RULES, GAME.numbered_deal(RULES, game))))
        puzzle, larger = PysolSpace(table).suit_puzzle, PysolSpace(table).suit_puzzle
        puzzle.ahead_states, larger.ahead_states = args.budget, args.more
        asked, cut, cut_larger = Counter(), Counter(), Counter()
        for seed in range(args.lines):
            rng = random.Random(seed)
            pos = table.start()
            while pos.rounds < args.rounds:
                moves = [m for m in table.legal_moves(pos) if not isinstance(m, Shift)]
                if not moves:
                    break
                plays = [m for m in moves if isinstance(m, Play)]
                events = [m for m in moves if not isinstance(m, Play)]
                move = rng.choice(plays) if plays and (not events or rng.random() < 0.9) else rng.choice(events)
                pos = table.apply(pos, move)
                if isinstance(move, Play):
                    continue
                current = point(pos)
                asked[current] += 1
                cut_larger[current] += lost(larger, pos)
                if lost(puzzle, pos):
                    cut[current] += 1
                    break
        for where in asked:
            print(f"| {game} | {where} | {asked[where]} | {cut[where]} | {cut_larger[where]} |", flush=True)


if __name__ == "__main__":
    main()

"""PySolFC's exact Matrimony space: the compiled core beside pure Python, same positions, one run.

    python3 benchmarks/pysol_core_speed.py --deals 200 --nodes 20000
    python3 benchmarks/pysol_core_speed.py --solve 1 100 --nodes 50000

Whole deals under PySolFC's rules are rarely searched to the end, so this measures the
positions the exact search is handed in practice: the one a finishing beam hands over right
after the last deal (reached by the exact space's first line, `greedy_phase`), and positions
later in the redeals along random lines. Each is searched by the Python space and by the
compiled core within the same node limit; both must give the same verdict and the same
state and node counts, and every win is replayed by the referee. Deals are random game
numbers of 10^6-10^12 (a fixed seed, so runs compare).

With `--solve FIRST LAST`, whole solves instead: `wedlock solve`'s search (the quick stages'
beams, then the exact search) of each game number within the node limit, with the core
switched off (WEDLOCK_PURE) and on; both must give the same verdict, states and moves.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.basics import compiled as core  # noqa: E402
from wedlock.games.matrimony import GAME  # noqa: E402
from wedlock.games.matrimony.moves import Play, Shift  # noqa: E402
from wedlock.games.matrimony.play import Position, Table  # noqa: E402
from wedlock.games.matrimony.pysol_space import PysolPhaseSpace, PysolSpace  # noqa: E402
from wedlock.games.matrimony.rules import DECK, RULE_SETS  # noqa: E402
from wedlock.games.matrimony.verify import referee  # noqa: E402
from wedlock.search.exhaustive import Limits, solve  # noqa: E402

PYSOL = RULE_SETS["pysol"]


def after_last_deal(table: Table) -> tuple[Position, list]:
    """The position the exact space's first line reaches right after the last deal."""
    space = PysolPhaseSpace(table)
    state, steps = space.start(), []
    while state.pos.stock < DECK:
        step = next(space.greedy_phase(state), None)
        if step is None:
            break
        steps.append(step[0])
        state = step[1]
    return state.pos, space.moves(steps)


def random_late(table: Table, rng: random.Random, rounds: int) -> tuple[Position, list]:
    """Random play (a play four times out of five when there is one) until `rounds` redeals."""
    pos, line = table.start(), []
    while pos.rounds < rounds:
        moves = [m for m in table.legal_moves(pos) if not isinstance(m, Shift)]
        plays = [m for m in moves if isinstance(m, Play)]
        events = [m for m in moves if not isinstance(m, Play)]
        move = rng.choice(plays) if plays and (not events or rng.random() < 0.8) else rng.choice(events)
        pos, line = table.apply(pos, move), line + [move]
    return pos, line


def solves(first: int, last: int, nodes: int) -> None:
    """Whole solves of games first..last, pure and compiled, one after the other."""
    seconds = {"pure": 0.0, "compiled": 0.0}
    verdicts = {"won": 0, "lost": 0, "unknown": 0}
    states, worst = 0, {"pure": 0.0, "compiled": 0.0}
    for number in range(first, last + 1):
        cards = GAME.numbered_deal(PYSOL, str(number))
        outs = {}
        for way in ("pure", "compiled"):
            os.environ[core.PURE_VARIABLE] = "1" if way == "pure" else ""
            started = time.perf_counter()
            outs[way] = GAME.solve(PYSOL, cards, Limits(node_limit=nodes))
            took = time.perf_counter() - started
            seconds[way] += took
            worst[way] = max(worst[way], took)
        pure, native = outs["pure"], outs["compiled"]
        if (pure.verdict, pure.states, pure.moves) != (native.verdict, native.states, native.moves):
            raise SystemExit(f"game {number}: the searches disagree: {pure.verdict} / {native.verdict}")
        verdicts[str(native.verdict)] += 1
        states += native.states
    print(f"Matrimony (PySolFC), games {first}-{last}, each solve within {nodes:,} nodes, one core")
    print(f"{verdicts['won']} won, {verdicts['lost']} lost, {verdicts['unknown']} unknown; {states:,} states in all")
    print("| search | total s | worst s | faster |")
    print("|---|---|---|---|")
    for way in ("pure", "compiled"):
        print(f"| {way} | {seconds[way]:.1f} | {worst[way]:.2f} | {seconds['pure'] / seconds[way]:.1f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solve", type=int, nargs=2, metavar=("FIRST", "LAST"), help="whole solves of these game numbers")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=20_000, help="node limit of each search")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if core.compiled_core() is None:
        raise SystemExit(f"the compiled core is not in use here: {core.description()}")
    if args.solve:
        solves(*args.solve, args.nodes)
        return
    rng = random.Random(args.seed)
    kinds = {"after the last deal": [], "random line, 8 redeals": [], "random line, 14 redeals": []}
    for _ in range(args.deals):
        table = Table(PYSOL, tuple(GAME.numbered_deal(PYSOL, str(rng.randrange(10**6, 10**12 + 1)))))
        kinds["after the last deal"].append((table, *after_last_deal(table)))
        kinds["random line, 8 redeals"].append((table, *random_late(table, rng, 8)))
        kinds["random line, 14 redeals"].append((table, *random_late(table, rng, 14)))
    limits = Limits(node_limit=args.nodes)
    print(f"Matrimony (PySolFC), {args.deals:,} random game numbers of 10^6-10^12 (seed {args.seed}), one core")
    print(f"each search within {args.nodes:,} nodes; {core.description()}")
    print("| positions | won / lost / unknown | states | pure s | compiled s | pure us a state | compiled us a state | faster |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, cases in kinds.items():
        seconds = {"pure": [], "compiled": []}
        verdicts = {"won": 0, "lost": 0, "unknown": 0}
        states = 0
        for table, pos, line in cases:
            outs = {}
            for way in ("pure", "compiled"):
                started = time.perf_counter()
                space = PysolSpace(table, pos)
                outs[way] = solve(space, limits, compiled=way == "compiled")
                seconds[way].append(time.perf_counter() - started)
            pure, native = outs["pure"], outs["compiled"]
            if (pure.verdict, pure.states, pure.nodes, pure.steps) != (native.verdict, native.states, native.nodes, native.steps):
                raise SystemExit(f"{kind}: the searches disagree on {table.deal[:4]}...: {pure} / {native}")
            if native.verdict == "won" and not referee(PYSOL, table.deal, line + space.moves(native.steps)).won:
                raise SystemExit(f"{kind}: the referee rejects the core's winning line")
            verdicts[native.verdict] += 1
            states += native.states
        pure_s, native_s = sum(seconds["pure"]), sum(seconds["compiled"])
        print(
            f"| {kind} | {verdicts['won']} / {verdicts['lost']} / {verdicts['unknown']} | {states:,} | {pure_s:.1f} | "
            f"{native_s:.2f} | {1e6 * pure_s / max(states, 1):.0f} | {1e6 * native_s / max(states, 1):.1f} | "
            f"{pure_s / native_s:.1f}x |"
        )


if __name__ == "__main__":
    main()

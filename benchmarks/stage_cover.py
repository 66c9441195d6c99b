"""Which searches a PySolFC Matrimony portfolio should run, in what order: each candidate
stage alone on each deal of a list, then the order that wins the most deals per second.

    python3 benchmarks/stage_cover.py run data/matrimony-pysol-hard.txt --time-limit 30 --out cover.jsonl
    python3 benchmarks/stage_cover.py report cover.jsonl

`run` tries every candidate (QUICK_STAGES, then the rollout searches of CANDIDATES) alone on
every deal, from nothing (its own space, no memo), within `--time-limit` seconds, on
`--jobs` processes, and appends a JSON line for each (stage, deal): whether it won (every
win replayed by the referee) and its seconds. It skips the pairs the file already holds,
so a run stopped at any point goes on where it was.

`report` orders the stages greedily: next comes the stage that wins the most deals not yet
won per second it would spend on them (a stage spends its seconds on every deal it runs
on, won or not), and prints, for each stage in that order, the deals it adds, its seconds
on the deals still open, and the running totals: the figures of docs/SOLVER.md's table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.games.matrimony import GAME  # noqa: E402
from wedlock.games.matrimony.play import Table  # noqa: E402
from wedlock.games.matrimony.quick_stages import QUICK_STAGES, Stage  # noqa: E402
from wedlock.games.matrimony.rollouts import Rollout, RolloutSpace  # noqa: E402
from wedlock.games.matrimony.rules import RULE_SETS  # noqa: E402
from wedlock.search.exhaustive import WON, Limits  # noqa: E402

RULES = RULE_SETS["pysol"]
ROLLOUTS = [
    *(Rollout("nrpa", "decisions", 3, 30, seed=s) for s in range(1, 13)),
    *(Rollout("nrpa", "free", 3, 30, seed=s) for s in (1, 2, 3)),
    *(Rollout("nrpa", "decisions", 3, 50, seed=s) for s in (1, 2, 3, 4, 5)),
    *(Rollout("nrpa", "free", 3, 50, seed=s) for s in (1, 2)),
    Rollout("nrpa", "decisions", 3, 100),
    Rollout("nrpa", "decisions", 4, 20),
    *(Rollout("nmcs", "decisions", 3, seed=s) for s in (1, 2, 3)),
    Rollout("nmcs", "free", 3),
    Rollout("nmcs", "decisions", 3, greedy=True),
    Rollout("nmcs", "decisions", 4),
    *(Rollout("uct", "decisions", seed=s, exploration=c) for s in (1, 2) for c in (0.1, 0.3)),
    *(Rollout("nrpa", "decisions", 3, 30, bias=b, seed=s) for b in ((0.5, 0.0, 1.0, 0.0), (0.0, 0.0, 0.0, 0.0), (1.0, 0.0, 2.0, 0.0)) for s in (1, 2, 3)),
    *(Rollout("nmcs", "decisions", 3, bias=b) for b in ((0.5, 0.0, 1.0, 0.0), (0.0, 0.0, 0.0, 0.0))),
    *(Rollout("nrpa", "pruned", 3, 30, seed=s) for s in (1, 2, 3)),
    Rollout("nrpa", "pruned", 3, 50),
    Rollout("nmcs", "pruned", 3),
    Rollout("nrpa", "pruned", 4, 20),
]
CANDIDATES = {stage.label: stage for stage in (*QUICK_STAGES, *(Stage("rollout", RolloutSpace, 0, rollout=r) for r in ROLLOUTS))}


def table_of(number: int) -> Table:
    return Table(RULES, tuple(GAME.check_deal(RULES, GAME.numbered_deal(RULES, str(number)))))


def try_stage(job: tuple[str, int, float]) -> dict:
    """One stage alone on one deal: whether it won, in how many seconds."""
    name, number, seconds = job
    stage, table = CANDIDATES[name], table_of(number)
    space = stage.build(table)
    started = time.perf_counter()
    out = stage.run(space, Limits(time_limit=seconds))
    took = time.perf_counter() - started
    won = out.verdict == WON
    if won and not GAME.referee(RULES, table.deal, space.moves(out.steps)).won:
        raise SystemExit(f"{name} on game {number}: the referee rejects its winning line")
    return {"stage": name, "game": number, "won": won, "seconds": round(took, 3)}


def deals_in(text: str) -> list[int]:
    """Game numbers from a file (whitespace or commas between them) or a range A-B."""
    if Path(text).exists():
        lines = (line.split("#")[0] for line in Path(text).read_text().splitlines())
        return [int(n) for line in lines for n in line.replace(",", " ").split()]
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def run(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {(r["stage"], r["game"]) for r in map(json.loads, out.read_text().splitlines())}
    names = [n for n in CANDIDATES if not args.stages or any(part == n for part in args.stages)]
    jobs = [(name, n, args.time_limit) for n in deals_in(args.deals) for name in names if (name, n) not in done]
    with ProcessPoolExecutor(args.jobs) as pool, out.open("a") as f:
        for record in pool.map(try_stage, jobs):
            f.write(json.dumps(record) + "\n")
            f.flush()
            print(f"{record['stage']}: game {record['game']} {'won' if record['won'] else '-'} {record['seconds']} s", file=sys.stderr)


def report(args: argparse.Namespace) -> None:
    records = [json.loads(line) for path in args.files for line in Path(path).read_text().splitlines()]
    seconds: dict[str, dict[int, float]] = {}
    won: dict[str, set[int]] = {}
    for r in records:
        seconds.setdefault(r["stage"], {})[r["game"]] = r["seconds"]
        if r["won"]:
            won.setdefault(r["stage"], set()).add(r["game"])
    deals = set().union(*(set(s) for s in seconds.values()))
    stages = [s for s in seconds if set(seconds[s]) == deals]  # only the stages tried on every deal
    print(f"{len(deals)} deals, {len(stages)} stages tried on each; won by some: {len(set().union(*won.values()))}")
    print("| stage | deals it adds | its seconds on the deals still open | won so far | seconds so far |")
    print("|---|---|---|---|---|")
    covered: set[int] = set()
    total = 0.0
    order = []
    while True:
        best = None
        for s in stages:
            if s in order:
                continue
            open_ = deals - covered
            cost = sum(seconds[s][d] for d in open_)
            gain = len(won.get(s, set()) & open_)
            if gain and (best is None or gain / cost > best[0]):
                best = (gain / cost, s, gain, cost)
        if best is None:
            break
        _, s, gain, cost = best
        order.append(s)
        covered |= won[s]
        total += cost
        print(f"| {s} | {gain} | {cost:,.1f} | {len(covered)} | {total:,.1f} |")
    print(f"left: {' '.join(map(str, sorted(deals - covered)))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("deals", help="a file of game numbers, or a range A-B")
    r.add_argument("--time-limit", type=float, default=30.0, help="seconds a stage on a deal")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--stages", nargs="*", help="only these stages (by name)")
    r.add_argument("--out", required=True)
    p = sub.add_parser("report")
    p.add_argument("files", nargs="+")
    args = parser.parse_args()
    run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    main()

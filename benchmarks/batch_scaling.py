"""How batch throughput scales: --jobs 1, --jobs 2, and the Dask path on a local cluster.

    python3 benchmarks/batch_scaling.py monte-carlo 1-1000 [--rules pysol] [--repeat 3]

Each configuration runs the same range through the same code as `wedlock batch`; the table
gives the best of --repeat runs (deals per second), the speed-up over one process, and the
Dask path's overhead against plain processes with the same number of workers.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.games.registry import game_named, rules_of  # noqa: E402
from wedlock.results.batch import Job, run_dask, run_local  # noqa: E402
from wedlock.results.ranges import parse_range  # noqa: E402
from wedlock.search.exhaustive import Limits  # noqa: E402


def timed(run) -> tuple[float, list]:
    started = time.perf_counter()
    records = list(run())
    return time.perf_counter() - started, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("range")
    parser.add_argument("--rules")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = game_named(args.game)
    rules = rules_of(game, args.rules)
    numbers = parse_range(args.range)
    job = Job(game.name, rules.name, Limits())
    import dask
    from distributed import LocalCluster

    best: dict[str, float] = {}
    outcomes = {}

    def measure(name: str, run) -> None:
        times = []
        for _ in range(args.repeat):
            seconds, records = timed(run)
            times.append(seconds)
            outcomes[name] = sorted((r["game_number"], r["verdict"]) for r in records)
        best[name] = min(times)

    # The plain process runs go first, while no cluster exists: an idle Dask scheduler and its
    # workers still wake up for heartbeats, which would slow down the runs they do not serve.
    measure("processes, --jobs 1", lambda: run_local(job, numbers, 1))
    measure("processes, --jobs 2", lambda: run_local(job, numbers, 2))
    for label, profiler in (("profiler off, as the README advises", False), ("Dask's defaults", True)):
        with dask.config.set({"distributed.worker.profile.enabled": profiler}):
            with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as cluster:
                measure(f"dask LocalCluster, 2 workers, {label}", lambda: run_dask(job, numbers, cluster.scheduler_address))
    if len({tuple(v) for v in outcomes.values()}) != 1:
        raise SystemExit("the configurations disagree on some verdict")
    one = best["processes, --jobs 1"]
    two = best["processes, --jobs 2"]
    print(f"{game.title} ({rules.name}), games {args.range}, {len(numbers)} deals, best of {args.repeat}")
    print("| configuration | seconds | deals/s | speed-up over --jobs 1 |")
    print("|---|---|---|---|")
    for name, seconds in best.items():
        print(f"| {name} | {seconds:.2f} | {len(numbers) / seconds:,.0f} | {one / seconds:.2f}x |")
    print()
    for name, seconds in best.items():
        if name.startswith("dask"):
            print(f"Dask overhead against --jobs 2 ({name.split(', ', 2)[2]}): {100 * (seconds - two) / two:+.1f}%")

if __name__ == "__main__":
    main()

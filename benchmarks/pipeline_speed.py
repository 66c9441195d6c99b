"""The batch pipeline against the plain search and the compiled search alone, on the same
deals in one run, and where a pipeline's deal spends its time.

    python3 benchmarks/pipeline_speed.py monte-carlo --deals 4000
    python3 benchmarks/pipeline_speed.py matrimony --rules arnold --deals 1000
    python3 benchmarks/pipeline_speed.py monte-carlo --rules weddings --deals 1000 --no-plain

Deals are random game numbers of 10^6-10^12 (a fixed seed, as in core_speed.py). Each deal
is run three ways, one after the other, so that the machine's drift touches all three alike:

- plain: the plain search over single moves in pure Python (the yardstick every reduction
  is tested against), from the dealt cards; the time is building its space and searching;
- compiled: the solver's own space searched by the compiled core, timed the same way;
- pipeline: what `wedlock batch --jobs 1` does for a deal, `batch.solve_number` (deal,
  search, moves, the referee's replay, the record) and the results line written.

Then `wedlock batch GAME @NUMBERS --jobs 1 --quiet` runs as a command on the same numbers
(start-up included), and last the pipeline runs once more with a timer around the
functions of each stage (`STAGES`: whichever of them this version of wedlock has), which
splits a deal's time into dealing, search (building the space and searching), moves
(turning the search's steps into moves), replay, the results line, and the rest. A timer
counts its own time only, not that of the timers inside it; what a timer costs outside the
span it measures (under a microsecond a call, measured first) is charged to no stage.
Every run's verdicts must agree.
"""

from __future__ import annotations

import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_speed import PLAIN, SPACE, arguments, hidden_numbers  # noqa: E402 (the benchmark beside this one)

from wedlock.basics import compiled as core  # noqa: E402
from wedlock.games.plain_space import PlainSpace  # noqa: E402
from wedlock.results.batch import Job, solve_number  # noqa: E402
from wedlock.results.records import ResultsWriter  # noqa: E402
from wedlock.search.exhaustive import Limits, solve  # noqa: E402

# The functions each stage of a deal runs, by "module:attribute" (a class's method as
# "module:Class.method"); a name this version of wedlock lacks is left out.
STAGES = {
    "dealing": ["wedlock.pipeline.solving:deal"],
    "search": [
        "wedlock.games.montecarlo:solve",
        "wedlock.games.matrimony:solve",
        "wedlock.games.montecarlo:MonteCarlo.space",
        "wedlock.games.matrimony.play:Table.__init__",
        "wedlock.games.matrimony.arnold_space:ArnoldSpace.__init__",
    ],
    "moves": [
        "wedlock.games.montecarlo.spaces:SequenceSpace.moves",
        "wedlock.games.montecarlo.spaces:ColumnSpace.moves",
        "wedlock.games.montecarlo.spaces:SequenceSpace.codes",
        "wedlock.games.montecarlo.spaces:ColumnSpace.codes",
        "wedlock.games.matrimony.arnold_space:ArnoldSpace.moves",
        "wedlock.games.matrimony.arnold_space:ArnoldSpace.codes",
        "wedlock.games.lines:Line.of",
    ],
    "replay": ["wedlock.games.montecarlo:MonteCarlo.referee", "wedlock.games.matrimony:Matrimony.referee"],
    "results line": ["wedlock.pipeline.solving:Solution.record", "wedlock.results.records:ResultsWriter.write"],
}


class Stopwatch:
    """Exclusive time per stage: a timed call's time, less that of timed calls inside it.

    The timer's own work outside the span it measures (the wrapper's call, its list and its
    sums) would land in the caller's time: in the stage of a timed caller, or in "other".
    `calibrate` measures that cost; a timed caller is not charged it, and the deal's time
    is taken without it (`calls` times the cost), so "other" is not charged it either.
    """

    def __init__(self) -> None:
        self.spent: dict[str, float] = dict.fromkeys(STAGES, 0.0)
        self.inner: list[float] = []  # for each timed call under way, the time of timed calls inside it
        self.calls = 0  # timed calls made
        self.cost = 0.0  # the timer's cost per call outside the span it measures (`calibrate`)

    def calibrate(self, calls: int = 200_000) -> float:
        """The timer's cost per call outside its span, in seconds: a timed empty function
        against the same function bare, less the span the timer saw."""

        def empty() -> None:
            return None

        timed = self.wrap("other", empty)
        best = None
        for _ in range(5):
            self.spent["other"] = 0.0
            started = time.perf_counter()
            for _ in range(calls):
                timed()
            with_timer = time.perf_counter() - started
            started = time.perf_counter()
            for _ in range(calls):
                empty()
            bare = time.perf_counter() - started
            cost = (with_timer - bare - self.spent["other"]) / calls
            best = cost if best is None else min(best, cost)
        del self.spent["other"]
        self.calls, self.cost = 0, max(best or 0.0, 0.0)
        return self.cost

    def wrap(self, stage: str, function: Callable) -> Callable:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.inner.append(0.0)
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                took = time.perf_counter() - started
                inside = self.inner.pop()
                self.spent[stage] += took - inside
                self.calls += 1
                if self.inner:
                    self.inner[-1] += took + self.cost

        return timed

    def install(self) -> list[str]:
        """Wrap every stage's functions that exist here; the names wrapped."""
        found = []
        for stage, names in STAGES.items():
            for name in names:
                module_name, _, path = name.partition(":")
                owner: Any = importlib.import_module(module_name)
                *outer, attribute = path.split(".")
                for part in outer:
                    owner = getattr(owner, part, None)
                original = getattr(owner, attribute, None) if owner is not None else None
                if original is None or isinstance(original, type(importlib)):
                    continue
                if isinstance(owner, type) and isinstance(owner.__dict__.get(attribute), classmethod):
                    setattr(owner, attribute, classmethod(self.wrap(stage, original.__func__)))
                else:
                    setattr(owner, attribute, self.wrap(stage, original))
                found.append(name)
        return found


def per_deal(seconds: list[float]) -> str:
    """Median and mean of per-deal seconds, in microseconds."""
    return f"{1e6 * statistics.median(seconds):,.0f} | {1e6 * statistics.mean(seconds):,.0f}"


def main() -> None:
    args, game, rules = arguments(__doc__.splitlines()[0], 4000)
    if game.name == "matrimony" and rules.name != "arnold":
        raise SystemExit("the compiled search alone is measured for Arnold's Matrimony only")
    numbers = [str(n) for n in hidden_numbers(args.seed, args.deals)]
    limits = Limits(max_states=None)
    job = Job(game.name, rules.name, Limits())  # as `wedlock batch` runs it
    load_before = os.getloadavg()
    ways = ([] if args.no_plain else ["plain"]) + ["compiled", "pipeline"]
    seconds: dict[str, list[float]] = {w: [] for w in ways}
    verdicts: dict[str, str] = {}
    with open(os.devnull, "w", encoding="utf-8") as devnull:
        writer = ResultsWriter(devnull)
        for number in numbers:
            cards = game.numbered_deal(rules, number)
            answers = {}
            for way in ways:
                started = time.perf_counter()
                if way == "pipeline":
                    record = solve_number(job, number)
                    writer.write(record)
                    verdict = record["verdict"]
                else:
                    space = PlainSpace(PLAIN[game.name](rules, cards)) if way == "plain" else SPACE[game.name](game, rules, cards)
                    verdict = solve(space, limits, compiled=way == "compiled").verdict
                seconds[way].append(time.perf_counter() - started)
                answers[way] = str(verdict)
            if len(set(answers.values())) != 1:
                raise SystemExit(f"game {number}: the runs disagree: {answers}")
            verdicts[number] = answers["pipeline"]
        command_seconds = run_command(game.name, rules.name, numbers, verdicts)
        watch = Stopwatch()
        cost = watch.calibrate()
        wrapped = watch.install()
        totals, stages = [], {stage: [] for stage in [*STAGES, "other"]}
        for number in numbers:
            before, calls = dict(watch.spent), watch.calls
            started = time.perf_counter()
            writer.write(solve_number(job, number))
            took = time.perf_counter() - started - (watch.calls - calls) * cost
            totals.append(took)
            for stage in STAGES:
                stages[stage].append(watch.spent[stage] - before[stage])
            stages["other"].append(took - sum(watch.spent[s] - before[s] for s in STAGES))
    load_after = os.getloadavg()

    won = sum(v == "won" for v in verdicts.values())
    print(f"{rules.title}, {args.deals:,} random game numbers of 10^6-10^12 (seed {args.seed}), one core")
    print(f"verdicts: {won:,} won, {len(verdicts) - won:,} lost; {core.description()}")
    print(f"load average (1, 5, 15 min): {_load(load_before)} before, {_load(load_after)} after")
    base = "plain" if "plain" in ways else "compiled"
    print()
    print(f"| run | total s | median us | mean us | faster than {base} | against the compiled search |")
    print("|---|---|---|---|---|---|")
    compiled = sum(seconds["compiled"])
    for way, label in (("plain", "plain search"), ("compiled", "compiled search alone"), ("pipeline", "pipeline, in process")):
        if way in seconds:
            s = seconds[way]
            print(f"| {label} | {sum(s):.2f} | {per_deal(s)} | {sum(seconds[base]) / sum(s):.1f}x | {sum(s) / compiled:.2f} |")
    print(
        f"| `wedlock batch --jobs 1` | {command_seconds:.2f} | | | {sum(seconds[base]) / command_seconds:.1f}x | "
        f"{command_seconds / compiled:.2f} |"
    )
    print()
    print(
        f"Where a pipeline's deal goes ({len(wrapped)} functions timed, each call's timer, {1e6 * cost:.2f} us, taken "
        f"back; total {sum(totals):.2f} s):"
    )
    print()
    print("| stage | median us | mean us | share |")
    print("|---|---|---|---|")
    for stage, spent in stages.items():
        print(f"| {stage} | {per_deal(spent)} | {100 * sum(spent) / sum(totals):.0f}% |")
    around = [t - s for t, s in zip(totals, stages["search"])]
    print(f"| all but the search | {per_deal(around)} | {100 * sum(around) / sum(totals):.0f}% |")
    print(f"| whole deal | {per_deal(totals)} | 100% |")


def _load(load: tuple[float, float, float]) -> str:
    return ", ".join(f"{x:.2f}" for x in load)


def run_command(game: str, rules: str, numbers: list[str], verdicts: dict[str, str]) -> float:
    """`wedlock batch` on the numbers as a command, one process: its wall-clock seconds."""
    with tempfile.TemporaryDirectory() as folder:
        listed, out = Path(folder, "numbers.txt"), Path(folder, "out.jsonl")
        listed.write_text("\n".join(numbers) + "\n", encoding="utf-8")
        command = [sys.executable, "-m", "wedlock", "batch", game, f"@{listed}", "--rules", rules, "--jobs", "1", "--quiet", "--out", str(out)]
        started = time.perf_counter()
        subprocess.run(command, check=True)
        took = time.perf_counter() - started
        lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    if {r["game_number"]: r["verdict"] for r in lines} != verdicts:
        raise SystemExit("the command's verdicts differ from the pipeline's")
    return took


if __name__ == "__main__":
    main()

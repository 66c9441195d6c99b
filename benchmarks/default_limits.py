"""How often `wedlock solve`'s default limits leave a random PySolFC Matrimony deal unknown:
1,000 game numbers drawn from 10^6-10^12 (matrimony-pysol-random-1000.txt), each solved by
`batch` at solve's defaults (120 s, 20,000,000 states), then a table of what came out.

    python3 benchmarks/default_limits.py run --out after.jsonl
    python3 benchmarks/default_limits.py run --wedlock /path/to/older/bin/wedlock --out before.jsonl
    python3 benchmarks/default_limits.py report before.jsonl after.jsonl

`run` calls the given `wedlock` (an older version's, say, from a venv of its own) with
`--resume`, so a run stopped at any point goes on where it was. Run nothing else on the
machine meanwhile: a deal that takes a second more under load can cross the limit.
`report` prints, for each results file, the deals decided and left unknown, the unknown
rate with its 95% Wilson interval, and the seconds a deal took (median, 90th and 99th
percentile, most, total), then the numbers unknown in each.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NUMBERS = HERE / "matrimony-pysol-random-1000.txt"
TIME_LIMIT, MAX_STATES = 120, 20_000_000  # solve's defaults


def run(wedlock: str, out: Path, numbers: Path, jobs: int) -> None:
    # The numbers file starts with comment lines, which batch's @FILE does not take.
    listed = out.with_suffix(".numbers")
    listed.write_text("\n".join(line for line in numbers.read_text().splitlines() if line and not line.startswith("#")) + "\n")
    command = [wedlock, "batch", "matrimony", f"@{listed}", "--rules", "pysol", "--time-limit", str(TIME_LIMIT)]
    command += ["--max-states", str(MAX_STATES), "--jobs", str(jobs), "--out", str(out)]
    if out.exists():
        command.append("--resume")
    sys.exit(subprocess.call(command))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    middle = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, middle - half), min(1.0, middle + half)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else math.nan


def report(files: list[Path]) -> None:
    print(f"{'file':28} {'version':>8} {'deals':>6} {'won':>6} {'lost':>5} {'unknown':>8} {'unknown rate (95%)':>24} "
          f"{'median s':>9} {'p90 s':>7} {'p99 s':>7} {'most s':>7} {'total s':>8}")
    unknown_of = {}
    for path in files:
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        last = {line["game_number"]: line for line in lines}  # a retried number: its last line counts
        count = {v: sum(1 for x in last.values() if x["verdict"] == v) for v in ("won", "lost", "unknown")}
        seconds = [x["seconds"] for x in last.values()]
        low, high = wilson(count["unknown"], len(last))
        versions = sorted({x.get("version", "?") for x in last.values()})
        rate = f"{count['unknown'] / max(1, len(last)):.2%} ({low:.2%}-{high:.2%})"
        print(f"{path.name:28} {','.join(versions):>8} {len(last):>6} {count['won']:>6} {count['lost']:>5} {count['unknown']:>8} {rate:>24} "
              f"{percentile(seconds, 0.5):>9.3f} {percentile(seconds, 0.9):>7.2f} {percentile(seconds, 0.99):>7.1f} "
              f"{max(seconds, default=math.nan):>7.1f} {sum(seconds):>8.0f}")
        unknown_of[path.name] = sorted((x for x in last if last[x]["verdict"] == "unknown"), key=int)
    for name, numbers in unknown_of.items():
        print(f"unknown in {name}: {' '.join(numbers) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    go = commands.add_parser("run", help="solve the numbers at solve's default limits")
    go.add_argument("--wedlock", default="wedlock", help="the wedlock program to run (default: the one on PATH)")
    go.add_argument("--out", type=Path, required=True, help="results file (JSON lines), resumed if it exists")
    go.add_argument("--numbers", type=Path, default=NUMBERS)
    go.add_argument("--jobs", type=int, default=2)
    show = commands.add_parser("report", help="the table of one or more results files")
    show.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "run":
        run(args.wedlock, args.out, args.numbers, args.jobs)
    else:
        report(args.files)


if __name__ == "__main__":
    main()

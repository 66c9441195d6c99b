"""The crafted PySolFC saves of tests/pysolfc/crafted_saves.py, handed to a `wedlock`
program, with and without its compiled core: how long each command took, its exit code,
the lines it wrote to stderr, and their first line.

    python3 benchmarks/save_attacks.py
    python3 benchmarks/save_attacks.py --wedlock /path/to/older/bin/wedlock --timeout 60

The files are made with the wedlock this script imports (the source tree's); each is
read by `solve --pysolfc-save FILE` and `hint --pysolfc-save FILE --time-limit 1` of the
program named. A run still going at `--timeout` seconds is killed and shown as such
(exit "killed"); exit -11 is a segfault. Beside the files, Matrimony's state limit:
`solve matrimony 107 --rules pysol --max-states N`, with the states its answer counts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.pysolfc import crafted_saves as crafted  # noqa: E402

FILES = {
    "tuple nested 200,000 deep as a key": lambda: crafted.with_pickle(7, crafted.nested_key(200_000)),
    "version tuple with a 4,500-digit int": crafted.huge_version,
    "20,000 colliding int keys": lambda: crafted.with_pickle(7, crafted.colliding_dict(20_000)),
    "270,000 colliding int keys": lambda: crafted.with_pickle(7, crafted.colliding_dict(270_000)),
    "45 steps + 380,000 legal shift pairs": lambda: crafted.shifting(380_000, shared=True),
    "45 steps + 3,500 shift pairs, unshared": lambda: crafted.shifting(3_500),
    "GameMoves with no attributes": crafted.empty_moves,
}


def timed(command: list[str], timeout: float, pure: bool) -> tuple[float, str, list[str]]:
    env = dict(os.environ)
    env.pop("WEDLOCK_PURE", None)
    if pure:
        env["WEDLOCK_PURE"] = "1"
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return time.monotonic() - started, "killed", []
    said = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    return time.monotonic() - started, str(done.returncode), said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wedlock", default="wedlock", help="the wedlock program to run (default: the one on PATH)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a run is killed")
    parser.add_argument("--pure", action="store_true", help="also run each with WEDLOCK_PURE=1")
    args = parser.parse_args()
    print(f"{'file':38} {'MB':>5} {'command':6} {'core':5} {'seconds':>8} {'exit':>6} {'lines':>5}  first line")
    with tempfile.TemporaryDirectory() as folder:
        for name, make in FILES.items():
            path = Path(folder) / "crafted.pso"
            path.write_bytes(make())
            size = path.stat().st_size / 2**20
            for verb, extra in (("solve", []), ("hint", ["--time-limit", "1"])):
                for pure in (False, True) if args.pure else (False,):
                    command = [args.wedlock, verb, "--pysolfc-save", str(path), *extra]
                    seconds, code, said = timed(command, args.timeout, pure)
                    first = said[0][:90] if said else ""
                    print(f"{name:38} {size:5.2f} {verb:6} {'pure' if pure else 'C':5} {seconds:8.2f} {code:>6} {len(said):5}  {first}", flush=True)
    print()
    print(f"{'matrimony 107, --max-states':38} {'core':5} {'seconds':>8} {'exit':>6}  states counted")
    for limit in (1_000, 50_000):
        for pure in (False, True) if args.pure else (False,):
            command = [args.wedlock, "solve", "matrimony", "107", "--rules", "pysol", "--max-states", str(limit), "--json"]
            seconds, code, said = timed(command, args.timeout, pure)
            states = ""
            for line in said:
                if line.startswith("{"):
                    states = f"{json.loads(line).get('states', ''):,}"
            print(f"{limit:38,} {'pure' if pure else 'C':5} {seconds:8.2f} {code:>6}  {states}", flush=True)


if __name__ == "__main__":
    main()

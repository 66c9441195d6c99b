"""The crafted PySolFC saves of tests/pysolfc/crafted_saves.py, and saves that come down a
pipe that stalls, handed to a `wedlock` program, with and without its compiled core: how
long each command took, its peak memory, its exit code, the lines it wrote, and the first.

    python3 benchmarks/save_attacks.py --pure
    python3 benchmarks/save_attacks.py --wedlock /path/to/older/bin/wedlock --timeout 60

The files are made with the wedlock this script imports (the source tree's); each is
read by `solve --pysolfc-save FILE`, `solve ... --time-limit 1` and `hint ... --time-limit 1`
of the program named. Then the pipes: a FIFO that no program writes to, a FIFO and stdin
that send 100 bytes of a save and then wait 6 s, each read with `--time-limit 1`, and
`--pysolfc-out` onto a FIFO that no program reads. A run still going at `--timeout`
seconds (at most 20 for the pipes) is killed and shown as such (exit "killed"); exit -11
is a segfault. Beside them, Matrimony's state limit: `solve matrimony 107 --rules pysol
--max-states N`, with the states its answer counts.

The peak is the command's own resident memory (its `ru_maxrss`, in a process started by
a small launcher, so that none of this script's is counted).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
    "an empty step shared 6,624 times": crafted.shared_empty_step,
    "the same, 408 legal shifts a step": lambda: crafted.shared_empty_step(shifts=True),
    "a list nested 600,000 deep, outside in": crafted.outside_in,
    "the generator given its state 2 M times": crafted.rebuilt_generator,
    "4 M empty dicts": lambda: crafted.filled(b"}"),
    "4 M empty lists": lambda: crafted.filled(b"]"),
    "2 M tuples of None": lambda: crafted.filled(b"N\x85"),
    "2 M zeros of no bytes": lambda: crafted.filled(b"\x8a\x00"),
    "4 M empty dicts, in a list": lambda: crafted.in_batches(b"}"),
    "4 M Nones, in a list (read whole)": crafted.slowest,
}
COMMANDS = (("solve", []), ("solve", ["--time-limit", "1"]), ("hint", ["--time-limit", "1"]))
PIPE_TIMEOUT = 20.0  # a pipe that is waited on for ever is killed after this
SAVE = Path(__file__).resolve().parent.parent / "tests" / "data" / "pysolfc" / "monte-carlo-start.pso"

# Runs the command in a child of its own, so that the peak it reports is the command's.
LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


def timed(command: list[str], timeout: float, pure: bool, stdin: Any = subprocess.DEVNULL) -> tuple[float, float, str, list[str]]:
    """Seconds, peak MB, exit code and the lines written by `command`."""
    env = dict(os.environ)
    env.pop("WEDLOCK_PURE", None)
    if pure:
        env["WEDLOCK_PURE"] = "1"
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as report:
        started = time.monotonic()
        child = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, report.name, *command],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            return time.monotonic() - started, 0.0, "killed", []
        seconds = time.monotonic() - started
        code, peak = report.read().split()
    said = [line for line in (err + out).decode("utf-8", "replace").splitlines() if line.strip()]
    return seconds, int(peak) / 1024, code, said


def row(name: str, size: float, verb: str, pure: bool, seconds: float, peak: float, code: str, said: list[str]) -> None:
    first = said[0][:90] if said else ""
    shown = f"{peak:7.0f}" if peak else f"{'':7}"
    print(f"{name:40} {size:5.2f} {verb:8} {'pure' if pure else 'C':5} {seconds:8.2f} {shown} {code:>6} {len(said):5}  {first}", flush=True)


@contextlib.contextmanager
def writer(path: Path, data: bytes, hold: float) -> Iterator[None]:
    """A program at the writing end of a FIFO: once a reader opens it, `data`, then `hold`
    seconds before it closes."""
    done = threading.Event()

    def write() -> None:
        while not done.wait(0.02):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                continue
            with contextlib.suppress(OSError):
                os.set_blocking(fd, True)
                os.write(fd, data)
                done.wait(hold)
            os.close(fd)
            return

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=hold + 5)


def pipes(program: str, timeout: float, runs: tuple[bool, ...], folder: Path, wanted: Callable[[str], bool]) -> None:
    """The saves that come down a pipe: a FIFO, a FIFO or stdin that stalls, a FIFO to write."""
    part = SAVE.read_bytes()[:100]  # the same 100 bytes come down stdin
    timeout = min(timeout, PIPE_TIMEOUT)
    fifo = folder / "save.fifo"
    os.mkfifo(fifo)
    limit = ["--time-limit", "1"]
    for pure in runs:
        name = "a FIFO no program writes to"
        if wanted(name):
            row(name, 0, "solve 1s", pure, *timed([program, "solve", "--pysolfc-save", str(fifo), *limit], timeout, pure))
        name = "a FIFO: 100 bytes, then 6 s of nothing"
        if wanted(name):
            with writer(fifo, part, 6.0):
                said = timed([program, "solve", "--pysolfc-save", str(fifo), *limit], timeout, pure)
            row(name, 0, "solve 1s", pure, *said)

        name = "stdin: 100 bytes, then 6 s of nothing"
        if wanted(name):
            stalls = subprocess.Popen(["sh", "-c", f"head -c 100 '{SAVE}'; sleep 6"], stdout=subprocess.PIPE)
            row(name, 0, "solve 1s", pure, *timed([program, "solve", "--pysolfc-save", "-", *limit], timeout, pure, stalls.stdout))
            stalls.kill()
            stalls.wait()
        name = "--pysolfc-out onto a FIFO no one reads"
        if wanted(name):
            command = [program, "solve", "monte-carlo", "12345", "--pysolfc-out", str(fifo), *limit]
            row(name, 0, "solve 1s", pure, *timed(command, timeout, pure))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wedlock", default="wedlock", help="the wedlock program to run (default: the one on PATH)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a run is killed")
    parser.add_argument("--pure", action="store_true", help="also run each with WEDLOCK_PURE=1")
    parser.add_argument("--only", help="run only the cases whose name holds this text ('matrimony 107' for the state limit)")
    args = parser.parse_args()
    runs = (False, True) if args.pure else (False,)
    print(f"{'case':40} {'MB':>5} {'command':8} {'core':5} {'seconds':>8} {'peak MB':>7} {'exit':>6} {'lines':>5}  first line")

    def wanted(case: str) -> bool:
        return not args.only or args.only in case

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for case, make in FILES.items():
            if not wanted(case):
                continue
            path = folder / "crafted.pso"
            path.write_bytes(make())
            size = path.stat().st_size / 2**20
            for verb, extra in COMMANDS:
                for pure in runs:
                    command = [args.wedlock, verb, "--pysolfc-save", str(path), *extra]
                    shown = f"{verb} {extra[-1]}s" if extra else verb
                    row(case, size, shown, pure, *timed(command, args.timeout, pure))
        if hasattr(os, "mkfifo"):
            pipes(args.wedlock, args.timeout, runs, folder, wanted)
    if not wanted("matrimony 107"):
        return
    print()
    print(f"{'matrimony 107, --max-states':40} {'core':5} {'seconds':>8} {'exit':>6}  states counted")
    for limit in (1_000, 50_000):
        for pure in runs:
            command = [args.wedlock, "solve", "matrimony", "107", "--rules", "pysol", "--max-states", str(limit), "--json"]
            seconds, _, code, said = timed(command, args.timeout, pure)
            states = ""
            for line in said:
                if line.startswith("{"):
                    states = f"{json.loads(line).get('states', ''):,}"
            print(f"{limit:40,} {'pure' if pure else 'C':5} {seconds:8.2f} {code:>6}  {states}", flush=True)


if __name__ == "__main__":
    main()

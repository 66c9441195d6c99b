"""Running a batch: every deal of a range solved (by `pipeline.solve`) in this process, in
a pool of local processes, or on a Dask cluster. Each runner yields result records
(`records`) as deals finish, not in game-number order.
"""

from __future__ import annotations

import hashlib
import os
import queue
import signal
import sys
import tempfile
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import CancelledError
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from ..basics.errors import CheckpointError, MissingExtra, WedlockError
from ..basics.numbering import GameNumber
from ..basics.printable import printable
from ..games.protocol import CHECKPOINT_SECONDS
from ..games.registry import game_named, rules_of
from ..pipeline.solving import Solution, solve
from ..playing.players import SAMPLE_SECONDS, SAMPLES, play
from ..search.exhaustive import Limits

CONNECT_SECONDS = 10  # how long a scheduler has to answer


class SchedulerError(WedlockError):
    """The Dask scheduler named on the command line could not be reached, or went away
    while a batch was running."""


@dataclass(frozen=True)
class Analyze:
    """How `batch --analyze` gets each deal's luck figures."""

    max_states: int  # the state graph's limit: exact figures when it fits
    playouts: int  # games played out per player when it does not


@dataclass(frozen=True)
class Players:
    """How `batch --player` plays each deal besides solving it."""

    names: tuple[str, ...]  # of players.PLAYERS but "perfect", which is the verdict
    seed: int = 0  # with the game number, each player's seed for the deal
    samples: int = SAMPLES
    sample_seconds: float | None = SAMPLE_SECONDS


@dataclass(frozen=True)
class Job:
    """What every deal of a batch shares."""

    game: str
    rules: str
    limits: Limits
    solutions: bool = False
    analyze: Analyze | None = None  # when the batch analyses each deal
    players: Players | None = None  # when players play each deal
    checkpoints: Path | None = None  # the folder of each deal's checkpoint (`checkpoint_name`), when kept
    checkpoint_every: float = CHECKPOINT_SECONDS


def solve_number(job: Job, number: str) -> dict[str, Any]:
    """Deal and solve one game number: its results line. Every win has been replayed by
    the game's independent referee."""
    limits = job.limits
    checkpoint = None if job.checkpoints is None else job.checkpoints / checkpoint_name(job.game, job.rules, number)
    result = solve(
        job.game,
        number,
        job.rules,
        time_limit=limits.time_limit,
        node_limit=limits.node_limit,
        max_states=limits.max_states,
        checkpoint=checkpoint,
        checkpoint_every=job.checkpoint_every,
    )
    record = result.record(job.solutions)
    if job.analyze is not None:
        from ..luck.analysis import luck_figures  # with networkx, only for a batch that analyses

        record["analysis"] = luck_figures(result.deal, job.analyze.max_states, job.analyze.playouts, result.verdict)
    if job.players is not None:
        record["players"] = players_of(job.players, result)
    return record


LONGEST_NUMBER = 100  # digits of a game number a checkpoint's name holds whole (a name has 255 bytes at most)


def checkpoint_name(game: str, rules: str, number: str) -> str:
    """The name of a deal's checkpoint file, which says its game, rule set and number:
    `matrimony-pysol-319.levels`. A number too long for a file's name keeps its first and
    last digits around a digest of all of them."""
    number = str(GameNumber.parse(number))
    if len(number) > LONGEST_NUMBER:
        digest = hashlib.sha256(number.encode()).hexdigest()[:16]
        number = f"{number[:40]}-{digest}-{number[-40:]}"
    return f"{game}-{rules}-{number}.levels"


def check_checkpoints(game: str, rules: str, folder: Path) -> None:
    """That a batch of this game and rule set can keep its checkpoints in `folder`, before
    any deal is solved: its solver keeps them, and the folder is there and takes a new file
    (a file is made there and removed). A CheckpointError says why not."""
    chosen = game_named(game)
    why = chosen.why_no_checkpoints(rules_of(chosen, rules))
    if why:
        raise CheckpointError(why)
    shown = printable(str(folder))
    try:
        if not folder.is_dir():
            raise CheckpointError(f"{shown} is not a folder" if folder.exists() else f"no folder {shown}")
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".wedlock-", suffix=".probe")
    except OSError as err:
        raise CheckpointError(f"cannot write in {shown}: {err.strerror or err}") from None
    os.close(fd)
    os.unlink(probe)


def players_of(how: Players, result: Solution) -> dict[str, dict[str, Any]]:
    """Each player's game of a deal, for its results line, played out with every move
    through the referee. (Perfect play is the line's own verdict.)"""
    out = {}
    seed = f"{how.seed}/{result.deal.number}"
    for name in how.names:
        game = play(result.deal.game, result.deal, name, seed=seed, samples=how.samples, sample_seconds=how.sample_seconds)
        out[name] = game.record()
    return out


def solve_chunk(job: Job, numbers: Sequence[str]) -> list[dict[str, Any]]:
    """Solve several game numbers in one worker call (fewer round trips for fast deals)."""
    return [solve_number(job, n) for n in numbers]


def chunks(numbers: Sequence[str], size: int) -> Iterator[list[str]]:
    for i in range(0, len(numbers), size):
        yield list(numbers[i : i + size])


def chunk_size(count: int, workers: int, tasks_per_worker: int = 8, most: int = 32) -> int:
    """Deals per task: big enough to hide the cost of a round trip, small enough to share.

    Each worker gets about `tasks_per_worker` tasks, so that a slow deal near the end leaves
    the others something to do, and no task holds more than `most` deals, so that results
    (and the progress bar) keep flowing on long ranges.
    """
    return max(1, min(most, count // (workers * tasks_per_worker) or 1))


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _worker_start(batch: int) -> None:
    """A pool worker leaves Ctrl-C to the batch, which ends the pool itself: a worker that
    took it too would die printing its own traceback. A signal the batch's own process
    handles in Python (the command line's SIGTERM and SIGHUP), a worker takes as the system
    does, dying at once, so that the batch's ending of the pool is never held up. And a
    worker dies with the batch (process `batch`), even one killed at once (SIGKILL), which
    ends nothing itself: on Linux the kernel kills it then (`_die_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and callable(signal.getsignal(signum)):
            signal.signal(signum, signal.SIG_DFL)
    _die_with_parent(batch)


PR_SET_PDEATHSIG = 1  # prctl's option: the signal a process gets when its parent dies (Linux)


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies, and die now if it already has
    (the worker was then handed to another parent before it could ask). Elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # Linux only

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


TASK_SECONDS = 0.5  # what a worker's task should take: results flow, round trips stay cheap


def run_local(job: Job, numbers: Sequence[str], jobs: int) -> Generator[dict[str, Any], None, None]:
    """Solve `numbers` with `jobs` processes (in this process when jobs is 1, and never
    more processes than deals).

    Each task is a few deals, as many as take about TASK_SECONDS by the deals solved so
    far (one at first, at most `chunk_size`'s): fast deals travel in batches, and a slow
    one's line is written as soon as it is solved, so an interrupted batch loses little."""
    jobs = min(jobs, len(numbers))
    if jobs <= 1:
        for number in numbers:
            yield solve_number(job, number)
        return
    import multiprocessing  # for a pool only

    context = multiprocessing.get_context("spawn" if multiprocessing.get_start_method() != "fork" else "fork")
    pool = context.Pool(jobs, initializer=_worker_start, initargs=(os.getpid(),))
    done: queue.SimpleQueue = queue.SimpleQueue()
    most = chunk_size(len(numbers), jobs)
    todo = iter(numbers)
    solved, seconds, running = 0, 0.0, 0

    def submit() -> int:
        per_deal = seconds / solved if solved else TASK_SECONDS
        size = max(1, min(most, int(TASK_SECONDS / max(per_deal, 1e-6))))
        part = list(islice(todo, size))
        if part:
            pool.apply_async(solve_chunk, (job, part), callback=done.put, error_callback=done.put)
        return bool(part)

    try:
        for _ in range(2 * jobs):  # a task waiting for each worker as it finishes one
            running += submit()
        while running:
            records = done.get()
            running -= 1
            if isinstance(records, BaseException):
                raise records
            solved += len(records)
            seconds += sum(r["seconds"] for r in records)
            running += submit()
            yield from records
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run_dask(job: Job, numbers: Sequence[str], address: str) -> Generator[dict[str, Any], None, None]:
    """Solve `numbers` on the Dask scheduler at `address`; workers need only this package.

    It connects at once (a SchedulerError if nobody answers), before any result is asked
    for, so that a bad address is reported before a results file is opened."""
    try:
        from distributed import Client
    except ImportError:
        raise MissingExtra("--scheduler needs Dask's distributed package: pip install distributed (wedlock's dask extra)") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, ValueError, TypeError) as err:  # nobody answers there; not an address
        raise SchedulerError(f"cannot reach a Dask scheduler at {address!r}: {err}") from None
    return _results_from(client, job, numbers)


def _results_from(client: Any, job: Job, numbers: Sequence[str]) -> Generator[dict[str, Any], None, None]:
    from distributed import as_completed

    with client:
        workers = max(1, sum(client.nthreads().values()))
        # A Dask task costs a trip through the scheduler, several times a pool task's cost:
        # fewer, larger tasks (measured with benchmarks/batch_scaling.py).
        size = chunk_size(len(numbers), workers, tasks_per_worker=4, most=128)
        parts = list(chunks(numbers, size))
        futures = client.map(solve_chunk, [job] * len(parts), parts, pure=False)
        try:
            for future in as_completed(futures):
                try:
                    records = future.result()
                except CancelledError as err:  # as the client does to every task when it loses the scheduler
                    raise SchedulerError(_cancelled(err)) from None
                yield from records
        finally:
            client.cancel(futures)


def _cancelled(err: Exception) -> str:
    text = str(err)
    if "connection" in text and "scheduler" in text:
        return "lost the connection to the Dask scheduler"
    return "Dask cancelled a task: " + (text.strip().splitlines() or ["no reason given"])[0].rstrip(".")

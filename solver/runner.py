"""Running a batch: in this process, in a pool of local processes, or on a Dask cluster.

Each runner yields result records as deals finish (not in game-number order).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import CancelledError
from functools import partial
from typing import Any, Iterator, Sequence

from .batch import Job, chunks, solve_chunk, solve_number
from .errors import MissingExtra, WedlockError


class SchedulerError(WedlockError):
    """The Dask scheduler named on the command line could not be reached, or went away
    while a batch was running."""


def chunk_size(count: int, workers: int, tasks_per_worker: int = 8, most: int = 32) -> int:
    """Deals per task: big enough to hide the cost of a round trip, small enough to share.

    Each worker gets about `tasks_per_worker` tasks, so that a slow deal near the end leaves
    the others something to do, and no task holds more than `most` deals, so that results
    (and the progress bar) keep flowing on long ranges.
    """
    return max(1, min(most, count // (workers * tasks_per_worker) or 1))


def run_local(job: Job, numbers: Sequence[str], jobs: int) -> Iterator[dict[str, Any]]:
    """Solve `numbers` with `jobs` processes (in this process when jobs is 1)."""
    if jobs <= 1:
        for number in numbers:
            yield solve_number(job, number)
        return
    context = multiprocessing.get_context("spawn" if multiprocessing.get_start_method() != "fork" else "fork")
    pool = context.Pool(jobs)
    try:
        work = partial(solve_chunk, job)
        for records in pool.imap_unordered(work, chunks(numbers, chunk_size(len(numbers), jobs))):
            yield from records
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run_dask(job: Job, numbers: Sequence[str], address: str) -> Iterator[dict[str, Any]]:
    """Solve `numbers` on the Dask scheduler at `address`; workers need only this package.

    It connects at once (a SchedulerError if nobody answers), before any result is asked
    for, so that a bad address is reported before a results file is opened."""
    from distributed import Client

    try:
        client = Client(address)
    except (OSError, ValueError, TypeError) as err:  # nobody answers there; not an address
        raise SchedulerError(f"cannot reach a Dask scheduler at {address!r}: {err}") from None
    return _results_from(client, job, numbers)


def _results_from(client: Any, job: Job, numbers: Sequence[str]) -> Iterator[dict[str, Any]]:
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

"""Running a batch: in this process, in a pool of local processes, or on a Dask cluster.

Each runner yields result records as deals finish (not in game-number order).
"""

from __future__ import annotations

import multiprocessing
from functools import partial
from typing import Any, Iterator, Sequence

from .batch import Job, chunks, solve_chunk, solve_number


def chunk_size(count: int, workers: int) -> int:
    """Deals per task: big enough to hide the cost of a round trip, small enough to share."""
    return max(1, min(32, count // (workers * 8) or 1))


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
    """Solve `numbers` on the Dask scheduler at `address`; workers need only this package."""
    from distributed import Client, as_completed

    with Client(address) as client:
        workers = max(1, sum(client.nthreads().values()))
        parts = list(chunks(numbers, chunk_size(len(numbers), workers)))
        futures = client.map(solve_chunk, [job] * len(parts), parts, pure=False)
        try:
            for future in as_completed(futures):
                yield from future.result()
        finally:
            client.cancel(futures)

"""`wedlock batch`: classify a range of game numbers, in parallel, resumably."""

from __future__ import annotations

import math
import os
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from wedlock.basics.errors import CheckpointError, CheckpointNotWritten
from wedlock.basics.printable import printable
from wedlock.basics.words import counted
from wedlock.games.protocol import CHECKPOINT_SECONDS
from wedlock.games.registry import game_named, rules_of
from wedlock.playing.players import PLAYERS
from wedlock.results.batch import Analyze, Job, Players, SchedulerError, check_checkpoints, default_jobs, run_dask, run_local
from wedlock.results.ranges import parse_range
from wedlock.results.records import ResultsWriter, Resume, iter_results, mend, to_resume
from wedlock.search.exhaustive import Limits

from . import stopping
from .common import (
    BAD_INPUT,
    CANNOT_WRITE,
    BadInput,
    CannotWrite,
    Command,
    FilePath,
    FolderPath,
    count_option,
    game_argument,
    input_errors,
    limit_options,
    no_peek_options,
    playouts_option,
    rules_option,
)

# The batch broke off: its results file (or stdout) stopped taking lines, CANNOT_WRITE; or
# the Dask scheduler went away, LOST_SCHEDULER. What the file holds stays good.
LOST_SCHEDULER = 6


@click.command("batch", cls=Command)
@game_argument
@click.argument("range_text", metavar="RANGE")
@rules_option
@click.option("--jobs", type=click.IntRange(min=1, max=4096), default=None, help="Worker processes (default: all cores).")
@click.option("--out", "out_path", type=FilePath(), help="Results file (JSON lines); - or none for stdout.")
@click.option("--resume", is_flag=True, help="Continue the results file: solve only the numbers it lacks.")
@click.option(
    "--retry-unknown",
    is_flag=True,
    help="With --resume: also solve again the numbers the file has as unknown (say, with a longer --time-limit).",
)
@click.option(
    "--retry-version",
    is_flag=True,
    help="With --resume: also solve again the numbers whose lines all come from another version of wedlock.",
)
@click.option("--solutions", is_flag=True, help="Store each win's moves too.")
@click.option("--scheduler", help="Run on the Dask scheduler at this address (e.g. tcp://10.0.0.5:8786).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--analyze", is_flag=True, help="Add each deal's random and greedy players' odds (see analyze).")
@count_option("--analyze-states", 1_000, "With --analyze: exact odds when the state graph has at most this many states.")
@playouts_option("With --analyze: games each player plays out when the graph is bigger.")
@click.option(
    "--player",
    "players",
    multiple=True,
    type=click.Choice([p for p in PLAYERS if p != "perfect"]),
    help="Also play each deal as this player (again for more); perfect play is the verdict.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="With --player: the players' seed (with each game number).")
@no_peek_options("With --player no-peek:")
@click.option(
    "--checkpoints",
    type=FolderPath(),
    help="Matrimony under PySolFC's rules: keep each deal's proof of loss in a checkpoint in this folder "
    "(matrimony-pysol-N.levels), which --resume --retry-unknown goes on from after a stop or kill. "
    "With --scheduler, a folder every worker shares.",
)
@click.option(
    "--checkpoint-every",
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help=f"With --checkpoints: write a proof's checkpoint at the end of a level once this long has passed since the last. "
    f"[default: {CHECKPOINT_SECONDS:g}]",
)
@limit_options(None, held=" With --checkpoints, the proof by levels' own limit: the states it holds at once.")
@input_errors
def batch_command(
    game_name: str,
    range_text: str,
    rules_name: str | None,
    jobs: int | None,
    out_path: str | None,
    resume: bool,
    retry_unknown: bool,
    retry_version: bool,
    solutions: bool,
    scheduler: str | None,
    quiet: bool,
    analyze: bool,
    analyze_states: int,
    playouts: int,
    players: tuple[str, ...],
    seed: int,
    samples: int,
    sample_time: float | None,
    checkpoints: Path | None,
    checkpoint_every: float | None,
    node_limit: int | None,
    time_limit: float | None,
    max_states: int | None,
) -> None:
    """Solve every game number of RANGE and write one JSON line per deal.

    RANGE is A-B (inclusive), a list A,B,C, or @FILE (one of those a line). Lines are
    written as deals finish; a batch stopped at any moment continues with --resume.
    With --retry-unknown, a deal left unknown gets a new line after its old one; from
    then on its decided line is the one that counts (stats, --resume). With
    --retry-version, so does a deal whose lines another version of wedlock wrote.
    With --checkpoints DIR, a deal of PySolFC's Matrimony whose checkpoint is in DIR
    goes on with its proof from there, skipping the quick searches, which found nothing.

    Example: wedlock batch monte-carlo 1-10000 --out mc.jsonl --resume
    """
    game = game_named(game_name)
    rules = rules_of(game, rules_name)
    numbers = parse_range(range_text)
    if scheduler is not None and not scheduler.strip():
        raise BadInput("--scheduler needs an address, like tcp://10.0.0.5:8786")
    if out_path == "-" and resume:
        raise BadInput("--resume reads the results file it continues: give --out FILE, not - (stdout)")
    if out_path == "-":
        out_path = None
    if out_path is None and resume:
        raise BadInput("--resume needs --out FILE")
    for flag, given in (("--retry-unknown", retry_unknown), ("--retry-version", retry_version)):
        if given and not resume:
            raise BadInput(f"{flag} needs --resume and --out FILE")
    shown = printable(out_path or "")
    if out_path and out_path.endswith(".gz"):
        raise BadInput(
            f"{shown}: batch writes plain JSON lines, one at a time; name the file without .gz "
            "and compress it when the batch is done (stats reads .gz files)"
        )
    if out_path and not resume and os.path.exists(out_path) and os.path.getsize(out_path):
        raise BadInput(f"{shown} is not empty; add --resume to continue it, or choose another file")
    if resume and out_path and os.path.exists(out_path) and not os.path.isfile(out_path):
        raise BadInput(f"{shown}: --resume reads and mends its results, so it must be a file, not a pipe or device")
    if checkpoint_every is not None and checkpoints is None:
        raise BadInput("--checkpoint-every needs --checkpoints DIR")
    if checkpoint_every is not None and not math.isfinite(checkpoint_every):
        raise BadInput(f"--checkpoint-every takes seconds, 0 or more; not {checkpoint_every}")
    if checkpoints is not None:
        try:
            check_checkpoints(game.name, rules.name, checkpoints)
        except CheckpointError as err:
            raise BadInput(f"--checkpoints: {err}") from None
    todo = numbers
    counts = {"won": 0, "lost": 0, "unknown": 0}  # of the deals the bar counts as done, the file's too
    if resume and out_path:
        found = to_resume(numbers, iter_results(out_path), game.name, rules.name, retry_unknown, retry_version, where=shown)
        mend(out_path)  # only now that every line has been read
        if found.older:
            click.echo(older_lines(found, shown, retry_version), err=True)
        todo = found.numbers
        counts.update(found.settled)
    playing = Players(tuple(dict.fromkeys(players)), seed, samples, sample_time) if players else None
    job = Job(
        game.name,
        rules.name,
        Limits(node_limit, time_limit, max_states),
        solutions,
        Analyze(analyze_states, playouts) if analyze else None,
        playing,
        checkpoints,
        CHECKPOINT_SECONDS if checkpoint_every is None else checkpoint_every,
    )
    results = run_dask(job, todo, scheduler) if scheduler else run_local(job, todo, jobs or default_jobs())
    with ExitStack() as stack:
        stack.callback(results.close)  # first thing on the way out: the workers end
        stream = sys.stdout
        if out_path:
            try:
                stream = open(out_path, "a", encoding="utf-8")
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as err:
                raise BadInput(f"cannot write '{shown}': {err.strerror}") from None
            except OSError as err:
                raise CannotWrite(f"cannot write '{shown}': {err.strerror}") from None
            stack.callback(_close_quietly, stream)
        writer = ResultsWriter(stream)
        bar: Any = _NoBar()
        if not quiet and sys.stderr is not None:
            from tqdm import tqdm  # loaded only for a bar that is drawn

            bar = stack.enter_context(tqdm(total=len(numbers), initial=len(numbers) - len(todo), unit="deal", file=sys.stderr))
            bar.set_postfix(counts)

        def written() -> str:
            text = f"{counted(writer.lines(out_path if out_path and os.path.isfile(out_path) else None), 'result')} written"
            if out_path and os.path.isfile(out_path):  # not /dev/full and the like, which --resume refuses
                text += "; --resume continues"
            return text

        def broke_off(problem: str, status: int) -> None:
            _close_quietly(bar)
            click.echo(f"Error: {problem}; {written()}.", err=True)
            sys.exit(status)

        try:
            for record in results:
                try:
                    writer.write(record)
                except BrokenPipeError:
                    raise  # nobody reads on: ends quietly (cli/main.py)
                except OSError as err:  # the results file stopped taking lines (a full disk, say)
                    broke_off(f"cannot write {shown or 'stdout'}: {err.strerror}", CANNOT_WRITE)
                counts[record["verdict"]] += 1
                bar.set_postfix(counts, refresh=False)
                bar.update(1)
        except SchedulerError as err:
            broke_off(str(err), LOST_SCHEDULER)
        except CheckpointNotWritten as err:  # a deal's checkpoint could not be written (a full disk, say)
            broke_off(str(err), CANNOT_WRITE)
        except CheckpointError as err:  # a file where a deal's checkpoint goes that is not one, say
            broke_off(str(err), BAD_INPUT)
        except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM or SIGHUP: the workers are ended on the way out
            results.close()
            _close_quietly(bar)
            if stream is not sys.stdout:
                _close_quietly(stream)  # a line the signal caught in the buffer goes out now, before it is counted
            stopping.tell(f"{stopping.word(stop)}: {written()}.")
            sys.exit(stopping.status(stop))


class _NoBar:
    """The bar of a quiet batch: it draws nothing and costs nothing a deal."""

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        pass

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def older_lines(found: Resume, shown: str, retrying: bool) -> str:
    """The line saying how many deals of the file only other versions of wedlock solved."""
    versions = ", ".join(f"{printable(v)} ({n:,})" if len(found.versions) > 1 else printable(v) for v, n in found.versions)
    if sum(n for _, n in found.versions) < found.older:
        versions += " and others"
    then = "solved again now" if retrying else "--retry-version solves them again"
    have = "has" if found.older == 1 else "have"
    return f"{counted(found.older, 'deal')} of {shown} {have} lines only from wedlock {versions} (kept; {then})"


def _close_quietly(stream) -> None:
    """Close the results file, or the progress bar. Every line was flushed as it was
    written, so a close that fails (after a write failed on a full disk, with its line
    still buffered; a bar on a terminal gone with SIGHUP) loses nothing already reported."""
    try:
        stream.close()
    except OSError:
        pass

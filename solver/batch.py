"""Classifying ranges of game numbers: ranges, result records and the results file.

A results file holds one JSON object a line, one line per game number:
`{"game","rules","game_number","verdict","moves","states","seconds","version"}`, where
`moves` is the length of the winning line (0 when not won). An `unknown` line adds its
`reason` (the limit that cut it short); a won line of a game that tries several searches
(Matrimony under PySolFC's rules) adds `found_by`, the one that won. `solution` (the move
list) and `analysis` (`{"complete","states","playouts","random","greedy","seconds"}`: the
random and greedy players' odds of winning as `{"value","low","high"}`, exact when the
state graph is complete, else estimated from `playouts` games) are added on request. Lines
are appended as deals finish, each with a single write, so a killed batch leaves at worst
one torn last line, which `read_results` tells from a bad one and cuts off.
"""

from __future__ import annotations

import gzip
import json
import os
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from . import __version__, analysis, playouts
from .errors import WedlockError
from .game import rules_of
from .games import game_named
from .input_files import read_bytes, read_text, why_unreadable
from .numbering import GameNumber
from .search import Limits

RECORD_KEYS = ("game", "rules", "game_number", "verdict", "moves", "states", "seconds", "version")
VERDICTS = ("won", "lost", "unknown")
_KEY_SET = frozenset(RECORD_KEYS)


class RangeError(WedlockError):
    """A RANGE argument could not be read."""


class ResultsFileError(WedlockError):
    """A results file holds a line that is not a result record."""


MOST_DEALS = 10_000_000  # a batch holds its numbers and its file's records in memory


def parse_range(text: str) -> list[str]:
    """Game numbers from `A-B` (inclusive), `A,B,C`, or `@FILE` (a number, range or list a
    line), in order, each once."""
    numbers = _numbers_of(text.strip())
    if not numbers:
        raise RangeError(f"{text.strip()!r} holds no game number")
    return numbers


def _numbers_of(text: str) -> list[str]:
    if text.startswith("@"):
        path = text[1:]
        try:
            lines = read_text(path).splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise RangeError(f"cannot read {path!r}: {why_unreadable(err)}") from None
        numbers = []
        for n, line in enumerate(lines, 1):
            item = line.split("#", 1)[0].strip()
            if item.startswith("@"):
                raise RangeError(f"{path} line {n}: a file of numbers cannot name another")
            if item:
                try:
                    numbers += _numbers_of(item)
                except WedlockError as err:
                    raise RangeError(f"{path} line {n}: {err}") from None
            if len(numbers) > MOST_DEALS:
                raise RangeError(f"{path}: more than {MOST_DEALS:,} deals in one run; split it (--resume continues a file)")
        return _unique(numbers)
    if "," in text:
        return _unique([_number(item, "the list") for item in text.split(",")])
    first, dash, last = text.partition("-")
    if not dash:
        return [_number(text, "the range")]
    forms = {part.strip().lower().startswith("ms") for part in (first, last)}
    if "-" in last or len(forms) != 1:
        raise RangeError(f"bad range {text!r}: write A-B (both plain numbers or both msN)")
    a, b = (GameNumber.parse(part) for part in (first, last))
    if a.seed > b.seed:
        raise RangeError(f"bad range {text!r}: write A-B with A <= B")
    if b.seed - a.seed >= MOST_DEALS:
        raise RangeError(f"bad range {text!r}: more than {MOST_DEALS:,} deals in one run; split it (--resume continues a file)")
    if forms == {True}:
        return [str(GameNumber(n, True)) for n in range(a.seed, b.seed + 1)]
    return [str(n) for n in range(a.seed, b.seed + 1)]


def _number(text: str, where: str) -> str:
    try:
        return str(GameNumber.parse(text))
    except WedlockError as err:
        raise RangeError(f"{where}: {err}") from None


def _unique(numbers: list[str]) -> list[str]:
    return list(dict.fromkeys(numbers))


@dataclass(frozen=True)
class Analyze:
    """How `batch --analyze` gets each deal's luck figures."""

    max_states: int  # the state graph's limit: exact figures when it fits
    playouts: int  # games played out per player when it does not


@dataclass(frozen=True)
class Job:
    """What every deal of a batch shares."""

    game: str
    rules: str
    limits: Limits
    solutions: bool = False
    analyze: Analyze | None = None  # when the batch analyses each deal


def solve_number(job: Job, number: str) -> dict[str, Any]:
    """Deal and solve one game number; the result record. Every win is replayed by the
    game's independent referee first."""
    game = game_named(job.game)
    rules = rules_of(game, job.rules)
    cards = game.numbered_deal(rules, number)
    solution = game.solve(rules, cards, job.limits)
    if solution.verdict == "won":
        replay = game.referee(rules, cards, solution.moves)
        if not replay.won:  # a solver bug: never publish a win the referee rejects
            raise RuntimeError(f"game {number}: the referee rejects the solver's line: {replay.problem}")
    record: dict[str, Any] = {
        "game": game.name,
        "rules": rules.name,
        "game_number": number,
        "verdict": solution.verdict,
        "moves": len(solution.moves),
        "states": solution.states,
        "seconds": round(solution.seconds, 4),
        "version": __version__,
    }
    if solution.found_by:  # set on wins only, as `solve --json` reads it
        record["found_by"] = solution.found_by
    if solution.verdict == "unknown":
        record["reason"] = solution.reason
    if job.solutions and solution.verdict == "won":
        record["solution"] = [game.move_json(m) for m in solution.moves]
    if job.analyze is not None:
        record["analysis"] = analyse(game, rules, cards, job.analyze, solution.verdict, number)
    return record


def analyse(game: Any, rules: Any, cards: Sequence[Any], analyze: Analyze, verdict: str, number: str) -> dict[str, Any]:
    """The luck figures of one deal for a results line.

    Exact when the state graph fits in `analyze.max_states` (and then it must agree with
    the solver's verdict); otherwise estimated from playouts, each player's interval being
    the Wilson 95% interval of its playouts within the bounds the cut graph proves.
    """
    started = time.perf_counter()
    play = game.player(rules, cards)
    graph = analysis.build(play, analyze.max_states)
    fig = analysis.figures(play, graph)
    if fig.complete and verdict != "unknown" and fig.can_win[graph.start] != (verdict == "won"):
        raise RuntimeError(f"game {number}: the state graph and the solver disagree on whether it can be won")
    out: dict[str, Any] = {"complete": fig.complete, "states": fig.states, "playouts": 0}
    for who, (low, high) in (("random", fig.random), ("greedy", fig.greedy)):
        if fig.complete:
            out[who] = {"value": float(low), "low": float(low), "high": float(high)}
            continue
        seed = f"{game.name}/{rules.name}/{number}"
        out[who] = playouts.estimate(play, (low, high), analyze.playouts, seed, who == "greedy")
        out["playouts"] = analyze.playouts
    out["seconds"] = round(time.perf_counter() - started, 4)
    return out


def solve_chunk(job: Job, numbers: Sequence[str]) -> list[dict[str, Any]]:
    """Solve several game numbers in one worker call (fewer round trips for fast deals)."""
    return [solve_number(job, n) for n in numbers]


def chunks(numbers: Sequence[str], size: int) -> Iterator[list[str]]:
    for i in range(0, len(numbers), size):
        yield list(numbers[i : i + size])


def check_record(obj: Any, where: str) -> dict[str, Any]:
    """The record, its game number in the form batch writes it (`ms1` is game 1), or a
    ResultsFileError saying what is wrong with it."""
    if not isinstance(obj, dict) or not obj.keys() >= _KEY_SET:
        raise ResultsFileError(f"{where}: not a wedlock result (needs {', '.join(RECORD_KEYS)})")
    if not (type(obj["game"]) is type(obj["rules"]) is type(obj["game_number"]) is type(obj["version"]) is str):
        raise ResultsFileError(f"{where}: game, rules, game_number and version must be text")
    if not isinstance(obj["verdict"], str) or obj["verdict"] not in VERDICTS:
        raise ResultsFileError(f"{where}: unknown verdict {obj['verdict']!r}")
    if not (_is_count(obj["moves"]) and _is_count(obj["states"]) and _is_amount(obj["seconds"])):
        raise ResultsFileError(f"{where}: moves and states must be whole numbers and seconds a number, none below 0")
    if "analysis" in obj and not _is_analysis(obj["analysis"]):
        raise ResultsFileError(
            f"{where}: analysis must hold playouts, and random and greedy as {{low, value, high}} in order within 0..1"
        )
    number = obj["game_number"]
    if number.isdigit() and number.isascii() and number[0] != "0":
        return obj  # as batch writes a plain number: the common case, and a quick one
    try:
        number = str(GameNumber.parse(number))
    except WedlockError as err:
        raise ResultsFileError(f"{where}: {err}") from None
    return obj if number == obj["game_number"] else {**obj, "game_number": number}


COUNT_MOST = 10**15  # beyond any count a run makes, and still exact as a float


def _is_count(x: Any) -> bool:
    return type(x) is int and 0 <= x <= COUNT_MOST


def _is_amount(x: Any) -> bool:
    return type(x) in (int, float) and 0 <= x <= COUNT_MOST  # False for NaN too


def _is_analysis(obj: Any) -> bool:
    def odds(x: Any) -> bool:
        numbers = [x.get(k) for k in ("low", "value", "high")] if isinstance(x, dict) else []
        return len(numbers) == 3 and all(_is_amount(n) for n in numbers) and 0 <= numbers[0] <= numbers[1] <= numbers[2] <= 1

    return isinstance(obj, dict) and odds(obj.get("random")) and odds(obj.get("greedy")) and _is_count(obj.get("playouts"))


def read_results(path: str | Path, repair: bool = False) -> list[dict[str, Any]]:
    """The records of a results file (gzip-compressed when its name ends in .gz); none
    when there is no such file. Any bad line is a ResultsFileError, except the last when it
    has no newline: that is what a batch killed in mid-write leaves (`torn`). Torn, it is
    dropped; whole, it counts. With `repair` the file is then mended, the torn line cut
    off or the whole one given its newline, but only once every line has been read."""
    path = Path(path)
    try:
        data = gzip.decompress(read_bytes(path)) if path.suffix == ".gz" else read_bytes(path)
    except FileNotFoundError:
        return []
    except (gzip.BadGzipFile, EOFError, zlib.error):
        raise ResultsFileError(f"{path}: not a readable gzip file") from None
    except OSError as err:
        raise ResultsFileError(f"cannot read {str(path)!r}: {err.strerror}") from None
    lines = data.split(b"\n")  # the last item is what follows the last newline
    records = []
    for n, raw in enumerate(lines[:-1], 1):
        if raw.strip():
            records.append(_record(raw, f"{path}: line {n}"))
    tail = lines[-1]
    if tail.strip():
        whole = not torn(tail)
        if whole:
            records.append(_record(tail, f"{path}: line {len(lines)}"))
        if repair and path.suffix != ".gz":
            with open(path, "r+b") as f:
                if whole:
                    f.seek(0, os.SEEK_END)
                    f.write(b"\n")
                else:
                    f.truncate(len(data) - len(tail))
    return records


LINE_START = b'{"game": "'  # how every line ResultsWriter writes begins


def torn(tail: bytes) -> bool:
    """Whether a last line without its newline is a record cut off while it was written:
    the start of a line as batch writes it, but not whole JSON."""
    if not (tail.startswith(LINE_START) or LINE_START.startswith(tail)):
        return False
    try:
        json.loads(tail)
    except (ValueError, RecursionError):
        return True
    return False


def _record(raw: bytes, where: str) -> dict[str, Any]:
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):  # bad JSON or bad UTF-8, or JSON too deep or long to read
        raise ResultsFileError(f"{where} is not JSON") from None
    return check_record(obj, where)


class ResultsWriter:
    """Appends records to a file (or a stream), one whole line per write."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, record: dict[str, Any]) -> None:
        self.stream.write(json.dumps(record) + "\n")
        self.stream.flush()


def merge_records(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per deal (game, rule set, game number), in the order deals first appear:
    a decided one (won or lost) rather than an unknown one, and of two unknown ones the
    later (`batch --retry-unknown` appends a deal's new line after its old one). Two
    decided records that disagree are a ResultsFileError."""
    merged: dict[tuple[str, str, str], dict[str, Any]] = {}
    for record in records:
        key = (record["game"], record["rules"], record["game_number"])
        before = merged.get(key)
        if before is None or before["verdict"] == "unknown":
            merged[key] = record
        elif record["verdict"] not in ("unknown", before["verdict"]):
            raise ResultsFileError(f"{key[0]} ({key[1]}) game {key[2]} is {before['verdict']} in one line and {record['verdict']} in another")
    return list(merged.values())


def pending_numbers(
    numbers: Iterable[str], done: Iterable[dict[str, Any]], game: str, rules: str, retry_unknown: bool = False
) -> list[str]:
    """The numbers of `numbers` with no record yet for this game and rule set; with
    `retry_unknown`, also those whose record (`merge_records`) is unknown."""
    settled = {
        r["game_number"]
        for r in merge_records(done)
        if r["game"] == game and r["rules"] == rules and not (retry_unknown and r["verdict"] == "unknown")
    }
    return [n for n in numbers if n not in settled]


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)

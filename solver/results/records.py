"""Results files: one JSON record a line, one line a deal, as `wedlock batch` writes them.

A record is `{"game","rules","game_number","verdict","moves","states","seconds","version"}`,
where `moves` is the length of the winning line (0 when not won). An `unknown` line adds
its `reason` (the limit that cut it short); a won line of a game that tries several
searches (Matrimony under PySolFC's rules) adds `found_by`, the one that won. `solution`
(the moves) and `analysis` (`{"complete","states","playouts","random","greedy","seconds"}`:
the random and greedy players' odds of winning as `{"value","low","high"}`, exact when the
state graph is complete, else estimated from `playouts` games) and `players` (each
player's game of the deal: `{"no-peek": {"won","moves","seconds"}, ...}`) are added on
request.

Lines are appended as deals finish, each with a single write, so a killed batch leaves at
worst one torn last line, which the reader tells from a bad one and drops.

A deal may have several lines (a retry of an `unknown` one, or the same deal in two
files). One counts: a decided one (won or lost) rather than an unknown one, then the one
of the longer search (more seconds, then more states). That choice depends on the lines
only, never on their order, so the same files in any order give the same counts. Two
decided lines that disagree are an error.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..basics.errors import WedlockError
from ..basics.input_files import MOST_RESULTS_LINE, open_file
from ..basics.numbering import GameNumber
from ..basics.printable import printable
from ..basics.version import __version__
from ..games.registry import GAMES
from ..playing.players import PLAYERS

RECORD_KEYS = ("game", "rules", "game_number", "verdict", "moves", "states", "seconds", "version")
VERDICTS = ("won", "lost", "unknown")
_KEY_SET = frozenset(RECORD_KEYS)
LINE_START = b'{"game": "'  # how every line ResultsWriter writes begins
BOM = b"\xef\xbb\xbf"  # UTF-8's byte-order mark, which some editors put before the first line
BLOCK = 65536  # bytes read at a time where a file is read past or from its end
COUNT_MOST = 10**15  # beyond any count a run makes, and still exact as a float
GAME_PLAYERS = tuple(p for p in PLAYERS if p != "perfect")  # who may play in a line's `players`

Deal = tuple[str, str, str]  # (game, rules, game number): what a record is about


class ResultsFileError(WedlockError):
    """A results file holds a line that is not a result record, or contradicts itself."""


def check_record(obj: Any, where: str) -> dict[str, Any]:
    """The record, its game number in the form batch writes it (`ms1` is game 1), or a
    ResultsFileError saying what is wrong with it."""
    if not isinstance(obj, dict) or not obj.keys() >= _KEY_SET:
        raise ResultsFileError(f"{where}: not a wedlock result (needs {', '.join(RECORD_KEYS)})")
    if not (type(obj["game"]) is type(obj["rules"]) is type(obj["game_number"]) is type(obj["version"]) is str):
        raise ResultsFileError(f"{where}: game, rules, game_number and version must be text")
    game = GAMES.get(obj["game"])
    if game is None:
        raise ResultsFileError(f"{where}: unknown game {_shown(obj['game'])}; results are of {', '.join(GAMES)}")
    if obj["rules"] not in game.rule_sets:
        raise ResultsFileError(f"{where}: {game.name} has no rule set {_shown(obj['rules'])}; it has {', '.join(game.rule_sets)}")
    if not isinstance(obj["verdict"], str) or obj["verdict"] not in VERDICTS:
        raise ResultsFileError(f"{where}: unknown verdict {obj['verdict']!r}")
    if not (_is_count(obj["moves"]) and _is_count(obj["states"]) and _is_amount(obj["seconds"])):
        raise ResultsFileError(f"{where}: moves and states must be whole numbers and seconds a number, none below 0")
    if "players" in obj and not _are_games(obj["players"]):
        raise ResultsFileError(f"{where}: players must map each of {', '.join(GAME_PLAYERS)} that played to {{won, moves, seconds}}")
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


def _shown(name: str) -> str:
    """A name from a file, as an error line quotes it: escaped, and cut when long."""
    return repr(name) if len(name) <= 40 else repr(name[:30] + "...")


def _is_count(x: Any) -> bool:
    return type(x) is int and 0 <= x <= COUNT_MOST


def _is_amount(x: Any) -> bool:
    return type(x) in (int, float) and 0 <= x <= COUNT_MOST  # False for NaN too


def _are_games(obj: Any) -> bool:
    """Whether `players` is {name: {"won": bool, "moves": count, "seconds": amount}}."""
    return isinstance(obj, dict) and all(
        name in GAME_PLAYERS and isinstance(g, dict) and type(g.get("won")) is bool and _is_count(g.get("moves")) and _is_amount(g.get("seconds"))
        for name, g in obj.items()
    )


def _is_analysis(obj: Any) -> bool:
    def odds(x: Any) -> bool:
        numbers: list[Any] = [x.get(k) for k in ("low", "value", "high")] if isinstance(x, dict) else []
        return len(numbers) == 3 and all(_is_amount(n) for n in numbers) and 0 <= numbers[0] <= numbers[1] <= numbers[2] <= 1

    return isinstance(obj, dict) and odds(obj.get("random")) and odds(obj.get("greedy")) and _is_count(obj.get("playouts"))


def iter_results(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a results file (gzip-compressed when its name ends in .gz), one at a
    time (see `read_records`); none when there is no such file."""
    path = Path(path)
    name = printable(str(path))
    try:
        raw = open_file(path)
    except FileNotFoundError:
        return
    except OSError as err:
        raise ResultsFileError(f"cannot read '{name}': {err.strerror}") from None
    with raw:
        yield from read_records(gzip.GzipFile(fileobj=raw) if path.suffix == ".gz" else raw, name)


def read_records(stream: IO[bytes] | gzip.GzipFile, name: str) -> Iterator[dict[str, Any]]:
    """The records of a results stream, one at a time, so that a file of any length is
    read in little memory; `name` says where in error lines. Any bad line is a
    ResultsFileError, except the last when it has no newline: that is what a batch killed
    in mid-write leaves (`torn`), and it is dropped; a whole one counts. A byte-order mark
    before the first line is dropped, and so are the zero bytes a crash can leave at the
    end of a file (see `_lines`)."""
    try:
        for n, line, whole in _lines(stream, name):
            if line.strip() and (whole or not torn(line)):
                yield _record(line, f"{name}: line {n}")
    except (gzip.BadGzipFile, EOFError, zlib.error):
        raise ResultsFileError(f"{name}: not a readable gzip file") from None
    except OSError as err:
        raise ResultsFileError(f"cannot read '{name}': {err.strerror}") from None


def _lines(stream: IO[bytes] | gzip.GzipFile, name: str) -> Iterator[tuple[int, bytes, bool]]:
    """Each line of a results stream: its number, its bytes, and whether its newline ends
    it (only the last line may lack one). A crash can leave a file extended with zero
    bytes, so a last line's trailing zero bytes are dropped, however many there are. A
    line longer than MOST_RESULTS_LINE is a ResultsFileError, never held whole."""
    n = 0
    while line := stream.readline(MOST_RESULTS_LINE + 1):
        n += 1
        if n == 1 and line.startswith(BOM):
            line = line[len(BOM) :]
        if line.endswith(b"\n"):
            yield n, line, True
        elif len(line) <= MOST_RESULTS_LINE:
            yield n, line.rstrip(b"\0"), False
        elif line.endswith(b"\0") and _only_zeros_follow(stream):
            start = line.rstrip(b"\0")
            if len(start) > MOST_RESULTS_LINE:
                raise ResultsFileError(_too_long(name, n))
            yield n, start, False
        else:
            raise ResultsFileError(_too_long(name, n))


def _only_zeros_follow(stream: IO[bytes] | gzip.GzipFile) -> bool:
    """Whether the rest of the stream is zero bytes, read a block at a time."""
    while block := stream.read(BLOCK):
        if block.strip(b"\0"):
            return False
    return True


def _too_long(name: str, n: int) -> str:
    return f"{name}: line {n} is longer than {MOST_RESULTS_LINE:,} bytes, which no batch writes"


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """Every record of a results file (see `iter_results`)."""
    return list(iter_results(path))


def mend(path: str | Path) -> None:
    """Make a plain results file end with a whole line: zero bytes a crash left at its end
    and a torn last line are cut off, a whole last line without its newline gets it. Call
    it only once every line has been read (`iter_results`), so that a file with a bad line
    is left as it is."""
    path = Path(path)
    if path.suffix == ".gz" or not path.is_file():
        return
    with open(path, "r+b") as f:
        size = f.seek(0, os.SEEK_END)
        end = _before_zeros(f, size)
        start = _line_start(f, end)
        if end - start > MOST_RESULTS_LINE + len(BOM):
            return  # a line iter_results refuses
        f.seek(start)
        tail = f.read(end - start)
        line = tail[len(BOM) :] if start == 0 and tail.startswith(BOM) else tail
        if torn(line):
            end = start
        f.truncate(end)
        if line.strip() and not torn(line):
            f.seek(0, os.SEEK_END)
            f.write(b"\n")


def _before_zeros(f: IO[bytes], end: int) -> int:
    """Where the run of zero bytes that ends a file at `end` starts (`end` when none)."""
    while end > 0:
        start = max(0, end - BLOCK)
        f.seek(start)
        kept = f.read(end - start).rstrip(b"\0")
        if kept:
            return start + len(kept)
        end = start
    return 0


def _line_start(f: IO[bytes], end: int) -> int:
    """Where the line that ends at `end` starts: after the last newline before it."""
    stop = end
    while stop > 0:
        start = max(0, stop - BLOCK)
        f.seek(start)
        cut = f.read(stop - start).rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        stop = start
    return 0


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


_decode = json.JSONDecoder().decode


def _record(raw: bytes, where: str) -> dict[str, Any]:
    try:
        obj = _decode(raw.decode())
    except (ValueError, RecursionError):  # bad JSON or bad UTF-8, or JSON too deep or long to read
        raise ResultsFileError(f"{where} is not JSON") from None
    return check_record(obj, where)


class ResultsWriter:
    """Appends records to a file (or a stream), one whole line per write, and knows how many
    it wrote, even when a signal stops it in the middle of one (`lines`)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        # (lines written, the line being written or None): each change is one assignment,
        # so a signal's handler sees the one or the other, never half of a change.
        self.state: tuple[int, str | None] = (0, None)

    def write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record) + "\n"
        done = self.state[0]
        self.state = (done, line)
        self.stream.write(line)
        self.stream.flush()
        self.state = (done + 1, None)

    def lines(self, path: str | None = None) -> int:
        """The lines written: with a line caught in the middle, it counts when the file at
        `path` ends with it (a stream that is no file counts it out)."""
        done, line = self.state
        if line is None or path is None:
            return done
        data = line.encode("utf-8")
        try:
            with open(path, "rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                if size < len(data):
                    return done
                f.seek(size - len(data))
                return done + (f.read() == data)
        except OSError:
            return done


def preference(record: dict[str, Any]) -> tuple[bool, float, int, int, tuple, tuple]:
    """How much a deal's record counts against another of the same deal (the highest
    counts): decided first, then the longer search; the rest only makes the choice the
    same whatever order the lines come in. The last two items are the analysis, when there
    is one (each player's (low, value, high), then the playouts), and the players' games,
    when there are any ((player, won) pairs)."""
    analysed = record.get("analysis")
    luck: tuple = ()
    if isinstance(analysed, dict):
        r, g = analysed["random"], analysed["greedy"]
        luck = (r["low"], r["value"], r["high"], g["low"], g["value"], g["high"], analysed["playouts"])
    games = tuple(sorted((name, g["won"]) for name, g in record.get("players", {}).items()))
    return (record["verdict"] != "unknown", record["seconds"], record["states"], record["moves"], luck, games)


def conflict(deal: Deal) -> ResultsFileError:
    """The error for a deal decided both ways."""
    return ResultsFileError(f"{deal[0]} ({deal[1]}) game {deal[2]} is won in one line and lost in another")


SHOWN_VERSIONS = 3  # the other versions a resume names, most deals first


@dataclass(frozen=True)
class Resume:
    """What `batch --resume` makes of its results file: the numbers still to solve, the
    verdicts of those it already settles, and the deals whose lines all come from other
    versions of wedlock (kept as they are)."""

    numbers: list[str]
    older: int = 0  # deals of the file with no line from this version
    versions: tuple[tuple[str, int], ...] = ()  # (version, deals) of the most common of those
    settled: dict[str, int] = field(default_factory=dict)  # won, lost, unknown: how many of the others


def to_resume(
    numbers: Iterable[str],
    done: Iterable[dict[str, Any]],
    game: str,
    rules: str,
    retry_unknown: bool = False,
    retry_version: bool = False,
    version: str = __version__,
    where: str = "the file",
) -> Resume:
    """The numbers of `numbers` with no record yet; with `retry_unknown`, also those whose
    record is unknown; with `retry_version`, also those with no record from `version`;
    and how many of the others the file has won, lost and unknown.
    A record of another game or rule set, or two decided records of one deal that
    disagree, are a ResultsFileError: a resumed file holds one game and rule set."""
    verdicts: dict[str, str] = {}
    current: set[str] = set()
    older: dict[str, str] = {}  # number -> a version other than `version` that wrote it
    seen_versions: dict[str, str] = {}  # one string object a version
    for r in done:
        if r["game"] != game or r["rules"] != rules:
            raise ResultsFileError(
                f"{where} holds results of {r['game']} ({r['rules']}), not of {game} ({rules}); "
                "--resume continues a file of one game and rule set: give another --out"
            )
        number, verdict = r["game_number"], r["verdict"]
        if r["version"] == version:
            current.add(number)
        else:
            older.setdefault(number, seen_versions.setdefault(r["version"], r["version"]))
        before = verdicts.get(number)
        if before is None or before == "unknown":
            verdicts[number] = verdict
        elif verdict not in ("unknown", before):
            raise conflict((game, rules, number))
    stale = Counter(v for n, v in older.items() if n not in current)
    settled = {n for n, v in verdicts.items() if not (retry_unknown and v == "unknown") and not (retry_version and n not in current)}
    todo: list[str] = []
    kept = {"won": 0, "lost": 0, "unknown": 0}
    for n in numbers:
        if n in settled:
            kept[verdicts[n]] += 1
        else:
            todo.append(n)
    return Resume(todo, stale.total(), tuple(stale.most_common(SHOWN_VERSIONS)), kept)

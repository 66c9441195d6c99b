"""The results files of data/, as the table scripts read them.

A file is named GAME-RULES-A-B.jsonl.gz, or GAME-RULES-luck-A-B.jsonl.gz for `batch
--analyze` output; the name gives the range its command covered.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wedlock.batch import merge_records, read_results  # noqa: E402
from wedlock.stats import Summary, summarize  # noqa: E402


# The files whose unknown deals were then solved again with longer limits (--retry-unknown),
# in the order they ran: the options, or (the options, the game numbers given as RANGE
# instead of the file's range).
RETRY_LIMITS: dict[str, tuple[str | tuple[str, str], ...]] = {
    "matrimony-pysol-1-1000": (
        " --time-limit 30",
        " --time-limit 180",
        " --time-limit 300",
        (" --time-limit 600", "100,318,497,754,803"),
        (" --time-limit 900", "15,48,102,107,137,211,319,364,394,407,439,473,484,763,811"),
        ("", "763,211,439,15,48,102"),  # the default limits: session 11 ran these six of the 15
        ("", "137,107"),  # and session 12 these two (from the RANGE of the other nine)
        ("", "319,364"),  # and session 13 these two (from the RANGE of the other seven)
        ("", "407"),  # and session 14 these (from the RANGE of the last five)
        ("", "394,473,484,811"),  # and session 15 the last four
        ("", "137,102,107,319,364,394,473,484,811"),  # then the nine left, with the 256-wide finishing beam
    ),
    "matrimony-pysol-luck-1-300": (" --time-limit 10", " --time-limit 30", " --time-limit 300"),
}


def retries(path: Path) -> str:
    """The retries that followed a file's first command, as the tables print them."""
    text = ""
    for retry in RETRY_LIMITS.get(path.name.split(".")[0], ()):
        if isinstance(retry, str):
            text += f", then the same with `--retry-unknown{retry}`"
        else:
            options, numbers = retry
            text += f", then the same with RANGE `{numbers}` and `--retry-unknown{options}`"
    return text


def summaries(names: list[str], luck: bool) -> Iterator[tuple[Path, int, int, Summary]]:
    """(path, first game, last game, summary) for each file of the kind asked for; a name of
    another kind stops the script with one line, except luck files where plain ones are
    asked for (data/*.jsonl.gz holds both), which are skipped."""
    infix = "-luck" if luck else ""
    name = re.compile(rf"(?P<game>[a-z-]+?)-(?P<rules>[a-z0-9]+){infix}-(?P<a>\d+)-(?P<b>\d+)\.jsonl(\.gz)?$")
    for text in names:
        path = Path(text)
        if not luck and "-luck-" in path.name:
            continue
        match = name.match(path.name)
        if not match:
            raise SystemExit(f"{path.name}: expected GAME-RULES{infix}-A-B.jsonl.gz")
        (summary,) = summarize(merge_records(read_results(path)))
        yield path, int(match["a"]), int(match["b"]), summary

"""How much memory the process holds and may hold: the bound `analyze` keeps its state
graph within, and sizes as people write them (`6G`, `512 MB`)."""

from __future__ import annotations

import math
import os
import re

from .errors import LimitError

UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE)


def resident() -> int:
    """The bytes of memory the process holds now (0 where the system does not say)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read(200).split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def physical() -> int:
    """The machine's memory in bytes (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return 0


def default_bound() -> int | None:
    """A quarter of the machine's memory; None where the system does not say how much."""
    return physical() // 4 or None


def parse_size(text: str) -> int:
    """Bytes from `6G`, `6 GB`, `512M`, `1.5g` or a plain number of bytes (binary units)."""
    match = _SIZE.fullmatch(text.strip()) if len(text) <= 40 else None
    if match is None:
        raise LimitError(f"{text[:40]!r} is not a size; write it like 6G, 512M or 2.5GB")
    value = float(match.group(1)) * UNITS[match.group(2).lower()]
    if not math.isfinite(value) or value < 1 or value >= 2**63:
        raise LimitError(f"{text!r} is not a size from 1 byte to 8 EB")
    return int(value)


def size_text(count: int) -> str:
    """`6.0 GB`, `512 MB`, `730 KB`: a size as a person reads it (binary units)."""
    for unit, scale in (("TB", 2**40), ("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= scale:
            value = count / scale
            return f"{value:.1f} {unit}" if value < 10 else f"{value:,.0f} {unit}"
    return f"{count:,} bytes"

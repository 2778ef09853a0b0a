"""What several benches count the same way: percentiles, awaits timed, and tracebacks in the
log; and the names they seat at their tables."""
from __future__ import annotations

import logging
import pathlib
import time


def names(table: str) -> list[str]:
    """The names of ``table`` in bench/names.txt (people's names are data, as a group has them)."""
    for line in (pathlib.Path(__file__).with_name("names.txt")).read_text(encoding="utf-8").splitlines():
        key, _, listed = line.partition(":")
        if not line.startswith("#") and key.strip() == table:
            return [name.strip() for name in listed.split(",")]
    raise KeyError(table)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0.5, 0.99) of ``values``; NaN when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def timed(make, runs: int = 50) -> list[float]:
    """The milliseconds of ``runs`` awaits of ``make()``, in order."""
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        await make()
        out.append((time.perf_counter() - started) * 1000)
    return out


class TracebackCounter(logging.Handler):
    """Counts the errors logged with a traceback while it is attached to a logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.tracebacks = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or "Traceback" in record.getMessage():
            self.tracebacks += 1

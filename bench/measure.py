"""What several benches count the same way: percentiles and tracebacks in the log."""
from __future__ import annotations

import logging


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0.5, 0.99) of ``values``; NaN when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class TracebackCounter(logging.Handler):
    """Counts the errors logged with a traceback while it is attached to a logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.tracebacks = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or "Traceback" in record.getMessage():
            self.tracebacks += 1

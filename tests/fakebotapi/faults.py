"""Fault mode: a share of the bot's requests fail the way Telegram and networks fail.

The plan is drawn per request from its own seeded generator (apart from the world's, so turning
faults on changes no query id or dice value). For one sequence of requests the same seed gives
the same faults; a bot that sends from several tasks at once may order its requests differently
from run to run, which then moves the faults between requests.

What each kind looks like on the wire, and to python-telegram-bot:

- "429": ``{"ok": false, "error_code": 429, "description": "Too Many Requests: retry after N",
  "parameters": {"retry_after": N}}`` -> telegram.error.RetryAfter. The call is not performed,
  and later writes to the same chat within N seconds get 429 as well (like Telegram).
- "500": ``{"ok": false, "error_code": 500, "description": "Internal Server Error"}`` ->
  telegram.error.NetworkError("Internal Server Error"). Not performed.
- "slow": performed, then answered after ``slow_seconds`` (longer than PTB's default 5 s read
  timeout) -> telegram.error.TimedOut; the effect exists although the bot saw an error.
- "drop": the connection is closed without an answer -> telegram.error.NetworkError
  ("httpx.RemoteProtocolError: Server disconnected without sending a response."). Half of the
  drops happen after the call was performed, half before ("drop_after" / "drop_before" pick
  one); ``Fault.applied`` says which.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["FaultPlan", "FAULT_KINDS", "draw_fault"]

FAULT_KINDS = ("429", "500", "slow", "drop", "drop_before", "drop_after")
DEFAULT_KINDS = ("429", "500", "slow", "drop")


@dataclass(frozen=True)
class FaultPlan:
    """Which requests may fail, how often, and how."""

    rate: float
    kinds: tuple[str, ...] = DEFAULT_KINDS
    methods: frozenset[str] | None = None  # canonical names; None: every method not excluded
    exclude: frozenset[str] = frozenset({"getUpdates"})
    retry_after: int = 1
    slow_seconds: float = 6.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0:
            raise ValueError("rate is a share between 0 and 1")
        unknown = set(self.kinds) - set(FAULT_KINDS)
        if unknown or not self.kinds:
            raise ValueError(f"fault kinds are some of {FAULT_KINDS}, not {sorted(unknown)}")
        if self.retry_after < 1:
            raise ValueError("retry_after is a whole number of seconds, at least 1")

    def covers(self, method: str) -> bool:
        if method in self.exclude:
            return False
        return self.methods is None or method in self.methods


def draw_fault(plan: FaultPlan, rng: random.Random, method: str) -> str | None:
    """None, or one of "429", "500", "slow", "drop_before", "drop_after" for this request.

    Always draws three numbers for a covered request, so one request's outcome never shifts
    the draws of the next ones."""
    if not plan.covers(method):
        return None
    hit, pick, coin = rng.random(), rng.random(), rng.random()
    if hit >= plan.rate:
        return None
    kind = plan.kinds[int(pick * len(plan.kinds))]
    if kind == "drop":
        return "drop_after" if coin < 0.5 else "drop_before"
    return kind

"""What one call to Telegram came to (``Result``), and whether a failed one may have reached it."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import aiohttp
from telegram import Message
from telegram.error import NetworkError, TimedOut


class Result(enum.Enum):
    OK = "ok"
    NOT_MODIFIED = "not_modified"
    MISSING = "missing"
    FORBIDDEN = "forbidden"
    MIGRATED = "migrated"
    FAILED = "failed"
    UNSURE = "unsure"  # a new message may or may not have been posted
    DROPPED = "dropped"  # no longer wanted by the time it could go out (not sent)


@dataclass
class Sent:
    result: Result
    message: Message | None = None

    @property
    def ok(self) -> bool:
        return self.result in (Result.OK, Result.NOT_MODIFIED)


def seconds_of(value: Any) -> float:
    """A 429's retry_after, as python-telegram-bot gives it (seconds or a timedelta), in seconds."""
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)


def surely_not_delivered(exc: NetworkError) -> bool:
    """The request never reached Telegram (connection refused, pool full), or Telegram answered
    with an error status (5xx, 502) and did nothing: safe to make again even for a new message."""
    cause = exc.__cause__
    if isinstance(cause, (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError)):
        return True
    return not isinstance(exc, TimedOut) and not isinstance(cause, aiohttp.ClientError)

"""What one call to Telegram came to (``Result``), and whether a failed one may have reached it."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import aiohttp
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


@dataclass(frozen=True)
class Posted:
    """What the bot keeps of a message Telegram posted or edited: its id, and the file_id of its
    picture (a photo's largest size) or animation, for sending the same again without an upload.
    Read from Telegram's answer as it came (``Posted.of``): python-telegram-bot's ``Message`` of
    it took a millisecond each, a tenth of the bot's time under a thousand busy groups."""
    message_id: int
    file_id: str | None = None

    @classmethod
    def of(cls, answer: Any) -> Posted | None:
        """From a write's answer: a message (a dict), or None (True: an inline message edited,
        a message deleted)."""
        if not isinstance(answer, dict) or not isinstance(answer.get("message_id"), int):
            return None
        photo = answer.get("photo")
        media = photo[-1] if photo else answer.get("animation") or answer.get("document")
        return cls(answer["message_id"], media.get("file_id") if isinstance(media, dict) else None)


@dataclass
class Sent:
    result: Result
    message: Posted | None = None

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

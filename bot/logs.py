"""Logging for ``python -m bot``: one line per event, the token never shown.

- ``RedactToken``: the token is replaced by ``<token>`` in every line and traceback.
- ``NetworkAsOneLine``: a network failure is a normal event, not a bug: whatever logged it
  (python-telegram-bot's Updater while polling, our own code), it becomes one WARNING line naming
  the API address (without the token) and the failure, without a traceback. Programming errors
  keep their tracebacks.
- ``BootstrapRetries``: python-telegram-bot retries its start-up calls silently (DEBUG); each
  failed attempt becomes one WARNING line, so an operator sees why the bot is not up yet.
"""
from __future__ import annotations

import logging
import re


def network_failure(exc: BaseException | None) -> str | None:
    """A short name for a network failure (``ConnectError``, ``timed out``, ``Bad Gateway (502)``),
    or None when ``exc`` is not one (a programming error, a refusal by Telegram)."""
    import httpx
    from telegram.error import BadRequest, NetworkError, TimedOut

    if exc is None:
        return None
    if isinstance(exc, TimedOut):
        return "timed out"
    if isinstance(exc, NetworkError) and not isinstance(exc, BadRequest):
        cause = exc.__cause__
        if isinstance(cause, (httpx.HTTPError, OSError)):
            return type(cause).__name__
        text = " ".join(exc.message.split())
        return text.split(". ")[0][:80] or type(exc).__name__
    if isinstance(exc, (httpx.TransportError, ConnectionError)):
        return type(exc).__name__
    return None


# What python-telegram-bot was doing when it logged a network failure, in a few words.
_DOING = [
    ("while polling for updates", "while polling for updates; trying again"),
    ("mark all fetched updates", "while stopping; the last updates may come again after a restart"),
    ("Bootstrap", "while starting; trying again"),
    # python-telegram-bot hands polling failures to the application's error handler (bot.handlers)
    ("error while handling an update", "while fetching or handling updates"),
]


class RedactToken(logging.Filter):
    """Belt and braces: the token never reaches a log line, whatever a library logs."""

    def __init__(self, token: str):
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.token:
            return True
        message = record.getMessage()
        if self.token in message:
            record.msg = message.replace(self.token, "<token>")
            record.args = ()
        if record.exc_info:
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = text.replace(self.token, "<token>")
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = record.exc_text.replace(self.token, "<token>")
        return True


def _as_warning(record: logging.LogRecord, message: str) -> None:
    record.msg, record.args = message, ()
    record.exc_info, record.exc_text, record.stack_info = None, None, None
    record.levelno, record.levelname = logging.WARNING, "WARNING"


class NetworkAsOneLine(logging.Filter):
    """A record carrying a network failure becomes one WARNING line without a traceback."""

    def __init__(self, api_url: str):
        super().__init__()
        self.api_url = api_url

    def filter(self, record: logging.LogRecord) -> bool:
        from telegram.error import InvalidToken

        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, InvalidToken):
            return False  # ``python -m bot`` says it in one line of its own and exits
        if record.name.startswith("telegram.request") and "invalid JSON" in str(record.msg):
            # An HTML error page (nginx's 502): whoever gets the resulting NetworkError says so.
            return False
        reason = network_failure(exc)
        if reason is None:
            return True
        original = record.getMessage()
        doing = next((phrase for key, phrase in _DOING if key in original), None)
        if doing is None:
            doing = "(" + original.rstrip(".").split(". ")[0][:120] + ")"
        _as_warning(record, f"Telegram is not reachable at {self.api_url} ({reason}) {doing}")
        return True


class BootstrapRetries(logging.Filter):
    """On python-telegram-bot's utility logger (``telegram.ext``, where its retry loop logs):
    each failed attempt of a start-up call, and each timed-out poll, becomes one WARNING line;
    the loop's other chatter stays at DEBUG (dropped below the configured level)."""

    _RETRY = re.compile(r"Network Retry Loop \((?P<what>[^)]*)\):(?P<info>.*?)\s*Failed run number (?P<n>\d+)")

    def __init__(self, api_url: str, level: int):
        super().__init__()
        self.api_url = api_url
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.INFO:
            return True
        message = record.getMessage()
        match = self._RETRY.search(message)
        if match and "Retrying" in message:
            what, info = match.group("what"), match.group("info").strip()
            if what.startswith("Bootstrap"):
                reason = "timed out" if info.startswith("Timed out") else "attempt " + str(int(match.group("n")) + 1)
                _as_warning(record, f"Telegram is not reachable at {self.api_url} ({reason}) while starting "
                                    f"({what.removeprefix('Bootstrap ').lower()}); trying again")
                return True
            if info.startswith("Timed out"):  # other failures of polling were logged already
                _as_warning(record, f"Telegram is not reachable at {self.api_url} (timed out) "
                                    "while polling for updates; trying again")
                return True
        return record.levelno >= self.level


def setup_logging(level: str, token: str, api_url: str = "") -> None:
    numeric = logging.getLevelName(level) if isinstance(level, str) else level
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    network, redact = NetworkAsOneLine(api_url or "the Bot API"), RedactToken(token)
    for handler in logging.getLogger().handlers:
        handler.setLevel(numeric)
        handler.addFilter(network)  # before redaction, which turns the exception into text
        handler.addFilter(redact)
    # python-telegram-bot's retry loop logs its attempts at DEBUG on the "telegram.ext" logger:
    # they are let through to BootstrapRetries, and the handlers' level drops the rest.
    ptb = logging.getLogger("telegram.ext")
    ptb.setLevel(logging.DEBUG)
    ptb.addFilter(BootstrapRetries(api_url or "the Bot API", numeric))
    # httpx logs every request URL (with the token in it) at INFO.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)

"""Logging for ``python -m bot``: one line per event, the token never shown.

- ``RedactToken``: the token is replaced by ``<token>`` in every line and traceback.
- ``NetworkAsOneLine``: a network failure is a normal event, not a bug: whatever logged it
  (python-telegram-bot's Updater while polling, our own code), it becomes one WARNING line naming
  the API address (without the token) and the failure, without a traceback. Programming errors
  keep their tracebacks.
- ``BootstrapRetries``: python-telegram-bot retries its start-up calls silently (DEBUG); each
  failed attempt becomes one WARNING line, so an operator sees why the bot is not up yet.
- ``LOG_FORMAT=json``: ``JsonLines`` writes each record as one JSON object (time, level, logger,
  message, exception) for a log collector. A record about a game carries its ``chat_id`` and
  ``game_id``: given by the call (``extra=ids(game)``), or else taken from the task that logs it
  (``about``: set when an update's chat is known and when a game is loaded; ``GameIds`` reads it).
"""
from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import re

# The chat and game the current task works for: (chat_id, game_id), either may be None. Each
# update is handled in a task of its own and asyncio copies the variable into the tasks a task
# starts, so what one update or job sets is seen by its own records only.
_about: contextvars.ContextVar[tuple[int | None, int | None]] = contextvars.ContextVar(
    "tablebot_log_about", default=(None, None))


def about(chat_id: int | None, game_id: int | None = None) -> None:
    """From here on, this task's log records are about this chat (and game)."""
    _about.set((chat_id, game_id))


def current() -> tuple[int | None, int | None]:
    """What this task's records are about now (for work that runs later in another task)."""
    return _about.get()


def ids(game) -> dict:
    """``extra=`` for a log call about a game (a ``bot.storage.store.Game``)."""
    return {"chat_id": game.chat_id, "game_id": game.id}


def one_line(json_text: str) -> str:
    """JSON text with U+2028/2029 escaped: valid inside JSON, but they split the line for
    readers that split on them (a JSON log line, a line of ``python -m bot status``)."""
    return json_text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def network_failure(exc: BaseException | None) -> str | None:
    """A short name for a network failure (``ClientConnectorError``, ``timed out``, ``Bad Gateway (502)``),
    or None when ``exc`` is not one (a programming error, a refusal by Telegram)."""
    import aiohttp
    from telegram.error import BadRequest, NetworkError, TimedOut

    if exc is None:
        return None
    if isinstance(exc, TimedOut):
        return "timed out"
    if isinstance(exc, NetworkError) and not isinstance(exc, BadRequest):
        cause = exc.__cause__
        if isinstance(cause, (aiohttp.ClientError, OSError)):
            return type(cause).__name__
        text = " ".join(exc.message.split())
        return text.split(". ")[0][:80] or type(exc).__name__
    if isinstance(exc, (aiohttp.ClientConnectionError, ConnectionError)):
        return type(exc).__name__
    return None


def retry_pause(exc: BaseException, delay: float) -> tuple[float, str]:
    """A call to Telegram failed with ``exc`` and is tried again: how long to pause first
    (``delay``, or longer when flood control asks for longer) and why, in a few words for the
    log line. ``exc`` is a ``TelegramError``."""
    from telegram.error import RetryAfter

    if isinstance(exc, RetryAfter):
        retry = exc.retry_after
        return max(delay, retry.total_seconds() if hasattr(retry, "total_seconds") else float(retry)), "flood control"
    return delay, network_failure(exc) or " ".join(str(exc).split())[:80]


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
        if record.stack_info:
            record.stack_info = record.stack_info.replace(self.token, "<token>")
        return True


class GameIds(logging.Filter):
    """A record gets the chat and game its task works for, unless its call named them."""

    def filter(self, record: logging.LogRecord) -> bool:
        chat_id, game_id = _about.get()
        if getattr(record, "chat_id", None) is None and chat_id is not None:
            record.chat_id = chat_id
        if getattr(record, "game_id", None) is None and game_id is not None:
            record.game_id = game_id
        return True


class JsonLines(logging.Formatter):
    """One JSON object per record, on one line (newlines in a message or a traceback are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": dt.datetime.fromtimestamp(record.created, dt.timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("chat_id", "game_id"):
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        # RedactToken has turned the exception into text already (with the token taken out).
        exception = record.exc_text or (self.formatException(record.exc_info) if record.exc_info else None)
        if exception:
            out["exception"] = exception
        if record.stack_info:
            out["stack"] = record.stack_info
        return one_line(json.dumps(out, ensure_ascii=False, default=str))


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


def setup_logging(level: str, token: str, api_url: str = "", fmt: str = "text") -> None:
    """The root logger on stderr: ``fmt`` "text" (a line of words) or "json" (``JsonLines``)."""
    numeric = logging.getLevelName(level) if isinstance(level, str) else level
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    network, redact, game = NetworkAsOneLine(api_url or "the Bot API"), RedactToken(token), GameIds()
    for handler in logging.getLogger().handlers:
        handler.setLevel(numeric)
        handler.addFilter(network)  # before redaction, which turns the exception into text
        handler.addFilter(redact)
        handler.addFilter(game)
        if fmt == "json":
            handler.setFormatter(JsonLines())
    if fmt == "json":
        logging.captureWarnings(True)  # Python's warnings become records too, not lines of text
    # python-telegram-bot's retry loop logs its attempts at DEBUG on the "telegram.ext" logger:
    # they are let through to BootstrapRetries, and the handlers' level drops the rest.
    ptb = logging.getLogger("telegram.ext")
    ptb.setLevel(logging.DEBUG)
    ptb.addFilter(BootstrapRetries(api_url or "the Bot API", numeric))
    # Only that logger: its children would inherit DEBUG, and the bot's (ExtBot) logs every
    # request it makes, a record made and dropped each time (3 % of a busy bot's time).
    for name in ("ExtBot", "Application", "Updater", "JobQueue", "AIORateLimiter", "ConversationHandler"):
        logging.getLogger(f"telegram.ext.{name}").setLevel(numeric)
    # httpx logs every request URL (with the token in it) at INFO.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


class ErrorCount(logging.Handler):
    """Counts the ERROR records logged while it is attached (to the root logger; the owner's
    /botstats shows it). A network failure is not counted: it is an event, not a bug (it is a
    WARNING line, see ``NetworkAsOneLine``)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if network_failure(record.exc_info[1] if record.exc_info else None) is None:
            self.count += 1

"""Configuration from the environment (a ``.env`` file in the working directory may supply it)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

DEFAULT_API_URL = "https://api.telegram.org/bot"


class ConfigError(Exception):
    """A configuration problem worth one clear line to the operator."""


@dataclass(frozen=True)
class Config:
    token: str
    api_url: str = DEFAULT_API_URL
    file_url: str = ""
    db_path: str = "tablebot.sqlite3"
    webhook_url: str = ""
    port: int = 8443  # the public web server's (the webhook; the Mini App): see bot/ops/web.py
    metrics_port: int | None = None  # /healthz and /metrics; None: not served
    log_level: str = "INFO"
    log_format: str = "text"  # or "json": one JSON object per line, for a log collector
    # Group write budget: Telegram allows about 20 messages a minute to one group.
    group_writes_per_minute: int = 20
    # The first burst of writes goes out at this spacing (seconds); later ones are spread.
    group_fast_spacing: float = 1.0
    # The window of that budget (Telegram's minute; the tests shrink time with it, not the counts).
    group_window_seconds: float = 60.0
    # Writes a second for the whole bot: None learns it from Telegram's 429s (bot/outgoing/pace.py);
    # a figure is where the pace starts and the most it may reach.
    bot_writes_per_second: float | None = None
    # Broadcasts (the maintenance notice, next-game notices) with allow_paid_broadcast: up to
    # 1,000 a second instead of 30, paid in Stars from the bot's balance.
    paid_broadcast: bool = False
    lobby_timeout_minutes: int = 30
    # A player who does not move within this many minutes gets a reminder at half time, then the
    # bot plays for them. 0 turns the timer off. Each group may change it with /turntimer.
    turn_timeout_minutes: float = 10
    # No turn ping for a player who pressed a button of the game this recently: they are looking
    # at it (and their phone would buzz on every turn of a quick game). 0: always ping.
    ping_quiet_seconds: float = 15
    # Seconds a computer player's move stays on the table before its next move (tests use 0).
    computer_pause: float = 1.5
    poll_timeout: int = 30
    # Move logs of games that ended more than this many days ago are deleted (statistics live in
    # the records and stay). 0: keep them all.
    keep_actions_days: float = 0
    # The Telegram user who may run /botstats and /broadcast_maintenance in private (None: nobody).
    owner_id: int | None = None
    # The Mini App (bot/webapp): the public address of the page, and its short name made with
    # BotFather's /newapp (for links from groups). Empty: no page, the buttons stay as they are.
    webapp_url: str = ""
    webapp_short_name: str = ""
    # How long a season runs (bot/records/calendar.py): month, week, or a length (10m, 12h, 3d).
    season: str = "month"

    @property
    def webhook(self) -> bool:
        return bool(self.webhook_url)


LOOPBACK_HOSTS = {"127.0.0.1", "::1", "localhost"}
SHORT_NAME_RE = re.compile(r"[A-Za-z0-9_]{3,30}")
# What bot/records/calendar.py reads as a season (a test holds the two in agreement).
SEASON_RE = re.compile(r"\s*(?:month|week|0*[1-9]\d*\s*[smhd])\s*", re.IGNORECASE)


def _webapp_url(value: str) -> str:
    """WEBAPP_URL without a trailing slash: https, or plain http on a loopback address (tests)."""
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme == "https" and parts.hostname:
        return value.rstrip("/")
    if parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS:
        return value.rstrip("/")
    raise ConfigError(f"WEBAPP_URL must be an https:// address Telegram can reach (plain http:// only for "
                      f"127.0.0.1 or localhost), not {value!r}")


def _load_dotenv() -> None:
    try:
        from dotenv import load_dotenv
    except ImportError:  # optional at run time; the dependency is declared
        return
    load_dotenv(os.path.join(os.getcwd(), ".env"), override=False)


def from_env(env: dict[str, str] | None = None, *, need_token: bool = True) -> Config:
    """Read the configuration; raise ConfigError with a one-line reason when it is unusable."""
    if env is None:
        _load_dotenv()
        env = dict(os.environ)
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if need_token and not token:
        raise ConfigError("TELEGRAM_BOT_TOKEN is not set: create a bot with @BotFather and export its token")
    if token and ":" not in token:
        raise ConfigError("TELEGRAM_BOT_TOKEN does not look like a bot token (expected 123456:ABC...)")
    api_url = env.get("TELEGRAM_API_URL", "").strip() or DEFAULT_API_URL
    file_url = env.get("TELEGRAM_FILE_URL", "").strip()
    if not file_url:
        # The file endpoint of a Bot API server lives beside its method endpoint.
        file_url = api_url[: -len("bot")] + "file/bot" if api_url.endswith("/bot") else api_url
    try:
        port = int(env.get("PORT", "8443") or 8443)
        metrics_port = int(env["METRICS_PORT"]) if env.get("METRICS_PORT", "").strip() else None
        writes = int(env.get("TABLEBOT_GROUP_WRITES_PER_MINUTE", "20") or 20)
        spacing = float(env.get("TABLEBOT_GROUP_FAST_SPACING", "1.0") or 1.0)
        lobby = int(env.get("TABLEBOT_LOBBY_TIMEOUT_MINUTES", "30") or 30)
        turn = float(env.get("TABLEBOT_TURN_TIMEOUT_MINUTES", "10") or 0)
        quiet = float(env.get("TABLEBOT_PING_QUIET_SECONDS", "15") or 0)
        keep_actions = float(env.get("TABLEBOT_KEEP_ACTIONS_DAYS", "0") or 0)
        owner = env.get("TABLEBOT_OWNER_ID", "").strip()
        owner_id = int(owner) if owner else None
        bot_writes = env.get("TABLEBOT_BOT_WRITES_PER_SECOND", "").strip()
        bot_writes_per_second = float(bot_writes) if bot_writes else None
    except ValueError as exc:
        raise ConfigError(f"a numeric setting is not a number: {exc}") from None
    level = (env.get("LOG_LEVEL", "INFO") or "INFO").upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    log_format = (env.get("LOG_FORMAT", "text") or "text").strip().lower()
    if log_format not in {"text", "json"}:
        raise ConfigError(f"LOG_FORMAT must be text or json, not {log_format!r}")
    webapp_url = _webapp_url(env.get("WEBAPP_URL", "").strip())
    short_name = env.get("WEBAPP_SHORT_NAME", "").strip()
    if short_name and not SHORT_NAME_RE.fullmatch(short_name):
        raise ConfigError(f"WEBAPP_SHORT_NAME must be the Mini App's short name from BotFather's /newapp "
                          f"(3-30 letters, digits or _), not {short_name!r}")
    season = env.get("TABLEBOT_SEASON", "").strip() or "month"
    if not SEASON_RE.fullmatch(season):
        raise ConfigError(f"TABLEBOT_SEASON must be month, week or a length such as 10m, 12h or 3d, not {season!r}")
    if short_name and not webapp_url:
        raise ConfigError("WEBAPP_SHORT_NAME needs WEBAPP_URL: the address where the page is served")
    if bot_writes_per_second is not None and not bot_writes_per_second >= 1:
        raise ConfigError(f"TABLEBOT_BOT_WRITES_PER_SECOND must be at least 1 (unset: learnt from Telegram), "
                          f"not {bot_writes!r}")
    paid = (env.get("TABLEBOT_PAID_BROADCAST", "") or "").strip().lower()
    if paid not in {"", "0", "1", "no", "yes", "false", "true", "off", "on"}:
        raise ConfigError(f"TABLEBOT_PAID_BROADCAST must be 1 or 0, not {paid!r}")
    return Config(
        token=token,
        api_url=api_url,
        file_url=file_url,
        db_path=env.get("TABLEBOT_DB", "").strip() or "tablebot.sqlite3",
        webhook_url=env.get("WEBHOOK_URL", "").strip(),
        port=port,
        metrics_port=metrics_port,
        log_level=level,
        log_format=log_format,
        group_writes_per_minute=max(1, writes),
        group_fast_spacing=max(0.0, spacing),
        lobby_timeout_minutes=max(1, lobby),
        turn_timeout_minutes=max(0.0, turn),
        ping_quiet_seconds=max(0.0, quiet),
        keep_actions_days=max(0.0, keep_actions),
        owner_id=owner_id,
        bot_writes_per_second=bot_writes_per_second,
        paid_broadcast=paid in {"1", "yes", "true", "on"},
        webapp_url=webapp_url,

        webapp_short_name=short_name,
        season=season.lower(),
    )

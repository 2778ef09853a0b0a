"""``python -m bot`` runs the bot; ``python -m bot status`` prints the games as JSON lines."""
from __future__ import annotations

import argparse
import hashlib
import asyncio
import datetime as dt
import json
import logging
import sys

from bot.config import ConfigError, from_env


class _RedactToken(logging.Filter):
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


def setup_logging(level: str, token: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact = _RedactToken(token)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    # httpx logs every request URL (with the token in it) at INFO.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


def run(argv: list[str] | None = None) -> int:
    from telegram import Update
    from telegram.error import InvalidToken

    from bot.app import build_application

    try:
        config = from_env()
    except ConfigError as exc:
        print(f"tablebot: {exc}", file=sys.stderr)
        return 2
    setup_logging(config.log_level, config.token)
    try:
        asyncio.run(_check_token(config))
    except InvalidToken:
        print("tablebot: Telegram rejected TELEGRAM_BOT_TOKEN: check it with @BotFather", file=sys.stderr)
        return 2
    application = build_application(config)
    updates = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
    try:
        if config.webhook:
            path, secret = webhook_path_and_secret(config.token)
            application.run_webhook(listen="0.0.0.0", port=config.port, url_path=path,
                                    webhook_url=config.webhook_url.rstrip("/") + "/" + path,
                                    secret_token=secret, allowed_updates=updates)
        else:
            application.run_polling(allowed_updates=updates, timeout=config.poll_timeout)
    except InvalidToken:
        print("tablebot: Telegram rejected TELEGRAM_BOT_TOKEN: check it with @BotFather", file=sys.stderr)
        return 2
    return 0


def webhook_path_and_secret(token: str) -> tuple[str, str]:
    """A URL path nobody can guess and a different secret Telegram sends in a header, both
    stable across restarts and derived from the token without revealing it."""
    digest = lambda label: hashlib.sha256(f"{label}:{token}".encode()).hexdigest()[:32]  # noqa: E731
    return "tg-" + digest("path"), digest("secret")


async def _check_token(config) -> None:
    """Ask Telegram who we are before starting, so a bad token is one line, not a traceback."""
    from telegram import Bot
    from telegram.error import NetworkError

    bot = Bot(config.token, base_url=config.api_url, base_file_url=config.file_url)
    try:
        await bot.get_me()
    except NetworkError:
        pass  # unreachable right now: the application's own start-up retries and reports it
    finally:
        try:
            await bot.shutdown()
        except Exception:  # a failed start leaves nothing to shut down
            pass


async def _status() -> list[dict]:
    from engines import registry
    from bot.store_sqlite import SqliteStore

    config = from_env(need_token=False)
    storage = await SqliteStore(config.db_path).open()
    try:
        out = []
        for game in await storage.all_games():
            names = [s.name for s in game.seats]
            turn = None
            if game.status == "running" and game.state is not None:
                eng = registry.engine(game.kind)
                seat = eng.current_player(eng.from_json(game.state))
                turn = names[seat] if seat is not None and seat < len(names) else None
            winners = []
            if game.outcome:
                winners = [names[i] for i, p in enumerate(game.outcome["places"]) if p == 1 and i < len(names)]
            out.append({
                "id": game.id, "chat": game.chat_id, "thread": game.thread_id, "game": game.kind,
                "status": game.status, "players": names, "turn": turn, "winners": winners,
                "updated": dt.datetime.fromtimestamp(game.updated, dt.timezone.utc).isoformat(timespec="seconds"),
            })
        return out
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="tablebot: board games in Telegram groups")
    sub = parser.add_subparsers(dest="command", metavar="command")
    sub.add_parser("run", help="run the bot (the default): polling, or a webhook when WEBHOOK_URL is set")
    sub.add_parser("status", help="print one JSON line per game from the database (TABLEBOT_DB)")
    args = parser.parse_args(argv)
    if args.command == "status":
        try:
            for row in asyncio.run(_status()):
                print(json.dumps(row, ensure_ascii=False))
        except ConfigError as exc:
            print(f"tablebot: {exc}", file=sys.stderr)
            return 2
        return 0
    return run()


if __name__ == "__main__":
    sys.exit(main())

"""Telegram's webhook as a route of the bot's web server (bot/ops/web.py), in place of
python-telegram-bot's own tornado server: the same checks, one web framework.

Telegram POSTs each update to ``WEBHOOK_URL`` + a path nobody can guess, with a secret in the
``X-Telegram-Bot-Api-Secret-Token`` header; both come from the token (``path_and_secret``). An
update is put into the Application's update queue and answered 200 at once (Telegram waits
for nothing else); one without the secret gets 403; while the Application is not running
(starting, stopping) the answer is 503, so that Telegram delivers the update again later
rather than it being lost in a queue nobody reads.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging

from aiohttp import web
from telegram import Bot, Update
from telegram.error import BadRequest, InvalidToken, TelegramError
from telegram.ext import Application

from bot.logs import retry_pause

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# Setting the webhook at start: 1, 2, 4 … seconds between attempts, never more than this.
RETRY_MAX_SECONDS = 30.0


class WebhookRefused(Exception):
    """Telegram refused the webhook's address (not HTTPS, a bad port …): one line for the operator."""


def path_and_secret(token: str) -> tuple[str, str]:
    """A URL path nobody can guess and a different secret Telegram sends in a header, both
    stable across restarts and derived from the token without revealing it."""
    digest = lambda label: hashlib.sha256(f"{label}:{token}".encode()).hexdigest()[:32]  # noqa: E731
    return "tg-" + digest("path"), digest("secret")


def url_of(webhook_url: str, token: str) -> str:
    """The URL Telegram is told to POST to: WEBHOOK_URL (the public base) and the path."""
    return webhook_url.rstrip("/") + "/" + path_and_secret(token)[0]


def routes(application: Application, token: str) -> list[web.RouteDef]:
    """The webhook's route, for the public port."""
    path, secret = path_and_secret(token)
    expected = secret.encode()

    async def receive(request: web.Request) -> web.Response:
        if not hmac.compare_digest(request.headers.get(SECRET_HEADER, "").encode(), expected):
            log.warning("a webhook request without the right secret was refused")
            return web.Response(status=403)
        try:
            update = Update.de_json(json.loads(await request.read()), application.bot)
        except (ValueError, TypeError, KeyError) as exc:
            log.error("a webhook request that is not an update was refused: %s", exc)
            return web.Response(status=400)
        # Asked after the body came, with nothing awaited before the update is queued: a stop
        # that began while the body was on its way has already queued its end, and an update
        # behind it would never be handled (acknowledged but lost), and the stop would wait for
        # it for ever. Refused, Telegram delivers it again (to this process once it is back).
        if not application.running:
            return web.Response(status=503, text="not running")
        application.update_queue.put_nowait(update)
        return web.Response()

    return [web.post("/" + path, receive)]


async def register(bot: Bot, webhook_url: str, token: str, allowed_updates: list[str]) -> None:
    """Tell Telegram where to deliver (with the secret and the kinds of update wanted), trying
    again until it takes it, as python-telegram-bot's start does with bootstrap_retries=-1. A
    rejected token raises InvalidToken, an address Telegram refuses WebhookRefused, at once. A
    stop signal ends the wait (SystemExit)."""
    secret = path_and_secret(token)[1]
    delay = 1.0
    while True:
        try:
            await bot.set_webhook(url_of(webhook_url, token), secret_token=secret, allowed_updates=allowed_updates)
            return
        except InvalidToken:
            raise
        except BadRequest as exc:
            raise WebhookRefused(f"Telegram refused the webhook at WEBHOOK_URL ({exc.message}): "
                                 "it must be a public https:// address on port 443, 80, 88 or 8443") from None
        except TelegramError as exc:
            pause, reason = retry_pause(exc, delay)
        log.warning("could not set the webhook (%s); trying again in %.0f s", reason, pause)
        await asyncio.sleep(pause)
        delay = min(RETRY_MAX_SECONDS, delay * 2)

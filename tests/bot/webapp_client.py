"""Talking to the Mini App's API as Telegram's page would: initData signed with the test
bot's token (as Telegram signs it), sent raw in ``Authorization: tma …``."""
from __future__ import annotations

import json
import socket
import time
from contextlib import asynccontextmanager
from urllib.parse import quote

import aiohttp

from bot.webapp import auth
from tests.bot.harness import BotRunner


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@asynccontextmanager
async def bot_with_page(fake, db, **options):
    """The bot running with its Mini App on a free local port; ``runner.base`` is its address."""
    port = free_port()
    runner = BotRunner(fake, db, port=port, webapp_url=f"http://127.0.0.1:{port}", **options)
    await runner.start()
    runner.base = f"http://127.0.0.1:{port}"
    try:
        yield runner
    finally:
        await runner.stop()


def init_data(token: str, user_id: int, first_name: str, *, lang: str = "en", start_param: str | None = None,
              auth_date: float | None = None, photo_url: str | None = None) -> str:
    """A raw initData query string as Telegram builds it: the user as JSON written the way
    Telegram writes it (slashes escaped), URL-encoded."""
    user = {"id": user_id, "first_name": first_name, "language_code": lang, "allows_write_to_pm": True}
    text = json.dumps(user, ensure_ascii=False, separators=(",", ":"))
    if photo_url is not None:
        text = text[:-1] + ',"photo_url":"' + photo_url.replace("/", "\\/") + '"}'
    fields = {"user": text, "auth_date": str(int(auth_date if auth_date is not None else time.time())),
              "query_id": "AAH" + str(user_id)}
    if start_param is not None:
        fields["start_param"] = start_param
    fields["hash"] = auth.sign(fields, token)
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in fields.items())


def forged(raw: str) -> str:
    """The same initData with another hash."""
    head, _, digest = raw.rpartition("hash=")
    return head + "hash=" + ("0" if digest[0] != "0" else "1") + digest[1:]


class PageClient:
    """One person's page: its requests to the API."""

    def __init__(self, base: str, raw_init_data: str | None):
        self.base = base.rstrip("/") + "/app/api"
        self.raw = raw_init_data

    def _headers(self, extra: dict | None = None) -> dict:
        headers = {"Authorization": f"tma {self.raw}"} if self.raw is not None else {}
        return {**headers, **(extra or {})}

    async def get(self, path: str, *, headers: dict | None = None) -> tuple[int, dict | None, str]:
        async with aiohttp.ClientSession() as session:
            async with session.get(self.base + path, headers=self._headers(headers)) as response:
                text = await response.text()
                body = json.loads(text) if text and response.content_type == "application/json" else None
                return response.status, body, response.headers.get("ETag", "")

    async def post(self, path: str, payload) -> tuple[int, dict | None, str]:
        async with aiohttp.ClientSession() as session:
            async with session.post(self.base + path, data=json.dumps(payload), headers=self._headers()) as response:
                text = await response.text()
                body = json.loads(text) if text and response.content_type == "application/json" else None
                return response.status, body, text

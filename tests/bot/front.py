"""What stands between a test's phone and the bot's web server: a small HTTP server on 127.0.0.1
that passes every request on to the bot as it came (validators, Accept-Encoding) and its answer
back as it was sent (status, headers, the body's bytes, compressed or not), and notes each one.

It is the phone's network as Playwright's routes are for Chromium, for an engine whose WebDriver
sees no requests (WebKit): Telegram's script (``telegram-web-app.js``, never reachable in a test)
is answered from here, the page naming it at this address instead (the same origin, which the
page's Content-Security-Policy allows as ``'self'``); the JSON answers are kept to check that none
held another seat's secret; a forged signature replaces the real one on the way. It also counts
what a phone asks for (requests, bytes) for the cache's checks and the bench, in either engine.
"""
from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from typing import Callable

import aiohttp
from aiohttp import web

from tests.bot.webapp_client import free_port

TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
STUB_PATH = "/__telegram/telegram-web-app.js"
HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "upgrade", "te", "trailer",
       "proxy-connection"}


@dataclass
class Passed:
    """One request passed on: what was asked, what came back, how many bytes came back."""
    method: str
    path: str
    status: int
    size: int  # the status line, headers and body as the bot sent them


@dataclass
class Front:
    upstream: str  # the bot's address, "http://127.0.0.1:port"
    stub: str  # the JavaScript served as Telegram's script
    forge: Callable[[str], str] | None = None  # initData → the initData sent instead
    passed: list[Passed] = field(default_factory=list)
    answers: list[tuple[int, str, str]] = field(default_factory=list)  # the API's (status, url, body)

    async def start(self) -> "Front":
        app = web.Application()
        app.router.add_get(STUB_PATH, self._telegram)
        app.router.add_route("*", "/{tail:.*}", self._pass)
        self._session = aiohttp.ClientSession(auto_decompress=False, cookie_jar=aiohttp.DummyCookieJar())
        # A page's long poll (25 s) is cut when the phone closes, not waited for.
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        self.port = free_port()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self.base = f"http://127.0.0.1:{self.port}"
        return self

    def url(self, url: str) -> str:
        """The same address at the front (a URL of the bot's)."""
        return self.base + url[len(self.upstream):] if url.startswith(self.upstream) else url

    async def close(self) -> None:
        await self._session.close()  # the requests still under way (a long poll) end here
        await self._runner.cleanup()

    def statuses(self) -> list[int]:
        return [status for status, _, _ in self.answers]

    async def _telegram(self, request: web.Request) -> web.Response:
        return web.Response(text=self.stub, content_type="text/javascript")

    async def _pass(self, request: web.Request) -> web.StreamResponse:
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        if self.forge is not None and headers.get("Authorization", "").startswith("tma "):
            headers["Authorization"] = "tma " + self.forge(headers["Authorization"][4:])
        try:
            answer = await self._session.request(request.method, self.upstream + request.path_qs, headers=headers,
                                                 data=await request.read() if request.can_read_body else None,
                                                 allow_redirects=False)
        except aiohttp.ClientConnectionError:  # the bot has stopped (a page still polling)
            return web.Response(status=502, text="the bot is not there")
        async with answer:
            raw = await answer.read()
            sent = sum(len(k) + len(v) + 4 for k, v in answer.raw_headers) + len(raw) + 17
            self.passed.append(Passed(request.method, request.path_qs, answer.status, sent))
            out = {k: v for k, v in answer.headers.items() if k.lower() not in HOP}
            body = raw
            if "/api/" in request.path or request.path.rstrip("/").endswith("/app"):
                plain = gzip.decompress(raw) if answer.headers.get("Content-Encoding") == "gzip" else raw
                if "/api/" in request.path:
                    self.answers.append((answer.status, str(request.url), plain.decode("utf-8", "replace")))
                elif answer.status == 200:  # the page: Telegram's script from here
                    body = plain.replace(TELEGRAM_JS.encode(), STUB_PATH.encode())
                    out.pop("Content-Encoding", None)
            return web.Response(status=answer.status, headers=out, body=body if request.method != "HEAD" else None)

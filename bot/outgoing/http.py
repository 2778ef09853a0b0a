"""python-telegram-bot's requests to the Bot API, made with aiohttp instead of httpx.

Why: under a thousand busy groups the bot's event loop spent more than half of its time in
httpx and httpcore (py-spy, 125 presses a second: 28 % of every sample, 17 % in the pool's
bookkeeping alone, which looks at every connection, with a system call for each idle one, for
every request it starts or ends). aiohttp, already the bot's web server, keeps its idle
connections in a queue per host and parses responses in C: the same requests cost a fraction
(python -m bench load, 1,000 groups, 125 presses a second: answers' p99 7.4 s → 97 ms).

Errors are python-telegram-bot's, as with its own request: a time-out is ``TimedOut``, any other
failure of the connection ``NetworkError`` (its cause the aiohttp error, which
``bot/outgoing/messenger.py`` reads to know whether a message surely did not reach Telegram).
"""
from __future__ import annotations

import asyncio
import urllib.parse
import urllib.request
from typing import Any

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

USER_AGENT = BaseRequest.USER_AGENT
_DEFAULT = type(BaseRequest.DEFAULT_NONE)  # a timeout the caller left to the request
# As python-telegram-bot's own request: 5 s to connect, to send and to read an answer; a file
# (a picture) has 20 s to go up.
TIMEOUT = 5.0
MEDIA_WRITE_TIMEOUT = 20.0
# An idle connection is closed after this long (httpx's default): Telegram closes idle ones
# on its side too, and a request made on a connection the far end has just closed fails.
KEEP_ALIVE_SECONDS = 5.0
FORM = "application/x-www-form-urlencoded"


def _or(value: Any, default: float | None) -> float | None:
    return default if isinstance(value, _DEFAULT) else value


def env_proxy(url: str) -> str | None:
    """The proxy that HTTPS_PROXY / HTTP_PROXY / ALL_PROXY name for ``url`` (NO_PROXY respected),
    as python-telegram-bot's own request would use, or None."""
    parts = urllib.parse.urlsplit(url)
    if parts.hostname is None or urllib.request.proxy_bypass(parts.hostname):
        return None
    proxies = urllib.request.getproxies()
    return proxies.get(parts.scheme) or proxies.get("all")


class AiohttpRequest(BaseRequest):
    """Requests on at most ``connections`` connections of one aiohttp session (made on the first
    request or when the bot initializes: a session belongs to the running event loop)."""

    def __init__(self, connections: int, read_timeout: float | None = TIMEOUT):
        self._connections = connections
        self._read_timeout = read_timeout
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], str | None] = {}  # by origin

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        self._open()

    def _open(self) -> aiohttp.ClientSession:
        """The session, made on first use (python-telegram-bot may make a request, such as
        getMe, before it initializes the bot)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._connections, limit_per_host=0,
                                             keepalive_timeout=KEEP_ALIVE_SECONDS)
            # No total time and no time for a free connection: a request waits for one as long
            # as it must (the lanes hand out no more requests than connections). Not
            # trust_env: aiohttp would then read the environment and look for a .netrc on
            # every request (0.3 ms each); the proxy is looked up once per origin instead.
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": USER_AGENT}, cookie_jar=aiohttp.DummyCookieJar(),
                timeout=aiohttp.ClientTimeout(total=None, connect=None))
        return self._session

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout: Any = BaseRequest.DEFAULT_NONE,
                         write_timeout: Any = BaseRequest.DEFAULT_NONE,
                         connect_timeout: Any = BaseRequest.DEFAULT_NONE,
                         pool_timeout: Any = BaseRequest.DEFAULT_NONE) -> tuple[int, bytes]:
        session = self._open()
        data: Any = None
        read, connect = _or(read_timeout, self._read_timeout), _or(connect_timeout, TIMEOUT)
        total = None  # aiohttp has no time limit for sending a request: a file's upload gets one
        if request_data is not None:
            if request_data.contains_files:
                data = aiohttp.FormData(request_data.json_parameters)
                for name, (filename, content, mimetype) in request_data.multipart_data.items():
                    data.add_field(name, content, filename=filename, content_type=mimetype)
                parts = (connect, _or(write_timeout, MEDIA_WRITE_TIMEOUT), read)
                total = None if None in parts else sum(parts)
            else:  # the form as one payload: aiohttp's FormData of a dict costs twice as much
                data = aiohttp.BytesPayload(urllib.parse.urlencode(request_data.json_parameters).encode(),
                                            content_type=FORM)
        # The time to read the answer counts once the request is sent, as with httpx.
        timeout = aiohttp.ClientTimeout(total=total, connect=None, sock_read=read, sock_connect=connect)
        try:
            origin = urllib.parse.urlsplit(url)[:2]  # (scheme, host and port)
            if origin not in self._proxies:
                self._proxies[origin] = env_proxy(url)
            async with session.request(method, url, data=data, timeout=timeout,
                                       proxy=self._proxies[origin]) as response:
                return response.status, await response.read()
        except (asyncio.TimeoutError, aiohttp.ServerTimeoutError) as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{type(err).__name__}: {err}") from err

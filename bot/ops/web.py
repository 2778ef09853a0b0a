"""The bot's one web server: aiohttp, in the bot's own event loop.

Everything the bot serves over HTTP is a route of one ``aiohttp.web.Application``, started with
the bot (``Tablebot.post_init``) and stopped with it (``post_stop``). It listens on up to two
ports:

- ``PORT``, the public one: what Telegram and people reach, usually behind a TLS-terminating
  proxy (the webhook; the Mini App's page and API). It listens only when something is mounted
  on it (a bot that polls and serves no page opens no port).
- ``METRICS_PORT``, the operator's: ``/healthz`` and ``/metrics``. It listens when set.

When the two are the same number, one socket serves everything. When they differ, the
operator's routes are answered on ``METRICS_PORT`` only (404 on ``PORT``), so a public port
never shows the metrics; keep ``METRICS_PORT`` itself unpublished (a private network, the
container's internal port).

Others add their routes before the server starts: ``add_routes`` for single routes (public by
default), ``mount(prefix, app)`` for a whole sub-application on the public port.
"""
from __future__ import annotations

import logging
import socket
from typing import Iterable

from aiohttp import web

from bot.storage.store import StoreUnavailable

log = logging.getLogger(__name__)

# Bound on every interface: in a container or behind a proxy the server is reached from outside.
HOST = "0.0.0.0"
# An orderly stop gives requests in progress this long to finish (a webhook delivery takes
# milliseconds; a long-lived response, such as a stream of events, is cut after it).
SHUTDOWN_SECONDS = 1.0


class PortUnavailable(Exception):
    """A port cannot be listened on (in use, or not allowed): one line for the operator."""


class WebServer:
    """One aiohttp Application and one runner, listening on the public port, the operator's
    port, or one port for both (see the module's docstring). ``0`` for a port picks a free one
    (tests); the ports actually bound are ``public_port`` and ``private_port`` once started."""

    def __init__(self, *, port: int | None, metrics_port: int | None, host: str = HOST):
        self.host = host
        self.port = port
        self.metrics_port = metrics_port
        self.app = web.Application(middlewares=[self._private_only_on_its_port, _database_away])
        self._private_paths: set[str] = set()
        self._public_used = False
        self._runner: web.AppRunner | None = None
        self.public_port: int | None = None
        self.private_port: int | None = None

    # ---- what it serves (before start) ---------------------------------------------------------

    def add_routes(self, routes: Iterable[web.AbstractRouteDef], *, private: bool = False) -> None:
        """Routes on the public port, or (``private``) on the operator's port only."""
        routes = list(routes)
        self.app.add_routes(routes)
        if private:
            self._private_paths.update(route.path for route in routes)
        else:
            self._public_used = True

    def mount(self, prefix: str, subapp: web.Application) -> None:
        """A whole sub-application under ``prefix`` (e.g. ``/app``) on the public port."""
        self.app.add_subapp(prefix, subapp)
        self._public_used = True

    @property
    def serves_public(self) -> bool:
        return self._public_used and self.port is not None

    @property
    def serves_private(self) -> bool:
        return bool(self._private_paths) and self.metrics_port is not None

    @property
    def _shared(self) -> bool:
        """One socket for both: the same port, chosen (not 0, which picks a free one each)."""
        return self.serves_public and self.serves_private and self.port == self.metrics_port and self.port != 0

    # ---- start and stop -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on the ports in use (none: nothing to do). Raises PortUnavailable."""
        if self._runner is not None or not (self.serves_public or self.serves_private):
            return
        sockets: list[tuple[str, socket.socket]] = []
        try:
            if self.serves_public:
                sockets.append(("PORT", _listen(self.host, self.port, "PORT")))
            if self.serves_private and not self._shared:
                sockets.append(("METRICS_PORT", _listen(self.host, self.metrics_port, "METRICS_PORT")))
        except PortUnavailable:
            for _, sock in sockets:
                sock.close()
            raise
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS,
                               handle_signals=False)
        await runner.setup()
        for name, sock in sockets:
            await web.SockSite(runner, sock).start()
            port = sock.getsockname()[1]
            if name == "PORT":
                self.public_port = port
            else:
                self.private_port = port
            log.info("listening on %s %d", name, port)
        if self._shared:
            self.private_port = self.public_port
        self._runner = runner

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    # ---- the operator's routes stay on the operator's port ----------------------------------------

    @web.middleware
    async def _private_only_on_its_port(self, request: web.Request, handler):
        if request.path in self._private_paths and self.private_port != self.public_port:
            sockname = request.transport.get_extra_info("sockname") if request.transport else None
            if not sockname or sockname[1] != self.private_port:
                raise web.HTTPNotFound()
        return await handler(request)


@web.middleware
async def _database_away(request: web.Request, handler):
    """A request that met the database away (the Mini App's API) is answered 503 "try again",
    with one log line: not a bug, so not aiohttp's 500 and traceback. Its page says so and asks
    again (a move through the door is answered in the person's words before it gets here)."""
    try:
        return await handler(request)
    except StoreUnavailable as exc:
        log.warning("%s %s answered 503, the database cannot be reached: %s", request.method, request.path, exc)
        return web.json_response({"error": "the database cannot be reached for a moment: try again in a few seconds"},
                                 status=503, headers={"Cache-Control": "no-store", "Retry-After": "5"})


def _listen(host: str, port: int, name: str) -> socket.socket:
    """A listening socket, bound here so that a port in use is one clear line at start."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise PortUnavailable(f"cannot listen on {name} {port} ({exc.strerror}): is another program using it? "
                              f"set {name} to a free port") from None
    sock.setblocking(False)
    return sock

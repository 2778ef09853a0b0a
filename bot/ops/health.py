"""The operator's routes on ``METRICS_PORT`` (bot/ops/web.py): ``/healthz`` and ``/metrics``.

``/healthz`` is 200 "ok" while the bot serves (polls, or takes its webhook) and the database
answers, and 503 with a one-line reason otherwise: for a container's HEALTHCHECK, a load
balancer or a monitor. ``/metrics`` is Prometheus's text format (bot/ops/metrics.py).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Callable

from aiohttp import web

from bot.ops.metrics import CONTENT_TYPE, Metrics
from bot.storage.store import GameStore, StoreError

log = logging.getLogger(__name__)

# The database must answer a health check within this many seconds (a monitor times out soon).
PING_SECONDS = 5.0


def routes(store: GameStore, metrics: Metrics, not_serving: Callable[[], str | None]) -> list[web.RouteDef]:
    """``not_serving``: why the bot does not serve now, or None when it does."""

    async def healthz(request: web.Request) -> web.Response:
        reason = not_serving()
        if reason is None:
            try:
                await asyncio.wait_for(store.ping(), PING_SECONDS)
            except StoreError as exc:
                reason = f"the database does not answer: {exc}"
            except asyncio.TimeoutError:
                reason = f"the database did not answer within {PING_SECONDS:.0f} s"
        if reason is not None:
            return web.Response(status=503, text=reason + "\n")
        return web.Response(text="ok\n")

    async def scrape(request: web.Request) -> web.Response:
        try:
            body = await asyncio.wait_for(metrics.exposition(store), PING_SECONDS)
        except (StoreError, asyncio.TimeoutError) as exc:
            log.warning("games by status could not be counted for /metrics: %s", exc or "no answer in time")
            body = metrics.exposition_without_games()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})

    return [web.get("/healthz", healthz), web.get("/metrics", scrape)]


class Waiting:
    """What a process that does not serve yet is waiting for, for ``/healthz`` meanwhile
    (``bot/__main__.py``): ``why`` while it waits for the database or for Telegram; once it is a
    standby (``standby`` set, ``bot/ops/standby.py``), nothing while the database answers its
    attempts at the lock (a standby ready to take over is healthy), else the trouble."""

    def __init__(self) -> None:
        self.why = "starting"
        self.standby = None

    def reason(self) -> str | None:
        """Why this process is not healthy now, or None for a ready standby."""
        if self.standby is None:
            return self.why
        if self.standby.trouble is None:
            return None
        return f"standby: the database does not answer ({self.standby.trouble})"


def waiting_routes(waiting: Waiting) -> list[web.RouteDef]:
    """The operator's two routes while the process waits, before the bot is built: ``/healthz``
    200 "standby" for a ready standby, else 503 and why (waiting for the database, for Telegram,
    a standby whose database does not answer); ``/metrics`` with ``tablebot_active`` 0. Anything
    else is 503 too: with ``METRICS_PORT`` the same as ``PORT``, a proxy that meets a waiting
    process there is told to try another (a webhook delivery is not taken here)."""
    metrics = Metrics()
    metrics.set_active(False)

    async def healthz(request: web.Request) -> web.Response:
        reason = waiting.reason()
        if reason is None:
            return web.Response(text="standby\n")
        return web.Response(status=503, text=reason + "\n")

    async def scrape(request: web.Request) -> web.Response:
        return web.Response(body=metrics.exposition_without_games(), headers={"Content-Type": CONTENT_TYPE})

    async def not_serving(request: web.Request) -> web.Response:
        return web.Response(status=503, text="not serving yet\n")

    return [web.get("/healthz", healthz), web.get("/metrics", scrape), web.route("*", "/{anything:.*}", not_serving)]

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


def standby_routes(standby) -> list[web.RouteDef]:
    """The same two routes while the process waits as a standby (``bot/ops/standby.py``), before the
    bot is built: ``/healthz`` 200 "standby" while the database answers the lock's attempts (a
    standby ready to take over is healthy), 503 when it does not; ``/metrics`` with
    ``tablebot_active`` 0."""
    metrics = Metrics()
    metrics.set_active(False)

    async def healthz(request: web.Request) -> web.Response:
        if standby.reachable:
            return web.Response(text="standby\n")
        return web.Response(status=503, text="standby: the database does not answer\n")

    async def scrape(request: web.Request) -> web.Response:
        return web.Response(body=metrics.exposition_without_games(), headers={"Content-Type": CONTENT_TYPE})

    return [web.get("/healthz", healthz), web.get("/metrics", scrape)]

"""``python -m bench metrics [games]``: what the metrics cost (bot/ops/metrics.py).

- per press: the bookkeeping a press meets on its way (counted in the update queue with its
  kind, the answer's time observed when its request goes out, the answer and one edit counted
  by method), over 50,000 presses of a real callback-query Update;
- a scrape of ``/metrics`` over real HTTP with ``games`` (200) open games in an SQLite database
  (and 10,000 finished ones beside them), as Prometheus would make it: median and p95, bytes.
"""
from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp
from telegram import Update
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from engines import registry
from bot.ops import health
from bot.ops.metrics import Metrics
from bot.updates.router import press_kind
from bot.storage.store import Seat, Status
from bot.storage.choose import make_store
from bot.ops.web import WebServer

PRESSES = 50_000
SCRAPES = 100
FINISHED = 10_000


def _press_cost() -> float:
    """Microseconds of metrics bookkeeping per press."""
    metrics = Metrics()
    updates = [Update.de_json({"update_id": i, "callback_query": {
        "id": str(i), "chat_instance": "c", "data": f"{i % 500 + 1:x}:{i % 40}:d",
        "from": {"id": 7, "is_bot": False, "first_name": "A"}}}, None) for i in range(1000)]
    answers = [RequestData([RequestParameter.from_input("callback_query_id", str(i)),
                            RequestParameter.from_input("text", "ok")]) for i in range(1000)]
    cached = {}.get  # no game in memory: the press is classified all the same (parse, lookup)
    started = time.perf_counter()
    for n in range(PRESSES):
        i = n % 1000
        metrics.arrived(updates[i], lambda data: press_kind(data, cached))
        metrics.answering(answers[i].parameters.get("callback_query_id"))
        metrics.requested("answerCallbackQuery", 200)
        metrics.requested("editMessageMedia", 200)
    return (time.perf_counter() - started) / PRESSES * 1e6


async def _scrape(games: int) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        store = await make_store(str(Path(tmp) / "bench.sqlite3")).open()
        try:
            for i in range(games + FINISHED):
                game = await store.create_game(kind="lucky", chat_id=-1000 - i, thread_id=0, host=Seat(0, i + 1, "P"),
                                               options={}, seed=i)
                game.status = Status.RUNNING if i < games else Status.FINISHED
                await store.save_game(game)
            metrics = Metrics()
            for kind in (*registry.game_ids(), "lobby", "menu"):
                metrics.presses.labels(kind).inc()
            for i in range(1000):
                metrics.answer_latency.observe(i / 10_000)
            server = WebServer(port=None, metrics_port=0, host="127.0.0.1")
            server.add_routes(health.routes(store, metrics, lambda: None), private=True)
            await server.start()
            times, size = [], 0
            try:
                async with aiohttp.ClientSession() as session:
                    url = f"http://127.0.0.1:{server.private_port}/metrics"
                    for _ in range(SCRAPES):
                        started = time.perf_counter()
                        async with session.get(url) as response:
                            size = len(await response.read())
                        times.append((time.perf_counter() - started) * 1000)
            finally:
                await server.stop()
        finally:
            await store.close()
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)], size


def figures(argv: list[str]):
    games = int(argv[0]) if argv else 200
    yield "metrics per press (count, classify, observe the answer, 2 requests)", _press_cost(), "µs"
    median, p95, size = asyncio.run(_scrape(games))
    yield f"GET /metrics, {games} open + {FINISHED} finished games: median", median, "ms"
    yield f"GET /metrics, {games} open + {FINISHED} finished games: p95", p95, "ms"
    yield "/metrics page", size / 1024, "KB"

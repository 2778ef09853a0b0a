"""What the bot counts, for Prometheus (``/metrics`` on ``METRICS_PORT``, see bot/ops/web.py).

One ``Metrics`` per bot, on a registry of its own (not prometheus-client's global one: tests run
several bots in one process). Where the figures come from, so that no game code counts anything:

- updates and presses are counted as they arrive, when they enter the Application's update
  queue (``ArrivalQueue``: the poller and the webhook both put them there);
- the press → answer latency runs from that arrival to the moment the answerCallbackQuery
  request goes out, and the requests to Telegram and their 429s are counted where every request
  is made (``CountingRequest``, our request to the Bot API with a counter);
- drawing time is measured around the drawing jobs (``timed_drawing`` wraps the ``render``
  the core is built with);
- games by status are read from the store when scraped (one grouped count on an index);
- the whole bot's pace of writes and its 429s by kind, and the writes waiting and in flight,
  are read from the pacer when scraped (bot/outgoing/pace.py: what it has learnt, and whether
  each 429 was one chat's or many chats' at once); the broadcasts Telegram took with
  ``allow_paid_broadcast`` are counted where the requests are made;
- ``set_active`` says whether this process serves (1) or waits as a standby (0).
"""
from __future__ import annotations

import asyncio
import collections
import logging
import time
from typing import Any, Awaitable, Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from telegram import Update

from bot.outgoing.http import AiohttpRequest
from bot.outgoing.pacing import Pacer
from bot.storage.store import GameStore, Status

log = logging.getLogger(__name__)

# Presses whose answer is awaited, at most (the oldest is forgotten: a press never answered must
# not stay in memory for good).
PRESSES_WAITING_MAX = 10_000
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0)
DRAWING_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# The kinds of update the bot asks for; anything else is "other".
UPDATE_KINDS = ("message", "callback_query", "my_chat_member", "edited_message", "chat_member")
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Metrics:
    def __init__(self, pacer: Pacer | None = None) -> None:
        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)  # memory, CPU, open files of this process
        if pacer is not None:
            registry.register(_PacerCollector(pacer))
        self.updates = Counter("tablebot_updates", "Updates from Telegram, by kind", ["kind"], registry=registry)
        self.presses = Counter("tablebot_presses", "Button presses, by what was pressed: a game's kind, "
                               "a lobby, the menu, or other", ["kind"], registry=registry)
        self.answer_latency = Histogram("tablebot_press_answer_seconds", "From a press's arrival to its "
                                        "answerCallbackQuery going out", buckets=LATENCY_BUCKETS, registry=registry)
        self.requests = Counter("tablebot_telegram_requests", "Requests to the Bot API (polling aside), by method",
                                ["method"], registry=registry)
        self.floods = Counter("tablebot_telegram_flood_waits", "429 Too Many Requests from the Bot API, by method",
                              ["method"], registry=registry)
        self.paid_broadcasts = Counter("tablebot_paid_broadcasts", "Messages Telegram took with allow_paid_broadcast "
                                       "(TABLEBOT_PAID_BROADCAST; 0.1 Stars each beyond the free 30 a second)",
                                       registry=registry)
        self.games = Gauge("tablebot_games", "Games in the database, by status", ["status"], registry=registry)
        self.drawing = Histogram("tablebot_drawing_seconds", "Drawing a picture, from asking a drawing process "
                                 "to having it", buckets=DRAWING_BUCKETS, registry=registry)
        self.active = Gauge("tablebot_active", "1 while this process serves the bot, 0 while it waits as a standby",
                            registry=registry)
        self._waiting: collections.OrderedDict[str, float] = collections.OrderedDict()  # press id -> arrival

    # ---- counted where it happens ---------------------------------------------------------------

    def arrived(self, update: object, press_kind: Callable[[str | None], str]) -> None:
        """An update entered the queue (``press_kind`` names what a press was made on)."""
        if not isinstance(update, Update):
            return
        self.updates.labels(_kind(update)).inc()
        query = update.callback_query
        if query is not None:
            self.presses.labels(press_kind(query.data)).inc()
            self._waiting[query.id] = time.perf_counter()
            if len(self._waiting) > PRESSES_WAITING_MAX:
                self._waiting.popitem(last=False)

    def answering(self, query_id: Any) -> None:
        """The answer to a press goes out now (a retry of it is not counted again)."""
        arrival = self._waiting.pop(query_id, None)
        if arrival is not None:
            self.answer_latency.observe(time.perf_counter() - arrival)

    def requested(self, method: str, status: int, *, paid: bool = False) -> None:
        self.requests.labels(method).inc()
        if status == 429:
            self.floods.labels(method).inc()
        elif paid and status == 200:  # Telegram charges only what it took
            self.paid_broadcasts.inc()

    def set_active(self, active: bool) -> None:
        """This process serves (True) or waits as a standby (False)."""
        self.active.set(1 if active else 0)

    def timed_drawing(self, render: Callable[[Callable[[], bytes]], Awaitable[bytes]]
                      ) -> Callable[[Callable[[], bytes]], Awaitable[bytes]]:
        """``render`` (bot/workers/pool.py's) with its time observed."""
        async def timed(job: Callable[[], bytes]) -> bytes:
            started = time.perf_counter()
            try:
                return await render(job)
            finally:
                self.drawing.observe(time.perf_counter() - started)
        return timed

    # ---- read when scraped ----------------------------------------------------------------------

    async def exposition(self, store: GameStore) -> bytes:
        """The text Prometheus scrapes: the games counted now, then everything."""
        counts = await store.games_by_status()
        for status in Status:
            self.games.labels(status.value).set(counts.get(status.value, 0))
        return generate_latest(self.registry)

    def exposition_without_games(self) -> bytes:
        """The same when the database does not answer (the games as last counted)."""
        return generate_latest(self.registry)


class _PacerCollector:
    """The whole bot's pace, its 429s by kind and its writes waiting, as they are when scraped."""

    def __init__(self, pacer: Pacer):
        self.pacer = pacer

    def collect(self):
        pacer = self.pacer
        yield GaugeMetricFamily("tablebot_bot_writes_per_second", "The pace of the whole bot's writes: learnt from "
                                "Telegram's 429s, or TABLEBOT_BOT_WRITES_PER_SECOND", value=pacer.pace.value)
        floods = CounterMetricFamily("tablebot_write_floods", "429s to writes, by kind: one chat's own limit (chat), "
                                     "or many chats at once: a limit of the whole bot (bot)", labels=["kind"])
        for kind, count in pacer.pace.counts().items():
            floods.add_metric([kind], count)
        yield floods
        yield GaugeMetricFamily("tablebot_writes_waiting", "Writes waiting for their turn (a group's budget, the "
                                "bot's pace, a place in flight)", value=pacer.waiting)
        yield GaugeMetricFamily("tablebot_writes_in_flight", "Writes sent and not answered yet", value=pacer.flying)
        if pacer.in_flight is not None:
            yield GaugeMetricFamily("tablebot_writes_in_flight_limit", "How many writes may be in flight: follows how "
                                    "fast Telegram answers", value=pacer.in_flight.value)



def _kind(update: Update) -> str:
    for kind in UPDATE_KINDS:
        if getattr(update, kind) is not None:
            return kind
    return "other"


class ArrivalQueue(asyncio.Queue):
    """The Application's update queue, counting what arrives (the poller and the webhook both
    put updates here; python-telegram-bot's ``put`` ends in ``put_nowait``)."""

    def __init__(self, metrics: Metrics, press_kind: Callable[[str | None], str]):
        super().__init__()
        self._metrics = metrics
        self._press_kind = press_kind

    def put_nowait(self, item: object) -> None:
        try:
            self._metrics.arrived(item, self._press_kind)
        except Exception:  # a count must never cost an update
            log.exception("could not count an update")
        super().put_nowait(item)


class CountingRequest(AiohttpRequest):
    """A request to the Bot API (bot/outgoing/http.py), counting every request by method and noting when
    the answer to a press goes out."""

    def __init__(self, metrics: Metrics, connections: int, **kwargs: Any):
        super().__init__(connections, **kwargs)
        self._metrics = metrics

    async def do_request(self, url: str, method: str, request_data=None, **timeouts: Any) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        if name == "answerCallbackQuery" and request_data is not None:
            self._metrics.answering(request_data.parameters.get("callback_query_id"))
        status, payload = await super().do_request(url, method, request_data, **timeouts)
        paid = request_data is not None and bool(request_data.parameters.get("allow_paid_broadcast"))
        self._metrics.requested(name, status, paid=paid)

        return status, payload

"""Pacing writes to a group: Telegram allows about 20 messages (and edits) a minute per group.

Each group has a token bucket: a small burst for quick replies, then one write every
``window / (per_minute - burst)`` seconds, never more than ``per_minute`` in any window. So a
busy game's edits are spread evenly (one every ~3.5 s at 20 a minute) instead of a burst and
then a long stall. After a 429 (``hold``), every write to that group waits it out.

Writers that wait are served by priority: first a person waiting (``PERSON``: a command's reply,
a turn ping, the results), then the game's own messages (``GAME``: a table or lobby edit, which
is coalesced and drawn when it goes out, so waiting costs it nothing), then clean-up (``TIDY``:
deleting an old ping, taking buttons off). Game messages and clean-up also leave one token of the
burst to people, so a reply in a busy group goes out at the next spacing, not after the edits.
A writer moves up a rank for every ``patience`` seconds it has waited (a sixth of the
window: 10 s at Telegram's minute), so that a stream of replies can delay the table, never
starve it. A waiter may say it is no longer wanted (``still``, e.g. a ping whose turn has
passed): it is dropped without spending a token.
"""
from __future__ import annotations

import asyncio
import itertools
import time
from dataclasses import dataclass, field
from typing import Callable

PERSON, GAME, TIDY = 0, 1, 2  # who waits for a write (see the module's docstring)


@dataclass
class _Waiter:
    priority: int
    order: int
    since: float
    future: asyncio.Future
    still: Callable[[], bool] | None


@dataclass
class _Lane:
    tokens: float
    refilled: float
    last: float = float("-inf")
    hold_until: float = 0.0
    waiters: list[_Waiter] = field(default_factory=list)  # a handful at most: chosen by rank
    granter: asyncio.Task | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # a new waiter may go first


class GroupPacer:
    def __init__(self, per_minute: int, fast_spacing: float, window: float = 60.0, patience: float | None = None):
        self.per_minute = max(1, per_minute)
        # A burst of a sixth of the budget (3 at 20 a minute): Start's lobby edit and table post
        # go out at once; the rest of the budget refills evenly over the window.
        self.burst = max(1, self.per_minute // 6) if self.per_minute > 1 else 1
        self.rate = max(self.per_minute - self.burst, 1) / window  # tokens per second
        self.fast_spacing = fast_spacing
        self.patience = window / 6 if patience is None else patience  # waiting that moves a writer up a rank
        self._lanes: dict[int, _Lane] = {}
        self._order = itertools.count()

    def _lane(self, chat_id: int) -> _Lane:
        lane = self._lanes.get(chat_id)
        if lane is None:
            lane = self._lanes[chat_id] = _Lane(tokens=float(self.burst), refilled=time.monotonic())
        return lane

    def _delay(self, lane: _Lane, now: float, priority: int) -> float:
        """Seconds until this lane may write again for a writer of ``priority``."""
        lane.tokens = min(float(self.burst), lane.tokens + (now - lane.refilled) * self.rate)
        lane.refilled = now
        need = 1.0 if priority == PERSON else min(2.0, float(self.burst))  # one token kept for people
        wait_token = 0.0 if lane.tokens >= need else (need - lane.tokens) / self.rate
        return max(wait_token, lane.last + self.fast_spacing - now, lane.hold_until - now, 0.0)

    async def wait(self, chat_id: int, *, priority: int = GAME, still: Callable[[], bool] | None = None) -> bool:
        """Return when a write to this group may go out: True, or False when ``still()`` said
        meanwhile that it is no longer wanted (no token spent)."""
        lane = self._lane(chat_id)
        future = asyncio.get_running_loop().create_future()
        lane.waiters.append(_Waiter(priority, next(self._order), time.monotonic(), future, still))
        lane.wake.set()
        if lane.granter is None or lane.granter.done():
            lane.granter = asyncio.get_running_loop().create_task(self._grant(chat_id, lane))
        return await future

    def _rank(self, waiter: _Waiter, now: float) -> int:
        """Its priority, one rank higher for every ``patience`` seconds it has waited."""
        return max(PERSON, waiter.priority - int((now - waiter.since) // self.patience))

    async def _grant(self, chat_id: int, lane: _Lane) -> None:
        while lane.waiters:
            now = time.monotonic()
            waiter = min(lane.waiters, key=lambda w: (self._rank(w, now), w.order))
            if waiter.future.done():  # its writer gave up (cancelled)
                lane.waiters.remove(waiter)
                continue
            if waiter.still is not None and not waiter.still():
                lane.waiters.remove(waiter)
                waiter.future.set_result(False)
                continue
            delay = self._delay(lane, now, self._rank(waiter, now))
            if delay > 0:
                lane.wake.clear()
                try:  # until then, or until a new waiter (who may go first) arrives
                    await asyncio.wait_for(lane.wake.wait(), delay)
                except TimeoutError:
                    pass
                continue
            lane.waiters.remove(waiter)
            lane.tokens -= 1
            lane.last = time.monotonic()
            waiter.future.set_result(True)
        if not lane.waiters and lane.tokens >= self.burst and lane.hold_until <= time.monotonic():
            self._lanes.pop(chat_id, None)  # an idle group costs nothing

    async def close(self, timeout: float = 1.0) -> None:
        """Cancel the granters and the writers still waiting, and wait until the granters have
        stopped (at shut-down: no task is left pending when the event loop closes)."""
        granters = [lane.granter for lane in self._lanes.values()
                    if lane.granter is not None and not lane.granter.done()]
        for lane in self._lanes.values():
            for waiter in lane.waiters:
                waiter.future.cancel()
        for task in granters:
            task.cancel()
        if granters:
            await asyncio.wait(granters, timeout=timeout)
        self._lanes.clear()

    def hold(self, chat_id: int, seconds: float) -> None:
        """Telegram said 429 for this group: no write to it before ``seconds`` have passed."""
        lane = self._lane(chat_id)
        lane.hold_until = max(lane.hold_until, time.monotonic() + seconds)
        lane.tokens = min(lane.tokens, 0.0)


class RateLimit:
    """At most ``per_second`` calls a second overall (Telegram's ~30 messages a second per bot)."""

    def __init__(self, per_second: float):
        self.per_second = per_second
        self._tokens = per_second
        self._refilled = time.monotonic()
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:
            while True:
                now = time.monotonic()
                self._tokens = min(self.per_second, self._tokens + (now - self._refilled) * self.per_second)
                self._refilled = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.per_second)

"""Pacing what the bot writes: Telegram's limits per group and for the whole bot, in one queue.

Telegram takes about 20 messages (and edits) a minute into a group and about 30 a second from a
whole bot; beyond that it answers 429 and makes the chat wait. The pacer lets a write out when
both limits allow it, and only while fewer writes are in flight than Telegram answers promptly
(bot/outgoing/inflight.py). Writes that cannot go yet wait here, where a table's edits are
coalesced (one waits per table: bot/table/background.py), not in the HTTP connection pool.

Groups. Each group has a token bucket: a small burst for quick replies, then one write every
``window / (per_minute - burst)`` seconds, never more than ``per_minute`` in any window. So a
busy game's edits are spread evenly (one every ~3.5 s at 20 a minute) instead of a burst and
then a long stall. After a 429 (``hold``) every write to that chat waits it out. A private chat
has no bucket, only its holds.

Who goes first, in a group and in the whole bot's budget alike: a person waiting (``PERSON``: a
command's reply, a turn mention, the results), then the game's own messages (``GAME``: a table
or lobby edit, drawn when it goes out, so waiting costs it nothing), then clean-up (``TIDY``:
an old ping deleted, buttons taken off). Urgency is a deadline: a writer counts as a person
waiting ``priority × patience`` seconds after it came (``patience``: a sixth of the window, 10 s
at Telegram's minute), so that a stream of replies delays the tables and never starves them.
Game writes and clean-up also leave one token of a group's burst to people, so a reply in a busy
group goes out at the next spacing, not after the edits. Among the chats whose bucket allows a
write now, the most urgent writer goes; between writers equally urgent, the one that came
first. When a thousand groups want more than the bot's 30 writes a second, each table's edit
therefore waits behind the others' that came before it, then goes: every group's table moves
forward in turn.

In flight. A write let out holds a place until Telegram has answered it (``Slot.done``, which
also tells the limit how long that took). A share of the places is kept for people: when only
those are free, a game's edit waits and a reply goes.

A waiter may say it is no longer wanted (``still``, e.g. a ping whose turn has passed): it is
dropped without spending a token.
"""
from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from dataclasses import dataclass, field
from typing import Callable

from bot.outgoing.inflight import InFlightLimit

PERSON, GAME, TIDY = 0, 1, 2  # who waits for a write (see the module's docstring)


@dataclass(eq=False)
class _Waiter:
    since: float
    deadline: float  # from then on it counts as a person waiting
    order: int
    future: asyncio.Future
    still: Callable[[], bool] | None
    tag: object = None  # the writers it may be hurried with (``Pacer.hurry``)


@dataclass(eq=False)
class _Lane:
    """One chat: its bucket (a group's), its hold after a 429, its writers waiting."""
    chat_id: int
    tokens: float
    refilled: float
    last: float = float("-inf")
    hold_until: float = 0.0
    waiters: list[_Waiter] = field(default_factory=list)  # a handful at most: one per key of the game
    stamp: int = -1  # of its one valid entry in the pacer's queues; older entries are skipped


class Slot:
    """A write's place in flight; ``done`` when Telegram answered it (or the write failed)."""

    __slots__ = ("_pacer", "started", "crowded", "_open")

    def __init__(self, pacer: Pacer, started: float, crowded: bool):
        self._pacer, self.started, self.crowded, self._open = pacer, started, crowded, True

    def done(self, seconds: float | None = None, *, failed: bool = False) -> None:
        """Free the place; ``seconds``: how long Telegram took to answer (None: not a measure
        of its speed, e.g. a 429 or a write cancelled), ``failed``: it broke on the way."""
        if self._open:
            self._open = False
            self._pacer._release(self, seconds, failed)


class Pacer:
    def __init__(self, per_minute: int, fast_spacing: float, window: float = 60.0, patience: float | None = None,
                 *, per_second: float = 30.0, in_flight: InFlightLimit | None = None):
        self.per_minute = max(1, per_minute)
        # A burst of a sixth of the budget (3 at 20 a minute): Start's lobby edit and table post
        # go out at once; the rest of the budget refills evenly over the window.
        self.burst = max(1, self.per_minute // 6) if self.per_minute > 1 else 1
        self.rate = max(self.per_minute - self.burst, 1) / window  # a group's tokens per second
        self.fast_spacing = fast_spacing
        self.patience = window / 6 if patience is None else patience  # waiting that moves a writer up a rank
        self.per_second = per_second  # the whole bot's budget
        self.in_flight = in_flight  # None: no limit
        self._tokens, self._refilled = per_second, time.monotonic()
        self._flying = 0
        self._lanes: dict[int, _Lane] = {}
        self._ready: list[tuple] = []  # (deadline, order, stamp, lane, waiter): may write now
        self._later: list[tuple] = []  # (when, stamp, lane): its bucket or hold allows it then
        self._order = itertools.count()
        self._stamps = itertools.count()
        self._runner: asyncio.Task | None = None
        self._alarm: asyncio.Future | None = None

    @property
    def flying(self) -> int:
        """Writes let out and not answered yet."""
        return self._flying

    # ---- the writers' side ------------------------------------------------------------------

    async def wait(self, chat_id: int, *, priority: int = GAME, still: Callable[[], bool] | None = None,
                   tag: object = None) -> Slot | None:
        """Return when a write to this chat may go out: its place in flight (``done`` it when
        Telegram answered), or None when ``still()`` said meanwhile that it is no longer wanted
        (no token spent). ``tag``: see ``hurry``."""
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        lane = self._lanes.get(chat_id)
        if lane is None:
            lane = self._lanes[chat_id] = _Lane(chat_id, float(self.burst), now)
        waiter = _Waiter(now, now + priority * self.patience, next(self._order), loop.create_future(), still, tag)
        lane.waiters.append(waiter)
        self._place(lane, now)
        self._wake()
        if self._runner is None or self._runner.done():
            self._runner = loop.create_task(self._run())
            if self.in_flight is not None:
                self.in_flight.lag.watch()
        try:
            return await waiter.future
        except asyncio.CancelledError:  # given up: a place granted meanwhile goes back
            if waiter.future.done() and not waiter.future.cancelled() and waiter.future.result() is not None:
                waiter.future.result().done()
            raise

    def hurry(self, chat_id: int, tag: object, priority: int) -> None:
        """The writers of this chat waiting with ``tag`` are from now on at least as urgent as
        ``priority`` (a reply that a more urgent one waits behind takes its rank)."""
        lane = self._lanes.get(chat_id)
        hurried = False
        for waiter in lane.waiters if lane is not None else ():
            deadline = waiter.since + priority * self.patience
            if waiter.tag is tag and deadline < waiter.deadline:
                waiter.deadline, hurried = deadline, True
        if hurried:
            self._place(lane, time.monotonic())
            self._wake()

    def hold(self, chat_id: int, seconds: float) -> None:
        """Telegram said 429 for this chat: no write to it before ``seconds`` have passed."""
        now = time.monotonic()
        lane = self._lanes.get(chat_id)
        if lane is None:
            lane = self._lanes[chat_id] = _Lane(chat_id, float(self.burst), now)
        lane.hold_until = max(lane.hold_until, now + seconds)
        lane.tokens = min(lane.tokens, 0.0)
        self._place(lane, now)
        self._wake()

    async def close(self, timeout: float = 1.0) -> None:
        """Cancel the writers still waiting and the pacer's task, and wait until it has stopped
        (at shut-down: no task is left pending when the event loop closes)."""
        for lane in self._lanes.values():
            for waiter in lane.waiters:
                waiter.future.cancel()
        runner, self._runner = self._runner, None
        if self.in_flight is not None:
            self.in_flight.lag.stop()
        if runner is not None and not runner.done():
            runner.cancel()
            await asyncio.wait([runner], timeout=timeout)
        self._lanes.clear()
        self._ready.clear()
        self._later.clear()

    # ---- where each chat stands -------------------------------------------------------------

    def _place(self, lane: _Lane, now: float) -> None:
        """Queue the lane anew: ready now for its most urgent writer, or when its bucket (or
        hold) allows; an idle lane is let go once it has nothing to remember."""
        lane.stamp = next(self._stamps)
        lane.waiters = [w for w in lane.waiters if not w.future.done()]
        if not lane.waiters:
            forget_at = self._idle_until(lane, now)
            if forget_at <= now:
                self._lanes.pop(lane.chat_id, None)
            else:
                heapq.heappush(self._later, (forget_at, lane.stamp, lane))
            return
        first = min(lane.waiters, key=lambda w: (w.deadline, w.order))
        delay = self._delay(lane, now, first)
        if delay <= 0:
            heapq.heappush(self._ready, (first.deadline, first.order, lane.stamp, lane, first))
        else:
            heapq.heappush(self._later, (now + delay, lane.stamp, lane))

    def _refill(self, lane: _Lane, now: float) -> None:
        lane.tokens = min(float(self.burst), lane.tokens + (now - lane.refilled) * self.rate)
        lane.refilled = now

    def _delay(self, lane: _Lane, now: float, first: _Waiter) -> float:
        """Seconds until the lane may write for ``first``: a group's bucket and spacing, a hold."""
        held = lane.hold_until - now
        if lane.chat_id > 0:
            return held
        self._refill(lane, now)

        def until(tokens: float) -> float:
            return 0.0 if lane.tokens >= tokens else (tokens - lane.tokens) / self.rate
        if first.deadline <= now:  # a person (or one waiting as long): one token
            need = until(1.0)
        else:  # one token is kept for people, until it has waited as long as a person
            need = min(until(min(2.0, float(self.burst))), max(until(1.0), first.deadline - now))
        return max(need, lane.last + self.fast_spacing - now, held)

    def _idle_until(self, lane: _Lane, now: float) -> float:
        """When an idle lane holds nothing worth keeping (full bucket, no hold)."""
        if lane.chat_id > 0:
            return lane.hold_until
        self._refill(lane, now)
        return max(now + (self.burst - lane.tokens) / self.rate, lane.hold_until)

    # ---- letting writes out -----------------------------------------------------------------

    async def _run(self) -> None:
        while self._ready or self._later:
            now = time.monotonic()
            while self._later and self._later[0][0] <= now:
                _, stamp, lane = heapq.heappop(self._later)
                if stamp == lane.stamp:
                    self._place(lane, now)
            while self._ready and self._ready[0][2] != self._ready[0][3].stamp:
                heapq.heappop(self._ready)
            if not self._ready:
                if self._later:
                    await self._sleep(self._later[0][0])
                continue
            deadline, _, _, lane, waiter = self._ready[0]
            if waiter.future.done() or waiter.still is not None and not waiter.still():
                heapq.heappop(self._ready)
                lane.waiters.remove(waiter)
                if not waiter.future.done():
                    waiter.future.set_result(None)
                self._place(lane, now)
                continue
            until = self._bot_allows(now, urgent=deadline <= now, deadline=deadline)
            if until is None or until > now:
                await self._sleep(until)
                continue
            heapq.heappop(self._ready)
            lane.waiters.remove(waiter)
            self._grant(lane, waiter, now)
            self._place(lane, now)

    def _bot_allows(self, now: float, *, urgent: bool, deadline: float) -> float | None:
        """When the whole bot may let one more write out: now, a time, or None (when a place
        in flight is freed)."""
        self._tokens = min(self.per_second, self._tokens + (now - self._refilled) * self.per_second)
        self._refilled = now
        if self.in_flight is not None:
            kept = 0 if urgent else self.in_flight.reserve  # places kept for people
            if self._flying >= self.in_flight.value - kept:
                return None if urgent else deadline  # a freed place, or the writer's deadline
        return now if self._tokens >= 1 else now + (1 - self._tokens) / self.per_second

    def _grant(self, lane: _Lane, waiter: _Waiter, now: float) -> None:
        if lane.chat_id < 0:
            self._refill(lane, now)
            lane.tokens -= 1
        lane.last = now
        self._tokens -= 1
        self._flying += 1
        crowded = self.in_flight is not None and self._flying >= self.in_flight.value - self.in_flight.reserve
        waiter.future.set_result(Slot(self, now, crowded))

    def _release(self, slot: Slot, seconds: float | None, failed: bool) -> None:
        self._flying -= 1
        if self.in_flight is not None and (seconds is not None or failed):
            self.in_flight.answered(slot.started, seconds or 0.0, crowded=slot.crowded, failed=failed)
        self._wake()

    async def _sleep(self, until: float | None) -> None:
        """Until ``until`` (monotonic; None: no time), the next lane's time, or a wake-up."""
        if self._later and (until is None or self._later[0][0] < until):
            until = self._later[0][0]
        loop = asyncio.get_running_loop()
        self._alarm = alarm = loop.create_future()
        timer = None
        if until is not None:
            timer = loop.call_later(max(0.0, until - time.monotonic()), _ring, alarm)
        try:
            await alarm
        finally:
            self._alarm = None
            if timer is not None:
                timer.cancel()

    def _wake(self) -> None:
        """Something changed (a writer came, a place was freed): look again."""
        if self._alarm is not None and not self._alarm.done():
            self._alarm.set_result(None)


def _ring(alarm: asyncio.Future) -> None:
    if not alarm.done():
        alarm.set_result(None)

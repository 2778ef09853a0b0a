"""Pacing what the bot writes: each group's budget, the whole bot's pace, in one queue.

Telegram takes about 20 messages (edits included) a minute into a group; beyond that it answers
429 and makes the chat wait. How much the whole bot may send is learnt from Telegram's answers
(bot/outgoing/pace.py). The pacer lets a write out when its group's budget and the bot's pace
allow it, and only while fewer writes are in flight than Telegram answers promptly
(bot/outgoing/inflight.py). Writes that cannot go yet wait here, where a table's edits are
coalesced (one waits per table: bot/table/background.py), not in the HTTP connection pool.

Lanes. Each chat the bot writes to is a lane, keyed by its chat id (``group_budget`` says which
keys have a group's budget; a lane may later be keyed otherwise, e.g. an inline message's
``chat_instance``). A group's lane has a token bucket: a small burst for quick replies, then one
write every ``window / (per_minute - burst)`` seconds, never more than ``per_minute`` in any
window. So a busy game's edits are spread evenly (one every ~3.5 s at 20 a minute) instead of a
burst and then a long stall. After a 429 (``refused``, ``hold``) every write to that chat waits
it out. A private chat has no bucket, only its holds.

The whole bot. A bucket refilled at the learnt pace, holding a tenth of a second of it, so that
writes go out evenly; when writes wait for it, the pace may grow (``BotPace.held_back``); a 429
tells it too (``refused``).

Broadcasts (``broadcast=True``: the maintenance notice, next-game notices, a season's end;
messages to many chats at once that nobody waits for) are a class of their own: at most
``BROADCASTS_PER_SECOND`` in any second, Telegram's advice for bulk notifications; with paid
broadcasts (``TABLEBOT_PAID_BROADCAST``, ``allow_paid_broadcast``) up to 1,000, outside the bot's
pace. A lane whose next writer is a broadcast waits for the class's turn in a queue of its own
(first come, first served), so a thousand notices hold up no other write in the bot.

Who goes first, in a group and in the whole bot's budget alike: a person waiting (``PERSON``: a
command's reply, a turn mention, the results), then the game's own messages (``GAME``: a table
or lobby edit, drawn when it goes out, so waiting costs it nothing), then clean-up and broadcasts
(``TIDY``: an old ping deleted, buttons taken off). Urgency is a deadline: a writer counts as a
person waiting ``priority × patience`` seconds after it came (``patience``: a sixth of the
window, 10 s at Telegram's minute), so that a stream of replies delays the tables and never
starves them. Game writes and clean-up also leave one token of a group's burst to people, so a
reply in a busy group goes out at the next spacing, not after the edits. Among the chats whose
bucket allows a write now, the most urgent writer goes; between writers equally urgent, the one
that came first. When a thousand groups want more than the bot's pace, each table's edit
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
import collections
import heapq
import itertools
from dataclasses import dataclass, field
from typing import Callable, Hashable

from bot.outgoing.inflight import InFlightLimit
from bot.outgoing.pace import BotPace

PERSON, GAME, TIDY = 0, 1, 2  # who waits for a write (see the module's docstring)
BROADCASTS_PER_SECOND = 30  # the Bot FAQ: "not more than about 30 messages per second" in bulk
PAID_BROADCASTS_PER_SECOND = 1000  # with allow_paid_broadcast (0.1 Stars a message beyond the free 30)
BROADCAST_MARGIN = 0.05  # seconds more in a broadcasts' "second" (the way to Telegram varies)
BURST_SECONDS = 0.1  # the bot's bucket holds this much of its pace


def group_budget(key: Hashable) -> bool:
    """Whether the lane ``key`` keeps to a group's budget: a group's chat id (negative). A
    private chat (positive) has none; a lane keyed otherwise says here whether it has one."""
    return isinstance(key, int) and key < 0


@dataclass(eq=False)
class _Waiter:
    since: float
    deadline: float  # from then on it counts as a person waiting
    order: int
    future: asyncio.Future
    still: Callable[[], bool] | None
    tag: object = None  # the writers it may be hurried with (``Pacer.hurry``)
    broadcast: bool = False


@dataclass(eq=False)
class _Lane:
    """One chat: its bucket (a group's), its hold after a 429, its writers waiting."""
    key: Hashable
    budget: bool  # a group's budget (``group_budget``)
    tokens: float
    refilled: float
    last: float = float("-inf")
    hold_until: float = 0.0
    waiters: list[_Waiter] = field(default_factory=list)  # a handful at most: one per key of the game
    stamp: int = -1  # of its one valid entry in the pacer's queues; older entries are skipped


class Slot:
    """A write's place in flight; ``done`` when Telegram answered it (or the write failed)."""

    __slots__ = ("_pacer", "started", "crowded", "paced", "_open")

    def __init__(self, pacer: Pacer, started: float, crowded: bool, paced: bool):
        self._pacer, self.started, self.crowded, self.paced, self._open = pacer, started, crowded, paced, True

    def done(self, seconds: float | None = None, *, failed: bool = False) -> None:
        """Free the place; ``seconds``: how long Telegram took to answer (None: not a measure
        of its speed, e.g. a 429 or a write cancelled), ``failed``: it broke on the way."""
        if self._open:
            self._open = False
            self._pacer._release(self, seconds, failed)


class Pacer:
    def __init__(self, per_minute: int, fast_spacing: float, window: float = 60.0, patience: float | None = None,
                 *, pace: BotPace | None = None, in_flight: InFlightLimit | None = None,
                 paid_broadcasts: bool = False):
        self.per_minute = max(1, per_minute)
        # A burst of a sixth of the budget (3 at 20 a minute): Start's lobby edit and table post
        # go out at once; the rest of the budget refills evenly over the window.
        self.burst = max(1, self.per_minute // 6) if self.per_minute > 1 else 1
        self.rate = max(self.per_minute - self.burst, 1) / window  # a group's tokens per second
        self.fast_spacing = fast_spacing
        self.patience = window / 6 if patience is None else patience  # waiting that moves a writer up a rank
        self.pace = BotPace() if pace is None else pace  # the whole bot's writes a second
        self.in_flight = in_flight  # None: no limit
        self.paid_broadcasts = paid_broadcasts
        self.broadcasts_per_second = PAID_BROADCASTS_PER_SECOND if paid_broadcasts else BROADCASTS_PER_SECOND
        self._tokens, self._refilled = 1.0, float("-inf")  # full at first
        self._flying = 0
        self._lanes: dict[Hashable, _Lane] = {}
        self._ready: list[tuple] = []  # (deadline, order, stamp, lane, waiter): may write now
        self._later: list[tuple] = []  # (when, stamp, lane): its bucket or hold allows it then
        self._broadcasts: list[tuple] = []  # (order, stamp, lane, waiter): waiting for their class's turn
        self._admitted: tuple | None = None  # the one of those whose turn has come, in ``_ready``
        self._broadcast_times: collections.deque[float] = collections.deque()  # broadcasts let out lately
        self._order = itertools.count()
        self._stamps = itertools.count()
        self._runner: asyncio.Task | None = None
        self._alarm: asyncio.Future | None = None

    @property
    def flying(self) -> int:
        """Writes let out and not answered yet."""
        return self._flying

    @property
    def waiting(self) -> int:
        """Writes waiting for their turn."""
        return sum(len(lane.waiters) for lane in self._lanes.values())

    # ---- the writers' side ------------------------------------------------------------------

    async def wait(self, chat: Hashable, *, priority: int = GAME, still: Callable[[], bool] | None = None,
                   tag: object = None, broadcast: bool = False) -> Slot | None:
        """Return when a write to this chat may go out: its place in flight (``done`` it when
        Telegram answered), or None when ``still()`` said meanwhile that it is no longer wanted
        (no token spent). ``tag``: see ``hurry``; ``broadcast``: one of many chats told the same
        (see the module's docstring)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        lane = self._lane(chat, now)
        waiter = _Waiter(now, now + priority * self.patience, next(self._order), loop.create_future(), still, tag,
                         broadcast)
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

    def hurry(self, chat: Hashable, tag: object, priority: int) -> None:
        """The writers of this chat waiting with ``tag`` are from now on at least as urgent as
        ``priority`` (a reply that a more urgent one waits behind takes its rank)."""
        lane = self._lanes.get(chat)
        hurried = False
        for waiter in lane.waiters if lane is not None else ():
            deadline = waiter.since + priority * self.patience
            if waiter.tag is tag and deadline < waiter.deadline:
                waiter.deadline, hurried = deadline, True
        if hurried:
            self._place(lane, _now())
            self._wake()

    def hold(self, chat: Hashable, seconds: float) -> None:
        """No write to this chat before ``seconds`` have passed (Telegram's ``retry_after``)."""
        now = _now()
        lane = self._lane(chat, now)
        lane.hold_until = max(lane.hold_until, now + seconds)
        lane.tokens = min(lane.tokens, 0.0)
        self._place(lane, now)
        self._wake()

    def refused(self, chat: Hashable, seconds: float, slot: Slot | None) -> None:
        """Telegram answered 429 to the write that held ``slot``: its chat waits ``seconds``, and
        the bot's pace hears of it (a whole bot's limit shows as many chats refused at once)."""
        self.hold(chat, seconds)
        if slot is not None and slot.paced:
            self.pace.refused(chat, slot.started)

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
        self._broadcasts.clear()
        self._admitted = None

    # ---- where each chat stands -------------------------------------------------------------

    def _lane(self, key: Hashable, now: float) -> _Lane:
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane(key, group_budget(key), float(self.burst), now)
        return lane

    def _place(self, lane: _Lane, now: float) -> None:
        """Queue the lane anew: ready now for its most urgent writer (a broadcast: in the queue
        for its class's turn), or when its bucket (or hold) allows; an idle lane is let go once
        it has nothing to remember."""
        lane.stamp = next(self._stamps)
        lane.waiters = [w for w in lane.waiters if not w.future.done()]
        if not lane.waiters:
            forget_at = self._idle_until(lane, now)
            if forget_at <= now:
                self._lanes.pop(lane.key, None)
            else:
                heapq.heappush(self._later, (forget_at, lane.stamp, lane))
            return
        first = min(lane.waiters, key=lambda w: (w.deadline, w.order))
        when = now + self._delay(lane, now, first)
        if when > now:  # (a delay too small to move the clock is none: it would be due again at once)
            heapq.heappush(self._later, (when, lane.stamp, lane))
        elif first.broadcast:  # in line by when it came: a lane queued anew keeps its place
            heapq.heappush(self._broadcasts, (first.order, lane.stamp, lane, first))
        else:
            heapq.heappush(self._ready, (first.deadline, first.order, lane.stamp, lane, first))

    def _refill(self, lane: _Lane, now: float) -> None:
        lane.tokens = min(float(self.burst), lane.tokens + (now - lane.refilled) * self.rate)
        lane.refilled = now

    def _delay(self, lane: _Lane, now: float, first: _Waiter) -> float:
        """Seconds until the lane may write for ``first``: a group's bucket and spacing, a hold."""
        held = lane.hold_until - now
        if not lane.budget:
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
        if not lane.budget:
            return lane.hold_until
        self._refill(lane, now)
        return max(now + (self.burst - lane.tokens) / self.rate, lane.hold_until)

    # ---- letting writes out -----------------------------------------------------------------

    async def _run(self) -> None:
        while self._ready or self._later or self._broadcasts:
            now = _now()
            while self._later and self._later[0][0] <= now:
                _, stamp, lane = heapq.heappop(self._later)
                if stamp == lane.stamp:
                    self._place(lane, now)
            turn = self._admit(now)
            while self._ready and self._ready[0][2] != self._ready[0][3].stamp:
                heapq.heappop(self._ready)
            if not self._ready:
                if self._later or turn is not None:
                    await self._sleep(turn)
                continue
            deadline, _, _, lane, waiter = self._ready[0]
            if waiter.future.done() or waiter.still is not None and not waiter.still():
                heapq.heappop(self._ready)
                lane.waiters.remove(waiter)
                if not waiter.future.done():
                    waiter.future.set_result(None)
                self._place(lane, now)
                continue
            paced = not (waiter.broadcast and self.paid_broadcasts)
            until = self._bot_allows(now, urgent=deadline <= now, deadline=deadline, paced=paced)
            if until is None or until > now:
                await self._sleep(turn if until is None or turn is not None and turn < until else until)
                continue
            heapq.heappop(self._ready)
            lane.waiters.remove(waiter)
            self._grant(lane, waiter, now, paced)
            self._place(lane, now)

    def _admit(self, now: float) -> float | None:
        """Let the next broadcast whose group allows it into the queue of writes ready, when
        its class's second has room; returns when to look again (None: no broadcast waits)."""
        if self._admitted is not None and self._admitted[1] != self._admitted[2].stamp:
            self._admitted = None  # its lane was queued anew meanwhile
        while self._broadcasts and self._broadcasts[0][1] != self._broadcasts[0][2].stamp:
            heapq.heappop(self._broadcasts)
        if self._admitted is not None or not self._broadcasts:
            return None
        times = self._broadcast_times
        while times and now - times[0] >= 1.0 + BROADCAST_MARGIN:
            times.popleft()
        if len(times) >= self.broadcasts_per_second:
            return times[0] + 1.0 + BROADCAST_MARGIN
        if times and now - times[-1] < 1.0 / self.broadcasts_per_second:  # evenly: a late one does not catch up
            return times[-1] + 1.0 / self.broadcasts_per_second
        _, stamp, lane, waiter = self._admitted = heapq.heappop(self._broadcasts)
        heapq.heappush(self._ready, (waiter.deadline, waiter.order, stamp, lane, waiter))
        return None

    def _bot_allows(self, now: float, *, urgent: bool, deadline: float, paced: bool) -> float | None:
        """When the whole bot may let one more write out: now, a time, or None (when a place
        in flight is freed). ``paced``: the write spends the bot's pace (a paid broadcast does not)."""
        pace = self.pace.value
        self._tokens = min(max(1.0, pace * BURST_SECONDS), self._tokens + (now - self._refilled) * pace)
        self._refilled = now
        if self.in_flight is not None:
            kept = 0 if urgent else self.in_flight.reserve  # places kept for people
            if self._flying >= self.in_flight.value - kept:
                return None if urgent else deadline  # a freed place, or the writer's deadline
        if not paced or self._tokens >= 1:
            return now
        self.pace.held_back()  # a write its group allows waits for the bot's pace
        return now + (1 - self._tokens) / pace

    def _grant(self, lane: _Lane, waiter: _Waiter, now: float, paced: bool) -> None:
        if lane.budget:
            self._refill(lane, now)
            lane.tokens -= 1
        lane.last = now
        if paced:
            self._tokens -= 1
        if waiter.broadcast:
            self._broadcast_times.append(now)
            self._admitted = None
        self._flying += 1
        crowded = self.in_flight is not None and self._flying >= self.in_flight.value - self.in_flight.reserve
        waiter.future.set_result(Slot(self, now, crowded, paced))

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
            timer = loop.call_later(max(0.0, until - loop.time()), _ring, alarm)
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


def _now() -> float:
    """The event loop's clock (monotonic; a test's loop may run on a clock of its own)."""
    return asyncio.get_running_loop().time()


def _ring(alarm: asyncio.Future) -> None:
    if not alarm.done():
        alarm.set_result(None)

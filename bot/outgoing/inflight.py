"""How many writes may wait for Telegram's answer at once: as many as it answers promptly.

The bot's pace (bot/outgoing/pace.py) says how many writes may start a second; how many may be
under way at once is a second limit, set by how fast Telegram answers. A write in flight holds a
connection, and a Telegram that answers slowly under load (an incident, a busy Bot API server
of one's own) answers slower still the more it is asked at once, the answers to presses among
them. So the limit follows Telegram's answer time, the way TCP's congestion window follows a
network (additive increase, multiplicative decrease), with the answer time as the signal (as in
TCP Vegas, or Netflix's concurrency-limits):

- ``baseline``: the quickest answer to a write in the last ``memory`` seconds, what Telegram
  takes when it is not crowded (as timed: the loop's lag, below, is not taken off it). A
  Telegram far away has a high baseline without being crowded, and the limit grows until its
  budget can go out despite the distance.
- ``recent``: the answer time lately, smoothed (an exponential average over about the last ten
  answers), so that one slow answer (a big picture, a hiccup of the bot's own) cuts nothing.
- While ``recent`` is within ``tolerance`` × baseline (+ ``slack``), an answer that came while
  the limit was what held writes back: one more place (while the limit never had to shrink: at
  once, as TCP's slow start; after that, one per limit's worth of such answers).
- When ``recent`` is slower than that, or a write failed on the way (a time-out, a broken
  connection): a fifth fewer places (half on a failure), once per round trip: the answers to
  writes that started before the last cut do not cut again.
- Never fewer than ``least`` (16: the bot's 30 writes a second still go out while each takes
  half a second; a Telegram slow for reasons of its own is not made faster by fewer, and the
  answers have connections of their own whatever the writes do), never more than ``most``.

An answer time is Telegram's and the bot's own: a busy bot takes an answer off the wire late,
when its event loop comes to it. That part says nothing of Telegram (and fewer writes in flight
would only send fewer in the same time), so it is taken off: ``LoopLag`` measures how late the
loop runs a timer, and a request waits for the loop about twice (its answer arrives, the writer
resumes).
"""
from __future__ import annotations

import asyncio
import collections
import time
from typing import Callable

LOOP_WAITS = 2  # times a request waits for the event loop (its answer is read, its writer resumes)


class LoopLag:
    """How late the event loop runs what is due (seconds): rises at once with a late timer,
    falls back over about a second. ``watch`` starts it on the running loop."""

    def __init__(self, every: float = 0.1):
        self.every = every
        self.value = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def watch(self) -> None:
        if self._timer is None:
            self._next(asyncio.get_running_loop())

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _next(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = loop.call_later(self.every, self._tick, loop, loop.time() + self.every)

    def _tick(self, loop: asyncio.AbstractEventLoop, due: float) -> None:
        late = max(0.0, loop.time() - due)
        self.value = late if late > self.value else self.value + (late - self.value) * 0.3
        self._next(loop)


class InFlightLimit:
    def __init__(self, *, least: int = 16, most: int = 64, start: int = 16, tolerance: float = 2.0,
                 slack: float = 0.1, memory: float = 30.0, clock: Callable[[], float] = time.monotonic,
                 lag: LoopLag | None = None):
        self.least, self.most = min(least, most), most
        self.lag = LoopLag() if lag is None else lag  # the bot's own part of an answer time
        self.tolerance, self.slack = tolerance, slack
        self.memory = memory
        self.clock = clock
        self._limit = float(min(max(start, least), most))
        self._cut_at = float("-inf")  # when the limit last shrank
        self._slow_start = True
        self._quickest: collections.deque[tuple[float, float]] = collections.deque()  # (since, quickest)
        self.recent: float | None = None

    @property
    def value(self) -> int:
        """Writes that may be in flight now."""
        return int(self._limit)

    @property
    def reserve(self) -> int:
        """Of those, the places only a person's write may take (bot/outgoing/pacing.py)."""
        return max(1, self.value // 4)

    @property
    def baseline(self) -> float | None:
        """The quickest answer lately (None before the first)."""
        return min(q for _, q in self._quickest) if self._quickest else None

    def answered(self, started: float, seconds: float, *, crowded: bool, failed: bool = False) -> None:
        """A write that ``started`` (on ``clock``) was answered after ``seconds``, or ``failed`` on
        the way; ``crowded``: the limit was full when it started (so a prompt answer says more
        places would be used)."""
        now = self.clock()
        if failed:
            self._cut(started, now, 0.5)
            return
        # The quickest answer as it was timed: with the loop's lag taken off, an answer that came
        # while the loop ran late (a moment's lag, 0.13 s) made a Telegram 0.3 s away look 0.04 s
        # away for the next 30 s, and every answer since looked slow (the limit fell to its least).
        self._remember(now, seconds)
        seconds = max(0.0, seconds - LOOP_WAITS * self.lag.value)  # Telegram's part
        self.recent = seconds if self.recent is None else self.recent + (seconds - self.recent) / 10
        if self.recent > self.tolerance * self.baseline + self.slack:
            self._cut(started, now, 0.8)
        elif crowded:
            self._limit = min(float(self.most), self._limit + (1.0 if self._slow_start else 1.0 / self._limit))

    def _remember(self, now: float, seconds: float) -> None:
        """The quickest answer per sixth of ``memory``, for the last ``memory`` seconds."""
        while self._quickest and now - self._quickest[0][0] > self.memory:
            self._quickest.popleft()
        if self._quickest and now - self._quickest[-1][0] < self.memory / 6:
            since, quickest = self._quickest[-1]
            self._quickest[-1] = (since, min(quickest, seconds))
        else:
            self._quickest.append((now, seconds))

    def _cut(self, started: float, now: float, factor: float) -> None:
        if started < self._cut_at:
            return  # sent before the last cut: that cut took care of it
        self._slow_start = False
        self._cut_at = now
        self._limit = max(float(self.least), self._limit * factor)

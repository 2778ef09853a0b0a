"""The milestones of a match, named: each is reached by the one who owns it and awaited by whoever
needs it, on the match itself (``match.stages``), so that nobody waits on another module's job.

    table, private[seat], lobby   its messages show what was asked of them (bot/showing/tables.py
                                  reaches them; a computer's move and a turn ping wait for the
                                  table, the results for every message, /nextgame for the lobby)
    recorded                      the game is in the records, with the ratings it moved
                                  (bot/records/records.py; the results wait for it)
    ended                         its end is shown: the results posted, or why it was cancelled
                                  said (bot/ending/finisher.py)
    released                      the bot let go of it (bot/ending/finisher.py, or
                                  bot/showing/tables.py for a lobby that closed)
"""
from __future__ import annotations

import asyncio
import collections
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Progress:
    """Work asked for again and again (a redraw after each move), done in runs that each cover
    every request made before the run began: ``ask()`` when it is asked for, ``begin()`` when a
    run starts (it returns what the run covers), ``done(covered)`` when the run is over (shown,
    or given up on: nobody waits for Telegram to come back). ``await caught_up()`` waits until
    everything asked before the call is done."""

    def __init__(self) -> None:
        self._asked = 0
        self._done = 0
        self._waiters: list[tuple[int, asyncio.Future]] = []

    def ask(self) -> None:
        self._asked += 1

    def begin(self) -> int:
        return self._asked

    def done(self, covered: int) -> None:
        if covered <= self._done:
            return
        self._done = covered
        still = []
        for target, future in self._waiters:
            if target <= covered:
                if not future.done():
                    future.set_result(None)
            else:
                still.append((target, future))
        self._waiters = still

    async def caught_up(self) -> None:
        target = self._asked
        if self._done >= target:
            return
        future = asyncio.get_running_loop().create_future()
        self._waiters.append((target, future))
        await future


class Once(Generic[T]):
    """A milestone reached once, with a value (the record; None where there is nothing to say)."""

    def __init__(self) -> None:
        self._future: asyncio.Future | None = None

    def _get(self) -> asyncio.Future:
        if self._future is None:
            self._future = asyncio.get_running_loop().create_future()
        return self._future

    def reach(self, value: T = None) -> None:
        future = self._get()
        if not future.done():
            future.set_result(value)

    def fail(self, error: BaseException) -> None:
        """It cannot be reached (a bug, logged where it happened): whoever waits hears the error."""
        future = self._get()
        if not future.done():
            future.set_exception(error)
            future.exception()  # told to whoever waits; nobody waiting is no second log line

    async def wait(self) -> T:
        return await asyncio.shield(self._get())


class Stages:
    def __init__(self) -> None:
        self.table = Progress()
        self.private: collections.defaultdict[int, Progress] = collections.defaultdict(Progress)
        self.lobby = Progress()
        self.recorded: Once[Any] = Once()
        self.ended: Once[None] = Once()
        self.released: Once[None] = Once()

    async def messages_caught_up(self) -> None:
        """The table and every private message show what was asked of them."""
        await self.table.caught_up()
        for progress in list(self.private.values()):
            await progress.caught_up()

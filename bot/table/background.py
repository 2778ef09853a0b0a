"""Background work that may wait: redraws of game messages, pings, a computer's next move.

One :class:`Background` is built in the composition root and handed to whoever needs it. Work
is keyed: at most one job per key runs at a time, and a job scheduled while one runs replaces
the pending one (a burst of moves becomes one redraw of the newest state). A job may stand for a
milestone of its match (``bot/table/stages.py``: a message shown): each run reaches it for
every request made before the run began, shown or given up on. A job that raises
:class:`TryLater`, or meets the database away, runs again after a while, unless a newer one
took its place. At shut-down the jobs get a few seconds to finish (``drain``), then the rest
are cancelled (a restart redraws everything from the store).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

from bot import logs
from bot.storage.store import StoreUnavailable
from bot.table.stages import Progress

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]

RETRY_SECONDS = 10.0  # a job Telegram or the database could not be reached for runs again this much later


class TryLater(Exception):
    """Telegram could not be reached for this message: run the job again later (an edit is not
    turned into a new message, which would leave the old one behind with live buttons)."""

    def __init__(self, seconds: float = RETRY_SECONDS):
        super().__init__(seconds)
        self.seconds = seconds


class Background:
    """At most one running job per key; the newest scheduled job of a key is the one that runs."""

    def __init__(self) -> None:
        self._pending: dict[Any, Job] = {}
        self._progress: dict[Any, Progress] = {}  # the milestone a key's runs reach
        # What each pending job's scheduler was working for (chat, game), for its log records: the
        # task of a key runs every job scheduled for the key meanwhile, not just the first one.
        self._about: dict[Any, tuple[int | None, int | None]] = {}
        self._tasks: dict[Any, asyncio.Task] = {}
        self._later: dict[Any, asyncio.TimerHandle] = {}
        self._closed = False

    def schedule(self, key: Any, job: Job, progress: Progress | None = None) -> None:
        if self._closed:
            return  # shutting down: a restart redraws everything
        if progress is not None:
            progress.ask()
            self._progress[key] = progress
        later = self._later.pop(key, None)
        if later is not None:
            later.cancel()
        self._pending[key] = job
        self._about[key] = logs.current()
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    async def _run(self, key: Any) -> None:
        while key in self._pending:
            job = self._pending.pop(key)
            logs.about(*self._about.pop(key, (None, None)))
            progress = self._progress.pop(key, None)
            covered = progress.begin() if progress is not None else 0
            try:
                await job()
            except TryLater as later:
                log.info("%r: not shown yet, trying again in %.0f s", key, later.seconds)
                self._again(key, job, later.seconds)
            except StoreUnavailable as exc:
                # Not a bug, and not to wait for a next move or start: a game's results would
                # wait for a restart. Every job is safe to run again (a restart runs them too).
                log.warning("background job %r tries again in %.0f s, the database cannot be reached: %s",
                            key, RETRY_SECONDS, exc)
                self._again(key, job, RETRY_SECONDS)
            except Exception:  # one failed job must not stop the next one
                log.exception("background job %r failed", key)
            finally:
                if progress is not None:
                    progress.done(covered)  # shown, or given up on: nobody waits for Telegram's return
        self._tasks.pop(key, None)

    def _again(self, key: Any, job: Job, seconds: float) -> None:
        """Run ``job`` again after ``seconds``, unless a newer job of its key took its place."""
        if key not in self._pending:
            self._later[key] = asyncio.get_running_loop().call_later(seconds, lambda: self.schedule(key, job))

    async def drain(self, timeout: float = 10.0) -> None:
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    def close(self) -> None:
        """Forget the retries still waiting and take no new jobs (at shut-down; a restart
        redraws everything)."""
        self._closed = True
        for handle in self._later.values():
            handle.cancel()
        self._later.clear()

    async def cancel(self, timeout: float = 1.0) -> None:
        """Close, cancel the jobs still running and wait until they have stopped (at shut-down,
        after ``drain``: no task is left pending when the event loop closes)."""
        self.close()
        self._pending.clear()
        self._about.clear()
        tasks = self.running()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    def running(self) -> list[asyncio.Task]:
        return [t for t in self._tasks.values() if not t.done()]

    @property
    def busy(self) -> bool:
        return bool(self.running())

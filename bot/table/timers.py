"""Watchers on python-telegram-bot's JobQueue: one per (kind, game), replaced when re-armed.

A watcher runs ``check(game_id, now)`` after a delay; the check returns when to look again
(epoch seconds) or None to stop. Lobby idle timeouts and turn timers are both watchers.
"""
from __future__ import annotations

import contextlib
import logging
import time
from typing import Awaitable, Callable

from apscheduler.jobstores.base import JobLookupError
from telegram.ext import Job, JobQueue

from bot.storage.store import StoreUnavailable

log = logging.getLogger(__name__)

Check = Callable[[int, float], Awaitable[float | None]]
STORE_RETRY_SECONDS = 10.0  # a check that could not reach the database looks again this much later


class Timers:
    def __init__(self, job_queue: JobQueue | None):
        self.job_queue = job_queue
        # Our own jobs by name: the JobQueue finds a job by name by looking at every job (and
        # the turn timer is re-armed after every move of every game).
        self._jobs: dict[str, Job] = {}

    def watch(self, kind: str, game_id: int, check: Check, delay: float = 0.0) -> None:
        """Run ``check`` for this game after ``delay`` seconds, and again whenever it asks."""
        jq = self.job_queue
        if jq is None:
            return
        self.stop(kind, game_id)

        name = f"{kind}:{game_id}"

        async def look(context) -> None:
            if self._jobs.get(name) is context.job:
                del self._jobs[name]
            try:
                again = await check(game_id, time.time())
            except StoreUnavailable as exc:  # not a bug, and the timer must go on: look again later
                log.warning("the %s timer of game %s looks again in %.0f s, the database cannot be reached: %s",
                            kind, game_id, STORE_RETRY_SECONDS, exc)
                again = time.time() + STORE_RETRY_SECONDS
            if again is not None:
                self.watch(kind, game_id, check, max(0.5, again - time.time()))
        self._jobs[name] = jq.run_once(look, delay, name=name)

    def stop(self, kind: str, game_id: int) -> None:
        job = self._jobs.pop(f"{kind}:{game_id}", None)
        if job is not None and not job.removed:
            with contextlib.suppress(JobLookupError):  # it ran already (a one-off job then goes)
                job.schedule_removal()

"""Watchers on python-telegram-bot's JobQueue: one per (kind, game), replaced when re-armed.

A watcher runs ``check(game_id, now)`` after a delay; the check returns when to look again
(epoch seconds) or None to stop. Lobby idle timeouts and turn timers are both watchers.
"""
from __future__ import annotations

import time
from typing import Awaitable, Callable

from telegram.ext import JobQueue

Check = Callable[[int, float], Awaitable[float | None]]


class Timers:
    def __init__(self, job_queue: JobQueue | None):
        self.job_queue = job_queue

    def watch(self, kind: str, game_id: int, check: Check, delay: float = 0.0) -> None:
        """Run ``check`` for this game after ``delay`` seconds, and again whenever it asks."""
        jq = self.job_queue
        if jq is None:
            return
        self.stop(kind, game_id)

        async def look(context) -> None:
            again = await check(game_id, time.time())
            if again is not None:
                self.watch(kind, game_id, check, max(0.5, again - time.time()))
        jq.run_once(look, delay, name=f"{kind}:{game_id}")

    def stop(self, kind: str, game_id: int) -> None:
        if self.job_queue is None:
            return
        for job in self.job_queue.get_jobs_by_name(f"{kind}:{game_id}"):
            job.schedule_removal()

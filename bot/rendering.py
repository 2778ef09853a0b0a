"""Pictures are drawn in a worker process, off the event loop and outside its GIL.

Drawing a board takes tens of milliseconds of pure Python; in a thread it would still hold the
GIL and slow every other chat. A picture job is a picklable ``functools.partial`` of a
module-level function (``render.common.picture_of``); anything else falls back to a thread.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import pickle
from typing import Callable

log = logging.getLogger(__name__)

_pool: concurrent.futures.ProcessPoolExecutor | None = None


def _workers() -> int:
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def pool() -> concurrent.futures.ProcessPoolExecutor:
    """One pool per process, shared by every Application in it (tests start several)."""
    global _pool
    if _pool is None:
        # spawn: the bot process has threads (and so do the tests); fork would copy their locks.
        _pool = concurrent.futures.ProcessPoolExecutor(_workers(), mp_context=multiprocessing.get_context("spawn"))
    return _pool


async def render_picture(job: Callable[[], bytes]) -> bytes:
    loop = asyncio.get_running_loop()
    try:
        pickle.dumps(job)
    except Exception:
        log.debug("picture job %r is not picklable; drawing it in a thread", job)
        return await asyncio.to_thread(job)
    try:
        return await loop.run_in_executor(pool(), job)
    except concurrent.futures.process.BrokenProcessPool:
        global _pool
        _pool = None
        log.warning("the drawing process died; drawing in a thread this time")
        return await asyncio.to_thread(job)

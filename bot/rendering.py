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
import signal
import time
from typing import Callable

from bot import memory

log = logging.getLogger(__name__)

_pool: concurrent.futures.ProcessPoolExecutor | None = None


def _workers() -> int:
    return max(1, min(4, (os.cpu_count() or 2) - 1))


WORKER_NICENESS = 5


def _worker_init() -> None:
    """A worker leaves Ctrl-C to the bot (which stops it in order) instead of dying with a traceback,
    and yields the CPU to the bot's event loop when both want it: answering a press must never
    wait for a picture (a later picture only means a coalesced, later edit)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    memory.trim_in_background()


def pool() -> concurrent.futures.ProcessPoolExecutor:
    """One pool per process, shared by every Application in it (tests start several)."""
    global _pool
    if _pool is None:
        # spawn: the bot process has threads (and so do the tests); fork would copy their locks.
        _pool = concurrent.futures.ProcessPoolExecutor(_workers(), mp_context=multiprocessing.get_context("spawn"),
                                                       initializer=_worker_init)
    return _pool


def shutdown(timeout: float = 2.0) -> None:
    """Stop the worker processes (at exit) without hanging: work not started is dropped, a
    worker still busy after ``timeout`` seconds is terminated. A later picture starts a new pool."""
    global _pool
    executor, _pool = _pool, None
    if executor is None:
        return
    workers = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + timeout
    for process in workers:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in workers:
        if process.is_alive():
            log.warning("a drawing process did not stop within %.0f s; terminating it", timeout)
            process.terminate()
            process.join(1.0)
            if process.is_alive():
                process.kill()


async def render_picture(job: Callable[[], bytes]) -> bytes:
    global _pool
    loop = asyncio.get_running_loop()
    try:
        pickle.dumps(job)
    except Exception:
        log.debug("picture job %r is not picklable; drawing it in a thread", job)
        return await asyncio.to_thread(job)
    try:
        try:
            future = loop.run_in_executor(pool(), job)
        except RuntimeError:  # the pool was shut down in between (a stop): a new one takes it
            _pool = None
            future = loop.run_in_executor(pool(), job)
        return await future
    except concurrent.futures.process.BrokenProcessPool:
        _pool = None
        log.warning("the drawing process died; drawing in a thread this time")
        return await asyncio.to_thread(job)


async def think(job: Callable[[], object]) -> object:
    """A computer player's decision (a picklable job) in the same worker processes: thinking,
    like drawing, must never hold up the event loop."""
    return await render_picture(job)

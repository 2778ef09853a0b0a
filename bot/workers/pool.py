"""Pictures are drawn, and computer players think, in worker processes (``bot/workers/worker.py``):
off the event loop and outside its GIL.

A job is a picklable ``functools.partial`` of a module-level function (``render.common.picture_of``,
``engines.ai.choose_in``); anything else is run in a thread. Each worker process has one thread
of the bot that hands it jobs over a pipe, one at a time, and waits for the reply.

Why not ``concurrent.futures.ProcessPoolExecutor``: with the spawn start method (the bot has
threads, which fork would copy mid-lock) multiprocessing also starts its resource tracker, a
third Python process (10 MB for the semaphores of its queues), and has every worker import the
bot's main module. A worker here is a plain child process that imports what its jobs need.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import pickle
import subprocess
import sys
import threading
from typing import Callable

import bot
from bot.workers.worker import read_message, write_message

log = logging.getLogger(__name__)

# Where ``bot`` can be imported from, for the worker (the bot may run from a checkout).
_SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(bot.__file__)))


def _workers() -> int:
    """A drawing process per core, four at most. They run niced (bot/workers/worker.py), so the
    event loop still comes first; a core fewer left pictures queueing on a two-core machine
    while a core stood idle (1,000 busy groups: 123 writes a second went out, now 150)."""
    return max(1, min(4, os.cpu_count() or 1))


class WorkerDied(Exception):
    """The worker process ended (killed, crashed) before it answered."""


class _Worker:
    """One worker process and its pipes; used by one thread at a time."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_SOURCE, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen([sys.executable, "-m", "bot.workers.worker"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env)

    def run(self, payload: bytes) -> tuple[bool, object]:
        try:
            write_message(self.process.stdin, payload)
            reply = read_message(self.process.stdout)
        except (OSError, ValueError) as exc:  # a closed pipe
            raise WorkerDied(str(exc)) from None
        if reply is None:
            raise WorkerDied(f"exit code {self.process.poll()}")
        return pickle.loads(reply)

    def stop(self, timeout: float) -> None:
        """Close its stdin (it ends by itself), then terminate it if it does not."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            log.warning("a drawing process did not stop within %.0f s; terminating it", timeout)
            self.process.kill()
            self.process.wait(1.0)


class _Pool:
    """Worker processes, each served by a thread of its own (started when first needed)."""

    def __init__(self, size: int) -> None:
        self.threads = concurrent.futures.ThreadPoolExecutor(size, thread_name_prefix="drawing")
        self.local = threading.local()
        self.workers: list[_Worker] = []
        self.lock = threading.Lock()
        self.closed = False

    def run(self, payload: bytes) -> tuple[bool, object]:
        """Run one job in this thread's worker (in a thread of ``self.threads``)."""
        worker = getattr(self.local, "worker", None)
        if worker is None or worker.process.poll() is not None:
            with self.lock:
                if self.closed:
                    raise WorkerDied("stopped")
                self._forget(worker)  # it died: a new one takes its place
                worker = self.local.worker = _Worker()
                self.workers.append(worker)
        try:
            return worker.run(payload)
        except WorkerDied:
            # Forgotten now, not when its exit shows: a process that closed its pipes may not be
            # reaped yet (poll() still None), and the next job would go down the broken pipe.
            with self.lock:
                self._forget(worker)
                self.local.worker = None
            raise

    def _forget(self, worker: _Worker | None) -> None:
        if worker in self.workers:
            self.workers.remove(worker)

    def stop(self, timeout: float) -> None:
        with self.lock:
            self.closed = True
            workers, self.workers = self.workers, []
        self.threads.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.stop(timeout)


_pool: _Pool | None = None


def pool() -> _Pool:
    """One pool per process, shared by every Application in it (tests start several)."""
    global _pool
    if _pool is None or _pool.closed:
        _pool = _Pool(_workers())
    return _pool


def shutdown(timeout: float = 2.0) -> None:
    """Stop the worker processes (at exit) without hanging: work not started is dropped, a
    worker still busy after ``timeout`` seconds is terminated. A later job starts a new pool."""
    global _pool
    current, _pool = _pool, None
    if current is not None:
        current.stop(timeout)


async def render_picture(job: Callable[[], bytes]) -> bytes:
    try:
        payload = pickle.dumps(job)
    except Exception:
        log.debug("picture job %r is not picklable; drawing it in a thread", job)
        return await asyncio.to_thread(job)
    loop = asyncio.get_running_loop()
    try:
        try:
            workers = pool()
            ok, value = await loop.run_in_executor(workers.threads, workers.run, payload)
        except RuntimeError:  # the pool was being stopped in between (a stop): a new one takes it
            workers = pool()
            ok, value = await loop.run_in_executor(workers.threads, workers.run, payload)
    except WorkerDied as exc:
        log.warning("the drawing process died (%s); drawing in a thread this time", exc)
        return await asyncio.to_thread(job)
    if not ok:
        raise value
    return value


async def think(job: Callable[[], object]) -> object:
    """A computer player's decision (a picklable job) in the same worker processes: thinking,
    like drawing, must never hold up the event loop."""
    return await render_picture(job)

"""Run a coroutine on an asyncio event loop whose clock jumps ahead to its next timer whenever
nothing is ready to run: a minute of the pacer's life in well under a second of the test's.

Only for code that waits on the loop's own clock (``asyncio.sleep``, ``loop.call_later``,
``loop.time()``) and does no real I/O: a real socket's answer would come in real time.
"""
from __future__ import annotations

import asyncio
from typing import Any, Coroutine


def run_on_virtual_time(coroutine: Coroutine[Any, Any, Any]) -> Any:
    loop = asyncio.new_event_loop()
    now = [0.0]
    loop.time = lambda: now[0]  # the loop reads its clock through this (BaseEventLoop.time)
    selector = loop._selector  # the selector loop waits here for its next timer: jump to it instead
    real_select = selector.select

    def select(timeout: float | None = None):
        if timeout is not None and timeout > 0:
            now[0] += timeout
            timeout = 0
        return real_select(timeout)
    selector.select = select
    try:
        return loop.run_until_complete(coroutine)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()

"""A test that hangs ends its worker, not the run: after ``LIMIT_SECONDS`` (the slowest test takes
about a minute) the watchdog prints where every thread is and where every unfinished asyncio
task waits, then ends the process. pytest-xdist reports that test as crashed, starts another
worker and goes on, so a run that would have waited for ever fails within minutes and says where.

A thread, not a signal: the event loop may be the thing that is stuck, and a task's stack (what
it awaits) is what tells an asyncio hang apart; the main thread alone shows only the loop's wait.
"""
from __future__ import annotations

import asyncio
import faulthandler
import gc
import os
import sys
import threading

import pytest

LIMIT_SECONDS = float(os.environ.get("TABLEBOT_TEST_LIMIT", "300"))


def _dump(item: pytest.Item) -> None:
    capture = item.config.pluginmanager.getplugin("capturemanager")
    if capture is not None:
        capture.suspend_global_capture(in_=True)  # the report must reach the terminal, not a capture
    out = sys.stderr
    out.write(f"\n\n+++ {item.nodeid} has run for {LIMIT_SECONDS:.0f} s: ended. Its threads:\n")
    out.flush()
    faulthandler.dump_traceback(file=out, all_threads=True)
    tasks = [o for o in gc.get_objects() if isinstance(o, asyncio.Task) and not o.done()]
    out.write(f"\n+++ its {len(tasks)} unfinished asyncio tasks, each where it waits:\n")
    for task in tasks:
        out.write(f"\n{task.get_name()}:\n")
        for line in _awaits(task.get_coro()):
            out.write(f"  {line}\n")
    out.flush()
    os._exit(3)


def _awaits(coro) -> list[str]:
    """Where a suspended coroutine waits, down the chain of what each one awaits (a task's own
    stack shows only its outermost frame)."""
    lines = []
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None) or getattr(coro, "ag_frame", None)
        if frame is not None:
            lines.append(f"{frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None) or getattr(coro, "ag_await", None)
    return lines


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    timer = threading.Timer(LIMIT_SECONDS, _dump, (item,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
